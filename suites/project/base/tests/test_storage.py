from datetime import date

import pytest

from stockroom.dates import Period
from stockroom.errors import DuplicateRecord, NotFound, ValidationError
from stockroom.models import Customer, Order, OrderLine, PriceBreak, Product, StockLevel
from stockroom.money import Money
from stockroom.storage import (
    CustomerRepository,
    Database,
    OrderRepository,
    ProductRepository,
    StockRepository,
)


def pen(**changes: object) -> Product:
    fields: dict[str, object] = {
        "sku": "PEN-01",
        "name": "Blue pen",
        "category": "office",
        "price": Money.of("1.20"),
        "breaks": (PriceBreak(10, Money.of("1.00")),),
    }
    fields.update(changes)
    return Product(**fields)  # type: ignore[arg-type]


def test_products_round_trip(db: Database) -> None:
    repo = ProductRepository(db)
    repo.add(pen())
    assert repo.get("PEN-01") == pen()


def test_products_keep_their_currency(db: Database) -> None:
    repo = ProductRepository(db)
    repo.add(pen(sku="PEN-US", price=Money.of("1.50", "USD"),
                 breaks=(PriceBreak(10, Money.of("1.25", "USD")),)))  # fmt: skip
    got = repo.get("PEN-US")
    assert got.price == Money.of("1.50", "USD")
    assert got.breaks[0].unit_price == Money.of("1.25", "USD")


def test_skus_are_normalized_on_the_way_in_and_out(db: Database) -> None:
    repo = ProductRepository(db)
    stored = repo.add(pen(sku=" pen-01 "))
    assert stored.sku == "PEN-01"
    assert repo.get("pen-01").sku == "PEN-01"
    assert repo.find("Pen-01") is not None


def test_duplicate_product(db: Database) -> None:
    repo = ProductRepository(db)
    repo.add(pen())
    with pytest.raises(DuplicateRecord):
        repo.add(pen(sku="pen-01"))


def test_update_and_missing(db: Database) -> None:
    repo = ProductRepository(db)
    repo.add(pen())
    repo.update(pen(price=Money.of("1.30"), breaks=()))
    assert repo.get("PEN-01").price == Money.of("1.30")
    assert repo.get("PEN-01").breaks == ()
    with pytest.raises(NotFound):
        repo.update(pen(sku="NOPE"))
    with pytest.raises(NotFound):
        repo.get("NOPE")
    assert repo.find("NOPE") is None


def test_product_validation(db: Database) -> None:
    repo = ProductRepository(db)
    with pytest.raises(ValidationError):
        repo.add(pen(name="  "))
    with pytest.raises(ValidationError):
        repo.add(pen(sku="bad sku"))
    with pytest.raises(ValidationError):
        pen(price=Money.of("-1"))
    with pytest.raises(ValidationError):
        pen(breaks=(PriceBreak(1, Money.of("1")),))


def test_list_by_category_and_activity(db: Database) -> None:
    repo = ProductRepository(db)
    repo.add(pen())
    repo.add(pen(sku="PAD-02", name="Pad"))
    repo.add(pen(sku="BOOK-1", name="Book", category="Books", breaks=()))
    repo.add(pen(sku="OLD-1", name="Old", active=False))
    assert [p.sku for p in repo.list()] == ["BOOK-1", "PAD-02", "PEN-01"]
    assert [p.sku for p in repo.list(category="books")] == ["BOOK-1"]
    assert [p.sku for p in repo.list(active_only=False)] == ["BOOK-1", "OLD-1", "PAD-02", "PEN-01"]
    assert set(repo.catalog()) == {"BOOK-1", "OLD-1", "PAD-02", "PEN-01"}


def test_customers(db: Database) -> None:
    repo = CustomerRepository(db)
    repo.add(Customer("C1", "Ada", "de", "gold"))
    assert repo.get("C1") == Customer("C1", "Ada", "DE", "gold", "net30")
    with pytest.raises(DuplicateRecord):
        repo.add(Customer("C1", "Other", "FR"))
    with pytest.raises(NotFound):
        repo.get("C9")
    repo.add(Customer("A0", "Zed", "FR"))
    assert [c.id for c in repo.list()] == ["A0", "C1"]
    with pytest.raises(ValidationError):
        Customer("C2", "Bad", "DE", "platinum")


