"""A small shop used by the service-level tests: five products, three customers, stock, rules."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace

import pytest

from stockroom.billing import InvoiceService
from stockroom.importer import import_customers, import_products, import_stock
from stockroom.inventory import Inventory
from stockroom.orders import OrderService
from stockroom.rules import parse_rules
from stockroom.storage import CustomerRepository, Database, OrderRepository, ProductRepository
from stockroom.tax import TaxTable

PRODUCTS_CSV = """sku,name,category,price,tax_class,breaks
PEN-01,Blue pen,office,1.20,standard,10:1.00;50:0.90
PAD-02,Notepad A5,office,3.50,standard,
BOOK-1,Field guide,books,12.50,reduced,
BOOK-2,Atlas,books,30.00,reduced,
MUG-01,Mug,kitchen,6.00,standard,
"""
CUSTOMERS_CSV = """id,name,region,tier,terms
C1,Ada Shop,DE,gold,net30
C2,Bo Store,FR,standard,net15
C3,Cy Market,DE,silver,eom
"""
STOCK_CSV = "sku,qty\nPEN-01,200\nPAD-02,40\nBOOK-1,10\nBOOK-2,3\nMUG-01,12\n"
RULES = """
# spring rules
promo BOOKS: 10% off category books when qty >= 2
promo MUGS: buy 2 get 1 free sku MUG-01
promo LOYAL: 5% off order when total >= 100 and tier = gold
"""
TAXES = """
DE standard 19
DE reduced 7
FR standard 20
FR reduced 5.5
*  exempt 0
"""
DAY = date(2024, 3, 15)


def make_shop(promotions: str = RULES, prices_include_tax: bool = False) -> SimpleNamespace:
    db = Database()
    assert import_products(PRODUCTS_CSV, db).ok
    assert import_customers(CUSTOMERS_CSV, db).ok
    inventory = Inventory(db)
    assert import_stock(STOCK_CSV, inventory).ok
    taxes = TaxTable.parse(TAXES)
    return SimpleNamespace(
        db=db,
        products=ProductRepository(db),
        customers=CustomerRepository(db),
        order_repo=OrderRepository(db),
        inventory=inventory,
        orders=OrderService(db, inventory, parse_rules(promotions)),
        billing=InvoiceService(db, taxes, prices_include_tax=prices_include_tax),
        taxes=taxes,
    )


@pytest.fixture
def shop() -> SimpleNamespace:
    return make_shop()


@pytest.fixture
def db() -> Database:
    return Database()
