package mini;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class DurationsTest {
    @Test
    public void minutes() {
        assertEquals(5_400_000L, Durations.toMillis("90m"));
    }

    @Test
    public void monthOfDays() {
        assertEquals(2_592_000_000L, Durations.toMillis("30d"));
    }
}
