#!/usr/bin/env python3
"""Build a bundled repair suite (``suite.jsonl`` + ``suite.toml``) from its human-readable tree.

Two source layouts. A tree with a ``base/`` folder is a whole project with defects injected one
at a time (see ``project_layout.py``, e.g. ``suites/project``). Otherwise each folder is one
small defect (the folder name is the sample id)::

    SRC/suite.toml          name, version, description; optional source, leakage (sample defaults)
    SRC/<id>/meta.toml      defect_type, description; optional fault_lines, source, leakage
    SRC/<id>/buggy/...      the code given to the solver
    SRC/<id>/fixed/...      the reference fix (a file absent here is unchanged)
    SRC/<id>/visible/...    visible tests
    SRC/<id>/hidden/...     hidden tests (optional)
    SRC/<id>/overfit/...    optional plausible-but-wrong version (a file absent here is unchanged)

``fix`` and ``known_overfit`` are unified diffs (``a/`` and ``b/`` prefixes, 3 lines of context)
from the buggy files. ``fault`` lists, per changed file, the buggy lines that the fix removes or
changes; for a pure insertion, the line before the insertion point (or 1). ``fault_lines`` in
meta.toml overrides it: a list of line numbers when the fix changes one file, or a table
``{"path" = [lines]}``.

Usage::

    python scripts/build_suite.py SRC OUT           # write OUT/suite.jsonl and OUT/suite.toml
    python scripts/build_suite.py SRC OUT --check   # exit 1 if OUT differs from what SRC builds
    python scripts/build_suite.py suites/project src/truepass/suites/bundled/project

Run it with the project's venv (it uses truepass's own diff and schema).
Exit status: 0 on success, 1 when ``--check`` finds a difference, 2 when the source is invalid.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from truepass.families.repair.schema import RepairSample
from truepass.patches.apply import changed_lines

LANGUAGE = "python"
LEAKAGE_TIERS = ("public-old", "public-recent", "private")
ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
META_KEYS = frozenset({"defect_type", "description", "fault_lines", "source", "leakage"})
SUITE_KEYS = frozenset({"name", "version", "description", "source", "leakage"})
DEFECT_ENTRIES = frozenset({"meta.toml", "buggy", "fixed", "visible", "hidden", "overfit"})
IGNORED_NAMES = frozenset({"__pycache__", ".pytest_cache", ".ruff_cache", ".DS_Store"})


class BuildError(Exception):
    """The source tree cannot be turned into a valid suite."""


def read_tree(root: Path) -> dict[str, str]:
    """Files under ``root`` by POSIX relative path (empty when ``root`` does not exist)."""
    if not root.is_dir():
        return {}
    files: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if any(part in IGNORED_NAMES for part in rel.parts) or path.suffix == ".pyc":
            continue
        if not path.is_file():
            continue
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BuildError(f"{path}: not UTF-8 text ({exc})") from exc
        if text and not text.endswith("\n"):
            raise BuildError(f"{path}: must end with a newline")
        files[rel.as_posix()] = text
    return files


def unified_diff(old: dict[str, str], new: dict[str, str]) -> str:
    """Concatenated unified diffs (``a/``, ``b/`` prefixes, n=3) for every file that changed."""
    chunks: list[str] = []
    for path in sorted(old):
        if path not in new or new[path] == old[path]:
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


def _fault(
    sample_id: str, buggy: dict[str, str], fixed: dict[str, str], override: object
) -> list[dict[str, Any]]:
    changed = [p for p in sorted(buggy) if p in fixed and fixed[p] != buggy[p]]
    if override is None:
        return [{"file": p, "lines": changed_lines(buggy[p], fixed[p])} for p in changed]
    if isinstance(override, list):
        if len(changed) != 1:
            raise BuildError(
                f"{sample_id}: fault_lines as a list needs a fix that changes exactly one file "
                f"(it changes {len(changed)}); use a table {{path = [lines]}}"
            )
        by_file: dict[str, object] = {changed[0]: override}
    elif isinstance(override, dict):
        by_file = dict(override)
    else:
        raise BuildError(f"{sample_id}: fault_lines must be a list or a table")
    fault: list[dict[str, Any]] = []
    for path, lines in sorted(by_file.items()):
        if path not in buggy:
            raise BuildError(f"{sample_id}: fault_lines names '{path}', which is not in buggy/")
        n_lines = len(buggy[path].splitlines())
        message = f"{sample_id}: fault_lines for '{path}' must be line numbers in 1..{n_lines}"
        if not isinstance(lines, list) or not lines:
            raise BuildError(message)
        numbers = [n for n in lines if type(n) is int and 1 <= n <= n_lines]
        if len(numbers) != len(lines):
            raise BuildError(message)
        fault.append({"file": path, "lines": sorted(set(numbers))})
    return fault


def _load_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise BuildError(f"{path}: {exc}") from exc


def _string(where: str, table: dict[str, Any], key: str, default: object = None) -> str:
    value = table.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise BuildError(f"{where}: '{key}' must be a non-empty string")
    return value


def read_meta(folder: Path, allowed_entries: frozenset[str]) -> dict[str, Any]:
    """Check a defect folder's name and entries; return its meta.toml."""
    if not ID_PATTERN.match(folder.name):
        raise BuildError(f"{folder}: folder name is not a valid sample id")
    entries = {p.name for p in folder.iterdir() if p.name not in IGNORED_NAMES}
    unknown = sorted(entries - allowed_entries)
    if unknown:
        raise BuildError(f"{folder}: unexpected entries {unknown}")
    if "meta.toml" not in entries:
        raise BuildError(f"{folder}: meta.toml is missing")
    meta = _load_toml(folder / "meta.toml")
    extra = sorted(set(meta) - META_KEYS)
    if extra:
        where = folder / "meta.toml"
        raise BuildError(f"{where}: unknown keys {extra} (allowed: {sorted(META_KEYS)})")
    return meta


