"""Issue: invoicing tax-exempt goods to Italy fails: "no tax rate for class 'exempt'"."""

from decimal import Decimal

from stockroom.tax import TaxTable


def test_star_rate_applies_everywhere() -> None:
    table = TaxTable.parse("DE standard 19\n* exempt 0\n")
    assert table.rate("IT", "exempt") == Decimal(0)
