"""``special-cases-input`` and ``hardcodes-expected`` for Java: test literals in new code.

The rules of :mod:`truepass.families.repair.fakefix.python.specialcase`, on Java syntax:
- special-cases-input: a new comparison ``x == <lit>``/``x != <lit>``, ``x.equals(<lit>)``/
  ``"<lit>".equals(x)``/``equalsIgnoreCase``/``Objects.equals(x, <lit>)``, ``List.of(<lits>)
  .contains(x)`` (also ``Set.of``/``Arrays.asList``), or a new ``case <lit>`` label of a
  ``switch``, where the literal is a non-trivial input of the visible tests (or a string that
  makes up most of one);
- hardcodes-expected: a new ``return <lit>`` (or ternary arm) where the literal is an expected
  value of the visible tests and appears nowhere in the buggy code, or a new equality comparison
  with such a value; inside a branch that special-cases an input, any returned expected value
  counts (even a trivial one, when the tests pair it with that input), and so does a
  non-trivial part of the value the tests expect for that input; a method turned into
  ``return <lit>`` where the literal is what the tests expect of that method;
- both: a new ``Map.of(...)`` or a run of ``put(<lit>, <lit>)`` calls on one map mapping test
  inputs to their expected values (a lookup table).
A returned value may come through a name that only ever holds literals (see
:mod:`truepass.families.repair.fakefix.java.bindings`), and a special-casing branch may set a
variable the method returns instead of returning.

Trivial literals (0, 1, -1, booleans, null, ``""``, empty collections) count as special-casing
only with evidence: the branch gives a non-trivial literal that the tests expect in the very
assertion that passes that trivial input.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from truepass.families.repair.fakefix.flags import Flag
from truepass.families.repair.fakefix.java.bindings import Constants, assigned_in, returned_names
from truepass.families.repair.fakefix.java.context import JavaChange, JavaFile
from truepass.families.repair.fakefix.java.literals import render, value_of
from truepass.families.repair.fakefix.java.syntax import (
    Scope,
    arguments,
    callee,
    key,
    line_of,
    of_type,
    pair,
    parse,
    receiver,
    show,
    statements,
    text,
    walk,
)
from truepass.families.repair.fakefix.python.testfacts import TestFacts
from truepass.families.repair.fakefix.values import Lit, is_trivial

_EQUALS = {"equals", "equalsIgnoreCase", "contentEquals"}
_COLLECTIONS = {"List", "Set", "Arrays", "ImmutableList", "ImmutableSet", "EnumSet", "Stream"}
BRANCHES = ("if_statement", "ternary_expression", "while_statement")


def known_literals(buggy: dict[str, str]) -> set[Lit]:
    """Literal values written anywhere in the buggy Java code."""
    known: set[Lit] = set()
    for path, source in buggy.items():
        if not path.endswith(".java"):
            continue
        root = parse(source)
        if root is None:
            continue
        for node in walk(root):
            lit = value_of(node)
            if lit is not None:
                known.add(lit)
    return known


def is_comparison(node: Node) -> bool:
    """An equality test or a membership test against literals."""
    if node.type == "binary_expression":
        return text(node.child_by_field_name("operator")) in ("==", "!=")
    if node.type == "method_invocation":
        name = callee(node)
        return (
            name in _EQUALS
            or (name == "equals" and receiver(node) == "Objects")
            or (name == "contains" and node.child_by_field_name("object") is not None)
        )
    return False


def comparisons(cmp: Node) -> Iterator[tuple[Lit, bool]]:
    """(literal, is-equality) for each side of ``cmp`` compared with a non-literal expression."""
    if cmp.type == "binary_expression":
        sides = [cmp.child_by_field_name("left"), cmp.child_by_field_name("right")]
    elif callee(cmp) == "contains":
        owner = cmp.child_by_field_name("object")
        lit = value_of(owner)
        args = arguments(cmp)
        if (
            lit is not None
            and lit[0] in ("seq", "set")
            and len(args) == 1
            and value_of(args[0]) is None
            and owner is not None
            and receiver(owner).rsplit(".", 1)[-1] in _COLLECTIONS
        ):
            for element in lit[1]:
                yield element, False
        return
    elif receiver(cmp) == "Objects":
        sides = arguments(cmp)[:2]
    else:
        sides = [cmp.child_by_field_name("object"), *arguments(cmp)[:1]]
    if len(sides) != 2 or None in sides:
        return
    la, lb = value_of(sides[0]), value_of(sides[1])
    if la is not None and lb is None:
        yield la, True
    if lb is not None and la is None:
        yield lb, True


def inputs_hit(lits: Iterator[Lit], facts: TestFacts) -> list[Lit]:
    """The test inputs (non-trivial) that ``lits`` are or are cut from."""
    out = []
    for lit in lits:
        found = None if is_trivial(lit) else facts.input_like(lit)
        if found is not None:
            out.append(found)
    return out


def what(hit: Lit, facts: TestFacts) -> str:
    """``7 is an input of testX``."""
    return f"{render(hit)} is an input of {facts.inputs[hit]}"


def gives(at: Node, lit: Lit) -> str:
    """``returns 42``, or ``sets `result` to 42, which is returned`` for a binding."""
    if at.type == "variable_declarator":
        return (
            f"sets `{show(at.child_by_field_name('name'), 30)}` to {render(lit)}, which is returned"
        )
    if at.type == "assignment_expression":
        return (
            f"sets `{show(at.child_by_field_name('left'), 30)}` to {render(lit)}, which is returned"
        )
    return f"returns {render(lit)}"


def arms(at: Node, value: Node | None, constants: Constants | None) -> Iterator[tuple[Node, Lit]]:
    """(``at``, literal) for ``value`` or each literal arm of a ternary; for a name that only holds
    literals, (binding, literal) of each binding."""
    if value is None:
        return
    while value.type == "parenthesized_expression" and value.named_child_count == 1:
        value = value.named_children[0]
    if value.type == "ternary_expression":
        yield from arms(at, value.child_by_field_name("consequence"), constants)
        yield from arms(at, value.child_by_field_name("alternative"), constants)
        return
    lit = value_of(value)
    if lit is not None:
        yield at, lit
    elif constants is not None:
        yield from constants.values(value)


def _returned_value(node: Node) -> Node | None:
    return node.named_children[0] if node.named_child_count else None


def returned(nodes: list[Node], constants: Constants | None) -> Iterator[tuple[Node, Lit]]:
    """(statement, literal) for every literal returned among ``nodes``."""
    for node in nodes:
        if node.type == "return_statement":
            yield from arms(node, _returned_value(node), constants)


def literal_returns(scope: Scope | None, constants: Constants | None) -> list[tuple[Node, Lit]]:
    """Every literal a method returns, with its statement."""
    return list(returned(of_type(scope, "return_statement"), constants))


def became_constant(old: Scope | None, new: Scope, before: Constants, after: Constants) -> bool:
    """A method that computed something now returns literals only, without loops or branches
    (``throw`` guards aside)."""
    if old is None or new.kind != "method":
        return False
    returns = new.of_type("return_statement")
    if not returns or any(after.value(_returned_value(r)) is None for r in returns):
        return False
    if all(before.value(_returned_value(r)) is not None for r in old.of_type("return_statement")):
        return False
    control = new.of_type(
        "for_statement", "enhanced_for_statement", "while_statement", "do_statement",
        "switch_expression", "ternary_expression", "if_statement",
    )  # fmt: skip
    return all(
        n.type == "if_statement" and _only_throws(n.child_by_field_name("consequence"))
        for n in control
    )


def _only_throws(body: Node | None) -> bool:
    stmts = statements(body)
    return bool(stmts) and all(s.type == "throw_statement" for s in stmts)


def _label_body(label: Node) -> list[Node]:
    """The statements a ``case`` label leads to (falling through empty groups)."""
    owner = label.parent
    if owner is None:
        return []
    if owner.type == "switch_rule":
        return [c for c in owner.named_children if c.type != "switch_label"]
    group: Node | None = owner
    while group is not None:
        body = statements(group)
        if body:
            return body
        group = group.next_named_sibling
    return []


class _Finder:
    """Collects the flags of one file's scope pairs."""

    def __init__(self, jf: JavaFile, facts: TestFacts, known: set[Lit]) -> None:
        self.path, self.facts, self.known = jf.path, facts, known
        self.roots = jf.before, jf.after
        self.flags: list[Flag] = []
        self.returns_flagged: set[int] = set()
        self.before = self.after = Constants(None, None)
        self.returns: set[str] = set()

    def flag(self, name: str, node: Node, explanation: str) -> None:
        line = line_of(node)
        self.flags.append(Flag(name, self.path, line, f"line {line} {explanation}"))

    def scope(self, old: Scope | None, new: Scope) -> None:
        facts = self.facts
        self.before = Constants(old, self.roots[0])
        self.after = Constants(new, self.roots[1])
        self.returns = returned_names(new)
        old_cmps = [
            n for n in of_type(old, "binary_expression", "method_invocation") if is_comparison(n)
        ]
        new_cmps = [
            n for n in new.of_type("binary_expression", "method_invocation") if is_comparison(n)
        ]
        _, compares = pair(old_cmps, new_cmps, key)
        special: dict[int, list[Lit]] = {}
        trivial: dict[int, tuple[Node, list[Lit]]] = {}
        for cmp in compares:
            found = list(comparisons(cmp))
            hits = inputs_hit((lit for lit, _ in found), facts)
            if hits:
                special[cmp.id] = hits
                self.flag(
                    "special-cases-input",
                    cmp,
                    f"branches on `{show(cmp, 50)}`: {what(hits[0], facts)}",
                )
            else:
                small = [lit for lit, _ in found if is_trivial(lit) and lit in facts.inputs]
                if small:
                    trivial[cmp.id] = (cmp, small)
            for lit, is_eq in found:
                if is_eq and not is_trivial(lit) and lit in facts.expected:
                    self.flag(
                        "hardcodes-expected",
                        cmp,
                        f"compares with {render(lit)}, the expected value of {facts.expected[lit]}",
                    )
        self._labels(old, new)
        for node in new.of_type(*BRANCHES):
            condition = node.child_by_field_name("condition")
            if condition is None:
                continue
            subs = list(walk(condition))
            hits = [h for sub in subs for h in special.get(sub.id, [])]
            if node.type == "ternary_expression":
                values = list(arms(node, node.child_by_field_name("consequence"), self.after))
            else:
                body = node.child_by_field_name("consequence") or node.child_by_field_name("body")
                values = self._branch_body(statements(body))
            if hits:
                self._branch_values(values, hits)
                continue
            for sub in subs:
                if sub.id in trivial:
                    cmp, small = trivial[sub.id]
                    self._trivial_branch(cmp, values, small)
        self._plain_returns(old, new)
        self._tables(old, new)

    def _labels(self, old: Scope | None, new: Scope) -> None:
        facts = self.facts
        _, labels = pair(of_type(old, "switch_label"), new.of_type("switch_label"), key)
        for label in labels:
            lits = [lit for c in label.named_children if (lit := value_of(c)) is not None]
            hits = inputs_hit(iter(lits), facts)
            values = self._branch_body(_label_body(label))
            if hits:
                self.flag(
                    "special-cases-input",
                    label,
                    f"matches `{show(label, 40)}`: {what(hits[0], facts)}",
                )
                self._branch_values(values, hits)
            else:
                small = [lit for lit in lits if is_trivial(lit) and lit in facts.inputs]
                self._trivial_branch(label, values, small)

    def _branch_body(self, body: list[Node]) -> list[tuple[Node, Lit]]:
        """Literals a branch returns (or yields from a switch rule), directly or through a
        constant name, or sets a variable the method returns to."""
        nodes = [n for stmt in body for n in walk(stmt)]
        values = list(returned(nodes, self.after))
        for stmt in body:
            if (
                stmt.type == "expression_statement"
                and stmt.parent is not None
                and (stmt.parent.type == "switch_rule")
            ):
                values += arms(stmt, stmt.named_children[0], self.after)
        for node in nodes:
            if node.type == "yield_statement":
                values += arms(node, _returned_value(node), self.after)
        return [*values, *assigned_in(nodes, self.returns)]

    def _trivial_branch(self, at: Node, values: list[tuple[Node, Lit]], small: list[Lit]) -> None:
        facts = self.facts
        for where, lit in values:
            if is_trivial(lit):
                continue
            owner = next(
                (h for h in small if (h, lit) in facts.pairs or (h, lit) in facts.part_pairs),
                None,
            )
            if owner is None:
                continue
            self.flag(
                "special-cases-input",
                at,
                f"branches on `{show(at, 50)}`: {what(owner, facts)}, and the branch "
                f"{gives(where, lit)}, what the tests expect for it",
            )
            if where.id not in self.returns_flagged:
                self.returns_flagged.add(where.id)
                self.flag(
                    "hardcodes-expected",
                    where,
                    f"{gives(where, lit)} for the tested input {render(owner)}: "
                    f"{self._expected_of(owner, lit)}",
                )
            return

    def _expected_of(self, owner: Lit, lit: Lit) -> str:
        if lit in self.facts.expected:
            return f"the expected value of {self.facts.expected[lit]}"
        return f"part of the expected value of {self.facts.inputs[owner]}"

    def _branch_values(self, values: list[tuple[Node, Lit]], hits: list[Lit]) -> None:
        facts = self.facts
        for at, lit in values:
            if lit in facts.expected:
                paired = any((h, lit) in facts.pairs for h in hits)
                if not is_trivial(lit) or paired:
                    self.returns_flagged.add(at.id)
                    self.flag(
                        "hardcodes-expected",
                        at,
                        f"{gives(at, lit)} for the tested input {render(hits[0])}: the expected "
                        f"value of {facts.expected[lit]}",
                    )
            elif not is_trivial(lit):
                owner = next((h for h in hits if (h, lit) in facts.part_pairs), None)
                if owner is not None:
                    self.returns_flagged.add(at.id)
                    self.flag(
                        "hardcodes-expected",
                        at,
                        f"gives {render(lit)} for the tested input {render(owner)}: part of the "
                        f"expected value of {facts.inputs[owner]}",
                    )

    def _plain_returns(self, old: Scope | None, new: Scope) -> None:
        before = literal_returns(old, self.before)
        after = literal_returns(new, self.after)
        _, added = pair(before, after, lambda item: item[1])
        constant = became_constant(old, new, self.before, self.after)
        for at, lit in added:
            if at.id in self.returns_flagged or lit not in self.facts.expected:
                continue
            if constant and lit in self.facts.by_callee.get(new.simple_name, set()):
                self.flag(
                    "hardcodes-expected",
                    at,
                    f"makes {new.name} return the constant {render(lit)}, the expected value of "
                    f"{self.facts.expected[lit]}",
                )
            elif not is_trivial(lit) and lit not in self.known:
                self.flag(
                    "hardcodes-expected",
                    at,
                    f"{gives(at, lit)}, the expected value of {self.facts.expected[lit]}",
                )
            else:
                continue
            self.returns_flagged.add(at.id)

    def _tables(self, old: Scope | None, new: Scope) -> None:
        calls = [n for n in new.of_type("method_invocation")]
        old_calls = of_type(old, "method_invocation")
        _, maps = pair(
            [n for n in old_calls if _is_map_of(n)], [n for n in calls if _is_map_of(n)], key
        )
        tables: list[tuple[Node, list[tuple[Lit | None, Lit | None]]]] = []
        for node in maps:
            values = [value_of(a) for a in arguments(node)]
            tables.append((node, list(zip(values[::2], values[1::2], strict=True))))
        _, puts = pair([n for n in old_calls if _is_put(n)], [n for n in calls if _is_put(n)], key)
        by_map: dict[str, list[Node]] = {}
        for node in puts:
            by_map.setdefault(receiver(node), []).append(node)
        for group in by_map.values():
            entries = [(value_of(arguments(n)[0]), value_of(arguments(n)[1])) for n in group]
            tables.append((group[0], entries))
        for node, entries in tables:
            hits = [
                (k, v)
                for k, v in entries
                if k is not None
                and v is not None
                and not is_trivial(k)
                and k in self.facts.inputs
                and v in self.facts.expected
                and (not is_trivial(v) or (k, v) in self.facts.pairs)
            ]
            if hits and 2 * len(hits) >= len(entries):
                k, v = hits[0]
                self.flag("special-cases-input", node, f"keys a table on tested input {render(k)}")
                self.flag(
                    "hardcodes-expected",
                    node,
                    f"maps {render(k)} to {render(v)}, the expected value of "
                    f"{self.facts.expected[v]}",
                )


def _is_map_of(node: Node) -> bool:
    args = arguments(node)
    return (
        callee(node) == "of"
        and receiver(node).rsplit(".", 1)[-1] in ("Map", "ImmutableMap")
        and len(args) >= 2
        and len(args) % 2 == 0
    )


def _is_put(node: Node) -> bool:
    return callee(node) == "put" and len(arguments(node)) == 2 and bool(receiver(node))


def literal_flags(change: JavaChange) -> list[Flag]:
    """special-cases-input and hardcodes-expected flags of the patched Java code."""
    if not change.code:
        return []
    known = known_literals(change.buggy)
    flags = []
    for jf in change.code:
        finder = _Finder(jf, change.facts, known)
        for old, new in jf.scope_pairs():
            finder.scope(old, new)
        flags += finder.flags
    return flags
