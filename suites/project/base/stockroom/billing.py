"""Invoices for shipped orders: numbering, tax, due dates, payments and late fees.

Invoice numbers run per year: ``INV-2024-0001``, ``INV-2024-0002``, ... ``INV-2025-0001``.
An order discount is shared out over the lines in proportion to their nets before tax, so each
line is taxed on what the customer really pays for it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from stockroom.dates import add_months, end_of_month, is_business_day
from stockroom.errors import DuplicateRecord, NotFound, ValidationError
from stockroom.models import SHIPPED, Order
from stockroom.money import Money, round_cents, total
from stockroom.pricing import Quote
from stockroom.storage import CustomerRepository, Database, ProductRepository
from stockroom.tax import TaxLine, TaxTable, tax_breakdown

INVOICE_SCHEMA = """
CREATE TABLE IF NOT EXISTS invoices (
    number TEXT PRIMARY KEY, order_id TEXT NOT NULL UNIQUE, customer_id TEXT NOT NULL,
    issued TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS payments (
    number TEXT NOT NULL, day TEXT NOT NULL, amount TEXT NOT NULL);
"""


def due_date(issued: date, terms: str, holidays: frozenset[date] = frozenset()) -> date:
    """``due`` (on issue), ``netN`` (N days later) or ``eom`` (end of the next month), moved
    forward to the next business day."""
    if terms == "due":
        due = issued
    elif terms == "eom":
        due = end_of_month(add_months(issued, 1))
    elif terms.startswith("net") and terms[3:].isdigit():
        due = issued + timedelta(days=int(terms[3:]))
    else:
        raise ValidationError(f"unknown payment terms {terms!r}")
    while not is_business_day(due, holidays):
        due += timedelta(days=1)
    return due


@dataclass(frozen=True)
class InvoiceLine:
    sku: str
    description: str
    qty: int
    unit_price: Money
    net: Money  # after line and (shared) order discounts; gross when prices include tax
    tax_rate: Decimal


@dataclass(frozen=True)
class Payment:
    day: date
    amount: Money


@dataclass
class Invoice:
    number: str
    order_id: str
    customer_id: str
    issued: date
    due: date
    currency: str
    lines: list[InvoiceLine]
    taxes: list[TaxLine]
    prices_include_tax: bool = False
    payments: list[Payment] = field(default_factory=list)

    @property
    def net(self) -> Money:
        return total((t.net for t in self.taxes), self.currency)

    @property
    def tax(self) -> Money:
        return total((t.tax for t in self.taxes), self.currency)

    @property
    def total(self) -> Money:
        return self.net + self.tax

    @property
    def paid(self) -> Money:
        return total((p.amount for p in self.payments), self.currency)

    @property
    def balance(self) -> Money:
        return self.total - self.paid

    @property
    def status(self) -> str:
        if self.balance.amount <= 0:
            return "paid"
        return "partial" if self.payments else "open"

    def days_overdue(self, today: date) -> int:
        return max(0, (today - self.due).days)


def _dump(invoice: Invoice) -> str:
    def money(m: Money) -> list[str]:
        return [str(m.amount), m.currency]

    return json.dumps({
        "due": invoice.due.isoformat(), "currency": invoice.currency,
        "included": invoice.prices_include_tax,
        "lines": [[ln.sku, ln.description, ln.qty, money(ln.unit_price), money(ln.net),
                   str(ln.tax_rate)] for ln in invoice.lines],
        "taxes": [[str(t.rate), money(t.net), money(t.tax)] for t in invoice.taxes],
    })  # fmt: skip


def _load(row: object, payments: list[Payment]) -> Invoice:
    body = json.loads(row["body"])  # type: ignore[index]

    def money(pair: list[str]) -> Money:
        return Money.of(pair[0], pair[1])

    return Invoice(
        number=row["number"],  # type: ignore[index]
        order_id=row["order_id"],  # type: ignore[index]
        customer_id=row["customer_id"],  # type: ignore[index]
        issued=date.fromisoformat(row["issued"]),  # type: ignore[index]
        due=date.fromisoformat(body["due"]),
        currency=body["currency"],
        lines=[InvoiceLine(s, d, q, money(u), money(n), Decimal(r))
               for s, d, q, u, n, r in body["lines"]],
        taxes=[TaxLine(Decimal(r), money(n), money(t)) for r, n, t in body["taxes"]],
        prices_include_tax=body["included"],
        payments=payments,
    )  # fmt: skip


class InvoiceRepository:
    def __init__(self, db: Database) -> None:
        self.db = db
        db.conn.executescript(INVOICE_SCHEMA)

    def add(self, invoice: Invoice) -> None:
        with self.db.transaction() as conn:
            if conn.execute(
                "SELECT 1 FROM invoices WHERE order_id = ?", (invoice.order_id,)
            ).fetchone():
                raise DuplicateRecord(f"order {invoice.order_id} is already invoiced")
            conn.execute(
                "INSERT INTO invoices VALUES (?, ?, ?, ?, ?)",
                (invoice.number, invoice.order_id, invoice.customer_id,
                 invoice.issued.isoformat(), _dump(invoice)),
            )  # fmt: skip

    def add_payment(self, number: str, payment: Payment) -> None:
        self.db.conn.execute(
            "INSERT INTO payments VALUES (?, ?, ?)",
            (number, payment.day.isoformat(), str(payment.amount.amount)),
        )

    def get(self, number: str) -> Invoice:
        row = self.db.conn.execute("SELECT * FROM invoices WHERE number = ?", (number,)).fetchone()
        if row is None:
            raise NotFound(f"no invoice {number}")
        currency = json.loads(row["body"])["currency"]
        payments = [
            Payment(date.fromisoformat(p["day"]), Money.of(p["amount"], currency))
            for p in self.db.conn.execute(
                "SELECT * FROM payments WHERE number = ? ORDER BY day, rowid", (number,)
            )
        ]
        return _load(row, payments)

    def list(self, customer_id: str | None = None) -> list[Invoice]:
        query, args = "SELECT number FROM invoices", ()
        if customer_id is not None:
            query, args = query + " WHERE customer_id = ?", (customer_id,)
        rows = self.db.conn.execute(query + " ORDER BY issued, number", args).fetchall()
        return [self.get(r["number"]) for r in rows]


class InvoiceService:
    def __init__(
        self,
        db: Database,
        taxes: TaxTable,
        *,
        prices_include_tax: bool = False,
        holidays: frozenset[date] = frozenset(),
    ) -> None:
        self.db = db
        self.taxes = taxes
        self.prices_include_tax = prices_include_tax
        self.holidays = holidays
        self.invoices = InvoiceRepository(db)
        self.products = ProductRepository(db)
        self.customers = CustomerRepository(db)

    def next_number(self, issued: date) -> str:
        return f"INV-{issued.year}-{self.db.next_sequence(f'invoice-{issued.year}'):04d}"

    def invoice(self, order: Order, quote: Quote, issued: date) -> Invoice:
        """Invoice a shipped ``order`` with the ``quote`` it was placed with."""
        if order.status != SHIPPED:
            raise ValidationError(f"order {order.id} is {order.status}; invoice shipped orders")
        customer = self.customers.get(order.customer_id)
        nets = [line.net for line in quote.lines]
        if quote.order_discount is not None and any(not n.is_zero() for n in nets):
            shares = quote.order_discount.allocate([n.amount for n in nets])
            nets = [net - share for net, share in zip(nets, shares, strict=True)]
        lines: list[InvoiceLine] = []
        for priced, net in zip(quote.lines, nets, strict=True):
            product = self.products.get(priced.sku)
            rate = self.taxes.rate(customer.region, product.tax_class)
            lines.append(
                InvoiceLine(priced.sku, product.name, priced.qty, priced.unit_price, net, rate)
            )
        with self.db.transaction():
            invoice = Invoice(
                number=self.next_number(issued),
                order_id=order.id,
                customer_id=customer.id,
                issued=issued,
                due=due_date(issued, customer.terms, self.holidays),
                currency=quote.currency,
                lines=lines,
                taxes=tax_breakdown(
                    [(ln.net, ln.tax_rate) for ln in lines],
                    prices_include_tax=self.prices_include_tax,
                ),
                prices_include_tax=self.prices_include_tax,
            )
            self.invoices.add(invoice)
        return invoice

    def pay(self, number: str, amount: Money, day: date) -> Invoice:
        """Record a payment; paying more than the balance is refused."""
        invoice = self.invoices.get(number)
        if amount.currency != invoice.currency:
            raise ValidationError(f"payment in {amount.currency}, invoice in {invoice.currency}")
        if amount.amount <= 0:
            raise ValidationError("a payment must be positive")
        if amount > invoice.balance:
            raise ValidationError(f"{amount} is more than the balance {invoice.balance}")
        self.invoices.add_payment(number, Payment(day, amount))
        return self.invoices.get(number)


def late_fee(invoice: Invoice, today: date, annual_percent: Decimal = Decimal(8)) -> Money:
    """Simple interest on the unpaid balance for every day past the due date."""
    days = invoice.days_overdue(today)
    balance = invoice.balance
    if days == 0 or balance.amount <= 0:
        return Money.zero(invoice.currency)
    fee = balance.amount * annual_percent / 100 * days / 365
    return Money(round_cents(fee), invoice.currency)
