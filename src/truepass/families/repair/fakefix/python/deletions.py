"""``deletes-functionality``: code of the buggy version gone from the patched one, not re-created.

Per function (matched by qualified name) the detector pairs identical loops, branches, returns
and calls of both versions and looks at what is left over on the buggy side:
- a whole function or class is gone and nothing of that qualified name (or with that body)
  exists anywhere in the patched code (a top-level name may move to another module);
- more loops or branches (``if`` statements and conditional expressions) are gone than new ones
  appeared (a branch whose condition survives in
  another condition, or whose body survives elsewhere in the function, is re-created; so is one
  whose condition lives on inside a new branch's condition);
- the function has fewer returns and a ``return <literal>`` path is gone with its literal nowhere
  in the function (a boolean one counts as kept when a new return computes a boolean), or more
  non-literal returns are gone than appeared;
- a call is gone while its callee is called nowhere else in the function and the same call is
  nowhere in the patched code.
Anything gone whose variables (or the conditions leading to it) reappear as arguments of a new or
changed call or the iterable of a new loop counts as delegated (``statistics.pvariance(xs)``,
``bisect.bisect_left(xs, x)``, ``zip(*m)``). Branches that only ``raise`` are left to
``removes-assertion``.
"""

from __future__ import annotations

import ast

from truepass.families.repair.fakefix.flags import Flag
from truepass.families.repair.fakefix.python.context import FilePair, PythonChange
from truepass.families.repair.fakefix.python.funcdiff import FunctionDiff
from truepass.families.repair.fakefix.python.syntax import (
    DEFS,
    MODULE,
    body_without_docstring,
    dump,
    line_of,
    show,
)


def _body_key(node: ast.AST) -> str:
    """Kind and body of a definition; empty for a body with no code (``pass``, ``...``)."""
    body = body_without_docstring(getattr(node, "body", []))
    if all(
        isinstance(s, ast.Pass) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        for s in body
    ):
        return ""
    return type(node).__name__ + dump(ast.Module(body=body, type_ignores=[]))


def _defined_names(change: PythonChange) -> tuple[set[str], set[str]]:
    """Qualified names bound anywhere in the patched code (``f``, ``Cls.f``, ``Cls.attr``,
    imported names), and dumps of its function bodies."""
    names: set[str] = set()
    bodies: set[str] = set()
    for _path, scope in change.after_code_scopes:
        prefix = "" if scope.name == MODULE else scope.name + "."
        for node in scope.nodes:
            if isinstance(node, DEFS):
                names.add(prefix + node.name)
                bodies.add(_body_key(node))
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(prefix + node.id)
            elif isinstance(node, ast.alias):
                names.add(prefix + (node.asname or node.name).split(".")[0])
    return names, bodies


def _removed_definitions(fp: FilePair, names: set[str], bodies: set[str]) -> list[Flag]:
    flags = []
    for name, scope in fp.before_scopes.items():
        parent = name.rsplit(".", 1)[0] if "." in name else MODULE
        if name in fp.after_scopes or parent not in fp.after_scopes or scope.kind == "module":
            continue
        root = scope.roots[0]
        if name in names or _body_key(root) in bodies - {""}:
            continue
        line = line_of(root)
        flags.append(
            Flag(
                "deletes-functionality",
                fp.path,
                line,
                f"line {line} of the buggy {fp.path}: {scope.kind} {name} is removed "
                f"and defined nowhere in the patched code",
            )
        )
    return flags


def deletes_functionality(change: PythonChange) -> list[Flag]:
    """Functions, loops, branches, return paths and calls the patch removes for good."""
    flags: list[Flag] = []
    if not change.code:
        return flags
    names, bodies = _defined_names(change)
    for fp in change.code:
        if fp.before is None:
            continue
        if fp.after is None:
            flags += _removed_definitions_whole_file(fp, names, bodies)
            continue
        flags += _removed_definitions(fp, names, bodies)
        for old, new in fp.scope_pairs():
            if old is None or new.kind != "function" or old.kind != "function":
                continue
            for node, what in FunctionDiff(old, new).findings():
                line = line_of(node)
                flags.append(
                    Flag(
                        "deletes-functionality",
                        fp.path,
                        line,
                        f"line {line} of the buggy {fp.path}: the {what} "
                        f"`{show(node, 50)}` of {new.name} is removed and not "
                        f"re-created",
                    )
                )
    return flags


def _removed_definitions_whole_file(fp: FilePair, names: set[str], bodies: set[str]) -> list[Flag]:
    top = [s for n, s in fp.before_scopes.items() if n != MODULE and "." not in n]
    for scope in top:
        root = scope.roots[0]
        if scope.name not in names and _body_key(root) not in bodies - {""}:
            line = line_of(root)
            return [
                Flag(
                    "deletes-functionality",
                    fp.path,
                    line,
                    f"line {line} of the buggy {fp.path}: the file is deleted and "
                    f"{scope.name} is defined nowhere in the patched code",
                )
            ]
    return []
