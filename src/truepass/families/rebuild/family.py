"""The rebuild family: rebuild a program from its executable and its documentation
(docs/rebuild-format.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from truepass.answers import Answer
from truepass.families.base import AnswerKey, Family, interval
from truepass.families.rebuild.evidence import RebuildEvidence
from truepass.families.rebuild.schema import RebuildSample
from truepass.families.rebuild.submission import LANGUAGES
from truepass.judged import FlagDetail, JudgeConfig, Judged, SampleCheck, SampleHealth
from truepass.records import is_correct
from truepass.vocabulary import AnswerKind, CheckStatus, Verdict

if TYPE_CHECKING:
    from truepass.agentic.task import AgentTask
    from truepass.families.rebuild.scoring import Attempt
    from truepass.records import AttemptRecord

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

    @classmethod
    def transforms(cls) -> dict[str, Callable[[Any], Any]]:
        """``language-NAME`` for every language a submission can be recognised in (forced-
        language mode: ``--transform language-rust``): each task then requires that language,
        says so to the agent, and a submission in another one scores zero (``wrong-language``)."""
        from truepass.families.rebuild.forced import force_language

        return {
            f"language-{name.casefold()}": (lambda suite, name=name: force_language(suite, name))
            for name in sorted(set(LANGUAGES.values()))
        }

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
        evidence = RebuildEvidence.on(judged)
        evidence.gold_language = sample.language
        if sample.required_language and evidence.submission is not None:
            _check_language(judged, evidence.submission.language, sample.required_language)
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

        # the task's name for it: a gold may lie under another (fdfind is /usr/lib/cargo/bin/fd)
        gold = resolve_gold(sample.gold).model_copy(update={"program": sample.program})
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
        """The benchmark's scores (:mod:`truepass.families.rebuild.scoring`): per task pass rate
        (with its interval over tasks), % resolved (every test passes) and % almost (at least
        95%), infra errors counted as failures and reported apart, the rates per difficulty
        bucket, the structure of solutions passing at least 75% beside the originals', and the
        language mix with the same-language rate."""
        from truepass.families.rebuild.scoring import scores, task_rates

        attempts = [_attempt(r) for r in records if r.verdict is not Verdict.INVALID_SAMPLE]
        out = scores(attempts)
        if out:
            out.update(interval("pass_rate", task_rates(attempts, "pass_rate")))
        return out


def _attempt(record: AttemptRecord) -> Attempt:
    """What the scoring needs of one record."""
    from truepass.families.rebuild.scoring import Attempt

    evidence = RebuildEvidence.of(record)
    prefix = "original_"
    return Attempt(
        task=record.sample_id,
        pass_rate=float(record.scores.get("pass_rate", 0.0)),
        resolved=is_correct(record),
        infra=record.verdict is Verdict.INFRA_ERROR,
        bucket=record.defect_type or "easy",
        submission=evidence.submission,
        original={k[len(prefix) :]: v for k, v in record.scores.items() if k.startswith(prefix)},
        gold_language=evidence.gold_language or "c",
    )


def _check_language(judged: Judged, submitted: str, required: str) -> None:
    """Forced-language mode: a submission mainly in another language than the task requires
    scores zero, flagged ``wrong-language``."""
    from truepass.families.rebuild.scoring import same_language

    if same_language(submitted, required):
        return
    why = f"the submission is mainly {submitted}; the task requires {required}"
    judged.flags = sorted({*judged.flags, "wrong-language"})
    judged.flag_details = [*judged.flag_details, FlagDetail(name="wrong-language", explanation=why)]
    judged.scores = {**judged.scores, "pass_rate": 0.0}
    judged.details = f"{judged.details}; scores zero: {why}"


FAMILY = RebuildFamily
