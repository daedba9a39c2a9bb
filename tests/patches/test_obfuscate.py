"""Source-level obfuscation: what is renamed, what is kept, and that behaviour does not change.

Behaviour is checked by running pytest in a subprocess on these tests' own snippets (trusted
code); the sandboxed judge runs on whole samples in tests/suites/test_transform.py.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from truepass.families.repair.transforms.obfuscate import (
    ObfuscationError,
    Renaming,
    plan_renaming,
    rename_in_text,
    rewrite_files,
)


def obfuscate(code: dict[str, str], tests: dict[str, str], seed: int = 0):  # type: ignore[no-untyped-def]
    renaming = plan_renaming([code, tests], seed=seed, test_paths=frozenset(tests))
    return renaming, rewrite_files({**code, **tests}, renaming)


def identifiers(source: str) -> set[str]:
    """Every identifier the code spells: names, attributes, parameters, keywords, imports."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        for attr in ("id", "attr", "arg", "name", "asname", "module"):
            value = getattr(node, attr, None)
            if isinstance(value, str):
                out.update(value.split("."))
        if isinstance(node, ast.Global | ast.Nonlocal):
            out.update(node.names)
    return out


def all_identifiers(files: dict[str, str]) -> set[str]:
    return set().union(*(identifiers(t) for p, t in files.items() if p.endswith(".py")))


def pytest_outcome(files: dict[str, str], where: Path) -> str:
    where.mkdir()
    for path, text in files.items():
        (where / path).parent.mkdir(parents=True, exist_ok=True)
        (where / path).write_text(text)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=where, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    return done.stdout.strip().splitlines()[-1].split(" in ")[0]


def same_behaviour(code: dict[str, str], tests: dict[str, str], tmp_path: Path) -> Renaming:
    renaming, out = obfuscate(code, tests)
    before = pytest_outcome({**code, **tests}, tmp_path / "before")
    after = pytest_outcome(out, tmp_path / "after")
    assert before == after, (before, after, out)
    assert "passed" in after
    return renaming


GEO = '''"""Geometry helpers."""

# a comment that must go
def area(width, height=1):
    """Area of a rectangle."""
    return width * height


def describe(width, height):
    return f"{width}x{height} has area {area(width, height=height)}"
'''
GEO_TESTS = """import geo
from geo import area, describe


def test_area():
    assert area(2, height=3) == 6
    assert geo.area(width=4) == 4


def test_describe():
    assert describe(2, 3) == "2x3 has area 6"
"""


def test_a_name_and_all_its_uses_change_together(tmp_path: Path) -> None:
    renaming = same_behaviour({"geo.py": GEO}, {"test_geo.py": GEO_TESTS}, tmp_path)
    new_area, new_width = renaming.names["area"], renaming.names["width"]
    assert new_area.startswith("f_") and new_width.startswith("v_")
    module = Path(renaming.paths["geo.py"]).stem
    assert module.startswith("mod_")
    _, out = obfuscate({"geo.py": GEO}, {"test_geo.py": GEO_TESTS})
    test_file = out[renaming.paths["test_geo.py"]]
    assert f"import {module}\n" in test_file
    assert f"from {module} import {new_area}, {renaming.names['describe']}" in test_file
    assert f"{module}.{new_area}({new_width}=4)" in test_file  # keyword follows the parameter
    assert f"{new_area}(2, {renaming.names['height']}=3)" in test_file
    assert not {"geo", "area", "width", "height", "describe"} & all_identifiers(out)


def test_comments_and_docstrings_go_data_strings_stay() -> None:
    _, out = obfuscate({"geo.py": GEO}, {"test_geo.py": GEO_TESTS})
    code = next(t for p, t in out.items() if p.startswith("mod_"))
    assert "#" not in code and "Geometry" not in code and "rectangle" not in code
    assert "has area" in code and "2x3 has area 6" in "".join(out.values())
    only_doc = plan_renaming([{"m.py": 'def f():\n    """Only a docstring."""\n'}])
    assert rewrite_files({"m.py": 'def f():\n    """Only a docstring."""\n'}, only_doc) == {
        only_doc.paths["m.py"]: f"def {only_doc.names['f']}():\n    pass\n"
    }


