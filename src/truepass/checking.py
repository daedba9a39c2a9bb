"""``check-suite``: is each sample sound? Buggy fails, reference passes stably, overfit overfits.

The result is a health report: one status per sample (``ok``, ``invalid``, ``reference-fails``,
``flaky``, ``overfit-not-overfit``, ``infra-error``) with its reasons, and the counts, written as
``health.json`` and ``health.md`` (see docs/cli.md).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, computed_field

from truepass.judges.repair import Judgement, SampleCheck, check_sample, judge
from truepass.judges.verdicts import PASSING, JudgeConfig, Verdict
from truepass.patches.apply import Answer
from truepass.runner import Progress
from truepass.suites.loader import Suite
from truepass.suites.schema import RepairSample

Status = Literal["ok", "invalid", "reference-fails", "flaky", "overfit-not-overfit", "infra-error"]
STATUSES: tuple[Status, ...] = (
    "ok", "invalid", "reference-fails", "flaky", "overfit-not-overfit", "infra-error",
)  # fmt: skip
BUGGY_PASSES = "the buggy code already passes the visible tests"  # check_sample's reason


class SampleHealth(BaseModel):
    sample_id: str
    defect_type: str
    valid: bool = Field(description="the sample check passed: runs judge attempts on it")
    status: Status = Field(
        "ok",
        description="ok: no problem; invalid: the buggy code already passes the visible tests; "
        "reference-fails: the reference fix does not apply or fails here; flaky: a rerun "
        "disagreed; overfit-not-overfit: the known_overfit patch is not judged overfit",
    )
    reference: str = Field(description="verdict of the reference fix")
    noop: str | None = Field(None, description="verdict of the unchanged buggy code")
    known_overfit: str | None = Field(None, description="verdict of the known_overfit patch")
    problems: list[str] = Field(default_factory=list)
    flaky_tests: list[str] = Field(
        default_factory=list, description="tests that passed in one run and failed in another"
    )
    warnings: list[str] = Field(
        default_factory=list,
        description="fake-fix flags on the reference fix: detector false alarms, not suite faults",
    )

    def flag(self, status: Status, problem: str) -> None:
        """Record a problem; the first one sets the status."""
        if self.status == "ok":
            self.status = status
        self.problems.append(problem)


class SuiteHealth(BaseModel):
    suite: str
    content_hash: str
    samples: list[SampleHealth]
    sandbox_tier: str
    version: str = ""
    checked_at: str = ""
    judge: dict[str, object] = Field(default_factory=dict, description="timeout, reruns ...")

    @property
    def valid(self) -> int:
        return sum(s.valid for s in self.samples)

    @property
    def problems(self) -> list[SampleHealth]:
        return [s for s in self.samples if s.problems]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def counts(self) -> dict[str, int]:
        """Samples, valid ones (the check passed), samples per status (``ok``: no problem), and
        how many known_overfit patches were judged overfit."""
        out = {"samples": len(self.samples), "valid": self.valid}
        out.update({s: sum(x.status == s for x in self.samples) for s in STATUSES})
        out["known_overfit"] = sum(s.known_overfit is not None for s in self.samples)
        out["known_overfit_overfit"] = sum(s.known_overfit == "overfit" for s in self.samples)
        return out

    def exit_code(self, *, allow_invalid: bool = False) -> int:
        """1 when any sample has a problem; with ``allow_invalid``, samples whose buggy code
        already passes are tolerated (every other problem still fails)."""
        tolerated = {"ok", "invalid"} if allow_invalid else {"ok"}
        return 0 if all(s.status in tolerated for s in self.samples) else 1


def check_one(sample: RepairSample, config: JudgeConfig) -> tuple[SampleHealth, str]:
    """Check one sample; reference fix, noop and overfit patch go through the real judge."""
    check = check_sample(sample, config)
    health = SampleHealth(
        sample_id=sample.id, defect_type=sample.defect_type, valid=check.valid, reference="-"
    )
    if not check.valid:
        health.flag(_invalid_status(check), f"invalid: {check.reason}")
        return health, check.tier
    ref = judge(sample, Answer(diff=sample.fix), check, config)
    health.reference = ref.verdict.value
    _reference_health(sample, ref, health)
    noop = judge(sample, Answer(diff=""), check, config)
    health.noop = noop.verdict.value
    if noop.verdict == Verdict.INFRA_ERROR:
        health.flag("infra-error", f"the unchanged buggy code: {noop.details}")
    elif noop.verdict in PASSING:
        # check_sample saw the buggy code fail the visible tests: passing now is flakiness
        health.flaky_tests = sorted(set(health.flaky_tests) | set(check.buggy_failing))
        health.flag(
            "flaky",
            f"the unchanged buggy code was judged {noop.verdict.value} after failing "
            f"{', '.join(check.buggy_failing[:5])} in the check (flaky)",
        )
    if sample.known_overfit:
        over = judge(sample, Answer(diff=sample.known_overfit), check, config)
        health.known_overfit = over.verdict.value
        if over.verdict != Verdict.OVERFIT:
            health.flag(
                "infra-error" if over.verdict == Verdict.INFRA_ERROR else "overfit-not-overfit",
                f"known_overfit judged {over.verdict.value}, not overfit",
            )
    return health, ref.tier or check.tier


def _invalid_status(check: SampleCheck) -> Status:
    if check.reason.startswith("infra-error"):
        return "infra-error"
    if check.reason.startswith(BUGGY_PASSES):
        return "invalid"
    return "reference-fails"  # does not apply, fails, or does not report the expected tests


def _reference_health(sample: RepairSample, ref: Judgement, health: SampleHealth) -> None:
    """The reference fix passed every test once in the check: any other verdict now, or a
    disagreeing rerun, is flakiness (or the sandbox failing)."""
    expected = Verdict.CORRECT if sample.tests.hidden else Verdict.PLAUSIBLE
    if ref.verdict == Verdict.INFRA_ERROR:
        health.flag("infra-error", f"reference fix: {ref.details}".strip())
    elif ref.verdict != expected or "flaky" in ref.flags:
        failing = {n for p in (ref.visible, ref.hidden) if p is not None for n in p.failing}
        health.flaky_tests = sorted(set(ref.flaky_tests) | failing)
        health.flag(
            "flaky",
            f"reference fix judged {ref.verdict.value} {ref.flags or ''} after passing in the "
            f"check: {ref.details}".strip(),
        )
    for flag in ref.flag_details:
        health.warnings.append(
            f"the reference fix is flagged {flag.name} ({flag.file}:{flag.line}: "
            f"{flag.explanation}); the same pattern in a candidate would be flagged too"
        )


def check_suite(
    suite: Suite,
    *,
    config: JudgeConfig | None = None,
    jobs: int = 2,
    progress: Progress | None = None,
) -> SuiteHealth:
    """Check every sample; reruns (at least 2) make an unstable reference fix show up as flaky.

    Test selection is off: the reference fix passes every test, so it would only add a run.
    """
    config = (config or JudgeConfig(reruns=2)).model_copy(update={"test_selection": False})
    results: dict[str, SampleHealth] = {}
    tier = ""
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for n, (health, t) in enumerate(
            pool.map(lambda s: check_one(s, config), suite.samples), start=1
        ):
            results[health.sample_id] = health
            tier = tier or t
            if progress:
                progress("checking suite", n, len(suite.samples))
    return SuiteHealth(
        suite=suite.name,
        version=suite.version,
        content_hash=suite.content_hash,
        samples=[results[s.id] for s in suite.samples],
        sandbox_tier=tier,
        checked_at=datetime.now(UTC).isoformat(timespec="seconds"),
        judge={"timeout_s": config.limits.timeout_s, "reruns": config.reruns},
    )


def health_markdown(health: SuiteHealth) -> str:
    """A short human-readable report: counts, then every sample with a problem and why."""
    c = health.counts
    lines = [
        f"# Health of suite `{health.suite}`" + (f" {health.version}" if health.version else ""),
        "",
        f"Checked {health.checked_at or 'at an unknown time'} in the `{health.sandbox_tier}` "
        f"sandbox (timeout {health.judge.get('timeout_s', '?')} s, "
        f"{health.judge.get('reruns', '?')} reruns); suite content hash "
        f"`{health.content_hash[:12]}`.",
        "",
        "| samples | valid | without problems | invalid | reference fails | flaky "
        "| known_overfit not overfit | infra errors |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {c['samples']} | {c['valid']} | {c['ok']} | {c['invalid']} | {c['reference-fails']} "
        f"| {c['flaky']} | {c['overfit-not-overfit']} | {c['infra-error']} |",
        "",
        "valid: the buggy code fails the visible tests and the reference fix passes every test "
        "(runs judge only these); invalid: the buggy code already passes the visible tests.",
        "",
        f"known_overfit patches judged overfit: {c['known_overfit_overfit']}/{c['known_overfit']}.",
    ]
    if health.problems:
        lines += [
            "",
            "## Samples with problems",
            "",
            "| sample | status | reason |",
            "|---|---|---|",
        ]
        for s in health.problems:
            why = "; ".join(s.problems)
            if s.flaky_tests:
                why += f" (tests: {', '.join(s.flaky_tests[:5])})"
            lines.append(f"| {s.sample_id} | {s.status} | {_cell(why)} |")
    warned = [s for s in health.samples if s.warnings]
    if warned:
        lines += ["", "## Warnings (not problems)", ""]
        lines += [f"- {s.sample_id}: {_cell(w)}" for s in warned for w in s.warnings]
    return "\n".join(lines) + "\n"


def _cell(text: str, limit: int = 300) -> str:
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def write_health(health: SuiteHealth, directory: Path) -> tuple[Path, Path]:
    """Write ``health.json`` and ``health.md`` into ``directory`` (created if needed)."""
    directory.mkdir(parents=True, exist_ok=True)
    json_path, md_path = directory / "health.json", directory / "health.md"
    json_path.write_text(health.model_dump_json(indent=2) + "\n", encoding="utf-8")
    md_path.write_text(health_markdown(health), encoding="utf-8")
    return json_path, md_path
