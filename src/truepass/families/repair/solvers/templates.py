"""``baseline:templates``: a classic generate-and-validate repair tool (no model involved).

1. Fault localisation: Ochiai over per-test coverage of the visible tests (:mod:`.sbfl`), or,
   for ``baseline:templates+fault``, the sample's own fault lines first.
2. Candidates: expression mutation operators (:mod:`.mutations`) and statement templates (here:
   None guards, try/except, return swap, variable-pair swap, removal) on the suspicious lines,
   in order of suspiciousness tier, then operator priority, then rank; deduplicated by
   resulting source, capped in number and time.
3. Validation: each candidate runs the visible tests in the sandbox (the failing tests' files
   first when that is cheaper); the first one passing every visible test is the answer.

Java samples take the same steps with tree-sitter-based operators (:mod:`.java_templates`) and
their own caps.

It never reads hidden tests, the reference fix or ``known_overfit``; only ``+fault`` reads the
sample's fault lines. Results of the two variants are not comparable, hence the two names.
"""

from __future__ import annotations

import ast
import time
from collections.abc import Iterator, Mapping

from truepass.answers import Answer
from truepass.families.repair import languages
from truepass.families.repair.checks import RepairCheck
from truepass.families.repair.schema import RepairSample
from truepass.families.repair.solvers.candidates import Candidate, ranked_candidates
from truepass.families.repair.solvers.sbfl import (
    Localisation,
    failing_subset,
    localise,
    passes_visible,
)
from truepass.patches.apply import unified_diff
from truepass.pycode.mutants import (
    EXPR_OPERATORS,
    OPERATORS,
    STMT_OPERATORS,
    Mutant,
    grouped_edits,
    render,
)
from truepass.pycode.sourcefile import (
    Edit,
    SourceFile,
    function_locals,
    function_params,
    header_roots,
)
from truepass.sandbox import Limits
from truepass.solvers.base import SolveContext, SolverBase

_EMPTY_RESULT = {
    "len": "0", "sum": "0", "int": "0", "float": "0", "abs": "0", "round": "0", "str": '""',
    "list": "[]", "sorted": "[]", "dict": "{}", "set": "set()", "tuple": "()", "bool": "False",
    "join": '""', "upper": '""', "lower": '""', "strip": '""', "format": '""', "title": '""',
    "replace": '""', "isinstance": "False", "startswith": "False", "endswith": "False",
}  # fmt: skip


def _empty_like(src: SourceFile, v: ast.expr) -> str | None:
    """The empty value of the type ``v`` evaluates to, guessed from its shape."""
    if isinstance(v, ast.JoinedStr) or (isinstance(v, ast.Constant) and isinstance(v.value, str)):
        return '""'
    if isinstance(v, ast.Constant):
        return "False" if isinstance(v.value, bool) else "0" if v.value is not None else None
    if isinstance(v, ast.Compare | ast.BoolOp) or (
        isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.Not)
    ):
        return "False"
    if isinstance(v, ast.Call):
        f = v.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        return _EMPTY_RESULT.get(name)
    if isinstance(v, ast.BinOp):
        return _empty_like(src, v.left) or _empty_like(src, v.right) or "0"
    kinds = ((ast.List, ast.ListComp), (ast.Dict, ast.DictComp), (ast.Set, ast.SetComp))
    for kind, empty in zip(kinds, ("[]", "{}", "set()"), strict=True):
        if isinstance(v, kind):
            return empty
    return "()" if isinstance(v, ast.Tuple) else None


def guard_defaults(src: SourceFile, func: ast.AST) -> list[str]:
    """What a guard may return: simple values the function returns elsewhere (literals,
    parameters), then empty values of the types of its other returns, then ``None``."""
    simple: dict[str, None] = {}
    empties: dict[str, None] = {}
    params = set(function_params(func))
    for node in ast.walk(func):
        if not isinstance(node, ast.Return) or src.function_of(node) is not func:
            continue
        v = node.value
        if v is None:
            simple.setdefault("None")
        elif (isinstance(v, ast.Constant) and "\n" not in src.seg(v)) or (
            isinstance(v, ast.Name) and v.id in params
        ):
            simple.setdefault(src.seg(v))
        elif (empty := _empty_like(src, v)) is not None:
            empties.setdefault(empty)
    return list(dict.fromkeys([*simple, *empties, "None"]))


