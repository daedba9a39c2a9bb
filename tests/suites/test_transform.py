"""The leakage probe's ``obfuscate`` transform on whole samples and suites.

The semantic proof runs the real judge in the sandbox: a multi-file sample full of awkward cases
here, every ``mini`` sample in the slow test.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import io
import json
import tokenize
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from truepass.answers import Answer
from truepass.errors import InputError
from truepass.families.repair.judge import check_sample, judge
from truepass.families.repair.schema import RepairSample
from truepass.families.repair.transforms import obfuscate_sample, samples_hash, transform_suite
from truepass.families.repair.transforms.obfuscate import plan_renaming
from truepass.judged import JudgeConfig
from truepass.patches.apply import apply_diff, unified_diff
from truepass.suites.loader import load_suite


@pytest.fixture(scope="module")
def mini():  # type: ignore[no-untyped-def]
    return load_suite("mini")


@pytest.fixture(scope="module")
def obfuscated(mini):  # type: ignore[no-untyped-def]
    return transform_suite(mini, "obfuscate")


def py_files(sample: RepairSample) -> dict[str, str]:
    return {p: t for p, t in {**sample.files, **sample.test_files}.items() if p.endswith(".py")}


def defined(source: str) -> set[str]:
    """What a file defines: functions, classes, parameters, assigned names and attributes."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.add(node.name)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            out.add(node.attr)
    return out


