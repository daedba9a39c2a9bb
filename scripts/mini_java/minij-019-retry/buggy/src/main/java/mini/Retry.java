package mini;

import java.util.function.Supplier;

/** Retries flaky operations (no waiting between attempts: callers add their own backoff). */
public final class Retry {
    /** Told about every failed attempt that will be retried. */
    public interface Listener {
        void retrying(int attempt, RuntimeException failure);
    }

    private Retry() {}

    public static <T> T call(Supplier<T> action, int attempts, Listener listener) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1");
        }
        for (int attempt = 1; ; attempt++) {
            try {
                return action.get();
            } catch (IllegalStateException e) {
                if (attempt >= attempts) {
                    throw e;
                }
                listener.retrying(attempt, e);
            }
        }
    }

    public static <T> T call(Supplier<T> action, int attempts) {
        return call(action, attempts, (attempt, failure) -> { });
    }
}
