"""The order workflow: draft -> placed -> shipped, or cancelled before shipping.

Placing an order prices it (fixing each line's unit price) and reserves its stock, both or
neither; cancelling a placed order releases its stock; shipping commits it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date

from stockroom.errors import InvalidTransition, ValidationError
from stockroom.inventory import Inventory
from stockroom.models import (
    CANCELLED,
    DRAFT,
    PLACED,
    SHIPPED,
    TRANSITIONS,
    Order,
    OrderLine,
    Product,
    normalize_sku,
)
from stockroom.pricing import Quote, price_lines
from stockroom.rules import Promotion
from stockroom.storage import CustomerRepository, Database, OrderRepository, ProductRepository


class OrderService:
    def __init__(
        self, db: Database, inventory: Inventory, promotions: Iterable[Promotion] = ()
    ) -> None:
        self.db = db
        self.inventory = inventory
        self.products = ProductRepository(db)
        self.customers = CustomerRepository(db)
        self.orders = OrderRepository(db)
        self.promotions = list(promotions)

    def create(self, order_id: str, customer_id: str, created: date) -> Order:
        self.customers.get(customer_id)  # must exist
        if self.orders.find(order_id) is not None:
            raise ValidationError(f"order {order_id} exists")
        order = Order(order_id, customer_id, created)
        self.orders.save(order)
        return order

    def _editable(self, order: Order) -> None:
        if order.status != DRAFT:
            raise InvalidTransition(f"order {order.id} is {order.status}; only drafts change")

    def add_line(self, order: Order, sku: str, qty: int) -> OrderLine:
        """Add ``qty`` units of ``sku``; a product already on the order gets one line."""
        self._editable(order)
        product = self.products.get(sku)
        if not product.active:
            raise ValidationError(f"{product.sku} is no longer sold")
        if qty <= 0:
            raise ValidationError(f"{product.sku}: quantity must be positive, not {qty}")
        line = order.line_for(product.sku)
        if line is None:
            line = OrderLine(product.sku, qty)
            order.lines.append(line)
        else:
            line.qty += qty
        self.orders.save(order)
        return line

    def remove_line(self, order: Order, sku: str, qty: int | None = None) -> None:
        """Remove ``qty`` units of ``sku`` (all of them when ``qty`` is None)."""
        self._editable(order)
        key = normalize_sku(sku)
        line = order.line_for(key)
        if line is None:
            raise ValidationError(f"{key} is not on order {order.id}")
        if qty is None or qty >= line.qty:
            order.lines.remove(line)
        elif qty <= 0:
            raise ValidationError("quantity to remove must be positive")
        else:
            line.qty -= qty
        self.orders.save(order)

    def quote(self, order: Order, day: date | None = None) -> Quote:
        """What the order would cost on ``day`` (its creation date by default)."""
        customer = self.customers.get(order.customer_id)
        catalog = self.products.catalog()
        currency = _currency(order, catalog)
        return price_lines(
            order.lines,
            catalog,
            self.promotions,
            day=day or order.created,
            tier=customer.tier,
            currency=currency,
        )

    def place(self, order: Order) -> Quote:
        """Price and reserve; on a shortage nothing changes and OutOfStock is raised."""
        self._transition_allowed(order, PLACED)
        if not order.lines:
            raise ValidationError(f"order {order.id} has no lines")
        quote = self.quote(order)
        with self.db.transaction():
            self.inventory.reserve(order.id, order.quantities().items())
            prices = {priced.sku: priced.unit_price for priced in quote.lines}
            for line in order.lines:
                line.unit_price = prices[line.sku]
            order.status = PLACED
            self.orders.save(order)
        return quote

    def cancel(self, order: Order) -> dict[str, int]:
        """Cancel a draft or placed order; returns the units released."""
        self._transition_allowed(order, CANCELLED)
        with self.db.transaction():
            released = self.inventory.release(order.id) if order.status == PLACED else {}
            order.status = CANCELLED
            self.orders.save(order)
        return released

    def ship(self, order: Order) -> dict[str, int]:
        self._transition_allowed(order, SHIPPED)
        with self.db.transaction():
            shipped = self.inventory.commit(order.id)
            order.status = SHIPPED
            self.orders.save(order)
        return shipped

    def reorder(self, order: Order, new_id: str, created: date) -> Order:
        """A new draft with the same products and quantities (prices are fixed again later)."""
        copy = self.create(new_id, order.customer_id, created)
        copy.lines = [OrderLine(line.sku, line.qty) for line in order.lines]
        self.orders.save(copy)
        return copy

    def _transition_allowed(self, order: Order, status: str) -> None:
        if status not in TRANSITIONS.get(order.status, frozenset()):
            raise InvalidTransition(f"order {order.id}: cannot go from {order.status} to {status}")


def _currency(order: Order, catalog: Mapping[str, Product]) -> str:
    currencies = {catalog[ln.sku].price.currency for ln in order.lines if ln.sku in catalog}
    if len(currencies) > 1:
        raise ValidationError(f"order {order.id} mixes currencies {sorted(currencies)}")
    return currencies.pop() if currencies else "EUR"
