"""Issue: the March sales report leaves out the orders of 31 March."""

from datetime import date

from stockroom.dates import Period
from stockroom.models import Order, OrderLine, Product
from stockroom.money import Money
from stockroom.reports import sales_by

CATALOG = {"PAD-02": Product("PAD-02", "Pad", "office", Money.of("3.50"))}


def test_last_day_of_march_is_in_march() -> None:
    orders = [
        Order("O1", "C1", date(2024, 3, 1), [OrderLine("PAD-02", 1, Money.of("3.50"))], "shipped"),
        Order("O2", "C1", date(2024, 3, 31), [OrderLine("PAD-02", 2, Money.of("3.50"))], "shipped"),
    ]
    rows = sales_by(orders, CATALOG, Period.month(2024, 3), key="sku")
    assert [(r.key, r.qty, r.revenue) for r in rows] == [("PAD-02", 3, Money.of("10.50"))]
