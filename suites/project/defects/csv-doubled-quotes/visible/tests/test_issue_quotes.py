"""Issue: importing a product named 12" ruler fails: "unexpected '"' after a closing quote"."""

from stockroom.importer import import_products
from stockroom.storage import Database, ProductRepository


def test_product_name_with_a_quote() -> None:
    db = Database()
    report = import_products('sku,name,category,price\nRUL-12,"12"" ruler",office,2.00\n', db)
    assert report.errors == []
    assert ProductRepository(db).get("RUL-12").name == '12" ruler'
