package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import org.junit.Test;

public class WordWrapHiddenTest {
    @Test
    public void everyLineAtMostTheWidth() {
        String text = "It was the best of times, it was the worst of times, it was the age of wisdom";
        for (int width = 8; width <= 30; width++) {
            for (String line : WordWrap.wrap(text, width)) {
                assertTrue(line + " @" + width, line.length() <= width);
            }
            assertEquals(text, String.join(" ", WordWrap.wrap(text, width)));
        }
    }

    @Test
    public void exactFitThenOverflow() {
        assertEquals(Arrays.asList("aa bb", "cc dd", "e"), WordWrap.wrap("aa bb cc dd e", 5));
    }

    @Test
    public void longWordOnItsOwnLine() {
        assertEquals(Arrays.asList("a", "extraordinary", "b"), WordWrap.wrap("a extraordinary b", 5));
    }

    @Test
    public void whitespaceIsCollapsed() {
        assertEquals(Arrays.asList("one two", "three"), WordWrap.wrap("  one \n two\tthree ", 7));
        assertTrue(WordWrap.wrap("   ", 10).isEmpty());
    }

    @Test
    public void badWidth() {
        assertThrows(IllegalArgumentException.class, () -> WordWrap.wrap("x", 0));
    }
}