STACK = """class Stack:
    def __init__(self):
        self.stored = []

    def push(self, item):
        self.stored.append(item)

    def pop(self):
        return self.stored.pop()

    def min(self):
        return min(self.stored)

    def top(self):
        return self.stored[-1]
"""
STACK_TESTS = """from stack import Stack


def test_stack():
    s = Stack()
    s.push(3)
    s.push(1)
    assert s.min() == 1 == min([4, 1, 3])
    assert s.top() == 1
    assert s.pop() == 1 and s.stored == [3]
    assert [5, 6].pop() == 6
"""


def test_own_attributes_renamed_foreign_ones_kept(tmp_path: Path) -> None:
    renaming = same_behaviour({"stack.py": STACK}, {"test_stack.py": STACK_TESTS}, tmp_path)
    assert {"stored", "push", "top", "min"} <= set(renaming.names)
    # `pop` is also list.pop: renaming it would break `self.stored.pop()`
    assert renaming.kept["pop"] == "attribute name that outside objects also carry"
    _, out = obfuscate({"stack.py": STACK}, {"test_stack.py": STACK_TESTS})
    code = "".join(out.values())
    # the method `min` is renamed, the builtin `min` is not
    assert f"def {renaming.names['min']}(self)" in code and "return min(self." in code
    assert ".append(" in code and "min([4, 1, 3])" in code


SORTING = """def by_key(xs, key=None, reverse=False):
    return sorted(xs, key=key, reverse=reverse)


def apply(fn, *args, **kwargs):
    return fn(*args, **kwargs)
"""
SORTING_TESTS = """from sorting import apply, by_key


def test_keywords():
    assert by_key([3, 1, 2], key=lambda x: -x) == [3, 2, 1]
    assert sorted([1, 2], key=lambda x: -x, reverse=False) == [2, 1]
    assert apply(by_key, [2, 1], reverse=True) == [2, 1]
"""


def test_keywords_follow_own_parameters_only(tmp_path: Path) -> None:
    renaming = same_behaviour({"sorting.py": SORTING}, {"test_sorting.py": SORTING_TESTS}, tmp_path)
    new_key = renaming.names["key"]
    _, out = obfuscate({"sorting.py": SORTING}, {"test_sorting.py": SORTING_TESTS})
    code = "".join(out.values())
    assert f"{renaming.names['by_key']}([3, 1, 2], {new_key}=lambda" in code
    assert "sorted(xs, key=" not in code and f"key={new_key}" in code  # builtin keyword kept
    assert "sorted([1, 2], key=lambda" in code
    # `reverse` reaches by_key through apply(**kwargs): the analysis cannot follow, so it stays
    assert "reverse" in renaming.kept


FIXTURES = """import pytest
from calc import double


@pytest.fixture
def base():
    return 21


@pytest.mark.parametrize("value, expected", [(1, 2), (5, 10)])
def test_double(value, expected):
    assert double(value) == expected


def test_fixtures(base, tmp_path, capsys):
    print(double(base))
    assert capsys.readouterr().out == "42\\n"
    assert tmp_path.is_dir()


class TestGroup:
    def test_method(self, base):
        assert double(base) == 42
"""


