"""Issue: the first invoice of 2025 was numbered INV-2025-0003."""

from datetime import date

from stockroom.billing import InvoiceService
from stockroom.storage import Database
from stockroom.tax import TaxTable


def test_numbering_starts_again_in_a_new_year() -> None:
    service = InvoiceService(Database(), TaxTable())
    assert service.next_number(date(2024, 11, 5)) == "INV-2024-0001"
    assert service.next_number(date(2024, 12, 20)) == "INV-2024-0002"
    assert service.next_number(date(2025, 1, 3)) == "INV-2025-0001"
