"""QuixBugs (Java) -> repair samples (``--suite quixbugs-java:PATH``).

Reads the layout shipped in ``../shared/benchmarks/quixbugs-java/``: ``quixbugs_java.jsonl`` (one
record per program: ``name``, ``buggy_program`` (package ``java_programs``), ``correct_program``
(package ``correct_java_programs``), ``junit_test`` (class ``java_testcases.junit.NAME_TEST``))
and ``support_files.json`` (path -> text, or null: ``java_programs/Node.java``,
``java_programs/WeightedEdge.java``, ``java_testcases/junit/QuixFixOracleHelper.java``, ...).

Layout of a sample (upstream's packages, in matching directories):

* code: ``java_programs/NAME.java`` (the buggy program), with ``java_programs/Node.java`` when
  the program or its tests name ``Node`` or ``WeightedEdge`` and ``java_programs/WeightedEdge.java``
  when they name ``WeightedEdge`` (8 of 40 programs; 2 with ``WeightedEdge``).
* visible: ``java_testcases/junit/NAME_TEST.java``, upstream's class keeping only its visible test
  methods; hidden: ``java_testcases/junit/NAME_HIDDEN_TEST.java``, class ``NAME_HIDDEN_TEST``
  with the other test methods. Everything else in the class (fields, static blocks, helpers,
  imports) is kept in both. ``java_testcases/junit/QuixFixOracleHelper.java`` goes into each phase
  whose class uses it. Test ids are ``<test file>::<method>``.

Split: as for the Python half (:func:`truepass.families.repair.adapters.quixbugs.visible_indices`):
the
first third (rounded up) of the test methods, in file order, are visible, the rest hidden; when the
first method the buggy program fails lies later (measured at upstream 4257f44, ``_FIRST_FAILING``),
it is made visible too, so the buggy program fails a visible test.

Dropped tests: methods upstream marks ``@Ignore`` (levenshtein's ``test_3``, a case that takes
minutes on the reference too): an ignored test is never "passed", so it is dropped, as the Python
adapter drops the cases upstream skips (``meta.dropped_cases``, with the reason in
``meta.dropped_why``). Timeouts: upstream's ``@Test(timeout = 3000)`` is raised to the Python
adapter's per-test timeout (:data:`truepass.families.repair.adapters.quixbugs.TIMEOUT_S`, 5 s): a
JUnit
timeout is wall-clock time, and at 3 s knapsack's largest case (0.6 s alone) failed on the
reference fix on a loaded two-core machine. The graph programs' plain ``@Test`` methods get the
runner's own per-test timeout.

Fix: the correct program's code changes applied to the buggy program, comments and blank lines
ignored (upstream's correct files differ in those and in whitespace), its package renamed to
``java_programs`` and its imports of ``java_programs.*`` classes (redundant in that package)
left out. The fault is the buggy lines the fix changes. Defect types as for Python (from the
changed Java tokens).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from truepass.errors import SuiteError
from truepass.families.repair.adapters.quixbugs import (
    SOURCE,
    TIMEOUT_S,
    FieldError,
    load_programs,
    visible_indices,
)
from truepass.families.repair.adapters.quixbugs_fix import classify, splice
from truepass.families.repair.schema import FaultLocation, RepairSample, Tests
from truepass.patches.apply import unified_diff

RECORDS = "quixbugs_java.jsonl"
SUPPORT = "support_files.json"
PROGRAMS = "java_programs"
TESTS = "java_testcases/junit"
NODE = f"{PROGRAMS}/Node.java"
EDGE = f"{PROGRAMS}/WeightedEdge.java"
HELPER = f"{TESTS}/QuixFixOracleHelper.java"
_NEEDED_SUPPORT = (NODE, EDGE, HELPER)

# 0-based index (among the kept test methods, in file order) of the first one the buggy program
# fails, where it is past the first third; measured by running the upstream JUnit classes at
# 4257f44 (javac/java 17, JUnit 4.13).
_FIRST_FAILING: dict[str, int] = {
    "BREADTH_FIRST_SEARCH": 2,
    "DEPTH_FIRST_SEARCH": 4,
    "DETECT_CYCLE": 3,
    "IS_VALID_PARENTHESIZATION": 2,
    "NEXT_PALINDROME": 4,
}

_IGNORED_WHY = "@Ignore upstream (a slow case: it never runs, so it is never passed)"


def load_quixbugs_java(path: Path) -> tuple[list[RepairSample], bytes]:
    """Load the QuixBugs Java directory ``path`` (see the module docstring for the layout)."""
    return load_programs(path, RECORDS, _NEEDED_SUPPORT, _record, _sample)


def _record(where: str, rec: dict[str, Any]) -> dict[str, str]:
    """The record, its fields checked."""
    for key in ("name", "buggy_program", "correct_program", "junit_test"):
        if not isinstance(rec.get(key), str) or not rec[key].strip():
            raise SuiteError("missing or not a non-empty string", location=where, field=key)
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", rec["name"]):
        raise SuiteError(f"'{rec['name']}' is not a Java class name", location=where, field="name")
    return rec


# ---------------------------------------------------------------- building one sample


_UPSTREAM_TIMEOUT = re.compile(r"(@(?:org\.junit\.)?Test\s*\(\s*timeout\s*=\s*)(\d+)(\s*\))")


def _raised_timeout(m: re.Match[str]) -> str:
    """An upstream JUnit timeout, at least the Python adapter's per-test timeout."""
    return f"{m.group(1)}{max(int(m.group(2)), TIMEOUT_S * 1000)}{m.group(3)}"


