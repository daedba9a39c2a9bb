package mini;

import static org.junit.Assert.assertArrayEquals;

import org.junit.Test;

public class WindowsTest {
    @Test
    public void pairs() {
        assertArrayEquals(new double[] {3, 5, 7}, Windows.windowSums(new double[] {1, 2, 3, 4}, 2), 1e-9);
    }

    @Test
    public void movingAverage() {
        assertArrayEquals(new double[] {3, 5}, Windows.movingAverage(new double[] {2, 4, 6}, 2), 1e-9);
    }
}
