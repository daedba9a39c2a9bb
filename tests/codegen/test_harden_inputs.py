"""truepass harden, pure parts: type-aware input mutation, likely invariants, mutants of the
canonical solution, literal text (no code runs here)."""

from __future__ import annotations

import ast
import math

from truepass.families.codegen.harden.mutants import mutants_of
from truepass.pycode.inputs import Mutator, boundary_values, generate_inputs
from truepass.pycode.invariants import balanced, learn, repair, violated
from truepass.pycode.values import profile, rng_for, stable_args, stable_key, stable_literal
from truepass.suites.literals import parse_args, parse_literal

VISIBLE: list[list[object]] = [
    [[1, 2, 3], "abc", 2.5, {"k": [1]}, (1, "x"), True],
    [[4, -5], "ba", 0.0, {"j": [2, 3]}, (2, "y"), False],
    [[7], "", -1.5, {}, (3, "z"), True],
]


def test_mutation_preserves_types_at_every_position() -> None:
    generated = generate_inputs(VISIBLE, 300, seed=3, key="types")
    assert len(generated) == 300
    for g in generated:
        assert len(g.args) == 6
        for i, (new, old) in enumerate(zip(g.args, VISIBLE[0], strict=True)):
            assert type(new) is type(old), (i, g.args)
        lst, text, num, mapping, pair, flag = g.args
        assert all(type(x) is int for x in lst)  # type: ignore[attr-defined]
        assert set(text) <= set("abc")  # type: ignore[arg-type]  # only characters seen there
        assert type(num) is float and math.isfinite(num)  # type: ignore[arg-type]
        assert all(type(k) is str and type(v) is list for k, v in mapping.items())  # type: ignore[attr-defined]
        assert all(type(x) is int for v in mapping.values() for x in v)  # type: ignore[attr-defined]
        assert type(pair[0]) is int and type(pair[1]) is str and len(pair) == 2  # type: ignore[index,arg-type]
        assert type(flag) is bool


def test_generation_is_seeded_and_new() -> None:
    a = generate_inputs(VISIBLE, 80, seed=7, key="p")
    b = generate_inputs(VISIBLE, 80, seed=7, key="p")
    c = generate_inputs(VISIBLE, 80, seed=8, key="p")
    assert [stable_args(g.args) for g in a] == [stable_args(g.args) for g in b]
    assert [stable_args(g.args) for g in a] != [stable_args(g.args) for g in c]
    keys = [stable_key(g.args) for g in a]
    assert len(set(keys)) == len(keys)
    assert not set(keys) & {stable_key(tuple(v)) for v in VISIBLE}
    excluded = generate_inputs(VISIBLE, 80, seed=7, key="p", exclude=[list(a[0].args)])
    assert stable_key(a[0].args) not in {stable_key(g.args) for g in excluded}


def test_boundaries_and_empties_are_included() -> None:
    visible: list[list[object]] = [[[3, 8, 2], "hello", 5], [[1], "ab", 12]]
    generated = generate_inputs(visible, 200, seed=0, key="edges")
    kinds = {g.kind for g in generated}
    assert kinds == {"boundary", "random"}
    firsts = [g.args[0] for g in generated]
    texts = [g.args[1] for g in generated]
    ints = {g.args[2] for g in generated}
    assert [] in firsts and any(len(x) == 1 for x in firsts)  # type: ignore[arg-type]
    assert "" in texts and any(len(t) == 1 for t in texts)  # type: ignore[arg-type]
    assert {5, 12, 13} <= ints  # observed extremes and one beyond the largest
    assert min(ints) >= 5  # type: ignore[type-var]  # all visible ints positive: none below 5
    assert max(ints) <= 24  # type: ignore[type-var]  # at most twice the largest magnitude


def test_signed_domains_allow_negatives_and_zero() -> None:
    p = profile([[-3, 0.5], [4, -2.0]])
    assert list(boundary_values(1, "0", p)) == [0, 1, -1, -3, 4, -4, 5]
    assert 0.0 in list(boundary_values(0.5, "1", p))
    mutator = Mutator(p, rng_for(0, "x"))
    values = {mutator.mutate(4, "0") for _ in range(300)}
    assert min(values) < 0 < max(values)  # type: ignore[type-var]


def test_sets_and_nested_values_mutate_within_type() -> None:
    visible: list[list[object]] = [[{1, 2, 3}, [[1, 2], [3]]], [{5}, [[4], []]]]
    for g in generate_inputs(visible, 100, seed=1, key="nest"):
        assert type(g.args[0]) is set and all(type(x) is int for x in g.args[0])  # type: ignore[attr-defined]
        assert type(g.args[1]) is list
        assert all(type(row) is list and all(type(x) is int for x in row) for row in g.args[1])  # type: ignore[attr-defined]


