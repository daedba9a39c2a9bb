from decimal import Decimal

from stockroom.importer import import_customers, import_products, import_stock, parse_breaks
from stockroom.inventory import Inventory
from stockroom.models import PriceBreak
from stockroom.money import Money
from stockroom.storage import CustomerRepository, Database, ProductRepository

PRODUCTS = """sku,name,category,price,tax_class,active,breaks
pen-01,Blue pen,office,1.20,,,10:1.00;50:0.90
BOOK-1,"Guide, 2nd ""revised"" edition",books,€12.50,Reduced,yes,
OLD-9,Old thing,misc,2.00,standard,no,
"""


def test_import_products(db: Database) -> None:
    report = import_products(PRODUCTS, db)
    assert (report.created, report.updated, report.errors) == (3, 0, [])
    repo = ProductRepository(db)
    pen = repo.get("PEN-01")
    assert pen.tax_class == "standard" and pen.active
    assert pen.breaks == (PriceBreak(10, Money.of("1.00")), PriceBreak(50, Money.of("0.90")))
    book = repo.get("book-1")
    assert book.name == 'Guide, 2nd "revised" edition'
    assert book.price == Money.of("12.50") and book.tax_class == "reduced"
    assert not repo.get("OLD-9").active


def test_import_products_reports_bad_lines_and_keeps_the_rest(db: Database) -> None:
    text = (
        "sku,name,category,price,breaks\n"
        "A-1,Good,misc,1.00,\n"
        "B 2,Bad sku,misc,1.00,\n"
        "C-3,Bad price,misc,lots,\n"
        'D-4,"Two\nlines",misc,2.00,\n'
        "E-5,Bad break,misc,1.00,ten:1\n"
        "F-6,,misc,1.00,\n"
        "G-7,Negative,misc,-1.00,\n"
        "H-8,Break,misc,1.00,1:0.5\n"
    )
    report = import_products(text, db)
    assert report.created == 2
    assert [e.split(":")[0] for e in report.errors] == [
        "line 3", "line 4", "line 7", "line 8", "line 9", "line 10",
    ]  # fmt: skip
    assert [p.sku for p in ProductRepository(db).list()] == ["A-1", "D-4"]


def test_import_products_existing(db: Database) -> None:
    import_products(PRODUCTS, db)
    again = import_products("sku,name,category,price\nPEN-01,Pen,office,1.30\n", db)
    assert again.created == 0 and again.errors == ["line 2: product PEN-01 exists"]
    update = import_products("sku,name,category,price\npen-01,Pen,office,1.30\n", db, update=True)
    assert update.updated == 1 and update.ok
    assert ProductRepository(db).get("PEN-01").price == Money.of("1.30")


def test_parse_breaks() -> None:
    assert parse_breaks(" 50:0.90 ; 10:1.00 ;", Money.of("1", "USD")) == (
        PriceBreak(10, Money.of("1.00", "USD")),
        PriceBreak(50, Money.of("0.90", "USD")),
    )
    assert parse_breaks("", Money.of("1")) == ()


def test_import_customers(db: Database) -> None:
    text = (
        "id,name,region,tier,terms\n"
        "C1,Ada,de,GOLD,\nC2,Bo,FR,,NET15\nC3,Cy,DE,platinum,\nC1,Dup,DE,,\n"
    )
    report = import_customers(text, db)
    assert report.created == 2
    assert [e.split(":")[0] for e in report.errors] == ["line 4", "line 5"]
    repo = CustomerRepository(db)
    assert repo.get("C1").tier == "gold" and repo.get("C1").region == "DE"
    assert repo.get("C2").terms == "net15"


def test_import_stock(db: Database) -> None:
    inventory = Inventory(db)
    text = "sku,qty\npen-01,10\nPEN-01,5\npad-02,0\nmug 1,3\nBOOK-1,x\nBOOK-1,1_000\n"
    report = import_stock(text, inventory)
    assert report.updated == 3
    assert [e.split(":")[0] for e in report.errors] == ["line 4", "line 5", "line 6"]
    assert inventory.available("PEN-01") == 15
    assert inventory.available("BOOK-1") == 1000
    assert [lv.sku for lv in inventory.stock.levels()] == ["BOOK-1", "PEN-01"]


def test_import_then_sell(db: Database) -> None:
    from datetime import date

    from stockroom.orders import OrderService

    import_products(PRODUCTS, db)
    import_customers("id,name,region\nC1,Ada,DE\n", db)
    inventory = Inventory(db)
    import_stock("sku,qty\npen-01,20\n", inventory)
    service = OrderService(db, inventory)
    order = service.create("O1", "C1", date(2024, 3, 1))
    service.add_line(order, "pen-01", 12)
    assert service.place(order).total == Money.of("12.00")
    assert inventory.available("pen-01") == 8
    assert Decimal(inventory.level("PEN-01").reserved) == 12