def test_pytest_still_collects_and_finds_fixtures(tmp_path: Path) -> None:
    code = {"calc.py": "def double(value):\n    return 2 * value\n"}
    renaming = same_behaviour(code, {"test_calc.py": FIXTURES}, tmp_path)
    assert renaming.kept["tmp_path"] == renaming.kept["capsys"] == "pytest fixture parameter"
    assert {"base", "value", "expected"} <= set(renaming.names)  # own fixture, parametrized
    assert renaming.names["test_double"].startswith("test_")
    assert renaming.names["TestGroup"].startswith("Test_")
    assert Path(renaming.paths["test_calc.py"]).name.startswith("test_")
    _, out = obfuscate(code, {"test_calc.py": FIXTURES})
    new = renaming.names
    assert f"parametrize('{new['value']}, {new['expected']}'" in "".join(out.values())


REFLECTIVE = """from enum import Enum


class Color(Enum):
    RED = 1
    BLUE = 2


class Handlers:
    def greet(self):
        return "hi"

    def shout(self):
        return "HI"


def call(obj, action):
    return getattr(obj, action)()
"""
REFLECTIVE_TESTS = """from handlers import Color, Handlers, call


def test_reflection():
    assert call(Handlers(), "greet") == "hi"
    assert Handlers().shout() == "HI"
    assert Color.RED.name == "RED" and Color["BLUE"].value == 2
"""


def test_names_used_as_data_are_kept(tmp_path: Path) -> None:
    code, tests = {"handlers.py": REFLECTIVE}, {"test_handlers.py": REFLECTIVE_TESTS}
    renaming = same_behaviour(code, tests, tmp_path)
    assert renaming.kept["greet"] == "also a string literal in code that reflects on names"
    assert "Enum member" in renaming.kept["RED"] and "Enum member" in renaming.kept["BLUE"]
    assert {"shout", "Handlers", "Color", "call"} <= set(renaming.names)


PACKAGE = {
    "pkg/__init__.py": 'from .core import Point, norm\n\n__all__ = ["Point", "norm"]\n',
    "pkg/core.py": """from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Point:
    x: float
    y: float

    def shifted(self, dx: float = 0.0) -> "Point":
        return Point(x=self.x + dx, y=self.y)


def norm(p: Point) -> float:
    return math.hypot(p.x, p.y)


def first(items: list[T]) -> T:
    return items[0]
""",
    "pkg/extra.py": "from . import core\nfrom .core import first\n\n\ndef head(p):\n"
    "    return first([core.norm(p)])\n",
}
PACKAGE_TESTS = {
    "tests/test_pkg.py": """import pkg.core
from pkg import Point, norm
from pkg.extra import head


def test_package():
    p = Point(3, 4).shifted(dx=0)
    assert norm(p) == pkg.core.norm(Point(x=3, y=4)) == head(p) == 5.0
    assert p.x == 3
""",
}


def test_packages_relative_imports_and_string_lists(tmp_path: Path) -> None:
    renaming = same_behaviour(PACKAGE, PACKAGE_TESTS, tmp_path)
    assert set(renaming.paths) == {"pkg/core.py", "pkg/extra.py", "tests/test_pkg.py"}
    _, out = obfuscate(PACKAGE, PACKAGE_TESTS)
    new = renaming.names
    init = out["pkg/__init__.py"]
    assert f"__all__ = ['{new['Point']}', '{new['norm']}']" in init
    core = out[renaming.paths["pkg/core.py"]]
    assert f"{new['T']} = TypeVar('{new['T']}')" in core
    assert f"-> '{new['Point']}'" in core  # a forward reference is code, renamed
    assert not {"core", "extra", "Point", "norm", "shifted", "x", "y"} & all_identifiers(out)


def test_module_imported_bare_and_shadowed_by_its_function(tmp_path: Path) -> None:
    code = {"clamp.py": "def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n"}
    tests = {
        "test_clamp.py": "import clamp\nfrom clamp import clamp as c\n\n\n"
        "def test_clamp():\n    assert clamp.clamp(9, 0, 5) == c(9, 0, 5) == 5\n",
        "test_shadow.py": "import clamp\nfrom clamp import clamp\n\n\n"
        "def test_shadow():\n    assert clamp(-1, 0, 5) == 0\n",
    }
    renaming = same_behaviour(code, tests, tmp_path)
    assert not {"clamp", "lo", "hi"} & all_identifiers(rewrite_files({**code, **tests}, renaming))


