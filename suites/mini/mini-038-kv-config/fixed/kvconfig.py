"""Parse simple "key = value" configuration text."""

from __future__ import annotations


def parse_config(text: str) -> dict[str, str]:
    """Settings from "key = value" lines; blanks, # comments and lines without "=" are ignored."""
    config: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            key, value = line.split("=", 1)
        except ValueError:
            continue
        config[key.strip()] = value.strip()
    return config


def get_setting(text: str, key: str, default: str = "") -> str:
    """One setting of the configuration text, or ``default``."""
    return parse_config(text).get(key, default)
