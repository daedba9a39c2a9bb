"""SQLite storage: one Database and a repository per kind of record.

Amounts are stored as decimal strings next to their currency, never as floats; dates as ISO text.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date

from stockroom.dates import Period
from stockroom.errors import DuplicateRecord, NotFound, ValidationError
from stockroom.models import (
    Customer,
    Order,
    OrderLine,
    PriceBreak,
    Product,
    StockLevel,
    normalize_sku,
)
from stockroom.money import Money

SCHEMA = """
CREATE TABLE IF NOT EXISTS products (
    sku TEXT PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, price TEXT NOT NULL,
    currency TEXT NOT NULL, tax_class TEXT NOT NULL, active INTEGER NOT NULL DEFAULT 1);
CREATE TABLE IF NOT EXISTS price_breaks (
    sku TEXT NOT NULL, min_qty INTEGER NOT NULL, price TEXT NOT NULL,
    PRIMARY KEY (sku, min_qty));
CREATE TABLE IF NOT EXISTS customers (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, region TEXT NOT NULL, tier TEXT NOT NULL,
    terms TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS stock (
    sku TEXT PRIMARY KEY, on_hand INTEGER NOT NULL, reserved INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS reservations (
    order_id TEXT NOT NULL, sku TEXT NOT NULL, qty INTEGER NOT NULL,
    PRIMARY KEY (order_id, sku));
CREATE TABLE IF NOT EXISTS orders (
    id TEXT PRIMARY KEY, customer_id TEXT NOT NULL, created TEXT NOT NULL, status TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS order_lines (
    order_id TEXT NOT NULL, position INTEGER NOT NULL, sku TEXT NOT NULL, qty INTEGER NOT NULL,
    unit_price TEXT, currency TEXT, PRIMARY KEY (order_id, position));
CREATE TABLE IF NOT EXISTS sequences (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""


class Database:
    """A SQLite connection with the schema in place (``:memory:`` by default)."""

    def __init__(self, path: str = ":memory:") -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.row_factory = sqlite3.Row
        self.conn.executescript(SCHEMA)
        self._depth = 0

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """All statements inside commit together or not at all (nesting joins the outer one)."""
        if self._depth:
            self._depth += 1
            try:
                yield self.conn
            finally:
                self._depth -= 1
            return
        self.conn.execute("BEGIN")
        self._depth = 1
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        else:
            self.conn.execute("COMMIT")
        finally:
            self._depth = 0

    def next_sequence(self, name: str) -> int:
        """1, 2, 3, ... per ``name``."""
        with self.transaction() as conn:
            row = conn.execute("SELECT value FROM sequences WHERE name = ?", (name,)).fetchone()
            value = (row["value"] if row else 0) + 1
            conn.execute(
                "INSERT INTO sequences (name, value) VALUES (?, ?) "
                "ON CONFLICT(name) DO UPDATE SET value = excluded.value",
                (name, value),
            )
        return value

    def close(self) -> None:
        self.conn.close()


def _money(amount: str | None, currency: str | None) -> Money | None:
    if amount is None:
        return None
    return Money.of(amount, currency or "EUR")


class ProductRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    def add(self, product: Product) -> Product:
        product = _normalized(product)
        with self.db.transaction() as conn:
            if self.find(product.sku) is not None:
                raise DuplicateRecord(f"product {product.sku} exists")
            conn.execute(
                "INSERT INTO products VALUES (?, ?, ?, ?, ?, ?, ?)",
                (product.sku, product.name, product.category, str(product.price.amount),
                 product.price.currency, product.tax_class, int(product.active)),
            )  # fmt: skip
            self._write_breaks(product)
        return product

    def update(self, product: Product) -> Product:
        product = _normalized(product)
        with self.db.transaction() as conn:
            done = conn.execute(
                "UPDATE products SET name = ?, category = ?, price = ?, currency = ?, "
                "tax_class = ?, active = ? WHERE sku = ?",
                (product.name, product.category, str(product.price.amount),
                 product.price.currency, product.tax_class, int(product.active), product.sku),
            )  # fmt: skip
            if done.rowcount == 0:
                raise NotFound(f"no product {product.sku}")
            self._write_breaks(product)
        return product

    def _write_breaks(self, product: Product) -> None:
        self.db.conn.execute("DELETE FROM price_breaks WHERE sku = ?", (product.sku,))
        self.db.conn.executemany(
            "INSERT INTO price_breaks VALUES (?, ?, ?)",
            [(product.sku, b.min_qty, str(b.unit_price.amount)) for b in product.breaks],
        )

    def find(self, sku: str) -> Product | None:
        key = normalize_sku(sku)
        row = self.db.conn.execute("SELECT * FROM products WHERE sku = ?", (key,)).fetchone()
        if row is None:
            return None
        breaks = self.db.conn.execute(
            "SELECT min_qty, price FROM price_breaks WHERE sku = ? ORDER BY min_qty", (key,)
        ).fetchall()
        currency = row["currency"]
        return Product(
            sku=row["sku"],
            name=row["name"],
            category=row["category"],
            price=Money.of(row["price"], currency),
            tax_class=row["tax_class"],
            breaks=tuple(PriceBreak(b["min_qty"], Money.of(b["price"], currency)) for b in breaks),
            active=bool(row["active"]),
        )

    def get(self, sku: str) -> Product:
        product = self.find(sku)
        if product is None:
            raise NotFound(f"no product {sku}")
        return product

    def list(self, category: str | None = None, active_only: bool = True) -> list[Product]:
        query = "SELECT sku FROM products WHERE 1 = 1"
        args: list[object] = []
        if category is not None:
            query += " AND lower(category) = lower(?)"
            args.append(category)
        if active_only:
            query += " AND active = 1"
        rows = self.db.conn.execute(query + " ORDER BY sku", args).fetchall()
        return [self.get(row["sku"]) for row in rows]

    def catalog(self) -> dict[str, Product]:
        """Every product (active or not) by SKU, for pricing."""
        return {p.sku: p for p in self.list(active_only=False)}


def _normalized(product: Product) -> Product:
    sku = normalize_sku(product.sku)
    if not product.name.strip() or not product.category.strip():
        raise ValidationError(f"{sku}: name and category are required")
    if sku == product.sku:
        return product
    return Product(sku, product.name, product.category, product.price, product.tax_class,
                   product.breaks, product.active)  # fmt: skip


class CustomerRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    def add(self, customer: Customer) -> Customer:
        try:
            self.db.conn.execute(
                "INSERT INTO customers VALUES (?, ?, ?, ?, ?)",
                (customer.id, customer.name, customer.region.upper(), customer.tier,
                 customer.terms),
            )  # fmt: skip
        except sqlite3.IntegrityError:
            raise DuplicateRecord(f"customer {customer.id} exists") from None
        return self.get(customer.id)

    def get(self, customer_id: str) -> Customer:
        row = self.db.conn.execute(
            "SELECT * FROM customers WHERE id = ?", (customer_id,)
        ).fetchone()
        if row is None:
            raise NotFound(f"no customer {customer_id}")
        return Customer(row["id"], row["name"], row["region"], row["tier"], row["terms"])

    def list(self) -> list[Customer]:
        rows = self.db.conn.execute("SELECT id FROM customers ORDER BY id").fetchall()
        return [self.get(row["id"]) for row in rows]


class StockRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    def get(self, sku: str) -> StockLevel:
        key = normalize_sku(sku)
        row = self.db.conn.execute("SELECT * FROM stock WHERE sku = ?", (key,)).fetchone()
        if row is None:
            return StockLevel(key, 0, 0)
        return StockLevel(row["sku"], row["on_hand"], row["reserved"])

    def put(self, level: StockLevel) -> None:
        if level.on_hand < 0 or level.reserved < 0 or level.reserved > level.on_hand:
            raise ValidationError(
                f"{level.sku}: impossible stock (on hand {level.on_hand}, "
                f"reserved {level.reserved})"
            )
        self.db.conn.execute(
            "INSERT INTO stock (sku, on_hand, reserved) VALUES (?, ?, ?) ON CONFLICT(sku) "
            "DO UPDATE SET on_hand = excluded.on_hand, reserved = excluded.reserved",
            (normalize_sku(level.sku), level.on_hand, level.reserved),
        )

    def levels(self) -> list[StockLevel]:
        rows = self.db.conn.execute("SELECT * FROM stock ORDER BY sku").fetchall()
        return [StockLevel(r["sku"], r["on_hand"], r["reserved"]) for r in rows]

    def reservations(self, order_id: str) -> dict[str, int]:
        rows = self.db.conn.execute(
            "SELECT sku, qty FROM reservations WHERE order_id = ? ORDER BY sku", (order_id,)
        ).fetchall()
        return {r["sku"]: r["qty"] for r in rows}

    def add_reservation(self, order_id: str, sku: str, qty: int) -> None:
        self.db.conn.execute(
            "INSERT INTO reservations VALUES (?, ?, ?) ON CONFLICT(order_id, sku) "
            "DO UPDATE SET qty = qty + excluded.qty",
            (order_id, sku, qty),
        )

    def clear_reservations(self, order_id: str) -> None:
        self.db.conn.execute("DELETE FROM reservations WHERE order_id = ?", (order_id,))


class OrderRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    def save(self, order: Order) -> None:
        """Insert or replace the order with all its lines."""
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO orders VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET "
                "customer_id = excluded.customer_id, created = excluded.created, "
                "status = excluded.status",
                (order.id, order.customer_id, order.created.isoformat(), order.status),
            )
            conn.execute("DELETE FROM order_lines WHERE order_id = ?", (order.id,))
            conn.executemany(
                "INSERT INTO order_lines VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (order.id, pos, line.sku, line.qty,
                     None if line.unit_price is None else str(line.unit_price.amount),
                     None if line.unit_price is None else line.unit_price.currency)
                    for pos, line in enumerate(order.lines)
                ],
            )  # fmt: skip

    def find(self, order_id: str) -> Order | None:
        row = self.db.conn.execute("SELECT * FROM orders WHERE id = ?", (order_id,)).fetchone()
        if row is None:
            return None
        lines = self.db.conn.execute(
            "SELECT * FROM order_lines WHERE order_id = ? ORDER BY position", (order_id,)
        ).fetchall()
        return Order(
            id=row["id"],
            customer_id=row["customer_id"],
            created=date.fromisoformat(row["created"]),
            lines=[
                OrderLine(r["sku"], r["qty"], _money(r["unit_price"], r["currency"])) for r in lines
            ],
            status=row["status"],
        )

    def get(self, order_id: str) -> Order:
        order = self.find(order_id)
        if order is None:
            raise NotFound(f"no order {order_id}")
        return order

    def list(self, status: str | None = None, period: Period | None = None) -> list[Order]:
        query = "SELECT id FROM orders WHERE 1 = 1"
        args: list[object] = []
        if status is not None:
            query += " AND status = ?"
            args.append(status)
        if period is not None:
            query += " AND created >= ? AND created <= ?"
            args += [period.start.isoformat(), period.end.isoformat()]
        rows = self.db.conn.execute(query + " ORDER BY created, id", args).fetchall()
        return [self.get(r["id"]) for r in rows]
