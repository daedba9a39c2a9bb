package mini;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class RateLimiterTest {
    @Test
    public void limitWithinAWindow() {
        RateLimiter limiter = new RateLimiter(2, 1000);
        assertTrue(limiter.allow("ana", 0));
        assertTrue(limiter.allow("ana", 500));
        assertFalse(limiter.allow("ana", 999));
    }

    @Test
    public void oldestRequestExpiresAfterOneWindow() {
        RateLimiter limiter = new RateLimiter(2, 1000);
        limiter.allow("ana", 0);
        limiter.allow("ana", 500);
        assertTrue(limiter.allow("ana", 1000));
    }
}
