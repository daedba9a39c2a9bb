"""Issue: prorating a €30 monthly fee for 16 to 30 April charges €14.48, not €15.00."""

from stockroom.dates import Period, prorate
from stockroom.money import Money


def test_half_of_april() -> None:
    april = Period.month(2024, 4)
    used = Period.parse("2024-04-16..2024-04-30")
    assert prorate(Money.of("30"), april, used) == Money.of("15.00")
