"""Issue: a €119.00 price including 19% tax shows €22.61 of tax; it should be €19.00."""

from decimal import Decimal

from stockroom.money import Money
from stockroom.tax import tax_in_gross


def test_tax_inside_a_gross_price() -> None:
    assert tax_in_gross(Money.of("119.00"), Decimal(19)) == Money.of("19.00")
