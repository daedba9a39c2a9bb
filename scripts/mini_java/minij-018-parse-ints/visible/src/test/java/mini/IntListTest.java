package mini;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import java.util.Collections;
import org.junit.Test;

public class IntListTest {
    @Test
    public void allNumbers() {
        IntList.Parsed p = IntList.parse("1, 2,3");
        assertEquals(Arrays.asList(1, 2, 3), p.numbers);
        assertEquals(Collections.emptyList(), p.rejected);
    }

    @Test
    public void wordIsRejected() {
        IntList.Parsed p = IntList.parse("1, 2, x, 3");
        assertEquals(Arrays.asList(1, 2, 3), p.numbers);
        assertEquals(Arrays.asList("x"), p.rejected);
    }
}
