package mini;

import static org.junit.Assert.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.Test;

public class RetryTest {
    @Test
    public void succeedsAtOnce() {
        assertEquals("ok", Retry.call(() -> "ok", 3));
    }

    @Test
    public void connectionDropsOnce() {
        int[] calls = {0};
        String got = Retry.call(() -> {
            calls[0]++;
            if (calls[0] == 1) {
                throw new UncheckedIOException(new IOException("connection reset"));
            }
            return "payload";
        }, 3);
        assertEquals("payload", got);
        assertEquals(2, calls[0]);
    }
}
