package mini;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class HumanSizeTest {
    @Test
    public void smallSizes() {
        assertEquals("512 B", HumanSize.format(512));
        assertEquals("1.5 KiB", HumanSize.format(1536));
    }

    @Test
    public void justUnderAMebibyte() {
        assertEquals("1023.0 KiB", HumanSize.format(1023L * 1024));
    }
}
