"""Issue: after cancelling a placed order, its pens never come back to the shelf."""

from stockroom.inventory import Inventory
from stockroom.storage import Database


def test_released_units_are_available_again() -> None:
    inventory = Inventory(Database())
    inventory.receive("PEN-01", 10)
    inventory.reserve("O1", [("PEN-01", 4)])
    inventory.release("O1")
    assert inventory.available("PEN-01") == 10
