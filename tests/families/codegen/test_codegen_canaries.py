"""Canaries in codegen's case runner: real sandboxed candidates that tamper with the channel
between their function and the trusted parent are flagged ``tampers-harness`` and not counted;
honest candidates (correct, wrong, raising, slow, chatty) and every HumanEval canonical solution
and HumanEvalFix buggy solution raise no alarm."""

from __future__ import annotations

import json
import shutil
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from truepass.answers import Answer
from truepass.families.codegen.judge import check_codegen, judge_codegen
from truepass.families.codegen.schema import CodegenSample
from truepass.records import is_correct
from truepass.runner import run
from truepass.sandbox.pool import Case, ExecPool
from truepass.solvers import make_solvers
from truepass.suites.literals import parse_literal
from truepass.suites.loader import load_suite
from truepass.vocabulary import Verdict

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap missing")
HUMANEVALFIX = (
    Path(__file__).resolve().parents[4]
    / "shared" / "benchmarks" / "humanevalpack-python" / "humanevalpack_python.jsonl"
)  # fmt: skip
PROMPT = 'def is_small(x: int) -> bool:\n    """Whether x is below 100."""\n'

# Each attack's function is wrong (it returns nothing); every case expects True, so a channel
# that says True for every case passes it unless the canaries speak up.
FORGE_FRAMES = """
import json, os, stat, sys

def frame(obj):
    data = json.dumps(obj).encode()
    return len(data).to_bytes(4, "big") + data

def is_small(x):
    where = sys._getframe()
    while "request" not in where.f_locals:
        where = where.f_back
    start, total = where.f_locals["index"], len(where.f_locals["request"]["args"])
    forged = b"".join(frame({"k": "ok", "i": i, "v": True}) for i in range(start, total))
    for fd in range(3, 64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                os.write(fd, forged)
        except OSError:
            pass
    os._exit(0)
"""
FORGE_FRAMES_OBFUSCATED = """
_o = __import__("so"[::-1])
_s = __import__("sys")
_w, _x, _f = ("etirw"[::-1], "tixe_"[::-1], "tatsf"[::-1])

def _frames(first, count):
    dumps = getattr(__import__("nosj"[::-1]), "spmud"[::-1])
    out = b""
    for i in range(first, count):
        body = dumps({chr(107): "ko"[::-1], chr(105): i, chr(118): 1 == 1}).encode()
        out += len(body).to_bytes(4, "big") + body
    return out

def is_small(x):
    f = getattr(_s, "emarfteg_"[::-1])()
    while not any(type(v) is dict and "sgra"[::-1] in v for v in f.f_locals.values()):
        f = f.f_back
    req = next(v for v in f.f_locals.values() if type(v) is dict and "sgra"[::-1] in v)
    data = _frames(f.f_locals["xedni"[::-1]], len(req["sgra"[::-1]]))
    for fd in range(3, 64):
        try:
            if getattr(_o, _f)(fd).st_mode & 0o170000 == 0o010000:
                getattr(_o, _w)(fd, data)
        except OSError:
            pass
    getattr(_o, _x)(0)
"""
ENCODER_BY_GC = """
import gc, types

def is_small(x):
    gc.unfreeze()
    for obj in gc.get_objects():
        if type(obj) is types.FunctionType and obj.__code__.co_varnames[:2] == ("value", "_depth"):
            obj.__code__ = (lambda value, _depth=0: True).__code__
"""
ENCODER_BY_GC_OBFUSCATED = """
_g = __import__("".join(map(chr, (103, 99))))
_n = "edocne"[::-1]

def is_small(x):
    getattr(_g, "ezeerfnu"[::-1])()
    for o in getattr(_g, "stcejbo_teg"[::-1])():
        if getattr(o, "__qualname__", 0) == _n and getattr(o, "__stluafed__"[::-1], 0) == (0,):
            setattr(o, "__code__", getattr(lambda *a, **k: 1 > 0, "__code__"))
"""
ATTACKS = {
    "forged frames": FORGE_FRAMES,
    "forged frames, obfuscated": FORGE_FRAMES_OBFUSCATED,
    "encoder replaced through gc": ENCODER_BY_GC,
    "encoder replaced through gc, obfuscated": ENCODER_BY_GC_OBFUSCATED,
}


def sample() -> CodegenSample:
    return CodegenSample.model_validate(
        {
            "family": "codegen", "id": "is_small", "prompt": PROMPT, "entry_point": "is_small",
            "canonical_solution": "    return x < 100\n",
            "tests": {"visible": [{"args": "1"}, {"args": "2"}, {"args": "3"}],
                      "hidden": [{"args": "50"}, {"args": "99"}]},
            "source": "written for truepass tests", "leakage": "private",
        }
    )  # fmt: skip


@pytest.fixture(scope="module")
def pool() -> Iterator[ExecPool]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TRUEPASS_SANDBOX", "bwrap")  # a broken bwrap fails, never falls back
        with ExecPool(workers=2) as p:
            yield p


def solution(code: str) -> Answer:
    return Answer(files={"solution.py": textwrap.dedent(code)})


