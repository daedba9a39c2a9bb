"""Format a number of seconds as a compact duration such as "1d 2h 5s"."""

from __future__ import annotations


def split_duration(seconds: int) -> tuple[int, int, int, int]:
    """(days, hours, minutes, seconds) for a non-negative number of seconds."""
    if seconds < 0:
        raise ValueError("a duration cannot be negative")
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    return days, hours, minutes, secs


def format_duration(seconds: int) -> str:
    """Non-zero parts only, largest first ("0s" for zero)."""
    days, hours, minutes, secs = split_duration(seconds)
    units = ((days, "d"), (hours, "h"), (minutes, "m"), (secs, "s"))
    return " ".join(f"{value}{unit}" for value, unit in units if value) or "0s"
