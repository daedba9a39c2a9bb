package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import org.junit.Test;

public class HumanSizeHiddenTest {
    @Test
    public void bytes() {
        assertEquals("0 B", HumanSize.format(0));
        assertEquals("1023 B", HumanSize.format(1023));
        assertEquals("1.0 KiB", HumanSize.format(1024));
    }

    @Test
    public void justUnderAGibibyte() {
        assertEquals("1010.0 MiB", HumanSize.format(1010L * 1024 * 1024));
    }

    @Test
    public void largerUnits() {
        assertEquals("2.0 MiB", HumanSize.format(2L * 1024 * 1024));
        assertEquals("5.5 GiB", HumanSize.format(11L * 512 * 1024 * 1024));
        assertEquals("1000.0 GiB", HumanSize.format(1000L * 1024 * 1024 * 1024));
    }

    @Test
    public void tebibytesAreTheLargestUnit() {
        assertEquals("2048.0 TiB", HumanSize.format(2048L * 1024 * 1024 * 1024 * 1024));
    }

    @Test
    public void negative() {
        assertThrows(IllegalArgumentException.class, () -> HumanSize.format(-1));
    }
}
