"""Issue: with "buy 2 get 1 free", a customer buying just 2 mugs got one of them free."""

from stockroom.money import Money
from stockroom.pricing import line_discount
from stockroom.rules import parse_rule


def test_two_mugs_are_not_a_complete_bundle() -> None:
    promo = parse_rule("promo MUGS: buy 2 get 1 free sku MUG-01")
    assert line_discount(promo, Money.of("6.00"), 2) == Money.of("0")
    assert line_discount(promo, Money.of("6.00"), 3) == Money.of("6.00")
