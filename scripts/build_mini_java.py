#!/usr/bin/env python3
"""Write the bundled ``mini-java`` repair suite (``src/truepass/suites/bundled/mini-java``).

The Java counterpart of ``mini``: small, self-contained Java defects (one to three classes in
package ``mini``) with a visible and a hidden JUnit 4 test class each. Everything was written for
truepass; no code comes from a benchmark. The sources live in ``scripts/mini_java/``, one folder
per defect (the folder name is the sample id)::

    <id>/meta.toml      defect_type, description; [[fix]] and optional [[overfit]] edits
    <id>/buggy/...      the code given to the solver (src/main/java/mini/*.java)
    <id>/visible/...    the visible test class (src/test/java/mini/*Test.java)
    <id>/hidden/...     the hidden test class (src/test/java/mini/*HiddenTest.java)

An edit is ``{file, old, new}``: ``old`` occurs exactly once in the file (after the edits
before it) and is replaced by ``new``. The fixed code is the buggy code with the ``fix`` edits,
the known-overfit code with the ``overfit`` edits. ``fix`` and ``known_overfit`` are unified
diffs computed with :mod:`difflib` (``a/`` and ``b/`` prefixes, 3 lines of context, as
``scripts/build_suite.py`` writes them for ``mini``), so they always apply; ``fault`` is the buggy
lines the fix removes or changes (:func:`truepass.patches.apply.changed_lines`).

Usage::

    .venv/bin/python scripts/build_mini_java.py              # write the bundled suite
    .venv/bin/python scripts/build_mini_java.py --out DIR    # write DIR/suite.jsonl, suite.toml
    .venv/bin/python scripts/build_mini_java.py --check      # exit 1 if the bundle is stale

``scripts/check_mini_java_by_hand.py`` compiles and runs every sample with javac and JUnit.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from truepass.families.repair.schema import RepairSample
from truepass.patches.apply import changed_lines

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "scripts" / "mini_java"
OUT = ROOT / "src" / "truepass" / "suites" / "bundled" / "mini-java"
NAME = "mini-java"
VERSION = "1.0.0"
SOURCE = "truepass mini-java, written for truepass"
LEAKAGE = "private"
META_KEYS = frozenset({"defect_type", "description", "fix", "overfit"})
ENTRIES = frozenset({"meta.toml", "buggy", "visible", "hidden"})


class BuildError(Exception):
    """The source tree cannot be turned into a valid suite."""


def read_tree(root: Path) -> dict[str, str]:
    """Files under ``root`` by POSIX relative path (empty when ``root`` does not exist)."""
    if not root.is_dir():
        return {}
    files: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        text = path.read_bytes().decode("utf-8")
        if not text.endswith("\n"):
            raise BuildError(f"{path}: must end with a newline")
        files[path.relative_to(root).as_posix()] = text
    return files


def unified_diff(old: dict[str, str], new: dict[str, str]) -> str:
    """Concatenated unified diffs (``a/``, ``b/`` prefixes, n=3) for every file that changed."""
    chunks: list[str] = []
    for path in sorted(old):
        if new[path] == old[path]:
            continue
        chunks.extend(
            difflib.unified_diff(
                old[path].splitlines(keepends=True),
                new[path].splitlines(keepends=True),
                fromfile=f"a/{path}",
                tofile=f"b/{path}",
                n=3,
            )
        )
    return "".join(chunks)


def apply_edits(where: str, files: dict[str, str], edits: object) -> dict[str, str]:
    """``files`` with each ``{file, old, new}`` edit applied in order."""
    if not isinstance(edits, list) or not edits:
        raise BuildError(f"{where}: must be a non-empty list of {{file, old, new}} tables")
    out = dict(files)
    for n, edit in enumerate(edits, 1):
        if not isinstance(edit, dict) or set(edit) != {"file", "old", "new"}:
            raise BuildError(f"{where} #{n}: an edit has exactly the keys file, old, new")
        path, old, new = edit["file"], edit["old"], edit["new"]
        if path not in out:
            raise BuildError(f"{where} #{n}: '{path}' is not a buggy file")
        count = out[path].count(old)
        if count != 1:
            raise BuildError(f"{where} #{n}: 'old' occurs {count} times in '{path}' (needs 1)")
        out[path] = out[path].replace(old, new)
    return out


def build_sample(folder: Path) -> dict[str, Any]:
    """One suite line from one defect folder."""
    sample_id = folder.name
    entries = {p.name for p in folder.iterdir()}
    if entries != ENTRIES:
        raise BuildError(f"{folder}: holds {sorted(entries)}, expected {sorted(ENTRIES)}")
    meta = tomllib.loads((folder / "meta.toml").read_text(encoding="utf-8"))
    unknown = sorted(set(meta) - META_KEYS)
    if unknown:
        raise BuildError(f"{folder}/meta.toml: unknown keys {unknown}")
    buggy = read_tree(folder / "buggy")
    visible = read_tree(folder / "visible")
    hidden = read_tree(folder / "hidden")
    fixed = apply_edits(f"{sample_id}: fix", buggy, meta.get("fix"))
    fix = unified_diff(buggy, fixed)
    sample: dict[str, Any] = {
        "id": sample_id,
        "language": "java",
        "defect_type": meta["defect_type"],
        "description": meta["description"],
        "files": buggy,
        "tests": {"visible": visible, "hidden": hidden},
        "fix": fix,
        "fault": [
            {"file": p, "lines": changed_lines(buggy[p], fixed[p])}
            for p in sorted(buggy)
            if fixed[p] != buggy[p]
        ],
        "source": SOURCE,
        "leakage": LEAKAGE,
    }
    if "overfit" in meta:
        overfit = apply_edits(f"{sample_id}: overfit", buggy, meta["overfit"])
        known_overfit = unified_diff(buggy, overfit)
        if known_overfit == fix:
            raise BuildError(f"{sample_id}: the overfit code is the same as the fixed code")
        sample["known_overfit"] = known_overfit
    try:
        RepairSample.model_validate(sample)
    except ValidationError as exc:
        raise BuildError(f"{sample_id}: does not match the schema:\n{exc}") from exc
    return sample


def build(src: Path = SRC) -> dict[str, str]:
    """The suite's files (``suite.jsonl``, ``suite.toml``) by name."""
    folders = sorted((p for p in src.iterdir() if p.is_dir()), key=lambda p: p.name)
    if not folders:
        raise BuildError(f"{src}: no defect folders")
    samples = [build_sample(folder) for folder in folders]
    dup = sorted(i for i, n in Counter(s["id"] for s in samples).items() if n > 1)
    if dup:
        raise BuildError(f"duplicate ids: {dup}")
    n_types = len({s["defect_type"] for s in samples})
    description = (
        f"Small, self-written Java defects ({n_types} defect types) with visible and hidden "
        "JUnit 4 tests"
    )
    jsonl = "".join(json.dumps(sample, sort_keys=True) + "\n" for sample in samples)
    toml_text = "".join(
        f"{key} = {json.dumps(value)}\n"
        for key, value in (("name", NAME), ("version", VERSION), ("description", description))
    )
    return {"suite.jsonl": jsonl, "suite.toml": toml_text}


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check``, compare) the suite; return the exit status."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"output directory (default {OUT})")
    parser.add_argument(
        "--check", action="store_true", help="do not write; exit 1 if the output is out of date"
    )
    args = parser.parse_args(argv)
    try:
        outputs = build()
    except BuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    n_samples = outputs["suite.jsonl"].count("\n")
    if args.check:
        stale = [
            name
            for name, text in outputs.items()
            if not (args.out / name).is_file()
            or (args.out / name).read_bytes() != text.encode("utf-8")
        ]
        if stale:
            print(f"error: {args.out}: out of date: {', '.join(stale)}", file=sys.stderr)
            return 1
        print(f"{args.out}: up to date ({n_samples} samples)")
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in outputs.items():
        (args.out / name).write_bytes(text.encode("utf-8"))
    print(f"wrote {n_samples} samples to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
