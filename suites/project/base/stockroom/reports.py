"""Reports: sales by category, product or customer; invoice aging; monthly totals; and plain-text
tables to print them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from stockroom.billing import Invoice
from stockroom.csvfile import write_table
from stockroom.dates import Period
from stockroom.models import SHIPPED, Order, Product
from stockroom.money import Money, total

AGING_BUCKETS = ("current", "1-30", "31-60", "61-90", "90+")


@dataclass(frozen=True)
class SalesRow:
    key: str
    qty: int
    revenue: Money


def sales_by(
    orders: Iterable[Order],
    catalog: Mapping[str, Product],
    period: Period,
    key: str = "category",
    currency: str = "EUR",
) -> list[SalesRow]:
    """Units and revenue (unit price times quantity, before discounts) of the shipped orders
    created in ``period``, grouped by ``category``, ``sku`` or ``customer``; biggest first."""
    if key not in ("category", "sku", "customer"):
        raise ValueError(f"cannot group sales by {key!r}")
    qty: dict[str, int] = {}
    revenue: dict[str, Money] = {}
    for order in orders:
        if order.status != SHIPPED or not period.contains(order.created):
            continue
        for line in order.lines:
            if line.unit_price is None or line.unit_price.currency != currency:
                continue
            if key == "category":
                group = catalog[line.sku].category
            elif key == "sku":
                group = line.sku
            else:
                group = order.customer_id
            qty[group] = qty.get(group, 0) + line.qty
            revenue[group] = revenue.get(group, Money.zero(currency)) + line.unit_price * line.qty
    rows = [SalesRow(g, qty[g], revenue[g].rounded()) for g in qty]
    return sorted(rows, key=lambda r: (-r.revenue.amount, r.key))


def top_products(
    orders: Iterable[Order], catalog: Mapping[str, Product], period: Period, n: int = 5
) -> list[SalesRow]:
    return sales_by(orders, catalog, period, key="sku")[:n]


def aging_bucket(days_overdue: int) -> str:
    if days_overdue <= 0:
        return "current"
    if days_overdue <= 30:
        return "1-30"
    if days_overdue <= 60:
        return "31-60"
    if days_overdue <= 90:
        return "61-90"
    return "90+"


def aging(invoices: Iterable[Invoice], today: date, currency: str = "EUR") -> dict[str, Money]:
    """Unpaid balances by how long they are overdue; every bucket is present."""
    buckets = {name: Money.zero(currency) for name in AGING_BUCKETS}
    for invoice in invoices:
        if invoice.currency != currency or invoice.balance.amount <= 0:
            continue
        name = aging_bucket(invoice.days_overdue(today))
        buckets[name] = buckets[name] + invoice.balance
    return buckets


def monthly_invoiced(
    invoices: Iterable[Invoice], period: Period, currency: str = "EUR"
) -> list[tuple[str, Money]]:
    """Invoice totals per calendar month of ``period`` (months without invoices show zero)."""
    months = period.months()
    sums = [Money.zero(currency) for _ in months]
    for invoice in invoices:
        if invoice.currency != currency:
            continue
        for i, month in enumerate(months):
            if month.contains(invoice.issued):
                sums[i] = sums[i] + invoice.total
                break
    return [(m.start.strftime("%Y-%m"), s) for m, s in zip(months, sums, strict=True)]


def format_table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A plain-text table: numbers and amounts right-aligned, text left-aligned."""
    values = [list(row) for row in rows]
    body = [[_cell(v) for v in row] for row in values]
    right = [False] * len(headers)
    for row in values:
        for i, value in enumerate(row[: len(headers)]):
            right[i] = right[i] or isinstance(value, (int, Money))
    widths = [len(h) for h in headers]
    for row in body:
        if len(row) != len(headers):
            raise ValueError(f"row has {len(row)} cells, the table has {len(headers)} columns")
        widths = [max(w, len(c)) for w, c in zip(widths, row, strict=True)]

    def line(cells: Sequence[str]) -> str:
        parts = [
            c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right, strict=True)
        ]
        return "  ".join(parts).rstrip()

    out = [line(list(headers)), "  ".join("-" * w for w in widths)]
    out.extend(line(row) for row in body)
    return "\n".join(out) + "\n"


def _cell(value: object) -> str:
    if isinstance(value, Money):
        return value.format()
    return str(value)


def sales_table(rows: Sequence[SalesRow], key: str = "category") -> str:
    grand = total((r.revenue for r in rows), rows[0].revenue.currency if rows else "EUR")
    table = [[r.key, r.qty, r.revenue] for r in rows]
    table.append(["total", sum(r.qty for r in rows), grand])
    return format_table([key, "units", "revenue"], table)


def sales_csv(rows: Sequence[SalesRow], key: str = "category") -> str:
    return write_table(
        [{key: r.key, "units": r.qty, "revenue": r.revenue.amount} for r in rows],
        [key, "units", "revenue"],
    )


def format_invoice(invoice: Invoice) -> str:
    """The invoice as text: lines, tax per rate, total, paid and balance."""
    rows = [[ln.sku, ln.description, ln.qty, ln.unit_price, ln.net] for ln in invoice.lines]
    head = [
        f"Invoice {invoice.number}  order {invoice.order_id}  customer {invoice.customer_id}",
        f"Issued {invoice.issued.isoformat()}  due {invoice.due.isoformat()}",
        "",
    ]
    body = format_table(["sku", "description", "qty", "unit", "amount"], rows)
    tail = [""]
    label = "incl. tax" if invoice.prices_include_tax else "tax"
    for t in invoice.taxes:
        tail.append(f"{label} {t.rate.normalize():f}% on {t.net.format()}: {t.tax.format()}")
    tail.append(f"Total: {invoice.total.format()}")
    if invoice.payments:
        tail.append(f"Paid: {invoice.paid.format()}")
    tail.append(f"Balance due: {invoice.balance.format()}")
    return "\n".join(head) + "\n" + body + "\n".join(tail) + "\n"
