"""``check-suite``: is each sample sound? Buggy fails, reference passes stably, overfit overfits."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from pydantic import BaseModel, Field

from truepass.judges.repair import JudgeConfig, Verdict, check_sample, judge
from truepass.patches.apply import Answer
from truepass.runner import Progress
from truepass.suites.loader import Suite
from truepass.suites.schema import RepairSample


class SampleHealth(BaseModel):
    sample_id: str
    defect_type: str
    valid: bool
    reference: str = Field(description="verdict of the reference fix")
    known_overfit: str | None = Field(None, description="verdict of the known_overfit patch")
    problems: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(
        default_factory=list,
        description="fake-fix flags on the reference fix: detector false alarms, not suite faults",
    )


class SuiteHealth(BaseModel):
    suite: str
    content_hash: str
    samples: list[SampleHealth]
    sandbox_tier: str

    @property
    def valid(self) -> int:
        return sum(s.valid for s in self.samples)

    @property
    def problems(self) -> list[SampleHealth]:
        return [s for s in self.samples if s.problems]


def check_one(sample: RepairSample, config: JudgeConfig) -> tuple[SampleHealth, str]:
    """Check one sample; reference fix and overfit patch go through the real judge."""
    check = check_sample(sample, config)
    health = SampleHealth(
        sample_id=sample.id, defect_type=sample.defect_type, valid=check.valid, reference="-"
    )
    if not check.valid:
        health.problems.append(f"invalid: {check.reason}")
        return health, check.tier
    ref = judge(sample, Answer(diff=sample.fix), check, config)
    health.reference = ref.verdict.value
    expected = Verdict.CORRECT if sample.tests.hidden else Verdict.PLAUSIBLE
    if ref.verdict != expected or "flaky" in ref.flags:
        health.problems.append(
            f"reference fix judged {ref.verdict.value} {ref.flags or ''}: {ref.details}".strip()
        )
    for flag in ref.flag_details:
        health.warnings.append(
            f"the reference fix is flagged {flag.name} ({flag.file}:{flag.line}: "
            f"{flag.explanation}); the same pattern in a candidate would be flagged too"
        )
    if sample.known_overfit:
        over = judge(sample, Answer(diff=sample.known_overfit), check, config)
        health.known_overfit = over.verdict.value
        if over.verdict != Verdict.OVERFIT:
            health.problems.append(f"known_overfit judged {over.verdict.value}, not overfit")
    return health, ref.tier or check.tier


def check_suite(
    suite: Suite,
    *,
    config: JudgeConfig | None = None,
    jobs: int = 2,
    progress: Progress | None = None,
) -> SuiteHealth:
    """Check every sample; reruns (at least 2) make an unstable reference fix show up as flaky."""
    config = config or JudgeConfig(reruns=2)
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
        content_hash=suite.content_hash,
        samples=[results[s.id] for s in suite.samples],
        sandbox_tier=tier,
    )
