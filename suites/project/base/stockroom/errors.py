"""Exceptions raised by stockroom. Every error the service raises derives from StockroomError."""

from __future__ import annotations


class StockroomError(Exception):
    """Base class of every stockroom error."""


class ParseError(StockroomError):
    """Input text could not be parsed. ``line`` is 1-based, or 0 when unknown."""

    def __init__(self, message: str, line: int = 0) -> None:
        self.message = message
        self.line = line
        super().__init__(f"line {line}: {message}" if line else message)


class CurrencyMismatch(StockroomError):
    """Two amounts in different currencies were combined."""


class NotFound(StockroomError):
    """A record that was asked for does not exist."""


class DuplicateRecord(StockroomError):
    """A record with the same key already exists."""


class OutOfStock(StockroomError):
    """Not enough stock is available to reserve or ship."""

    def __init__(self, sku: str, wanted: int, available: int) -> None:
        self.sku = sku
        self.wanted = wanted
        self.available = available
        super().__init__(f"{sku}: wanted {wanted}, only {available} available")


class InvalidTransition(StockroomError):
    """An order cannot move from its current status to the requested one."""


class ValidationError(StockroomError):
    """A value breaks a business rule (negative quantity, unknown tax class, ...)."""
