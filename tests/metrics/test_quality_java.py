"""Quality deltas, localisation and the named root cause of a Java patch, with Java's code
metrics (lizard: complexity and method spans)."""

from __future__ import annotations

import textwrap

from truepass.families.repair.javametrics import JAVA
from truepass.metrics.localisation import localisation
from truepass.metrics.quality import function_spans, quality_delta
from truepass.metrics.root_cause import named_cause
from truepass.patches.apply import unified_diff

PATH = "src/main/java/calc/Calculator.java"
BUGGY = textwrap.dedent(
    """\
    package calc;

    public class Calculator {
        public int divide(int a, int b) {
            return a / b;
        }

        public int average(int[] values) {
            int sum = 0;
            for (int i = 1; i < values.length; i++) {
                sum += values[i];
            }
            return sum / values.length;
        }
    }
    """
)


def test_java_function_spans() -> None:
    assert JAVA.function_spans(BUGGY) == [
        ("Calculator.divide", 4, 6),
        ("Calculator.average", 8, 14),
    ]
    assert function_spans(BUGGY) == []  # not Python


def test_complexity_rises_when_a_patch_adds_branches() -> None:
    fixed = BUGGY.replace("int i = 1", "int i = 0").replace(
        "        return a / b;\n",
        '        if (b == 0) {\n            throw new ArithmeticException("b");\n        }\n'
        "        return a / b;\n",
    )
    diff = unified_diff({PATH: BUGGY}, {PATH: fixed})
    q = quality_delta({PATH: BUGGY}, {PATH: fixed}, diff, {PATH: {10}}, JAVA)
    assert (q.lines_added, q.lines_removed, q.files_touched) == (4, 1, 1)
    assert q.complexity_before == 3  # divide 1, average 2 (the loop)
    assert q.complexity_after == 4  # the new if
    assert q.new_lint is None  # no linter for Java
    assert q.inside_fault_function is False  # the fault is in average, the guard in divide


def test_one_token_java_fix_keeps_complexity_and_hits_the_fault() -> None:
    fixed = BUGGY.replace("int i = 1", "int i = 0")
    diff = unified_diff({PATH: BUGGY}, {PATH: fixed})
    q = quality_delta({PATH: BUGGY}, {PATH: fixed}, diff, {PATH: {10}}, JAVA)
    assert q.complexity_before == q.complexity_after == 3
    assert q.inside_fault_function is True
    loc = localisation({PATH: BUGGY}, diff, {PATH: {11}}, JAVA)
    assert loc and loc.hit_file and loc.hit_function and not loc.hit_line
    elsewhere = unified_diff({PATH: BUGGY}, {PATH: BUGGY.replace("a / b", "a / b + 0")})
    loc = localisation({PATH: BUGGY}, elsewhere, {PATH: {11}}, JAVA)
    assert loc and loc.hit_file and not loc.hit_function


def test_a_java_root_cause_names_its_method() -> None:
    said = f"Root cause: {PATH} | Calculator.average | for (int i = 1; i < values.length; i++) {{"
    got = named_cause(said, {PATH: BUGGY}, {PATH: {10}}, JAVA)
    assert got is not None and got.hit_file and got.hit_function and got.hit_line
    assert named_cause(said, {PATH: BUGGY}, {PATH: {10}}) is not None
    python_read = named_cause(said, {PATH: BUGGY}, {PATH: {10}})
    assert python_read is not None and not python_read.hit_function  # Python reads no method
