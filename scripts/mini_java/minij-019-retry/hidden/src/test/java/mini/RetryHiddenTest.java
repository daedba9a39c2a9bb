package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

public class RetryHiddenTest {
    static final class ServiceBusy extends RuntimeException {
        ServiceBusy(String message) {
            super(message);
        }
    }

    @Test
    public void anyUncheckedExceptionIsRetried() {
        int[] calls = {0};
        int got = Retry.call(() -> {
            calls[0]++;
            if (calls[0] < 3) {
                throw new ServiceBusy("busy " + calls[0]);
            }
            return 42;
        }, 3);
        assertEquals(42, got);
        assertEquals(3, calls[0]);
    }

    @Test
    public void listenerHearsEveryRetry() {
        List<String> heard = new ArrayList<>();
        int[] calls = {0};
        Retry.call(() -> {
            calls[0]++;
            if (calls[0] == 1) {
                throw new ArithmeticException("overflow");
            }
            if (calls[0] == 2) {
                throw new IllegalStateException("not ready");
            }
            return "done";
        }, 5, (attempt, failure) -> heard.add(attempt + ":" + failure.getMessage()));
        assertEquals(List.of("1:overflow", "2:not ready"), heard);
    }

    @Test
    public void lastFailureIsThrown() {
        int[] calls = {0};
        ServiceBusy thrown = assertThrows(ServiceBusy.class, () -> Retry.call(() -> {
            calls[0]++;
            throw new ServiceBusy("busy " + calls[0]);
        }, 4));
        assertEquals("busy 4", thrown.getMessage());
        assertEquals(4, calls[0]);
    }

    @Test
    public void singleAttemptIsNotRetried() {
        IllegalStateException boom = new IllegalStateException("boom");
        assertSame(boom, assertThrows(IllegalStateException.class, () -> Retry.call(() -> {
            throw boom;
        }, 1)));
    }

    @Test
    public void badAttempts() {
        assertThrows(IllegalArgumentException.class, () -> Retry.call(() -> 1, 0));
    }
}
