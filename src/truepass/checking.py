"""``check-suite``: is each sample sound? For every family: the sample's check (the one every run
makes, shared through the check cache), then the reference answer must pass and the null answer
must not (:meth:`truepass.families.base.Family.health`), each judged on the run's executor.

The result is a health report: one status per sample (:class:`~truepass.vocabulary.CheckStatus`)
with its reasons, and the counts, written as ``health.json`` and ``health.md`` (docs/cli.md).
"""

from __future__ import annotations

import secrets
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

from pydantic import BaseModel, Field, computed_field

from truepass.errors import SandboxError
from truepass.executors import ExecutorSpec, Job, open_executor, parse_executor
from truepass.families.registry import DEFAULT as DEFAULT_FAMILY
from truepass.judged import JudgeConfig, SampleHealth
from truepass.runner import Progress, Results, open_check_cache, sample_checks
from truepass.suites.suite import Suite
from truepass.vocabulary import CheckStatus

__all__ = ["SampleHealth", "SuiteHealth", "check_suite", "health_markdown", "write_health"]


class SuiteHealth(BaseModel):
    suite: str
    content_hash: str
    family: str = DEFAULT_FAMILY
    samples: list[SampleHealth]
    sandbox_tier: str
    version: str = ""
    setting: str | None = None
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
        out.update({s.value: sum(x.status is s for x in self.samples) for s in CheckStatus})
        out["known_overfit"] = sum(s.known_overfit is not None for s in self.samples)
        out["known_overfit_overfit"] = sum(s.known_overfit == "overfit" for s in self.samples)
        return out

    def exit_code(self, *, allow_invalid: bool = False) -> int:
        """1 when any sample has a problem; with ``allow_invalid``, samples whose buggy code
        already passes are tolerated (every other problem still fails)."""
        tolerated = {CheckStatus.OK, CheckStatus.INVALID} if allow_invalid else {CheckStatus.OK}
        return 0 if all(s.status in tolerated for s in self.samples) else 1


def check_suite(
    suite: Suite,
    *,
    config: JudgeConfig | None = None,
    jobs: int = 2,
    executor: str | ExecutorSpec = "local",
    check_cache: Path | bool = True,
    progress: Progress | None = None,
) -> SuiteHealth:
    """Check every sample of ``suite`` on ``executor`` (see :func:`truepass.runner.run` for
    ``executor`` and ``check_cache``); reruns (at least 2 by default) make an unstable reference
    answer show up as flaky.

    Test selection is off: the reference fix passes every test, so it would only add a run.
    """
    config = (config or JudgeConfig(reruns=2)).model_copy(update={"test_selection": False})
    spec = executor if isinstance(executor, ExecutorSpec) else parse_executor(executor)
    family = suite.family_type(workers=jobs)
    where = None
    cache = open_check_cache(check_cache, config)
    results: dict[str, SampleHealth] = {}
    try:
        where = open_executor(spec, family, secrets.token_hex(4), config)
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            checks = sample_checks(
                suite, suite.samples, None, config, pool, family, where, cache, progress
            )
            pending = Results()
            for s in suite.samples:
                job = Job("health", type(family), s, config, check=checks[s.id])
                pending.hand_off(pool, s.id, partial(where.submit, job, f"health/{s.id}"))
            ids = [s.id for s in suite.samples]
            for n, (sample_id, outcome) in enumerate(pending.take(ids), start=1):
                try:
                    health: SampleHealth = outcome.result()
                except SandboxError as exc:  # the executor lost the job
                    sample = suite.sample(str(sample_id))
                    health = SampleHealth(
                        sample_id=sample.id,  # type: ignore[attr-defined]
                        defect_type=family.category(sample),
                        valid=checks[sample.id].valid,  # type: ignore[attr-defined]
                        reference="-",
                    )
                    health.flag(CheckStatus.INFRA_ERROR, f"the sandbox failed: {exc}")
                results[health.sample_id] = health
                if progress:
                    progress("checking suite", n, len(ids))
    finally:
        if where is not None:
            where.close()
        if cache is not None:
            cache.close()
        family.close()
    return SuiteHealth(
        suite=suite.name,
        version=suite.version,
        content_hash=suite.content_hash,
        family=family.name,
        setting=suite.setting,
        samples=[results[s.id] for s in suite.samples],  # type: ignore[attr-defined]
        sandbox_tier=next((h.tier for h in results.values() if h.tier), ""),
        checked_at=datetime.now(UTC).isoformat(timespec="seconds"),
        judge={"timeout_s": config.limits.timeout_s, "reruns": config.reruns},
    )


def health_markdown(health: SuiteHealth) -> str:
    """A short human-readable report: counts, then every sample with a problem and why."""
    c = health.counts
    lines = [
        f"# Health of suite `{health.suite}`"
        + (f" {health.version}" if health.version else "")
        + (f" ({health.setting})" if health.setting else ""),
        "",
        f"Checked {health.checked_at or 'at an unknown time'} in the `{health.sandbox_tier}` "
        f"sandbox (timeout {health.judge.get('timeout_s', '?')} s, "
        f"{health.judge.get('reruns', '?')} reruns); suite content hash "
        f"`{health.content_hash[:12]}`.",
        "",
        "| samples | valid | without problems | invalid | reference fails | flaky "
        "| known_overfit not overfit | infra errors | environment |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {c['samples']} | {c['valid']} | {c['ok']} | {c['invalid']} | {c['reference-fails']} "
        f"| {c['flaky']} | {c['overfit-not-overfit']} | {c['infra-error']} "
        f"| {c['environment']} |",
        "",
        "valid: the sample's check passed, e.g. the buggy code fails the visible tests and the "
        "reference fix passes every test (runs judge only these); invalid: the unchanged code "
        "already passes what it should fail.",
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
