"""Issue: adding a month to 31 January 2023 crashes with "day is out of range for month"."""

from datetime import date

from stockroom.dates import add_months


def test_end_of_january_plus_one_month() -> None:
    assert add_months(date(2023, 1, 31), 1) == date(2023, 2, 28)
