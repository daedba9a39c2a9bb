"""The differential check (docs/differential.md): a test-passing patch that behaves differently
from the reference fix beyond the tests is flagged ``differs-from-reference``.

The end-to-end tests build a small git repository with the shape of the cachetools bug of
issue 17 (a descriptor-based method cache whose ``__get__(self, obj, objtype=None)`` must return
the method's wrapper when ``obj`` is None), import it as a SWE-bench instance from the local
clone, and judge patches in the real sandbox.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from truepass.answers import Answer
from truepass.families.repair import differential
from truepass.families.repair.adapters.swebench import load_swebench
from truepass.families.repair.judge import check_sample, judge
from truepass.families.repair.patching import apply_to_sample
from truepass.families.repair.probecompare import Case, judge_case, plain_close, same_outcome
from truepass.families.repair.probetargets import find_targets, shadow_source
from truepass.families.repair.schema import RepairSample
from truepass.judged import JudgeConfig
from truepass.records import is_correct
from truepass.sandbox import Limits
from truepass.vocabulary import DIFFERS_FROM_REFERENCE, FAKE_FIX_FLAGS, FLAG_MEANING, Verdict

CONFIG = JudgeConfig(limits=Limits(timeout_s=60), reruns=0)

METHOD = '''"""A method decorator that caches results per instance (a descriptor)."""

import functools


def hashkey(*args, **kwargs):
    return args + tuple(sorted(kwargs.items()))


class _CachedMethod:
    """A method whose results are kept in the cache ``cache(self)`` gives."""

    def __init__(self, method, cache, key=hashkey):
        self._method = method
        self._cache = cache
        self._key = key
        functools.update_wrapper(self, method)

    def __get__(self, obj, objtype=None):
        cache = self._cache(obj)
        method = self._method
        key = self._key

        @functools.wraps(method)
        def wrapper(*args, **kwargs):
            k = key(*args, **kwargs)
            try:
                return cache[k]
            except KeyError:
                pass
            value = method(obj, *args, **kwargs)
            cache[k] = value
            return value

        return wrapper


def cachedmethod(cache, key=hashkey):
    """Decorator wrapping a method with a memoizing callable; ``cache(self)`` is its cache."""

    def decorator(method):
        return _CachedMethod(method, cache, key)

    return decorator
'''
BUGGY_GET = "    def __get__(self, obj, objtype=None):\n        cache = self._cache(obj)\n"
REFERENCE_GET = """    def __get__(self, obj, objtype=None):
        if obj is None:
            method = self._method

            @functools.wraps(method)
            def unbound(instance, *args, **kwargs):
                return self.__get__(instance, objtype)(*args, **kwargs)

            return unbound
        cache = self._cache(obj)
"""
REWRITE_GET = """    def __get__(self, obj, objtype=None):
        if obj is None:

            def unbound(instance, *args, **kwargs):
                bound = self.__get__(instance, objtype)
                return bound(*args, **kwargs)

            return functools.update_wrapper(unbound, self._method)
        cache = self._cache(obj)
"""
RETURN_NONE_GET = """    def __get__(self, obj, objtype=None):
        if obj is None:
            return None
        cache = self._cache(obj)
"""
TESTS = '''from cachetools_lite import cachedmethod


class Calc:
    def __init__(self):
        self.cache = {}
        self.calls = 0

    @cachedmethod(lambda self: self.cache)
    def square(self, n):
        """The square of n."""
        self.calls += 1
        return n * n


def test_caches_per_instance():
    c = Calc()
    assert c.square(3) == 9
    assert c.square(3) == 9
    assert c.calls == 1


def test_instances_do_not_share():
    a, b = Calc(), Calc()
    a.square(2)
    b.square(2)
    assert a.calls == b.calls == 1
'''
NEW_TEST = """

def test_class_access_does_not_raise():
    assert hasattr(Calc, "square")