def _sample(rec: dict[str, str], support: dict[str, str]) -> RepairSample:
    name = rec["name"]
    buggy, correct, junit = rec["buggy_program"], rec["correct_program"], rec["junit_test"]
    junit = _UPSTREAM_TIMEOUT.sub(_raised_timeout, junit)
    program = f"{PROGRAMS}/{name}.java"
    _check_program(buggy, name, "buggy_program", (PROGRAMS,))
    _check_program(correct, name, "correct_program", (f"correct_{PROGRAMS}", PROGRAMS))
    fixed, changed_lines, pairs = minimal_java_fix(buggy, correct)
    if fixed == buggy:
        raise FieldError(
            "correct_program", "the correct program does not change the buggy program's code"
        )

    files = {program: buggy}
    code = " ".join(strip_java(t, literals=True) for t in (buggy, correct, junit))
    if re.search(r"\bWeightedEdge\b", code):
        files[EDGE] = support[EDGE]
    if re.search(r"\b(Node|WeightedEdge)\b", code):
        files[NODE] = support[NODE]

    methods = test_methods(junit, f"{name}_TEST")
    kept = [m for m in methods if not m.ignored]
    dropped = [m.name for m in methods if m.ignored]
    if not kept:
        raise FieldError("junit_test", "no test methods (@Test) that are not @Ignore'd")
    vis_idx = visible_indices(len(kept), _FIRST_FAILING.get(name))
    vis = [m for i, m in enumerate(kept) if i in vis_idx]
    hid = [m for i, m in enumerate(kept) if i not in vis_idx]

    visible_class = f"{TESTS}/{name}_TEST.java"
    visible = {visible_class: keep_methods(junit, methods, vis)}
    hidden: dict[str, str] = {}
    if hid:
        hidden_text = rename_class(
            keep_methods(junit, methods, hid), f"{name}_TEST", f"{name}_HIDDEN_TEST"
        )
        hidden = {f"{TESTS}/{name}_HIDDEN_TEST.java": hidden_text}
    for phase in (visible, hidden):
        if any("QuixFixOracleHelper" in strip_java(t, literals=True) for t in phase.values()):
            phase[HELPER] = support[HELPER]

    meta: dict[str, object] = {
        "upstream_name": name,
        "program": name.lower(),  # pairs with the Python adapter's program (compare)
        "cases": len(kept),
        "visible_cases": len(vis),
        "dropped_cases": dropped,
    }
    if dropped:
        meta["dropped_why"] = {m: _IGNORED_WHY for m in dropped}
    return RepairSample(
        id=f"quixbugs-java-{name}",
        language="java",
        defect_type=classify(pairs, java_tokens),
        description=describe_java(name, buggy),
        files=files,
        tests=Tests(visible=visible, hidden=hidden),
        fix=unified_diff(files, {**files, program: fixed}),
        fault=[FaultLocation(file=program, lines=changed_lines)],
        source=SOURCE,
        leakage="public-old",
        meta=meta,
    )


