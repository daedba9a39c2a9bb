"""Amounts of money: exact decimals with a currency, rounded half-up to the cent.

Floats are refused on purpose: ``Money.of(0.1)`` would carry binary noise into every total.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from stockroom.errors import CurrencyMismatch, ParseError

CENT = Decimal("0.01")
SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£"}
CURRENCY_BY_SYMBOL = {symbol: code for code, symbol in SYMBOLS.items()}


def to_decimal(value: object) -> Decimal:
    """An exact Decimal from an int, a Decimal or a numeric string (floats are refused)."""
    if isinstance(value, (bool, float)):
        raise TypeError(f"use a string or a Decimal for amounts, not {type(value).__name__}")
    if isinstance(value, Decimal):
        return value
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, str):
        try:
            result = Decimal(value.strip())
        except InvalidOperation:
            raise ValueError(f"not a number: {value!r}") from None
        if not result.is_finite():
            raise ValueError(f"not a finite number: {value!r}")
        return result
    raise TypeError(f"cannot make an amount from {type(value).__name__}")


def round_cents(value: Decimal) -> Decimal:
    """Round to the cent, halves away from zero (0.125 -> 0.13, -0.125 -> -0.13)."""
    rounded = value.quantize(CENT, rounding=ROUND_HALF_UP)
    return rounded.copy_abs() if rounded.is_zero() else rounded


@dataclass(frozen=True)
class Money:
    """An amount in one currency. Arithmetic keeps full precision until ``rounded()``."""

    amount: Decimal
    currency: str = "EUR"

    def __post_init__(self) -> None:
        if not (len(self.currency) == 3 and self.currency.isalpha() and self.currency.isupper()):
            raise ValueError(f"currency must be a 3-letter upper-case code, not {self.currency!r}")
        object.__setattr__(self, "amount", to_decimal(self.amount))

    @classmethod
    def of(cls, value: object, currency: str = "EUR") -> Money:
        return cls(to_decimal(value), currency)

    @classmethod
    def zero(cls, currency: str = "EUR") -> Money:
        return cls(Decimal(0), currency)

    def _same(self, other: object) -> Money:
        if not isinstance(other, Money):
            raise TypeError(f"cannot combine Money with {type(other).__name__}")
        if other.currency != self.currency:
            raise CurrencyMismatch(f"{self.currency} and {other.currency}")
        return other

    def __add__(self, other: object) -> Money:
        other = self._same(other)
        return Money(self.amount + other.amount, self.currency)

    def __radd__(self, other: object) -> Money:
        if other == 0:  # lets sum() start from its default 0
            return self
        return self.__add__(other)

    def __sub__(self, other: object) -> Money:
        other = self._same(other)
        return Money(self.amount - other.amount, self.currency)

    def __neg__(self) -> Money:
        return Money(-self.amount, self.currency)

    def __mul__(self, factor: object) -> Money:
        if isinstance(factor, Money):
            raise TypeError("cannot multiply two amounts of money")
        return Money(self.amount * to_decimal(factor), self.currency)

    __rmul__ = __mul__

    def __lt__(self, other: object) -> bool:
        return self.amount < self._same(other).amount

    def __le__(self, other: object) -> bool:
        return self.amount <= self._same(other).amount

    def __gt__(self, other: object) -> bool:
        return self.amount > self._same(other).amount

    def __ge__(self, other: object) -> bool:
        return self.amount >= self._same(other).amount

    def is_zero(self) -> bool:
        return self.amount == 0

    def is_negative(self) -> bool:
        return self.amount < 0

    def rounded(self) -> Money:
        return Money(round_cents(self.amount), self.currency)

    def percent(self, rate: object) -> Money:
        """``rate`` percent of this amount, rounded to the cent (``percent(10)`` is 10 %)."""
        return Money(round_cents(self.amount * to_decimal(rate) / 100), self.currency)

    def cents(self) -> int:
        """The rounded amount in cents."""
        return int(round_cents(self.amount) * 100)

    @classmethod
    def from_cents(cls, cents: int, currency: str = "EUR") -> Money:
        return cls(Decimal(cents) / 100, currency)

    def allocate(self, ratios: Iterable[object]) -> list[Money]:
        """Split the rounded amount by ``ratios`` without losing a cent.

        Each part gets its share rounded down; the cents left over go one each to the first
        parts. The parts always add up to the rounded amount.
        """
        weights = [to_decimal(r) for r in ratios]
        if not weights or any(w < 0 for w in weights) or sum(weights) == 0:
            raise ValueError("ratios must be non-negative and not all zero")
        total = self.cents()
        sign = -1 if total < 0 else 1
        total = abs(total)
        whole = sum(weights)
        shares = [int(total * w // whole) for w in weights]
        remainder = total - sum(shares)
        for i in range(remainder):
            shares[i % len(shares)] += 1
        return [Money.from_cents(sign * s, self.currency) for s in shares]

    def split(self, parts: int) -> list[Money]:
        """``parts`` nearly equal amounts that add up to the rounded amount."""
        if parts < 1:
            raise ValueError("parts must be at least 1")
        return self.allocate([1] * parts)

    def format(self, symbol: bool = True) -> str:
        """``€1,234.50`` (or ``1,234.50 EUR`` without a symbol); negatives as ``-€3.00``."""
        value = round_cents(self.amount)
        digits = f"{abs(value):,.2f}"
        sign = "-" if value < 0 else ""
        if symbol and self.currency in SYMBOLS:
            return f"{sign}{SYMBOLS[self.currency]}{digits}"
        return f"{sign}{digits} {self.currency}"

    def __str__(self) -> str:
        return self.format()


def parse_money(text: str, default_currency: str = "EUR") -> Money:
    """Read ``12.50``, ``-3``, ``1,234.50 EUR``, ``EUR 12.50``, ``€12.50`` or ``-€3.00``."""
    raw = text.strip()
    if not raw:
        raise ParseError("empty amount")
    negative = raw.startswith("-")
    if negative:
        raw = raw[1:].lstrip()
    currency = default_currency
    parts = raw.split()
    if len(parts) == 2:
        if parts[0].isalpha():
            currency, raw = parts[0], parts[1]
        elif parts[1].isalpha():
            raw, currency = parts[0], parts[1]
        else:
            raise ParseError(f"cannot read amount {text!r}")
    elif len(parts) != 1:
        raise ParseError(f"cannot read amount {text!r}")
    if raw[:1] in CURRENCY_BY_SYMBOL:
        currency, raw = CURRENCY_BY_SYMBOL[raw[0]], raw[1:]
    if raw.startswith("-"):
        negative, raw = not negative, raw[1:]
    whole, _, fraction = raw.partition(".")
    groups = whole.split(",")
    if len(groups) > 1 and (not 1 <= len(groups[0]) <= 3 or any(len(g) != 3 for g in groups[1:])):
        raise ParseError(f"misplaced thousands separator in {text!r}")
    digits = "".join(groups) + ("." + fraction if fraction else "")
    if not digits or not digits.replace(".", "", 1).isdigit():
        raise ParseError(f"cannot read amount {text!r}")
    try:
        value = Money(Decimal(digits), currency.upper())
    except ValueError as exc:
        raise ParseError(str(exc)) from None
    return -value if negative else value


def total(amounts: Iterable[Money], currency: str = "EUR") -> Money:
    """The sum of ``amounts`` (zero in ``currency`` when there are none)."""
    result = Money.zero(currency)
    for amount in amounts:
        result = result + amount
    return result
