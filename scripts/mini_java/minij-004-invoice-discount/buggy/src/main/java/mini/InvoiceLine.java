package mini;

import java.util.List;

/** One line of an invoice; amounts are in cents. */
public final class InvoiceLine {
    private final long unitCents;
    private final int quantity;
    private final int discountPercent;

    public InvoiceLine(long unitCents, int quantity, int discountPercent) {
        if (unitCents < 0 || quantity < 0) {
            throw new IllegalArgumentException("price and quantity must not be negative");
        }
        if (discountPercent < 0 || discountPercent > 100) {
            throw new IllegalArgumentException("discount must be between 0 and 100 percent");
        }
        this.unitCents = unitCents;
        this.quantity = quantity;
        this.discountPercent = discountPercent;
    }

    /** Price of the line before the discount. */
    public long grossCents() {
        return unitCents * quantity;
    }

    /** The discount, rounded down to whole cents. */
    public long discountCents() {
        return grossCents() * discountPercent / 100;
    }

    /** What the customer pays for this line. */
    public long totalCents() {
        return grossCents() + discountCents();
    }

    /** What the customer pays for all the lines. */
    public static long invoiceTotalCents(List<InvoiceLine> lines) {
        long total = 0;
        for (InvoiceLine line : lines) {
            total += line.totalCents();
        }
        return total;
    }
}
