from datetime import date
from decimal import Decimal
from types import SimpleNamespace

import pytest

from stockroom.billing import Invoice, Payment
from stockroom.dates import Period
from stockroom.models import Order, OrderLine, Product
from stockroom.money import Money
from stockroom.reports import (
    AGING_BUCKETS,
    SalesRow,
    aging,
    aging_bucket,
    format_invoice,
    format_table,
    monthly_invoiced,
    sales_by,
    sales_csv,
    sales_table,
    top_products,
)
from stockroom.tax import TaxLine

CATALOG = {
    "PEN-01": Product("PEN-01", "Pen", "office", Money.of("1.20")),
    "PAD-02": Product("PAD-02", "Pad", "office", Money.of("3.50")),
    "BOOK-1": Product("BOOK-1", "Guide", "books", Money.of("12.50")),
}


def order(
    order_id: str, created: date, status: str = "shipped", customer: str = "C1", **qty: int
) -> Order:
    prices = {"PEN_01": "1.00", "PAD_02": "3.50", "BOOK_1": "12.50"}
    lines = [OrderLine(k.replace("_", "-"), q, Money.of(prices[k])) for k, q in qty.items()]
    return Order(order_id, customer, created, lines, status)


ORDERS = [
    order("O1", date(2024, 3, 1), PEN_01=10, BOOK_1=1),
    order("O2", date(2024, 3, 31), customer="C2", PAD_02=4),
    order("O3", date(2024, 2, 29), BOOK_1=5),
    order("O4", date(2024, 4, 1), PAD_02=100),
    order("O5", date(2024, 3, 10), status="placed", BOOK_1=9),
    order("O6", date(2024, 3, 20), customer="C2", BOOK_1=2),
]


def test_sales_by_category() -> None:
    rows = sales_by(ORDERS, CATALOG, Period.month(2024, 3))
    assert rows == [
        SalesRow("books", 3, Money.of("37.50")),
        SalesRow("office", 14, Money.of("24.00")),
    ]


def test_sales_include_both_ends_of_the_period() -> None:
    rows = sales_by(ORDERS, CATALOG, Period.parse("2024-03-31..2024-04-01"), key="sku")
    assert [(r.key, r.qty) for r in rows] == [("PAD-02", 104)]


def test_sales_by_sku_and_customer() -> None:
    march = Period.month(2024, 3)
    assert [(r.key, r.revenue) for r in sales_by(ORDERS, CATALOG, march, key="sku")] == [
        ("BOOK-1", Money.of("37.50")),
        ("PAD-02", Money.of("14.00")),
        ("PEN-01", Money.of("10.00")),
    ]
    assert [(r.key, r.revenue) for r in sales_by(ORDERS, CATALOG, march, key="customer")] == [
        ("C2", Money.of("39.00")),
        ("C1", Money.of("22.50")),
    ]
    assert [r.key for r in top_products(ORDERS, CATALOG, march, n=2)] == ["BOOK-1", "PAD-02"]
    with pytest.raises(ValueError):
        sales_by(ORDERS, CATALOG, march, key="colour")


def test_sales_of_an_empty_period() -> None:
    assert sales_by(ORDERS, CATALOG, Period.month(2023, 3)) == []


@pytest.mark.parametrize(
    ("days", "bucket"),
    [
        (-5, "current"),
        (0, "current"),
        (1, "1-30"),
        (30, "1-30"),
        (31, "31-60"),
        (60, "31-60"),
        (61, "61-90"),
        (90, "61-90"),
        (91, "90+"),
        (400, "90+"),
    ],
)
def test_aging_bucket(days: int, bucket: str) -> None:
    assert aging_bucket(days) == bucket


def invoice(
    number: str, total: str, issued: date, due: date, paid: str | None = None, currency: str = "EUR"
) -> Invoice:
    tax = TaxLine(Decimal(0), Money.of(total, currency), Money.of("0", currency))
    inv = Invoice(number, "O", "C1", issued, due, currency, [], [tax])
    if paid:
        inv.payments.append(Payment(issued, Money.of(paid, currency)))
    return inv