def test_attributes_on_objects_of_unknown_libraries_are_kept() -> None:
    code = {
        "grid.py": "import somelib\n\n\nclass Grid:\n    def __init__(self):\n"
        "        self.dims = (1, 2)\n        self.cells = []\n\n\n"
        "def size(a):\n    return somelib.asarray(a).dims\n"
    }
    renaming = plan_renaming([code])
    assert renaming.kept["dims"] == "attribute read on an object of an unknown library"
    assert "cells" in renaming.names and "somelib" not in renaming.names


def test_determinism_and_seed() -> None:
    a = obfuscate({"geo.py": GEO}, {"test_geo.py": GEO_TESTS})[1]
    assert a == obfuscate({"geo.py": GEO}, {"test_geo.py": GEO_TESTS})[1]
    b = obfuscate({"geo.py": GEO}, {"test_geo.py": GEO_TESTS}, seed=1)[1]
    assert a != b and len(a) == len(b)
    salted = plan_renaming([{"geo.py": GEO}], salt="other-sample")
    assert salted.names["area"] != plan_renaming([{"geo.py": GEO}]).names["area"]


def test_unparsable_source_raises() -> None:
    with pytest.raises(ObfuscationError, match=r"broken\.py does not parse"):
        plan_renaming([{"broken.py": "def f(:\n"}])


def test_prose_renames_only_code_like_identifiers() -> None:
    renaming = plan_renaming([{"geo.py": GEO}, {"test_geo.py": GEO_TESTS}])
    text = rename_in_text(
        "Fix `area` in geo.py: area(width) must use height_of and width.", renaming
    )
    new = renaming.names
    module = Path(renaming.paths["geo.py"]).name
    assert (
        text
        == f"Fix `{new['area']}` in {module}: {new['area']}(width) must use height_of and width."
    )


SLOTS = """class Tagged:
    __slots__ = ("id", "label")

    def __init__(self, ident, label):
        self.id = ident
        self.label = label


class Base:
    registry = []

    def __init_subclass__(cls, kind="plain", **kwargs):
        super().__init_subclass__(**kwargs)
        Base.registry.append((cls.__name__ != "", kind))


class Special(Base, kind="special"):
    pass
"""
SLOTS_TESTS = """from tagged import Base, Tagged

STATE = []


def setup_function(function):
    STATE.append(1)


def test_slots_and_builtin_named_attributes():
    t = Tagged(id(STATE) > 0, "x")
    assert (t.id, t.label) == (True, "x") and STATE == [1]
    assert Base.registry == [(True, "special")]
"""


def test_slots_builtin_named_attributes_and_pytest_hooks(tmp_path: Path) -> None:
    renaming = same_behaviour({"tagged.py": SLOTS}, {"test_tagged.py": SLOTS_TESTS}, tmp_path)
    assert {"id", "label"} <= set(renaming.names)  # `id` is renamed as an attribute only
    assert "setup_function" in renaming.kept and "kind" in renaming.kept
    _, out = obfuscate({"tagged.py": SLOTS}, {"test_tagged.py": SLOTS_TESTS})
    code = "".join(out.values())
    assert f"__slots__ = ('{renaming.names['id']}', '{renaming.names['label']}')" in code
    assert "id(" in code  # the builtin


def test_subclasses_of_unknown_library_classes_keep_their_attributes() -> None:
    code = {
        "net.py": "import torchlike\n\n\nclass Net(torchlike.Module):\n"
        "    def forward(self, x):\n        return x\n\n\ndef run(x):\n    return x\n"
    }
    renaming = plan_renaming([code])
    assert "forward" in renaming.kept and {"Net", "run", "x"} <= set(renaming.names)
