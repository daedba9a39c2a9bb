"""``deletes-functionality`` for Java: code of the buggy version gone from the patched one.

The rules of :mod:`truepass.families.repair.fakefix.python.deletions`, per method (matched by class,
name and parameter types, else by name):
- a whole method, constructor or class is gone and nothing of that qualified name (or with that
  body) exists anywhere in the patched Java code, nor a method of that name in a class the patch
  added (the method moved there); a deleted file loses its first top-level class not defined
  elsewhere;
- more loops (``for``, for-each, ``while``, ``do``) or branches (``if`` statements and ternaries)
  are gone than new ones appeared (a branch whose condition survives in another condition, or
  whose body survives elsewhere in the method, is re-created; an ``if`` that only throws is left
  to ``removes-assertion``);
- the method has fewer returns and a ``return <literal>`` path is gone with its literal nowhere in
  the method (a boolean one counts as kept when a new return computes a boolean), or more
  non-literal returns are gone than appeared;
- a call is gone while its method is called nowhere else in the method and the same call is
  nowhere in the patched code (logging, printing and conversions such as ``toString``/
  ``valueOf`` aside, and precondition calls, which are left to ``removes-assertion``).
Anything gone whose variables (or the conditions leading to it) reappear as arguments or receiver
of a new or changed call, or the iterable of a new loop, counts as delegated
(``Collections.max(xs)``, ``xs.stream()...``).
"""

from __future__ import annotations

from collections.abc import Hashable

from tree_sitter import Node

from truepass.families.repair.fakefix.flags import Flag
from truepass.families.repair.fakefix.java.assertions import is_code_check
from truepass.families.repair.fakefix.java.context import JavaChange, JavaFile
from truepass.families.repair.fakefix.java.literals import value_of
from truepass.families.repair.fakefix.java.syntax import (
    LOOPS,
    METHODS,
    Scope,
    ancestors,
    arguments,
    callee,
    condition,
    key,
    line_of,
    names_in,
    receiver,
    show,
    statements,
    text,
    walk,
)
from truepass.families.repair.fakefix.pairing import pair

PLUMBING = frozenset(
    {
        "toString", "valueOf", "println", "print", "printf", "format", "debug", "info", "warn",
        "warning", "error", "trace", "log", "fine", "finer", "finest", "severe", "config",
        "hashCode", "intValue", "longValue", "doubleValue", "parseInt", "parseLong",
        "parseDouble",
    }
)  # fmt: skip
BRANCH_TYPES = ("if_statement", "ternary_expression")
_BOOL_OPS = {"==", "!=", "<", ">", "<=", ">=", "&&", "||"}
_BOOL_CALLS = {"equals", "contains", "isEmpty", "startsWith", "endsWith", "matches", "has",
               "containsKey", "anyMatch", "allMatch", "noneMatch", "isPresent"}  # fmt: skip


def _call_key(call: Node) -> str:
    owner = receiver(call)
    return f"{key(call.child_by_field_name('object'))}.{callee(call)}" if owner else callee(call)


def _method_key(call: Node) -> Hashable:
    """``x.trim()`` and ``map.get(k).trim()`` do the same work on different receivers."""
    return (callee(call), tuple(key(a) for a in arguments(call)))


def _loop_key(node: Node) -> Hashable:
    if node.type in ("while_statement", "do_statement"):
        return ("while", key(condition(node)))
    if node.type == "enhanced_for_statement":
        return ("for", key(node.child_by_field_name("value")))
    return ("for", key(condition(node)))


def _iterable(loop: Node) -> Node | None:
    if loop.type == "enhanced_for_statement":
        return loop.child_by_field_name("value")
    return condition(loop)


def _loop_targets(loop: Node) -> set[str]:
    if loop.type == "enhanced_for_statement":
        return {text(loop.child_by_field_name("name"))}
    init = loop.child_by_field_name("init")
    if init is None:
        return set()
    return {
        text(d.child_by_field_name("name")) for d in walk(init) if d.type == "variable_declarator"
    }


