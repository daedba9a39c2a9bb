"""The assertion-quality linter of rebuild tests (docs/rebuild-lint.md).

A rebuild sample's hidden tests compare the rebuilt program with the original on stdout, stderr,
exit status and written files. A test that asserts little (only the exit status, a one-letter
substring, ``assert a or b``) lets a wrong rebuild pass. This module reads pytest files with
``ast`` (nothing is imported or run) and reports such tests: each finding names its rule, its
severity, the test and the line. Tests take a fixture (``program``) that runs the program under
test and returns a result with ``stdout``, ``stderr``, ``returncode`` and ``files``; values are
traced from that result through local names (``out = r.stdout.decode()``) to the assertions.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from truepass import pyast


class Severity(StrEnum):
    """How much a finding weakens a test: ``high`` lets a plainly wrong program pass."""

    HIGH = "high"
    MEDIUM = "medium"


class Rule(BaseModel):
    """One lint rule: its id (``TP1xx`` high, ``TP2xx`` medium), kebab-case name and summary."""

    model_config = ConfigDict(frozen=True)
    id: str
    name: str
    severity: Severity
    summary: str


class Finding(BaseModel):
    """One rule broken at one line; ``test`` is the test's name ("" at module level)."""

    model_config = ConfigDict(frozen=True)
    rule: str
    name: str
    severity: Severity
    file: str
    line: int
    test: str
    message: str


_TABLE = (
    ("TP100", "unparsable", "The file is not valid Python."),
    ("TP101", "no-assertion", "The test asserts nothing, or nothing about the program's run."),
    ("TP102", "always-true", "An assertion that cannot fail (a constant, x == x, r is not None)."),
    ("TP103", "assert-tuple", "assert (check, 'message'): a non-empty tuple is always true."),
    ("TP104", "disjunctive-assertion", "assert a or b, x in (a, b): several behaviours pass."),
    ("TP105", "swallowed-failure", "A try/except or suppress() swallows failed checks or runs."),
    ("TP106", "only-exit-status", "No check of the output fails for a program writing nothing."),
    ("TP107", "only-nonempty-output", "The output is only checked to be non-empty."),
    ("TP108", "short-substring", "A substring, prefix or suffix check under 15 characters."),
    ("TP109", "conditional-assertion", "Assertions under an if/match on the program's output."),
    ("TP110", "vacuous-loop", "Assertions in a loop (or all()) over output that may be empty."),
    ("TP111", "skipped-test", "A skip/skipif/xfail mark or a pytest.skip()/xfail() call."),
    ("TP112", "program-not-called", "The test never runs the program."),
    ("TP113", "expected-from-output", "The expected value is computed from the checked output."),
    ("TP201", "weak-exit-status", "The exit status compared with !=, <, >=, ..., not ==."),
    ("TP202", "normalised-comparison", "Output compared after strip(), lower(), sorted() ..."),
    ("TP203", "short-regex", "A regular expression under 15 characters checks the output."),
    ("TP204", "sleep-in-test", "time.sleep() in a test."),
    ("TP205", "nondeterminism", "random, uuid4(), datetime.now(), time.time(): varies per run."),
    ("TP206", "duplicate-test", "A test with the same body as another, or defined twice."),
    ("TP207", "print-instead-of-assert", "Output printed but never asserted."),
    ("TP208", "stdout-unchecked", "stderr is checked but neither stdout nor the written files."),
    ("TP209", "result-unused", "A run of the program whose result is thrown away."),
)
RULES: dict[str, Rule] = {
    i: Rule(id=i, name=n, summary=s, severity=Severity.HIGH if i < "TP2" else Severity.MEDIUM)
    for i, n, s in _TABLE
}
_BY_NAME = {rule.name: rule for rule in RULES.values()}

FIXTURE = "program"
MIN_LITERAL = 15  # substrings and patterns shorter than this are too weak
_CHANNELS = ("returncode", "stdout", "stderr", "files")
_TEXT = frozenset({"stdout", "stderr"})
_NORMALISERS = frozenset(
    {"strip", "rstrip", "lstrip", "lower", "upper", "casefold", "title", "swapcase", "splitlines"}
)
_NORMALISING = frozenset({"sorted", "set", "frozenset", "Counter", "collections.Counter"})
_SUBSTRING = frozenset({"startswith", "endswith", "find", "rfind", "index", "rindex", "count"})
_REGEX = frozenset({"re.search", "re.match", "re.fullmatch", "re.findall", "re.finditer"})
_PREDICATES = _SUBSTRING | {"search", "match", "fullmatch", "all", "any", "isinstance"}
_BROAD = frozenset({"Exception", "BaseException", "AssertionError"})
_SKIP_MARKS = ("mark.skip", "mark.skipif", "mark.xfail", "unittest.skip", "unittest.skipIf")
_SKIP_MARKS += ("unittest.skipUnless", "unittest.expectedFailure")
_SKIP_CALLS = frozenset({"pytest.skip", "pytest.xfail", "pytest.importorskip"})
_CLOCKS = frozenset({"uuid.uuid1", "uuid.uuid4", "time.time", "time.time_ns", "os.urandom"})
_CLOCKS |= {"datetime.datetime.now", "datetime.datetime.today", "datetime.datetime.utcnow"}
_CLOCKS |= {"datetime.date.today"}
_OPS = {"Equal": ast.Eq, "NotEqual": ast.NotEq, "In": ast.In, "NotIn": ast.NotIn, "Is": ast.Is}
_OPS |= {"IsNot": ast.IsNot, "Greater": ast.Gt, "GreaterEqual": ast.GtE, "Less": ast.Lt}
_UNITTEST = {f"assert{k}": v for k, v in (_OPS | {"LessEqual": ast.LtE}).items()}
_NONE = ast.Constant(value=None)
_UNITTEST_ONE: dict[str, Callable[[ast.expr], ast.expr]] = {
    "assertTrue": lambda e: e,
    "assertFalse": lambda e: ast.UnaryOp(op=ast.Not(), operand=e),
    "assertIsNone": lambda e: ast.Compare(left=e, ops=[ast.Is()], comparators=[_NONE]),
    "assertIsNotNone": lambda e: ast.Compare(left=e, ops=[ast.IsNot()], comparators=[_NONE]),
}
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_SCOPES = (*_FUNCS, ast.ClassDef, ast.Lambda)
_BRANCHES = (ast.If, ast.Match, ast.For, ast.AsyncFor, ast.While)

