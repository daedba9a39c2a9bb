"""Issue: €10 + $5 gives €15 instead of an error."""

import pytest

from stockroom.errors import CurrencyMismatch
from stockroom.money import Money


def test_adding_dollars_to_euros_is_an_error() -> None:
    with pytest.raises(CurrencyMismatch):
        Money.of("10", "EUR") + Money.of("5", "USD")
