"""``baseline:templates`` on Java samples: the tree-sitter mutation operators and statement
templates on small programs written here, and the search through the real sandbox."""

from __future__ import annotations

import os
import shutil
import textwrap

import pytest

from truepass.families.repair.checks import RepairCheck
from truepass.families.repair.family import RepairFamily
from truepass.families.repair.judge import check_sample, judge
from truepass.families.repair.languages.java import JAVA_MIN_TIMEOUT_S, JAVA_TIME_BUDGET_S
from truepass.families.repair.schema import RepairSample
from truepass.families.repair.solvers import templates
from truepass.families.repair.solvers.java_mutations import (
    JAVA_OPERATORS,
    JavaMutant,
    JavaSource,
    render,
)
from truepass.families.repair.solvers.java_templates import java_sources, line_mutants
from truepass.families.repair.solvers.sbfl import Localisation, SuspiciousLine, all_lines
from truepass.families.repair.solvers.templates import TemplateSolver, candidates
from truepass.judged import JudgeConfig
from truepass.patches.apply import unified_diff
from truepass.sandbox import Limits
from truepass.solvers.base import SolveContext

CODE = "src/demo/Calc.java"
TEST = "src/test/demo/CalcTest.java"


def java(body: str) -> str:
    """``src/demo/Calc.java`` with ``body`` as the members of class Calc (line 4 is the body's
    first line)."""
    inner = textwrap.indent(textwrap.dedent(body).strip("\n"), "    ")
    return f"package demo;\n\npublic class Calc {{\n{inner}\n}}\n"


def changed(code: str, line: int, op: str | None = None) -> list[str]:
    """The changed lines of each parsing mutant of ``line`` (of one operator, or all), stripped
    and joined by `` / ``."""
    src = JavaSource(CODE, code)
    before = code.splitlines()
    out = []
    for m in line_mutants(src, line, per_op=50):
        text = render(src, m)
        if text is None or (op is not None and m.operator != op):
            continue
        after = text.splitlines()
        head = 0
        while head < min(len(before), len(after)) and before[head] == after[head]:
            head += 1
        tail = 0
        while tail < min(len(before), len(after)) - head and before[-1 - tail] == after[-1 - tail]:
            tail += 1
        out.append(" / ".join(ln.strip() for ln in after[head : len(after) - tail]))
    return out


WRONG_OPERATOR = java(
    """\
    static int add(int a, int b) {
        return a - b;
    }
    """
)
OFF_BY_ONE = java(
    """\
    static int total(int[] xs) {
        int s = 0;
        for (int i = 0; i < xs.length - 1; i++) {
            s += xs[i];
        }
        return s;
    }
    """
)
NULL_CHECK = java(
    """\
    static int size(String s) {
        int n = s.length();
        return n;
    }
    """
)


# --- operators -------------------------------------------------------------------------------


def test_wrong_operator_mutants_include_the_fix() -> None:
    assert changed(WRONG_OPERATOR, 5, "arith") == ["return a + b;"]
    assert "return b - a;" not in changed(WRONG_OPERATOR, 5)  # no such operator


def test_off_by_one_mutants_include_the_fix_and_rank_comparison_first() -> None:
    mutants = changed(OFF_BY_ONE, 6)
    assert "for (int i = 0; i < xs.length; i++) {" in changed(OFF_BY_ONE, 6, "off-by-one")
    assert "for (int i = 0; i <= xs.length - 1; i++) {" in changed(OFF_BY_ONE, 6, "compare")
    assert mutants[0] == "for (int i = 0; i <= xs.length - 1; i++) {"  # compare comes first
    assert "s += xs[i + 1];" in changed(OFF_BY_ONE, 7, "off-by-one")
    assert "s -= xs[i];" in changed(OFF_BY_ONE, 7, "arith")


def test_missing_null_check_gets_a_guard_with_the_methods_defaults() -> None:
    guards = changed(NULL_CHECK, 5, "null-guard")
    assert guards[0] == "if (s == null) { / return 0; / }"
    assert "if (s == null || s.isEmpty()) { / return 0; / }" in guards
    code = NULL_CHECK.replace("int n = s.length();", "int n = s.length();\n        return -1;")
    assert changed(code, 5, "null-guard")[0] == "if (s == null) { / return -1; / }"
    loop = java(
        """\
        static void walk(Node head) {
            for (Node n = head; n.next != null; n = n.next) {
                head.count++;
            }
        }
        """
    )
    # only what is declared before the loop: never ``n``, declared in the loop's header
    assert changed(loop, 5, "null-guard") == ["if (head == null) { / return; / }"]
    assert changed(loop, 6, "null-guard")[:2] == [
        "if (head == null) { / return; / }", "if (head == null) { / continue; / }",
    ]  # fmt: skip


