"""Java expression mutation operators of the ``baseline:templates`` repair tool.

The Java counterpart of :mod:`.mutations` and :mod:`.sourcefile`: a file is parsed once with
tree-sitter (the tree-sitter-java grammar) and every operator proposes text edits at exact byte
ranges of the original source, so the rest of the file keeps its formatting. Mutants are text
only; nothing here compiles or runs them, it only re-parses them and drops those that do not parse
(tree-sitter's ``has_error``). A Parser is made per parse: none is shared across threads.

Types come from declarations only (parameters, locals, for-each variables; ``var`` is unknown):
operators that could produce code that does not compile (ordering comparisons on references,
swapping variables of other types, shifting a non-number) consult them and stay conservative.
The statement templates (null guards, return swap, statement swap, removal) are in
:mod:`.java_templates`; ``JAVA_OPERATORS`` lists all of them in priority order.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from tree_sitter import Language, Node, Parser

from truepass.pycode.mutants import Mutant
from truepass.pycode.sourcefile import Edit, SourceText

JAVA_OPERATORS = (
    "compare", "off-by-one", "arith", "bool", "negate", "call-swap", "constant", "null-guard",
    "return-swap", "arg-swap", "swap-stmts", "var-swap", "shift-value", "remove",
)  # fmt: skip
JAVA_PRIORITY = {name: i for i, name in enumerate(JAVA_OPERATORS)}

COMMENTS = ("line_comment", "block_comment")
FUNCS = ("method_declaration", "constructor_declaration", "compact_constructor_declaration")
SCOPES = (*FUNCS, "lambda_expression")
TYPE_BODIES = ("class_body", "interface_body", "enum_body", "program", "annotation_type_body")
LOOPS = ("for_statement", "enhanced_for_statement", "while_statement", "do_statement")
STATEMENTS = frozenset(
    {
        *LOOPS,
        "expression_statement", "local_variable_declaration", "if_statement", "return_statement",
        "break_statement", "continue_statement", "throw_statement", "try_statement",
        "try_with_resources_statement", "labeled_statement", "synchronized_statement",
        "assert_statement", "yield_statement", "field_declaration",
    }
)  # fmt: skip
STATEMENT_PARENTS = ("block", "switch_block_statement_group", "constructor_body")
NUMERIC = frozenset({"int", "long", "short", "byte", "char", "double", "float"})
PRIMITIVE = NUMERIC | {"boolean"}
SHIFTABLE = frozenset({"int", "long", "double", "float"})  # ``x + 1`` still has the type
INDEX_METHODS = frozenset({"charAt", "get", "substring", "subList", "set", "codePointAt"})

_CMP_SWAPS: dict[str, tuple[str, ...]] = {
    "<": ("<=", ">", ">=", "==", "!="),
    "<=": ("<", ">=", ">", "==", "!="),
    ">": (">=", "<", "<=", "==", "!="),
    ">=": (">", "<=", "<", "==", "!="),
    "==": ("!=", "<=", ">="),
    "!=": ("==",),
}
_ARITH_SWAPS: dict[str, tuple[str, ...]] = {
    "+": ("-", "*"),
    "-": ("+",),
    "*": ("/", "+"),
    "/": ("*", "%"),
    "%": ("/",),
    "^": ("&", "|"),
    "&": ("|",),
    "|": ("&",),
}
_CALL_SWAPS = {"min": "max", "max": "min", "any": "all", "all": "any"}
_ATOMS = frozenset(
    {
        "identifier", "field_access", "method_invocation", "array_access", "this",
        "parenthesized_expression", "decimal_integer_literal", "hex_integer_literal",
        "decimal_floating_point_literal", "string_literal", "character_literal", "true", "false",
        "null_literal", "object_creation_expression", "class_literal",
    }
)  # fmt: skip
_LITERALS = frozenset(
    {
        "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal",
        "binary_integer_literal", "decimal_floating_point_literal", "string_literal",
        "character_literal", "true", "false", "null_literal",
    }
)  # fmt: skip
_NOT_NUMERIC = frozenset({"string_literal", "true", "false", "null_literal", "text_block"})


@functools.cache
def java_language() -> Language:
    """The Java grammar (immutable: shared; parsers are not)."""
    import tree_sitter_java

    return Language(tree_sitter_java.language())


def parse_java(text: str) -> Node | None:
    """The root node of ``text``, or None when it does not parse (a tree-sitter error)."""
    try:
        root = Parser(java_language()).parse(text.encode("utf-8")).root_node
    except (ValueError, UnicodeError):
        return None
    return None if root.has_error else root


@dataclass(frozen=True)
class JavaMutant(Mutant):
    """A :class:`~truepass.pycode.mutants.Mutant` ranked by the Java operator order."""

    @property
    def priority(self) -> int:
        return JAVA_PRIORITY[self.operator]


@dataclass(frozen=True)
class Decl:
    """A parameter or local variable: its name, declared type and where it can be read."""

    name: str
    type: str
    pos: int  # readable from this byte on ...
    start: int  # ... within this byte range (its scope)
    end: int
    param: bool


class JavaSource(SourceText):
    """A Java file parsed once: its tree, the byte offset of each line, the statements starting
    on each line and the expressions each statement owns (not those of nested statements)."""

    def __init__(self, path: str, text: str) -> None:
        root = parse_java(text)
        if root is None:
            raise ValueError(f"{path} does not parse as Java")
        super().__init__(path, text)
        self.root = root
        self._stmts: dict[int, list[Node]] = {}
        self._by_stmt: dict[int, list[Node]] = {}
        self._by_line: dict[int, list[Node]] = {}
        self._owned: dict[Node, list[Node]] = {}
        self._decls: dict[Node, list[Decl]] = {}
        stack: list[tuple[Node, Node | None]] = [(root, None)]
        while stack:
            node, owner = stack.pop()
            if is_statement(node):
                self._stmts.setdefault(line_of(node), []).append(node)
                owner = node
            elif owner is not None and node.type not in ("block", "class_body"):
                self._owned.setdefault(owner, []).append(node)
                self._by_stmt.setdefault(line_of(owner), []).append(node)
                self._by_line.setdefault(line_of(node), []).append(node)
            if node.type in TYPE_BODIES[:3]:
                owner = None  # members of a local or anonymous class own their expressions
            stack.extend(
                (c, owner) for c in reversed(node.named_children) if c.type not in COMMENTS
            )
        for stmts in self._stmts.values():
            stmts.sort(key=lambda n: (n.start_byte, -n.end_byte))

    # --- text -----------------------------------------------------------------------------

    def seg(self, node: Node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8")

    def span(self, node: Node) -> tuple[int, int]:
        return node.start_byte, node.end_byte

    # --- structure ------------------------------------------------------------------------

    def stmts_at(self, line: int) -> list[Node]:
        return list(self._stmts.get(line, []))

    def nodes_at(self, line: int) -> list[Node]:
        """Expressions owned by the statements starting on ``line``, plus those starting on it
        (for lines in the middle of a long statement), in source order."""
        seen: dict[Node, None] = {}
        for node in self._by_stmt.get(line, []) + self._by_line.get(line, []):
            seen.setdefault(node)
        return sorted(seen, key=lambda n: (n.start_byte, -n.end_byte))

    def owned(self, stmt: Node) -> list[Node]:
        """The nodes of ``stmt`` that belong to no nested statement, in source order."""
        return sorted(self._owned.get(stmt, []), key=lambda n: (n.start_byte, -n.end_byte))

    def function_of(self, node: Node) -> Node | None:
        """The method, constructor or lambda ``node`` is in (None at class level)."""
        cur = node.parent
        while cur is not None and cur.type not in TYPE_BODIES:
            if cur.type in SCOPES:
                return cur
            cur = cur.parent
        return None

    def in_loop(self, node: Node) -> bool:
        """Is ``node`` in the body of a loop of its own function?"""
        cur, child = node.parent, node
        while cur is not None and cur.type not in (*SCOPES, *TYPE_BODIES):
            if cur.type in LOOPS and child == cur.child_by_field_name("body"):
                return True
            cur, child = cur.parent, cur
        return False

    def owns_lines(self, stmt: Node) -> bool:
        """True when ``stmt`` stands alone on its lines (so text can go before or around it)."""
        first, last = line_of(stmt), stmt.end_point[0] + 1
        head = self.data[self.starts[first - 1] : stmt.start_byte].decode("utf-8", "replace")
        tail = self.data[stmt.end_byte : self.starts[last]].decode("utf-8", "replace")
        return not head.strip() and (not tail.strip() or tail.strip().startswith("//"))

    def indent(self, stmt: Node) -> tuple[str, str]:
        """(indentation of ``stmt``, one more level in the file's style)."""
        line = self.line_text(line_of(stmt))
        ind = line[: len(line) - len(line.lstrip(" \t"))]
        return ind, "\t" if ind.startswith("\t") else "    "

    def decls(self, func: Node | None) -> list[Decl]:
        """Parameters and locals declared in ``func`` (not in nested classes), in source order."""
        if func is None:
            return []
        if func not in self._decls:
            self._decls[func] = list(_declarations(self, func))
        return self._decls[func]

    def visible(self, node: Node) -> list[Decl]:
        """The typed parameters and locals readable where ``node`` starts."""
        at = node.start_byte
        return [
            d
            for d in self.decls(self.function_of(node))
            if d.pos <= at and d.start <= at < d.end and d.type != "var"
        ]

    def type_of(self, node: Node) -> str | None:
        """The declared type of a local or parameter read by ``node`` (an identifier)."""
        if node.type != "identifier":
            return None
        found = [d for d in self.visible(node) if d.name == self.seg(node)]
        return found[-1].type if found else None


def is_statement(node: Node) -> bool:
    """A statement (a ``for`` loop's initialiser is part of the loop, not one of its own)."""
    parent = node.parent
    if node.type == "local_variable_declaration":
        return parent is None or parent.type != "for_statement"
    return node.type in STATEMENTS or (
        node.type == "switch_expression" and parent is not None and parent.type in STATEMENT_PARENTS
    )


def line_of(node: Node) -> int:
    """The 1-based line where ``node`` starts."""
    return int(node.start_point[0]) + 1


def return_type(src: JavaSource, func: Node | None) -> str | None:
    """A method's return type (``void`` for constructors; None for lambdas and class level)."""
    if func is None or func.type == "lambda_expression":
        return None
    if func.type != "method_declaration":
        return "void"
    t = func.child_by_field_name("type")
    dims = func.child_by_field_name("dimensions")
    return (src.seg(t) if t is not None else "void") + ("[]" if dims is not None else "")


def _declarations(src: JavaSource, func: Node) -> Iterator[Decl]:
    stack = [func]
    while stack:
        node = stack.pop()
        t = node.child_by_field_name("type")
        if node.type in ("formal_parameter", "spread_parameter") and t is not None:
            name = node.child_by_field_name("name") or next(
                (c.child_by_field_name("name") for c in node.named_children
                 if c.type == "variable_declarator"), None,
            )  # fmt: skip
            owner = node.parent.parent if node.parent is not None else None
            scope = owner if owner is not None and owner.type in SCOPES else func
            if name is not None:
                typ = src.seg(t) + ("[]" if node.type == "spread_parameter" else "")
                yield Decl(src.seg(name), typ, 0, scope.start_byte, scope.end_byte, True)
        elif node.type == "local_variable_declaration" and t is not None and node.parent:
            for d in node.children_by_field_name("declarator"):
                name = d.child_by_field_name("name")
                if name is not None:
                    dims = "[]" if d.child_by_field_name("dimensions") is not None else ""
                    scope = node.parent
                    yield Decl(src.seg(name), src.seg(t) + dims, d.end_byte, scope.start_byte,
                               scope.end_byte, False)  # fmt: skip
        elif node.type == "enhanced_for_statement" and t is not None:
            name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
            if name is not None and body is not None:
                yield Decl(src.seg(name), src.seg(t), name.end_byte, body.start_byte,
                           body.end_byte, False)  # fmt: skip
        if node is func or node.type not in ("class_body", "enum_body", "interface_body"):
            stack.extend(reversed(node.named_children))


# --- helpers ---------------------------------------------------------------------------------


def field(node: Node | None, name: str) -> Node | None:
    return node.child_by_field_name(name) if node is not None else None


def operator_of(node: Node) -> Node | None:
    return node.child_by_field_name("operator")


def paren(src: JavaSource, node: Node) -> str:
    """The node's text, parenthesised unless it is atomic."""
    text = src.seg(node)
    return text if node.type in _ATOMS else f"({text})"


def int_value(src: JavaSource, node: Node) -> tuple[int, str] | None:
    """A decimal integer literal's value and suffix (``L``)."""
    if node.type != "decimal_integer_literal":
        return None
    text = src.seg(node)
    suffix = text[-1] if text[-1] in "lL" else ""
    digits = text.rstrip("lL").replace("_", "")
    return (int(digits), suffix) if digits.isdigit() else None


def shifted(src: JavaSource, node: Node, delta: int) -> str:
    """``node`` plus ``delta`` (±1); ``n - 1`` shifted by +1 is ``n``, not ``n - 1 + 1``."""
    op = operator_of(node) if node.type == "binary_expression" else None
    right = field(node, "right")
    value = int_value(src, right) if right is not None else None
    left = field(node, "left")
    if op is not None and op.type in ("+", "-") and value is not None and left is not None:
        k = (value[0] if op.type == "+" else -value[0]) + delta
        base = src.seg(left)
        return base if k == 0 else f"{base} {'+' if k > 0 else '-'} {abs(k)}{value[1]}"
    return f"{_additive_operand(src, node)} {'+' if delta > 0 else '-'} 1"


def _additive_operand(src: JavaSource, node: Node) -> str:
    op = operator_of(node) if node.type == "binary_expression" else None
    keep = node.type in _ATOMS or node.type == "unary_expression"
    keep = keep or (op is not None and op.type in _ARITH_SWAPS)
    return src.seg(node) if keep else f"({src.seg(node)})"


def is_numeric(src: JavaSource, node: Node | None) -> bool:
    """Is ``node`` surely a number (literal, numeric local, arithmetic, ``.length``)?"""
    if node is None:
        return False
    if node.type in ("decimal_integer_literal", "hex_integer_literal", "character_literal",
                     "decimal_floating_point_literal"):  # fmt: skip
        return True
    if node.type == "identifier":
        return src.type_of(node) in NUMERIC
    if node.type == "field_access":
        return src.seg(field(node, "field") or node) == "length"
    if node.type == "method_invocation":
        return src.seg(field(node, "name") or node) in ("size", "length", "indexOf", "compareTo")
    if node.type in ("parenthesized_expression", "unary_expression"):
        inner = node.named_children[-1] if node.named_children else None
        return is_numeric(src, inner)
    op = operator_of(node) if node.type == "binary_expression" else None
    if op is not None and op.type in _ARITH_SWAPS:
        return is_numeric(src, field(node, "left")) or is_numeric(src, field(node, "right"))
    return False


def _is_text(src: JavaSource, node: Node | None) -> bool:
    if node is None:
        return False
    if node.type in ("string_literal", "text_block"):
        return True
    if node.type == "identifier":
        return src.type_of(node) in ("String", "CharSequence", "Object")
    op = operator_of(node) if node.type == "binary_expression" else None
    if op is not None and op.type == "+":
        return _is_text(src, field(node, "left")) or _is_text(src, field(node, "right"))
    return node.type == "parenthesized_expression" and _is_text(src, node.named_children[0])


def _tok(op: Node, alt: str) -> list[Edit]:
    return [(op.start_byte, op.end_byte, alt)]


# --- expression-level operators: each yields edit lists for one node -------------------------


def _compare(src: JavaSource, node: Node) -> Iterator[list[Edit]]:
    op = operator_of(node) if node.type == "binary_expression" else None
    if op is None or op.type not in _CMP_SWAPS:
        return
    left, right = field(node, "left"), field(node, "right")
    alts = _CMP_SWAPS[op.type]
    if op.type == "==" and not (is_numeric(src, left) or is_numeric(src, right)):
        alts = ("!=",)  # an ordering of references, booleans or unknowns may not compile
    if any(n is not None and n.type in _NOT_NUMERIC for n in (left, right)):
        alts = tuple(a for a in alts if a in ("==", "!="))
    for alt in alts:
        yield _tok(op, alt)


def _arith(src: JavaSource, node: Node) -> Iterator[list[Edit]]:
    op = operator_of(node)
    if op is None:
        return
    if node.type == "binary_expression" and op.type in _ARITH_SWAPS:
        left, right = field(node, "left"), field(node, "right")
        if op.type == "+" and (_is_text(src, left) or _is_text(src, right)):
            return
        for alt in _ARITH_SWAPS[op.type]:
            yield _tok(op, alt)
    elif node.type == "assignment_expression" and op.type[:-1] in _ARITH_SWAPS:
        left = field(node, "left")
        right = field(node, "right")
        if op.type == "+=" and (
            _is_text(src, left)
            or _is_text(src, right)
            or (src.type_of(left or node) is None and not is_numeric(src, right))
        ):
            return  # may be a string concatenation
        for alt in _ARITH_SWAPS[op.type[:-1]]:
            yield _tok(op, alt + "=")
    elif node.type == "update_expression":
        for child in node.children:
            if child.type in ("++", "--"):
                yield _tok(child, "--" if child.type == "++" else "++")


def _bool(src: JavaSource, node: Node) -> Iterator[list[Edit]]:
    op = operator_of(node) if node.type == "binary_expression" else None
    if op is not None and op.type in ("&&", "||"):
        yield _tok(op, "||" if op.type == "&&" else "&&")


def _is_condition(src: JavaSource, node: Node) -> bool:
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "parenthesized_expression" and parent.parent is not None:
        grand = parent.parent
        return (
            grand.type in ("if_statement", "while_statement", "do_statement")
            and field(grand, "condition") == parent
        )
    if parent.type in ("for_statement", "ternary_expression"):
        return field(parent, "condition") == node
    if parent.type == "return_statement":
        op = operator_of(node) if node.type in ("binary_expression", "unary_expression") else None
        return op is not None and op.type in ("<", "<=", ">", ">=", "==", "!=", "&&", "||", "!")
    return False


def _negate(src: JavaSource, node: Node) -> Iterator[list[Edit]]:
    if not _is_condition(src, node):
        return
    op = operator_of(node) if node.type == "unary_expression" else None
    if op is not None and op.type == "!":
        operand = field(node, "operand")
        if operand is not None:
            yield [(*src.span(node), src.seg(operand))]
        return
    yield [(*src.span(node), f"!{paren(src, node)}")]


def _call_swap(src: JavaSource, node: Node) -> Iterator[list[Edit]]:
    name = field(node, "name") if node.type == "method_invocation" else None
    if name is not None and src.seg(name) in _CALL_SWAPS:
        yield [(*src.span(name), _CALL_SWAPS[src.seg(name)])]


def _off_by_one(src: JavaSource, node: Node) -> Iterator[list[Edit]]:
    parent = node.parent
    target = node
    if node.type == "unary_expression":
        op, operand = operator_of(node), field(node, "operand")
        if op is None or op.type != "-" or operand is None or int_value(src, operand) is None:
            return
        target = operand
    elif parent is not None and parent.type == "unary_expression":
        op = operator_of(parent)
        if op is not None and op.type == "-":
            return  # handled on the unary node: ``-1`` -> ``0`` / ``-2``
    value = int_value(src, target)
    if value is not None:
        v = -value[0] if target is not node else value[0]
        for n in (v + 1, v - 1):
            yield [(*src.span(node), f"{n}{value[1]}")]
        return
    targets: list[Node] = []
    op = operator_of(node) if node.type == "binary_expression" else None
    left, right = field(node, "left"), field(node, "right")
    if op is not None and op.type in ("+", "-") and right and int_value(src, right):
        targets = [node]  # ``x + 1`` -> ``x``, ``x + 2``
    elif op is not None and op.type == "+" and left and right and src.seg(left) == "1":
        yield [(*src.span(node), src.seg(right))]  # ``1 + x`` -> ``x``
    elif node.type == "array_access":
        targets = [t for t in (field(node, "index"),) if t is not None]
    elif node.type == "method_invocation" and src.seg(field(node, "name") or node) in INDEX_METHODS:
        args = field(node, "arguments")
        targets = list(args.named_children) if args is not None else []
    for t in targets:
        if t.type not in _LITERALS and t.type not in COMMENTS and not _is_text(src, t):
            for delta in (1, -1):
                yield [(*src.span(t), shifted(src, t, delta))]


def _same_kind(src: JavaSource, a: Node, b: Node) -> bool:
    """Do two expressions surely have interchangeable types (same declared type, or numbers)?"""
    ta, tb = src.type_of(a), src.type_of(b)
    if ta is not None and tb is not None:
        return ta == tb
    return is_numeric(src, a) and is_numeric(src, b)


def _arg_swap(src: JavaSource, node: Node) -> Iterator[list[Edit]]:
    """``f(a, b)`` -> ``f(b, a)`` for adjacent arguments of the same kind."""
    if node.type not in ("method_invocation", "object_creation_expression"):
        return
    args = field(node, "arguments")
    kids = [c for c in args.named_children if c.type not in COMMENTS] if args else []
    for a, b in itertools.pairwise(kids):
        if src.seg(a) != src.seg(b) and _same_kind(src, a, b):
            yield [(*src.span(a), src.seg(b)), (*src.span(b), src.seg(a))]


def _shift_value(src: JavaSource, node: Node) -> Iterator[list[Edit]]:
    """``x = f(a)`` -> ``x = f(a) + 1`` / ``- 1`` (numeric assigned and returned values)."""
    parent = node.parent
    if parent is None or node.type in _LITERALS:
        return
    kinds = ("identifier", "field_access", "array_access", "method_invocation")
    op = operator_of(node) if node.type == "binary_expression" else None
    if node.type not in kinds and (op is None or op.type not in _ARITH_SWAPS):
        return
    target: str | None = None
    if parent.type == "variable_declarator" and field(parent, "value") == node:
        decl = parent.parent
        t = field(decl, "type") if decl is not None else None
        target = src.seg(t) if t is not None and field(parent, "dimensions") is None else None
    elif parent.type == "assignment_expression" and field(parent, "right") == node:
        if src.seg(operator_of(parent) or node) == "=":
            target = src.type_of(field(parent, "left") or node)
    elif parent.type == "return_statement":
        target = return_type(src, src.function_of(parent))
    if target in SHIFTABLE:
        for delta in (1, -1):
            yield [(*src.span(node), shifted(src, node, delta))]


def _constant(src: JavaSource, node: Node) -> Iterator[list[Edit]]:
    if node.type in ("true", "false"):
        yield [(*src.span(node), "false" if node.type == "true" else "true")]


_NOT_READ = {
    "variable_declarator": "name", "formal_parameter": "name", "enhanced_for_statement": "name",
    "method_invocation": "name", "field_access": "field", "assignment_expression": "left",
}  # fmt: skip


def is_read(node: Node) -> bool:
    """Is this identifier read (not written, declared, called or a field name)?"""
    parent = node.parent
    if node.type != "identifier" or parent is None or parent.type == "update_expression":
        return False
    slot = _NOT_READ.get(parent.type)
    if slot is not None and field(parent, slot) == node:
        return False
    return parent.type not in ("lambda_expression", "inferred_parameters", "labeled_statement")


def _var_swap(src: JavaSource, node: Node) -> Iterator[list[Edit]]:
    """A local read replaced by another local or parameter of the same declared type."""
    if not is_read(node):
        return
    visible = src.visible(node)
    name = src.seg(node)
    mine = [d for d in visible if d.name == name]
    if not mine:
        return
    typ = mine[-1].type
    for other in dict.fromkeys(d.name for d in visible if d.type == typ and d.name != name):
        yield [(*src.span(node), other)]


ExprOperator = Callable[[JavaSource, Node], Iterator[list[Edit]]]
JAVA_EXPR_OPERATORS: tuple[tuple[str, ExprOperator], ...] = (
    ("compare", _compare), ("off-by-one", _off_by_one), ("arith", _arith), ("bool", _bool),
    ("negate", _negate), ("call-swap", _call_swap), ("constant", _constant),
    ("arg-swap", _arg_swap), ("shift-value", _shift_value), ("var-swap", _var_swap),
)  # fmt: skip


def render(src: JavaSource, mutant: Mutant) -> str | None:
    """The mutant's file text, or None when it does not parse or changes nothing."""
    text = src.apply(mutant.edits)
    if text == src.text or parse_java(text) is None:
        return None
    return text
