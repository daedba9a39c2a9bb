import pytest

from stockroom.errors import DuplicateRecord, OutOfStock, ValidationError
from stockroom.inventory import Inventory
from stockroom.models import StockLevel
from stockroom.storage import Database


@pytest.fixture
def inv(db: Database) -> Inventory:
    inventory = Inventory(db)
    inventory.receive("PEN-01", 10)
    inventory.receive("PAD-02", 4)
    inventory.receive("MUG-01", 1)
    return inventory


def test_receive_adds_up(inv: Inventory) -> None:
    assert inv.receive("pen-01", 5) == StockLevel("PEN-01", 15, 0)
    assert inv.available("PEN-01") == 15
    assert inv.receive("NEW-1", 2) == StockLevel("NEW-1", 2, 0)


@pytest.mark.parametrize("qty", [0, -3])
def test_receive_refuses_non_positive_quantities(inv: Inventory, qty: int) -> None:
    with pytest.raises(ValidationError):
        inv.receive("PEN-01", qty)


def test_reserve_lowers_availability_only(inv: Inventory) -> None:
    assert inv.reserve("O1", [("PEN-01", 4), ("PAD-02", 1)]) == {"PEN-01": 4, "PAD-02": 1}
    assert inv.level("PEN-01") == StockLevel("PEN-01", 10, 4)
    assert inv.available("PEN-01") == 6
    assert inv.available("PAD-02") == 3
    assert inv.stock.reservations("O1") == {"PAD-02": 1, "PEN-01": 4}


def test_reserve_everything_that_is_left(inv: Inventory) -> None:
    inv.reserve("O1", [("PEN-01", 10), ("MUG-01", 1)])
    assert inv.available("PEN-01") == 0
    assert inv.available("MUG-01") == 0
    with pytest.raises(OutOfStock):
        inv.reserve("O2", [("MUG-01", 1)])


def test_reserve_adds_up_lines_of_the_same_sku(inv: Inventory) -> None:
    assert inv.reserve("O1", [("PAD-02", 2), ("pad-02", 1)]) == {"PAD-02": 3}
    assert inv.level("PAD-02").reserved == 3
    assert inv.stock.reservations("O1") == {"PAD-02": 3}


def test_reserve_sees_the_sum_of_lines_of_the_same_sku(inv: Inventory) -> None:
    with pytest.raises(OutOfStock) as err:
        inv.reserve("O1", [("PAD-02", 3), ("PAD-02", 3)])
    assert (err.value.sku, err.value.wanted, err.value.available) == ("PAD-02", 6, 4)
    assert inv.level("PAD-02").reserved == 0


def test_reserve_is_all_or_nothing(inv: Inventory) -> None:
    with pytest.raises(OutOfStock):
        inv.reserve("O1", [("PEN-01", 5), ("MUG-01", 2)])
    assert inv.level("PEN-01").reserved == 0
    assert inv.stock.reservations("O1") == {}
    inv.reserve("O1", [("PEN-01", 5)])
    assert inv.available("PEN-01") == 5


def test_reserve_unknown_sku_is_out_of_stock(inv: Inventory) -> None:
    with pytest.raises(OutOfStock):
        inv.reserve("O1", [("NOPE-1", 1)])


def test_reserve_twice_for_one_order_is_refused(inv: Inventory) -> None:
    inv.reserve("O1", [("PEN-01", 1)])
    with pytest.raises(DuplicateRecord):
        inv.reserve("O1", [("PAD-02", 1)])


def test_reserve_refuses_non_positive_quantities(inv: Inventory) -> None:
    with pytest.raises(ValidationError):
        inv.reserve("O1", [("PEN-01", 0)])


def test_release_gives_back_what_was_held(inv: Inventory) -> None:
    inv.reserve("O1", [("PEN-01", 4), ("PAD-02", 1)])
    inv.reserve("O2", [("PEN-01", 3)])
    assert inv.release("O1") == {"PAD-02": 1, "PEN-01": 4}
    assert inv.level("PEN-01") == StockLevel("PEN-01", 10, 3)
    assert inv.level("PAD-02") == StockLevel("PAD-02", 4, 0)
    assert inv.release("O1") == {}
    assert inv.level("PEN-01") == StockLevel("PEN-01", 10, 3)


def test_commit_takes_units_off_the_shelf(inv: Inventory) -> None:
    inv.reserve("O1", [("PEN-01", 4)])
    inv.reserve("O2", [("PEN-01", 2)])
    assert inv.commit("O1") == {"PEN-01": 4}
    assert inv.level("PEN-01") == StockLevel("PEN-01", 6, 2)
    assert inv.release("O1") == {}
    with pytest.raises(ValidationError):
        inv.commit("O1")


def test_count(inv: Inventory) -> None:
    inv.reserve("O1", [("PEN-01", 4)])
    assert inv.count("PEN-01", 7) == StockLevel("PEN-01", 7, 4)
    assert inv.available("PEN-01") == 3
    with pytest.raises(ValidationError):
        inv.count("PEN-01", 3)


def test_low_stock_includes_the_threshold(inv: Inventory) -> None:
    inv.reserve("O1", [("PEN-01", 6)])
    assert [(lv.sku, lv.available) for lv in inv.low_stock(4)] == [
        ("MUG-01", 1),
        ("PAD-02", 4),
        ("PEN-01", 4),
    ]
    assert [lv.sku for lv in inv.low_stock(1)] == ["MUG-01"]
    assert inv.low_stock(0) == []
