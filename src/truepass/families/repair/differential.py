"""The differential check: does a test-passing patch behave like the reference fix beyond the
tests? (docs/differential.md)

One extra sandboxed pytest run per attempt judged ``correct`` or ``plausible``: the workspace
holds the candidate's code and every test of the sample; the in-sandbox plugin
``harness/_truepass_probe.py`` wraps the functions and methods the reference fix changes,
records the first distinct calls the tests make into them, and replays each, with type-aware
mutations of its arguments, against the candidate's function and the reference's. It sends an
*observable summary* of every outcome through the result channel; this module, in the trusted
parent, compares them (:mod:`truepass.families.repair.probecompare`) and picks the smallest
differing input as the witness of the ``differs-from-reference`` flag.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from truepass.answers import Answer
from truepass.errors import PatchError, SandboxError
from truepass.families.repair import languages
from truepass.families.repair.patching import apply_to_sample
from truepass.families.repair.probecompare import Case, Verdicts, judge_case
from truepass.families.repair.probetargets import Target, find_targets, shadow_source
from truepass.families.repair.schema import RepairSample, is_test_or_runner_file
from truepass.families.repair.testrun import build_argv, is_pytest_command
from truepass.judged import FlagDetail, JudgeConfig, Judged
from truepass.sandbox import Limits, SandboxResult, run_sandboxed, testpool
from truepass.sandbox.execution import sandbox_env
from truepass.sandbox.testrun import HARNESS_MOUNT, channel_events
from truepass.vocabulary import DIFFERS_FROM_REFERENCE, Verdict

log = logging.getLogger(__name__)

PROBE_DIR = ".truepass_probe"
PLUGIN = "_truepass_probe"
CHECKED = frozenset({Verdict.CORRECT, Verdict.PLAUSIBLE})
"""Verdicts of attempts the check runs on: those that pass every test they are given."""
_LIB_FILES = ("pycode/inputs.py", "pycode/invariants.py", "pycode/values.py", "suites/literals.py",
              "sandbox/guest/plainvalues.py", "pyast.py")  # fmt: skip


@dataclass(frozen=True)
class ProbeSettings:
    """How much the probe records and replays (the defaults are what judging uses)."""

    max_calls: int = 20  # distinct recorded calls per target
    max_inputs: int = 150  # inputs beyond the recorded calls, per target
    budget_s: float = 20.0  # wall-clock seconds for all replays of one attempt
    call_cpu_s: float = 1.0  # CPU seconds per replayed call
    slow_s: float = 0.25  # a reference call slower than this drops the input
    drawn: int = 10  # inputs drawn by hypothesis per target (0: none)
    seed: int = 0


@dataclass
class Outcome:
    """What the check found for one attempt."""

    status: str  # compared | skipped | failed
    reason: str = ""
    targets: list[str] = field(default_factory=list)
    compared: int = 0
    differing: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    witness: Case | None = None
    duration_s: float = 0.0

    @property
    def differs(self) -> bool:
        return self.witness is not None

    def note(self) -> str:
        """One sentence for ``Judged.details``."""
        if self.status != "compared":
            return f"differential check {self.status}: {self.reason}. "
        dropped = ", ".join(f"{n} {why}" for why, n in sorted(self.dropped.items()))
        text = f"differential check: {self.compared} input(s) compared"
        text += f" ({dropped} dropped)" if dropped else ""
        text += f", {self.differing} differ" if self.differing else ", none differs"
        return text + f" ({self.duration_s:.1f} s). "


def wanted(config: JudgeConfig) -> bool:
    """Whether the check runs: ``JudgeConfig.differential`` None (the default) or True."""
    return config.differential is not False


def probe_files(
    targets: list[Target], before: dict[str, str], fixed: dict[str, str], settings: ProbeSettings
) -> dict[str, str]:
    """The probe's private directory: its configuration (targets, the reference versions of
    their files) and the copy of the mutation engine it imports (standard library only)."""
    config = {
        "targets": [{"path": t.path, "qual": t.qual} for t in targets],
        "seeds": {t.name: list(t.seeds) for t in targets},
        "reference": {
            p: shadow_source(fixed[p], before[p], [t for t in targets if t.path == p])
            for p in sorted({t.path for t in targets})
        },
        **{k: getattr(settings, k) for k in ProbeSettings.__dataclass_fields__},
    }
    root = resources.files("truepass")
    files = {f"{PROBE_DIR}/config.json": json.dumps(config)}
    for pkg in ("", "pycode/", "suites/", "sandbox/", "sandbox/guest/"):
        files[f"{PROBE_DIR}/lib/truepass/{pkg}__init__.py"] = ""
    for rel in _LIB_FILES:
        files[f"{PROBE_DIR}/lib/truepass/{rel}"] = (root / rel).read_text(encoding="utf-8")
    return files


def argv_for(sample: RepairSample, tests: dict[str, str]) -> list[str]:
    """The sample's pytest command with the probe plugin in place of the reporter."""
    return [PLUGIN if a == "_truepass_reporter" else a for a in build_argv(sample, sorted(tests))]


