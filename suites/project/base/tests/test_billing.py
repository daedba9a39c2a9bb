from datetime import date
from decimal import Decimal
from types import SimpleNamespace

import pytest

from stockroom.billing import Invoice, due_date, late_fee
from stockroom.errors import DuplicateRecord, ValidationError
from stockroom.money import Money
from stockroom.tax import TaxLine
from tests.conftest import DAY, make_shop

ISSUED = date(2024, 3, 28)  # a Thursday


def shipped(shop: SimpleNamespace, order_id: str = "O1", customer: str = "C1", **items: int):  # type: ignore[no-untyped-def]
    order = shop.orders.create(order_id, customer, DAY)
    for sku, qty in items.items():
        shop.orders.add_line(order, sku.replace("_", "-"), qty)
    quote = shop.orders.place(order)
    shop.orders.ship(order)
    return order, quote


@pytest.mark.parametrize(
    ("issued", "terms", "due"),
    [
        (date(2024, 3, 28), "net30", date(2024, 4, 29)),  # 27 April is a Saturday
        (date(2024, 3, 1), "net15", date(2024, 3, 18)),  # 16 March is a Saturday
        (date(2024, 3, 4), "net14", date(2024, 3, 18)),
        (date(2024, 3, 28), "due", date(2024, 3, 28)),
        (date(2024, 3, 30), "due", date(2024, 4, 1)),
        (date(2024, 1, 31), "eom", date(2024, 2, 29)),
        (date(2024, 2, 10), "eom", date(2024, 4, 1)),  # 31 March 2024 is a Sunday
        (date(2024, 12, 5), "eom", date(2025, 1, 31)),
    ],
)
def test_due_date(issued: date, terms: str, due: date) -> None:
    assert due_date(issued, terms) == due


def test_due_date_skips_holidays() -> None:
    assert due_date(date(2024, 3, 1), "net28", frozenset({date(2024, 3, 29)})) == date(2024, 4, 1)


def test_unknown_terms() -> None:
    with pytest.raises(ValidationError):
        due_date(ISSUED, "net")
    with pytest.raises(ValidationError):
        due_date(ISSUED, "later")


def test_invoice_a_simple_order(shop: SimpleNamespace) -> None:
    order, quote = shipped(shop, customer="C2", PAD_02=2, BOOK_1=1)
    invoice = shop.billing.invoice(order, quote, ISSUED)
    assert invoice.number == "INV-2024-0001"
    assert invoice.due == date(2024, 4, 12)  # C2 pays net15
    assert [(ln.sku, ln.net, ln.tax_rate) for ln in invoice.lines] == [
        ("PAD-02", Money.of("7.00"), Decimal(20)),
        ("BOOK-1", Money.of("12.50"), Decimal("5.5")),
    ]
    assert invoice.taxes == [
        TaxLine(Decimal(20), Money.of("7.00"), Money.of("1.40")),
        TaxLine(Decimal("5.5"), Money.of("12.50"), Money.of("0.69")),
    ]
    assert invoice.net == Money.of("19.50")
    assert invoice.tax == Money.of("2.09")
    assert invoice.total == Money.of("21.59")
    assert invoice.status == "open"


def test_invoice_round_trips_through_storage(shop: SimpleNamespace) -> None:
    order, quote = shipped(shop, PAD_02=2, PEN_01=12)
    invoice = shop.billing.invoice(order, quote, ISSUED)
    assert shop.billing.invoices.get(invoice.number) == invoice
    assert shop.billing.invoices.list() == [invoice]
    assert shop.billing.invoices.list("C2") == []


def test_numbers_run_per_year(shop: SimpleNamespace) -> None:
    numbers = []
    for n, issued in enumerate(
        [date(2024, 3, 1), date(2024, 12, 31), date(2025, 1, 2), date(2025, 1, 3)]
    ):
        order, quote = shipped(shop, f"O{n}", PAD_02=1)
        numbers.append(shop.billing.invoice(order, quote, issued).number)
    assert numbers == ["INV-2024-0001", "INV-2024-0002", "INV-2025-0001", "INV-2025-0002"]


def test_an_order_is_invoiced_once(shop: SimpleNamespace) -> None:
    order, quote = shipped(shop, PAD_02=1)
    shop.billing.invoice(order, quote, ISSUED)
    with pytest.raises(DuplicateRecord):
        shop.billing.invoice(order, quote, ISSUED)
    other, other_quote = shipped(shop, "O2", PAD_02=1)
    assert shop.billing.invoice(other, other_quote, ISSUED).number == "INV-2024-0002"