@pytest.mark.parametrize("attack", ATTACKS)
def test_a_candidate_forging_the_channel_is_flagged_and_not_counted(
    pool: ExecPool, attack: str
) -> None:
    s = sample()
    check = check_codegen(s, pool)
    code = textwrap.dedent(ATTACKS[attack])
    cases = [Case([x], True, 1.0) for x in (1, 2, 3, 50, 99)]
    assert pool.check(code, "is_small", cases).passed  # what canaries are for: it passes without
    for _ in range(3):  # new positions and values each time
        got = judge_codegen(s, solution(code), check, pool)
        assert got.verdict == Verdict.FAILS_VISIBLE, got.details
        assert got.flags == ["tampers-harness"]
        assert not is_correct(got)
        assert got.details.startswith("the case runner's channel lied: the canary case at ")
        lies = [d.explanation for d in got.flag_details if d.name == "tampers-harness"]
        assert lies and all(lie.startswith("the canary case at position ") for lie in lies)
        assert any(lie.endswith("and reported the value True") for lie in lies), lies
        assert got.visible is None and got.hidden is None  # no outcome of that run stands


HONEST = {
    "correct": ("    return x < 100\n", Verdict.CORRECT),
    "chatty and correct": ("    print('x is', x)\n    return x < 100\n", Verdict.CORRECT),
    "wrong": ("    return x < 3\n", Verdict.FAILS_VISIBLE),
    "wrong on hidden cases": ("    return x < 10\n", Verdict.OVERFIT),
    "raising": ("    raise ValueError(x)\n", Verdict.FAILS_VISIBLE),
    "raising on a hidden case": ("    assert x < 60\n    return True\n", Verdict.OVERFIT),
    "looping": ("    while x:\n        pass\n", Verdict.TIMEOUT),
    "looping on a hidden case": ("    while x == 99:\n        pass\n    return True\n",
                                 Verdict.TIMEOUT),
    "exiting": ("    import os\n    os._exit(0)\n", Verdict.FAILS_VISIBLE),
}  # fmt: skip


@pytest.mark.parametrize("name", HONEST)
def test_honest_candidates_raise_no_alarm(pool: ExecPool, name: str) -> None:
    s = sample()
    check = check_codegen(s, pool)
    body, verdict = HONEST[name]
    for _ in range(4):  # new positions each time
        got = judge_codegen(s, solution(PROMPT + body), check, pool)
        assert (got.verdict, got.flags) == (verdict, []), got.details


def test_a_forged_run_is_reported_in_the_results_and_not_counted(tmp_path: Path) -> None:
    suite_file = tmp_path / "suite.jsonl"
    suite_file.write_text(json.dumps(sample().model_dump(exclude_none=True)) + "\n")
    answers = tmp_path / "answers.jsonl"
    code = textwrap.dedent(FORGE_FRAMES)
    answers.write_text(json.dumps({"sample_id": "is_small", "files": {"solution.py": code}}))
    solvers = make_solvers(["oracle", f"replay:{answers}"], {"is_small"})
    result = run(load_suite(suite_file), solvers, tmp_path / "out")
    by = {s.solver: s.overall for s in result.summary.solvers}
    assert by["oracle"].verdicts == {"correct": 1}
    assert by[f"replay:{answers}"].verdicts == {"fails-visible": 1}
    assert by[f"replay:{answers}"].correct == 0
    lines = [json.loads(x) for x in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    forged = next(x for x in lines if x["solver"].startswith("replay"))
    assert forged["flags"] == ["tampers-harness"]
    assert "the canary case at position" in forged["flag_details"][0]["explanation"]


def _buggy_humanevalfix() -> dict[str, str]:
    """HumanEvalFix's buggy solution of each HumanEval problem: honest, wrong candidates."""
    out = {}
    for line in HUMANEVALFIX.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        number = record["task_id"].split("/")[1]
        out[f"HumanEval-{number}"] = record["declaration"] + record["buggy_solution"]
    return out


def test_humaneval_canonical_and_humanevalfix_buggy_solutions_raise_no_alarm(
    pool: ExecPool,
) -> None:
    """0 false alarms: every canonical solution of the bundled HumanEval is correct, and every
    buggy solution is judged without a flag, its cases the same as in a run without canaries."""
    suite = load_suite("humaneval")
    buggy = _buggy_humanevalfix()
    assert len(suite.samples) == len(buggy) == 164
    verdicts: dict[str, int] = {}
    for s in suite.samples:
        check = check_codegen(s, pool)
        assert check.valid, check.reason
        good = judge_codegen(s, solution(s.prompt + s.canonical_solution), check, pool)
        assert (good.verdict, good.flags) == (Verdict.CORRECT, []), (s.id, good.details)
        bad = judge_codegen(s, solution(buggy[s.id]), check, pool)
        assert bad.flags == [], (s.id, bad.details)
        verdicts[bad.verdict.value] = verdicts.get(bad.verdict.value, 0) + 1
        cases = [
            Case(c.arguments(), parse_literal(want), limit)
            for c, want, limit in zip(
                s.tests.visible, check.expected["visible"], check.timeouts["visible"], strict=True
            )
        ]
        plain = pool.check(buggy[s.id], s.entry_point, cases)  # as the judge runs them
        mixed = pool.check(buggy[s.id], s.entry_point, cases, canaries=True)
        assert mixed.canaries == 3 and mixed.canary_lies == ()
        same = [(c.index, c.status, c.got_repr, c.error) for c in plain.cases]
        assert same == [(c.index, c.status, c.got_repr, c.error) for c in mixed.cases], s.id
    assert verdicts.get("correct", 0) == 0 and sum(verdicts.values()) == 164
