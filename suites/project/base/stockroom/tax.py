"""Sales tax: rates by region and tax class, and the tax of an invoice grouped by rate.

A rates table is text, one rate a line: ``REGION CLASS PERCENT``. The region ``*`` applies to
every region that has no rate of its own for that class::

    DE standard 19
    DE reduced 7
    *  exempt 0
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from stockroom.errors import ParseError, ValidationError
from stockroom.money import Money, round_cents

ANY_REGION = "*"


class TaxTable:
    """Tax rates (percent) by ``(region, tax class)``."""

    def __init__(self, rates: dict[tuple[str, str], Decimal] | None = None) -> None:
        self._rates: dict[tuple[str, str], Decimal] = {}
        for (region, tax_class), rate in (rates or {}).items():
            self.set(region, tax_class, rate)

    def set(self, region: str, tax_class: str, rate: Decimal) -> None:
        if rate < 0 or rate >= 100:
            raise ValidationError(f"tax rate must be in [0, 100), not {rate}")
        self._rates[(region.upper(), tax_class.lower())] = Decimal(rate)

    def rate(self, region: str, tax_class: str) -> Decimal:
        """The rate for ``region``, else the ``*`` rate of the class; unknown is an error."""
        key = (region.upper(), tax_class.lower())
        if key in self._rates:
            return self._rates[key]
        fallback = (ANY_REGION, tax_class.lower())
        if fallback in self._rates:
            return self._rates[fallback]
        raise ValidationError(f"no tax rate for class {tax_class!r} in region {region!r}")

    @classmethod
    def parse(cls, text: str) -> TaxTable:
        table = cls()
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 3:
                raise ParseError("expected REGION CLASS PERCENT", number)
            region, tax_class, percent = parts
            try:
                rate = Decimal(percent.rstrip("%"))
            except InvalidOperation:
                raise ParseError(f"not a rate: {percent!r}", number) from None
            if (region.upper(), tax_class.lower()) in table._rates:
                raise ParseError(f"{region} {tax_class} is defined twice", number)
            try:
                table.set(region, tax_class, rate)
            except ValidationError as exc:
                raise ParseError(str(exc), number) from None
        return table


def tax_on_net(net: Money, rate: Decimal) -> Money:
    """Tax to add to a net amount."""
    return Money(round_cents(net.amount * rate / 100), net.currency)


def tax_in_gross(gross: Money, rate: Decimal) -> Money:
    """The tax contained in a gross amount (prices that include tax)."""
    return Money(round_cents(gross.amount * rate / (100 + rate)), gross.currency)


@dataclass(frozen=True)
class TaxLine:
    """Tax at one rate: the net amount it is charged on and the tax itself."""

    rate: Decimal
    net: Money
    tax: Money


def tax_breakdown(
    amounts: Iterable[tuple[Money, Decimal]], *, prices_include_tax: bool = False
) -> list[TaxLine]:
    """Group ``(amount, rate)`` pairs by rate and compute the tax once per group (rounded per
    group, not per line), highest rate first. With ``prices_include_tax`` the amounts are gross
    and the tax is taken out of them."""
    groups: dict[Decimal, Money] = {}
    for amount, rate in amounts:
        groups[rate] = groups[rate] + amount if rate in groups else amount
    result: list[TaxLine] = []
    for rate in sorted(groups, reverse=True):
        amount = groups[rate].rounded()
        if prices_include_tax:
            tax = tax_in_gross(amount, rate)
            result.append(TaxLine(rate, amount - tax, tax))
        else:
            result.append(TaxLine(rate, amount, tax_on_net(amount, rate)))
    return result
