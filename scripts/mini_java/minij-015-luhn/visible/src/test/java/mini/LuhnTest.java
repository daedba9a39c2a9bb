package mini;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class LuhnTest {
    @Test
    public void validNumber() {
        assertTrue(Luhn.isValid("4539 1488 0343 6467"));
    }

    @Test
    public void oneDigitChanged() {
        assertFalse(Luhn.isValid("4539 1488 0343 6468"));
    }
}