def test_stock_levels(db: Database) -> None:
    repo = StockRepository(db)
    assert repo.get("pen-01") == StockLevel("PEN-01", 0, 0)
    repo.put(StockLevel("pen-01", 10, 4))
    assert repo.get("PEN-01") == StockLevel("PEN-01", 10, 4)
    assert repo.get("PEN-01").available == 6
    for bad in (StockLevel("X", -1, 0), StockLevel("X", 1, 2), StockLevel("X", 1, -1)):
        with pytest.raises(ValidationError):
            repo.put(bad)
    assert [lv.sku for lv in repo.levels()] == ["PEN-01"]


def test_reservations(db: Database) -> None:
    repo = StockRepository(db)
    repo.add_reservation("O1", "PEN-01", 2)
    repo.add_reservation("O1", "PEN-01", 3)
    repo.add_reservation("O1", "PAD-02", 1)
    repo.add_reservation("O2", "PEN-01", 7)
    assert repo.reservations("O1") == {"PAD-02": 1, "PEN-01": 5}
    repo.clear_reservations("O1")
    assert repo.reservations("O1") == {}
    assert repo.reservations("O2") == {"PEN-01": 7}


def make_order(order_id: str = "O1", created: date = date(2024, 3, 15), **kw: object) -> Order:
    lines = [OrderLine("PEN-01", 12, Money.of("1.00")), OrderLine("PAD-02", 1)]
    return Order(order_id, "C1", created, lines, **kw)  # type: ignore[arg-type]


def test_orders_round_trip(db: Database) -> None:
    repo = OrderRepository(db)
    repo.save(make_order())
    assert repo.get("O1") == make_order()


def test_order_lines_keep_their_currency(db: Database) -> None:
    repo = OrderRepository(db)
    order = Order("O1", "C1", date(2024, 3, 15), [OrderLine("PEN-US", 2, Money.of("1.50", "USD"))])
    repo.save(order)
    assert repo.get("O1").lines[0].unit_price == Money.of("1.50", "USD")


def test_saving_again_replaces_lines_and_status(db: Database) -> None:
    repo = OrderRepository(db)
    order = make_order()
    repo.save(order)
    order.lines.pop()
    order.status = "placed"
    repo.save(order)
    again = repo.get("O1")
    assert again.status == "placed" and len(again.lines) == 1


def test_list_orders_by_status_and_period(db: Database) -> None:
    repo = OrderRepository(db)
    repo.save(make_order("O1", date(2024, 2, 29)))
    repo.save(make_order("O2", date(2024, 3, 1), status="placed"))
    repo.save(make_order("O3", date(2024, 3, 31)))
    repo.save(make_order("O4", date(2024, 4, 1), status="placed"))
    assert [o.id for o in repo.list()] == ["O1", "O2", "O3", "O4"]
    assert [o.id for o in repo.list(status="placed")] == ["O2", "O4"]
    assert [o.id for o in repo.list(period=Period.month(2024, 3))] == ["O2", "O3"]
    assert [o.id for o in repo.list(status="draft", period=Period.month(2024, 3))] == ["O3"]
    with pytest.raises(NotFound):
        repo.get("O9")


def test_sequences_count_per_name(db: Database) -> None:
    assert [db.next_sequence("a") for _ in range(3)] == [1, 2, 3]
    assert db.next_sequence("b") == 1
    assert db.next_sequence("a") == 4


def test_transactions_roll_back_on_error(db: Database) -> None:
    repo = StockRepository(db)
    with pytest.raises(RuntimeError), db.transaction():
        repo.put(StockLevel("PEN-01", 5, 0))
        with db.transaction():
            repo.put(StockLevel("PAD-02", 5, 0))
        raise RuntimeError("boom")
    assert repo.levels() == []
    with db.transaction():
        repo.put(StockLevel("PEN-01", 5, 0))
    assert repo.get("PEN-01").on_hand == 5


def test_file_database(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = str(tmp_path / "shop.db")
    first = Database(path)
    ProductRepository(first).add(pen())
    first.close()
    second = Database(path)
    assert ProductRepository(second).get("PEN-01") == pen()
    second.close()
