"""Compare dotted version strings such as "1.10.2"."""

from __future__ import annotations


def parse_version(text: str) -> tuple[int, ...]:
    """Numeric parts of a dotted version; ValueError for anything else."""
    parts = text.strip().split(".")
    if not all(p.isdigit() for p in parts):
        raise ValueError(f"not a dotted numeric version: {text!r}")
    return tuple(int(p) for p in parts)


def compare_versions(a: str, b: str) -> int:
    """-1 if a < b, 0 if equal, 1 if a > b; missing parts count as 0 ("1.2" == "1.2.0")."""
    pa, pb = parse_version(a), parse_version(b)
    width = max(len(pa), len(pb))
    pa += (0,) * (width - len(pa))
    pb += (0,) * (width - len(pb))
    if pa == pb:
        return 0
    return -1 if pa < pb else 1