def build_sample(folder: Path, defaults: dict[str, Any]) -> dict[str, Any]:
    """One suite line from one defect folder."""
    meta = read_meta(folder, DEFECT_ENTRIES)
    buggy = read_tree(folder / "buggy")
    fixed_only = read_tree(folder / "fixed")
    visible = read_tree(folder / "visible")
    hidden = read_tree(folder / "hidden")
    overfit_only = read_tree(folder / "overfit")
    if not buggy:
        raise BuildError(f"{folder}: buggy/ has no files")
    if not visible:
        raise BuildError(f"{folder}: visible/ has no test files")
    for name, tree in (("fixed", fixed_only), ("overfit", overfit_only)):
        stray = sorted(set(tree) - set(buggy))
        if stray:
            raise BuildError(f"{folder}: {name}/ has files that are not in buggy/: {stray}")
    overfit = {**buggy, **overfit_only} if overfit_only else None
    return make_sample(folder, meta, defaults, buggy, {**buggy, **fixed_only}, visible, hidden,
                       overfit)  # fmt: skip


def make_sample(
    folder: Path,
    meta: dict[str, Any],
    defaults: dict[str, Any],
    buggy: dict[str, str],
    fixed: dict[str, str],
    visible: dict[str, str],
    hidden: dict[str, str],
    overfit: dict[str, str] | None,
) -> dict[str, Any]:
    """One suite line from the buggy, fixed and (optional) overfit code of a defect."""
    sample_id = folder.name
    where = str(folder / "meta.toml")
    clash = sorted((set(visible) | set(hidden)) & set(buggy))
    if clash:
        raise BuildError(f"{folder}: paths are both code and test: {clash}")
    fix = unified_diff(buggy, fixed)
    if not fix:
        raise BuildError(f"{folder}: the fixed code does not differ from the buggy code")
    leakage = _string(where, meta, "leakage", defaults.get("leakage"))
    if leakage not in LEAKAGE_TIERS:
        raise BuildError(f"{where}: leakage must be one of {LEAKAGE_TIERS}, not {leakage!r}")
    sample: dict[str, Any] = {
        "id": sample_id,
        "language": LANGUAGE,
        "defect_type": _string(where, meta, "defect_type"),
        "description": _string(where, meta, "description"),
        "files": buggy,
        "tests": {"visible": visible, "hidden": hidden},
        "fix": fix,
        "fault": _fault(sample_id, buggy, fixed, meta.get("fault_lines")),
        "source": _string(where, meta, "source", defaults.get("source")),
        "leakage": leakage,
    }
    if overfit is not None:
        known_overfit = unified_diff(buggy, overfit)
        if not known_overfit:
            raise BuildError(f"{folder}: the overfit code does not differ from the buggy code")
        if known_overfit == fix:
            raise BuildError(f"{folder}: the overfit code is the same as the fixed code")
        sample["known_overfit"] = known_overfit
    return sample


