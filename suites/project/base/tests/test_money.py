from decimal import Decimal

import pytest

from stockroom.errors import CurrencyMismatch, ParseError
from stockroom.money import Money, parse_money, round_cents, to_decimal, total


def eur(value: str) -> Money:
    return Money.of(value)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("0.125", "0.13"),
        ("0.135", "0.14"),
        ("2.675", "2.68"),
        ("0.005", "0.01"),
        ("1.994", "1.99"),
        ("1.995", "2.00"),
        ("-0.125", "-0.13"),
        ("-2.665", "-2.67"),
        ("-0.004", "0.00"),
        ("10", "10.00"),
    ],
)
def test_round_cents_rounds_halves_away_from_zero(raw: str, expected: str) -> None:
    assert round_cents(Decimal(raw)) == Decimal(expected)
    assert str(eur(raw).rounded().amount) == expected


def test_to_decimal_accepts_exact_values() -> None:
    assert to_decimal("1.10") == Decimal("1.10")
    assert to_decimal(3) == Decimal(3)
    assert to_decimal(Decimal("2.5")) == Decimal("2.5")
    assert to_decimal(" 4.25 ") == Decimal("4.25")


@pytest.mark.parametrize("bad", [0.1, True, None, [1]])
def test_to_decimal_refuses_floats_and_others(bad: object) -> None:
    with pytest.raises(TypeError):
        to_decimal(bad)


@pytest.mark.parametrize("bad", ["abc", "", "nan", "inf"])
def test_to_decimal_refuses_non_numbers(bad: str) -> None:
    with pytest.raises(ValueError):
        to_decimal(bad)


@pytest.mark.parametrize("code", ["eur", "EU", "EURO", "E1R"])
def test_currency_must_be_three_upper_case_letters(code: str) -> None:
    with pytest.raises(ValueError):
        Money.of("1", code)


def test_arithmetic_keeps_precision() -> None:
    assert eur("0.10") + eur("0.20") == eur("0.30")
    assert eur("5") - eur("7.25") == eur("-2.25")
    assert eur("1.333") * 3 == eur("3.999")
    assert 2 * eur("1.50") == eur("3.00")
    assert -eur("4") == eur("-4")
    assert sum([eur("1"), eur("2")]) == eur("3")


def test_add_refuses_other_currencies() -> None:
    with pytest.raises(CurrencyMismatch):
        eur("1") + Money.of("1", "USD")


def test_subtract_refuses_other_currencies() -> None:
    with pytest.raises(CurrencyMismatch):
        eur("1") - Money.of("1", "USD")


def test_sum_refuses_mixed_currencies() -> None:
    with pytest.raises(CurrencyMismatch):
        total([eur("1"), Money.of("2", "GBP")])


def test_compare_refuses_other_currencies() -> None:
    with pytest.raises(CurrencyMismatch):
        assert eur("1") < Money.of("2", "USD")


def test_arithmetic_with_non_money_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        eur("1") + 1
    with pytest.raises(TypeError):
        eur("1") - Decimal(1)
    with pytest.raises(TypeError):
        eur("1") * eur("2")


def test_comparisons() -> None:
    assert eur("1") < eur("1.01")
    assert eur("2") >= eur("2.00")
    assert eur("3") > eur("-3")
    assert eur("0") <= eur("0")
    assert eur("0").is_zero() and eur("-0.01").is_negative()


@pytest.mark.parametrize(
    ("amount", "rate", "expected"),
    [("100", 19, "19.00"), ("33.33", 10, "3.33"), ("0.05", 50, "0.03"), ("12.35", "7.5", "0.93")],
)
def test_percent_rounds_to_the_cent(amount: str, rate: object, expected: str) -> None:
    assert eur(amount).percent(rate) == eur(expected)


def test_cents_round_trip() -> None:
    assert eur("12.345").cents() == 1235
    assert Money.from_cents(1235) == eur("12.35")
    assert Money.from_cents(-5, "USD") == Money.of("-0.05", "USD")


@pytest.mark.parametrize(
    ("amount", "ratios", "expected"),
    [
        ("100", [1, 1, 1], ["33.34", "33.33", "33.33"]),
        ("0.05", [1, 1, 1], ["0.02", "0.02", "0.01"]),
        ("10", [1, 3], ["2.50", "7.50"]),
        ("0.07", [1, 1, 1, 1], ["0.02", "0.02", "0.02", "0.01"]),
        ("1", [2, 0, 1], ["0.67", "0.00", "0.33"]),
        ("-0.05", [1, 1], ["-0.03", "-0.02"]),
        ("2.89", ["12.00", "33.75", "12.00"], ["0.61", "1.68", "0.60"]),
    ],
)
def test_allocate_hands_out_every_cent(amount: str, ratios: list, expected: list) -> None:
    parts = eur(amount).allocate(ratios)
    assert parts == [eur(e) for e in expected]
    assert total(parts) == eur(amount).rounded()


@pytest.mark.parametrize("ratios", [[], [0, 0], [1, -1]])
def test_allocate_refuses_bad_ratios(ratios: list) -> None:
    with pytest.raises(ValueError):
        eur("1").allocate(ratios)


def test_split() -> None:
    assert eur("10").split(3) == [eur("3.34"), eur("3.33"), eur("3.33")]
    assert eur("0.02").split(3) == [eur("0.01"), eur("0.01"), eur("0")]
    with pytest.raises(ValueError):
        eur("1").split(0)


@pytest.mark.parametrize(
    ("amount", "currency", "symbol", "text"),
    [
        ("1234.5", "EUR", True, "€1,234.50"),
        ("-3", "EUR", True, "-€3.00"),
        ("0.005", "USD", True, "$0.01"),
        ("1000000", "GBP", True, "£1,000,000.00"),
        ("12", "CHF", True, "12.00 CHF"),
        ("-1234.567", "EUR", False, "-1,234.57 EUR"),
    ],
)
def test_format(amount: str, currency: str, symbol: bool, text: str) -> None:
    assert Money.of(amount, currency).format(symbol=symbol) == text


@pytest.mark.parametrize(
    ("text", "amount", "currency"),
    [
        ("12.50", "12.50", "EUR"),
        ("-3", "-3", "EUR"),
        ("1,234.50 EUR", "1234.50", "EUR"),
        ("USD 7", "7", "USD"),
        ("€12.50", "12.50", "EUR"),
        ("-€3.00", "-3.00", "EUR"),
        ("£1,000,000", "1000000", "GBP"),
        (" 0.99 gbp ", "0.99", "GBP"),
        ("$-2.5", "-2.5", "USD"),
    ],
)
def test_parse_money(text: str, amount: str, currency: str) -> None:
    assert parse_money(text) == Money.of(amount, currency)


@pytest.mark.parametrize(
    "text", ["", "  ", "12.5.1", "1,23.00", "12,3456", "EUR", "12 EUR USD", "1 2", "abc EUR", "E 1"]
)
def test_parse_money_refuses_garbage(text: str) -> None:
    with pytest.raises(ParseError):
        parse_money(text)


def test_parse_money_round_trips_format() -> None:
    for value in ("0", "0.01", "-999.99", "1234567.89"):
        money = eur(value)
        assert parse_money(money.format()) == money
        assert parse_money(money.format(symbol=False)) == money