def _guard_targets(src: SourceFile, stmt: ast.stmt) -> list[str]:
    """Local names and attribute chains (``a.b``) the statement reads: what may be None."""
    func = src.function_of(stmt)
    local = set(function_locals(func)) if func is not None else set()
    names: dict[str, None] = {}
    chains: dict[str, None] = {}
    for root in header_roots(stmt):
        for node in ast.walk(root):
            parent = src.parent.get(node)
            if isinstance(parent, ast.Call) and parent.func is node:
                continue
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in local:
                names.setdefault(node.id)
            elif isinstance(node, ast.Attribute) and _is_chain(node.value):
                chains.setdefault(src.seg(node))
    return [*names, *chains][:4]


def _is_chain(node: ast.expr) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _actions(
    src: SourceFile, stmt: ast.stmt, returns_first: bool, params: bool = True
) -> list[str]:
    """What a guard or handler does: return a default, ``continue``, return a parameter."""
    func = src.function_of(stmt)
    if func is None:
        return ["pass"]
    values = guard_defaults(src, func)
    rets = [f"return {v}" for v in values]
    rets += ["continue"] if src.in_loop(stmt) else []
    rets += [f"return {p}" for p in function_params(func) if p not in values] if params else []
    return rets if returns_first else ["pass", *rets]


def none_guard(src: SourceFile, stmt: ast.stmt) -> Iterator[list[Edit]]:
    """``if x is None: return D`` (and ``if not x: ...``) inserted before ``stmt``;
    ``... for x in xs if x is not None`` in its comprehensions."""
    for node in src.nodes_at(stmt.lineno):  # generator and comprehension elements
        for gen in getattr(node, "generators", ()):
            if isinstance(gen.target, ast.Name):
                at = src.span(gen.ifs[-1] if gen.ifs else gen.iter)[1]
                for cond in (f"{gen.target.id} is not None", gen.target.id):
                    yield [(at, at, f" if {cond}")]
    if not src.owns_lines(stmt) or src.function_of(stmt) is None:
        return
    ind, unit = src.indent(stmt)
    at = src.starts[stmt.lineno - 1]
    for var in _guard_targets(src, stmt):
        for cond in (f"{var} is None", f"not {var}"):  # parameters only for "is None"
            for action in _actions(src, stmt, returns_first=True, params=cond[-4:] == "None"):
                yield [(at, at, f"{ind}if {cond}:{src.nl}{ind}{unit}{action}{src.nl}")]


def try_except(src: SourceFile, stmt: ast.stmt, excs: list[str]) -> Iterator[list[Edit]]:
    """A simple statement wrapped in ``try: ... except E: <pass|continue|return D>``, for the
    built-in exceptions ``excs`` seen in the failing tests' output."""
    compound = any(isinstance(c, ast.stmt) for c in ast.iter_child_nodes(stmt))
    long_string = any(
        isinstance(n, ast.Constant | ast.JoinedStr) and n.lineno != n.end_lineno
        for n in ast.walk(stmt)
    )
    if compound or long_string or not excs or not src.owns_lines(stmt):
        return
    ind, unit = src.indent(stmt)
    a, b = src.starts[stmt.lineno - 1], src.starts[stmt.end_lineno or stmt.lineno]
    body = src.data[a:b].decode("utf-8").splitlines()
    inner = "".join(f"{unit}{ln}{src.nl}" if ln.strip() else src.nl for ln in body)
    for exc in excs[:2]:
        for action in _actions(src, stmt, returns_first=isinstance(stmt, ast.Return)):
            text = f"{ind}try:{src.nl}{inner}{ind}except {exc}:{src.nl}{ind}{unit}{action}{src.nl}"
            yield [(a, b, text)]


def line_mutants(src: SourceFile, line: int, excs: list[str], per_op: int = 12) -> list[Mutant]:
    """Every mutant of one line, in operator priority order, at most ``per_op`` per operator."""
    stmt_ops = (
        *STMT_OPERATORS,
        ("none-guard", none_guard),
        ("try-except", lambda s, stmt: try_except(s, stmt, excs)),
    )
    return [
        Mutant(src.path, line, op, edits)
        for op, edits in grouped_edits(src, line, OPERATORS, EXPR_OPERATORS, stmt_ops, per_op)
    ]


# --- the search ----------------------------------------------------------------------------


def candidates(sample: RepairSample, loc: Localisation, per_op: int = 12) -> Iterator[Candidate]:
    """Candidates in order: suspiciousness tier, then operator priority, then line rank, from
    the operators of the sample's language (none: no candidates).

    Mutants that do not parse, change nothing, or repeat an earlier result are skipped.
    """
    yield from languages.get(sample.language).template_candidates(sample, loc, per_op) or ()


