"""Stock on hand and reservations: what is available is on hand minus reserved.

Placing an order reserves its units (all or nothing); cancelling releases them; shipping
commits them (they leave the shelf).
"""

from __future__ import annotations

from collections.abc import Iterable

from stockroom.errors import DuplicateRecord, OutOfStock, ValidationError
from stockroom.models import StockLevel, normalize_sku
from stockroom.storage import Database, StockRepository


class Inventory:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.stock = StockRepository(db)

    def level(self, sku: str) -> StockLevel:
        return self.stock.get(sku)

    def available(self, sku: str) -> int:
        return self.stock.get(sku).available

    def receive(self, sku: str, qty: int) -> StockLevel:
        """Add ``qty`` units to the shelf."""
        if qty <= 0:
            raise ValidationError(f"{sku}: received quantity must be positive, not {qty}")
        with self.db.transaction():
            level = self.stock.get(sku)
            new = StockLevel(level.sku, level.on_hand + qty, level.reserved)
            self.stock.put(new)
        return new

    def count(self, sku: str, counted: int) -> StockLevel:
        """Record a stock count: on hand becomes ``counted`` (it may not drop below reserved)."""
        with self.db.transaction():
            level = self.stock.get(sku)
            if counted < level.reserved:
                raise ValidationError(
                    f"{level.sku}: counted {counted} but {level.reserved} are reserved"
                )
            new = StockLevel(level.sku, counted, level.reserved)
            self.stock.put(new)
        return new

    def reserve(self, order_id: str, items: Iterable[tuple[str, int]]) -> dict[str, int]:
        """Reserve every ``(sku, qty)`` for ``order_id``, or nothing if any is short.

        Quantities of the same SKU are added up first. Returns the units reserved per SKU.
        """
        wanted: dict[str, int] = {}
        for sku, qty in items:
            if qty <= 0:
                raise ValidationError(f"{sku}: reserved quantity must be positive")
            key = normalize_sku(sku)
            wanted[key] = wanted.get(key, 0) + qty
        with self.db.transaction():
            if self.stock.reservations(order_id):
                raise DuplicateRecord(f"order {order_id} already holds a reservation")
            for sku, qty in sorted(wanted.items()):
                level = self.stock.get(sku)
                if level.available < qty:
                    raise OutOfStock(sku, qty, level.available)
            for sku, qty in sorted(wanted.items()):
                level = self.stock.get(sku)
                self.stock.put(StockLevel(sku, level.on_hand, level.reserved + qty))
                self.stock.add_reservation(order_id, sku, qty)
        return wanted

    def release(self, order_id: str) -> dict[str, int]:
        """Give back everything ``order_id`` holds (nothing if it holds nothing)."""
        with self.db.transaction():
            held = self.stock.reservations(order_id)
            for sku, qty in held.items():
                level = self.stock.get(sku)
                self.stock.put(StockLevel(sku, level.on_hand, level.reserved - qty))
            self.stock.clear_reservations(order_id)
        return held

    def commit(self, order_id: str) -> dict[str, int]:
        """Ship what ``order_id`` holds: the units leave the shelf and the reservation ends."""
        with self.db.transaction():
            held = self.stock.reservations(order_id)
            if not held:
                raise ValidationError(f"order {order_id} holds no reservation")
            for sku, qty in held.items():
                level = self.stock.get(sku)
                self.stock.put(StockLevel(sku, level.on_hand - qty, level.reserved - qty))
            self.stock.clear_reservations(order_id)
        return held

    def low_stock(self, threshold: int) -> list[StockLevel]:
        """Levels whose available units are at or below ``threshold``, scarcest first."""
        levels = [lv for lv in self.stock.levels() if lv.available <= threshold]
        return sorted(levels, key=lambda lv: (lv.available, lv.sku))
