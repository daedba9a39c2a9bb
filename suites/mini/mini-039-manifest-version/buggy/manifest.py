"""Read fields of a JSON package manifest."""

from __future__ import annotations

import json


def read_version(text: str) -> str | None:
    """The "version" string of a JSON manifest; None if the text is not JSON or has no version."""
    data = json.loads(text)
    if not isinstance(data, dict):
        return None
    version = data.get("version")
    return version if isinstance(version, str) else None


def is_prerelease(text: str) -> bool:
    """True when the manifest's version has a pre-release suffix such as "-rc1"."""
    version = read_version(text)
    return version is not None and "-" in version
