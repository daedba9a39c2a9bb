"""Judge a rebuild submission: build it in a fresh sandbox from its files alone, then run the
task's behavioural tests against what it built, with the gold absent (docs/rebuild-format.md,
"Judging").

The sandbox holds the submission, the harness (read-only) and, at every path the gold is
installed at, a tripwire that says it was called. ``compile.sh`` runs first, without the tests;
the tests are written afterwards into a directory of a random name, collected, then deleted
before the program under test first runs (the harness plugin), and outcomes come back through
the result channel only. A submitted or built file identical to the gold (``copies-gold``) or a
submission that names or calls the gold (``wraps-gold``) scores zero.
"""

from __future__ import annotations

import ast
import re
import time
from collections.abc import Mapping

from truepass import pyast
from truepass.answers import Answer
from truepass.errors import SandboxError
from truepass.families.rebuild.buildcache import BuildRequest, described, run_build
from truepass.families.rebuild.evidence import RebuildEvidence
from truepass.families.rebuild.gold import GOLD_DIR, TRIPWIRE_MARK, installed_paths, masks
from truepass.families.rebuild.sandboxed import harness_binds, run_tests
from truepass.families.rebuild.schema import RebuildSample
from truepass.families.rebuild.submission import SOURCE_DIR, submission_files
from truepass.judged import FlagDetail, JudgeConfig, Judged, PhaseResult, SampleCheck
from truepass.sandbox import Limits
from truepass.sandbox.session import SandboxSession, WorkspaceError
from truepass.sandbox.testrun import TestRun
from truepass.vocabulary import Verdict

COMPILE_SCRIPT = "compile.sh"
ALMOST = 0.95
LOG_TAIL = 3000


def expected_tests(sample: RebuildSample) -> list[str]:
    """The test ids the task expects to run: every top-level ``test_*`` function of its test
    files, less the ignored ones, sorted."""
    found: list[str] = []
    for path, source in sample.tests.items():
        tree = pyast.parse(source, path)
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
                "test"
            ):
                found.append(f"{path}::{node.name}")
    return sorted(t for t in found if t not in sample.ignore)


def build_limits(sample: RebuildSample, config: JudgeConfig) -> Limits:
    """The sandbox's limits: the judge's, with room to build (disk, processes, file size)."""
    base = config.limits
    return Limits(
        timeout_s=sample.build_timeout_s,
        memory_mb=max(base.memory_mb, 2048),
        cpu_s=max(base.cpu_s, int(sample.build_timeout_s)),
        max_processes=max(base.max_processes, 256),
        file_size_mb=max(base.file_size_mb, 256),
        disk_mb=max(base.disk_mb, 1536),
        open_files=max(base.open_files, 1024),
        output_bytes=base.output_bytes,
    )


def judge_rebuild(
    sample: RebuildSample, answer: Answer | None, check: SampleCheck, config: JudgeConfig
) -> Judged:
    """Build ``answer`` and run the task's tests against it."""
    if answer is None or answer.no_patch or not answer.files:
        return Judged(
            verdict=Verdict.NO_PATCH,
            details="no source tree was submitted",
            scores={"pass_rate": 0.0},
        )
    files = submission_files(answer)
    if COMPILE_SCRIPT not in files:
        return Judged(
            verdict=Verdict.BROKEN,
            details=f"the submission has no {COMPILE_SCRIPT} at its root",
            patch=_listing(files),
            scores={"pass_rate": 0.0},
        )
    started = time.monotonic()
    flags: list[FlagDetail] = []
    limits = build_limits(sample, config)
    binds = {**harness_binds(), **masks(sample)}
    # The reference answer is ours and calls no gold: the part of its compile.sh before the
    # checkpoint (configure) is built without the task's tripwires, once for every program of
    # its package (docs/rebuild-format.md, "The build cache").
    first_binds = harness_binds() if answer.meta.get(SOURCE_DIR) is not None else None
    request = BuildRequest(
        files=files, limits=limits, binds=binds, first_binds=first_binds,
        timeout_s=sample.build_timeout_s, log_chars=LOG_TAIL,
    )  # fmt: skip
    built, build = run_build(request)
    judged = Judged(
        verdict=Verdict.BROKEN,
        patch=_listing(files),
        evidence=RebuildEvidence(submission=described(files), build=build.use),
        sandbox_tier=build.tier,
        test_output=build.log,
    )
    if build.timed_out:
        judged.verdict = Verdict.TIMEOUT
        judged.details = f"{COMPILE_SCRIPT} did not finish within {sample.build_timeout_s:g} s"
        return _done(judged, started)
    if built is None:
        judged.details = f"{COMPILE_SCRIPT} failed (exit {build.returncode})"
        return _done(judged, started)
    log = build.log
    with built as session:
        copies = [p for p, d in build.digests.items() if d == sample.gold_sha256]
        if copies:
            flags.append(
                FlagDetail(
                    name="copies-gold",
                    file=copies[0],
                    explanation=f"{copies[0]} is byte for byte the gold {sample.gold}",
                )
            )
        if sample.program not in session.list_files():
            judged.details = (
                f"{COMPILE_SCRIPT} succeeded but built no ./{sample.program} at the workspace root"
            )
            return _done(_flagged(judged, flags), started)
        flags += _names_gold(sample, session, [COMPILE_SCRIPT, sample.program])
        expected = expected_tests(sample)
        run = _run_tests(session, sample, len(expected))
    _check_ids(sample, run, expected)
    passed = [t for t in expected if run.outcomes.get(t) == "passed"]
    failing = [t for t in expected if run.outcomes.get(t) != "passed"]
    if TRIPWIRE_MARK in run.output or any(TRIPWIRE_MARK in m for m in run.messages.values()):
        flags.append(FlagDetail(name="wraps-gold", explanation="the built program called the gold"))
    flags += [FlagDetail(name="tampers-harness", explanation=lie) for lie in run.canary_lies]
    judged.hidden = PhaseResult(
        expected=len(expected),
        passed=len(passed),
        failed=len(failing),
        missing=0,
        ok=not failing,
        failing=failing,
    )
    judged.test_output = (run.output or log)[-LOG_TAIL:]
    judged.verdict = Verdict.CORRECT if not failing else Verdict.PARTIAL
    rate = len(passed) / len(expected) if expected else 0.0
    judged.scores = {"pass_rate": round(rate, 6)}
    judged.details = f"{len(passed)}/{len(expected)} tests pass"
    return _done(_flagged(judged, flags), started)


