"""The rebuild family: rebuild a program from its executable and its documentation
(docs/rebuild-format.md)."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from truepass.answers import Answer
from truepass.families.base import AnswerKey, Family, interval
from truepass.families.rebuild.evidence import RebuildEvidence
from truepass.families.rebuild.schema import RebuildSample
from truepass.judged import JudgeConfig, Judged, SampleCheck, SampleHealth
from truepass.records import is_correct
from truepass.vocabulary import AnswerKind, CheckStatus, Verdict, counted

if TYPE_CHECKING:
    from truepass.agentic.task import AgentTask
    from truepass.records import AttemptRecord

ALMOST = 0.95
BUCKETS = ("easy", "medium", "hard")
STRUCTURE = ("files", "depth", "functions", "mean_function_length")

NOOP_SCRIPT = """#!/bin/sh
# the null answer: a program that prints nothing and exits 0
printf '#!/bin/sh\\nexit 0\\n' > {program}
chmod +x {program}
"""


class RebuildFamily(Family):
    """Submissions (a source tree with ``compile.sh``) built and tested in the sandbox."""

    name = "rebuild"
    sample_type = RebuildSample
    evidence_type = RebuildEvidence
    answer_kinds = frozenset({AnswerKind.FILES})
    main_metrics = ("pass_rate", "resolved", "almost")

    def check(self, sample: Any, config: JudgeConfig) -> SampleCheck:
        from truepass.families.rebuild.gold import gold_problem

        problem = gold_problem(sample)
        if problem is None:
            return SampleCheck(sample_id=sample.id, valid=True)
        return SampleCheck(
            sample_id=sample.id, valid=False, status=CheckStatus.INVALID, reason=problem
        )

    def judge(
        self, sample: Any, answer: Answer | None, check: SampleCheck, config: JudgeConfig
    ) -> Judged:
        from truepass.families.rebuild.judge import judge_rebuild

        judged = judge_rebuild(sample, answer, check, config)
        if sample.original is not None:
            for key, value in sample.original.model_dump().items():
                judged.scores[f"original_{key}"] = float(value)
        return judged

    def reference_problem(self, reference: Judged) -> str | None:
        """The original must pass every test, unflagged (a flag would be a false alarm of the
        anti-cheat checks)."""
        if reference.verdict is Verdict.CORRECT and not reference.flags:
            return None
        flags = f" {reference.flags}" if reference.flags else ""
        return (
            f"the original source was judged {reference.verdict.value}{flags}: {reference.details}"
        )

    def more_health(
        self,
        sample: Any,
        check: SampleCheck,
        config: JudgeConfig,
        reference: Judged,
        health: SampleHealth,
    ) -> None:
        """The assertion linter over the task's tests (given or generated): a test it flags
        that the task does not ignore is reported, with the rule to ignore it by."""
        from truepass.families.rebuild.lint import flagged_tests, lint_files

        for path, source in sorted(sample.tests.items()):
            for name, reason in sorted(flagged_tests(lint_files({path: source})).items()):
                test_id = f"{path}::{name}"
                if test_id not in sample.ignore:
                    health.warnings.append(
                        f"{test_id}: the assertion linter flags it ({reason}); fix it, or add "
                        f'"{test_id}": "{reason}" to the task\'s ignore'
                    )

    def reference_answer(self, sample: Any) -> Answer:
        """The original source package, built by its own build system (``oracle``)."""
        from truepass.families.rebuild.sources import compile_script, fetch_source, resolve_gold
        from truepass.families.rebuild.submission import SOURCE_DIR

        gold = resolve_gold(sample.gold)
        tree = fetch_source(gold)
        return Answer(files={"compile.sh": compile_script(gold)}, meta={SOURCE_DIR: str(tree)})

    def null_answer(self, sample: Any) -> Answer | None:
        """A program that prints nothing and exits 0 (``noop``): it must score zero."""
        return Answer(files={"compile.sh": NOOP_SCRIPT.format(program=sample.program)})

    def answer_key(self, sample: Any) -> AnswerKey:
        """Nothing: the agent's workspace holds only what it may see (the execute-only program
        and its documentation); the hidden tests never enter it."""
        return AnswerKey()

    def agent_task(self, sample: Any) -> AgentTask | None:
        from truepass.families.rebuild.agent import rebuild_agent_task

        return rebuild_agent_task(sample)

    def category(self, sample: Any) -> str:
        return str(sample.bucket)

    def metrics(self, records: list[AttemptRecord]) -> dict[str, float]:
        """Pass rate (mean, with its interval), % resolved (every test passes), % almost (at
        least 95% pass), the pass rate per difficulty bucket, the languages chosen, and the mean
        structure of the submissions beside the originals'."""
        rows = [r for r in records if counted(r.verdict)]
        if not rows:
            return {}
        rates = [float(r.scores.get("pass_rate", 0.0)) for r in rows]
        out: dict[str, float] = {
            "pass_rate": round(sum(rates) / len(rates), 4),
            **interval("pass_rate", rates),
            "resolved": round(sum(is_correct(r) for r in rows) / len(rows), 4),
            "almost": round(sum(rate >= ALMOST for rate in rates) / len(rows), 4),
        }
        by_bucket: dict[str, list[float]] = defaultdict(list)
        for r, rate in zip(rows, rates, strict=True):
            by_bucket[r.defect_type].append(rate)
        for bucket in BUCKETS:
            if by_bucket.get(bucket):
                values = by_bucket[bucket]
                out[f"pass_rate_{bucket}"] = round(sum(values) / len(values), 4)
        built = [s for r in rows if (s := RebuildEvidence.of(r).submission) is not None]
        for language in sorted({s.language for s in built}):
            share = sum(s.language == language for s in built) / len(built)
            out[f"language_{language}"] = round(share, 4)
        for key in STRUCTURE:
            if built:
                out[f"submission_{key}"] = round(
                    sum(float(getattr(s, key)) for s in built) / len(built), 2
                )
            originals = [r.scores[f"original_{key}"] for r in rows if f"original_{key}" in r.scores]
            if originals:
                out[f"original_{key}"] = round(sum(originals) / len(originals), 2)
        return out


FAMILY = RebuildFamily
