"""The assertion-quality linter of rebuild tests (truepass.families.rebuild.lint).

Every rule's bad and fixed examples in docs/rebuild-lint.md are checked here (the bad one is
flagged with the rule, the fixed one is clean), then edge cases per rule, each with a flagged
and a clean variant.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pydantic
import pytest

from truepass.families.rebuild.lint import (
    RULES,
    Finding,
    Severity,
    flagged_tests,
    lint_files,
    lint_source,
)

DOC = Path(__file__).resolve().parents[3] / "docs" / "rebuild-lint.md"

CANONICAL = """
def test_args_0003(program):
    r = program(["-n", "3"], stdin=b"a\\nb\\n")
    assert r.returncode == 0
    assert r.stdout == b"     1\\ta\\n     2\\tb\\n"
    assert r.stderr == b""
"""


def lint(source: str) -> list[Finding]:
    return lint_source(textwrap.dedent(source), "test_x.py")


def names(source: str) -> set[str]:
    return {f.name for f in lint(source)}


def module_with(body: str, head: str = "") -> str:
    """A test module: ``head`` then one test taking ``program`` with ``body``."""
    return f"{head}\ndef test_it(program):\n" + textwrap.indent(textwrap.dedent(body), "    ")


def doc_examples() -> list[tuple[str, str, str]]:
    """(rule id, bad, fixed) of every rule section of the doc."""
    examples = []
    for section in re.split(r"^### ", DOC.read_text(), flags=re.M)[1:]:
        blocks = re.findall(r"```(?:python|text)\n(.*?)```", section, re.S)
        examples.append((section.split()[0], blocks[0], blocks[1]))
    return examples


# --- the API -----------------------------------------------------------------------------------


def test_rules_table() -> None:
    high = [r for r in RULES.values() if r.severity is Severity.HIGH]
    medium = [r for r in RULES.values() if r.severity is Severity.MEDIUM]
    assert len(high) >= 12 and len(medium) >= 7
    assert all(r.id == key and re.fullmatch(r"TP\d{3}", r.id) for key, r in RULES.items())
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", r.name) for r in RULES.values())
    assert len({r.name for r in RULES.values()}) == len(RULES)
    assert all((r.id < "TP2") == (r.severity is Severity.HIGH) for r in RULES.values())
    with pytest.raises(pydantic.ValidationError):
        high[0].name = "renamed"


def test_every_rule_is_documented_with_examples() -> None:
    documented = {rule for rule, _, _ in doc_examples()}
    assert documented == set(RULES)
    text = DOC.read_text()
    for rule in RULES.values():
        assert f"### {rule.id} `{rule.name}` ({rule.severity})" in text


@pytest.mark.parametrize(("rule", "bad", "fixed"), doc_examples(), ids=lambda v: v[:5])
def test_doc_examples(rule: str, bad: str, fixed: str) -> None:
    assert rule in {f.rule for f in lint_source(bad)}, "the bad example is not flagged"
    assert lint_source(fixed) == [], "the fixed example is not clean"


def test_canonical_shape_is_clean() -> None:
    assert lint(CANONICAL) == []


def test_finding_fields_and_order() -> None:
    source = module_with(
        """
        r = program([])
        assert r.returncode == 0
        assert b"x" in r.stdout
        assert True
        """
    )
    found = lint(source)
    assert [f.name for f in found] == ["short-substring", "always-true"]
    first = found[0]
    assert (first.rule, first.severity, first.file, first.test) == (
        "TP108",
        Severity.HIGH,
        "test_x.py",
        "test_it",
    )
    assert first.line == 6 and "b'x'" in first.message
    with pytest.raises(pydantic.ValidationError):
        first.line = 1


def test_flagged_tests() -> None:
    source = """
        import random
        SEED = random.random()

        def test_a(program):
            r = program([])
            assert r.returncode == 0

        def test_b(program):
            r = program([])
            assert r.returncode != 0
            assert r.stdout == b""
            assert r.stderr == b"x: error\\n"

        def test_c(program):
            r = program([])
            assert b"x" in r.stdout
            assert r.stdout or r.stderr
    """
    found = lint(source)
    assert flagged_tests(found) == {
        "test_a": "lint:only-exit-status",
        "test_c": "lint:short-substring",
    }
    both = flagged_tests(found, frozenset({Severity.HIGH, Severity.MEDIUM}))
    assert both["test_b"] == "lint:weak-exit-status" and "" not in both
    assert any(f.test == "" and f.name == "nondeterminism" for f in found)


def test_lint_files_and_fixture_name() -> None:
    found = lint_files({"a.py": CANONICAL, "b.py": "def test_x(program):\n    pass\n"})
    assert [(f.file, f.name) for f in found] == [("b.py", "no-assertion")]
    renamed = CANONICAL.replace("program", "run")
    assert {f.name for f in lint_source(renamed)} == {"program-not-called"}
    assert lint_source(renamed, fixture="run") == []


def test_unparsable() -> None:
    found = lint("x = 1\n\ndef test_x(program)\n    pass\n")
    assert [(f.name, f.line, f.test, f.severity) for f in found] == [
        ("unparsable", 3, "", Severity.HIGH)
    ]
    assert [(f.name, f.line) for f in lint_source("x = 1\0")] == [("unparsable", 1)]


# --- edge cases, rule by rule: (rule, flagged, clean) ------------------------------------------

EXACT = """
assert r.returncode == 0
assert r.stdout == b"     1\\ta\\n"
assert r.stderr == b""
"""
RUN = 'r = program(["-n"], stdin=b"a\\n")\n'
RUN_EXACT = RUN + EXACT


def indented(text: str) -> str:
    return textwrap.indent(textwrap.dedent(text), "    ")


CASES = [
    ("no-assertion", "r = program([])\nx = 1\nassert x == 1", RUN_EXACT),
    ("no-assertion", "program([])\nwith open('f') as f:\n    pass", RUN_EXACT),
    ("always-true", RUN_EXACT + "assert 1", RUN_EXACT),
    ("always-true", RUN_EXACT + 'assert "x"', RUN_EXACT + 'assert r.stdout != b"x"'),
    ("always-true", RUN_EXACT + "assert r.stdout is not None", RUN_EXACT),
    ("always-true", RUN_EXACT + "assert isinstance(r.stdout, bytes)", RUN_EXACT),
    ("always-true", RUN_EXACT + "assert len(r.stdout) >= 0", RUN_EXACT),
    ("always-true", RUN_EXACT + "assert r.stdout == b'x' or True", RUN_EXACT),
    ("always-true", RUN_EXACT + "assert b'' in r.stdout", RUN_EXACT),
    (
        "always-true",
        RUN_EXACT + "assert f'{r.stdout}!'",
        """
        import re
        r = program(["-n"], stdin=b"a\\n")
        assert r.returncode == 0
        m = re.fullmatch(rb" +1\\ta\\n +2\\tb\\n", r.stdout)
        assert m is not None
        assert r.stderr == b""
        """,
    ),
    (
        "assert-tuple",
        RUN + "assert (r.stdout == b'x', 'msg')",
        RUN_EXACT + "assert r.stdout, 'msg'",
    ),
    (
        "disjunctive-assertion",
        RUN_EXACT + "assert r.returncode in [0, 2]",
        RUN_EXACT + "assert r.returncode in (0,)",
    ),
    (
        "disjunctive-assertion",
        RUN_EXACT + "assert r.stdout if r.returncode else r.stderr",
        RUN_EXACT,
    ),
    (
        "swallowed-failure",
        """
        try:
            r = program([])
            assert r.stdout == b""
        except:
            return
        """,
        "try:\n    r = program([])\nexcept TimeoutError:\n    pass\n" + EXACT,
    ),
    (
        "swallowed-failure",
        "try:\n" + indented(RUN_EXACT) + "finally:\n    return",
        "try:\n" + indented(RUN_EXACT) + "except Exception:\n    raise",
    ),
    (
        "swallowed-failure",
        "import contextlib\nwith contextlib.suppress(AssertionError):\n" + indented(RUN_EXACT),
        "from contextlib import suppress\nwith suppress(OSError):\n" + indented(RUN_EXACT),
    ),
    (
        "only-exit-status",
        RUN + "assert r.returncode == 0\nassert b'error' not in r.stderr",
        RUN_EXACT,
    ),
    (
        "only-exit-status",
        RUN + "assert not r.returncode",
        RUN + "assert not r.returncode\nassert r.files == {'a': b'x'}",
    ),
    (
        "only-nonempty-output",
        RUN + "assert r.returncode == 0\nassert r.stdout",
        RUN_EXACT + "assert r.stdout",
    ),
    (
        "only-nonempty-output",
        RUN + "out = r.stdout.decode()\nassert out != ''",
        RUN + "out = r.stdout.decode()\nassert out == '     1\\ta\\n'",
    ),
    (
        "short-substring",
        RUN + "assert r.returncode == 0\nassert r.stdout.startswith(b'  ')",
        RUN + "assert r.returncode == 0\nassert r.stdout.startswith(b'     1\\ta\\n     2')",
    ),
    (
        "short-substring",
        RUN + "needle = 'ab'\nassert needle in r.stdout.decode()",
        RUN_EXACT + "assert b'1' in r.stdout",
    ),
    (
        "short-substring",
        RUN + "assert r.stdout.count(b'a') == 1",
        RUN_EXACT + "assert r.stdout.count(b'a') == 1",
    ),
    (
        "conditional-assertion",
        """
        r = program([])
        match r.returncode:
            case 0:
                assert r.stdout == b"x"
        """,
        RUN_EXACT + "if r.returncode != 0:\n    pytest.fail(r.stderr.decode())",
    ),
    (
        "conditional-assertion",
        """
        r = program([])
        out = r.stdout
        if out:
            assert out == b"x"
        elif r.stderr:
            assert r.stderr == b"e"
        """,
        RUN + "expect_err = False\n" + EXACT + "if expect_err:\n    assert r.stderr == b'e'",
    ),
    (
        "vacuous-loop",
        RUN_EXACT + "for line in []:\n    assert line",
        """
        CASES = [(["-n"], b"     1\\ta\\n")]
        for args, out in CASES:
            r = program(args, stdin=b"a\\n")
            assert r.returncode == 0
            assert r.stdout == out
            assert r.stderr == b""
        """,
    ),
    (
        "vacuous-loop",
        """
        r = program([])
        assert r.returncode == 0
        assert r.stderr == b""
        lines = r.stdout.splitlines()
        assert all(x.endswith(b"\\ta" * 8) for x in lines)
        """,
        """
        r = program([])
        assert r.returncode == 0
        assert r.stderr == b""
        lines = r.stdout.split(b"\\n")
        assert len(lines) == 2
        assert all(x.endswith(b"\\ta" * 8) for x in lines)
        """,
    ),
    (
        "vacuous-loop",
        """
        r = program([])
        assert r.returncode == 0
        for name, data in r.files.items():
            assert data == b"x" * 20
        """,
        """
        r = program([])
        assert r.returncode == 0
        assert set(r.files) == {"a"}
        for name, data in r.files.items():
            assert data == b"x" * 20
        """,
    ),
    ("skipped-test", RUN_EXACT + "pytest.skip('later')", RUN_EXACT),
    ("skipped-test", RUN_EXACT + "pytest.importorskip('yaml')", RUN_EXACT),
    (
        "program-not-called",
        "assert len(b'abc') == 3",
        "def run(args):\n    return program(args, stdin=b'a\\n')\nr = run(['-n'])\n" + EXACT,
    ),
    (
        "expected-from-output",
        """
        r = program([])
        text = r.stdout.decode()
        assert r.returncode == 0
        assert text.strip() == r.stdout.decode().strip()
        """,
        """
        first = program(["-n"], stdin=b"a\\n")
        second = program(["-n", "-"], stdin=b"a\\n")
        assert first.returncode == second.returncode == 0
        assert first.stdout == b"     1\\ta\\n"
        assert second.stdout == first.stdout
        assert second.stderr == first.stderr == b""
        """,
    ),
    (
        "expected-from-output",
        RUN + "assert r.returncode == 0\nassert r.stdout[:3] in r.stdout",
        """
        r = program(["-n"], stdin=b"a\\n")
        before = r.stdout
        r = program(["-b"], stdin=b"a\\n")
        assert r.returncode == 0
        assert r.stdout == before
        assert before == b"     1\\ta\\n"
        assert r.stderr == b""
        """,
    ),
    (
        "weak-exit-status",
        RUN + "assert r.returncode\nassert r.stdout == b''\nassert r.stderr == b'e'",
        RUN_EXACT + "assert r.returncode < 128",
    ),
    (
        "weak-exit-status",
        RUN + "assert r.returncode >= 0\nassert r.stdout == b''",
        RUN + "assert r.returncode == 0\nassert r.stdout == b''",
    ),
    (
        "normalised-comparison",
        RUN + "assert r.returncode == 0\nassert r.stdout.decode().splitlines() == ['     1\\ta']",
        RUN + "assert r.returncode == 0\nassert r.stdout.split(b'\\t') == [b'     1', b'a\\n']",
    ),
    (
        "normalised-comparison",
        RUN + "assert r.returncode == 0\nwords = sorted(r.stdout.split())\nassert words == [b'1']",
        RUN + "assert r.returncode == 0\nassert sorted(r.files) == ['a', 'b']",
    ),
    (
        "short-regex",
        """
        import re
        r = program([])
        assert r.returncode == 0
        assert re.compile(rb"1\\ta").search(r.stdout)
        """,
        """
        import re
        r = program([])
        assert r.returncode == 0
        assert re.fullmatch(rb" {5}1\\ta\\n( {5}\\d+\\t.*\\n)*", r.stdout)
        """,
    ),
    (
        "short-regex",
        RUN + "import re\nm = re.search(rb'\\d', r.stdout)\nassert r.returncode == 0\nassert m",
        RUN_EXACT + "import re\nm = re.search(rb'\\d', r.stdout)\nassert m",
    ),
    ("sleep-in-test", "from time import sleep\n" + RUN + "sleep(0.1)\n" + EXACT, RUN_EXACT),
    (
        "nondeterminism",
        "from datetime import datetime\n" + RUN + "stamp = datetime.now()\n" + EXACT,
        RUN + "stamp = '2024-01-01'\n" + EXACT,
    ),
    (
        "nondeterminism",
        "import uuid\nname = uuid.uuid4().hex\n" + RUN_EXACT,
        "import random\nrandom.seed(3)\nn = random.randint(1, 3)\n" + RUN_EXACT,
    ),
    (
        "print-instead-of-assert",
        RUN + "assert r.returncode == 0\nassert r.stdout == b''\nprint(r.stderr)",
        RUN_EXACT + "print(r.stdout, r.stderr)",
    ),
    (
        "stdout-unchecked",
        RUN + "assert r.returncode == 1\nassert r.stderr.startswith(b'cat: missing.txt: ')",
        RUN + "assert r.returncode == 1\nassert r.files == {}\nassert r.stderr == b'e'",
    ),
    (
        "result-unused",
        "_ = program([])\nprogram(['-n'])\n" + RUN_EXACT,
        textwrap.dedent(
            """
            def check(args, out):
                r = program(args)
                assert r.stdout == out
            check(["-n"], b"x")
            """
        )
        + RUN_EXACT,
    ),
]


@pytest.mark.parametrize(("rule", "flagged", "clean"), CASES, ids=[c[0] for c in CASES])
def test_rule_cases(rule: str, flagged: str, clean: str) -> None:
    head = "import pytest\n"
    flagged, clean = module_with(flagged, head), module_with(clean, head)
    assert rule in names(flagged), lint(flagged)
    assert lint(clean) == []


def test_helpers_count_as_exact_checks() -> None:
    helpers = """
        def check(result, out, err=b""):
            assert result.returncode == 0
            assert result.stdout == out
            assert result.stderr == err

        def run_and_check(program, args, out):
            check(program(args), out)

        def test_with_result(program):
            r = program(["-n"], stdin=b"a\\n")
            check(r, b"     1\\ta\\n")

        def test_with_fixture(program):
            run_and_check(program, ["-n"], b"     1\\ta\\n")

        def test_nested(program):
            def expect(out):
                assert r.stdout == out
            r = program([])
            assert r.returncode == 0
            expect(b"")
    """
    assert lint(helpers) == []


def test_unittest_style_and_classes() -> None:
    source = """
        import unittest

        class TestCat:
            def test_ok(self, program):
                r = program([])
                self.assertEqual(r.returncode, 0)
                self.assertEqual(r.stdout, b"")
                self.assertFalse(r.stderr)

            def test_weak(self, program):
                r = program([])
                self.assertTrue(r.stdout)

            @unittest.skip("later")
            def test_skipped(self, program):
                r = program([])
                self.assertIsNotNone(r)
    """
    assert {(f.test, f.name) for f in lint(source)} == {
        ("TestCat::test_weak", "only-nonempty-output"),
        ("TestCat::test_skipped", "skipped-test"),
        ("TestCat::test_skipped", "always-true"),
    }


def test_marks_and_module_level() -> None:
    source = """
        import pytest
        pytestmark = pytest.mark.xfail(reason="unknown")

        @pytest.mark.parametrize("args", [["-n"], ["-b"]])
        def test_a(program, args):
            r = program(args, stdin=b"a\\n")
            assert r.returncode == 0
            assert r.stdout == b"     1\\ta\\n"
            assert r.stderr == b""

        @pytest.mark.skipif(True, reason="no")
        def test_b(program):
            r = program([])
            assert (r.returncode, r.stdout, r.stderr) == (0, b"", b"")
    """
    found = lint(source)
    assert {(f.test, f.line) for f in found if f.name == "skipped-test"} == {
        ("test_a", 3),
        ("test_b", 12),
        ("test_b", 3),
    }


def test_duplicates() -> None:
    twice = CANONICAL + CANONICAL.replace('b"a', 'b"x')
    found = [f for f in lint(twice) if f.name == "duplicate-test"]
    assert [(f.line, f.test) for f in found] == [(2, "test_args_0003")]
    assert "defined again at line 8" in found[0].message
    parametrized = """
        import pytest

        @pytest.mark.parametrize("a", [1])
        def test_one(program, a):
            r = program([str(a)])
            assert (r.returncode, r.stdout, r.stderr) == (0, b"", b"")

        @pytest.mark.parametrize("a", [2])
        def test_two(program, a):
            r = program([str(a)])
            assert (r.returncode, r.stdout, r.stderr) == (0, b"", b"")
    """
    assert lint(parametrized) == []


def test_pytest_raises_counts_as_an_assertion() -> None:
    source = module_with(
        """
        with pytest.raises(TimeoutError):
            program(["--loop"], timeout=1)
        """,
        "import pytest\n",
    )
    assert lint(source) == []