def _conditions(scope: Scope) -> set[str]:
    """Keys of every condition of ``scope`` and of their parts."""
    out: set[str] = set()
    for node in scope.nodes:
        tests: list[Node] = []
        if node.type in (*BRANCH_TYPES, *LOOPS):
            cond = condition(node)
            if cond is not None:
                tests.append(cond)
        elif node.type == "assert_statement" and node.named_child_count:
            tests.append(node.named_children[0])
        elif node.type == "binary_expression" and text(node.child_by_field_name("operator")) in (
            "&&",
            "||",
        ):
            tests += [c for c in (node.child_by_field_name(f) for f in ("left", "right")) if c]
        for test in tests:
            out |= {key(x) for x in walk(test)}
    return out


def _is_guard(node: Node) -> bool:
    if node.type != "if_statement" or node.child_by_field_name("alternative") is not None:
        return False
    body = statements(node.child_by_field_name("consequence"))
    return bool(body) and all(s.type == "throw_statement" for s in body)


def _boolish(expr: Node | None) -> bool:
    while expr is not None and expr.type == "parenthesized_expression" and expr.named_child_count:
        expr = expr.named_children[0]
    if expr is None:
        return False
    if expr.type == "binary_expression":
        return text(expr.child_by_field_name("operator")) in _BOOL_OPS
    if expr.type == "unary_expression":
        return text(expr.child_by_field_name("operator")) == "!"
    if expr.type == "instanceof_expression":
        return True
    return expr.type == "method_invocation" and callee(expr) in _BOOL_CALLS


def _value(node: Node) -> Node | None:
    return node.named_children[0] if node.named_child_count else None


