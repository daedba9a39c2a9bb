from datetime import date
from decimal import Decimal

import pytest

from stockroom.errors import NotFound, ValidationError
from stockroom.models import OrderLine, PriceBreak, Product
from stockroom.money import Money
from stockroom.pricing import line_discount, price_lines, unit_price
from stockroom.rules import parse_rule, parse_rules

PEN = Product(
    "PEN-01",
    "Blue pen",
    "office",
    Money.of("1.20"),
    breaks=(PriceBreak(50, Money.of("0.90")), PriceBreak(10, Money.of("1.00"))),
)
PAD = Product("PAD-02", "Notepad", "office", Money.of("3.50"))
BOOK = Product("BOOK-1", "Field guide", "books", Money.of("12.50"), "reduced")
MUG = Product("MUG-01", "Mug", "kitchen", Money.of("6.00"))
CATALOG = {p.sku: p for p in (PEN, PAD, BOOK, MUG)}
DAY = date(2024, 3, 15)


@pytest.mark.parametrize(
    ("qty", "price"),
    [
        (1, "1.20"),
        (9, "1.20"),
        (10, "1.00"),
        (11, "1.00"),
        (49, "1.00"),
        (50, "0.90"),
        (500, "0.90"),
    ],
)
def test_unit_price_uses_the_largest_break_reached(qty: int, price: str) -> None:
    assert unit_price(PEN, qty) == Money.of(price)


def test_unit_price_without_breaks() -> None:
    assert unit_price(PAD, 1000) == Money.of("3.50")


@pytest.mark.parametrize(
    ("rule", "unit", "qty", "discount"),
    [
        ("promo A: 10% off sku X", "3.33", 3, "1.00"),
        ("promo A: 0.50 off sku X", "3.00", 4, "2.00"),
        ("promo A: 5 off sku X", "3.00", 2, "6.00"),
        ("promo A: buy 2 get 1 free sku X", "6.00", 2, "0"),
        ("promo A: buy 2 get 1 free sku X", "6.00", 3, "6.00"),
        ("promo A: buy 2 get 1 free sku X", "6.00", 5, "6.00"),
        ("promo A: buy 2 get 1 free sku X", "6.00", 6, "12.00"),
        ("promo A: buy 3 get 2 free sku X", "1.00", 10, "4.00"),
        ("promo A: buy 3 get 2 free sku X", "1.00", 9, "2.00"),
        ("promo A: buy 1 get 1 free sku X", "2.50", 7, "7.50"),
    ],
)
def test_line_discount(rule: str, unit: str, qty: int, discount: str) -> None:
    assert line_discount(parse_rule(rule), Money.of(unit), qty) == Money.of(discount)


def lines(*items: tuple[str, int]) -> list[OrderLine]:
    return [OrderLine(sku, qty) for sku, qty in items]


def test_price_lines_without_promotions() -> None:
    quote = price_lines(lines(("PEN-01", 12), ("PAD-02", 2)), CATALOG, day=DAY)
    assert [(ln.sku, ln.unit_price, ln.gross, ln.net) for ln in quote.lines] == [
        ("PEN-01", Money.of("1.00"), Money.of("12.00"), Money.of("12.00")),
        ("PAD-02", Money.of("3.50"), Money.of("7.00"), Money.of("7.00")),
    ]
    assert quote.subtotal == quote.total == Money.of("19.00")
    assert quote.order_discount is None and quote.discount_total == Money.of("0")


def test_price_lines_keeps_the_order_of_lines() -> None:
    quote = price_lines(lines(("PAD-02", 1), ("BOOK-1", 1), ("MUG-01", 1)), CATALOG, day=DAY)
    assert [ln.sku for ln in quote.lines] == ["PAD-02", "BOOK-1", "MUG-01"]


def test_best_line_promotion_wins() -> None:
    promos = parse_rules(
        "promo SMALL: 5% off category books\n"
        "promo BIG: 20% off sku BOOK-1 when qty >= 2\n"
        "promo FLAT: 1.00 off category books\n"
    )
    one = price_lines(lines(("BOOK-1", 1)), CATALOG, promos, day=DAY)
    assert (one.lines[0].promotion, one.lines[0].discount) == ("FLAT", Money.of("1.00"))
    two = price_lines(lines(("BOOK-1", 2)), CATALOG, promos, day=DAY)
    assert (two.lines[0].promotion, two.lines[0].discount) == ("BIG", Money.of("5.00"))
    assert two.lines[0].net == Money.of("20.00")


def test_ties_go_to_the_first_name() -> None:
    promos = parse_rules("promo ZED: 10% off sku PAD-02\npromo ABE: 0.35 off sku PAD-02\n")
    quote = price_lines(lines(("PAD-02", 1)), CATALOG, promos, day=DAY)
    assert quote.lines[0].promotion == "ABE"


