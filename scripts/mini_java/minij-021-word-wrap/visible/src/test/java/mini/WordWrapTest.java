package mini;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import org.junit.Test;

public class WordWrapTest {
    @Test
    public void wideEnoughForEverything() {
        assertEquals(Arrays.asList("a b c"), WordWrap.wrap("a b c", 20));
    }

    @Test
    public void linesFillTheWidthExactly() {
        assertEquals(Arrays.asList("the quick", "brown fox"), WordWrap.wrap("the quick brown fox", 9));
    }
}
