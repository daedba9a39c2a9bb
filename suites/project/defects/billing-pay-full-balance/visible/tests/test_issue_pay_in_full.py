"""Issue: paying an invoice in full is refused as "more than the balance"."""

from datetime import date
from decimal import Decimal

from stockroom.billing import Invoice, InvoiceRepository, InvoiceService
from stockroom.money import Money
from stockroom.storage import Database
from stockroom.tax import TaxLine, TaxTable


def test_pay_exactly_the_balance() -> None:
    db = Database()
    service = InvoiceService(db, TaxTable())
    invoice = Invoice(
        "INV-2024-0001",
        "O1",
        "C1",
        date(2024, 3, 1),
        date(2024, 3, 31),
        "EUR",
        [],
        [TaxLine(Decimal(19), Money.of("100.00"), Money.of("19.00"))],
    )
    InvoiceRepository(db).add(invoice)
    paid = service.pay("INV-2024-0001", Money.of("119.00"), date(2024, 3, 10))
    assert paid.status == "paid"
