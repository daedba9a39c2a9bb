"""Bulk loading from CSV: products, customers and stock.

A bad header stops the import; a bad data record is reported with its line and skipped, and the
good records are loaded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from stockroom.csvfile import Column, Row, read_table
from stockroom.errors import ParseError, StockroomError
from stockroom.inventory import Inventory
from stockroom.models import TIERS, Customer, PriceBreak, Product, normalize_sku
from stockroom.money import Money
from stockroom.storage import CustomerRepository, Database, ProductRepository

PRODUCT_COLUMNS = (
    Column("sku"),
    Column("name"),
    Column("category"),
    Column("price", "money"),
    Column("tax_class", required=False, default="standard"),
    Column("active", "bool", required=False, default=True),
    Column("breaks", required=False, default=""),
)
CUSTOMER_COLUMNS = (
    Column("id"),
    Column("name"),
    Column("region"),
    Column("tier", required=False, default="standard"),
    Column("terms", required=False, default="net30"),
)
STOCK_COLUMNS = (Column("sku"), Column("qty", "int"))


@dataclass
class ImportReport:
    created: int = 0
    updated: int = 0
    problems: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def errors(self) -> list[str]:
        """``line N: message`` for every skipped record, in line order."""
        return [f"line {line}: {message}" for line, message in sorted(self.problems)]

    def fail(self, line: int, message: str) -> None:
        self.problems.append((line, message))


def parse_breaks(text: str, price: Money) -> tuple[PriceBreak, ...]:
    """``10:1.80;50:1.50`` -> breaks at 10 and 50 units, in the product's currency."""
    breaks: list[PriceBreak] = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        qty, sep, amount = part.partition(":")
        if not sep or not qty.strip().isdigit():
            raise ParseError(f"bad price break {part!r} (expected QTY:PRICE)")
        try:
            unit = Money(Decimal(amount.strip()), price.currency)
        except ArithmeticError:
            raise ParseError(f"bad price in price break {part!r}") from None
        breaks.append(PriceBreak(int(qty), unit))
    return tuple(sorted(breaks, key=lambda b: b.min_qty))


def _collect(text: str, columns: tuple[Column, ...], report: ImportReport) -> list[Row]:
    problems: list[ParseError] = []
    rows = read_table(text, columns, errors=problems)
    for problem in problems:
        report.fail(problem.line, problem.message)
    return rows


def import_products(text: str, db: Database, *, update: bool = False) -> ImportReport:
    """Add the products of a CSV text (``update=True`` also replaces existing ones)."""
    repo = ProductRepository(db)
    report = ImportReport()
    for row in _collect(text, PRODUCT_COLUMNS, report):
        try:
            product = Product(
                sku=normalize_sku(str(row["sku"])),
                name=str(row["name"]),
                category=str(row["category"]),
                price=row["price"],  # type: ignore[arg-type]
                tax_class=str(row["tax_class"]).lower(),
                breaks=parse_breaks(str(row["breaks"]), row["price"]),  # type: ignore[arg-type]
                active=bool(row["active"]),
            )
            if repo.find(product.sku) is None:
                repo.add(product)
                report.created += 1
            elif update:
                repo.update(product)
                report.updated += 1
            else:
                report.fail(row.line, f"product {product.sku} exists")
        except StockroomError as exc:
            report.fail(row.line, str(exc))
    return report


def import_customers(text: str, db: Database) -> ImportReport:
    repo = CustomerRepository(db)
    report = ImportReport()
    for row in _collect(text, CUSTOMER_COLUMNS, report):
        tier = str(row["tier"]).lower()
        if tier not in TIERS:
            report.fail(row.line, f"unknown tier {tier!r}")
            continue
        try:
            repo.add(Customer(str(row["id"]), str(row["name"]), str(row["region"]), tier,
                              str(row["terms"]).lower()))  # fmt: skip
            report.created += 1
        except StockroomError as exc:
            report.fail(row.line, str(exc))
    return report


def import_stock(text: str, inventory: Inventory) -> ImportReport:
    """Receive the quantities of a ``sku,qty`` CSV text (a SKU may appear more than once)."""
    report = ImportReport()
    for row in _collect(text, STOCK_COLUMNS, report):
        qty = row["qty"]
        assert isinstance(qty, int)
        try:
            sku = normalize_sku(str(row["sku"]))
            inventory.receive(sku, qty)
            report.updated += 1
        except StockroomError as exc:
            report.fail(row.line, str(exc))
    return report
