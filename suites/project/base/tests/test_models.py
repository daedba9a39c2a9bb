from datetime import date

import pytest

from stockroom.errors import ValidationError
from stockroom.models import (
    TRANSITIONS,
    Order,
    OrderLine,
    PriceBreak,
    Product,
    StockLevel,
    normalize_sku,
)
from stockroom.money import Money


@pytest.mark.parametrize(("raw", "sku"), [("pen-01", "PEN-01"), (" Mug-1 ", "MUG-1"), ("X", "X")])
def test_normalize_sku(raw: str, sku: str) -> None:
    assert normalize_sku(raw) == sku


@pytest.mark.parametrize("raw", ["", "  ", "pen 01", "-PEN", "PEN_01", "A" * 33])
def test_normalize_sku_refuses_bad_skus(raw: str) -> None:
    with pytest.raises(ValidationError):
        normalize_sku(raw)


def test_quantities_add_up_lines_of_the_same_sku() -> None:
    order = Order("O1", "C1", date(2024, 3, 1))
    order.lines += [OrderLine("PEN-01", 2), OrderLine("PAD-02", 1), OrderLine("PEN-01", 5)]
    assert order.quantities() == {"PEN-01": 7, "PAD-02": 1}
    assert order.total_qty == 8
    assert order.line_for("PAD-02") == OrderLine("PAD-02", 1)
    assert order.line_for("MUG-01") is None


def test_orders_do_not_share_lines() -> None:
    first = Order("O1", "C1", date(2024, 3, 1))
    second = Order("O2", "C1", date(2024, 3, 1))
    first.lines.append(OrderLine("PEN-01", 1))
    assert second.lines == []


def test_order_lines_need_a_positive_quantity() -> None:
    with pytest.raises(ValidationError):
        OrderLine("PEN-01", 0)


def test_stock_level_available() -> None:
    assert StockLevel("PEN-01", 10, 4).available == 6


def test_price_breaks_must_match_the_product() -> None:
    with pytest.raises(ValidationError):
        Product(
            "PEN-01", "Pen", "office", Money.of("1"), breaks=(PriceBreak(5, Money.of("1", "USD")),)
        )


def test_transitions() -> None:
    assert TRANSITIONS["draft"] == {"placed", "cancelled"}
    assert TRANSITIONS["placed"] == {"shipped", "cancelled"}
    assert not TRANSITIONS["shipped"] and not TRANSITIONS["cancelled"]
