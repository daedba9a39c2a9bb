from datetime import date
from types import SimpleNamespace

import pytest

from stockroom.errors import InvalidTransition, NotFound, OutOfStock, ValidationError
from stockroom.models import CANCELLED, DRAFT, PLACED, SHIPPED, Order, OrderLine
from stockroom.money import Money
from tests.conftest import DAY


def draft(shop: SimpleNamespace, order_id: str = "O1", customer: str = "C2", **items: int) -> Order:
    order = shop.orders.create(order_id, customer, DAY)
    for sku, qty in items.items():
        shop.orders.add_line(order, sku.replace("_", "-"), qty)
    return order


def test_create_saves_a_draft(shop: SimpleNamespace) -> None:
    order = shop.orders.create("O1", "C1", DAY)
    assert order == Order("O1", "C1", DAY)
    assert shop.order_repo.get("O1") == order
    with pytest.raises(ValidationError):
        shop.orders.create("O1", "C1", DAY)
    with pytest.raises(NotFound):
        shop.orders.create("O2", "C9", DAY)


def test_add_line_normalizes_and_saves(shop: SimpleNamespace) -> None:
    order = shop.orders.create("O1", "C2", DAY)
    line = shop.orders.add_line(order, " pen-01", 3)
    assert line == OrderLine("PEN-01", 3)
    assert shop.order_repo.get("O1").lines == [OrderLine("PEN-01", 3)]


def test_adding_a_product_twice_keeps_one_line(shop: SimpleNamespace) -> None:
    order = shop.orders.create("O1", "C2", DAY)
    shop.orders.add_line(order, "PAD-02", 2)
    shop.orders.add_line(order, "MUG-01", 1)
    shop.orders.add_line(order, "pad-02", 3)
    assert order.lines == [OrderLine("PAD-02", 5), OrderLine("MUG-01", 1)]
    assert shop.order_repo.get("O1").lines == order.lines


def test_add_line_refusals(shop: SimpleNamespace) -> None:
    order = shop.orders.create("O1", "C2", DAY)
    with pytest.raises(NotFound):
        shop.orders.add_line(order, "NOPE-1", 1)
    with pytest.raises(ValidationError):
        shop.orders.add_line(order, "PEN-01", 0)
    old = shop.products.get("PAD-02")
    shop.products.update(type(old)(old.sku, old.name, old.category, old.price, active=False))
    with pytest.raises(ValidationError):
        shop.orders.add_line(order, "PAD-02", 1)
    assert order.lines == []


def test_remove_line(shop: SimpleNamespace) -> None:
    order = draft(shop, PEN_01=5, PAD_02=2)
    shop.orders.remove_line(order, "pen-01", 2)
    assert order.line_for("PEN-01") == OrderLine("PEN-01", 3)
    shop.orders.remove_line(order, "PEN-01")
    assert [ln.sku for ln in order.lines] == ["PAD-02"]
    shop.orders.remove_line(order, "PAD-02", 9)
    assert order.lines == [] and shop.order_repo.get("O1").lines == []
    with pytest.raises(ValidationError):
        shop.orders.remove_line(order, "PAD-02")


def test_quote_uses_the_customer_tier(shop: SimpleNamespace) -> None:
    gold = draft(shop, "O1", "C1", BOOK_2=3, BOOK_1=2)
    plain = draft(shop, "O2", "C2", BOOK_2=3, BOOK_1=2)
    # books: 90 + 25 = 115 gross, 10% off -> 103.50; gold customers get 5% off orders >= 100
    assert shop.orders.quote(plain).total == Money.of("103.50")
    gold_quote = shop.orders.quote(gold)
    assert gold_quote.order_discount == Money.of("5.18")
    assert gold_quote.total == Money.of("98.32")


def test_place_reserves_and_fixes_prices(shop: SimpleNamespace) -> None:
    order = draft(shop, PEN_01=12, MUG_01=3)
    quote = shop.orders.place(order)
    assert order.status == PLACED
    assert [ln.unit_price for ln in order.lines] == [Money.of("1.00"), Money.of("6.00")]
    assert quote.total == Money.of("24.00")  # 12 pens at 1.00, 3 mugs with one free
    assert shop.inventory.available("PEN-01") == 188
    assert shop.inventory.available("MUG-01") == 9
    stored = shop.order_repo.get("O1")
    assert stored.status == PLACED and stored.lines == order.lines


def test_place_with_a_shortage_changes_nothing(shop: SimpleNamespace) -> None:
    order = draft(shop, PEN_01=5, BOOK_2=4)
    with pytest.raises(OutOfStock):
        shop.orders.place(order)
    assert order.status == DRAFT
    assert all(ln.unit_price is None for ln in order.lines)
    assert shop.inventory.available("PEN-01") == 200
    assert shop.order_repo.get("O1").status == DRAFT