def test_stable_literal_round_trips_and_ignores_hash_order() -> None:
    values = [{"b", "a", "c"}, set(), (1,), [1.5, -0.0, math.inf], {"k": {3, 1}}, None, (True, "x")]
    for v in values:
        text = stable_literal(v)
        assert parse_literal(text) == v
        assert type(parse_literal(text)) is type(v)
    assert stable_literal({"b", "a"}) == "{'a', 'b'}"
    assert parse_args(stable_args([[1], "a", (2,)])) == [[1], "a", (2,)]


def test_invariants_learned_from_visible_inputs_are_kept() -> None:
    visible: list[list[object]] = [
        ["(()) ()", [1, 2, 3]],
        ["() (())", [2, 5, 9]],
        ["(())", [0, 4, 7]],
    ]
    names = {str(i) for i in learn(visible)}
    assert {"balanced@0", "balanced-words@0", "spacing@0", "sorted@1", "distinct@1"} <= names
    assert {"non-empty@0", "non-empty@1"} <= names
    invariants = learn(visible)
    assert violated(invariants, ["(()", [1, 2]]) is not None
    fixed = repair(invariants, ["(() ())", [3, 1, 1]])
    assert fixed == ["() ()", [1, 3]]
    assert repair(invariants, ["", [1]]) is None  # empty where visible never is: refused
    for g in generate_inputs(visible, 100, seed=0, key="inv",
                             adjust=lambda a: repair(invariants, a)):  # fmt: skip
        assert balanced(g.args[0]) and g.args[0]  # type: ignore[arg-type]
        assert g.args[1] == sorted(g.args[1]) and len(set(g.args[1])) == len(g.args[1])  # type: ignore[arg-type,call-overload]


def test_intervals_keep_their_ends_in_order() -> None:
    visible: list[list[object]] = [[(9, 17), (1, 5)], [(13, 13), (2, 8)], [(0, 4), (3, 3)]]
    invariants = learn(visible)
    assert {"ascending@0", "ascending@1"} <= {str(i) for i in invariants}
    assert repair(invariants, [(9, 2), (1, 5)]) == [(2, 9), (1, 5)]  # turned, not refused
    assert not learn([[(3, 1)], [(1, 2)], [(2, 5)]])  # one descending pair: no rule
    words = learn([[("b", "a")], [("a", "b")], [("c", "d")]])
    assert not [i for i in words if "ascending" in str(i)]  # numbers only


def test_no_invariant_without_evidence() -> None:
    assert learn([["ab", [3, 1]]]) == []  # one input proves nothing
    assert not [i for i in learn([[[1, 1, 2]], [[3, 4, 5]], [[2, 2]]]) if "distinct" in str(i)]


PROMPT = 'def f(xs: list, k: int) -> int:\n    """Count items above k."""\n'
BODY = "    n = 0\n    for x in xs:\n        if x > k:\n            n += 1\n    return n\n"


def test_mutants_change_only_the_canonical_body() -> None:
    mutants = mutants_of(PROMPT, BODY, key="f")
    operators = {m.operator for m in mutants}
    assert {"compare", "off-by-one", "arith", "negate", "remove", "var-swap"} <= operators
    original = ast.dump(ast.parse(PROMPT + BODY))
    shapes = {ast.dump(ast.parse(m.code)) for m in mutants}
    assert original not in shapes and len(shapes) == len(mutants)
    for m in mutants:
        assert m.code.startswith(PROMPT)
        assert m.line > PROMPT.count("\n")
    assert "        if x >= k:\n" in {m.code[len(PROMPT) :].splitlines(True)[2] for m in mutants}


def test_mutants_are_capped_and_seeded() -> None:
    a = mutants_of(PROMPT, BODY, limit=5, seed=1, key="f")
    b = mutants_of(PROMPT, BODY, limit=5, seed=1, key="f")
    assert len(a) == 5 and [m.code for m in a] == [m.code for m in b]
    assert [m.line for m in a] == sorted(m.line for m in a)
    args = mutants_of("def g(a, b):\n", "    return pow(a, b)\n")
    assert any("pow(b, a)" in m.code for m in args)
    symmetric = mutants_of("def g(a, b):\n", "    return max(a, b)\n")
    assert "arg-swap" not in {m.operator for m in symmetric}


def test_more_invariants_grids_words_and_measured_numbers() -> None:
    grids: list[list[object]] = [[[[1, 2], [3, 4]]], [[[4, 1], [2, 3]]], [[[2, 3, 1], [5, 4, 6]]]]
    assert {"permutation@0", "rectangular@0"} <= {str(i) for i in learn(grids)}
    assert violated(learn(grids), [[[1, 2], [2, 4]]]) is not None
    words: list[list[object]] = [["a b b a"], ["c a"], ["b"]]
    assert "letters-words@0" in {str(i) for i in learn(words)}
    assert violated(learn(words), ["a bb"]) is not None
    grades: list[list[object]] = [[[4.0, 3, 1.7]], [[0.5, 2.2]], [[0.0]]]
    for g in generate_inputs(grades, 100, seed=0, key="gpa"):
        assert all(0.0 <= x <= 4.0 for x in g.args[0])  # type: ignore[attr-defined]
