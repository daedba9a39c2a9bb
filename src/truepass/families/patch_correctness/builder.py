"""Build a patch-correctness suite from repair runs (``truepass build-suite patch-correctness``;
docs/patch-correctness-format.md).

Every attempt of the runs that passed the visible tests becomes a labelled sample from the hidden
tests' evidence:

- ``correct``: verdict ``correct`` and no fake-fix flag;
- ``overfitting``: verdict ``overfit`` (fails a hidden test), or verdict ``correct`` with a
  fake-fix flag (it passes the hidden tests by special-casing inputs, editing tests, ...: not a
  fix, and truepass does not count it as correct either);
- skipped: ``plausible`` (the sample has no hidden tests: no evidence either way) and every
  verdict that did not pass the visible tests.

Samples are deduplicated on the patched code with whitespace and comments stripped
(:func:`patched_key`): the same patch from two solvers (or two runs) is one sample, the solvers
kept in ``meta``. Each source sample of the runs adds its reference fix (label ``correct``,
provenance ``reference``); a tool patch whose patched code is the
reference fix's is merged into it (``oracle``'s attempts are the reference fix). A tool patch
whose attempts disagree on the label (a flaky test, a flag on one) is dropped and counted as
``conflicting``.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import time
import tokenize
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from truepass.answers import Answer
from truepass.errors import InputError, PatchError, TruepassError
from truepass.families import registry
from truepass.families.capabilities import Patched
from truepass.families.patch_correctness.schema import PatchCorrectnessSample
from truepass.vocabulary import FAKE_FIX_FLAGS, Verdict

SKIPS: dict[str, str] = {
    "plausible": "passed the visible tests, but the sample has no hidden tests: no evidence",
    "not-passing": "did not pass the visible tests (or was not judged: invalid, infra-error)",
    "apply-failed": "the recorded patch no longer applies to the suite's sample",
    "no-change": "the recorded patch changes no code file",
}
"""Why an attempt gives no sample (besides being a duplicate of another)."""

_NOT_ID = re.compile(r"[^A-Za-z0-9._/:@+-]")
_LAYOUT = {tokenize.NEWLINE: ";", tokenize.INDENT: "{", tokenize.DEDENT: "}"}
_DROPPED = {tokenize.COMMENT, tokenize.NL, tokenize.ENDMARKER, tokenize.ENCODING}


@dataclass
class BuildReport:
    """What a build read and kept. Attempts: ``attempts`` = ``passing`` + the skipped ones;
    each passing attempt is a new sample, a duplicate, or part of a conflicting patch."""

    runs: list[str] = field(default_factory=list)
    suites: list[str] = field(default_factory=list)  # NAME VERSION of each source suite
    attempts: int = 0
    passing: int = 0
    skipped: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SKIPS, 0))
    flagged_correct: int = 0  # correct with a fake-fix flag: labelled overfitting
    duplicates: int = 0  # passing attempts merged into a sample made from another
    conflicting: int = 0  # tool patches dropped: their attempts disagree on the label
    reference_found_by_tools: int = 0  # reference fixes some tool also produced
    samples: int = 0
    labels: dict[str, int] = field(default_factory=dict)
    tool: dict[str, int] = field(default_factory=dict)  # tool-only split, per label
    reference: dict[str, int] = field(default_factory=dict)  # reference-fix split, per label
    seconds: float = 0.0

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def patched_key(files: dict[str, str]) -> str:
    """The deduplication key of patched code (sha256, hex): per path, the Python tokens without
    comments, whitespace and blank lines (indentation kept as structure, not width); text that
    does not tokenize as Python is taken with all whitespace and ``#`` comments removed."""
    h = hashlib.sha256()
    for path in sorted(files):
        h.update(path.encode() + b"\0" + _normalised(files[path]).encode() + b"\0")
    return h.hexdigest()


def sample_key(buggy: dict[str, str], patched: dict[str, str]) -> str:
    """What deduplication compares: the patched code of one bug (:func:`patched_key` of the code
    before and after). Two bugs of one project whose fixes restore the same file stay two."""
    return hashlib.sha256(f"{patched_key(buggy)}:{patched_key(patched)}".encode()).hexdigest()


def _normalised(code: str) -> str:
    try:
        parts = [
            _LAYOUT.get(t.type, t.string)
            for t in tokenize.generate_tokens(io.StringIO(code).readline)
            if t.type not in _DROPPED
        ]
        return " ".join(parts)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        text = "\n".join(re.sub(r"(^|\s)#.*$", "", ln) for ln in code.splitlines())
        return "".join(text.split())


