package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import org.junit.Test;

public class StatsHiddenTest {
    @Test
    public void twoValues() {
        assertEquals(2.0, Stats.variance(new double[] {1, 3}), 1e-9);
    }

    @Test
    public void constantSeriesHasNoSpread() {
        assertEquals(0.0, Stats.variance(new double[] {4, 4, 4, 4}), 1e-12);
    }

    @Test
    public void lastValueAtTheMean() {
        assertEquals(1.0, Stats.variance(new double[] {1, 3, 2}), 1e-9);
    }

    @Test
    public void standardDeviation() {
        assertEquals(Math.sqrt(2.5), Stats.stdDev(new double[] {1, 2, 3, 4, 5}), 1e-9);
    }

    @Test
    public void tooFewValues() {
        assertThrows(IllegalArgumentException.class, () -> Stats.variance(new double[] {1}));
        assertThrows(IllegalArgumentException.class, () -> Stats.mean(new double[0]));
    }
}
