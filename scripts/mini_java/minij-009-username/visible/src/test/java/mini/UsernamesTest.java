package mini;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class UsernamesTest {
    @Test
    public void ordinaryName() {
        assertTrue(Usernames.isValid("ada_99"));
    }

    @Test
    public void tooShort() {
        assertFalse(Usernames.isValid("al"));
    }
}
