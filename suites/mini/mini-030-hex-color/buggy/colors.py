"""Convert between hex colour strings and RGB tuples."""

from __future__ import annotations


def hex_to_rgb(color: str) -> tuple[int, int, int]:
    """Parse "#rrggbb" or the shorthand "#rgb" (any case, "#" optional)."""
    text = color.strip().lstrip("#")
    if len(text) == 3:
        text = "".join(ch * 2 for ch in text)
    if len(text) != 6:
        raise ValueError(f"not a hex colour: {color!r}")
    r, g, b = (int(text[i : i + 2], 10) for i in range(0, 6, 2))
    return r, g, b


def rgb_to_hex(r: int, g: int, b: int) -> str:
    """Lower-case "#rrggbb" for channel values in 0..255."""
    for v in (r, g, b):
        if not 0 <= v <= 255:
            raise ValueError(f"channel value {v} outside 0..255")
    return f"#{r:02x}{g:02x}{b:02x}"
