package mini;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import org.junit.Test;

public class WindowsHiddenTest {
    @Test
    public void triples() {
        assertArrayEquals(new double[] {6, 9, 12}, Windows.windowSums(new double[] {1, 2, 3, 4, 5}, 3), 1e-9);
    }

    @Test
    public void windowAsLongAsInput() {
        assertArrayEquals(new double[] {6}, Windows.windowSums(new double[] {1, 2, 3}, 3), 1e-9);
    }

    @Test
    public void windowLongerThanInput() {
        assertEquals(0, Windows.windowSums(new double[] {1, 2}, 3).length);
    }

    @Test
    public void singleValueWindows() {
        assertArrayEquals(new double[] {4, 5, 6}, Windows.windowSums(new double[] {4, 5, 6}, 1), 1e-9);
    }

    @Test
    public void unevenValues() {
        assertArrayEquals(new double[] {11, 4, 15, 17}, Windows.windowSums(new double[] {10, 1, 3, 12, 5}, 2), 1e-9);
    }

    @Test
    public void movingAverageOfFour() {
        assertArrayEquals(new double[] {4, 6}, Windows.movingAverage(new double[] {1, 3, 5, 7, 9}, 4), 1e-9);
    }

    @Test
    public void badSize() {
        assertThrows(IllegalArgumentException.class, () -> Windows.windowSums(new double[] {1, 2}, 0));
    }
}
