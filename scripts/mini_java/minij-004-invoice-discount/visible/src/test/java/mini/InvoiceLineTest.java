package mini;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class InvoiceLineTest {
    @Test
    public void gross() {
        assertEquals(1000, new InvoiceLine(500, 2, 10).grossCents());
    }

    @Test
    public void tenPercentOff() {
        assertEquals(900, new InvoiceLine(500, 2, 10).totalCents());
    }
}
