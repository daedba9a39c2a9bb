"""Human-readable sizes in binary units."""

from __future__ import annotations

UNITS = ["B", "KiB", "MiB", "GiB", "TiB"]


def human_size(n_bytes: int) -> str:
    """Size with one decimal in the largest binary unit below it, e.g. 1536 -> "1.5 KiB"."""
    if n_bytes < 0:
        raise ValueError("a size cannot be negative")
    size = float(n_bytes)
    for unit in UNITS:
        if size < 1000 or unit == UNITS[-1]:
            return f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")
