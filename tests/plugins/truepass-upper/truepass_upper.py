"""A truepass plug-in: the ``upper`` family (a sample is a prompt; the right answer is the prompt
upper-cased), its suite format ``upper:FILE`` (one prompt a line), the ``shout`` solver kind with
an option of its own, and the command ``truepass upper-count FILE``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from pydantic import BaseModel, ConfigDict, Field

from truepass.answers import Answer
from truepass.families.base import Family
from truepass.families.formats import SuiteFormat
from truepass.judged import JudgeConfig, Judged, SampleCheck
from truepass.plugins import Command
from truepass.solvers.base import SolveContext, Solver, SolverBase
from truepass.solvers.registry import SolverKind, SolverOptions
from truepass.vocabulary import AnswerKind, Verdict


class UpperSample(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    family: Literal["upper"] = "upper"
    id: str
    prompt: str
    leakage: Literal["public-old", "public-recent", "private"] = "private"


def read_prompts(path: Path) -> tuple[list[Any], bytes]:
    raw = path.read_bytes()
    lines = [ln.strip() for ln in raw.decode("utf-8").splitlines() if ln.strip()]
    return [UpperSample(id=f"p{i}", prompt=ln) for i, ln in enumerate(lines, 1)], raw


class UpperFamily(Family):
    name = "upper"
    sample_type = UpperSample
    answer_kinds = frozenset({AnswerKind.TEXT})

    @classmethod
    def suite_formats(cls) -> tuple[SuiteFormat, ...]:
        return (SuiteFormat("upper", read_prompts, "a text file, one prompt a line"),)

    def judge(
        self, sample: Any, answer: Answer | None, check: SampleCheck, config: JudgeConfig
    ) -> Judged:
        if answer is None or answer.text is None:
            return Judged(verdict=Verdict.NO_PATCH)
        right = answer.text == sample.prompt.upper()
        return Judged(verdict=Verdict.CORRECT if right else Verdict.FAILS_VISIBLE,
                      patch=answer.text)  # fmt: skip

    def reference_answer(self, sample: Any) -> Answer:
        return Answer(text=sample.prompt.upper())

    def null_answer(self, sample: Any) -> Answer | None:
        return Answer(text=sample.prompt)


class ShoutOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    shout_marks: int = Field(0, ge=0, description="Exclamation marks the shout adds.")


class ShoutSolver(SolverBase):
    families = frozenset({"upper"})

    def __init__(self, marks: int) -> None:
        self.name, self.marks = f"shout#{marks}", marks

    def solve(self, sample: Any, attempt: int, ctx: SolveContext) -> Answer | None:
        return Answer(text=sample.prompt.upper() + "!" * self.marks)


def _shout(spec: str, options: SolverOptions, known_ids: set[str] | None) -> list[Solver]:
    own = options.of(SHOUT)
    assert isinstance(own, ShoutOptions)
    return [ShoutSolver(own.shout_marks)]


SHOUT = SolverKind("shout", "shout", _shout, options=ShoutOptions, panel="Shouting")


def upper_count(path: Annotated[Path, typer.Argument(help="A prompts file.")]) -> None:
    """Count the prompts of an upper suite file."""
    samples, _ = read_prompts(path)
    typer.echo(f"{len(samples)} prompts")


COUNT = Command("upper-count", upper_count)
