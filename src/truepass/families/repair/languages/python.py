"""Python samples: pytest in the sandbox, warm where it can be (docs/sandbox.md)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

from truepass.families.repair.languages.base import Language, TestRunner

if TYPE_CHECKING:
    from truepass.families.repair.fakefix.change import Change
    from truepass.families.repair.fakefix.flags import Flag
    from truepass.families.repair.strategy import StrategyReader
    from truepass.metrics.quality import CodeMetrics


class Python(Language):
    name = "python"
    title = "Python"
    fence = "python"
    fence_aliases = ("py", "python3", "py3")
    code_suffix = ".py"
    comment_starts = ("#",)
    differential = True
    workflow = True
    style_quotes = True
    canaries = True

    def runner(self) -> TestRunner:
        return _runner()

    def agent_test_command(self, sample: Any) -> str:
        from truepass.families.repair.agent import python_test_command

        return python_test_command(sample)

    def template_candidates(self, sample: Any, loc: Any, per_op: int) -> Iterator[Any] | None:
        from truepass.families.repair.solvers.templates import python_candidates

        return python_candidates(sample, loc, per_op=per_op)

    def fake_fix_flags(self, change: Change) -> list[Flag]:
        from truepass.families.repair.fakefix.python import detect

        return detect(change)

    def code_metrics(self) -> CodeMetrics:
        from truepass.metrics.quality import PYTHON

        return PYTHON

    def syntax_labels(self, source: str) -> list[tuple[int, str]] | None:
        from truepass.families.repair.similarity import python_labels

        return python_labels(source)

    def strategy_reader(self) -> StrategyReader | None:
        from truepass.families.repair.strategy import (
            PY_GUARDS,
            PY_OPERATORS,
            PY_TRIES,
            StrategyReader,
            python_marked,
        )

        return StrategyReader(python_marked, (PY_OPERATORS, PY_TRIES, PY_GUARDS))

    def defined_names(self, text: str) -> set[str]:
        from truepass.families.repair import pysplice

        return pysplice.names(text)

    def merge_block(self, path: str, current: str, body: str, named: bool) -> tuple[str, str]:
        from truepass.families.repair import pysplice

        return pysplice.merge(current, body, named)


@cache
def _runner() -> TestRunner:
    from truepass.families.repair.runners import PytestRunner

    return PytestRunner()


LANGUAGE = Python()
