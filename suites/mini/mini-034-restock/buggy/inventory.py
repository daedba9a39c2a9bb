"""Restock planning for an inventory."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Item:
    sku: str
    on_hand: int
    reorder_point: int
    target: int


def restock_orders(items: list[Item]) -> dict[str, int]:
    """Units to order per SKU: items at or below their reorder point are topped up to target."""
    orders: dict[str, int] = {}
    for item in items:
        if item.on_hand <= item.reorder_point:
            orders[item.sku] = item.target - item.reorder_point
    return orders


def total_units(orders: dict[str, int]) -> int:
    """All units across an order."""
    return sum(orders.values())