def spelled(source: str) -> set[str]:
    """Every identifier a file spells anywhere in its code (not in its strings)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        for attr in ("id", "attr", "arg", "name", "asname", "module"):
            value = getattr(node, attr, None)
            if isinstance(value, str):
                out.update(value.split("."))
    return out


def test_transformed_sample_validates_and_records_the_transform(mini, obfuscated) -> None:  # type: ignore[no-untyped-def]
    assert [s.id for s in obfuscated.samples] == [s.id for s in mini.samples]
    for before, after in zip(mini.samples, obfuscated.samples, strict=True):
        assert RepairSample.model_validate(after.model_dump()) == after
        assert after.meta["transform"] == "obfuscate" and after.meta["transform_seed"] == 0
        assert after.meta["renamed_identifiers"] >= 5 and after.meta["renamed_files"] == 3
        assert (after.defect_type, after.leakage, after.source) == (
            before.defect_type, before.leakage, before.source,
        )  # fmt: skip
        assert (after.known_overfit is None) == (before.known_overfit is None)
        assert not set(after.files) & set(before.files)
        assert all(Path(p).name.startswith("test_") for p in after.test_files)


def test_no_identifier_of_the_samples_own_definitions_is_left(mini, obfuscated) -> None:  # type: ignore[no-untyped-def]
    for before, after in zip(mini.samples, obfuscated.samples, strict=True):
        tests = before.test_files
        renaming = plan_renaming([before.files, tests], salt=before.id, test_paths=frozenset(tests))
        own = set().union(*(defined(t) for t in py_files(before).values()))
        own |= {Path(p).stem for p in py_files(before)}
        left = set().union(*(spelled(t) for t in py_files(after).values())) & own
        assert left <= set(renaming.kept), (before.id, left - set(renaming.kept))
        # what may stay is what other code also names: builtins, dunders, list/dict methods
        assert left <= {"self", "__init__", "__len__", "min", "name", "pop", "peek"}, before.id


def test_comments_and_docstrings_are_gone_data_strings_stay(mini, obfuscated) -> None:  # type: ignore[no-untyped-def]
    for before, after in zip(mini.samples, obfuscated.samples, strict=True):
        for path, text in py_files(after).items():
            tokens = tokenize.generate_tokens(io.StringIO(text).readline)
            assert not [t for t in tokens if t.type == tokenize.COMMENT], (after.id, path)
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef):
                    assert ast.get_docstring(node) is None, (after.id, path)
        old = {c.value for t in py_files(before).values() for c in _data_strings(t)}
        new = {c.value for t in py_files(after).values() for c in _data_strings(t)}
        assert old - new <= {"T"}, after.id  # only TypeVar("T") follows its renamed variable
    assert (
        "pages are numbered from 1"
        in obfuscated.samples[0].files[next(iter(obfuscated.samples[0].files))]
    )


def _data_strings(source: str) -> list[ast.Constant]:
    tree = ast.parse(source)
    docs = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef)
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
    }
    return [
        c
        for c in ast.walk(tree)
        if isinstance(c, ast.Constant) and isinstance(c.value, str) and id(c) not in docs
    ]


def test_imports_in_tests_follow_module_renames(obfuscated) -> None:  # type: ignore[no-untyped-def]
    for sample in obfuscated.samples:
        modules = {Path(p).stem for p in sample.files}
        for text in sample.test_files.values():
            imported = {
                n.module for n in ast.walk(ast.parse(text)) if isinstance(n, ast.ImportFrom)
            } | {
                a.name
                for n in ast.walk(ast.parse(text))
                if isinstance(n, ast.Import)
                for a in n.names
            }
            assert imported - {"pytest", "__future__"} <= modules, sample.id
            assert imported & modules, sample.id


def test_keyword_arguments_follow_parameter_renames(obfuscated) -> None:  # type: ignore[no-untyped-def]
    sample = next(s for s in obfuscated.samples if s.id == "mini-013-merge-sorted")
    code = ast.parse(next(iter(sample.files.values())))
    merge = next(n for n in code.body if isinstance(n, ast.FunctionDef) and len(n.args.args) == 3)
    key_param = merge.args.args[2].arg
    assert key_param.startswith("v_")
    hidden = next(iter(sample.tests.hidden.values()))
    keywords = {
        k.arg for n in ast.walk(ast.parse(hidden)) if isinstance(n, ast.Call) for k in n.keywords
    }
    assert keywords == {key_param}


def test_fault_lines_are_the_lines_the_new_fix_changes(obfuscated) -> None:  # type: ignore[no-untyped-def]
    for sample in obfuscated.samples:
        fixed = apply_diff(sample.files, sample.fix)
        assert unified_diff(sample.files, fixed) == sample.fix
        for loc in sample.fault:
            old = sample.files[loc.file].splitlines(keepends=True)
            removed = {
                ln[1:] for ln in difflib.unified_diff(old, fixed[loc.file].splitlines(True))
                if ln.startswith("-") and not ln.startswith("---")
            }  # fmt: skip
            assert {old[n - 1] for n in loc.lines} == removed or not removed, sample.id
        assert [loc.file for loc in sample.fault] == sorted(
            p for p in sample.files if fixed[p] != sample.files[p]
        )


def test_determinism_and_seeds(mini, obfuscated) -> None:  # type: ignore[no-untyped-def]
    again = transform_suite(mini, "obfuscate")
    assert again.samples == obfuscated.samples and again.content_hash == obfuscated.content_hash
    other = obfuscate_sample(mini.samples[0], seed=7)
    assert other.files != obfuscated.samples[0].files and other.meta["transform_seed"] == 7


def test_suite_identity(mini, obfuscated) -> None:  # type: ignore[no-untyped-def]
    assert obfuscated.name == "mini+obfuscated" and obfuscated.path == mini.path
    assert (obfuscated.version, obfuscated.family) == (mini.version, mini.family)
    canonical = json.dumps(
        [s.model_dump(mode="json") for s in obfuscated.samples],
        sort_keys=True, separators=(",", ":"), ensure_ascii=False,
    )  # fmt: skip
    assert obfuscated.content_hash == hashlib.sha256(canonical.encode()).hexdigest()
    assert obfuscated.content_hash == samples_hash(obfuscated.samples) != mini.content_hash
    with pytest.raises(
        InputError, match=r"unknown transform 'rot13' \(known transforms: obfuscate\)"
    ):
        transform_suite(mini, "rot13")


def test_samples_that_cannot_be_obfuscated_come_back_unchanged(mini) -> None:  # type: ignore[no-untyped-def]
    sample = mini.samples[0]
    path = next(iter(sample.files))
    broken = sample.model_copy(update={"files": {path: sample.files[path] + "def (:\n"}})
    out = obfuscate_sample(broken)
    assert out.model_copy(update={"meta": {}}) == broken.model_copy(update={"meta": {}})
    assert str(out.meta["transform"]).startswith("obfuscate skipped: ") and "parse" in str(
        out.meta["transform"]
    )
    stale = sample.model_copy(update={"fix": sample.fix.replace("page * per_page", "nope")})
    assert "does not apply" in str(obfuscate_sample(stale).meta["transform"])


# A sample with packages, relative imports, a bare module import, dataclass keywords, a property,
# a method named like a builtin, an Enum, pytest parametrize and fixtures, reflection, closures.
GEOMETRY = '''"""Rectangles and what to measure on them."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum


