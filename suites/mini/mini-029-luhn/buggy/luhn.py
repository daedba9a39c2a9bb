"""The Luhn checksum used by payment card numbers."""

from __future__ import annotations


def luhn_checksum(number: str) -> int:
    """Luhn sum of the digits of ``number`` modulo 10 (0 for a valid number)."""
    digits = [int(c) for c in number if c.isdigit()]
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 10
        total += d
    return total % 10


def is_valid(number: str) -> bool:
    """True for a string of at least two digits (spaces and dashes allowed) passing Luhn."""
    cleaned = number.replace(" ", "").replace("-", "")
    if not cleaned.isdigit() or len(cleaned) < 2:
        return False
    return luhn_checksum(cleaned) == 0


def check_digit(partial: str) -> int:
    """The digit to append to ``partial`` to make a valid number."""
    return (10 - luhn_checksum(partial + "0")) % 10
