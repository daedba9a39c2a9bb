"""Syntax-tree helpers shared by the detectors: parsing, scopes, dumps, pairing, names.

A *scope* is the module body, a class body or a function body, named by its qualified name
(``Queue.pop``, ``outer.inner``, ``<module>``). Detectors compare a scope of the patched code with
the scope of the same name in the buggy code, so that a change is judged where it happens.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from truepass import pyast
from truepass.families.repair.fakefix.nodes import NodeForms

T = TypeVar("T")
N = TypeVar("N", bound=ast.AST)
MODULE = "<module>"
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
BUILTIN_NAMES = frozenset(dir(builtins)) | {"self", "cls"}


@dataclass
class Scope:
    """The nodes of one module, class or function body (nested definitions' bodies excluded)."""

    name: str
    kind: str  # "module", "class" or "function"
    roots: list[ast.AST] = field(default_factory=list)
    nodes: list[ast.AST] = field(default_factory=list)

    @property
    def simple_name(self) -> str:
        """The last part of the qualified name."""
        return self.name.rsplit(".", 1)[-1]


def parse(text: str | None, path: str = "<patch>") -> ast.Module | None:
    """The module's tree, or None when there is no text or it is not valid Python."""
    if text is None:
        return None
    try:
        return pyast.parse(text, path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def walk_body(stmts: Sequence[ast.AST]) -> Iterator[ast.AST]:
    """Every node under ``stmts``, yielding nested definitions but not entering their bodies."""
    stack = list(reversed(stmts))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, DEFS):
            # decorators, defaults and bases are evaluated in the enclosing scope
            outer: list[ast.AST] = list(node.decorator_list)
            if isinstance(node, ast.ClassDef):
                outer += node.bases + [k.value for k in node.keywords]
            else:
                outer += node.args.defaults + [d for d in node.args.kw_defaults if d]
            stack.extend(reversed(outer))
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def scopes(tree: ast.Module | None) -> dict[str, Scope]:
    """All scopes of a module by qualified name; same-named definitions share a scope."""
    out: dict[str, Scope] = {}
    if tree is None:
        return out

    def add(name: str, kind: str, root: ast.AST, body: Sequence[ast.AST]) -> None:
        scope = out.setdefault(name, Scope(name, kind))
        scope.roots.append(root)
        nodes = list(walk_body(body))
        scope.nodes.extend(nodes)
        for node in nodes:
            if isinstance(node, DEFS):
                prefix = "" if name == MODULE else name + "."
                kind2 = "class" if isinstance(node, ast.ClassDef) else "function"
                add(prefix + node.name, kind2, node, node.body)

    add(MODULE, "module", tree, tree.body)
    return out


def dump(node: ast.AST | None) -> str:
    """A position-free dump of ``node`` (equal for equal code wherever it sits)."""
    return "" if node is None else ast.dump(node)


def of_type(scope: Scope | None, *types: type[N]) -> list[N]:
    """The nodes of ``scope`` that are instances of ``types`` (empty for no scope)."""
    return [] if scope is None else [n for n in scope.nodes if isinstance(n, types)]


def dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def names_in(node: ast.AST) -> set[str]:
    """Variable names and dotted attribute chains used in ``node``, builtins and self excluded."""
    found: set[str] = set()
    for sub in ast.walk(node):
        name = dotted(sub) if isinstance(sub, ast.Name | ast.Attribute) else None
        if name and name not in BUILTIN_NAMES:
            found.add(name)
    return found


def line_of(node: ast.AST) -> int:
    """The 1-based line where ``node`` starts (1 for a module)."""
    return int(getattr(node, "lineno", 1) or 1)


def show(node: ast.AST, limit: int = 60) -> str:
    """Source text of ``node`` on one line, shortened to ``limit`` characters."""
    try:
        text = " ".join(ast.unparse(node).split())
    except (ValueError, TypeError, AttributeError, RecursionError):
        text = type(node).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


def is_docstring(stmt: ast.AST) -> bool:
    """True for a bare string-constant expression statement."""
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def body_without_docstring(stmts: Sequence[ast.stmt]) -> list[ast.stmt]:
    """``stmts`` without a leading docstring."""
    return list(stmts[1:]) if stmts and is_docstring(stmts[0]) else list(stmts)


def exception_names(node: ast.AST | None) -> list[str]:
    """Last name parts of an ``except`` clause's type (``[]`` for a bare ``except``)."""
    if node is None:
        return []
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    out = []
    for item in items:
        name = dotted(item)
        out.append(name.rsplit(".", 1)[-1] if name else "?")
    return out


def parents(root: ast.AST) -> dict[ast.AST, ast.AST]:
    """Child -> parent links of every node under ``root``."""
    links: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(root):
        for child in ast.iter_child_nodes(node):
            links[child] = node
    return links


def scope_parents(scope: Scope) -> dict[ast.AST, ast.AST]:
    """Child -> parent links within one scope (nested definitions' bodies excluded)."""
    links: dict[ast.AST, ast.AST] = {}
    for node in [*scope.roots, *scope.nodes]:
        if isinstance(node, DEFS) and node not in scope.roots:
            continue
        for child in ast.iter_child_nodes(node):
            links[child] = node
    return links


FORMS: NodeForms[ast.AST] = NodeForms(line_of, show, dump, id)
"""How the shared rules read a Python node."""