def test_relational_boolean_negation_and_call_swaps() -> None:
    code = java(
        """\
        static boolean f(int a, int b, boolean p, String s) {
            if (a < b && p) {
                return s != null || Math.max(a, b) > 3;
            }
            return !p;
        }
        """
    )
    assert changed(code, 5, "compare") == [
        "if (a <= b && p) {", "if (a > b && p) {", "if (a >= b && p) {", "if (a == b && p) {",
        "if (a != b && p) {",
    ]  # fmt: skip
    assert changed(code, 5, "bool") == ["if (a < b || p) {"]
    assert changed(code, 5, "negate") == ["if (!(a < b && p)) {"]
    # a reference compared with null: only == / !=, never an ordering that cannot compile
    assert "return s == null || Math.max(a, b) > 3;" in changed(code, 6, "compare")
    assert not any("s <= null" in m or "s >= null" in m for m in changed(code, 6, "compare"))
    assert changed(code, 6, "call-swap") == ["return s != null || Math.min(a, b) > 3;"]
    assert changed(code, 8, "negate") == ["return p;"]
    assert changed(code, 8, "return-swap") == ["return s != null || Math.max(a, b) > 3;"]


def test_variable_and_argument_swaps_keep_to_the_same_type() -> None:
    code = java(
        """\
        static int gcd(int a, int b) {
            String name = "x";
            long big = 3L;
            return b == 0 ? a : gcd(a % b, b);
        }
        """
    )
    swaps = changed(code, 7, "var-swap")
    assert "return b == 0 ? b : gcd(a % b, b);" in swaps
    assert not any("name" in m or "big" in m for m in swaps)  # other types are never swapped in
    assert changed(code, 7, "arg-swap") == ["return b == 0 ? a : gcd(b, a % b);"]


def test_off_by_one_on_literals_and_plus_minus_one() -> None:
    code = java(
        """\
        static int f(int n) {
            int k = 1 + g(n - 1);
            return -1;
        }
        """
    )
    shifts = changed(code, 5, "off-by-one")
    assert {"int k = g(n - 1);", "int k = 1 + g(n);", "int k = 1 + g(n - 2);"} <= set(shifts)
    assert changed(code, 6, "off-by-one") == ["return 0;", "return -2;"]


def test_statement_swap_removal_and_string_concatenation_is_not_arithmetic() -> None:
    code = java(
        """\
        static String f(String s, int n) {
            s = s + "!";
            n = n * 2;
            return s + n;
        }
        """
    )
    assert changed(code, 5, "arith") == []
    assert changed(code, 5, "swap-stmts") == ['n = n * 2; / s = s + "!";']
    assert changed(code, 5, "remove") == [""]
    assert changed(code, 7, "remove") == []  # the method's last return stays
    assert changed(code, 7, "swap-stmts") == []  # a jump never moves


# --- parsing ---------------------------------------------------------------------------------


def test_mutants_that_do_not_parse_are_dropped() -> None:
    src = JavaSource(CODE, WRONG_OPERATOR)
    at = WRONG_OPERATOR.encode().index(b"a - b")
    broken = JavaMutant(CODE, 5, "arith", ((at, at + 5, "a +"),))
    assert render(src, broken) is None
    same = JavaMutant(CODE, 5, "arith", ((at, at + 5, "a - b"),))
    assert render(src, same) is None  # changes nothing
    ok = JavaMutant(CODE, 5, "arith", ((at, at + 5, "a + b"),))
    assert render(src, ok) == WRONG_OPERATOR.replace("a - b", "a + b")


def test_every_candidate_parses_and_broken_files_are_skipped() -> None:
    sample = _sample({CODE: OFF_BY_ONE, "src/demo/Broken.java": "class Broken { int f( }\n"})
    assert list(java_sources(sample)) == [CODE]
    lines = all_lines(sample.files, "java")
    loc = Localisation("sbfl", lines)
    seen = set()
    for cand in candidates(sample, loc):
        assert isinstance(cand.mutant, JavaMutant) and cand.mutant.operator in JAVA_OPERATORS
        assert JavaSource(CODE, cand.files[CODE]).root is not None
        assert cand.files[CODE] not in seen
        seen.add(cand.files[CODE])
    assert len(seen) > 20


def test_candidates_follow_tier_then_operator_priority_then_rank() -> None:
    sample = _sample({CODE: OFF_BY_ONE})
    loc = Localisation("sbfl", [SuspiciousLine(CODE, 7, 0.9), SuspiciousLine(CODE, 6, 0.9)])
    ops = [(c.mutant.operator, c.rank) for c in candidates(sample, loc)]
    priorities = [JAVA_OPERATORS.index(op) for op, _ in ops]
    assert priorities == sorted(priorities)
    assert ops[0] == ("compare", 2)  # line 6 (rank 2) has the only comparison
    assert ("off-by-one", 1) in ops


