"""Issue: after a product with a two-line name, import errors point at the wrong line."""

from stockroom.importer import import_products
from stockroom.storage import Database


def test_error_line_after_a_multi_line_field() -> None:
    text = 'sku,name,category,price\nA-1,"Pad\nA5",office,1.00\nB-2,Pen,office,cheap\n'
    report = import_products(text, Database())
    assert report.errors == ["line 4: price: cannot read amount 'cheap'"]