@dataclass
class _Group:
    """Everything seen of one patched code."""

    source: Any  # the RepairSample
    suite: Any  # the Suite
    buggy: dict[str, str]
    patched: dict[str, str]
    diff: str
    reference: bool = False
    labels: set[str] = field(default_factory=set)
    evidence: list[dict[str, object]] = field(default_factory=list)


def _label(verdict: Verdict, flags: list[str]) -> str | None:
    if verdict is Verdict.CORRECT:
        return "overfitting" if set(FAKE_FIX_FLAGS).intersection(flags) else "correct"
    if verdict is Verdict.OVERFIT:
        return "overfitting"
    return None


def _suite_of(run: Path, cache: dict[tuple[str, str], Any]) -> Any:
    """The repair suite a run was made on, from its manifest.json."""
    from truepass.suites.loader import load_suite

    manifest_path = run / "manifest.json"
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        described = manifest["suite"]
        path, name = described.get("path"), described.get("name")
        content_hash = described.get("content_hash")
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise InputError("no readable manifest.json naming the run's suite",
                         location=str(run), field="--from") from None  # fmt: skip
    key = (str(path), str(content_hash))
    if key in cache:
        return cache[key]
    suite = None
    # a suite directory or file, a public benchmark read through its adapter (its name is the
    # format), a bundled suite
    for ref in (path, path and name and f"{name}:{path}", name):
        if ref:
            try:
                suite = load_suite(ref)
                break
            except TruepassError:
                continue
    if suite is None:
        raise InputError(
            f"the run's suite ({name}) cannot be found at {path}: restore it there, or rebuild "
            "from a run made on a suite that exists",
            location=str(run),
            field="--from",
        )
    if not isinstance(registry.get(suite.family)(), Patched):
        raise InputError(f"the run's suite {suite.name} holds {suite.family} samples, whose "
                         "answers are not patches (repair runs are)", location=str(run),
                         field="--from")  # fmt: skip
    if content_hash and suite.content_hash != content_hash:
        raise InputError(
            f"the suite at {suite.path} has changed since the run (content hash "
            f"{suite.content_hash[:12]}, the run's {str(content_hash)[:12]})",
            location=str(run),
            field="--from",
        )
    cache[key] = suite
    return suite


def _applied(
    family: Patched, sample: Any, answer: Answer
) -> tuple[dict[str, str], dict[str, str], str] | None:
    """(buggy files touched, the same after the patch, the diff) or None if nothing changes."""
    applied = family.apply_patch(sample, answer)
    if not applied.changed:
        return None
    code = family.code_files(sample)
    buggy = {p: code.get(p, "") for p in applied.changed}
    patched = {p: applied.files.get(p, "") for p in applied.changed}
    return buggy, patched, applied.diff


def _group_of(
    groups: dict[str, _Group],
    source: Any,
    suite: Any,
    got: tuple[dict[str, str], dict[str, str], str],
) -> tuple[_Group, bool]:
    """The group of ``source``'s patch ``got`` (buggy files, patched files, diff) in ``groups``,
    and whether it is new (made here for the patch)."""
    buggy, patched, diff = got
    key = sample_key(buggy, patched)
    if key in groups:
        return groups[key], False
    group = groups[key] = _Group(source, suite, buggy, patched, diff)
    return group, True