def test_only_shipped_orders_are_invoiced(shop: SimpleNamespace) -> None:
    order = shop.orders.create("O1", "C1", DAY)
    shop.orders.add_line(order, "PAD-02", 1)
    quote = shop.orders.place(order)
    with pytest.raises(ValidationError):
        shop.billing.invoice(order, quote, ISSUED)


def test_order_discount_is_shared_by_line_value_before_tax(shop: SimpleNamespace) -> None:
    # C1 is gold: 5% off orders of 100 or more
    order, quote = shipped(shop, BOOK_2=3, PAD_02=10)
    assert quote.subtotal == Money.of("116.00")  # 81.00 books after 10% + 35.00 pads
    assert quote.order_discount == Money.of("5.80")
    invoice = shop.billing.invoice(order, quote, ISSUED)
    assert [ln.net for ln in invoice.lines] == [Money.of("76.95"), Money.of("33.25")]
    assert invoice.net == quote.total == Money.of("110.20")
    assert invoice.taxes == [
        TaxLine(Decimal(19), Money.of("33.25"), Money.of("6.32")),
        TaxLine(Decimal(7), Money.of("76.95"), Money.of("5.39")),
    ]
    assert invoice.total == Money.of("121.91")


def test_prices_including_tax() -> None:
    shop = make_shop(promotions="", prices_include_tax=True)
    order, quote = shipped(shop, PAD_02=2, BOOK_1=2)
    invoice = shop.billing.invoice(order, quote, ISSUED)
    assert invoice.total == Money.of("32.00")
    assert invoice.taxes == [
        TaxLine(Decimal(19), Money.of("5.88"), Money.of("1.12")),
        TaxLine(Decimal(7), Money.of("23.36"), Money.of("1.64")),
    ]
    assert invoice.tax == Money.of("2.76")


def test_payments(shop: SimpleNamespace) -> None:
    order, quote = shipped(shop, customer="C2", PAD_02=2, BOOK_1=1)
    number = shop.billing.invoice(order, quote, ISSUED).number
    invoice = shop.billing.pay(number, Money.of("10.00"), date(2024, 4, 1))
    assert invoice.status == "partial"
    assert invoice.paid == Money.of("10.00")
    assert invoice.balance == Money.of("11.59")
    with pytest.raises(ValidationError):
        shop.billing.pay(number, Money.of("11.60"), date(2024, 4, 2))
    with pytest.raises(ValidationError):
        shop.billing.pay(number, Money.of("1", "USD"), date(2024, 4, 2))
    with pytest.raises(ValidationError):
        shop.billing.pay(number, Money.of("0"), date(2024, 4, 2))
    invoice = shop.billing.pay(number, Money.of("11.59"), date(2024, 4, 3))
    assert invoice.status == "paid" and invoice.balance.is_zero()
    assert len(shop.billing.invoices.get(number).payments) == 2


def make_invoice(
    total: str = "1000.00", due: date = date(2024, 4, 30), paid: str | None = None
) -> Invoice:
    from stockroom.billing import Payment

    invoice = Invoice(
        "INV-2024-0001", "O1", "C1", date(2024, 3, 31), due, "EUR", [],
        [TaxLine(Decimal(0), Money.of(total), Money.of("0"))],
    )  # fmt: skip
    if paid:
        invoice.payments.append(Payment(date(2024, 4, 2), Money.of(paid)))
    return invoice


@pytest.mark.parametrize(
    ("today", "fee"),
    [
        (date(2024, 4, 1), "0"),
        (date(2024, 4, 30), "0"),
        (date(2024, 5, 1), "0.22"),
        (date(2024, 5, 30), "6.58"),
        (date(2024, 10, 27), "39.45"),
    ],
)
def test_late_fee_runs_from_the_due_date(today: date, fee: str) -> None:
    assert late_fee(make_invoice(), today) == Money.of(fee)


def test_late_fee_is_charged_on_the_balance_only() -> None:
    assert late_fee(make_invoice(paid="500.00"), date(2024, 5, 30)) == Money.of("3.29")
    assert late_fee(make_invoice(paid="1000.00"), date(2024, 5, 30)) == Money.of("0")
    assert late_fee(make_invoice(), date(2024, 5, 30), Decimal(12)) == Money.of("9.86")


def test_days_overdue() -> None:
    invoice = make_invoice()
    assert invoice.days_overdue(date(2024, 4, 29)) == 0
    assert invoice.days_overdue(date(2024, 5, 2)) == 2
