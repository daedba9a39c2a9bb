"""Build a memorisation suite from other suites' source files (``truepass build-suite
memorisation``; docs/memorisation-format.md).

Files come from any suite whose family's answers are patches to code
(:class:`~truepass.families.capabilities.Patched`: ``code_files(sample)``), read as
``truepass run --suite`` reads them: a bundled name, a suite directory or file, or a public
benchmark (``quixbugs:PATH``). Each distinct file (by its text; a file shared by several samples,
or by two suites, is kept once, where it is first seen) is cut into a prefix and a continuation
(:func:`split_file`)."""

from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from truepass.errors import InputError
from truepass.families.memorisation.schema import MemorisationSample, Role

PREFIX_SHARE = 0.5
"""The share of a file's lines shown by default (``--prefix-share``)."""
LINES = 8
"""The non-blank lines of a continuation by default (``--lines``)."""

LANGUAGES = {".py": "python", ".java": "java"}
"""A file's language by its suffix, when its sample does not say (the prompt's fence)."""

_NOT_ID = re.compile(r"[^A-Za-z0-9._/:@+-]")


@dataclass
class SourceReport:
    """What one source suite gave: ``files`` = ``kept`` + ``duplicates`` + ``short`` +
    ``beyond_limit``."""

    suite: str
    ref: str
    role: str
    family: str
    samples: int = 0
    files: int = 0  # files of its samples (a file shared by several samples counts each time)
    duplicates: int = 0  # the text of a file kept already
    short: int = 0  # too few lines for a prefix and a whole continuation
    beyond_limit: int = 0
    kept: int = 0
    leakage: dict[str, int] = field(default_factory=dict)  # kept files per leakage tier


@dataclass
class BuildReport:
    """The build's settings and what each source suite gave (``build.json``)."""

    prefix_share: float
    lines: int
    limit: int | None
    sources: list[SourceReport] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def split_file(text: str, prefix_share: float, lines: int) -> tuple[str, str] | None:
    """(prefix, continuation) of a file, or None when it is too short.

    The prefix is the file's first ``floor(prefix_share * n)`` of its ``n`` lines, at least one
    and leaving at least one; the continuation the lines after it, verbatim, up to and including
    its ``lines``-th non-blank line (blank lines between them kept). A file with fewer than
    ``lines`` non-blank lines after its prefix is too short."""
    if not 0.0 < prefix_share < 1.0:
        raise ValueError(f"prefix_share must be in (0, 1), got {prefix_share}")
    if lines < 1:
        raise ValueError(f"lines must be at least 1, got {lines}")
    all_lines = text.splitlines(keepends=True)
    if len(all_lines) < 2:
        return None
    cut = min(len(all_lines) - 1, max(1, int(prefix_share * len(all_lines))))
    taken: list[str] = []
    non_blank = 0
    for line in all_lines[cut:]:
        taken.append(line)
        non_blank += bool(line.strip())
        if non_blank == lines:
            return "".join(all_lines[:cut]), "".join(taken)
    return None


def _language(sample: Any, path: str) -> str:
    known = getattr(sample, "language", None)
    return str(known or LANGUAGES.get(PurePosixPath(path).suffix, "text"))


def _patched(ref: str) -> tuple[Any, Any]:
    """The suite ``ref`` names and an instance of its family, which must be ``Patched``."""
    from truepass.families import registry
    from truepass.families.capabilities import Patched
    from truepass.suites.loader import load_suite

    suite = load_suite(ref)
    family = registry.get(suite.family)()
    if not isinstance(family, Patched):
        supported = [n for n in registry.names() if issubclass(registry.get(n), Patched)]
        raise InputError(
            f"the suite {suite.name} holds {suite.family} samples, which have no source files to "
            f"probe (families with code files: {', '.join(supported)})",
            location=ref,
        )
    return suite, family


def build(
    target: str,
    controls: list[str],
    *,
    prefix_share: float = PREFIX_SHARE,
    lines: int = LINES,
    limit: int | None = None,
) -> tuple[list[MemorisationSample], BuildReport]:
    """The samples of ``target``'s files (role ``target``) then of each control suite's
    (``control``), in suite order, then sample order, then path order; ``limit`` keeps the first
    N files of each suite."""
    if not controls:
        raise InputError("give at least one control suite (--control)", field="--control")
    start = time.monotonic()
    report = BuildReport(prefix_share=prefix_share, lines=lines, limit=limit)
    samples: list[MemorisationSample] = []
    seen: set[str] = set()
    ids: set[str] = set()
    for ref, role in [(target, Role.TARGET)] + [(c, Role.CONTROL) for c in controls]:
        suite, family = _patched(ref)
        source = SourceReport(suite=suite.name, ref=ref, role=role.value, family=suite.family,
                              samples=len(suite.samples))  # fmt: skip
        report.sources.append(source)
        for sample in suite.samples:
            for path, text in sorted(family.code_files(sample).items()):
                source.files += 1
                if text in seen:
                    source.duplicates += 1
                    continue
                seen.add(text)
                cut = split_file(text, prefix_share, lines)
                if cut is None:
                    source.short += 1
                    continue
                if limit is not None and source.kept >= limit:
                    source.beyond_limit += 1
                    continue
                sid = base = _NOT_ID.sub("_", f"{role.value}/{suite.name}/{path}")
                n = 1
                while sid in ids:
                    n += 1
                    sid = f"{base}@{n}"
                ids.add(sid)
                samples.append(
                    MemorisationSample(
                        family="memorisation", id=sid, leakage=sample.leakage, role=role,
                        source_suite=suite.name, source_sample=sample.id, path=path,
                        language=_language(sample, path), prefix=cut[0], continuation=cut[1],
                    )
                )  # fmt: skip
                source.kept += 1
                source.leakage[sample.leakage] = source.leakage.get(sample.leakage, 0) + 1
    report.seconds = time.monotonic() - start
    return samples, report


def write_suite(samples: list[MemorisationSample], report: BuildReport, out: Path) -> Path:
    """``out/suite.jsonl`` + ``suite.toml`` and ``build.json`` (the :class:`BuildReport`), as
    :func:`truepass.suites.loader.write_built_suite` writes a built suite."""
    from truepass.suites.loader import samples_hash, write_built_suite
    from truepass.suites.suite import Suite

    targets = [s.suite for s in report.sources if s.role == Role.TARGET.value]
    controls = [s.suite for s in report.sources if s.role == Role.CONTROL.value]
    content_hash = samples_hash(samples)
    suite = Suite(
        name=_NOT_ID.sub("_", f"memorisation-{'+'.join(targets)}"),
        version=content_hash[:12],
        description=f"{len(samples)} files: {', '.join(targets)} against {', '.join(controls)} "
        f"(truepass build-suite memorisation, prefix share {report.prefix_share}, "
        f"{report.lines} lines)",
        path=out,
        content_hash=content_hash,
        samples=list(samples),
        family="memorisation",
    )
    return write_built_suite(suite, out, report.to_json())