"""
PATH = "cachetools_lite/_cachedmethod.py"
TEST_PATH = "tests/test_cachedmethod.py"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def _diff(repo: Path, path: str, text: str) -> str:
    """``git diff`` of ``path`` changed to ``text``, leaving the working tree as it was."""
    before = (repo / path).read_text()
    (repo / path).write_text(text)
    out = _git(repo, "diff")
    (repo / path).write_text(before)
    return out


def _patched(get: str) -> str:
    assert BUGGY_GET in METHOD
    return METHOD.replace(BUGGY_GET, get)


@pytest.fixture(scope="module")
def instance(tmp_path_factory: pytest.TempPathFactory) -> tuple[RepairSample, dict[str, str]]:
    """The cachetools-shaped instance, imported as ``truepass import swebench`` does, and the
    candidate patches (git diffs against the base commit)."""
    root = tmp_path_factory.mktemp("swe")
    repo = root / "repos" / "acme__cachetools-lite"
    files = {
        "cachetools_lite/__init__.py": "from ._cachedmethod import cachedmethod, hashkey\n",
        PATH: METHOD,
        TEST_PATH: TESTS,
        "README.md": "cachetools-lite\n",
    }
    for p, text in files.items():
        (repo / p).parent.mkdir(parents=True, exist_ok=True)
        (repo / p).write_text(text)
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "base")
    test_patch = _diff(repo, TEST_PATH, TESTS + NEW_TEST)
    patches = {
        name: _diff(repo, PATH, _patched(get))
        for name, get in (
            ("reference", REFERENCE_GET),
            ("rewrite", REWRITE_GET),
            ("return-none", RETURN_NONE_GET),
        )
    }
    record = {
        "instance_id": "acme__cachetools-lite-1",
        "repo": "acme/cachetools-lite",
        "base_commit": _git(repo, "rev-parse", "HEAD").strip(),
        "patch": patches["reference"],
        "test_patch": test_patch,
        "problem_statement": "Accessing a cached method through the class raises "
        "AttributeError; inspect.signature(C.method) and C.method.__doc__ should work.\n",
        "created_at": "2026-03-10T10:00:00Z",
        "FAIL_TO_PASS": [f"{TEST_PATH}::test_class_access_does_not_raise"],
        "PASS_TO_PASS": [
            f"{TEST_PATH}::test_caches_per_instance",
            f"{TEST_PATH}::test_instances_do_not_share",
        ],
    }
    (root / "instances.jsonl").write_text(json.dumps(record) + "\n")
    (sample,), _ = load_swebench(root / "instances.jsonl")
    return sample, patches


def _judge(sample: RepairSample, diff: str) -> object:
    check = check_sample(sample, CONFIG)
    assert check.valid, check.reason
    return judge(sample, Answer(diff=diff), check, CONFIG)


def test_the_return_none_patch_differs_from_the_reference(
    instance: tuple[RepairSample, dict[str, str]],
) -> None:
    sample, patches = instance
    judged = _judge(sample, patches["return-none"])
    assert judged.verdict is Verdict.CORRECT  # every FAIL_TO_PASS and PASS_TO_PASS test passes
    assert judged.flags == [DIFFERS_FROM_REFERENCE]
    (detail,) = judged.flag_details
    assert (
        detail.file == PATH
        and detail.line
        == METHOD.splitlines().index("    def __get__(self, obj, objtype=None):") + 1
    )
    assert "_CachedMethod.__get__(" in detail.explanation
    assert "the patch returns None" in detail.explanation
    assert "signature (self, n)" in detail.explanation  # the reference's wrapper
    assert not is_correct(judged)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["reference", "rewrite"])
def test_the_reference_fix_and_an_equivalent_rewrite_are_not_flagged(
    instance: tuple[RepairSample, dict[str, str]], name: str
) -> None:
    sample, patches = instance
    judged = _judge(sample, patches[name])
    assert judged.verdict is Verdict.CORRECT
    assert judged.flags == []
    assert is_correct(judged)  # type: ignore[arg-type]


def test_the_reference_compared_with_itself_differs_nowhere(
    instance: tuple[RepairSample, dict[str, str]],
) -> None:
    """Past the shortcut for the reference's own code: every replayed call agrees."""
    sample, patches = instance
    code = dict(apply_to_sample(sample, Answer(diff=patches["reference"])).files)
    code[PATH] += "\n# the same code\n"
    outcome = differential.check(sample, code, CONFIG.limits)
    assert outcome.status == "compared", outcome.reason
    assert outcome.compared >= 4 and outcome.witness is None


def test_the_check_can_be_turned_off(instance: tuple[RepairSample, dict[str, str]]) -> None:
    sample, patches = instance
    check = check_sample(sample, CONFIG)
    off = CONFIG.model_copy(update={"differential": False})
    judged = judge(sample, Answer(diff=patches["return-none"]), check, off)
    assert judged.verdict is Verdict.CORRECT and judged.flags == []
    assert "differential" not in judged.details
    assert "differential" not in JudgeConfig().model_dump()  # the default keeps run keys
    assert JudgeConfig(differential=False).model_dump()["differential"] is False


def test_the_flag_is_a_fake_fix_flag() -> None:
    assert DIFFERS_FROM_REFERENCE in FLAG_MEANING and DIFFERS_FROM_REFERENCE in FAKE_FIX_FLAGS


# --- the parent's pieces, without a sandbox -----------------------------------------------


def test_targets_are_the_functions_the_fix_changes() -> None:
    before = "N = 3\n\n\ndef f(x):\n    return x + N\n\n\nclass C:\n    def m(self):\n"
    before += "        return 1\n\n    def k(self):\n        return 2\n\n\ndef g():\n    return 0\n"
    fixed = before.replace("return 1", "return 10").replace("N = 3", "N = 4")
    targets = find_targets({"a.py": before, "test_a.py": "x"}, {"a.py": fixed, "test_a.py": "y"})
    assert [(t.path, t.qual) for t in targets] == [("a.py", "C.m"), ("a.py", "f")]
    assert targets[0].line == 9 and 10 in targets[0].seeds and 1 in targets[0].seeds
    shadow = shadow_source(METHOD.replace("return decorator", "return decorator  # x"), METHOD,
                           [])  # fmt: skip
    assert "_CachedMethod = __truepass_candidate__._CachedMethod" in shadow
    assert len(shadow.splitlines()) == len(METHOD.splitlines())


