"""Issue: a €10 order discount on a €90 book and a €10 pad is taken half off each line,
so the pad's line goes to €5.00 and the tax is wrong."""

from datetime import date

from stockroom.billing import InvoiceService
from stockroom.importer import import_customers, import_products, import_stock
from stockroom.inventory import Inventory
from stockroom.money import Money
from stockroom.orders import OrderService
from stockroom.rules import parse_rules
from stockroom.storage import Database
from stockroom.tax import TaxTable


def test_discount_follows_line_value() -> None:
    db = Database()
    import_products(
        "sku,name,category,price,tax_class\nBOOK-9,Atlas,books,90.00,reduced\n"
        "PAD-02,Notepad,office,10.00,standard\n",
        db,
    )
    import_customers("id,name,region\nC1,Ada,DE\n", db)
    inventory = Inventory(db)
    import_stock("sku,qty\nBOOK-9,1\nPAD-02,1\n", inventory)
    orders = OrderService(db, inventory, parse_rules("promo TEN: 10 off order"))
    order = orders.create("O1", "C1", date(2024, 3, 1))
    orders.add_line(order, "BOOK-9", 1)
    orders.add_line(order, "PAD-02", 1)
    quote = orders.place(order)
    orders.ship(order)
    taxes = TaxTable.parse("DE standard 19\nDE reduced 7\n")
    invoice = InvoiceService(db, taxes).invoice(order, quote, date(2024, 3, 5))
    assert [line.net for line in invoice.lines] == [Money.of("81.00"), Money.of("9.00")]
    assert invoice.tax == Money.of("7.38")
