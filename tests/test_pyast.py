"""Every parse in truepass's own process is serialised (CPython 3.11's gh-106905: threads that
build ASTs at once fail with "AST constructor recursion depth mismatch"; judging runs in
threads). CI failed on it once, in the warm runner's precompilation."""

from __future__ import annotations

import ast
import threading
from pathlib import Path

from truepass import pyast

SRC = Path(pyast.__file__).parent
_RADON = {"cc_visit", "h_visit", "mi_visit"}  # radon functions that call ast.parse


def _callee(node: ast.Call) -> str:
    f = node.func
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        return f"{f.value.id}.{f.attr}"
    return f.id if isinstance(f, ast.Name) else ""


def _unguarded(tree: ast.AST) -> list[tuple[int, str]]:
    """Calls that parse Python outside ``pyast``: ``ast.parse``, and radon's visitors when not
    inside ``with pyast.exclusive()``."""
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, guarded: bool) -> None:
        if isinstance(node, ast.With) and any(
            isinstance(i.context_expr, ast.Call) and _callee(i.context_expr) == "pyast.exclusive"
            for i in node.items
        ):
            guarded = True
        if isinstance(node, ast.Call):
            name = _callee(node)
            if name == "ast.parse" or (name in _RADON and not guarded):
                found.append((node.lineno, name))
        for child in ast.iter_child_nodes(node):
            visit(child, guarded)

    visit(tree, False)
    return found


def test_no_parse_outside_pyast_in_the_parent() -> None:
    offenders = []
    for path in sorted(SRC.rglob("*.py")):
        if path.name == "pyast.py" or "harness" in path.relative_to(SRC).parts:
            continue  # the harness runs in the sandbox, single-threaded
        tree = ast.parse(path.read_text(), filename=str(path))
        offenders += [f"{path.relative_to(SRC)}:{line}: {name}" for line, name in _unguarded(tree)]
    assert offenders == [], "parse through truepass.pyast (see its docstring):\n" + "\n".join(
        offenders
    )


def test_the_guard_sees_a_bare_parse_and_an_unguarded_radon_call() -> None:
    tree = ast.parse(
        "import ast\nast.parse('x')\ncc_visit('y')\nwith pyast.exclusive():\n    cc_visit('z')\n"
    )
    assert _unguarded(tree) == [(2, "ast.parse"), (3, "cc_visit")]


def test_a_parse_waits_while_another_thread_holds_the_parser() -> None:
    done = threading.Event()

    def parse() -> None:
        pyast.parse("def f():\n    return 1\n")
        done.set()

    with pyast.exclusive():
        other = threading.Thread(target=parse)
        other.start()
        assert not done.wait(0.3), "parsed while the lock was held"
    other.join(5)
    assert done.is_set()


def test_parse_helpers_match_the_standard_library() -> None:
    assert ast.dump(pyast.parse("x = [1, 2]", "m.py")) == ast.dump(ast.parse("x = [1, 2]"))
    assert ast.dump(pyast.parse_expression("a + 1")) == ast.dump(ast.parse("a + 1", mode="eval"))
    code = pyast.compile_tree(pyast.parse("y = 6 * 7", "m.py"), "m.py")
    namespace: dict[str, object] = {}
    exec(code, namespace)  # our own literal source, not a candidate's
    assert namespace["y"] == 42