# How one conjunct of an assertion looks at the run (see _Test.classify).
TRIVIAL, SELF, NONEMPTY, EMPTY = "trivial", "self", "nonempty", "empty"
EXACT, PARTIAL, ABSENCE, WEAK = "exact", "partial", "absence", "weak"
Key = tuple[str, str]  # (which run, which channel)
Frames = tuple[tuple[ast.AST, str], ...]  # the (parent, field) pairs above a node


def lint_source(source: str, path: str = "<test>", *, fixture: str = FIXTURE) -> list[Finding]:
    """The findings of one pytest file, by line; a file that does not parse gives one."""
    try:
        tree = pyast.parse(source, path)
    except (SyntaxError, ValueError) as err:
        line = getattr(err, "lineno", None) or 1
        return [_finding("unparsable", path, line, "", f"does not parse: {err}")]
    found = _Module(tree, path, fixture).lint()
    unique = {(f.line, f.rule, f.test, f.message): f for f in found}
    return [unique[k] for k in sorted(unique)]


def lint_files(files: Mapping[str, str], *, fixture: str = FIXTURE) -> list[Finding]:
    """The findings of several files (path -> source), file by file."""
    return [f for path, text in files.items() for f in lint_source(text, path, fixture=fixture)]


def flagged_tests(
    findings: Iterable[Finding], severities: frozenset[Severity] = frozenset({Severity.HIGH})
) -> dict[str, str]:
    """Test name -> ``lint:RULE-NAME`` of its first finding of one of ``severities``."""
    flagged: dict[str, str] = {}
    for f in findings:
        if f.test and f.severity in severities:
            flagged.setdefault(f.test, f"lint:{f.name}")
    return flagged


def _finding(name: str, path: str, line: int, test: str, message: str) -> Finding:
    rule = _BY_NAME[name]
    return Finding(
        rule=rule.id, name=name, severity=rule.severity, file=path, line=line, test=test,
        message=message,
    )  # fmt: skip


def _walk(node: ast.AST, frames: Frames = ()) -> Iterator[tuple[ast.AST, Frames]]:
    """Every node under ``node``, parents first, with the frames above it; nested functions and
    classes are yielded but not entered."""
    for name, value in ast.iter_fields(node):
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, ast.AST):
                inner = (*frames, (node, name))
                yield child, inner
                if not isinstance(child, _SCOPES):
                    yield from _walk(child, inner)


def _nodes(stmts: Iterable[ast.AST]) -> list[ast.AST]:
    """``stmts`` and every node under them, nested functions and classes not entered."""
    return [n for s in stmts for n in [s, *(m for m, _ in _walk(s))]]


def _dotted(node: ast.AST) -> str:
    """``a.b.c`` of a name, attribute or call; "" for anything else."""
    if isinstance(node, ast.Call):
        node = node.func
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else ""


def _resolved(node: ast.AST, aliases: dict[str, str]) -> str:
    """The dotted name with its first part resolved through the imports."""
    head, dot, rest = _dotted(node).partition(".")
    return aliases.get(head, head) + dot + rest


