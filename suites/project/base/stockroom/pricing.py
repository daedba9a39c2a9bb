"""Prices of order lines: quantity breaks, then the best line promotion, then the best order
promotion. Amounts stay exact until each line's discount and net are rounded to the cent.

A ``total`` condition of a line promotion sees the order's gross total; that of an order
promotion sees the subtotal after line promotions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from stockroom.errors import NotFound, ValidationError
from stockroom.models import OrderLine, Product
from stockroom.money import Money, total
from stockroom.rules import Promotion


def unit_price(product: Product, qty: int) -> Money:
    """The unit price for ``qty`` units: the break with the largest ``min_qty`` <= ``qty``."""
    best = product.price
    best_min = 0
    for brk in product.breaks:
        if brk.min_qty <= qty and brk.min_qty > best_min:
            best, best_min = brk.unit_price, brk.min_qty
    return best


def line_discount(promo: Promotion, unit: Money, qty: int) -> Money:
    """What ``promo`` takes off a line of ``qty`` units at ``unit`` each (never more than the
    line is worth)."""
    gross = unit * qty
    if promo.kind == "percent":
        discount = gross.percent(promo.value)
    elif promo.kind == "amount":
        discount = Money(promo.value, unit.currency) * qty
    elif promo.kind == "bundle":
        free_units = qty // (promo.buy + promo.free) * promo.free
        discount = unit * free_units
    else:
        raise ValidationError(f"unknown promotion kind {promo.kind!r}")
    return min(discount, gross).rounded()


@dataclass
class PricedLine:
    sku: str
    qty: int
    unit_price: Money
    gross: Money
    discount: Money
    promotion: str | None = None

    @property
    def net(self) -> Money:
        return (self.gross - self.discount).rounded()


@dataclass
class Quote:
    currency: str
    lines: list[PricedLine] = field(default_factory=list)
    order_discount: Money | None = None
    order_promotion: str | None = None

    @property
    def subtotal(self) -> Money:
        """Sum of the lines' nets (after line promotions, before the order promotion)."""
        return total((line.net for line in self.lines), self.currency)

    @property
    def discount_total(self) -> Money:
        lines = total((line.discount for line in self.lines), self.currency)
        return lines + (self.order_discount or Money.zero(self.currency))

    @property
    def total(self) -> Money:
        return self.subtotal - (self.order_discount or Money.zero(self.currency))


def _best(candidates: Iterable[tuple[Money, str]]) -> tuple[Money, str] | None:
    """The largest discount; on a tie, the promotion whose name sorts first."""
    best: tuple[Money, str] | None = None
    for amount, name in candidates:
        if amount.is_zero():
            continue
        if best is None or amount > best[0] or (amount == best[0] and name < best[1]):
            best = (amount, name)
    return best


def price_lines(
    lines: Iterable[OrderLine],
    catalog: Mapping[str, Product],
    promotions: Iterable[Promotion] = (),
    *,
    day: date,
    tier: str = "standard",
    currency: str = "EUR",
) -> Quote:
    """Price ``lines`` (in their order) on ``day`` for a customer of ``tier``."""
    active = [p for p in promotions if p.active_on(day)]
    quote = Quote(currency)
    items = list(lines)
    gross_total = Decimal(0)
    for line in items:
        product = catalog.get(line.sku)
        if product is None:
            raise NotFound(f"unknown product {line.sku}")
        if product.price.currency != currency:
            raise ValidationError(f"{line.sku} is priced in {product.price.currency}")
        unit = unit_price(product, line.qty)
        gross_total += (unit * line.qty).amount
        quote.lines.append(
            PricedLine(line.sku, line.qty, unit, unit * line.qty, Money.zero(currency))
        )
    for priced in quote.lines:
        product = catalog[priced.sku]
        best = _best(
            (line_discount(p, priced.unit_price, priced.qty), p.name)
            for p in active
            if p.target != "order"
            and p.matches(priced.sku, product.category)
            and p.conditions_hold(priced.qty, gross_total, tier)
        )
        if best is not None:
            priced.discount, priced.promotion = best
        priced.gross = priced.gross.rounded()
    subtotal = quote.subtotal
    qty = sum(line.qty for line in quote.lines)
    order_best = _best(
        (_order_discount(p, subtotal), p.name)
        for p in active
        if p.target == "order" and p.conditions_hold(qty, subtotal.amount, tier)
    )
    if order_best is not None:
        quote.order_discount, quote.order_promotion = order_best
    return quote


def _order_discount(promo: Promotion, subtotal: Money) -> Money:
    if promo.kind == "percent":
        return subtotal.percent(promo.value)
    return min(Money(promo.value, subtotal.currency), subtotal).rounded()