def _check_program(text: str, name: str, field: str, packages: tuple[str, ...]) -> None:
    code = strip_java(text, literals=True)
    m = re.search(r"^\s*package\s+([\w.]+)\s*;", code, re.M)
    if not m or m.group(1) not in packages:
        raise FieldError(field, f"expected 'package {packages[0]};'")
    if not re.search(rf"\bclass\s+{re.escape(name)}\b", code):
        raise FieldError(field, f"does not declare class {name} (the record's 'name')")


# ---------------------------------------------------------------- Java text


def strip_java(src: str, *, literals: bool = False) -> str:
    """``src`` with its comments (and with ``literals``, the insides of its string and char
    literals) blanked to spaces, newlines kept, so offsets and line numbers stay valid."""
    out = list(src)
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        two = src[i : i + 2]
        if two == "//":
            j = src.find("\n", i)
            j = n if j < 0 else j
        elif two == "/*":
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            j = min(j + 1, n)
            if literals:
                for k in range(i + 1, j - 1):
                    if out[k] != "\n":
                        out[k] = " "
            i = j
            continue
        else:
            i += 1
            continue
        for k in range(i, j):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out)


_TOKEN = re.compile(
    r"""[A-Za-z_$][\w$]*|\d[\w.]*|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'"""
    r"|>>>=|<<=|>>=|>>>|\+\+|--|&&|\|\||==|!=|<=|>=|\+=|-=|\*=|/=|%=|&=|\|=|\^=|<<|>>|->|::"
    r"|\S"
)


def java_tokens(text: str) -> list[str]:
    """The tokens of a comment-free piece of Java (for comparing and classifying lines)."""
    return _TOKEN.findall(text)


def _code(src: str) -> tuple[list[str], list[int]]:
    """Per line, its tokens joined by spaces (without comments); and the 0-based indices of the
    code lines: those with tokens, other than the package declaration and imports of
    ``java_programs`` classes (the correct programs import them from their own package)."""
    keys = [" ".join(java_tokens(line)) for line in strip_java(src).splitlines()]
    skip = re.compile(rf"(package [\w .]+|import {PROGRAMS} \. \w+) ;")
    return keys, [i for i, k in enumerate(keys) if k and not skip.fullmatch(k)]


def minimal_java_fix(buggy: str, correct: str) -> tuple[str, list[int], list[tuple[str, str]]]:
    """:func:`truepass.families.repair.adapters.quixbugs_fix.minimal_fix` for Java: the correct
    program's
    code changes (comments, blank lines, whitespace and its package line ignored) applied to the
    buggy program."""
    return splice(buggy, correct, _code(buggy), _code(correct))


class TestMethod:
    """A JUnit test method of a class body: its name and character span (with the comments and
    annotations before it)."""

    __test__ = False  # not a pytest class

    def __init__(self, name: str, start: int, end: int, ignored: bool):
        self.name, self.start, self.end, self.ignored = name, start, end, ignored

    def __repr__(self) -> str:
        return f"TestMethod({self.name!r}, {self.start}, {self.end}, ignored={self.ignored})"


_TEST_ANN = re.compile(r"@\s*(?:org\s*\.\s*junit\s*\.\s*)?Test\b(?!\s*\.)")
_IGNORE_ANN = re.compile(r"@\s*(?:org\s*\.\s*junit\s*\.\s*)?Ignore\b(?!\s*\.)")


