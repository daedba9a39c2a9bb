package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class DurationsHiddenTest {
    @Test
    public void smallValues() {
        assertEquals(45_000L, Durations.toMillis("45s"));
        assertEquals(43_200_000L, Durations.toMillis("12h"));
        assertEquals(0L, Durations.toMillis("0d"));
    }

    @Test
    public void longPeriodsInEveryUnit() {
        assertEquals(31_536_000_000L, Durations.toMillis("365d"));
        assertEquals(3_600_000_000L, Durations.toMillis("1000h"));
        assertEquals(3_000_000_000L, Durations.toMillis("50000m"));
        assertEquals(3_000_000_000L, Durations.toMillis("3000000s"));
    }

    @Test
    public void expiry() {
        long day = 86_400_000L;
        assertFalse(Durations.expired(0, "90d", 89 * day));
        assertTrue(Durations.expired(0, "90d", 90 * day));
    }

    @Test
    public void badSpecs() {
        assertThrows(IllegalArgumentException.class, () -> Durations.toMillis("d"));
        assertThrows(IllegalArgumentException.class, () -> Durations.toMillis("10w"));
        assertThrows(IllegalArgumentException.class, () -> Durations.toMillis("-5m"));
        assertThrows(IllegalArgumentException.class, () -> Durations.toMillis("tend"));
    }
}
