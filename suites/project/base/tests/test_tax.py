from decimal import Decimal

import pytest

from stockroom.errors import ParseError, ValidationError
from stockroom.money import Money
from stockroom.tax import TaxLine, TaxTable, tax_breakdown, tax_in_gross, tax_on_net

TABLE = TaxTable.parse(
    "DE standard 19\nDE reduced 7  # books, food\nFR standard 20%\n* exempt 0\n* reduced 5\n"
)


def test_rates() -> None:
    assert TABLE.rate("DE", "standard") == Decimal(19)
    assert TABLE.rate("de", "Reduced") == Decimal(7)
    assert TABLE.rate("FR", "standard") == Decimal(20)


def test_wildcard_region_fills_the_gaps() -> None:
    assert TABLE.rate("FR", "reduced") == Decimal(5)
    assert TABLE.rate("IT", "exempt") == Decimal(0)
    assert TABLE.rate("DE", "exempt") == Decimal(0)


def test_unknown_rate() -> None:
    with pytest.raises(ValidationError):
        TABLE.rate("IT", "standard")
    with pytest.raises(ValidationError):
        TABLE.rate("DE", "luxury")


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("DE standard\n", 1),
        ("\nDE standard x\n", 2),
        ("DE standard 19\nde STANDARD 20\n", 2),
        ("DE standard 100\n", 1),
        ("DE standard -1\n", 1),
    ],
)
def test_bad_tables(text: str, line: int) -> None:
    with pytest.raises(ParseError) as err:
        TaxTable.parse(text)
    assert err.value.line == line


@pytest.mark.parametrize(
    ("net", "rate", "tax"),
    [
        ("100", "19", "19.00"),
        ("10.05", "7", "0.70"),
        ("0.5", "19", "0.10"),
        ("33.33", "5.5", "1.83"),
        ("0.03", "0", "0.00"),
    ],
)
def test_tax_on_net(net: str, rate: str, tax: str) -> None:
    assert tax_on_net(Money.of(net), Decimal(rate)) == Money.of(tax)


@pytest.mark.parametrize(
    ("gross", "rate", "tax"),
    [
        ("119", "19", "19.00"),
        ("107", "7", "7.00"),
        ("10", "19", "1.60"),
        ("1.05", "5", "0.05"),
        ("9.99", "20", "1.67"),
        ("5", "0", "0.00"),
    ],
)
def test_tax_in_gross(gross: str, rate: str, tax: str) -> None:
    assert tax_in_gross(Money.of(gross), Decimal(rate)) == Money.of(tax)


def test_breakdown_groups_by_rate_highest_first() -> None:
    lines = [
        (Money.of("10.00"), Decimal(7)),
        (Money.of("20.00"), Decimal(19)),
        (Money.of("5.00"), Decimal(7)),
    ]
    assert tax_breakdown(lines) == [
        TaxLine(Decimal(19), Money.of("20.00"), Money.of("3.80")),
        TaxLine(Decimal(7), Money.of("15.00"), Money.of("1.05")),
    ]


def test_breakdown_rounds_once_per_rate() -> None:
    # per line: 0.0095 -> 0.01 each, 0.03 in all; per rate: 0.0285 -> 0.03
    lines = [(Money.of("0.05"), Decimal(19))] * 3
    assert tax_breakdown(lines)[0].tax == Money.of("0.03")
    lines = [(Money.of("0.07"), Decimal(7))] * 10
    assert tax_breakdown(lines)[0].tax == Money.of("0.05")


def test_breakdown_with_prices_including_tax() -> None:
    lines = [(Money.of("11.90"), Decimal(19)), (Money.of("10.70"), Decimal(7))]
    assert tax_breakdown(lines, prices_include_tax=True) == [
        TaxLine(Decimal(19), Money.of("10.00"), Money.of("1.90")),
        TaxLine(Decimal(7), Money.of("10.00"), Money.of("0.70")),
    ]


def test_breakdown_of_nothing() -> None:
    assert tax_breakdown([]) == []


def test_table_from_a_dict() -> None:
    table = TaxTable({("de", "Standard"): Decimal(19)})
    assert table.rate("DE", "standard") == Decimal(19)
    with pytest.raises(ValidationError):
        TaxTable({("DE", "standard"): Decimal(120)})
