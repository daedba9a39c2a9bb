package mini;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class GrowthTest {
    @Test
    public void growth() {
        assertEquals(50.0, Growth.percentChange(200, 300), 1e-9);
    }

    @Test
    public void noChange() {
        assertEquals(0.0, Growth.percentChange(80, 80), 1e-9);
    }
}
