package mini;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class StatsTest {
    private static final double[] XS = {2, 4, 4, 4, 5, 5, 7, 9};

    @Test
    public void mean() {
        assertEquals(5.0, Stats.mean(XS), 1e-9);
    }

    @Test
    public void variance() {
        assertEquals(32.0 / 7.0, Stats.variance(XS), 1e-9);
    }
}