def _is_len(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and _dotted(node) == "len" and len(node.args) == 1


def _const(node: ast.AST) -> object:
    return node.value if isinstance(node, ast.Constant) else None


def _is_empty(node: ast.AST) -> bool:
    """``b""``, ``""`` or an empty list/tuple/dict/set literal."""
    if isinstance(node, ast.Constant):
        return node.value in ("", b"")
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return not node.elts
    return isinstance(node, ast.Dict) and not node.keys


def _conjuncts(expr: ast.expr) -> list[ast.expr]:
    if isinstance(expr, ast.BoolOp) and isinstance(expr.op, ast.And):
        return [c for value in expr.values for c in _conjuncts(value)]
    return [expr]


def _is_fail(node: ast.AST, aliases: dict[str, str]) -> bool:
    """``pytest.fail(...)`` or ``raise AssertionError``."""
    if isinstance(node, ast.Expr):
        node = node.value
    if isinstance(node, ast.Raise):
        return node.exc is not None and _dotted(node.exc) == "AssertionError"
    return isinstance(node, ast.Call) and _resolved(node, aliases) == "pytest.fail"


def _is_site(node: ast.AST, helpers: set[str], aliases: dict[str, str]) -> bool:
    """Where a test can fail: an assert, a fail, an assert* method or an asserting helper."""
    if isinstance(node, ast.Assert) or _is_fail(node, aliases):
        return True
    if not isinstance(node, ast.Call):
        return False
    if isinstance(node.func, ast.Attribute):
        return node.func.attr.startswith("assert")
    return isinstance(node.func, ast.Name) and node.func.id in helpers


def _broad(types: ast.expr | None) -> bool:
    """Whether an except clause (or suppress()) catches failed assertions."""
    if types is None:
        return True
    names = types.elts if isinstance(types, ast.Tuple) else [types]
    return any(_dotted(t).removeprefix("builtins.") in _BROAD for t in names)


def _literals(body: list[ast.stmt]) -> dict[str, ast.expr]:
    """Names bound once, to a literal, in ``body`` (nested statements included)."""
    bound: dict[str, list[ast.expr]] = {}
    for node in _nodes(body):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    bound.setdefault(target.id, []).append(node.value)
    literal = (ast.Constant, ast.List, ast.Tuple, ast.Set, ast.Dict)
    return {k: v[0] for k, v in bound.items() if len(v) == 1 and isinstance(v[0], literal)}


@dataclass(frozen=True)
class _Check:
    """One conjunct of one assertion: how it looks at which runs' channels."""

    line: int
    strength: str
    keys: frozenset[Key]
    solid: bool = True  # not under an if/match/loop
    sized: bool = False  # compares a len() for equality


class _Module:
    """One parsed file: imports, literal constants, asserting helpers, its tests."""

    def __init__(self, tree: ast.Module, path: str, fixture: str) -> None:
        self.tree, self.path, self.fixture = tree, path, fixture
        self.aliases: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    head = a.name.split(".")[0]
                    self.aliases[a.asname or head] = a.name if a.asname else head
            elif isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    self.aliases[a.asname or a.name] = f"{node.module}.{a.name}"
        self.consts = _literals(tree.body)
        calls = [_resolved(n, self.aliases) for n in ast.walk(tree) if isinstance(n, ast.Call)]
        self.seeded = "random.seed" in calls
        self.tests: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, list[ast.stmt]]] = []
        for node in tree.body:
            if isinstance(node, _FUNCS) and self.is_test(node):
                self.tests.append((node.name, node, tree.body))
            elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                methods = [m for m in node.body if isinstance(m, _FUNCS) and self.is_test(m)]
                scope = [*tree.body, *node.body]
                self.tests += [(f"{node.name}::{m.name}", m, scope) for m in methods]
        tests = {id(fn) for _, fn, _ in self.tests}
        defs = [n for n in ast.walk(tree) if isinstance(n, _FUNCS) and id(n) not in tests]
        self.helpers: set[str] = set()  # functions that assert, directly or through others
        while grown := {
            d.name
            for d in defs
            if d.name not in self.helpers and any(self.site(n) for n in ast.walk(d))
        }:
            self.helpers |= grown

    def site(self, node: ast.AST, helpers: set[str] | None = None) -> bool:
        return _is_site(node, self.helpers if helpers is None else helpers, self.aliases)

    def is_test(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        fixture = any("fixture" in _dotted(d) for d in fn.decorator_list)
        return fn.name.startswith("test") and not fixture

    def skip_mark(self, expr: ast.AST) -> bool:
        marks = (n for n in ast.walk(expr) if isinstance(n, (ast.Attribute, ast.Name)))
        return any(_resolved(n, self.aliases).endswith(_SKIP_MARKS) for n in marks)

    def nondeterministic(self, call: ast.Call) -> str:
        """The name of a call whose value changes from run to run, "" for others."""
        name = _resolved(call, self.aliases)
        parts = name.split(".")
        if "random" in parts[:-1] or parts[0] == "secrets":
            if parts[-1] == "seed" or (parts[-1] in ("Random", "default_rng") and call.args):
                return ""
            return "" if self.seeded and parts[0] == "random" else name
        return name if name in _CLOCKS else ""

    def lint(self) -> list[Finding]:
        found: list[Finding] = []
        top = [s for s in self.tree.body if not isinstance(s, _SCOPES)]
        for node in _nodes(top):
            if isinstance(node, ast.Call) and (name := self.nondeterministic(node)):
                message = f"module level: {name}() differs from run to run"
                found.append(_finding("nondeterminism", self.path, node.lineno, "", message))
        shapes: dict[str, tuple[str, int]] = {}
        names: dict[str, int] = {}
        for name, fn, scope in self.tests:
            marks = [
                s
                for s in scope
                if isinstance(s, ast.Assign)
                and any(_dotted(t) == "pytestmark" for t in s.targets)
                and self.skip_mark(s.value)
            ]
            found += _Test(self, name, fn, marks).lint()
            body = fn.body[1:] if ast.get_docstring(fn) else fn.body
            shape = ast.dump(ast.Module(body=[*fn.decorator_list, fn.args, *body], type_ignores=[]))
            if shape in shapes:
                other, line = shapes[shape]
                message = f"same body as {other} (line {line})"
                found.append(_finding("duplicate-test", self.path, fn.lineno, name, message))
            shapes.setdefault(shape, (name, fn.lineno))
            if name in names:
                message = f"defined again at line {fn.lineno}: pytest runs only the last one"
                found.append(_finding("duplicate-test", self.path, names[name], name, message))
            names[name] = fn.lineno
        return found


class _Test:
    """One test function: which names hold runs and outputs, and what its assertions check."""

    def __init__(
        self,
        mod: _Module,
        name: str,
        fn: ast.FunctionDef | ast.AsyncFunctionDef,
        marks: list[ast.Assign],
    ) -> None:
        self.mod, self.name, self.fn, self.marks = mod, name, fn, marks
        self.nodes = [(n, fr) for n, fr in _walk(fn) if fr[0][1] == "body"]
        self.consts = {**mod.consts, **_literals(fn.body)}
        nested = [n for n, _ in self.nodes if isinstance(n, _FUNCS)]
        self.nested = {d.name: d for d in nested}
        self.helpers = mod.helpers | {d.name for d in nested if any(map(mod.site, ast.walk(d)))}
        self.runners = {
            d.name for d in nested if any(_dotted(c) == mod.fixture for c in ast.walk(d))
        }  # nested functions that call the fixture
        self.runs: dict[str, list[tuple[int, str]]] = {}  # name -> (line bound, run)
        self.derived: dict[str, set[Key]] = {}  # name -> the outputs it is computed from
        self.normalised: set[str] = set()
        self.matches: dict[str, ast.expr] = {}  # m = re.search(...): what assert m tests
        self.checks: list[_Check] = []
        self.pending: list[tuple[str, int, frozenset[Key], str, bool]] = []
        self.prints: list[tuple[int, frozenset[Key]]] = []
        self.found: list[Finding] = []
        self.asserts = self.trivial = 0
        self.guards: set[int] = set()  # pytest.fail() of `if COND: pytest.fail()`
        self.raising: set[int] = set()  # statements expected to raise

    def flag(self, name: str, line: int, message: str) -> None:
        self.found.append(_finding(name, self.mod.path, line, self.name, message))

    def defer(self, name: str, line: int, keys: frozenset[Key], message: str, sized: bool = False):
        """A finding dropped if an unconditional exact check (or, with ``sized``, a length
        check) of the same output makes it harmless."""
        self.pending.append((name, line, keys, message, sized))

    def site(self, node: ast.AST) -> bool:
        return self.mod.site(node, self.helpers)

    def sites(self, stmts: Iterable[ast.AST], runs: bool = False) -> bool:
        """Whether ``stmts`` hold a place where the test can fail (or, with ``runs``, a run)."""
        return any(self.site(n) or (runs and self.is_run(n)) for n in _nodes(stmts))

    # --- where values come from -------------------------------------------------------------

    def is_run(self, node: ast.AST) -> bool:
        """A call of the fixture, of a nested function that calls it, or of a helper handed it."""
        if not isinstance(node, ast.Call):
            return False
        args = [*node.args, *(k.value for k in node.keywords)]
        fixture = self.mod.fixture
        handed = any(isinstance(a, ast.Name) and a.id == fixture for a in args)
        return handed or _dotted(node) in (fixture, *self.runners)

    def root(self, node: ast.AST) -> str:
        """Which run ``node`` is the result of ("" if none): the call, or the latest binding;
        ``run@`` for the fixture's own result, ``via@`` for a helper's."""
        if self.is_run(node):
            kind = "run" if _dotted(node) == self.mod.fixture else "via"
            return f"{kind}@{node.lineno}:{node.col_offset}"
        if isinstance(node, ast.Name) and node.id in self.runs:
            entries = self.runs[node.id]
            before = [root for line, root in entries if line <= node.lineno]
            return before[-1] if before else entries[0][1]
        return ""

    def prov(self, expr: ast.AST) -> frozenset[Key]:
        """The (run, channel) pairs ``expr`` is computed from."""
        keys: set[Key] = set()

        def visit(node: ast.AST) -> None:
            channel = isinstance(node, ast.Attribute) and node.attr in _CHANNELS
            if channel and (root := self.root(node.value)):
                keys.add((root, node.attr))
            elif root := self.root(node):
                keys.update((root, ch) for ch in _CHANNELS)
            elif isinstance(node, ast.Name) and node.id in self.derived:
                keys.update(self.derived[node.id])
            else:
                for child in ast.iter_child_nodes(node):
                    visit(child)

        visit(expr)
        return frozenset(keys)

    def direct(self, node: ast.AST) -> bool:
        """The fixture's result itself or one of its channels (never None, type fixed)."""
        if isinstance(node, ast.Attribute) and node.attr in _CHANNELS:
            node = node.value
        return self.root(node).startswith("run@")

    def is_normalised(self, expr: ast.AST) -> bool:
        """Whether ``expr`` strips, folds case, sorts or splits output on the way."""
        for n in ast.walk(expr):
            if isinstance(n, ast.Name) and n.id in self.normalised:
                return True
            if not isinstance(n, ast.Call):
                continue
            if isinstance(n.func, ast.Attribute) and self.prov(n.func.value):
                method = n.func.attr
                if method in _NORMALISERS or (method == "split" and not n.args):
                    return True
            named = _resolved(n, self.mod.aliases) in _NORMALISING
            if named and n.args and self.prov(n.args[0]):
                return True
        return False

    def bind(self) -> None:
        """Trace runs and derived names through assignments (flow-insensitive, to a fixpoint)."""
        pairs: list[tuple[ast.AST, ast.AST, bool]] = []
        for node, _ in self.nodes:
            if isinstance(node, ast.Assign):
                pairs += [(t, node.value, True) for t in node.targets]
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)) and node.value:
                pairs.append((node.target, node.value, True))
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                pairs.append((node.target, node.iter, False))
            elif isinstance(node, ast.withitem) and node.optional_vars:
                pairs.append((node.optional_vars, node.context_expr, True))
        for _ in range(4):
            for target, value, whole in pairs:
                self._bind(target, value, whole)
        for target, value, whole in pairs:
            if whole and isinstance(target, ast.Name) and self.predicate(value):
                self.matches[target.id] = value

    def _bind(self, target: ast.AST, value: ast.AST, whole: bool) -> None:
        seqs = (ast.Tuple, ast.List)
        if isinstance(target, seqs) and isinstance(value, ast.Call) and not whole:
            if _dotted(value) == "zip":  # for a, b in zip(x, y)
                value = ast.Tuple(elts=value.args)
            elif _dotted(value) == "enumerate" and value.args:  # for i, x in enumerate(y)
                value = ast.Tuple(elts=[ast.Constant(0), value.args[0]])
        pairwise = isinstance(target, seqs) and isinstance(value, seqs)
        if pairwise and len(target.elts) == len(value.elts):  # a, b = x, y
            for t, v in zip(target.elts, value.elts, strict=True):
                self._bind(t, v, whole)
            return
        if whole and isinstance(target, ast.Name) and (root := self.root(value)):
            entries = self.runs.setdefault(target.id, [])
            if (target.lineno, root) not in entries:
                entries.append((target.lineno, root))
                entries.sort()
        elif keys := self.prov(value):
            for n in ast.walk(target):
                if isinstance(n, ast.Name):
                    self.derived.setdefault(n.id, set()).update(keys)
                    if whole and self.is_normalised(value):
                        self.normalised.add(n.id)

    # --- what assertions check --------------------------------------------------------------

    def literal(self, node: ast.AST) -> object:
        if isinstance(node, ast.Name) and node.id in self.consts:
            node = self.consts[node.id]
        return _const(node)

    def trivially_true(self, e: ast.expr) -> str:
        """Why ``e`` cannot be false ("" if it can)."""
        if isinstance(e, ast.Constant):
            return f"the constant {e.value!r}" if e.value else ""
        if isinstance(e, ast.JoinedStr):
            text = any(isinstance(v, ast.Constant) and v.value for v in e.values)
            return "a non-empty f-string" if text else ""
        if isinstance(e, (ast.List, ast.Set, ast.Tuple)) and e.elts:
            return "a non-empty literal"
        if (isinstance(e, ast.Dict) and e.keys) or isinstance(e, ast.Lambda):
            return "a non-empty literal"
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            false = isinstance(e.operand, ast.Constant) and not e.operand.value
            return "not of a false constant" if false else ""
        if self.direct(e) and not isinstance(e, ast.Attribute):
            return "the result object, which is always true"
        if isinstance(e, ast.BoolOp):
            parts = [self.trivially_true(v) for v in e.values]
            if isinstance(e.op, ast.Or) and any(parts):
                return f"one alternative is {next(p for p in parts if p)}"
            return parts[0] if all(parts) else ""
        if isinstance(e, ast.Call) and _dotted(e) == "isinstance" and e.args:
            return "the type of the result never changes" if self.direct(e.args[0]) else ""
        if not isinstance(e, ast.Compare) or len(e.ops) != 1:
            return ""
        left, op, right = e.left, e.ops[0], e.comparators[0]
        same = ast.dump(left) == ast.dump(right)
        pure = not any(isinstance(n, ast.Call) for n in ast.walk(left))
        if same and pure and isinstance(op, (ast.Eq, ast.Is, ast.LtE, ast.GtE, ast.In)):
            return f"{ast.unparse(left)} compared with itself"
        none = isinstance(right, ast.Constant) and right.value is None
        if isinstance(op, (ast.IsNot, ast.NotEq)) and none and self.direct(left):
            return f"{ast.unparse(left)} is never None"
        if isinstance(op, ast.GtE) and _is_len(left) and _const(right) == 0:
            return "a length is never negative"
        if isinstance(op, ast.In) and self.literal(left) in ("", b""):
            return "the empty string is in every string"
        return ""

    def predicate(self, e: ast.expr) -> bool:
        """A call that tests the output (startswith, re.search, all ...), not a conversion, or a
        name bound to one."""
        if isinstance(e, ast.Name):
            return e.id in self.matches
        if not isinstance(e, ast.Call):
            return False
        callee = e.func.attr if isinstance(e.func, ast.Attribute) else _dotted(e)
        return callee in _PREDICATES or _resolved(e, self.mod.aliases) in _REGEX

    def classify(self, e: ast.expr) -> tuple[str, frozenset[Key], bool]:
        """How one conjunct looks at the run: (strength, keys, compares a len())."""
        keys = self.prov(e)
        rc = {k for k in keys if k[1] == "returncode"}
        if self.trivially_true(e):
            return TRIVIAL, keys, False
        if not keys or isinstance(e, (ast.BoolOp, ast.IfExp)):
            return PARTIAL, keys, False
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            if isinstance(e.operand, (ast.Compare, ast.BoolOp)) or self.predicate(e.operand):
                return ABSENCE, keys, False
            return (EXACT if rc == keys else EMPTY), keys, False
        if not isinstance(e, ast.Compare):
            return (PARTIAL if self.predicate(e) else WEAK if rc == keys else NONEMPTY), keys, False
        left, op, right = e.left, e.ops[0], e.comparators[0]
        if self.prov(left) & self.prov(right):
            return SELF, keys, False
        sized = _is_len(left) or _is_len(right)
        empty = _is_empty(left) or _is_empty(right)
        empty = empty or (sized and 0 in (_const(left), _const(right)))
        if isinstance(op, (ast.Eq, ast.Is)):
            if empty:
                return EMPTY, keys, False
            side = left if self.prov(left) else right
            text = {k[1] for k in keys} & _TEXT and self.is_normalised(side)
            return (PARTIAL if sized or text or self.predicate(side) else EXACT), keys, sized
        if isinstance(op, ast.IsNot) and _const(right) is None and not self.direct(left):
            return PARTIAL, keys, False  # a match or a lookup found something
        if isinstance(op, (ast.NotEq, ast.IsNot)):
            return (NONEMPTY if empty else WEAK if rc else ABSENCE), keys, False
        if isinstance(op, ast.NotIn):
            return ABSENCE, keys, False
        if isinstance(op, (ast.Gt, ast.GtE, ast.Lt, ast.LtE)):
            grows = {ast.Gt: 0, ast.GtE: 1}.get(type(op))
            shrinks = {ast.Lt: 0, ast.LtE: 1}.get(type(op))
            if (_is_len(left) and _const(right) == grows) or (
                _is_len(right) and _const(left) == shrinks
            ):
                return NONEMPTY, keys, False
            return (WEAK if rc else PARTIAL), keys, False
        return PARTIAL, keys, False

    def assertion(self, node: ast.AST, expr: ast.expr, frames: Frames) -> None:
        """One assertion (an assert, a guard ``if``, a unittest assert call)."""
        self.asserts += 1
        line = node.lineno
        if isinstance(expr, ast.Tuple) and expr.elts:
            self.trivial += 1
            message = "a non-empty tuple is always true: write assert CHECK, MESSAGE"
            return self.flag("assert-tuple", line, message)
        parts = _conjuncts(expr)
        kinds = [self.classify(c) for c in parts]
        if all(k[0] == TRIVIAL for k in kinds):
            self.trivial += 1
            return self.flag("always-true", line, f"always true: {self.trivially_true(expr)}")
        solid = not any(isinstance(n, _BRANCHES) and f != "test" for n, f in frames)
        for c, (strength, keys, sized) in zip(parts, kinds, strict=True):
            if strength != TRIVIAL:
                self.checks.append(_Check(line, strength, keys, solid, sized))
                self.conjunct(line, c, strength, keys)
        return None

    def conjunct(self, line: int, c: ast.expr, strength: str, keys: frozenset[Key]) -> None:
        """The rules about one conjunct of an assertion."""
        if strength == SELF:
            self.flag("expected-from-output", line, f"{ast.unparse(c)}: both sides are computed "
                      "from the same output")  # fmt: skip
        choices = isinstance(c, ast.Compare) and isinstance(c.ops[0], ast.In)
        choices = choices and isinstance(c.comparators[0], (ast.Tuple, ast.List, ast.Set))
        choices = choices and len(c.comparators[0].elts) > 1 and bool(self.prov(c.left))
        if isinstance(c, (ast.BoolOp, ast.IfExp)) or choices:
            self.flag("disjunctive-assertion", line, f"{ast.unparse(c)} accepts either behaviour")
        if strength == WEAK:
            self.defer("weak-exit-status", line, keys, f"{ast.unparse(c)}: compare with ==")
        if strength != PARTIAL or choices:
            return
        if isinstance(c, ast.Compare) and isinstance(c.ops[0], (ast.Eq, ast.Is)):
            side = c.left if self.prov(c.left) else c.comparators[0]
            if {k[1] for k in keys} & _TEXT and not _is_len(side) and self.is_normalised(side):
                message = f"{ast.unparse(side)} hides differences the exact output would show"
                self.defer("normalised-comparison", line, keys, message)
        probe = c.left if isinstance(c, ast.Compare) and isinstance(c.ops[0], ast.IsNot) else c
        probe = self.matches.get(probe.id, c) if isinstance(probe, ast.Name) else c
        for n in ast.walk(probe):
            if isinstance(n, ast.Compare) and isinstance(n.ops[0], ast.In):
                self.short(line, "substring", n.left, self.prov(n.comparators[0]))
            if not isinstance(n, ast.Call):
                continue
            method = n.func.attr if isinstance(n.func, ast.Attribute) else ""
            inner = n.func.value if isinstance(n.func, ast.Attribute) else n.func
            if method in _SUBSTRING and n.args:
                first = n.args[0]
                for s in first.elts if isinstance(first, ast.Tuple) else [first]:
                    self.short(line, f"{method}()", s, self.prov(inner))
            elif _resolved(n, self.mod.aliases) in _REGEX and len(n.args) > 1:
                self.short(line, "pattern", n.args[0], self.prov(n.args[1]))
            elif method in _PREDICATES and isinstance(inner, ast.Call) and inner.args and n.args:
                if _resolved(inner, self.mod.aliases) == "re.compile":
                    self.short(line, "pattern", inner.args[0], self.prov(n.args[0]))
            elif _dotted(n) == "all" and n.args and hasattr(n.args[0], "generators"):
                over = [self.prov(g.iter) for g in n.args[0].generators]
                if over := frozenset().union(*over):
                    message = "all() over output is true when the output is empty"
                    self.defer("vacuous-loop", line, over, message, sized=True)

    def short(self, line: int, what: str, node: ast.AST, keys: frozenset[Key]) -> None:
        value = self.literal(node)
        if keys and isinstance(value, (str, bytes)) and len(value) < MIN_LITERAL:
            rule = "short-regex" if what == "pattern" else "short-substring"
            message = f"{what} {value!r} is shorter than {MIN_LITERAL} characters"
            self.defer(rule, line, keys, f"{message}; compare the whole output")

    # --- the pass over the test -------------------------------------------------------------

    def lint(self) -> list[Finding]:
        """Every finding of the test."""
        for mark in self.marks:
            self.flag("skipped-test", mark.lineno, "pytestmark skips or xfails the test")
        for deco in self.fn.decorator_list:
            if self.mod.skip_mark(deco):
                self.flag("skipped-test", deco.lineno, f"@{ast.unparse(deco)}")
        self.bind()
        for node, frames in self.nodes:
            if isinstance(node, ast.Assert):
                self.assertion(node, node.test, frames)
            elif isinstance(node, ast.If) and self.guard(node):
                fail = node.body[0]
                self.guards.add(id(fail.value if isinstance(fail, ast.Expr) else fail))
                negated = ast.copy_location(ast.UnaryOp(op=ast.Not(), operand=node.test), node)
                self.assertion(node, negated, frames)
            elif isinstance(node, (ast.If, ast.Match)):
                self.conditional(node, frames)
            elif isinstance(node, (ast.For, ast.AsyncFor)) and self.sites(node.body):
                it = node.iter
                it = self.consts.get(it.id, it) if isinstance(it, ast.Name) else it
                if _is_empty(it):
                    self.flag("vacuous-loop", node.lineno, "the loop runs over nothing")
                elif keys := self.prov(node.iter):
                    message = "assertions in a loop over output that may be empty"
                    self.defer("vacuous-loop", node.lineno, keys, message, sized=True)
            elif isinstance(node, (ast.Try, ast.TryStar)) and self.sites(node.body, runs=True):
                self.swallowed(node)
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                self.with_(node)
            elif isinstance(node, ast.Raise) and _is_fail(node, self.mod.aliases):
                self.asserts += id(node) not in self.guards
            elif isinstance(node, ast.Expr) and self.unused(node):
                self.flag("result-unused", node.lineno, "the result of this run is never used")
            if isinstance(node, ast.Call):
                self.call(node, frames)
        return self.finish()

    def unused(self, node: ast.Expr) -> bool:
        """A run as a statement, not an asserting helper's, nor expected to raise."""
        run = self.is_run(node.value) and not self.site(node.value)
        return run and id(node) not in self.raising

    def guard(self, node: ast.If) -> bool:
        """``if CONDITION: pytest.fail(...)``: an assertion of ``not CONDITION``."""
        one = len(node.body) == 1 and not node.orelse
        return one and _is_fail(node.body[0], self.mod.aliases)

    def conditional(self, node: ast.If | ast.Match, frames: Frames) -> None:
        cond = node.test if isinstance(node, ast.If) else node.subject
        parent, field = frames[-1]
        if isinstance(parent, ast.If) and field == "orelse":
            return  # an elif: its if reports
        if self.prov(cond) and self.sites([node]):
            message = f"assertions depend on {ast.unparse(cond)}, which the program decides"
            self.flag("conditional-assertion", node.lineno, message)

    def swallowed(self, node: ast.Try | ast.TryStar) -> None:
        for handler in node.handlers:
            reraises = any(isinstance(n, ast.Raise) for n in ast.walk(handler))
            if _broad(handler.type) and not reraises and not self.sites(handler.body):
                message = "the handler swallows failed assertions and runs: let them fail"
                self.flag("swallowed-failure", handler.lineno, message)
        exits = (ast.Return, ast.Break, ast.Continue)
        if any(isinstance(n, exits) for n in _nodes(node.finalbody)):
            message = "a return/break/continue in finally drops any failure"
            self.flag("swallowed-failure", node.lineno, message)

    def with_(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            ctx = item.context_expr
            name = _resolved(ctx, self.mod.aliases)
            args = ctx.args if isinstance(ctx, ast.Call) else []
            broad = any(_broad(a) for a in args)
            if name.endswith("suppress") and broad and self.sites(node.body, runs=True):
                message = f"{ast.unparse(ctx)} swallows failed assertions and runs"
                self.flag("swallowed-failure", node.lineno, message)
            elif name in ("pytest.raises", "pytest.warns"):
                self.asserts += 1
                self.raising |= {id(s) for s in node.body}
                runs = [self.prov(n) for n in _nodes(node.body) if self.is_run(n)]
                self.checks.append(_Check(node.lineno, PARTIAL, frozenset().union(*runs)))

    def call(self, node: ast.Call, frames: Frames) -> None:
        name = _resolved(node, self.mod.aliases)
        method = node.func.attr if isinstance(node.func, ast.Attribute) else ""
        if name in _SKIP_CALLS or method == "skipTest":
            self.flag("skipped-test", node.lineno, f"{name or method}() skips the test")
        elif name in ("time.sleep", "asyncio.sleep"):
            self.flag("sleep-in-test", node.lineno, f"{name}(): tests must not depend on timing")
        elif what := self.mod.nondeterministic(node):
            self.flag("nondeterminism", node.lineno, f"{what}() differs from run to run")
        elif name == "print" and (keys := self.prov(node)):
            self.prints.append((node.lineno, keys))
        elif method in _UNITTEST and len(node.args) >= 2:
            op = _UNITTEST[method]()
            expr = ast.Compare(left=node.args[0], ops=[op], comparators=[node.args[1]])
            self.assertion(node, expr, frames)
        elif method in _UNITTEST_ONE and node.args:
            self.assertion(node, _UNITTEST_ONE[method](node.args[0]), frames)
        elif self.site(node) and id(node) not in self.guards:
            self.asserts += 1
            if isinstance(node.func, ast.Name):  # an asserting helper: trusted to check exactly
                keys = self.prov(ast.Tuple(elts=[*node.args, *(k.value for k in node.keywords)]))
                keys |= {(self.root(node), ch) for ch in _CHANNELS if self.is_run(node)}
                if node.func.id in self.nested:  # what a closure asserts about
                    keys |= self.prov(self.nested[node.func.id])
                solid = not any(isinstance(n, _BRANCHES) and f != "test" for n, f in frames)
                self.checks.append(_Check(node.lineno, EXACT, keys, solid))

    def finish(self) -> list[Finding]:
        """The test-wide rules, once every assertion is known."""
        line = self.fn.lineno
        if not self.asserts:
            self.flag("no-assertion", line, "the test asserts nothing")
            return self.found
        if not any(self.is_run(n) for stmt in self.fn.body for n in ast.walk(stmt)):
            self.flag("program-not-called", line, f"the test never calls {self.mod.fixture}()")
            return self.found
        keyed = [c for c in self.checks if c.keys]
        if not keyed:
            if not self.trivial:
                self.flag("no-assertion", line, "no assertion looks at the program's run")
            return self.found
        seen: dict[str, set[str]] = {ch: set() for ch in _CHANNELS}
        for c in keyed:
            for _, ch in c.keys:
                seen[ch].add(c.strength)
        content = {EXACT, EMPTY, PARTIAL}
        out = {ch for ch in ("stdout", "files") if seen[ch] & content}
        out |= {"stderr"} if seen["stderr"] & {EXACT, PARTIAL} else set()
        if not out:
            if any(NONEMPTY in seen[ch] for ch in ("stdout", "stderr", "files")):
                message = "the output is only checked to be non-empty: compare it exactly"
                self.flag("only-nonempty-output", line, message)
            elif any(c.strength != SELF for c in keyed):
                message = "nothing asserted would fail for a program that writes nothing"
                self.flag("only-exit-status", line, message)
        elif not (seen["stdout"] | seen["files"]) - {SELF}:
            message = "stderr is checked but neither stdout nor the written files"
            self.flag("stdout-unchecked", line, f"{message}: assert r.stdout == ...")
        exact = {k for c in self.checks if c.solid and c.strength in (EXACT, EMPTY) for k in c.keys}
        sized = exact | {k for c in self.checks if c.solid and c.sized for k in c.keys}
        for rule, at, keys, message, by_size in self.pending:
            if not keys <= (sized if by_size else exact):
                self.flag(rule, at, message)
        examined = {k for c in self.checks if c.strength in content for k in c.keys}
        for at, keys in self.prints:
            if keys - examined:
                self.flag("print-instead-of-assert", at, "output printed but never asserted")
        return self.found