def _run_tests(session: SandboxSession, sample: RebuildSample, expected: int) -> TestRun:
    """The task's tests against ./PROGRAM."""
    return run_tests(
        session, sample.tests, sample.ignore, program=f"/workspace/{sample.program}",
        name=sample.program, run_timeout_s=sample.test_timeout_s,
        expected=expected,
    )  # fmt: skip


def _check_ids(sample: RebuildSample, run: TestRun, expected: list[str]) -> None:
    """The tests that ran must be exactly the ones the task expects: a harness fault, not the
    submission's, raised (retried, then an infra error) rather than scored."""
    if not run.started or run.collect_errors or not run.finished:
        problem = "; ".join(run.collect_errors) or "the test session did not finish"
        if run.timed_out:
            problem = "the test session hit its time limit"
        raise SandboxError(f"{sample.id}: the tests did not run as expected: {problem}")
    got = sorted(run.collected)
    if got != expected:
        extra = sorted(set(got) - set(expected))[:5]
        missing = sorted(set(expected) - set(got))[:5]
        raise SandboxError(
            f"{sample.id}: the test ids that ran differ from the task's: "
            f"unexpected {extra}, missing {missing}"
        )


def _names_gold(
    sample: RebuildSample, session: SandboxSession, paths: list[str]
) -> list[FlagDetail]:
    """``wraps-gold`` for each of ``paths`` (``compile.sh`` and the built program, a script or
    a binary) that names one of the gold's paths, as a whole path: not the tail of a longer
    one (``_build/bin/gh`` is no ``/bin/gh``) nor the head of one (``/usr/bin/ghost``). Other
    files are not read: a source tree may mention where a program is installed (Debian's own
    does) without calling it."""
    names = [*installed_paths(sample), f"{GOLD_DIR}/{sample.program}"]
    whole = [re.compile(rf"(?<![\w./-]){re.escape(name)}(?![\w./-])") for name in names]
    flags: list[FlagDetail] = []
    for path in paths:
        try:
            text = session.read_file(path)
        except (OSError, WorkspaceError):
            continue
        for name, pattern in zip(names, whole, strict=True):
            if pattern.search(text):
                why = f"{path} names the gold program {name}"
                flags.append(FlagDetail(name="wraps-gold", file=path, explanation=why))
                break
    return flags


def _flagged(judged: Judged, flags: list[FlagDetail]) -> Judged:
    """Record the anti-cheat flags: a flagged submission scores zero."""
    if flags:
        judged.flag_details = flags
        judged.flags = sorted({f.name for f in flags})
        judged.scores = {"pass_rate": 0.0}
        judged.details = f"{judged.details}; scores zero: {flags[0].explanation}"
    return judged


def _done(judged: Judged, started: float) -> Judged:
    judged.duration_s = round(time.monotonic() - started, 3)
    if "pass_rate" not in judged.scores:
        judged.scores = {"pass_rate": 0.0}
    return judged


def _listing(files: Mapping[str, str | bytes]) -> str:
    """What the record keeps of the submission: compile.sh and the list of files."""
    script = files.get(COMPILE_SCRIPT, "")
    if isinstance(script, bytes):
        script = script.decode("utf-8", "replace")
    sizes = "\n".join(f"{len(c):>9}  {p}" for p, c in sorted(files.items()))
    return f"{COMPILE_SCRIPT}:\n{script}\n\nfiles ({len(files)}):\n{sizes}\n"
