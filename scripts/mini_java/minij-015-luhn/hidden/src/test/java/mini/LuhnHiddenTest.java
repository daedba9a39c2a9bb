package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class LuhnHiddenTest {
    @Test
    public void moreValidNumbers() {
        assertTrue(Luhn.isValid("79927398713"));
        assertTrue(Luhn.isValid("059"));
        assertTrue(Luhn.isValid("18"));
        assertTrue(Luhn.isValid("5555 5555 5555 4444"));
    }

    @Test
    public void invalidNumbers() {
        assertFalse(Luhn.isValid("79927398710"));
        assertFalse(Luhn.isValid("8273 1232 7352 0569"));
    }

    @Test
    public void notDigits() {
        assertFalse(Luhn.isValid("4539-1488"));
        assertFalse(Luhn.isValid("0"));
        assertFalse(Luhn.isValid(""));
    }

    @Test
    public void checkDigits() {
        assertEquals(3, Luhn.checkDigit("7992739871"));
        assertEquals(7, Luhn.checkDigit("453914880343646"));
        assertEquals(8, Luhn.checkDigit("1"));
    }
}