def test_place_sees_the_whole_quantity_of_a_product(shop: SimpleNamespace) -> None:
    order = draft(shop, BOOK_2=2)
    shop.orders.add_line(order, "BOOK-2", 2)
    with pytest.raises(OutOfStock):
        shop.orders.place(order)
    assert shop.inventory.available("BOOK-2") == 3


def test_place_needs_lines_and_a_draft(shop: SimpleNamespace) -> None:
    empty = shop.orders.create("O1", "C2", DAY)
    with pytest.raises(ValidationError):
        shop.orders.place(empty)
    order = draft(shop, "O2", PAD_02=1)
    shop.orders.place(order)
    with pytest.raises(InvalidTransition):
        shop.orders.place(order)
    with pytest.raises(InvalidTransition):
        shop.orders.add_line(order, "PAD-02", 1)
    with pytest.raises(InvalidTransition):
        shop.orders.remove_line(order, "PAD-02")


def test_cancel_a_placed_order_releases_its_stock(shop: SimpleNamespace) -> None:
    order = draft(shop, PEN_01=20, PAD_02=2)
    shop.orders.place(order)
    assert shop.orders.cancel(order) == {"PAD-02": 2, "PEN-01": 20}
    assert order.status == CANCELLED
    assert shop.inventory.available("PEN-01") == 200
    assert shop.inventory.level("PAD-02").on_hand == 40
    with pytest.raises(InvalidTransition):
        shop.orders.cancel(order)
    assert shop.inventory.available("PEN-01") == 200


def test_cancel_one_order_keeps_the_others_reservations(shop: SimpleNamespace) -> None:
    first = draft(shop, "O1", PEN_01=20)
    second = draft(shop, "O2", PEN_01=30)
    shop.orders.place(first)
    shop.orders.place(second)
    shop.orders.cancel(first)
    assert shop.inventory.level("PEN-01").reserved == 30
    assert shop.inventory.available("PEN-01") == 170


def test_cancel_a_draft(shop: SimpleNamespace) -> None:
    order = draft(shop, PEN_01=2)
    assert shop.orders.cancel(order) == {}
    assert shop.order_repo.get("O1").status == CANCELLED


def test_ship(shop: SimpleNamespace) -> None:
    order = draft(shop, BOOK_2=3)
    shop.orders.place(order)
    assert shop.orders.ship(order) == {"BOOK-2": 3}
    assert order.status == SHIPPED
    assert shop.inventory.level("BOOK-2").on_hand == 0
    assert shop.inventory.level("BOOK-2").reserved == 0
    with pytest.raises(InvalidTransition):
        shop.orders.cancel(order)
    with pytest.raises(InvalidTransition):
        shop.orders.ship(draft(shop, "O2", PAD_02=1))


def test_reorder_copies_lines_without_prices(shop: SimpleNamespace) -> None:
    order = draft(shop, PEN_01=12, MUG_01=2)
    shop.orders.place(order)
    again = shop.orders.reorder(order, "O2", date(2024, 4, 2))
    assert again.status == DRAFT and again.created == date(2024, 4, 2)
    assert again.lines == [OrderLine("PEN-01", 12), OrderLine("MUG-01", 2)]
    assert shop.order_repo.get("O2").lines == again.lines


def test_reorder_is_independent_of_the_original(shop: SimpleNamespace) -> None:
    order = draft(shop, PEN_01=12, MUG_01=2)
    again = shop.orders.reorder(order, "O2", DAY)
    shop.orders.add_line(again, "PEN-01", 8)
    shop.orders.add_line(again, "PAD-02", 1)
    assert order.lines == [OrderLine("PEN-01", 12), OrderLine("MUG-01", 2)]
    shop.orders.place(order)
    assert again.lines[0].unit_price is None
    assert shop.order_repo.get("O1").lines[0].qty == 12


def test_orders_in_other_currencies_and_mixed(shop: SimpleNamespace) -> None:
    from stockroom.models import Product

    shop.products.add(Product("US-1", "Import", "office", Money.of("2.00", "USD")))
    shop.inventory.receive("US-1", 5)
    order = draft(shop, US_1=2)
    quote = shop.orders.place(order)
    assert quote.total == Money.of("4.00", "USD")
    assert shop.order_repo.get("O1").lines[0].unit_price == Money.of("2.00", "USD")
    mixed = draft(shop, "O2", US_1=1, PAD_02=1)
    with pytest.raises(ValidationError):
        shop.orders.quote(mixed)
