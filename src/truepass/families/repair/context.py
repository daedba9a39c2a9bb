"""Trim a sample's code to a token budget by relevance, not by cutting at the end.

Each code file is split with :mod:`ast` into *units*: top-level functions, methods, class headers
(everything of a class that is not a method) and runs of module-level code. A file that does not
parse is one unit. Units are ranked: the focus (the units holding the given fault lines, or else
the functions the failing visible tests call), then their callers, then their callees, then the
rest by distance in the reference graph and by position. Whole units are kept in that order
while they fit; each file is rendered with its kept units in their original order and a comment
such as ``# ... 3 other functions omitted ...`` where units were dropped.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from truepass import pyast
from truepass.families.repair.schema import FaultLocation

CountTokens = Callable[[str], int]
_KIND_WORDS = {
    "function": ("function", "functions"),
    "method": ("function", "functions"),
    "class": ("class", "classes"),
    "module": ("module-level block", "module-level blocks"),
    "file": ("file", "files"),
}


@dataclass
class Unit:
    """One piece of a file that is kept or dropped as a whole."""

    file: str
    kind: str
    name: str
    lines: list[int]
    indent: str = ""
    defines: set[str] = field(default_factory=set)
    refs: set[str] = field(default_factory=set)
    parent: int | None = None  # global index of the class header unit, for methods


@dataclass(frozen=True)
class TrimmedFile:
    """A file as shown to the model: its kept units in order, elisions marked."""

    path: str
    content: str
    omitted: int


def _names(nodes: Iterable[ast.AST]) -> set[str]:
    out: set[str] = set()
    for node in nodes:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name):
                out.add(sub.id)
            elif isinstance(sub, ast.Attribute):
                out.add(sub.attr)
    return out


def _defined(stmts: Iterable[ast.stmt]) -> set[str]:
    out: set[str] = set()
    for st in stmts:
        if isinstance(st, ast.Import | ast.ImportFrom):
            out |= {(a.asname or a.name).split(".")[0] for a in st.names}
        elif isinstance(st, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = st.targets if isinstance(st, ast.Assign) else [st.target]
            out |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return out


def _start(node: ast.stmt) -> int:
    decos = getattr(node, "decorator_list", None) or []
    return min([node.lineno, *(d.lineno for d in decos)])


_DEF = ast.FunctionDef | ast.AsyncFunctionDef


def split_units(path: str, text: str) -> list[Unit]:
    """Units of one file, in file order; lines between units go with the unit that follows.

    A method's ``parent`` is the index of its class header within the returned list.
    """
    n_lines = len(text.splitlines())
    try:
        tree = pyast.parse(text) if path.endswith(".py") else None
    except (SyntaxError, ValueError):
        tree = None
    if tree is None or not tree.body:
        return [Unit(path, "file", path, list(range(1, n_lines + 1)))]
    units: list[Unit] = []
    groups: list[list[ast.stmt]] = []
    for st in tree.body:
        if isinstance(st, _DEF | ast.ClassDef) or not groups or _is_def_group(groups[-1]):
            groups.append([st])
        else:
            groups[-1].append(st)
    prev_end = 0
    for i, group in enumerate(groups):
        end = n_lines if i == len(groups) - 1 else group[-1].end_lineno or group[-1].lineno
        span = list(range(prev_end + 1, end + 1))
        prev_end = end
        head = group[0]
        if isinstance(head, _DEF):
            units.append(Unit(path, "function", head.name, span, "", {head.name}, _names([head])))
        elif isinstance(head, ast.ClassDef):
            units.extend(_class_units(path, head, span, len(units)))
        else:
            units.append(Unit(path, "module", "<module>", span, "", _defined(group), _names(group)))
    return units


def split_all(files: Mapping[str, str]) -> list[Unit]:
    """Units of every file, in file order; ``parent`` indexes into the returned list."""
    units: list[Unit] = []
    for path, text in files.items():
        base = len(units)
        for u in split_units(path, text):
            if u.parent is not None:
                u.parent += base
            units.append(u)
    return units


def _is_def_group(group: list[ast.stmt]) -> bool:
    return isinstance(group[0], _DEF | ast.ClassDef)


def _class_units(path: str, cls: ast.ClassDef, span: list[int], at: int) -> list[Unit]:
    methods = [st for st in cls.body if isinstance(st, _DEF)]
    others = [st for st in cls.body if not isinstance(st, _DEF)]
    header_refs = _names([*cls.bases, *cls.decorator_list, *cls.keywords, *others])
    header = Unit(path, "class", cls.name, [], "", {cls.name}, header_refs)
    out = [header]
    taken: set[int] = set()
    body_lines = [st.end_lineno or st.lineno for st in cls.body]
    for m in methods:
        before = [e for e in body_lines if e < _start(m)]
        first = max(before) + 1 if before else _start(m)
        lines = list(range(first, (m.end_lineno or m.lineno) + 1))
        taken.update(lines)
        indent = " " * m.col_offset
        name = f"{cls.name}.{m.name}"
        out.append(Unit(path, "method", name, lines, indent, {m.name}, _names([m]), at))
    header.lines = [n for n in span if n not in taken]
    return out


def _failing_test_names(output: str) -> set[str]:
    found = set(re.findall(r"::(?:\w+::)?(test\w*)", output))
    found |= set(re.findall(r"^_{3,} (?:\w+\.)?(test\w*) _{3,}$", output, re.M))
    return found


def called_by_tests(visible_tests: Mapping[str, str], failing_output: str) -> set[str]:
    """Names called by the failing visible tests (by all visible tests if none is named)."""
    failing = _failing_test_names(failing_output)
    tests: list[ast.AST] = []
    for text in visible_tests.values():
        try:
            tree = pyast.parse(text)
        except (SyntaxError, ValueError):
            continue
        tests += [n for n in ast.walk(tree) if isinstance(n, _DEF) and n.name.startswith("test")]
    chosen = [t for t in tests if getattr(t, "name", "") in failing] or tests
    out: set[str] = set()
    for t in chosen:
        for node in ast.walk(t):
            if isinstance(node, ast.Call):
                f = node.func
                out.add(f.id if isinstance(f, ast.Name) else getattr(f, "attr", ""))
    return out - {""}


def rank_units(units: list[Unit], focus: list[FaultLocation] | None, called: set[str]) -> list[int]:
    """Indexes of ``units`` from most to least relevant (see the module docstring)."""
    if focus:
        want = {(loc.file, n) for loc in focus for n in loc.lines}
        seeds = [i for i, u in enumerate(units) if any((u.file, n) in want for n in u.lines)]
    else:
        seeds = [i for i, u in enumerate(units) if u.kind != "module" and u.defines & called]
    if not seeds:
        return list(range(len(units)))
    seed_defs = set().union(*(units[i].defines for i in seeds))
    seed_refs = set().union(*(units[i].refs for i in seeds))
    others = [i for i in range(len(units)) if i not in seeds]
    callers = [i for i in others if units[i].refs & seed_defs]
    callees = [i for i in others if units[i].defines & seed_refs and i not in callers]
    dist = _distances(units, seeds)
    rest = sorted(
        (i for i in others if i not in callers and i not in callees),
        key=lambda i: (dist.get(i, len(units) + 1), i),
    )
    return seeds + callers + callees + rest


def _distances(units: list[Unit], seeds: list[int]) -> dict[int, int]:
    def linked(a: Unit, b: Unit) -> bool:
        return bool(a.refs & b.defines or b.refs & a.defines)

    dist = {i: 0 for i in seeds}
    frontier = list(seeds)
    while frontier:
        nxt = []
        for i in frontier:
            for j, u in enumerate(units):
                if j not in dist and linked(units[i], u):
                    dist[j] = dist[i] + 1
                    nxt.append(j)
        frontier = nxt
    return dist


def _elision(dropped: list[Unit]) -> str:
    kinds = {_KIND_WORDS[u.kind] for u in dropped}
    n = len(dropped)
    if len(kinds) == 1:
        one, many = kinds.pop()
        what = one if n == 1 else many
    else:
        what = "definition" if n == 1 else "definitions"
    return f"{dropped[0].indent}# ... {n} other {what} omitted ...\n"


def render_file(path: str, text: str, units: list[Unit], kept: set[int]) -> TrimmedFile:
    """``text`` with only the units whose global index is in ``kept``; dropped runs marked."""
    owner: dict[int, int] = {}
    for gi, u in enumerate(units):
        if u.file == path:
            owner.update({n: gi for n in u.lines})
    out: list[str] = []
    run: list[int] = []
    blanks: list[str] = []

    def flush() -> None:
        if run:
            out.append(_elision([units[g] for g in run if units[g].parent not in run]))
            run.clear()
        out.extend(blanks)
        blanks.clear()

    for n, line in enumerate(text.splitlines(keepends=True), start=1):
        gi = owner.get(n)
        if gi is None or gi in kept:
            flush()
            out.append(line if line.endswith("\n") else line + "\n")
        elif not line.strip():
            blanks.append("\n")
        elif gi in run:
            blanks.clear()  # blank lines inside an elided region go with it
        else:
            parent = units[gi].parent
            if not run or (parent not in run and parent != units[run[0]].parent):
                flush()  # a new run; a method run ends where a top-level unit begins
            blanks.clear()
            run.append(gi)
    flush()
    omitted = len({g for g in owner.values() if g not in kept})
    return TrimmedFile(path, "".join(out), omitted)


def trim_files(
    files: Mapping[str, str],
    budget: int,
    count_tokens: CountTokens,
    *,
    focus: list[FaultLocation] | None = None,
    called: set[str] | frozenset[str] = frozenset(),
) -> list[TrimmedFile]:
    """Files trimmed to about ``budget`` tokens, most relevant units kept first.

    The first-ranked unit (with its class header) is kept even past the budget: a prompt
    without the code to fix is of no use.
    """
    full = [
        TrimmedFile(p, t if t.endswith("\n") or not t else t + "\n", 0) for p, t in files.items()
    ]
    if sum(count_tokens(f.content) for f in full) <= budget:
        return full
    units = split_all(files)
    order = rank_units(units, focus, set(called))
    cost = [count_tokens(_unit_text(files[u.file], u)) for u in units]
    kept: list[int] = []
    used = 0
    floor = 0
    for i in order:
        need = [j for j in (units[i].parent, i) if j is not None and j not in kept]
        extra = sum(cost[j] for j in need)
        if kept and used + extra > budget:
            break
        kept += need
        used += extra
        floor = floor or len(kept)
    while True:
        shown = [render_file(p, t, units, set(kept)) for p, t in files.items()]
        if len(kept) <= floor or sum(count_tokens(f.content) for f in shown) <= budget:
            return shown
        kept.pop()


def _unit_text(text: str, unit: Unit) -> str:
    lines = text.splitlines(keepends=True)
    return "".join(lines[n - 1] for n in unit.lines if n <= len(lines))


def truncate_middle(text: str, budget: int, count_tokens: CountTokens) -> tuple[str, bool]:
    """``text`` cut to about ``budget`` tokens by dropping its middle; head and tail are kept.

    Returns the text and whether it was cut.
    """
    if count_tokens(text) <= budget:
        return text, False
    lines = text.splitlines(keepends=True)
    pieces = lines if len(lines) >= 8 else list(text)
    sep = "lines" if pieces is lines else "characters"

    def cut(k: int) -> str:
        head = (2 * k) // 5
        tail = k - head
        gone = len(pieces) - k
        first = "".join(pieces[:head])
        mid = f"{'' if first.endswith(chr(10)) else chr(10)}... [{gone} {sep} omitted] ...\n"
        return first + mid + "".join(pieces[len(pieces) - tail :])

    lo, hi = 0, len(pieces) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if count_tokens(cut(mid)) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return cut(lo), True
