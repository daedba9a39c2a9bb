package mini;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class BracketsTest {
    @Test
    public void nested() {
        assertTrue(Brackets.isBalanced("f(a[1], {b: 2})"));
    }

    @Test
    public void unclosed() {
        assertFalse(Brackets.isBalanced("f(a, (b)"));
    }
}