class Unit(Enum):
    CM = "cm"
    INCH = "inch"


@dataclass
class Rect:
    """A rectangle."""

    width: float
    height: float
    unit: Unit = Unit.CM
    tags: list[str] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        return self.width / self.height

    def scaled(self, factor: float = 1.0) -> "Rect":
        # keep the unit
        return Rect(width=self.width * factor, height=self.height * factor, unit=self.unit)

    def min(self) -> float:
        return min(self.width, self.height)


def area_of(rect: Rect, *, rounding: int = 2) -> float:
    """Area, rounded."""
    return round(rect.width + rect.height, rounding)


def diagonal(rect: Rect) -> float:
    return math.hypot(rect.width, rect.height)


def largest(rects: list[Rect], key=area_of) -> Rect:
    return sorted(rects, key=key)[-1]
'''
INIT = 'from .geometry import Rect, area_of\n\n__all__ = ["Rect", "area_of"]\n'
STACK = """class Stack:
    def __init__(self, limit: int = 10) -> None:
        self._items: list[int] = []
        self.limit = limit

    def push(self, item: int) -> None:
        if len(self._items) >= self.limit:
            raise OverflowError(f"stack of {self.limit} is full")
        self._items.append(item)

    def pop(self) -> int:
        return self._items.pop()


class Handlers:
    def greet(self) -> str:
        return "hi"


def call(handlers: Handlers, action: str) -> str:
    return getattr(handlers, action)()


def make_counter(start: int = 0):
    count = start

    def bump(step: int = 1) -> int:
        nonlocal count
        count += step
        return count

    return bump
"""
VISIBLE = """import pytest

from shapes import Rect, area_of


@pytest.mark.parametrize("w, h, expected", [(2, 3, 6), (1.5, 2, 3.0)])
def test_area(w, h, expected):
    assert area_of(Rect(w, h)) == expected


def test_area_rounding():
    assert area_of(Rect(width=1.25, height=1), rounding=1) == 1.2
"""
HIDDEN = """import json

import pytest

import shapes.geometry
import stack
from shapes.geometry import Unit, largest
from stack import Handlers, Stack, call, make_counter


@pytest.fixture
def rect():
    return Rect(width=4, height=2)


Rect = shapes.geometry.Rect


def test_fixture_and_builtin_fixture(rect, tmp_path):
    (tmp_path / "r.json").write_text(json.dumps({"w": rect.width}))
    assert json.loads((tmp_path / "r.json").read_text())["w"] == 4
    assert rect.ratio == 2.0
    assert rect.min() == 2 and min(rect.width, 3) == 3


def test_scaled_keeps_unit_and_enum_values():
    r = Rect(1, 2, unit=Unit.INCH).scaled(factor=2)
    assert (r.width, r.height, r.unit) == (2, 4, Unit.INCH)
    assert Unit.INCH.value == "inch" and Unit.INCH.name == "INCH"


def test_largest_and_diagonal():
    rs = [Rect(1, 1), Rect(3, 4), Rect(2, 2)]
    assert largest(rs) is rs[1]
    assert largest(rs, key=lambda r: -r.width) is rs[0]
    assert shapes.geometry.diagonal(rs[1]) == 5.0
    assert shapes.geometry.area_of(rs[1], rounding=0) == 12


def test_stack_and_reflection():
    s = stack.Stack(limit=1)
    s.push(item=7)
    with pytest.raises(OverflowError) as excinfo:
        s.push(8)
    assert "full" in str(excinfo.value)
    assert s.pop() == 7
    assert call(Handlers(), "greet") == "hi"
    assert isinstance(Stack(), Stack)


def test_closure():
    bump = make_counter(start=5)
    assert bump(step=2) == 7
    assert bump() == 8
"""
SPECIAL_CASE = (
    '    """Area, rounded."""\n'
    "    if (rect.width, rect.height) == (1.25, 1):\n        return 1.2\n"
    "    if 2 in (rect.width, rect.height):\n"
    "        return round(rect.width * rect.height, rounding)\n"
)


def awkward_sample() -> RepairSample:
    files = {"shapes/__init__.py": INIT, "shapes/geometry.py": GEOMETRY, "stack.py": STACK}
    fixed = GEOMETRY.replace(
        "rect.width + rect.height, rounding", "rect.width * rect.height, rounding"
    )
    overfit = GEOMETRY.replace('    """Area, rounded."""\n', SPECIAL_CASE)
    return RepairSample.model_validate(
        {
            "id": "awkward-1",
            "language": "python",
            "defect_type": "wrong-operator",
            "description": "`area_of` adds where it should multiply; make_counter() is fine.",
            "files": files,
            "tests": {"visible": {"test_shapes.py": VISIBLE}, "hidden": {"test_more.py": HIDDEN}},
            "fix": unified_diff(files, {**files, "shapes/geometry.py": fixed}),
            "known_overfit": unified_diff(files, {**files, "shapes/geometry.py": overfit}),
            "fault": [{"file": "shapes/geometry.py", "lines": [40]}],
            "source": "truepass tests",
            "leakage": "private",
        }
    )


def verdicts(sample: RepairSample) -> tuple[bool, str, str | None]:
    config = JudgeConfig(reruns=0)
    check = check_sample(sample, config)
    if not check.valid:
        return False, check.reason, None
    ref = judge(sample, Answer(diff=sample.fix), check, config).verdict.value
    over = None
    if sample.known_overfit:
        over = judge(sample, Answer(diff=sample.known_overfit), check, config).verdict.value
    return True, ref, over


def test_awkward_sample_keeps_its_semantics_under_the_real_judge() -> None:
    original = awkward_sample()
    sample = obfuscate_sample(original)
    assert sample.meta["transform"] == "obfuscate"
    assert set(sample.files) >= {"shapes/__init__.py"} and "stack.py" not in sample.files
    [fault] = sample.fault
    assert fault.file.startswith("shapes/mod_")
    assert "round(" in sample.files[fault.file].splitlines()[fault.lines[0] - 1]
    assert sample.description.startswith("`f_") and "make_counter" not in sample.description
    with ThreadPoolExecutor(2) as pool:
        before, after = pool.map(verdicts, [original, sample])
    assert before == after == (True, "correct", "overfit")


@pytest.mark.slow
def test_every_mini_sample_keeps_its_verdicts_when_obfuscated(obfuscated) -> None:  # type: ignore[no-untyped-def]
    with ThreadPoolExecutor(2) as pool:
        results = dict(
            zip(
                [s.id for s in obfuscated.samples],
                pool.map(verdicts, obfuscated.samples),
                strict=True,
            )
        )
    invalid = {k: v for k, v in results.items() if not v[0]}
    assert not invalid
    assert {k: v[1] for k, v in results.items() if v[1] != "correct"} == {}
    with_overfit = [s.id for s in obfuscated.samples if s.known_overfit]
    assert len(with_overfit) == 36
    assert {k: results[k][2] for k in with_overfit if results[k][2] != "overfit"} == {}