class FunctionDiff:
    """The comparison of one method of the buggy code with its patched version."""

    def __init__(self, old: Scope, new: Scope) -> None:
        self.old, self.new = old, new
        self.after_keys = {key(n) for n in new.nodes}
        self.after_conditions = _conditions(new)
        self.sources = self._sources()
        self.delegated = self._delegated_names(changed_calls=False)
        self.recomputed = self._delegated_names(changed_calls=True)

    def _sources(self) -> dict[str, set[str]]:
        """Local variable -> names of the expression it is assigned from (buggy version)."""
        out: dict[str, set[str]] = {}
        for node in self.old.of_type("variable_declarator", "assignment_expression"):
            if node.type == "variable_declarator":
                target, value = node.child_by_field_name("name"), node.child_by_field_name("value")
            else:
                target, value = node.child_by_field_name("left"), node.child_by_field_name("right")
            if target is None or value is None:
                continue
            for name in names_in(target):
                out.setdefault(name, set()).update(names_in(value))
        return out

    def _delegated_names(self, changed_calls: bool) -> set[str]:
        old_calls = self.old.of_type("method_invocation")
        old_callees = {_call_key(c) for c in old_calls}
        old_keys = {key(c) for c in old_calls}
        old_loops = {_loop_key(n) for n in self.old.of_type(*LOOPS)}
        names: set[str] = set()
        for call in self.new.of_type("method_invocation", "object_creation_expression"):
            is_call = call.type == "method_invocation"
            changed = changed_calls and key(call) not in old_keys
            if not is_call or _call_key(call) not in old_callees or changed:
                for arg in arguments(call):
                    names |= names_in(arg)
                owner = call.child_by_field_name("object") if is_call else None
                if owner is not None:
                    names |= names_in(owner)
        for loop in self.new.of_type("for_statement", "enhanced_for_statement"):
            iterable = _iterable(loop)
            if _loop_key(loop) not in old_loops and iterable is not None:
                names |= names_in(iterable)
        return names

    def _unrolled(self, loop: Node) -> bool:
        """A loop over cases replaced by two or more new branches on the same variables."""
        tested = {
            name
            for node in walk(loop)
            if node.type == "if_statement"
            for name in names_in(condition(node))
        } - _loop_targets(loop)
        old_tests = {key(condition(n)) for n in self.old.of_type("if_statement")}
        hits = [
            n
            for n in self.new.of_type("if_statement")
            if key(condition(n)) not in old_tests and names_in(condition(n)) & tested
        ]
        return len(hits) >= 2

    def _context(self, node: Node) -> set[str]:
        names = names_in(node)
        for parent in ancestors(node, self.old.root):
            if parent.type in (*BRANCH_TYPES, "while_statement", "do_statement"):
                cond = condition(parent)
                names |= names_in(cond) if cond is not None else set()
            elif parent.type in ("for_statement", "enhanced_for_statement"):
                iterable = _iterable(parent)
                names |= names_in(iterable) if iterable is not None else set()
        for name in list(names):
            names |= self.sources.get(name, set())
        return names

    def _in_check(self, node: Node) -> bool:
        return any(
            p.type in ("throw_statement", "assert_statement")
            for p in ancestors(node, self.old.root)
        )

    def gone(self, node: Node) -> bool:
        """True unless ``node``'s work is delegated to new code."""
        handed = self.recomputed if node.type == "method_invocation" else self.delegated
        return not self._context(node) & handed

    def findings(self) -> list[tuple[Node, str]]:
        """(buggy node, what is gone) for every deletion in this method."""
        return self._loops() + self._branches() + self._returns() + self._calls()

    def _loops(self) -> list[tuple[Node, str]]:
        removed, added = pair(self.old.of_type(*LOOPS), self.new.of_type(*LOOPS), _loop_key)
        removed = [n for n in removed if self.gone(n) and not self._unrolled(n)]
        return [(removed[0], "loop")] if len(removed) > len(added) else []

    def _branches(self) -> list[tuple[Node, str]]:
        old = [n for n in self.old.of_type(*BRANCH_TYPES) if not _is_guard(n)]
        new = self.new.of_type(*BRANCH_TYPES)

        def cond(n: Node) -> str:
            return key(condition(n))

        removed, added = pair(old, new, cond)
        left = []
        for node in removed:
            test = cond(node)
            host = next(
                (a for a in added if test in {key(x) for x in walk(condition(a))}),
                None,
            )
            if host is not None:
                added.remove(host)
                continue
            body = statements(node.child_by_field_name("consequence"))
            body = [s for s in body if s.type != "block" or s.named_child_count]
            if test in self.after_conditions or all(key(s) in self.after_keys for s in body):
                continue
            if self.gone(node):
                left.append(node)
        return [(left[0], "branch")] if len(left) > len(added) else []

    def _returns(self) -> list[tuple[Node, str]]:
        old_returns = self.old.of_type("return_statement")
        new_returns = self.new.of_type("return_statement")
        removed, added = pair(old_returns, new_returns, key)
        literal, other = [], []
        for node in removed:
            value = _value(node)
            if value is None or key(value) in self.after_keys or not self.gone(node):
                continue
            lit = value_of(value)
            if lit is not None:
                if lit[0] == "bool" and any(_boolish(_value(a)) for a in added):
                    continue
                literal.append(node)
            else:
                other.append(node)
        fewer = len(new_returns) < len(old_returns)
        out = [(n, "return path") for n in literal[:1] if fewer]
        if not out and len(other) > len(added):
            out.append((other[0], "return path"))
        return out

    def _calls(self) -> list[tuple[Node, str]]:
        new_calls = self.new.of_type("method_invocation")
        new_callees = {_call_key(c) for c in new_calls}
        new_methods = {_method_key(c) for c in new_calls}
        seen: set[str] = set()
        out: list[tuple[Node, str]] = []
        for call in self.old.of_type("method_invocation"):
            ck = _call_key(call)
            if ck in new_callees or ck in seen or callee(call) in PLUMBING or self._in_check(call):
                continue
            if is_code_check(call):
                continue  # a precondition call: left to removes-assertion
            if _method_key(call) in new_methods:
                continue
            seen.add(ck)
            if key(call) not in self.after_keys and self.gone(call):
                out.append((call, "call"))
        return out[:1]


