"""Check passwords against a simple policy."""

from __future__ import annotations

MIN_LENGTH = 8


def is_strong(password: str) -> bool:
    """At least MIN_LENGTH characters, with an uppercase letter and a digit."""
    long_enough = len(password) >= MIN_LENGTH
    has_upper = any(c.isupper() for c in password)
    has_digit = any(c.isdigit() for c in password)
    return long_enough and (has_upper or has_digit)


def weak_passwords(passwords: list[str]) -> list[str]:
    """The passwords that fail the policy."""
    return [p for p in passwords if not is_strong(p)]
