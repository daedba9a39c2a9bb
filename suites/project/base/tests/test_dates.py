from datetime import date

import pytest

from stockroom.dates import (
    Period,
    add_business_days,
    add_months,
    business_days_between,
    days_in_month,
    end_of_month,
    is_business_day,
    parse_date,
    prorate,
)
from stockroom.errors import ParseError
from stockroom.money import Money


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-03-01", date(2024, 3, 1)),
        ("20240229", date(2024, 2, 29)),
        (" 1999-12-31 ", date(1999, 12, 31)),
    ],
)
def test_parse_date(text: str, expected: date) -> None:
    assert parse_date(text) == expected


@pytest.mark.parametrize(
    "text", ["2024-02-30", "2023-02-29", "2024-13-01", "24-01-01", "2024/01/01", ""]
)
def test_parse_date_refuses_bad_dates(text: str) -> None:
    with pytest.raises(ParseError):
        parse_date(text)


@pytest.mark.parametrize(
    ("year", "month", "days"),
    [(2024, 2, 29), (2023, 2, 28), (1900, 2, 28), (2000, 2, 29), (2024, 4, 30), (2024, 12, 31)],
)
def test_days_in_month(year: int, month: int, days: int) -> None:
    assert days_in_month(year, month) == days
    assert end_of_month(date(year, month, 10)) == date(year, month, days)


@pytest.mark.parametrize(
    ("start", "months", "expected"),
    [
        (date(2024, 1, 15), 1, date(2024, 2, 15)),
        (date(2024, 1, 31), 1, date(2024, 2, 29)),
        (date(2023, 1, 31), 1, date(2023, 2, 28)),
        (date(2024, 1, 31), 3, date(2024, 4, 30)),
        (date(2024, 3, 31), -1, date(2024, 2, 29)),
        (date(2024, 11, 30), 2, date(2025, 1, 30)),
        (date(2024, 12, 31), 12, date(2025, 12, 31)),
        (date(2024, 2, 29), 12, date(2025, 2, 28)),
        (date(2024, 5, 31), -13, date(2023, 4, 30)),
        (date(2024, 8, 31), 0, date(2024, 8, 31)),
    ],
)
def test_add_months_clamps_to_the_end_of_shorter_months(
    start: date, months: int, expected: date
) -> None:
    assert add_months(start, months) == expected


def test_business_days() -> None:
    friday, saturday, sunday, monday = (date(2024, 3, d) for d in (15, 16, 17, 18))
    assert is_business_day(friday) and is_business_day(monday)
    assert not is_business_day(saturday) and not is_business_day(sunday)
    assert not is_business_day(monday, holidays=[monday])


@pytest.mark.parametrize(
    ("start", "count", "expected"),
    [
        (date(2024, 3, 15), 0, date(2024, 3, 15)),
        (date(2024, 3, 15), 1, date(2024, 3, 18)),
        (date(2024, 3, 13), 5, date(2024, 3, 20)),
        (date(2024, 3, 16), 1, date(2024, 3, 18)),
        (date(2024, 3, 28), 2, date(2024, 4, 3)),  # Good Friday and Easter Monday off
    ],
)
def test_add_business_days(start: date, count: int, expected: date) -> None:
    easter = [date(2024, 3, 29), date(2024, 4, 1)]
    assert add_business_days(start, count, easter) == expected


def test_add_business_days_refuses_negative_counts() -> None:
    with pytest.raises(ValueError):
        add_business_days(date(2024, 1, 1), -1)


def test_business_days_between() -> None:
    assert business_days_between(date(2024, 3, 15), date(2024, 3, 22)) == 5
    assert business_days_between(date(2024, 3, 15), date(2024, 3, 15)) == 0
    assert business_days_between(date(2024, 3, 22), date(2024, 3, 15)) == 0
    assert business_days_between(date(2024, 3, 15), date(2024, 3, 18), [date(2024, 3, 18)]) == 0


