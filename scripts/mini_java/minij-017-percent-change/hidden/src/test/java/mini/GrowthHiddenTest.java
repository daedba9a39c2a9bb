package mini;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import org.junit.Test;

public class GrowthHiddenTest {
    @Test
    public void decline() {
        assertEquals(-50.0, Growth.percentChange(300, 150), 1e-9);
    }

    @Test
    public void doubling() {
        assertEquals(100.0, Growth.percentChange(40, 80), 1e-9);
    }

    @Test
    public void dropToZero() {
        assertEquals(-100.0, Growth.percentChange(25, 0), 1e-9);
    }

    @Test
    public void series() {
        assertArrayEquals(new double[] {10.0, -50.0, 300.0},
                Growth.changes(new double[] {100, 110, 55, 220}), 1e-9);
        assertEquals(0, Growth.changes(new double[] {5}).length);
    }

    @Test
    public void fromZero() {
        assertThrows(IllegalArgumentException.class, () -> Growth.percentChange(0, 10));
    }
}
