"""Issue: adding 2 notepads and then 3 more reserves only 3 when the order is placed."""

from datetime import date

from stockroom.importer import import_customers, import_products, import_stock
from stockroom.inventory import Inventory
from stockroom.orders import OrderService
from stockroom.storage import Database


def test_both_additions_are_reserved() -> None:
    db = Database()
    import_products("sku,name,category,price\nPAD-02,Notepad,office,3.50\n", db)
    import_customers("id,name,region\nC1,Ada,DE\n", db)
    inventory = Inventory(db)
    import_stock("sku,qty\nPAD-02,40\n", inventory)
    service = OrderService(db, inventory)
    order = service.create("O1", "C1", date(2024, 3, 15))
    service.add_line(order, "PAD-02", 2)
    service.add_line(order, "PAD-02", 3)
    service.place(order)
    assert inventory.available("PAD-02") == 35