def test_bundle_promotion_on_the_quote() -> None:
    promos = parse_rules("promo MUGS: buy 2 get 1 free sku MUG-01")
    quote = price_lines(lines(("MUG-01", 7)), CATALOG, promos, day=DAY)
    assert quote.lines[0].discount == Money.of("12.00")
    assert quote.total == Money.of("30.00")


def test_promotions_outside_their_dates_do_not_apply() -> None:
    promos = parse_rules(
        "promo OLD: 50% off order until 2024-03-14\npromo NEW: 10% off order from 2024-03-16\n"
    )
    assert price_lines(lines(("PAD-02", 1)), CATALOG, promos, day=DAY).order_discount is None
    quote = price_lines(lines(("PAD-02", 1)), CATALOG, promos, day=date(2024, 3, 16))
    assert quote.order_promotion == "NEW"


def test_promotion_on_its_last_day() -> None:
    promos = parse_rules("promo LAST: 10% off category office until 2024-03-15")
    quote = price_lines(lines(("PAD-02", 10)), CATALOG, promos, day=DAY)
    assert quote.lines[0].discount == Money.of("3.50")


def test_order_promotion_sees_the_subtotal_after_line_promotions() -> None:
    promos = parse_rules(
        "promo BOOKS: 20% off category books\npromo BIG: 10% off order when total >= 100\n"
    )
    # 9 books: gross 112.50, after 20% off 90.00, so the order promotion does not apply
    quote = price_lines(lines(("BOOK-1", 9)), CATALOG, promos, day=DAY)
    assert quote.subtotal == Money.of("90.00") and quote.order_discount is None
    quote = price_lines(lines(("BOOK-1", 10)), CATALOG, promos, day=DAY)
    assert quote.order_discount == Money.of("10.00")
    assert quote.total == Money.of("90.00")
    assert quote.discount_total == Money.of("35.00")


def test_line_conditions_on_total_see_the_whole_order() -> None:
    promos = parse_rules("promo PADS: 1.00 off sku PAD-02 when total >= 20")
    small = price_lines(lines(("PAD-02", 1), ("MUG-01", 2)), CATALOG, promos, day=DAY)
    big = price_lines(lines(("PAD-02", 1), ("MUG-01", 3)), CATALOG, promos, day=DAY)
    assert small.lines[0].discount == Money.of("0")
    assert big.lines[0].discount == Money.of("1.00")


def test_tier_conditions() -> None:
    promos = parse_rules("promo GOLD: 10% off order when tier = gold")
    assert price_lines(lines(("PAD-02", 2)), CATALOG, promos, day=DAY).order_discount is None
    gold = price_lines(lines(("PAD-02", 2)), CATALOG, promos, day=DAY, tier="gold")
    assert gold.order_discount == Money.of("0.70")


def test_amount_off_an_order_is_capped_at_the_subtotal() -> None:
    promos = parse_rules("promo GIFT: 50 off order")
    quote = price_lines(lines(("PAD-02", 2)), CATALOG, promos, day=DAY)
    assert quote.order_discount == Money.of("7.00")
    assert quote.total == Money.of("0")


def test_amount_off_a_line_is_capped_at_the_line() -> None:
    promos = parse_rules("promo X: 5 off sku PAD-02")
    quote = price_lines(lines(("PAD-02", 2)), CATALOG, promos, day=DAY)
    assert quote.lines[0].net == Money.of("0")


def test_quoting_does_not_change_the_input() -> None:
    promos = parse_rules("promo A: 10% off order")
    order_lines = lines(("PAD-02", 2), ("PEN-01", 10))
    first = price_lines(order_lines, CATALOG, promos, day=DAY)
    second = price_lines(order_lines, CATALOG, promos, day=DAY)
    assert first == second
    assert order_lines == lines(("PAD-02", 2), ("PEN-01", 10))
    assert all(ln.unit_price is None for ln in order_lines)


def test_unknown_products_and_currencies() -> None:
    with pytest.raises(NotFound):
        price_lines(lines(("NOPE-1", 1)), CATALOG, day=DAY)
    with pytest.raises(ValidationError):
        price_lines(lines(("PAD-02", 1)), CATALOG, day=DAY, currency="USD")


def test_rounding_of_percent_discounts_per_line() -> None:
    promos = parse_rules("promo A: 15% off category office")
    quote = price_lines(lines(("PAD-02", 1), ("PEN-01", 3)), CATALOG, promos, day=DAY)
    assert [ln.discount for ln in quote.lines] == [Money.of("0.53"), Money.of("0.54")]
    assert quote.subtotal == Money.of("6.03")
    assert Decimal(str(quote.total.amount)) == Decimal("6.03")