def _body_key(scope: Scope) -> str:
    """Kind and body of a definition; empty for one with no code."""
    body = scope.root.child_by_field_name("body")
    if body is None or not statements(body):
        return ""
    return scope.kind + key(body)


def _defined(change: JavaChange) -> tuple[set[str], set[str], set[str]]:
    """Qualified names of the patched Java code's classes, methods and fields; bodies of its
    methods; simple names of methods in classes the buggy code did not have."""
    before_classes = {
        s.name for jf in change.code for s in jf.before_scopes.values() if s.kind == "class"
    }
    names: set[str] = set()
    bodies: set[str] = set()
    moved: set[str] = set()
    for _path, scope in change.after_code_scopes:
        names.add(scope.name)
        bodies.add(_body_key(scope))
        if scope.kind == "class":
            for node in scope.nodes:
                if (
                    node.type == "variable_declarator"
                    and node.parent is not None
                    and (node.parent.type == "field_declaration")
                ):
                    names.add(f"{scope.name}.{text(node.child_by_field_name('name'))}")
        else:
            owner = scope.name.rsplit(".", 1)[0]
            if owner not in before_classes:
                moved.add(scope.simple_name)
    return names, bodies - {""}, moved


def _removed_definitions(jf: JavaFile, defined: tuple[set[str], set[str], set[str]]) -> list[Flag]:
    names, bodies, moved = defined
    after_keys = set(jf.after_scopes)
    after_classes = {s.name for s in jf.after_scopes.values() if s.kind == "class"}
    flags = []
    for scope in jf.before_scopes.values():
        parent = scope.name.rsplit(".", 1)[0] if "." in scope.name else None
        if scope.key in after_keys or parent is None or parent not in after_classes:
            continue
        if scope.name in names or _body_key(scope) in bodies or scope.simple_name in moved:
            continue
        line = line_of(scope.root)
        flags.append(
            Flag(
                "deletes-functionality",
                jf.path,
                line,
                f"line {line} of the buggy {jf.path}: {_kind(scope)} {scope.name} is removed "
                f"and defined nowhere in the patched code",
            )
        )
    return flags


def _kind(scope: Scope) -> str:
    if scope.kind == "class":
        return "class"
    return "constructor" if scope.root.type != "method_declaration" else "method"


def _whole_file(jf: JavaFile, names: set[str]) -> list[Flag]:
    for scope in jf.before_scopes.values():
        if scope.kind == "class" and "." not in scope.name and scope.name not in names:
            line = line_of(scope.root)
            return [
                Flag(
                    "deletes-functionality",
                    jf.path,
                    line,
                    f"line {line} of the buggy {jf.path}: the file is deleted and "
                    f"{scope.name} is defined nowhere in the patched code",
                )
            ]
    return []


def deletes_functionality(change: JavaChange) -> list[Flag]:
    """Methods, loops, branches, return paths and calls the patch removes for good."""
    flags: list[Flag] = []
    if not change.code:
        return flags
    defined = _defined(change)
    for jf in change.code:
        if jf.before is None:
            continue
        if jf.after is None:
            flags += _whole_file(jf, defined[0])
            continue
        flags += _removed_definitions(jf, defined)
        for old, new in jf.scope_pairs():
            if old is None or new.kind != "method" or old.kind != "method":
                continue
            if new.root.type not in METHODS:
                continue
            for node, found in FunctionDiff(old, new).findings():
                line = line_of(node)
                flags.append(
                    Flag(
                        "deletes-functionality",
                        jf.path,
                        line,
                        f"line {line} of the buggy {jf.path}: the {found} "
                        f"`{show(node, 50)}` of {new.name} is removed and not re-created",
                    )
                )
    return flags