@pytest.mark.parametrize(
    ("period", "days"),
    [
        (Period.month(2024, 2), 29),
        (Period.month(2023, 2), 28),
        (Period.month(2024, 12), 31),
        (Period.year(2024), 366),
        (Period.quarter(2024, 1), 91),
        (Period.quarter(2023, 4), 92),
        (Period(date(2024, 3, 5), date(2024, 3, 5)), 1),
        (Period(date(2024, 1, 30), date(2024, 2, 2)), 4),
    ],
)
def test_period_days_count_both_ends(period: Period, days: int) -> None:
    assert period.days == days
    assert len(list(period)) == days


def test_period_contains_both_ends() -> None:
    march = Period.month(2024, 3)
    assert march.contains(date(2024, 3, 1))
    assert march.contains(date(2024, 3, 31))
    assert march.contains(date(2024, 3, 15))
    assert not march.contains(date(2024, 2, 29))
    assert not march.contains(date(2024, 4, 1))


def test_period_must_not_end_before_it_starts() -> None:
    with pytest.raises(ValueError):
        Period(date(2024, 3, 2), date(2024, 3, 1))


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("2024", date(2024, 1, 1), date(2024, 12, 31)),
        ("2024-Q1", date(2024, 1, 1), date(2024, 3, 31)),
        ("2024-q2", date(2024, 4, 1), date(2024, 6, 30)),
        ("2024-Q4", date(2024, 10, 1), date(2024, 12, 31)),
        ("2024-02", date(2024, 2, 1), date(2024, 2, 29)),
        ("2024-03-05", date(2024, 3, 5), date(2024, 3, 5)),
        ("2024-03-05..2024-04-04", date(2024, 3, 5), date(2024, 4, 4)),
    ],
)
def test_period_parse(text: str, start: date, end: date) -> None:
    assert Period.parse(text) == Period(start, end)


@pytest.mark.parametrize(
    "text", ["2024-Q5", "2024-13", "2024-04-04..2024-03-05", "soon", "2024-02-30"]
)
def test_period_parse_refuses_bad_text(text: str) -> None:
    with pytest.raises(ParseError):
        Period.parse(text)


def test_overlap() -> None:
    march = Period.month(2024, 3)
    assert march.overlap(Period.parse("2024-03-20..2024-04-10")) == Period.parse(
        "2024-03-20..2024-03-31"
    )
    assert march.overlap(Period.parse("2024-03-31..2024-04-10")) == Period.parse("2024-03-31")
    assert march.overlap(Period.month(2024, 4)) is None
    assert march.overlap(Period.year(2024)) == march


def test_months_cuts_at_month_boundaries() -> None:
    pieces = Period.parse("2024-01-20..2024-03-05").months()
    assert [str(p) for p in pieces] == [
        "2024-01-20..2024-01-31",
        "2024-02-01..2024-02-29",
        "2024-03-01..2024-03-05",
    ]
    assert sum(p.days for p in pieces) == Period.parse("2024-01-20..2024-03-05").days
    assert Period.year(2023).months()[1] == Period.month(2023, 2)
    assert len(Period.year(2023).months()) == 12


def test_str() -> None:
    assert str(Period.month(2024, 2)) == "2024-02-01..2024-02-29"


@pytest.mark.parametrize(
    ("used", "expected"),
    [
        ("2024-04-01..2024-04-30", "30.00"),
        ("2024-04-16..2024-04-30", "15.00"),
        ("2024-04-30..2024-05-10", "1.00"),
        ("2024-04-01", "1.00"),
        ("2024-05-01..2024-05-31", "0"),
        ("2024-03-01..2024-05-31", "30.00"),
    ],
)
def test_prorate_by_days_used(used: str, expected: str) -> None:
    april = Period.month(2024, 4)
    assert prorate(Money.of("30"), april, Period.parse(used)) == Money.of(expected)


def test_prorate_rounds_to_the_cent() -> None:
    assert prorate(
        Money.of("10"), Period.month(2024, 2), Period.parse("2024-02-01..2024-02-10")
    ) == Money.of("3.45")