def python_candidates(
    sample: RepairSample, loc: Localisation, per_op: int = 12
) -> Iterator[Candidate]:
    """Python's candidates: the expression operators and the statement templates."""
    sources: dict[str, SourceFile] = {}
    for path, text in sample.files.items():
        if path.endswith(".py"):
            try:
                sources[path] = SourceFile(path, text)
            except (SyntaxError, ValueError):
                continue
    excs = loc.exceptions
    yield from ranked_candidates(
        sample.files,
        sources,
        loc.lines,
        lambda src, line: line_mutants(src, line, excs, per_op=per_op),
        render,
    )


class TemplateSolver(SolverBase):
    """Generate-and-validate repair with mutation operators and fix templates.

    Args:
        given_fault: use the sample's fault lines (ranked first) instead of SBFL alone.
        max_candidates: at most this many candidates are validated per sample.
        time_budget_s: stop validating after this many seconds per sample.
        candidate_timeout_s: wall-clock limit of one candidate test run; by default a few
            times the buggy run's duration (at least 3 s), never more than the judge's limit.
        per_operator: at most this many mutants of one operator on one line.
        caps: language -> (max candidates, seconds) where not the language's own
            (:attr:`~truepass.families.repair.languages.Language.template_caps`: Java's, where
            each validation starts a JVM) or the two above.
    """

    def __init__(
        self,
        given_fault: bool = False,
        *,
        max_candidates: int = 200,
        time_budget_s: float = 120.0,
        candidate_timeout_s: float | None = None,
        per_operator: int = 12,
        caps: Mapping[str, tuple[int, float]] | None = None,
    ) -> None:
        self.given_fault = given_fault
        self.name = "baseline:templates+fault" if given_fault else "baseline:templates"
        self.max_candidates = max_candidates
        self.time_budget_s = time_budget_s
        self.candidate_timeout_s = candidate_timeout_s
        self.per_operator = per_operator
        self.caps = dict(caps or {})

    families = frozenset({"repair"})  # a repair tool: runs refuse it on other task families

    def attempts(self, sample: RepairSample) -> int:
        """One attempt: the search is deterministic."""
        return 1

    def solve(self, sample: RepairSample, attempt: int, ctx: SolveContext) -> Answer | None:
        """Search for a candidate passing every visible test; None when none is found."""
        started = time.monotonic()
        assert isinstance(ctx.check, RepairCheck)
        expected = list(ctx.check.visible_ids)
        if not ctx.check.valid or not expected:
            return None
        loc = localise(sample, expected, ctx.config.limits, given_fault=self.given_fault)
        language = languages.get(sample.language)
        limits = ctx.config.limits.model_copy(
            update={"timeout_s": self._timeout(loc, ctx.config.limits, language.min_timeout_s)}
        )
        cap, budget = (
            self.caps.get(sample.language)
            or language.template_caps
            or (
                self.max_candidates,
                self.time_budget_s,
            )
        )
        prefilter = failing_subset(sample, loc, expected)
        infra = 0
        stream = candidates(sample, loc, per_op=self.per_operator)
        for tried, cand in enumerate(stream, start=1):
            if tried > cap or time.monotonic() - started > budget:
                break
            verdict = passes_visible(sample, cand.files, expected, prefilter, limits)
            if verdict is None:
                infra += 1
            elif verdict:
                return self._answer(sample, loc, cand, tried, infra, started)
        return None

    def _timeout(self, loc: Localisation, limits: Limits, floor: float = 3.0) -> float:
        want = self.candidate_timeout_s or max(floor, 4.0 * loc.duration_s)
        return min(limits.timeout_s, want)

    def _answer(
        self,
        sample: RepairSample,
        loc: Localisation,
        cand: Candidate,
        tried: int,
        infra: int,
        started: float,
    ) -> Answer:
        m = cand.mutant
        given = {(f.file, n) for f in sample.fault for n in f.lines} if self.given_fault else set()
        meta: dict[str, object] = {
            "fault_source": loc.source,
            "operator": m.operator,
            "file": m.file,
            "line": m.line,
            "rank": cand.rank,
            "score": round(cand.score, 4),
            "candidates_tried": tried,
            "search_s": round(time.monotonic() - started, 3),
        }
        if loc.fallback:
            meta["sbfl_fallback"] = loc.fallback
        if self.given_fault:
            meta["in_given_fault"] = (m.file, m.line) in given
        if infra:
            meta["infra_errors"] = infra
        return Answer(
            diff=unified_diff(sample.files, cand.files),
            patch_id=f"{m.operator}@{m.file}:{m.line}",
            meta=meta,
        )
