package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class RateLimiterHiddenTest {
    @Test
    public void oneRequestPerSecond() {
        RateLimiter limiter = new RateLimiter(1, 1000);
        assertTrue(limiter.allow("bo", 10_000));
        assertFalse(limiter.allow("bo", 10_999));
        assertTrue(limiter.allow("bo", 11_000));
        assertTrue(limiter.allow("bo", 12_000));
    }

    @Test
    public void refusedRequestsDoNotCount() {
        RateLimiter limiter = new RateLimiter(2, 100);
        assertTrue(limiter.allow("cy", 0));
        assertTrue(limiter.allow("cy", 10));
        assertFalse(limiter.allow("cy", 50));
        assertTrue(limiter.allow("cy", 100));
        assertTrue(limiter.allow("cy", 110));
        assertFalse(limiter.allow("cy", 150));
    }

    @Test
    public void clientsAreIndependent() {
        RateLimiter limiter = new RateLimiter(1, 60_000);
        assertTrue(limiter.allow("a", 5));
        assertTrue(limiter.allow("b", 5));
        assertFalse(limiter.allow("a", 6));
    }

    @Test
    public void steadyRateAtTheLimit() {
        RateLimiter limiter = new RateLimiter(3, 300);
        int allowed = 0;
        for (long t = 0; t < 3000; t += 100) {
            if (limiter.allow("d", t)) {
                allowed++;
            }
        }
        assertEquals(30, allowed);
    }

    @Test
    public void badArguments() {
        assertThrows(IllegalArgumentException.class, () -> new RateLimiter(0, 1000));
        assertThrows(IllegalArgumentException.class, () -> new RateLimiter(5, 0));
    }
}