INVOICES = [
    invoice("I1", "100.00", date(2024, 1, 5), date(2024, 2, 4)),
    invoice("I2", "200.00", date(2024, 3, 1), date(2024, 3, 31), paid="50.00"),
    invoice("I3", "300.00", date(2024, 4, 2), date(2024, 5, 2), paid="300.00"),
    invoice("I4", "400.00", date(2024, 4, 30), date(2024, 5, 30)),
    invoice("I5", "999.00", date(2024, 4, 30), date(2024, 5, 30), currency="USD"),
]


def test_aging_sums_open_balances() -> None:
    buckets = aging(INVOICES, date(2024, 5, 3))
    assert list(buckets) == list(AGING_BUCKETS)
    assert buckets == {
        "current": Money.of("400.00"),
        "1-30": Money.of("0"),
        "31-60": Money.of("150.00"),
        "61-90": Money.of("100.00"),
        "90+": Money.of("0"),
    }


def test_aging_in_another_currency() -> None:
    assert aging(INVOICES, date(2024, 8, 20), "USD")["61-90"] == Money.of("999.00", "USD")


def test_monthly_invoiced() -> None:
    assert monthly_invoiced(INVOICES, Period.parse("2024-Q1")) == [
        ("2024-01", Money.of("100.00")),
        ("2024-02", Money.of("0")),
        ("2024-03", Money.of("200.00")),
    ]
    assert monthly_invoiced(INVOICES, Period.parse("2024-04-15..2024-05-10")) == [
        ("2024-04", Money.of("400.00")),
        ("2024-05", Money.of("0")),
    ]


def test_format_table_aligns_numbers_right() -> None:
    text = format_table(
        ["name", "qty", "price"], [["pen", 10, Money.of("1.5")], ["notepad", 2, Money.of("12")]]
    )
    assert text == (
        "name     qty   price\n-------  ---  ------\npen       10   €1.50\nnotepad    2  €12.00\n"
    )


def test_format_table_checks_row_width() -> None:
    with pytest.raises(ValueError):
        format_table(["a", "b"], [[1]])


def test_sales_table_and_csv() -> None:
    rows = sales_by(ORDERS, CATALOG, Period.month(2024, 3))
    assert sales_table(rows).splitlines() == [
        "category  units  revenue",
        "--------  -----  -------",
        "books         3   €37.50",
        "office       14   €24.00",
        "total        17   €61.50",
    ]
    assert sales_csv(rows) == "category,units,revenue\nbooks,3,37.50\noffice,14,24.00\n"


def test_format_invoice(shop: SimpleNamespace) -> None:
    order = shop.orders.create("O1", "C2", date(2024, 3, 15))
    shop.orders.add_line(order, "PAD-02", 2)
    shop.orders.add_line(order, "BOOK-1", 1)
    quote = shop.orders.place(order)
    shop.orders.ship(order)
    inv = shop.billing.invoice(order, quote, date(2024, 3, 28))
    inv = shop.billing.pay(inv.number, Money.of("10"), date(2024, 4, 1))
    assert format_invoice(inv) == (
        "Invoice INV-2024-0001  order O1  customer C2\n"
        "Issued 2024-03-28  due 2024-04-12\n"
        "\n"
        "sku     description  qty    unit  amount\n"
        "------  -----------  ---  ------  ------\n"
        "PAD-02  Notepad A5     2   €3.50   €7.00\n"
        "BOOK-1  Field guide    1  €12.50  €12.50\n"
        "\n"
        "tax 20% on €7.00: €1.40\n"
        "tax 5.5% on €12.50: €0.69\n"
        "Total: €21.59\n"
        "Paid: €10.00\n"
        "Balance due: €11.59\n"
    )
