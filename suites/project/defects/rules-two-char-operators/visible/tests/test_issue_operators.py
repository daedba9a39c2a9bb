"""Issue: "when qty >= 3" is rejected with "expected 'num', found '='"."""

from decimal import Decimal

from stockroom.rules import parse_rule


def test_at_least_three() -> None:
    promo = parse_rule("promo SPRING: 10% off category books when qty >= 3")
    assert promo.conditions_hold(3, Decimal(0), "standard")
    assert not promo.conditions_hold(2, Decimal(0), "standard")
