"""Issue: after "order again", adding a mug to the new order also adds it to the old one."""

from datetime import date

from stockroom.importer import import_customers, import_products, import_stock
from stockroom.inventory import Inventory
from stockroom.models import OrderLine
from stockroom.orders import OrderService
from stockroom.storage import Database


def test_new_order_does_not_change_the_old_one() -> None:
    db = Database()
    import_products(
        "sku,name,category,price\nPEN-01,Pen,office,1.20\nMUG-01,Mug,kitchen,6.00\n", db
    )
    import_customers("id,name,region\nC1,Ada,DE\n", db)
    inventory = Inventory(db)
    import_stock("sku,qty\nPEN-01,50\nMUG-01,5\n", inventory)
    service = OrderService(db, inventory)
    old = service.create("O1", "C1", date(2024, 3, 1))
    service.add_line(old, "PEN-01", 10)
    new = service.reorder(old, "O2", date(2024, 4, 1))
    service.add_line(new, "MUG-01", 1)
    assert old.lines == [OrderLine("PEN-01", 10)]