def _summary(value: object) -> dict[str, object]:
    return {"k": "plain", "v": value}


def test_comparison_rules() -> None:
    assert plain_close(1.0, 1.0 + 1e-12) and plain_close(2, 2.0) and not plain_close(True, 1)
    assert not plain_close([1, 2], (1, 2))
    same = {"ret": _summary(1.5), "after": [_summary(["L", 1])]}
    assert same_outcome(same, {"ret": _summary(1.5), "after": [_summary(["L", 1])]})
    assert not same_outcome(same, {"ret": _summary(1.5), "after": [_summary(["L", 2])]})
    assert same_outcome({"raise": "TypeError"}, {"raise": "AttributeError"})
    assert not same_outcome({"raise": "ValueError"}, {"raise": "KeyError"})
    obj = {"k": "obj", "t": "S", "items": [_summary(1), _summary(2)], "unordered": True,
           "vars": {"a": _summary(1), "only_here": _summary(2)}}  # fmt: skip
    other = {**obj, "items": [_summary(2), _summary(1)], "vars": {"a": _summary(1)}}
    assert same_outcome({"ret": obj}, {"ret": other})  # any order; common attributes only
    assert not same_outcome({"ret": obj}, {"ret": {**other, "vars": {"a": _summary(3)}}})


def _case(kind: str, ref: dict[str, object], cand: object = "same", ref2: object = "same") -> Case:
    event = {"target": "a.py::f", "kind": kind, "input": "f(1)", "ref": ref, "ref2": ref2,
             "cand": cand, "ref_cpu": 0.0, "cand_cpu": 0.0}  # fmt: skip
    case = Case.from_event(event)
    assert case is not None
    return case


def test_inputs_the_reference_cannot_take_are_dropped() -> None:
    ret = {"ret": _summary(1)}
    assert judge_case(_case("recorded", ret)) == "same"
    assert judge_case(_case("recorded", ret, cand={"raise": "ValueError"})) == "differs"
    assert judge_case(_case("recorded", ret, ref2={"ret": _summary(2)})) == (
        "dropped:nondeterministic"
    )
    assert judge_case(_case("boundary", {"raise": "TypeError"}, cand=ret)) == "dropped:crash"
    assert judge_case(_case("recorded", {"raise": "TypeError"}, cand=ret)) == "differs"
    assert judge_case(_case("none", {"timeout": "cpu"}, cand=ret)) == "dropped:slow"
    assert Case.from_event({"target": 1}) is None


def _probe_inputs():  # the sandbox-side module, loaded here on our own values only
    import importlib.util

    from truepass.families.repair import differential
    from truepass.pycode import inputs, invariants, values
    from truepass.sandbox.guest import plainvalues

    harness = differential.probe_harness_dir()
    spec = importlib.util.spec_from_file_location(
        "_truepass_probe_inputs", harness / "_truepass_probe_inputs.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(harness))  # its sibling modules, as in the sandbox
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(harness))
    lib = {"inputs": inputs, "invariants": invariants, "values": values, "pv": plainvalues}
    return module, lib


def _generated(calls: list, skip: int) -> list:
    import copy

    module, lib = _probe_inputs()
    return module.generate(
        calls, skip, [], lib, lambda a, k: repr((a, sorted(k.items()))), set(),
        seed=0, name="f", cap=150, copier=copy.deepcopy,
    )  # fmt: skip


def test_value_objects_get_edges_of_their_own_kind() -> None:
    import dataclasses
    import datetime as dt
    from decimal import Decimal

    @dataclasses.dataclass(frozen=True)
    class Period:
        start: dt.date
        end: dt.date

        def __post_init__(self) -> None:
            if self.end < self.start:
                raise ValueError("end before start")

    period = Period(dt.date(2024, 1, 10), dt.date(2024, 1, 20))
    made = _generated([((period, dt.date(2024, 1, 15)), {})], skip=1)
    values = [args for kind, args, _ in made if kind == "value"]
    assert (period, dt.date(2024, 1, 20)) in values  # the receiver's end date, as the day
    assert (period, dt.date(2024, 1, 16)) in values and (period, dt.date(2024, 1, 31)) in values
    changed = {args[0] for args in values if args[0] != period}
    assert Period(dt.date(2024, 1, 10), dt.date(2024, 1, 10)) in changed  # end = start
    assert all(p.start <= p.end for p in changed)  # the class's own check refused the rest

    amounts = {args[0] for kind, args, _ in _generated([((Decimal("0.12"),), {})], 0)}
    assert {Decimal("0.125"), Decimal("0.13"), Decimal("0.11"), Decimal("-0.12")} <= amounts
