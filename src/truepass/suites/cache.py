"""Loaded suites kept between runs: the samples of a suite file (or a public benchmark's data
file read through its adapter), pickled under the user cache, keyed by the file's content.

Loading validates every line with its family's schema, and an adapter may do more (HumanEval's
records the inputs its ``check`` passes by running it in the sandbox: about a second). The
samples depend only on the file's bytes and on the code that reads them, so the key is the
sha256 of the bytes, what read them (the suite file, or the format's name), truepass's own code
(:func:`truepass.checkcache.code_hash`, a hash of its Python files, so an edited checkout reads
again), the installed distributions (:func:`truepass.checkcache.installed_hash`: pydantic's
version among them) and the plug-in families (:func:`plugin_families`).
A suite whose key matches is read back without validating it again; the sample objects are the
same as a fresh load's.

Where it lives: ``$TRUEPASS_SUITE_CACHE`` (a directory, or ``off``), else
``$XDG_CACHE_HOME/truepass/suites``. The files are pickles: they are read only from the user's
own cache directory, as the response and check caches are. A file that cannot be read or written
is ignored (it only ever saves time).
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from truepass.paths import user_cache_dir

ENV = "TRUEPASS_SUITE_CACHE"
OFF = ("off", "none", "0", "false", "no")
LAYOUT = 1  # of a cached file: (key, samples, content hash)

Loaded = tuple[list[Any], str]
"""(samples, the suite's content hash)"""


def directory() -> Path | None:
    """``$TRUEPASS_SUITE_CACHE`` (None when it says ``off``), else the user cache's ``suites``."""
    explicit = os.environ.get(ENV, "").strip()
    if explicit:
        return None if explicit.lower() in OFF else Path(explicit).expanduser()
    return user_cache_dir() / "suites"


def key(reader: str, raw: bytes) -> str:
    """sha256 hex of everything the samples read from ``raw`` by ``reader`` depend on."""
    from truepass.checkcache import code_hash, installed_hash

    parts = [LAYOUT, reader, hashlib.sha256(raw).hexdigest(), code_hash(), installed_hash(),
             plugin_families(), sys.version]  # fmt: skip
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()


def cached(reader: str, raw: bytes, load: Callable[[], Loaded]) -> Loaded:
    """``load()``'s samples and content hash, or what an earlier call with the same ``reader``
    and ``raw`` bytes (and the same code) stored."""
    where = directory()
    if where is None:
        return load()
    k = key(reader, raw)
    path = where / f"{k[:40]}.pickle"
    try:
        with path.open("rb") as fh:
            stored = pickle.load(fh)
        if isinstance(stored, tuple) and len(stored) == 3 and stored[0] == k:
            return stored[1], stored[2]
    except Exception:  # missing, partial, or from a version that no longer unpickles
        pass
    samples, content_hash = load()
    try:
        where.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        with partial.open("wb") as fh:
            pickle.dump((k, samples, content_hash), fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(partial, path)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        pass
    return samples, content_hash


def plugin_families() -> list[Any]:
    """Each entry point of ``truepass.families``: its name and value, its distribution and
    version, and the size and modification time of its top-level module's file (found, not
    imported)."""
    import importlib.util

    from truepass.plugins import FAMILIES, entry_points

    out: list[Any] = []
    for ep in entry_points(FAMILIES):
        dist = (ep.dist.name, ep.dist.version) if ep.dist is not None else None
        top = ep.value.partition(":")[0].partition(".")[0]
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            spec = None
        origin = spec.origin if spec is not None else None
        stat = os.stat(origin) if origin and os.path.isfile(origin) else None
        out.append([ep.name, ep.value, dist, origin, stat and (stat.st_size, stat.st_mtime_ns)])
    return out
