package mini;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class BracketsHiddenTest {
    @Test
    public void emptyAndPlainText() {
        assertTrue(Brackets.isBalanced(""));
        assertTrue(Brackets.isBalanced("no brackets here"));
    }

    @Test
    public void unclosedOfEveryKind() {
        assertFalse(Brackets.isBalanced("["));
        assertFalse(Brackets.isBalanced("{{}"));
        assertFalse(Brackets.isBalanced("([]"));
    }

    @Test
    public void closedTooEarly() {
        assertFalse(Brackets.isBalanced(")("));
        assertFalse(Brackets.isBalanced("a)"));
    }

    @Test
    public void crossed() {
        assertFalse(Brackets.isBalanced("([)]"));
        assertFalse(Brackets.isBalanced("{(})"));
    }

    @Test
    public void deepNesting() {
        assertTrue(Brackets.isBalanced("{[(())]}[]{}()"));
    }
}
