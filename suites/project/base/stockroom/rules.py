"""Promotion rules written in a small language, one rule a line::

    # comments and blank lines are ignored
    promo SPRING: 10% off category books when qty >= 3 until 2024-05-31
    promo PENS: 0.50 off sku PEN-01 when qty >= 10
    promo MUGS: buy 2 get 1 free sku MUG-01
    promo LOYAL: 5% off order when total >= 100 and tier = gold from 2024-01-01

A rule has a name, a benefit (``N% off``, ``AMOUNT off`` per unit, or ``buy N get M free``), a
target (``sku X``, ``category X`` or ``order``), optional conditions joined by ``and`` (``qty``,
``total`` or ``tier`` compared with ``= != < <= > >=``) and optional ``from``/``until`` dates,
both inclusive.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from stockroom.dates import parse_date
from stockroom.errors import ParseError
from stockroom.models import TIERS, normalize_sku

OPERATORS: dict[str, Callable[[object, object], bool]] = {
    "=": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
_TOKEN = re.compile(
    r"\s*(?:(?P<date>\d{4}-\d{2}-\d{2})|(?P<num>\d+(?:\.\d+)?%?)|(?P<op>!=|<=|>=|[=<>])"
    r"|(?P<colon>:)|(?P<word>[A-Za-z][A-Za-z0-9_-]*))"
)


@dataclass(frozen=True)
class Condition:
    subject: str  # qty | total | tier
    op: str
    value: Decimal | str

    def holds(self, qty: int, total: Decimal, tier: str) -> bool:
        actual: object = {"qty": Decimal(qty), "total": total, "tier": tier}[self.subject]
        if self.subject == "tier" and self.op not in ("=", "!="):
            raise ParseError(f"tier can only be compared with = or !=, not {self.op}")
        return OPERATORS[self.op](actual, self.value)


@dataclass(frozen=True)
class Promotion:
    name: str
    kind: str  # percent | amount | bundle
    value: Decimal = Decimal(0)  # percent, or amount off per unit
    buy: int = 0
    free: int = 0
    target: str = "order"  # sku | category | order
    target_value: str = ""
    conditions: tuple[Condition, ...] = ()
    starts: date | None = None
    ends: date | None = None
    line: int = 0

    def active_on(self, day: date) -> bool:
        if self.starts is not None and day < self.starts:
            return False
        return self.ends is None or day <= self.ends

    def matches(self, sku: str, category: str) -> bool:
        if self.target == "sku":
            return sku == self.target_value
        if self.target == "category":
            return category.lower() == self.target_value.lower()
        return False

    def conditions_hold(self, qty: int, total: Decimal, tier: str) -> bool:
        return all(c.holds(qty, total, tier) for c in self.conditions)


def tokenize(text: str, line: int) -> list[tuple[str, str]]:
    """``(kind, text)`` pairs; kinds are date, num, op, colon and word."""
    tokens: list[tuple[str, str]] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if not match or match.end() == pos:
            raise ParseError(f"unexpected text {text[pos:].strip()[:20]!r}", line)
        kind = match.lastgroup or ""
        tokens.append((kind, match.group(kind)))
        pos = match.end()
    return tokens


class _Reader:
    def __init__(self, tokens: list[tuple[str, str]], line: int) -> None:
        self.tokens = tokens
        self.pos = 0
        self.line = line

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ("end", "")

    def take(self, kind: str, word: str | None = None) -> str:
        got_kind, got = self.peek()
        if got_kind != kind or (word is not None and got.lower() != word):
            expected = word or kind
            raise ParseError(f"expected {expected!r}, found {got or 'end of line'!r}", self.line)
        self.pos += 1
        return got

    def at_word(self, word: str) -> bool:
        kind, text = self.peek()
        return kind == "word" and text.lower() == word


def _number(text: str, line: int) -> Decimal:
    try:
        return Decimal(text.rstrip("%"))
    except InvalidOperation:
        raise ParseError(f"not a number: {text!r}", line) from None


def _benefit(r: _Reader) -> dict[str, object]:
    if r.at_word("buy"):
        r.take("word", "buy")
        buy = int(_number(r.take("num"), r.line))
        r.take("word", "get")
        free = int(_number(r.take("num"), r.line))
        r.take("word", "free")
        if buy < 1 or free < 1:
            raise ParseError("buy and get must be at least 1", r.line)
        return {"kind": "bundle", "buy": buy, "free": free}
    amount = r.take("num")
    r.take("word", "off")
    value = _number(amount, r.line)
    if amount.endswith("%"):
        if not 0 < value <= 100:
            raise ParseError(f"a percentage must be in (0, 100], not {value}", r.line)
        return {"kind": "percent", "value": value}
    return {"kind": "amount", "value": value}


def _target(r: _Reader) -> dict[str, object]:
    word = r.take("word").lower()
    if word == "order":
        return {"target": "order"}
    if word not in ("sku", "category"):
        raise ParseError(f"expected 'sku', 'category' or 'order', found {word!r}", r.line)
    kind, value = r.peek()
    if kind not in ("word", "num"):
        raise ParseError(f"expected a {word} after {word!r}", r.line)
    r.pos += 1
    if word == "sku":
        value = normalize_sku(value)
    return {"target": word, "target_value": value}


def _condition(r: _Reader) -> Condition:
    subject = r.take("word").lower()
    if subject not in ("qty", "total", "tier"):
        raise ParseError(f"unknown condition {subject!r} (qty, total or tier)", r.line)
    op = r.take("op")
    if subject == "tier":
        tier = r.take("word").lower()
        if tier not in TIERS or op not in ("=", "!="):
            raise ParseError(f"bad tier condition: tier {op} {tier}", r.line)
        return Condition(subject, op, tier)
    return Condition(subject, op, _number(r.take("num"), r.line))


def parse_rule(text: str, line: int = 0) -> Promotion:
    """One ``promo NAME: ...`` line."""
    r = _Reader(tokenize(text, line), line)
    r.take("word", "promo")
    name = r.take("word").upper()
    r.take("colon")
    fields: dict[str, object] = {"name": name, "line": line, **_benefit(r), **_target(r)}
    if fields["kind"] == "bundle" and fields["target"] == "order":
        raise ParseError("buy-get rules need a sku or category", line)
    conditions: list[Condition] = []
    if r.at_word("when"):
        r.take("word", "when")
        conditions.append(_condition(r))
        while r.at_word("and"):
            r.take("word", "and")
            conditions.append(_condition(r))
    fields["conditions"] = tuple(conditions)
    for keyword, key in (("from", "starts"), ("until", "ends")):
        if r.at_word(keyword):
            r.take("word", keyword)
            fields[key] = parse_date(r.take("date"))
    if r.peek()[0] != "end":
        raise ParseError(f"unexpected {r.peek()[1]!r}", line)
    promo = Promotion(**fields)  # type: ignore[arg-type]
    if promo.starts and promo.ends and promo.ends < promo.starts:
        raise ParseError("the rule ends before it starts", line)
    return promo


def parse_rules(text: str) -> list[Promotion]:
    """Every rule of a rules file, in order; names must be unique."""
    promotions: list[Promotion] = []
    names: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        promo = parse_rule(stripped, number)
        if promo.name in names:
            raise ParseError(f"rule {promo.name} is defined twice", number)
        names.add(promo.name)
        promotions.append(promo)
    return promotions
