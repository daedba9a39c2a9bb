package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import org.junit.Test;

public class IntListHiddenTest {
    @Test
    public void negativeAndSignedNumbers() {
        IntList.Parsed p = IntList.parse("-2, +7, 10");
        assertEquals(Arrays.asList(-2, 7, 10), p.numbers);
        assertTrue(p.rejected.isEmpty());
    }

    @Test
    public void tooLargeIsRejected() {
        IntList.Parsed p = IntList.parse("5, 99999999999, 6");
        assertEquals(Arrays.asList(5, 6), p.numbers);
        assertEquals(Arrays.asList("99999999999"), p.rejected);
    }

    @Test
    public void blanksAreSkippedNotRejected() {
        IntList.Parsed p = IntList.parse(" , 4,, 1.5 ,");
        assertEquals(Arrays.asList(4), p.numbers);
        assertEquals(Arrays.asList("1.5"), p.rejected);
    }

    @Test
    public void sumIgnoresRejected() {
        assertEquals(8, IntList.sum("3, three, 5, -"));
    }
}