def test_methods(src: str, cls: str) -> list[TestMethod]:
    """The ``@Test`` methods of class ``cls`` in ``src``, in file order."""
    code = strip_java(src, literals=True)
    m = re.search(rf"\bclass\s+{re.escape(cls)}\b[^{{]*\{{", code)
    if not m:
        raise FieldError("junit_test", f"does not declare class {cls}")
    out: list[TestMethod] = []
    depth, parens = 1, 0
    member = m.end()
    i = m.end()
    while i < len(code) and depth > 0:
        c = code[i]
        i += 1
        if c == "(":
            parens += 1
        elif c == ")":
            parens = max(0, parens - 1)
        elif parens:
            continue
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 1:
                _member(src, code, member, i, out)
                member = i
        elif c == ";" and depth == 1:
            member = i
    if depth > 0:
        raise FieldError("junit_test", f"class {cls} is not closed (unbalanced braces)")
    return out


def _member(src: str, code: str, start: int, end: int, out: list[TestMethod]) -> None:
    text = code[start:end]
    head = text[: text.find("{")]
    if not _TEST_ANN.search(head):
        return
    name = re.search(r"\bvoid\s+(\w+)\s*\(", head)
    if not name:
        raise FieldError("junit_test", f"a @Test member is not a void method: {head.strip()!r}")
    while start < end and src[start].isspace():
        start += 1
    out.append(TestMethod(name.group(1), start, end, bool(_IGNORE_ANN.search(head))))


def keep_methods(src: str, methods: list[TestMethod], keep: list[TestMethod]) -> str:
    """``src`` without the test methods of ``methods`` not in ``keep`` (each removed with its
    comments, annotations and the blank lines before it); the rest verbatim."""
    names = {m.name for m in keep}
    out, pos = [], 0
    for m in methods:
        if m.name in names:
            continue
        start, end = m.start, m.end
        line_start = src.rfind("\n", 0, start) + 1
        nl = src.find("\n", end)
        if not src[line_start:start].strip() and nl >= 0 and not src[end:nl].strip():
            # whole lines, with the blank lines before the method
            start, end = line_start, nl + 1
            while start > pos:
                prev = src.rfind("\n", 0, start - 1) + 1
                if src[prev:start].strip():
                    break
                start = prev
            start = max(start, pos)
        out.append(src[pos:start])
        pos = end
    out.append(src[pos:])
    return "".join(out)


def rename_class(src: str, old: str, new: str) -> str:
    """``src`` with the class ``old`` (and references to it) renamed ``new``."""
    renamed, n = re.subn(rf"\b{re.escape(old)}\b", new, src)
    if not n:
        raise FieldError("junit_test", f"does not declare class {old}")
    return renamed


# ---------------------------------------------------------------- description

_SIGNATURE = re.compile(
    r"\bpublic\s+static\s+(?:final\s+)?([\w$<>\[\],.?\s]+?)\s+(\w+)\s*\(([^)]*)\)\s*(?:throws[^{]*)?\{"
)


def describe_java(name: str, buggy: str) -> str:
    """What the solver is told: the program and the entry point(s) the tests call. Upstream's
    Java programs carry no prose (the Python ones' docstrings are not in this input)."""
    code = strip_java(buggy, literals=True)
    sigs = [
        (m.group(2), " ".join(f"{m.group(1)} {m.group(2)}({m.group(3)})".split()))
        for m in _SIGNATURE.finditer(code)
        if m.group(2) != "main"
    ]
    main = [s for n, s in sigs if n.lower() == name.lower()] or [s for _, s in sigs[:1]]
    where = f"class {PROGRAMS}.{name} ({PROGRAMS}/{name}.java)"
    if main:
        return f"QuixBugs program {name} (Java): `{main[0]}` in {where} has a bug."
    return f"QuixBugs program {name} (Java): {where} has a bug."
