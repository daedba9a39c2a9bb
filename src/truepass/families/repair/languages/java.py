"""Java samples: javac and JUnit 4 in the sandbox's JVM (``javarun``), tree-sitter-java for what
reads the code (fake-fix detectors, the template baseline's operators, method splicing)."""

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

JAVA_MAX_CANDIDATES = 100  # candidates baseline:templates validates per sample
JAVA_TIME_BUDGET_S = 180.0  # seconds of its search per sample: each validation starts a JVM
JAVA_MIN_TIMEOUT_S = 6.0  # floor of a candidate run's timeout


class Java(Language):
    name = "java"
    title = "Java"
    fence = "java"
    code_suffix = ".java"
    comment_starts = ("//", "/*", "*")
    agent_address_space = False  # a JVM reserves far more address space than it uses
    template_caps = (JAVA_MAX_CANDIDATES, JAVA_TIME_BUDGET_S)
    min_timeout_s = JAVA_MIN_TIMEOUT_S
    canaries = True

    def runner(self) -> TestRunner:
        return _runner()

    def validate(self, sample: Any) -> None:
        if sample.test_command is not None:
            raise ValueError(
                "'test_command' is for Python samples; a Java sample's tests are the JUnit 4 "
                "classes of its test files (docs/suite-format.md, Java samples)"
            )
        if not any(p.endswith(".java") for p in sample.tests.visible):
            raise ValueError("a Java sample needs a JUnit test class (.java) in tests.visible")

    def agent_test_command(self, sample: Any) -> str:
        from truepass.families.repair.agent import java_test_command

        return java_test_command(sample)

    def template_candidates(self, sample: Any, loc: Any, per_op: int) -> Iterator[Any] | None:
        from truepass.families.repair.solvers.java_templates import java_candidates

        return java_candidates(sample, loc, per_op=per_op)

    def fake_fix_flags(self, change: Change) -> list[Flag]:
        from truepass.families.repair.fakefix.java import detect

        return detect(change)

    def code_metrics(self) -> CodeMetrics:
        from truepass.families.repair.javametrics import JAVA

        return JAVA

    def syntax_labels(self, source: str) -> list[tuple[int, str]] | None:
        from truepass.families.repair.similarity import java_labels

        return java_labels(source)

    def strategy_reader(self) -> StrategyReader | None:
        from truepass.families.repair.strategy import (
            JAVA_GUARDS,
            JAVA_OPERATORS,
            JAVA_TRIES,
            StrategyReader,
            java_marked,
        )

        return StrategyReader(java_marked, (JAVA_OPERATORS, JAVA_TRIES, JAVA_GUARDS))

    def defined_names(self, text: str) -> set[str]:
        from truepass.families.repair import javasplice

        return javasplice.names(text)

    def merge_block(self, path: str, current: str, body: str, named: bool) -> tuple[str, str]:
        from truepass.families.repair import javasplice

        return javasplice.merge(path, current, body, named)


@cache
def _runner() -> TestRunner:
    from truepass.families.repair.javarun import JUnitRunner

    return JUnitRunner()


LANGUAGE = Java()
