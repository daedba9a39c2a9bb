from datetime import date
from decimal import Decimal

import pytest

from stockroom.errors import ParseError
from stockroom.rules import Condition, parse_rule, parse_rules, tokenize


def test_tokenize() -> None:
    assert tokenize("promo A: 2.50 off sku PEN-01 when qty >= 10 until 2024-05-31", 1) == [
        ("word", "promo"),
        ("word", "A"),
        ("colon", ":"),
        ("num", "2.50"),
        ("word", "off"),
        ("word", "sku"),
        ("word", "PEN-01"),
        ("word", "when"),
        ("word", "qty"),
        ("op", ">="),
        ("num", "10"),
        ("word", "until"),
        ("date", "2024-05-31"),
    ]


def test_tokenize_rejects_stray_characters() -> None:
    with pytest.raises(ParseError) as err:
        tokenize("promo A: 10% off order $", 7)
    assert err.value.line == 7


def test_percent_rule() -> None:
    promo = parse_rule("promo spring: 10% off category Books when qty >= 3 until 2024-05-31", 4)
    assert promo.name == "SPRING"
    assert promo.kind == "percent" and promo.value == Decimal(10)
    assert promo.target == "category" and promo.target_value == "Books"
    assert promo.conditions == (Condition("qty", ">=", Decimal(3)),)
    assert promo.ends == date(2024, 5, 31) and promo.starts is None
    assert promo.line == 4


def test_amount_rule_normalizes_the_sku() -> None:
    promo = parse_rule("promo PENS: 0.50 off sku pen-01")
    assert promo.kind == "amount" and promo.value == Decimal("0.50")
    assert promo.target == "sku" and promo.target_value == "PEN-01"


def test_bundle_rule() -> None:
    promo = parse_rule("promo MUGS: buy 2 get 1 free sku MUG-01")
    assert (promo.kind, promo.buy, promo.free) == ("bundle", 2, 1)


def test_order_rule_with_two_conditions_and_dates() -> None:
    promo = parse_rule(
        "promo LOYAL: 5% off order when total >= 100 and tier = gold "
        "from 2024-01-01 until 2024-12-31"
    )
    assert promo.target == "order"
    assert promo.conditions == (
        Condition("total", ">=", Decimal(100)),
        Condition("tier", "=", "gold"),
    )
    assert promo.starts == date(2024, 1, 1)


@pytest.mark.parametrize(
    ("day", "active"),
    [
        (date(2024, 2, 29), False),
        (date(2024, 3, 1), True),
        (date(2024, 4, 15), True),
        (date(2024, 5, 31), True),
        (date(2024, 6, 1), False),
    ],
)
def test_from_and_until_are_inclusive(day: date, active: bool) -> None:
    promo = parse_rule("promo S: 10% off order from 2024-03-01 until 2024-05-31")
    assert promo.active_on(day) is active


def test_open_ended_rules_are_always_active() -> None:
    assert parse_rule("promo A: 1% off order").active_on(date(1990, 1, 1))
    assert parse_rule("promo A: 1% off order from 2024-01-01").active_on(date(2099, 1, 1))


@pytest.mark.parametrize(
    ("op", "qty", "holds"),
    [
        (">=", 3, True), (">=", 2, False),
        (">", 3, False), (">", 4, True),
        ("<=", 3, True), ("<=", 4, False),
        ("<", 3, False), ("<", 2, True),
        ("=", 3, True), ("=", 4, False),
        ("!=", 3, False), ("!=", 4, True),
    ],
)  # fmt: skip
def test_qty_operators(op: str, qty: int, holds: bool) -> None:
    promo = parse_rule(f"promo A: 1% off order when qty {op} 3")
    assert promo.conditions_hold(qty, Decimal(0), "standard") is holds


def test_total_and_tier_conditions() -> None:
    promo = parse_rule("promo A: 1% off order when total > 99.99 and tier != standard")
    assert promo.conditions_hold(1, Decimal("100"), "gold")
    assert not promo.conditions_hold(1, Decimal("99.99"), "gold")
    assert not promo.conditions_hold(1, Decimal("100"), "standard")


def test_matches() -> None:
    by_sku = parse_rule("promo A: 1% off sku PEN-01")
    by_category = parse_rule("promo B: 1% off category office")
    order = parse_rule("promo C: 1% off order")
    assert by_sku.matches("PEN-01", "office") and not by_sku.matches("PAD-02", "office")
    assert by_category.matches("PAD-02", "Office") and not by_category.matches("PAD-02", "books")
    assert not order.matches("PEN-01", "office")


@pytest.mark.parametrize(
    "text",
    [
        "promo A 10% off order",
        "rule A: 10% off order",
        "promo A: 10% of order",
        "promo A: 0% off order",
        "promo A: 150% off order",
        "promo A: 10% off shelf 3",
        "promo A: buy 0 get 1 free sku X",
        "promo A: buy 2 get 1 free order",
        "promo A: 10% off order when colour = red",
        "promo A: 10% off order when tier >= gold",
        "promo A: 10% off order when tier = platinum",
        "promo A: 10% off order until 2024-13-01",
        "promo A: 10% off order from 2024-05-01 until 2024-04-01",
        "promo A: 10% off order extra",
        "promo A: 10% off sku",
    ],
)
def test_bad_rules(text: str) -> None:
    with pytest.raises(ParseError):
        parse_rule(text, 1)


def test_parse_rules_skips_comments_and_keeps_line_numbers() -> None:
    promos = parse_rules("# rules\n\npromo A: 1% off order\n  # more\npromo B: 2% off order\n")
    assert [(p.name, p.line) for p in promos] == [("A", 3), ("B", 5)]


def test_parse_rules_reports_the_bad_line() -> None:
    with pytest.raises(ParseError) as err:
        parse_rules("promo A: 1% off order\n\npromo B: 2% of order\n")
    assert err.value.line == 3


def test_duplicate_names() -> None:
    with pytest.raises(ParseError) as err:
        parse_rules("promo A: 1% off order\npromo a: 2% off order\n")
    assert err.value.line == 2
