"""Issue: ten pens are charged €1.20 each although the price list says €1.00 from 10."""

from stockroom.models import PriceBreak, Product
from stockroom.money import Money
from stockroom.pricing import unit_price


def test_break_applies_at_its_minimum() -> None:
    pen = Product(
        "PEN-01", "Pen", "office", Money.of("1.20"), breaks=(PriceBreak(10, Money.of("1.00")),)
    )
    assert unit_price(pen, 10) == Money.of("1.00")
