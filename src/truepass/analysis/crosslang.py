"""Pairing across languages for ``truepass compare`` (docs/compare.md, "Across languages").

A benchmark may hold the same programs in several languages: QuixBugs has its 40 programs in
Python (``--suite quixbugs:PATH``, ids ``quixbugs-gcd``) and in Java (``--suite
quixbugs-java:PATH``, ids ``quixbugs-java-GCD``). The ids differ, so two such runs are paired by a
**program key** instead, defined here and only here (:func:`program_key`): the sample's
``meta["program"]``, which an adapter sets to the same value for the same program in every
language (QuixBugs: the Python module name, ``gcd``, ``breadth_first_search``; the Java adapter
sets its class name lowercased). A sample without it has its id as its key, so it pairs only with
a sample of the same id.

Results records do not carry the language or ``meta``; they are read from the suite the run was
made on (its ``manifest.json`` names the suite's path, name and content hash), only when the runs
compared are not all on the same suite.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROGRAM_FIELD = "program"
"""The ``meta`` field an adapter sets to pair its samples with the same programs in another
language."""


def program_key(sample_id: str, meta: Mapping[str, object] | None) -> str:
    """The key a sample is paired by across languages: ``meta["program"]`` (stripped and
    casefolded, so ``GCD`` and ``gcd`` meet), or the sample id when the sample has none."""
    value = (meta or {}).get(PROGRAM_FIELD)
    if isinstance(value, str) and value.strip():
        return value.strip().casefold()
    return sample_id


@dataclass(frozen=True)
class RunSamples:
    """What the suite of a run says about its samples, by sample id."""

    language: dict[str, str]
    program: dict[str, str]


def run_samples(
    run: Path, cache: dict[tuple[str, str], RunSamples | str]
) -> tuple[RunSamples | None, str | None]:
    """The languages and program keys of the samples of the suite ``run`` was made on.

    Args:
        run: a run directory or its ``results.jsonl``.
        cache: suites already read, by (path, content hash), shared between the runs.

    Returns:
        ``(samples, None)``; ``(None, None)`` when the run has no ``manifest.json`` (results
        written by hand: nothing to say); ``(None, why)`` when its suite cannot be read as it was.
    """
    run_dir = run.parent if run.is_file() else run
    manifest_path = run_dir / "manifest.json"
    if not manifest_path.is_file():
        return None, None
    try:
        suite = json.loads(manifest_path.read_text(encoding="utf-8"))["suite"]
        path, name, content_hash = suite.get("path"), suite.get("name"), suite.get("content_hash")
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None, f"{manifest_path} does not name the run's suite"
    key = (str(path), str(content_hash))
    if key not in cache:
        cache[key] = _read_suite(path, name, content_hash)
    found = cache[key]
    return (None, found) if isinstance(found, str) else (found, None)


def _read_suite(path: Any, name: Any, content_hash: Any) -> RunSamples | str:
    from truepass.errors import TruepassError
    from truepass.suites.loader import load_suite

    loaded = None
    # a suite directory or file, a public benchmark through its adapter (its name is the
    # format), a bundled suite
    for ref in (path, path and name and f"{name}:{path}", name):
        if not ref:
            continue
        try:
            loaded = load_suite(str(ref))
            break
        except (TruepassError, OSError):
            continue
    if loaded is None:
        return f"its suite ({name}) cannot be read at {path}"
    if content_hash and loaded.content_hash != content_hash:
        return f"its suite at {path} has changed since the run"
    language: dict[str, str] = {}
    program: dict[str, str] = {}
    for sample in loaded.samples:
        sid = str(getattr(sample, "id", ""))
        lang = getattr(sample, "language", None)
        if isinstance(lang, str):
            language[sid] = lang
        program[sid] = program_key(sid, getattr(sample, "meta", None))
    return RunSamples(language=language, program=program)


def split_outcomes(outcomes: list[tuple[str, bool, bool]]) -> dict[str, list[str]]:
    """Program keys by attempt-0 outcome in (A, B): ``both``, ``a_only``, ``b_only``,
    ``neither`` (the cells of the McNemar table, named)."""
    cells: dict[str, list[str]] = {"both": [], "a_only": [], "b_only": [], "neither": []}
    for key, x, y in outcomes:
        cells["both" if x and y else "a_only" if x else "b_only" if y else "neither"].append(key)
    return cells