def check(
    sample: RepairSample,
    code: dict[str, str],
    limits: Limits,
    settings: ProbeSettings | None = None,
) -> Outcome:
    """Run the probe on ``code`` (the candidate's files) with every test of the sample and
    compare its outcomes with the reference fix's. Never raises for the candidate's sake: a run
    that fails is an :class:`Outcome` of status ``failed``."""
    started = time.monotonic()
    settings = settings or ProbeSettings()
    if not is_pytest_command(sample.test_command):
        return Outcome("skipped", "the test command is not pytest")
    try:
        fixed = apply_to_sample(sample, Answer(diff=sample.fix)).files
    except PatchError as exc:
        return Outcome("skipped", f"the reference fix does not apply: {exc}")
    if _code(code) == _code(fixed):
        return Outcome("skipped", "the code is the reference fix's")
    targets = find_targets(sample.files, fixed)
    if not targets:
        return Outcome("skipped", "the reference fix changes no function")
    tests = sample.test_files
    files = {**code, **tests, **probe_files(targets, sample.files, fixed, settings)}
    env = {"PYTHONPATH": HARNESS_MOUNT, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
           "TRUEPASS_PROBE_DIR": PROBE_DIR}  # fmt: skip
    # the replays get their own budget beyond the tests' time
    run_limits = limits.model_copy(update={"timeout_s": limits.timeout_s + settings.budget_s + 10})
    try:
        result = _run(argv_for(sample, tests), files, run_limits, env)
    except SandboxError as exc:
        return Outcome("failed", f"the sandbox failed: {exc}", duration_s=_since(started))
    outcome = read_outcome(result.channel.decode("utf-8", errors="replace"), targets)
    if outcome.status == "failed" and result.timed_out:
        outcome.reason = "the probe run timed out"
    outcome.duration_s = _since(started)
    return outcome


def probe_harness_dir() -> Path:
    """Host directory of the probe's in-sandbox plugin (``harness/_truepass_probe*.py``,
    standard library and pytest only), bound where the reporter's directory is for test runs."""
    return Path(str(resources.files("truepass.families.repair") / "harness"))


def _run(
    argv: list[str], files: dict[str, str], limits: Limits, env: dict[str, str]
) -> SandboxResult:
    """The probe's pytest run: on a warm worker of its own pool where test runs are warm
    (:mod:`truepass.sandbox.testpool`), else cold, as the judge's test runs are."""
    binds = {str(probe_harness_dir()): HARNESS_MOUNT}
    if testpool.warm_wanted(None):
        key = testpool.PoolKey(limits=testpool.pool_limits(limits), ro_binds=tuple(binds.items()),
                               pythonpath=HARNESS_MOUNT, plugins=(PLUGIN,))  # fmt: skip
        pool = testpool.shared_pool(key)
        if pool is not None:
            full_env = sandbox_env(home="/tmp", channel_fd=-1, extra=env)
            full_env["PWD"] = testpool.WORKSPACE
            try:
                args = argv[argv.index("pytest") + 1 :]
                return pool.run(args, full_env, files, limits=limits)
            except testpool.WarmUnavailable as exc:
                log.info("warm probe run failed, running it cold: %s", exc)
    return run_sandboxed(argv, files, limits=limits, env=env, ro_binds=binds)


def _since(started: float) -> float:
    return round(time.monotonic() - started, 3)


def _code(files: dict[str, str]) -> dict[str, str]:
    return {p: t for p, t in files.items() if not is_test_or_runner_file(p)}


def read_outcome(channel: str, targets: list[Target]) -> Outcome:
    """Compare the cases the probe sent (a JSON event a line); malformed lines are ignored."""
    outcome = Outcome(
        "failed", "the probe did not start", targets=[f"{t.path}::{t.qual}" for t in targets]
    )
    verdicts = Verdicts()
    done = False
    for event in channel_events(channel):
        kind = event.get("event")
        if kind == "start":
            outcome.status, outcome.reason = "compared", ""
        elif kind == "probe-case":
            case = Case.from_event(event)
            if case is not None:
                verdicts.add(case, judge_case(case))
        elif kind == "probe-done":
            done = True
    if outcome.status == "compared" and not done:
        outcome.reason = "the probe did not finish"
        outcome.dropped["unfinished"] += 1
    outcome.compared, outcome.differing = verdicts.compared, len(verdicts.differing)
    outcome.dropped.update(verdicts.dropped)
    outcome.witness = verdicts.witness()
    if outcome.status == "compared" and outcome.compared == 0 and not outcome.differing:
        outcome.reason = "no call into a changed function could be replayed"
    return outcome


def flag_attempt(
    sample: RepairSample, answer: Answer | None, judged: Judged, config: JudgeConfig
) -> Outcome | None:
    """Run the check on a judged attempt that passes its tests and, when the candidate differs
    from the reference, add the ``differs-from-reference`` flag with its witness. The verdict
    stands. None when the check does not apply (not asked for, not passing, no answer)."""
    if not wanted(config) or judged.verdict not in CHECKED or answer is None:
        return None
    if not languages.get(sample.language).differential:  # the probe is a pytest plugin
        return None
    try:
        code = apply_to_sample(sample, answer).files
    except PatchError:
        return None
    outcome = check(sample, code, config.limits)
    judged.details += outcome.note()
    if outcome.witness is not None:
        w = outcome.witness
        path, _, qual = w.target.partition("::")
        line = next(
            (t.line for t in reference_targets(sample) if t.path == path and t.qual == qual), 0
        )
        if DIFFERS_FROM_REFERENCE not in judged.flags:
            judged.flags.append(DIFFERS_FROM_REFERENCE)
        judged.flag_details.append(
            FlagDetail(name=DIFFERS_FROM_REFERENCE, file=path, line=line, explanation=w.explain())
        )
    return outcome


def reference_targets(sample: RepairSample) -> list[Target]:
    """:func:`find_targets` of a sample's reference fix (empty when it does not apply)."""
    try:
        fixed = apply_to_sample(sample, Answer(diff=sample.fix)).files
    except PatchError:
        return []
    return find_targets(sample.files, fixed)