def test_all_lines_of_java_files_skip_comments() -> None:
    files = {"A.java": "// c\n/* d\n * e\n */\nclass A {\n\n}\n", "m.py": "x = 1\n"}
    assert [(s.file, s.line) for s in all_lines(files, "java")] == [("A.java", 5), ("A.java", 7)]
    assert [s.file for s in all_lines(files)] == ["m.py"]


def test_java_search_has_its_own_caps_and_timeout_floor(monkeypatch: pytest.MonkeyPatch) -> None:
    """Validation (mocked here) runs at most the Java cap's candidates, each with a
    timeout of at least JAVA_MIN_TIMEOUT_S; the Python caps are left alone."""
    sample = _sample({CODE: OFF_BY_ONE})
    loc = Localisation("sbfl", all_lines(sample.files, "java"), failing=[f"{TEST}::t"])
    seen: list[float] = []

    def never(sample, files, expected, prefilter, limits):  # type: ignore[no-untyped-def]
        seen.append(limits.timeout_s)
        return False

    monkeypatch.setattr(templates, "localise", lambda *a, **k: loc)
    monkeypatch.setattr(templates, "passes_visible", never)
    check = RepairCheck(sample_id=sample.id, valid=True, visible_ids=[f"{TEST}::t"])
    ctx = SolveContext(RepairFamily(), CONFIG, check)
    solver = TemplateSolver(caps={"java": (5, JAVA_TIME_BUDGET_S)})
    assert (solver.max_candidates, solver.time_budget_s) == (200, 120.0)
    assert solver.solve(sample, 0, ctx) is None
    assert seen == [JAVA_MIN_TIMEOUT_S] * 5


# --- through the sandbox ---------------------------------------------------------------------


def _sample(files: dict[str, str], tests: str = "", fixed: str = "") -> RepairSample:
    """A Java sample of ``files`` (fault: line 5 of Calc.java) whose reference fix makes
    Calc.java ``fixed``."""
    test_class = f"""\
package demo;

import static org.junit.Assert.*;
import org.junit.Test;

public class CalcTest {{
{textwrap.indent(textwrap.dedent(tests), "    ")}
}}
"""
    return RepairSample(
        id="java-sample",
        language="java",
        defect_type="test",
        description="a Java sample",
        files=files,
        tests={"visible": {TEST: test_class}},
        fix=unified_diff(files, {**files, CODE: fixed}) if fixed else "--- a/x\n+++ b/x\n",
        fault=[{"file": CODE, "lines": [5]}],
        source="hand-made",
        leakage="private",
    )


needs_java = pytest.mark.skipif(
    not os.path.exists("/usr/share/java/junit4.jar") or not shutil.which("javac"),
    reason="needs a JDK and JUnit 4 (make system-deps installs them)",
)
CONFIG = JudgeConfig(limits=Limits(timeout_s=60.0, memory_mb=1024), reruns=0)
ADD_TESTS = """\
@Test public void adds() { assertEquals(5, Calc.add(2, 3)); }
@Test public void zero() { assertEquals(0, Calc.add(0, 0)); }
"""
NULL_FIXED = NULL_CHECK.replace("int n = s.length();", "int n = s == null ? 0 : s.length();")
SIZE_TESTS = """\
@Test public void counts() { assertEquals(3, Calc.size("abc")); }
@Test public void nothing() { assertEquals(0, Calc.size(null)); }
"""


def _solve(solver: TemplateSolver, sample: RepairSample):  # type: ignore[no-untyped-def]
    check = check_sample(sample, CONFIG)
    assert check.valid, check.reason
    answer = solver.solve(sample, 0, SolveContext(RepairFamily(), CONFIG, check))
    return answer, check


@needs_java
@pytest.mark.parametrize(
    ("code", "tests", "fixed", "operator", "given_fault"),
    [
        (WRONG_OPERATOR, ADD_TESTS, WRONG_OPERATOR.replace("a - b", "a + b"), "arith", True),
        (NULL_CHECK, SIZE_TESTS, NULL_FIXED, "null-guard", True),
        (WRONG_OPERATOR, ADD_TESTS, WRONG_OPERATOR.replace("a - b", "a + b"), "arith", False),
    ],
    ids=["wrong-operator+fault", "null-check+fault", "wrong-operator"],
)
def test_the_solver_finds_a_patch_passing_the_visible_tests(
    code: str, tests: str, fixed: str, operator: str, given_fault: bool
) -> None:
    sample = _sample({CODE: code}, tests, fixed)
    answer, check = _solve(TemplateSolver(given_fault=given_fault), sample)
    assert answer is not None and answer.diff
    assert (answer.meta["operator"], answer.meta["line"]) == (operator, 5)
    assert answer.meta["fault_source"] == ("given" if given_fault else "sbfl")
    verdict = judge(sample, answer, check, CONFIG)
    assert verdict.visible is not None and verdict.visible.ok
