package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.util.Arrays;
import org.junit.Test;

public class InvoiceLineHiddenTest {
    @Test
    public void noDiscount() {
        assertEquals(1797, new InvoiceLine(599, 3, 0).totalCents());
    }

    @Test
    public void quarterOff() {
        assertEquals(3000, new InvoiceLine(1000, 4, 25).totalCents());
    }

    @Test
    public void discountRoundsDownToWholeCents() {
        InvoiceLine line = new InvoiceLine(999, 1, 15);
        assertEquals(149, line.discountCents());
        assertEquals(850, line.totalCents());
    }

    @Test
    public void freeLine() {
        assertEquals(0, new InvoiceLine(1250, 2, 100).totalCents());
    }

    @Test
    public void invoiceTotal() {
        assertEquals(900 + 1797 + 3000, InvoiceLine.invoiceTotalCents(Arrays.asList(
                new InvoiceLine(500, 2, 10), new InvoiceLine(599, 3, 0), new InvoiceLine(1000, 4, 25))));
    }

    @Test
    public void badArguments() {
        assertThrows(IllegalArgumentException.class, () -> new InvoiceLine(-1, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new InvoiceLine(100, 1, 101));
    }
}
