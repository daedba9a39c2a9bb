"""Calendar helpers: parsing dates, adding months and business days, inclusive periods."""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta

from stockroom.errors import ParseError
from stockroom.money import Money, round_cents

_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_COMPACT = re.compile(r"^(\d{4})(\d{2})(\d{2})$")
_MONTH = re.compile(r"^(\d{4})-(\d{2})$")
_QUARTER = re.compile(r"^(\d{4})-Q([1-4])$", re.IGNORECASE)
_YEAR = re.compile(r"^(\d{4})$")


def parse_date(text: str) -> date:
    """Read ``2024-03-01`` or ``20240301``."""
    raw = text.strip()
    match = _ISO.match(raw) or _COMPACT.match(raw)
    if not match:
        raise ParseError(f"not a date: {text!r} (expected YYYY-MM-DD)")
    year, month, day = (int(g) for g in match.groups())
    try:
        return date(year, month, day)
    except ValueError as exc:
        raise ParseError(f"not a date: {text!r} ({exc})") from None


def days_in_month(year: int, month: int) -> int:
    return calendar.monthrange(year, month)[1]


def end_of_month(day: date) -> date:
    return day.replace(day=days_in_month(day.year, day.month))


def add_months(day: date, months: int) -> date:
    """The same day ``months`` later (or earlier), clamped to the end of a shorter month."""
    index = day.year * 12 + (day.month - 1) + months
    year, month = divmod(index, 12)
    month += 1
    return date(year, month, min(day.day, days_in_month(year, month)))


def is_business_day(day: date, holidays: Iterable[date] = ()) -> bool:
    """Monday to Friday, and not a holiday."""
    return day.weekday() < 5 and day not in set(holidays)


def add_business_days(day: date, count: int, holidays: Iterable[date] = ()) -> date:
    """The business day ``count`` business days after ``day`` (``day`` itself for 0)."""
    if count < 0:
        raise ValueError("count must not be negative")
    off = set(holidays)
    current = day
    remaining = count
    while remaining > 0:
        current += timedelta(days=1)
        if is_business_day(current, off):
            remaining -= 1
    return current


def business_days_between(start: date, end: date, holidays: Iterable[date] = ()) -> int:
    """Business days after ``start`` up to and including ``end`` (0 when end <= start)."""
    off = set(holidays)
    count = 0
    current = start
    while current < end:
        current += timedelta(days=1)
        if is_business_day(current, off):
            count += 1
    return count


@dataclass(frozen=True)
class Period:
    """A run of days; both ``start`` and ``end`` belong to it."""

    start: date
    end: date

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError(f"period ends ({self.end}) before it starts ({self.start})")

    @classmethod
    def month(cls, year: int, month: int) -> Period:
        return cls(date(year, month, 1), date(year, month, days_in_month(year, month)))

    @classmethod
    def quarter(cls, year: int, quarter: int) -> Period:
        if not 1 <= quarter <= 4:
            raise ValueError("quarter must be 1 to 4")
        first = 3 * quarter - 2
        return cls(date(year, first, 1), end_of_month(date(year, first + 2, 1)))

    @classmethod
    def year(cls, year: int) -> Period:
        return cls(date(year, 1, 1), date(year, 12, 31))

    @classmethod
    def parse(cls, text: str) -> Period:
        """``2024``, ``2024-Q2``, ``2024-03``, ``2024-03-05`` or ``2024-03-05..2024-04-04``."""
        raw = text.strip()
        try:
            if ".." in raw:
                first, _, last = raw.partition("..")
                return cls(parse_date(first), parse_date(last))
            if m := _YEAR.match(raw):
                return cls.year(int(m.group(1)))
            if m := _QUARTER.match(raw):
                return cls.quarter(int(m.group(1)), int(m.group(2)))
            if m := _MONTH.match(raw):
                return cls.month(int(m.group(1)), int(m.group(2)))
            day = parse_date(raw)
        except ValueError as exc:
            raise ParseError(f"not a period: {text!r} ({exc})") from None
        return cls(day, day)

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1

    def contains(self, day: date) -> bool:
        return self.start <= day <= self.end

    def overlap(self, other: Period) -> Period | None:
        start, end = max(self.start, other.start), min(self.end, other.end)
        return Period(start, end) if start <= end else None

    def months(self) -> list[Period]:
        """The period cut at month boundaries (the first and last pieces may be partial)."""
        pieces: list[Period] = []
        start = self.start
        while start <= self.end:
            end = min(end_of_month(start), self.end)
            pieces.append(Period(start, end))
            start = end + timedelta(days=1)
        return pieces

    def __iter__(self):  # type: ignore[no-untyped-def]
        current = self.start
        while current <= self.end:
            yield current
            current += timedelta(days=1)

    def __str__(self) -> str:
        return f"{self.start.isoformat()}..{self.end.isoformat()}"


def prorate(amount: Money, full: Period, used: Period) -> Money:
    """The share of ``amount`` for the days of ``used`` that fall inside ``full``, rounded."""
    inside = full.overlap(used)
    if inside is None:
        return Money.zero(amount.currency)
    share = amount.amount * inside.days / full.days
    return Money(round_cents(share), amount.currency)
