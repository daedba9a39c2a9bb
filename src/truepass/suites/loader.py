"""Find and load a suite of any family: a bundled name, a JSONL file, or a directory holding
``suite.jsonl``."""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from truepass.errors import InputError, SuiteError
from truepass.families import registry
from truepass.jsonlines import json_lines
from truepass.suites.cache import cached
from truepass.suites.shipped import bundled_dir, bundled_suites
from truepass.suites.suite import Sample, Suite
from truepass.suites.validation import describe_validation_error

__all__ = [
    "Sample",
    "Suite",
    "bundled_dir",
    "bundled_suites",
    "describe_validation_error",
    "load_suite",
]

MAX_REPORTED_PROBLEMS = 20


def load_suite(ref: str | Path) -> Suite:
    """Load a suite by bundled name, JSONL path or suite directory.

    Raises :class:`SuiteError` naming the file, line and field of every problem found (up to
    twenty), so that a user can fix a suite in one pass.
    """
    fmt, sep, rest = str(ref).partition(":")
    if sep and not Path(ref).exists():
        from truepass.families.registry import format_named

        if format_named(fmt) is not None:
            return load_adapted(fmt, Path(rest))
    path = Path(ref)
    if not path.exists() and str(ref) not in bundled_suites():
        from truepass.families.registry import format_named

        known = format_named(str(ref))
        if known is not None and known.default_source is not None:
            return load_adapted(str(ref), known.default_source())
    if not path.exists() and str(ref) in bundled_suites():
        path = bundled_dir() / str(ref)
    if not path.exists():
        from truepass.families.registry import formats

        known = ", ".join(bundled_suites()) or "none"
        raise SuiteError(
            f"no such suite file or directory: '{ref}' (bundled suites: {known}; public "
            f"benchmarks: FORMAT:PATH with FORMAT one of {', '.join(formats())}; "
            "`truepass suites` lists them)",
            location=str(ref),
        )
    if path.is_dir():
        jsonl = path / "suite.jsonl"
        if not jsonl.is_file():
            raise SuiteError("a suite directory must hold suite.jsonl", location=str(path))
        name, version, description, setting = _read_toml(
            path / "suite.toml", default_name=path.name
        )
    else:
        jsonl = path
        name, version, description, setting = path.stem, "0", "", None
    raw = jsonl.read_bytes()
    samples, content_hash = cached(
        "suite.jsonl", raw, lambda: (parse_jsonl(raw, jsonl), hashlib.sha256(raw).hexdigest())
    )
    return Suite(
        name=name,
        version=version,
        description=description,
        path=path,
        content_hash=content_hash,
        samples=samples,
        family=family_of(samples),
        setting=setting,
    )


def family_of(samples: list[Sample]) -> str:
    """The task family of a suite's samples."""
    return registry.of_sample(samples[0]).name if samples else registry.DEFAULT


def _read_toml(toml_path: Path, default_name: str) -> tuple[str, str, str, str | None]:
    if not toml_path.is_file():
        return default_name, "0", "", None
    try:
        data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SuiteError(f"not valid TOML: {exc}", location=str(toml_path)) from exc
    for key in ("name", "version", "description", "setting"):
        if key in data and not isinstance(data[key], str):
            raise SuiteError("must be a string", location=str(toml_path), field=key)
    return (
        data.get("name", default_name),
        data.get("version", "0"),
        data.get("description", ""),
        data.get("setting"),
    )


