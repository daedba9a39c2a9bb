package mini;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/** Sliding-window rate limiting per client; the caller passes the clock's time. */
public final class RateLimiter {
    private final int limit;
    private final long windowMillis;
    private final Map<String, Deque<Long>> history = new HashMap<>();

    public RateLimiter(int limit, long windowMillis) {
        if (limit < 1 || windowMillis < 1) {
            throw new IllegalArgumentException("limit and window must be positive");
        }
        this.limit = limit;
        this.windowMillis = windowMillis;
    }

    /** Records a request at {@code nowMillis} if it is allowed; returns whether it is. */
    public boolean allow(String client, long nowMillis) {
        Deque<Long> times = history.computeIfAbsent(client, c -> new ArrayDeque<>());
        while (!times.isEmpty() && times.peekFirst() < nowMillis - windowMillis) {
            times.pollFirst();
        }
        if (times.size() >= limit) {
            return false;
        }
        times.addLast(nowMillis);
        return true;
    }
}
