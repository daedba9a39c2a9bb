"""Run-length encoding of strings."""

from __future__ import annotations


def rle_encode(text: str) -> list[tuple[str, int]]:
    """Runs of equal characters as (char, count) pairs, in order."""
    runs: list[tuple[str, int]] = []
    current, count = text[0], 1
    for ch in text[1:]:
        if ch == current:
            count += 1
        else:
            runs.append((current, count))
            current, count = ch, 1
    runs.append((current, count))
    return runs


def rle_decode(runs: list[tuple[str, int]]) -> str:
    """Inverse of rle_encode."""
    return "".join(ch * n for ch, n in runs)


def rle_string(text: str) -> str:
    """Compact text form such as "a3b1"."""
    return "".join(f"{ch}{n}" for ch, n in rle_encode(text))
