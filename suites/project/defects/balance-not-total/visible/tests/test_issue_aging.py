"""Issue: an invoice of €200 with €150 paid shows up as €200 overdue in the aging report."""

from datetime import date
from decimal import Decimal

from stockroom.billing import Invoice, Payment
from stockroom.money import Money
from stockroom.reports import aging
from stockroom.tax import TaxLine


def test_aging_counts_the_unpaid_part() -> None:
    invoice = Invoice(
        "INV-2024-0001",
        "O1",
        "C1",
        date(2024, 3, 1),
        date(2024, 3, 31),
        "EUR",
        [],
        [TaxLine(Decimal(0), Money.of("200.00"), Money.of("0"))],
        payments=[Payment(date(2024, 3, 20), Money.of("150.00"))],
    )
    assert aging([invoice], date(2024, 4, 15))["1-30"] == Money.of("50.00")
