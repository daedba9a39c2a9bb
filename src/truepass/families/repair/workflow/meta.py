"""What a workflow attempt records (``solver_meta.workflow`` and ``solver_meta.candidates``):
typed, one model per stage (docs/workflow.md)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from truepass.metrics.localisation import Localisation


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Suspect(_Model):
    """One line of the stage-1 ranking: how suspicious it is and why."""

    file: str
    line: int
    score: float = Field(description="the SBFL (Ochiai) score plus the stack-trace boost")
    sbfl: float = Field(description="the Ochiai score over the visible tests' coverage")
    in_trace: bool = Field(description="a failing test's stack trace passes through the line")
    function: str | None = Field(None, description="the function holding it")
    code: str = Field("", description="the line's text, stripped")


class Frame(_Model):
    """A stack-trace frame of a failing visible test in the code under test."""

    file: str
    line: int
    what: str = Field("", description="pytest's note: the exception, or 'in FUNCTION'")
    report: int = Field(description="which failure report (0-based, by test id) it is in")


class LocalisationStage(_Model):
    """Stage 1: the visible tests run once on the buggy code, with per-test coverage."""

    failing: list[str]
    exceptions: list[str] = Field(description="built-in exceptions the failures raised")
    frames: list[Frame]
    suspects: list[Suspect] = Field(description="the top of the ranking, most suspicious first")
    ranked: int = Field(description="lines in the whole ranking")
    fallback: str = Field("", description="why SBFL fell back to every line in file order")


class Finding(_Model):
    """A static-analysis finding near the suspect lines."""

    tool: str
    rule: str
    file: str
    line: int
    message: str


class StaticStage(_Model):
    """Stage 2: static analysis of the suspect files, kept near the suspect lines."""

    tools: list[str] = Field(description="the analysers that ran")
    skipped: str = Field("", description="why no analyser ran ('' when one did)")
    findings: list[Finding]
    all_findings: int = Field(description="findings in the suspect files before filtering")


class Candidate(_Model):
    """One candidate patch of stage 3 and what stage 4 found of it.

    Its ``id`` and ``diff`` are what the judge's candidate hook reads
    (:func:`truepass.families.repair.workflow.judging.judge_candidates`)."""

    id: str = Field(description="c1, c2, ... in the order they were asked for")
    seed: int | None
    parse_kind: str
    parse_detail: str
    diff: str | None = Field(description="the parsed patch (None: nothing could be parsed)")
    duplicate_of: str | None = Field(None, description="an earlier candidate with the same diff")
    votes: int = Field(1, description="candidates that gave this same diff (itself included)")
    applies: bool | None = None
    compiles: bool | None = None
    error: str = Field("", description="why it does not apply or compile")
    changed: list[str] = Field(default_factory=list, description="code files it changes")
    test_edits: list[str] = Field(default_factory=list, description="test files it edits")
    flags: list[str] = Field(
        default_factory=list, description="fake-fix flags of the static detectors (visible tests)"
    )
    diff_lines: int = Field(0, description="lines the patch adds and removes")
    visible: bool | None = Field(None, description="passes every visible test (None: not run)")
    agreement: float | None = Field(
        None, description="share of the other passing candidates it agrees with on fuzzed inputs"
    )


class FuzzStage(_Model):
    """Inputs the solver wrote itself: the changed functions called on inputs grown from the
    visible tests' calls, in the sandbox, on every passing candidate."""

    targets: list[str] = Field(description="module.function fuzzed")
    inputs: int = Field(description="inputs in all")
    skipped: str = Field("", description="why there was no fuzzing ('' when there was)")


class SelectionReason(StrEnum):
    """What decided the selected candidate over the best one not tied with it."""

    ONLY_PASSING = "only-passing"
    """the only candidate passing the visible tests"""
    UNFLAGGED = "unflagged"
    """no fake-fix flag, unlike the next"""
    AGREEMENT = "agreement"
    """agrees more with the other passing candidates on fuzzed inputs"""
    VOTES = "votes"
    """more candidates gave the same diff"""
    SMALLEST = "smallest-diff"
    """the smallest diff"""
    FIRST = "first"
    """tied with every other passing candidate: the first asked for"""
    NONE_PASSING = "none-passing"
    """no candidate passes the visible tests: the first that compiles"""
    NONE_COMPILING = "none-compiling"
    """no candidate compiles without editing the tests: the first that was parsed"""
    NOTHING = "nothing-parsed"
    """no answer held a patch"""


class Selection(_Model):
    """Stage 4's choice."""

    selected: str | None
    reason: SelectionReason
    detail: str
    ranking: list[str] = Field(description="the passing candidates, best first")


class Counts(_Model):
    """How many candidates each stage kept."""

    generated: int
    parsed: int
    distinct: int
    compiled: int
    passing_visible: int


class GuessHits(_Model):
    """Stage 1's guess scored against the suite's fault lines (after solving; never shown to
    the model): hit@file/function/line of its top line and of its top five, and the rank of the
    first fault line in the whole ranking."""

    top1: Localisation | None
    top5: Localisation | None
    fault_rank: int | None = Field(description="1-based; None when no fault line is ranked")


class WorkflowMeta(_Model):
    """``solver_meta.workflow``: every stage of one attempt."""

    candidates_asked: int
    temperature: float = Field(description="the candidates' sampling temperature")
    localisation: LocalisationStage
    static: StaticStage
    counts: Counts
    fuzz: FuzzStage
    selection: Selection
    explanation: str | None = Field(description="stage 5: the root cause and why the fix works")
    stage1: GuessHits
    seconds: dict[str, float] = Field(description="wall time of each stage")


def read_workflow(meta: Mapping[str, object]) -> tuple[WorkflowMeta, list[Candidate]]:
    """The typed stages and candidates an attempt's ``solver_meta`` holds."""
    raw = meta.get("candidates")
    items = raw if isinstance(raw, list) else []
    return WorkflowMeta.model_validate(meta["workflow"]), [
        Candidate.model_validate(c) for c in items
    ]