def parse_jsonl(raw: bytes, path: Path) -> list[Sample]:
    """Parse and validate suite lines; collect every problem before raising.

    A line's ``family`` field (absent: ``repair``) picks its schema; a suite holds one family.
    """
    problems: list[str] = []
    samples: list[Sample] = []
    first_family: tuple[str, int] | None = None
    seen: dict[str, int] = {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SuiteError(f"not UTF-8 text ({exc})", location=str(path)) from exc
    for line in json_lines(text, path):
        lineno, where, obj = line.lineno, line.where, line.obj
        if obj is None:
            problems.append(f"{where}: {line.problem}")
            continue
        family = obj.get("family", registry.DEFAULT)
        try:
            sample_type = registry.get(str(family)).sample_type
        except InputError:
            known = ", ".join(registry.names())
            problems.append(f"{where}: field 'family': unknown family {family!r} (known: {known})")
            continue
        if first_family is None:
            first_family = (family, lineno)
        elif family != first_family[0]:
            problems.append(
                f"{where}: field 'family': {family!r}, but line {first_family[1]} is "
                f"{first_family[0]!r}; a suite holds one family"
            )
            continue
        if "family" not in sample_type.model_fields:  # the schema does not repeat it
            obj = {k: v for k, v in obj.items() if k != "family"}
        try:
            sample = sample_type.model_validate(obj)
        except ValidationError as exc:
            problems.extend(describe_validation_error(exc, where))
            continue
        if sample.id in seen:
            problems.append(
                f"{where}: field 'id': duplicate id '{sample.id}' (first on line {seen[sample.id]})"
            )
            continue
        seen[sample.id] = lineno
        samples.append(sample)
    if not samples and not problems:
        problems.append(f"{path}: the suite holds no samples")
    if problems:
        shown = problems[:MAX_REPORTED_PROBLEMS]
        more = len(problems) - len(shown)
        tail = f"\n... and {more} more problems" if more else ""
        raise SuiteError("invalid suite:\n" + "\n".join(shown) + tail)
    return samples


def load_adapted(fmt: str, path: Path) -> Suite:
    """A public benchmark read through its adapter (``--suite FORMAT:PATH``)."""
    from truepass.families.registry import format_named, formats

    adapter = format_named(fmt)
    if adapter is None:
        raise SuiteError(f"unknown format '{fmt}' (known: {', '.join(sorted(formats()))})")
    if not path.exists():
        raise SuiteError(f"no such {fmt} file or directory", location=str(path))

    def read() -> tuple[list[Sample], str]:
        samples, source = adapter.read(path)
        if not samples:
            raise SuiteError(f"no samples found in this {fmt} data", location=str(path))
        return samples, hashlib.sha256(source).hexdigest()

    # a self-contained data file is read once per content; other formats every time
    own = adapter.self_contained and path.is_file()
    samples, content_hash = cached(f"format:{fmt}", path.read_bytes(), read) if own else read()
    return Suite(
        name=fmt,
        version="upstream",
        description=f"{fmt} imported from {path}",
        path=path,
        content_hash=content_hash,
        samples=samples,
        family=family_of(samples),
        setting=adapter.setting,
    )


def write_suite_dir(suite: Suite, out: Path) -> Path:
    """Write ``suite`` as a suite directory (``suite.jsonl`` + ``suite.toml``)."""
    out.mkdir(parents=True, exist_ok=True)
    lines = (
        json.dumps(s.model_dump(mode="json", exclude_none=True), sort_keys=True)
        for s in suite.samples
    )
    (out / "suite.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    toml = (
        f"name = {json.dumps(suite.name)}\nversion = {json.dumps(suite.version)}\n"
        f"description = {json.dumps(suite.description)}\n"
    )
    if suite.setting is not None:
        toml += f"setting = {json.dumps(suite.setting)}\n"
    (out / "suite.toml").write_text(toml, encoding="utf-8")
    return out


def samples_hash(samples: Sequence[Sample]) -> str:
    """The content hash of a suite built here: sha256 of its samples as sorted-key JSON lines."""
    dumped = "\n".join(json.dumps(s.model_dump(mode="json"), sort_keys=True) for s in samples)
    return hashlib.sha256(dumped.encode()).hexdigest()


def write_built_suite(suite: Suite, out: Path, build: dict[str, Any]) -> Path:
    """Write a suite a builder made: the suite directory (:func:`write_suite_dir`) and
    ``build.json``, the builder's report ``build``.

    Raises:
        InputError: ``out`` (``--out``) exists and is not a directory.
    """
    if out.exists() and not out.is_dir():
        raise InputError("exists and is not a directory", location=str(out), field="--out")
    write_suite_dir(suite, out)
    (out / "build.json").write_text(json.dumps(build, indent=2) + "\n", encoding="utf-8")
    return out
