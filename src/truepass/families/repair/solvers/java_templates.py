"""``baseline:templates`` on Java samples: statement templates and the candidate stream.

The Java half of :mod:`.templates`, chosen there through the Java language
(:mod:`truepass.families.repair.languages.java`); localisation and
validation are shared (:mod:`.sbfl`). Expression operators are in :mod:`.java_mutations`; here are
the statement templates (null guards, return swap, swap of two adjacent statements, removal) and
:func:`java_candidates`, which ranks candidates exactly as the Python tool does: suspiciousness
tier, then operator priority (``JAVA_OPERATORS``), then line rank; deduplicated by resulting
source, mutants that do not parse dropped.

Every candidate costs one JVM (about 1-2 s) to validate, so the Java search has its own caps
and a floor on a candidate's timeout (``JAVA_MAX_CANDIDATES``, ``JAVA_TIME_BUDGET_S``,
``JAVA_MIN_TIMEOUT_S`` in :mod:`truepass.families.repair.languages.java`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from tree_sitter import Node

from truepass.families.repair.schema import RepairSample
from truepass.families.repair.solvers.candidates import Candidate, ranked_candidates
from truepass.families.repair.solvers.java_mutations import (
    JAVA_EXPR_OPERATORS,
    JAVA_OPERATORS,
    PRIMITIVE,
    STATEMENT_PARENTS,
    JavaMutant,
    JavaSource,
    field,
    is_read,
    is_statement,
    line_of,
    render,
    return_type,
)
from truepass.families.repair.solvers.sbfl import Localisation
from truepass.pycode.mutants import grouped_edits
from truepass.pycode.sourcefile import Edit

_EMPTY_COLLECTION = {
    **dict.fromkeys(("List", "ArrayList", "Collection", "Iterable", "LinkedList"),
                    "new java.util.ArrayList<>()"),
    **dict.fromkeys(("Map", "HashMap"), "new java.util.HashMap<>()"),
    **dict.fromkeys(("Set", "HashSet"), "new java.util.HashSet<>()"),
}  # fmt: skip
_HAS_IS_EMPTY = frozenset(
    {"String", "CharSequence", "List", "ArrayList", "LinkedList", "Collection", "Set", "HashSet",
     "TreeSet", "Map", "HashMap", "TreeMap", "Queue", "Deque", "ArrayDeque", "Stack"}
)  # fmt: skip
_JUMPS = ("return_statement", "break_statement", "continue_statement", "throw_statement",
          "yield_statement")  # fmt: skip
_KEEP = ("local_variable_declaration", "field_declaration", "labeled_statement")
_LITERAL_RETURNS = (
    "decimal_integer_literal", "hex_integer_literal", "decimal_floating_point_literal",
    "string_literal", "character_literal", "true", "false", "null_literal",
)  # fmt: skip


def _base(typ: str) -> str:
    return typ.split("<")[0].strip().rsplit(".", 1)[-1]


def empty_of(typ: str) -> str | None:
    """The empty value of a declared type (``0``, ``false``, ``""``, an empty array or
    collection), or None when there is none."""
    if typ in PRIMITIVE:
        return "false" if typ == "boolean" else "0"
    if typ == "String":
        return '""'
    if typ.endswith("[]") and "<" not in typ:
        elem, dims = typ[: typ.index("[")].strip(), typ.count("[]")
        return f"new {elem}[0]{'[]' * (dims - 1)}"
    return _EMPTY_COLLECTION.get(_base(typ)) if not typ.endswith("[]") else None


def _returns(src: JavaSource, func: Node) -> Iterator[Node]:
    """The return statements of ``func`` itself (not of nested lambdas or classes)."""
    stack = [func]
    while stack:
        node = stack.pop()
        if node.type == "return_statement" and src.function_of(node) == func:
            yield node
        stack.extend(reversed(node.named_children))


def _value(stmt: Node) -> Node | None:
    values = [c for c in stmt.named_children if c.type not in ("line_comment", "block_comment")]
    return values[0] if values else None


def guard_defaults(src: JavaSource, func: Node) -> list[str]:
    """What a guard may return: simple values the method returns elsewhere (literals,
    parameters), then the empty value of its return type, then ``null`` (reference types)."""
    rtype = return_type(src, func)
    if rtype is None or rtype == "void":
        return []
    params = {d.name for d in src.decls(func) if d.param}
    simple: dict[str, None] = {}
    for ret in _returns(src, func):
        v = _value(ret)
        if v is None:
            continue
        literal = v.type in _LITERAL_RETURNS or (
            v.type == "unary_expression"
            and _value(v) is not None
            and v.named_children[-1].type in _LITERAL_RETURNS
        )
        if (literal and "\n" not in src.seg(v)) or (
            v.type == "identifier" and src.seg(v) in params
        ):
            simple.setdefault(src.seg(v))
    empty = empty_of(rtype)
    rest = [e for e in (empty, None if rtype in PRIMITIVE else "null") if e is not None]
    return list(dict.fromkeys([*simple, *rest]))


def _actions(src: JavaSource, stmt: Node, func: Node, params: bool) -> list[str]:
    """What a guard does: return a default, ``continue``, return a parameter of the type."""
    rtype = return_type(src, func)
    if rtype is None:
        return []
    values = guard_defaults(src, func)
    rets = ["return;"] if rtype == "void" else [f"return {v};" for v in values]
    rets += ["continue;"] if src.in_loop(stmt) else []
    if params and rtype != "void":
        rets += [
            f"return {d.name};"
            for d in src.decls(func)
            if d.param and d.type == rtype and d.name not in values
        ]
    return rets


def _chain_root(node: Node) -> Node:
    while node.type == "field_access":
        obj = field(node, "object")
        if obj is None:
            break
        node = obj
    return node


def guard_targets(src: JavaSource, stmt: Node) -> list[tuple[str, str | None]]:
    """Reference-typed locals and field chains (``a.b``, ``this.head``) the statement reads:
    what may be null, with the declared type where known; at most four."""
    names: dict[str, str | None] = {}
    chains: dict[str, str | None] = {}
    before = {d.name for d in src.visible(stmt)}  # declared before the guard goes in
    for node in src.owned(stmt):
        if node.type == "identifier" and is_read(node) and src.seg(node) in before:
            typ = src.type_of(node)
            if typ is not None and typ not in PRIMITIVE:
                names.setdefault(src.seg(node), typ)
        elif node.type == "field_access":
            parent = node.parent
            written = parent is not None and parent.type == "assignment_expression"
            if written and field(parent, "left") == node:
                continue
            root = _chain_root(node)
            local = root.type == "identifier" and src.seg(root) in before
            local = local and src.type_of(root) not in (None, *PRIMITIVE)
            if (local or root.type == "this") and src.seg(field(node, "field") or node) != "length":
                chains.setdefault(src.seg(node), None)
    return [*names.items(), *chains.items()][:4]


def _guardable(src: JavaSource, stmt: Node) -> bool:
    parent = stmt.parent
    return (
        parent is not None
        and parent.type in STATEMENT_PARENTS
        and stmt.type != "field_declaration"
        and src.owns_lines(stmt)
    )


# --- statement templates: code replaced, inserted before or moved --------------------------


def null_guard(src: JavaSource, stmt: Node) -> Iterator[list[Edit]]:
    """``if (x == null) { return D; }`` (and ``x == null || x.isEmpty()``, ``x.length == 0``)
    inserted before ``stmt``, for what the statement reads that may be null."""
    func = src.function_of(stmt)
    if func is None or return_type(src, func) is None or not _guardable(src, stmt):
        return
    ind, unit = src.indent(stmt)
    nl = src.nl
    at = src.starts[line_of(stmt) - 1]
    for var, typ in guard_targets(src, stmt):
        conds = [f"{var} == null"]
        if typ is not None and _base(typ) in _HAS_IS_EMPTY:
            conds.append(f"{var} == null || {var}.isEmpty()")
        elif typ is not None and typ.endswith("[]"):
            conds.append(f"{var} == null || {var}.length == 0")
        for cond in conds:
            for action in _actions(src, stmt, func, params=cond.endswith("null")):
                yield [(at, at, f"{ind}if ({cond}) {{{nl}{ind}{unit}{action}{nl}{ind}}}{nl}")]


def return_swap(src: JavaSource, stmt: Node) -> Iterator[list[Edit]]:
    """``return a;`` -> ``return b;`` for the other expressions the method returns."""
    value = _value(stmt) if stmt.type == "return_statement" else None
    func = src.function_of(stmt)
    if value is None or func is None:
        return
    mine = src.seg(value)
    seen: dict[str, None] = {}
    for ret in _returns(src, func):
        other = _value(ret)
        if other is not None and ret != stmt and src.seg(other) != mine:
            seen.setdefault(src.seg(other))
    for text in seen:
        yield [(value.start_byte, value.end_byte, text)]


def _declared(src: JavaSource, stmt: Node) -> set[str]:
    if stmt.type != "local_variable_declaration":
        return set()
    names = (field(d, "name") for d in stmt.children_by_field_name("declarator"))
    return {src.seg(n) for n in names if n is not None}


def _uses(src: JavaSource, stmt: Node, names: set[str]) -> bool:
    stack = [stmt]
    while stack:
        node = stack.pop()
        if node.type == "identifier" and src.seg(node) in names:
            return True
        stack.extend(node.named_children)
    return False


def swap_stmts(src: JavaSource, stmt: Node) -> Iterator[list[Edit]]:
    """``stmt`` exchanged with the statement before or after it in the same block (not a jump,
    not a declaration the other one reads)."""
    parent = stmt.parent
    if parent is None or parent.type not in STATEMENT_PARENTS or not src.owns_lines(stmt):
        return
    siblings = [c for c in parent.named_children if is_statement(c)]
    i = siblings.index(stmt) if stmt in siblings else -1
    for j in (i - 1, i + 1) if i >= 0 else ():
        if not 0 <= j < len(siblings):
            continue
        a, b = sorted((stmt, siblings[j]), key=lambda n: n.start_byte)
        if (
            a.type in _JUMPS
            or b.type in _JUMPS
            or not src.owns_lines(siblings[j])
            or _uses(src, b, _declared(src, a))
        ):
            continue
        yield [(a.start_byte, a.end_byte, src.seg(b)), (b.start_byte, b.end_byte, src.seg(a))]


def remove(src: JavaSource, stmt: Node) -> Iterator[list[Edit]]:
    """The statement deleted (its lines, when it has them to itself); ``{}`` where a statement
    is required (the body of an ``if`` or a loop)."""
    func = src.function_of(stmt)
    parent = stmt.parent
    if func is None or parent is None or stmt.type in _KEEP:
        return
    if stmt.type == "return_statement" and _value(stmt) is not None:
        body = field(func, "body")
        last = [c for c in body.named_children if is_statement(c)][-1:] if body else []
        if last and last[0] == stmt:
            return  # the method would end without a return
    if parent.type not in STATEMENT_PARENTS:
        yield [(stmt.start_byte, stmt.end_byte, "{}")]
    elif src.owns_lines(stmt):
        yield [(src.starts[line_of(stmt) - 1], src.starts[stmt.end_point[0] + 1], "")]
    else:
        yield [(stmt.start_byte, stmt.end_byte, "")]


StmtOperator = Callable[[JavaSource, Node], Iterator[list[Edit]]]
JAVA_STMT_OPERATORS: tuple[tuple[str, StmtOperator], ...] = (
    ("null-guard", null_guard), ("return-swap", return_swap), ("swap-stmts", swap_stmts),
    ("remove", remove),
)  # fmt: skip


def line_mutants(src: JavaSource, line: int, per_op: int = 12) -> list[JavaMutant]:
    """Every mutant of one line, in operator priority order, at most ``per_op`` per operator."""
    found = grouped_edits(
        src, line, JAVA_OPERATORS, JAVA_EXPR_OPERATORS, JAVA_STMT_OPERATORS, per_op
    )
    return [JavaMutant(src.path, line, op, edits) for op, edits in found]


def java_sources(sample: RepairSample) -> dict[str, JavaSource]:
    """The sample's Java code files that parse."""
    sources: dict[str, JavaSource] = {}
    for path, text in sample.files.items():
        if path.endswith(".java"):
            try:
                sources[path] = JavaSource(path, text)
            except ValueError:
                continue
    return sources


def java_candidates(
    sample: RepairSample, loc: Localisation, per_op: int = 12
) -> Iterator[Candidate]:
    """Candidates in order: suspiciousness tier, then operator priority, then line rank.

    Mutants that do not parse, change nothing, or repeat an earlier result are skipped.
    """
    yield from ranked_candidates(
        sample.files,
        java_sources(sample),
        loc.lines,
        lambda src, line: line_mutants(src, line, per_op=per_op),
        render,
    )
