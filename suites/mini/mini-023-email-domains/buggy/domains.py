"""Count users per e-mail domain."""

from __future__ import annotations

from collections import Counter


def email_domain(address: str) -> str:
    """The lower-cased part after the last "@"."""
    _, _, domain = address.rpartition("@")
    return domain.lower()


def domain_counts(users: list[dict[str, object]]) -> dict[str, int]:
    """Users per domain; users with no address (absent, None or empty) are skipped."""
    counts: Counter[str] = Counter()
    for user in users:
        email = user["email"]
        counts[email_domain(str(email))] += 1
    return dict(counts)
