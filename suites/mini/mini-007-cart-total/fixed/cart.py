"""Shopping-cart totals in integer cents, with a percentage discount and tax."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Line:
    sku: str
    quantity: int
    unit_cents: int


def subtotal_cents(lines: list[Line]) -> int:
    """Sum of quantity x unit price over all lines, in cents."""
    return sum(line.quantity * line.unit_cents for line in lines)


def total_cents(lines: list[Line], discount_pct: int = 0, tax_pct: int = 0) -> int:
    """Subtotal minus the discount, plus tax on the discounted amount, rounded half up."""
    if not 0 <= discount_pct <= 100:
        raise ValueError("discount must be between 0 and 100 percent")
    discounted = subtotal_cents(lines) * (100 - discount_pct)
    taxed = discounted * (100 + tax_pct)
    return (taxed + 5000) // 10000