def build(runs: list[Path]) -> tuple[list[PatchCorrectnessSample], BuildReport]:
    """Samples from the attempts of ``runs`` (repair run directories) and the reference fixes
    of their samples; raises :class:`InputError` on a run that cannot be read or whose suite
    cannot be found."""
    from truepass.records import read_results

    if not runs:
        raise InputError("give at least one run directory", field="--from")
    started = time.perf_counter()
    report = BuildReport()
    suites: dict[tuple[str, str], Any] = {}
    groups: dict[str, _Group] = {}  # in the order first found
    seen_samples: dict[tuple[str, str], tuple[Any, Any]] = {}
    for run in runs:
        records = read_results(run)
        suite = _suite_of(run, suites)
        report.runs.append(str(run))
        tag = f"{suite.name} {suite.version}"
        if tag not in report.suites:
            report.suites.append(tag)
        by_id = {s.id: s for s in suite.samples}
        family = registry.get(suite.family)()
        assert isinstance(family, Patched)  # _suite_of refused others
        for rec in sorted(records, key=lambda r: (r.sample_id, r.solver, r.attempt)):
            report.attempts += 1
            source = by_id.get(rec.sample_id)
            if source is None:
                raise InputError(f"attempt on sample {rec.sample_id!r}, which suite {suite.name} "
                                 "does not hold", location=str(run))  # fmt: skip
            seen_samples.setdefault((suite.content_hash, source.id), (suite, source))
            if rec.verdict is Verdict.PLAUSIBLE:
                report.skipped["plausible"] += 1
                continue
            label = _label(rec.verdict, rec.flags)
            if label is None:
                report.skipped["not-passing"] += 1
                continue
            try:
                got = (
                    _applied(family, source, Answer(diff=rec.patch)) if rec.patch.strip() else None
                )
            except PatchError:
                report.skipped["apply-failed"] += 1
                continue
            if got is None:
                report.skipped["no-change"] += 1
                continue
            report.passing += 1
            if rec.verdict is Verdict.CORRECT and label == "overfitting":
                report.flagged_correct += 1
            group, new = _group_of(groups, source, suite, got)
            if not new:
                report.duplicates += 1
            group.labels.add(label)
            group.evidence.append(
                {"run": str(run), "solver": rec.solver, "attempt": rec.attempt,
                 "verdict": rec.verdict.value, "flags": list(rec.flags)}
            )  # fmt: skip
    for suite, source in seen_samples.values():
        family = registry.get(suite.family)()
        assert isinstance(family, Patched)
        got = _applied(family, source, family.reference_answer(source))
        if got is None:
            continue
        group, new = _group_of(groups, source, suite, got)
        if not new and any(e["solver"] != "oracle" for e in group.evidence):
            report.reference_found_by_tools += 1
        group.reference = True
        group.buggy, group.patched, group.diff = got
    samples: list[PatchCorrectnessSample] = []
    for key, group in groups.items():
        if not group.reference and len(group.labels) > 1:
            report.conflicting += 1
            continue
        samples.append(_sample(key, group))
    samples.sort(key=lambda s: s.id)
    report.samples = len(samples)
    report.labels = dict(sorted(Counter(s.label for s in samples).items()))
    report.tool = dict(sorted(Counter(s.label for s in samples if s.provenance == "tool").items()))
    report.reference = dict(
        sorted(Counter(s.label for s in samples if s.provenance == "reference").items())
    )
    report.seconds = time.perf_counter() - started
    return samples, report


def _sample(key: str, group: _Group) -> PatchCorrectnessSample:
    source, suite = group.source, group.suite
    solvers = sorted({str(e["solver"]) for e in group.evidence})
    flags = sorted({str(f) for e in group.evidence for f in e["flags"]})  # type: ignore[attr-defined]
    base = _NOT_ID.sub("_", f"{suite.name}/{source.id}")
    if group.reference:
        sample_id, label, provenance = f"{base}/reference", "correct", "reference"
        solver = "reference"
    else:
        sample_id, label = f"{base}/p-{key[:10]}", next(iter(group.labels))
        provenance, solver = "tool", solvers[0]
    meta: dict[str, object] = {
        "source_suite": suite.name,
        "source_version": suite.version,
        "source_sample": source.id,
        "patched_key": patched_key(group.patched),
        "solvers": (["reference"] if group.reference else []) + solvers,
        "evidence": group.evidence,
    }
    if flags:
        meta["flags"] = flags
    return PatchCorrectnessSample(
        family="patch-correctness",
        id=sample_id,
        buggy=group.buggy,
        patched=group.patched,
        diff=group.diff,
        label=label,  # type: ignore[arg-type]
        provenance=provenance,  # type: ignore[arg-type]
        defect_type=source.defect_type,
        project=suite.name,
        solver=solver,
        source=f"truepass build-suite patch-correctness: {suite.name} {suite.version}",
        leakage=source.leakage,
        meta=meta,
    )


def write_suite(
    samples: list[PatchCorrectnessSample], report: BuildReport, out: Path, name: str | None = None
) -> Path:
    """``out/suite.jsonl`` + ``suite.toml`` (:func:`truepass.suites.loader.write_suite_dir`) and
    ``build.json`` (the :class:`BuildReport`)."""
    from truepass.suites.loader import samples_hash, write_built_suite
    from truepass.suites.suite import Suite

    content_hash = samples_hash(samples)
    sources = sorted({s.split()[0] for s in report.suites})
    suite = Suite(
        name=name or _NOT_ID.sub("_", "patch-correctness-" + "+".join(sources)),
        version=content_hash[:12],
        description=f"{len(samples)} patches that pass the visible tests of "
        f"{', '.join(report.suites)}, labelled by the hidden tests "
        "(truepass build-suite patch-correctness)",
        path=out,
        content_hash=content_hash,
        samples=list(samples),
        family="patch-correctness",
    )
    return write_built_suite(suite, out, report.to_json())
