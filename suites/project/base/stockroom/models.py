"""The records the service works with: products, customers, orders, stock levels."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from stockroom.errors import ValidationError
from stockroom.money import Money

_SKU = re.compile(r"^[A-Z0-9][A-Z0-9-]{0,31}$")

DRAFT, PLACED, SHIPPED, CANCELLED = "draft", "placed", "shipped", "cancelled"
ORDER_STATUSES = (DRAFT, PLACED, SHIPPED, CANCELLED)
TRANSITIONS: dict[str, frozenset[str]] = {
    DRAFT: frozenset({PLACED, CANCELLED}),
    PLACED: frozenset({SHIPPED, CANCELLED}),
    SHIPPED: frozenset(),
    CANCELLED: frozenset(),
}
TIERS = ("standard", "silver", "gold")


def normalize_sku(raw: str) -> str:
    """SKUs are stored upper case without surrounding blanks: `` pen-01`` -> ``PEN-01``."""
    sku = raw.strip().upper()
    if not _SKU.match(sku):
        raise ValidationError(f"not a valid SKU: {raw!r}")
    return sku


@dataclass(frozen=True)
class PriceBreak:
    """From ``min_qty`` units on, each unit costs ``unit_price``."""

    min_qty: int
    unit_price: Money


@dataclass(frozen=True)
class Product:
    sku: str
    name: str
    category: str
    price: Money
    tax_class: str = "standard"
    breaks: tuple[PriceBreak, ...] = ()
    active: bool = True

    def __post_init__(self) -> None:
        if self.price.is_negative():
            raise ValidationError(f"{self.sku}: price must not be negative")
        for brk in self.breaks:
            if brk.min_qty < 2:
                raise ValidationError(f"{self.sku}: a price break starts at 2 units or more")
            if brk.unit_price.currency != self.price.currency:
                raise ValidationError(f"{self.sku}: price break in another currency")


@dataclass(frozen=True)
class Customer:
    id: str
    name: str
    region: str
    tier: str = "standard"
    terms: str = "net30"

    def __post_init__(self) -> None:
        if self.tier not in TIERS:
            raise ValidationError(f"{self.id}: unknown tier {self.tier!r}")


@dataclass
class OrderLine:
    sku: str
    qty: int
    unit_price: Money | None = None  # fixed when the order is placed

    def __post_init__(self) -> None:
        if self.qty <= 0:
            raise ValidationError(f"{self.sku}: quantity must be positive, not {self.qty}")


@dataclass
class Order:
    id: str
    customer_id: str
    created: date
    lines: list[OrderLine] = field(default_factory=list)
    status: str = DRAFT

    def line_for(self, sku: str) -> OrderLine | None:
        for line in self.lines:
            if line.sku == sku:
                return line
        return None

    def quantities(self) -> dict[str, int]:
        """Units per SKU over all lines."""
        result: dict[str, int] = {}
        for line in self.lines:
            result[line.sku] = result.get(line.sku, 0) + line.qty
        return result

    @property
    def total_qty(self) -> int:
        return sum(line.qty for line in self.lines)


@dataclass(frozen=True)
class StockLevel:
    sku: str
    on_hand: int
    reserved: int = 0

    @property
    def available(self) -> int:
        return self.on_hand - self.reserved
