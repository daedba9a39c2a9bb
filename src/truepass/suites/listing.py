"""What ``truepass suites`` lists: the bundled suites (name, version, samples, defect types,
description) and the public benchmark formats (name, what PATH is, whether it has a default
source), kept in the suite cache's directory between calls (:func:`truepass.suites.cache.directory`:
``$TRUEPASS_SUITE_CACHE``, else ``$XDG_CACHE_HOME/truepass/suites``; ``off``: listed afresh).

Listing them means loading every bundled suite and asking every family for its formats, which
imports pydantic and every family (about half a second). The rows are the same as long as the
files they come from are: the cache's key is a fingerprint of truepass's own Python files (path,
size and modification time), of the bundled suites' files, and of the installed plug-in families
(each entry point, its distribution's version and its module's file). Any change lists afresh.
The cache only saves time: one that cannot be read or written is ignored.

Light on purpose (the standard library only at import).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from truepass.suites.cache import directory, plugin_families
from truepass.suites.shipped import bundled_dir, bundled_suites

Rows = list[list[str]]
LISTING_VERSION = 1  # of the cached file's layout


def listing() -> tuple[Rows, Rows]:
    """``(bundled suite rows, format rows)``, from the cache when its fingerprint matches."""
    where = directory()
    if where is None:
        return compute()
    key = fingerprint()
    path = where / f"listing-{key[:32]}.json"
    try:
        cached = json.loads(path.read_text(encoding="utf-8"))
        if cached.get("key") == key:
            return cached["bundled"], cached["formats"]
    except (OSError, ValueError, KeyError, AttributeError):
        pass
    bundled, formats = compute()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        text = json.dumps({"key": key, "bundled": bundled, "formats": formats})
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        pass
    return bundled, formats


def compute() -> tuple[Rows, Rows]:
    """The rows, from the suites and the families themselves."""
    from truepass.families.registry import formats
    from truepass.suites.loader import load_suite

    bundled = []
    for name in bundled_suites():
        s = load_suite(name)
        types = len({x.defect_type for x in s.samples})
        bundled.append([name, s.version, str(len(s.samples)), str(types), s.description])
    shown = [
        [f.name, f.reads, f"--suite {f.name}" if f.default_source else ""]
        for f in formats().values()
    ]
    return bundled, shown


def fingerprint() -> str:
    """sha256 hex of what the rows depend on (see the module's docstring)."""
    package = Path(__file__).resolve().parents[1]
    parts: list[Any] = [LISTING_VERSION, _tree(package, ".py"), _tree(bundled_dir(), "")]
    parts.append(plugin_families())
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()


def _tree(root: Path, suffix: str) -> list[tuple[str, int, int]]:
    out = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(suffix):
                st = os.stat(os.path.join(folder, name))
                out.append((os.path.relpath(os.path.join(folder, name), root), st.st_size,
                            st.st_mtime_ns))  # fmt: skip
    return out