def _validate(samples: list[dict[str, Any]]) -> bool:
    """Check every sample against truepass's schema."""
    for sample in samples:
        try:
            RepairSample.model_validate(sample)
        except ValidationError as exc:
            raise BuildError(f"{sample['id']}: does not match the schema:\n{exc}") from exc
    return True


def _toml_string(value: str) -> str:
    # A JSON string literal is a valid TOML basic string.
    return json.dumps(value, ensure_ascii=False)


def build(src: Path) -> tuple[dict[str, str], int, bool]:
    """Output files by name, the number of samples, and whether the schema validated them."""
    if not src.is_dir():
        raise BuildError(f"{src}: not a directory")
    suite_toml = src / "suite.toml"
    if not suite_toml.is_file():
        raise BuildError(f"{suite_toml}: missing (it names the suite: name, version, description)")
    suite = _load_toml(suite_toml)
    extra = sorted(set(suite) - SUITE_KEYS)
    if extra:
        raise BuildError(f"{suite_toml}: unknown keys {extra} (allowed: {sorted(SUITE_KEYS)})")
    header = {
        key: _string(str(suite_toml), suite, key) for key in ("name", "version", "description")
    }

    if (src / "base").is_dir():
        from project_layout import project_samples  # needs this module, so imported late

        samples = project_samples(src, suite)
    else:
        folders = sorted(
            (p for p in src.iterdir() if p.is_dir() and p.name not in IGNORED_NAMES),
            key=lambda p: p.name,
        )
        if not folders:
            raise BuildError(f"{src}: no defect folders")
        samples = [build_sample(folder, suite) for folder in folders]
    validated = _validate(samples)

    jsonl = "".join(json.dumps(sample, sort_keys=True) + "\n" for sample in samples)
    toml_text = "".join(f"{key} = {_toml_string(value)}\n" for key, value in header.items())
    assert tomllib.loads(toml_text) == header
    return {"suite.jsonl": jsonl, "suite.toml": toml_text}, len(samples), validated


def main(argv: list[str] | None = None) -> int:
    """Build (or with ``--check``, compare) the suite; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("src", type=Path, help="source tree (one folder per defect)")
    parser.add_argument("out", type=Path, help="output directory for suite.jsonl and suite.toml")
    parser.add_argument(
        "--check", action="store_true", help="do not write; exit 1 if the output is out of date"
    )
    args = parser.parse_args(argv)
    try:
        outputs, n_samples, validated = build(args.src)
    except BuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not validated:
        print("note: truepass is not importable; schema validation skipped", file=sys.stderr)

    if args.check:
        stale = []
        for name, text in outputs.items():
            path = args.out / name
            current = path.read_bytes().decode("utf-8") if path.is_file() else None
            if current != text:
                stale.append(str(path))
        if stale:
            print(
                f"error: out of date with {args.src}: {', '.join(stale)}\n"
                f"rebuild with: python scripts/build_suite.py {args.src} {args.out}",
                file=sys.stderr,
            )
            return 1
        print(f"{args.out}: up to date ({n_samples} samples)")
        return 0

    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in outputs.items():
        (args.out / name).write_bytes(text.encode("utf-8"))
    print(f"wrote {n_samples} samples to {args.out}")
    return 0


if __name__ == "__main__":
    # Run the copy that project_layout imports, so that there is one BuildError class.
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from build_suite import main as _main

    sys.exit(_main())
