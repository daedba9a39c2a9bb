package mini;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class UsernamesHiddenTest {
    @Test
    public void lengthLimitsAreInclusive() {
        assertTrue(Usernames.isValid("abc"));
        assertTrue(Usernames.isValid("abcdefghijklmnop"));
    }

    @Test
    public void tooLong() {
        assertFalse(Usernames.isValid("abcdefghijklmnopq"));
        assertFalse(Usernames.isValid("a_very_long_username_indeed"));
    }

    @Test
    public void emptyAndMissing() {
        assertFalse(Usernames.isValid(""));
        assertFalse(Usernames.isValid(null));
    }

    @Test
    public void mustStartWithALetter() {
        assertFalse(Usernames.isValid("9lives"));
        assertFalse(Usernames.isValid("_ada"));
    }

    @Test
    public void onlyLowerCaseLettersDigitsAndUnderscores() {
        assertFalse(Usernames.isValid("Ada"));
        assertFalse(Usernames.isValid("ada lovelace"));
        assertFalse(Usernames.isValid("ada-l"));
    }
}
