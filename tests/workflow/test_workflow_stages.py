"""The workflow's stages one by one: localisation with stack traces, static findings near the
suspects, fuzzed inputs from the visible tests (run in the sandbox), agreement, the options."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner
from workflow_helpers import CONFIG, fix_line, sample

from truepass.cli.model_options import model_options
from truepass.families.repair.checks import RepairCheck
from truepass.families.repair.family import RepairFamily
from truepass.families.repair.parse import parse_response
from truepass.families.repair.solvers.sbfl import SuspiciousLine
from truepass.families.repair.workflow import fuzz, localise, select, static
from truepass.families.repair.workflow.meta import Candidate, Suspect
from truepass.families.repair.workflow.options import WorkflowOptions
from truepass.sandbox import Limits
from truepass.solvers import SolverOptions

REPORT = """def test_it():
>       assert total([1, 2]) == 3

test_x.py:4:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

    def total(xs):
>       return add(xs)

calc.py:9: in total
    return add(xs)

calc.py:3: TypeError
"""
CALC = "def add(xs):\n    s = 0\n    return s + xs\n\n\n\n\n\ndef total(xs):\n    return add(xs)\n"


def test_stack_trace_frames_in_the_code_raise_their_lines() -> None:
    frames = localise.trace_frames([REPORT], {"calc.py": CALC})
    assert [(f.file, f.line, f.what) for f in frames] == [
        ("calc.py", 9, "in total"),
        ("calc.py", 3, "TypeError"),
    ]  # fmt: skip  (the test file's frame is not code)
    sbfl = [SuspiciousLine("calc.py", 2, 1.0), SuspiciousLine("calc.py", 3, 0.7)]
    ranked = localise.rank(sbfl, frames, {"calc.py": CALC})
    assert [(s.line, s.score, s.in_trace) for s in ranked] == [
        (3, 1.2, True),  # the innermost frame: +0.5
        (2, 1.0, False),
        (9, 0.25, True),  # an outer frame SBFL did not rank: +0.25
    ]
    assert ranked[0].function == "add" and ranked[0].code == "return s + xs"


def test_a_crash_is_localised_to_its_line_in_the_sandbox() -> None:
    s = sample("mini-037-ratio")  # ZeroDivisionError at rates.py line 8, the fault line
    check = RepairFamily().check(s, CONFIG)
    assert isinstance(check, RepairCheck) and check.valid
    stage = localise.localise(s, check.visible_ids, CONFIG.limits)
    assert ("rates.py", 8, "ZeroDivisionError") in [
        (f.file, f.line, f.what) for f in stage.record.frames
    ]
    top = stage.record.suspects[0]
    assert (top.file, top.line, top.in_trace) == ("rates.py", 8, True)
    assert top.score == round(top.sbfl + localise.INNERMOST_BOOST, 6) and top.sbfl > 0
    assert stage.record.exceptions == ["ZeroDivisionError"]
    hits = localise.guess_hits(s, stage.ranking)
    assert hits.fault_rank == 1 and hits.top1 is not None and hits.top1.hit_line


def test_the_guess_is_scored_against_the_fault_lines() -> None:
    s = sample()  # fault: clamping.py line 13, in clamp
    wrong = [Suspect(file="clamping.py", line=19, score=1, sbfl=1, in_trace=False)]
    right = Suspect(file="clamping.py", line=13, score=0.5, sbfl=0.5, in_trace=False)
    hits = localise.guess_hits(s, [*wrong, right])
    assert hits.top1 is not None and hits.top5 is not None
    assert (hits.top1.hit_file, hits.top1.hit_function, hits.top1.hit_line) == (True, False, False)
    assert hits.top5.hit_line and hits.fault_rank == 2
    assert localise.guess_hits(s, wrong).fault_rank is None


def test_static_findings_are_kept_near_the_suspects() -> None:
    code = {
        "m.py": "import os\n\n\ndef area(w, h):\n    return w * w\n\n\nLIMIT = 3\nSIZE = 4\n\n\n"
        "def other(a, b):\n    return a\n",
    }
    found = static.ruff_findings("m.py", code["m.py"])
    assert found is not None
    assert {(f.rule, f.line) for f in found} == {("F401", 1), ("ARG001", 4), ("ARG001", 12)}
    suspect = Suspect(file="m.py", line=5, score=1, sbfl=1, in_trace=False, function="area")
    stage = static.analyse(code, [suspect])
    assert stage.tools == ["ruff"] and stage.all_findings == 3
    # h is never read; the import and the other function are far from line 5
    assert [(f.rule, f.line) for f in stage.findings] == [("ARG001", 4)]
    assert "`h`" in stage.findings[0].message


def test_seed_inputs_are_the_literal_calls_of_the_visible_tests() -> None:
    code = {"pkg/m.py": "def f(x, y):\n    return x\n\n\ndef g(s):\n    return s\n"}
    tests = {
        "test_m.py": "from pkg.m import f as eff\nimport pkg.m as mm\n\n"
        "def test_a():\n    assert eff(1, [2, 3]) == 1\n    assert eff(1, [2, 3]) == 1\n"
        "    assert mm.g('x') == 'x'\n    assert eff(x=1, y=2) == 1\n"
        "    assert mm.g(object()) is not None\n",
    }
    seeds = fuzz.seed_inputs(code, tests)
    f, g = fuzz.Target("pkg/m.py", "f"), fuzz.Target("pkg/m.py", "g")
    assert seeds == {f: [[1, [2, 3]]], g: [["x"]]}  # keywords and non-literals skipped
    assert (f.module, f.key) == ("pkg.m", "pkg.m.f")
    assert fuzz.choose_targets(seeds, {"pkg/m.py": {"g"}}) == [g]
    assert fuzz.choose_targets(seeds, {"pkg/m.py": {"h"}}) == [f, g]  # no changed one seeded
    inputs = fuzz.fuzz_inputs([f], seeds, 8, seed=0, key="s")
    assert 0 < len(inputs[f]) <= 8 and "1, [2, 3]" not in inputs[f]


def test_fuzzed_calls_run_in_the_sandbox() -> None:
    files = {"m.py": "def f(x):\n    while x == 7:\n        pass\n    return 10 // x\n"}
    target = fuzz.Target("m.py", "f")
    got = fuzz.run_inputs(files, {target: ["2", "0", "7", "'a'"]}, Limits(timeout_s=30))
    assert got == {"m.f": ["=5", "!ZeroDivisionError", "!TimeoutError", "!TypeError"]}
    broken = fuzz.run_inputs({"m.py": "raise ImportError\n"}, {target: ["1"]}, CONFIG.limits)
    assert broken == {"m.f": ["!import:ImportError"]}


def test_agreement_weighs_each_candidate_by_its_votes() -> None:
    outcomes = {
        "c1": {"m.f": ["=1", "=2"]},
        "c2": {"m.f": ["=1", "=3"]},
        "c3": {"m.f": ["=1"]},  # its run stopped after one call: the second agrees with nobody
    }
    scores = fuzz.agreement(outcomes, {"c1": 2, "c2": 1, "c3": 1}, {"m.f": 2})
    # 4 votes: c1 agrees with c2, c3 and its twin on call 1, with its twin on call 2
    assert scores == {"c1": round((3 / 3 + 1 / 3) / 2, 4), "c2": 0.5, "c3": 0.5}
    assert fuzz.agreement(outcomes, {"c1": 1}, {"m.f": 2}) == {"c1": None}
    assert fuzz.agreement(outcomes, {"c1": 1, "c2": 1}, {}) == {"c1": None, "c2": None}


def test_the_workflow_options_name_the_solver_and_come_from_the_command_line() -> None:
    assert WorkflowOptions().suffix(0.0) == "#c5"
    custom = WorkflowOptions(workflow_candidates=3, workflow_temperature=0.5, workflow_fuzz=0)
    assert custom.suffix(0.2) == "#c3-t0.5-f0@t0.2"
    seen: list[WorkflowOptions] = []
    probe = typer.Typer()

    @probe.command()
    @model_options
    def go(name: str = "x", *, options: SolverOptions) -> None:
        own = options.kinds["workflow"]
        assert isinstance(own, WorkflowOptions)
        seen.append(own)

    got = CliRunner().invoke(probe, [
        "--workflow-candidates", "3", "--workflow-temperature", "0.5", "--workflow-fuzz", "0",
    ])  # fmt: skip
    assert got.exit_code == 0, got.output
    assert (seen[0].workflow_candidates, seen[0].workflow_temperature) == (3, 0.5)
    assert seen[0].workflow_fuzz == 0
    bad = CliRunner().invoke(probe, ["--workflow-candidates", "0"])
    assert bad.exit_code == 2


def _candidate(cid: str, **kw: object) -> Candidate:
    fields: dict[str, object] = {
        "seed": 0, "parse_kind": "diff", "parse_detail": "", "diff": f"diff {cid}",
        "applies": True, "compiles": True, "visible": True, "diff_lines": 2,
    }  # fmt: skip
    return Candidate.model_validate({"id": cid, **fields, **kw})


@pytest.mark.parametrize(
    ("records", "selected", "reason"),
    [
        ([_candidate("c1", flags=["special-cases-input"]), _candidate("c2")], "c2", "unflagged"),
        ([_candidate("c1", agreement=0.5), _candidate("c2", agreement=0.9)], "c2", "agreement"),
        ([_candidate("c1"), _candidate("c2", votes=2)], "c2", "votes"),
        ([_candidate("c1", diff_lines=6), _candidate("c2")], "c2", "smallest-diff"),
        ([_candidate("c1"), _candidate("c2")], "c1", "first"),
        ([_candidate("c1", visible=False), _candidate("c2")], "c2", "only-passing"),
        (
            [_candidate("c1", compiles=False, visible=None), _candidate("c2", visible=False)],
            "c2",
            "none-passing",
        ),
        ([_candidate("c1", compiles=False, visible=None)], "c1", "none-compiling"),
        ([_candidate("c1", diff=None, visible=None)], None, "nothing-parsed"),
    ],
)
def test_selection_says_what_decided_it(
    records: list[Candidate], selected: str | None, reason: str
) -> None:
    choice = select.select(select.Pool(records, {}))
    assert (choice.selected, choice.reason.value) == (selected, reason)
    assert choice.detail


def test_the_prefilter_counts_duplicates_and_never_runs_a_test_edit() -> None:
    s = sample()
    files = {**s.files, **s.tests.visible}
    fix = parse_response(fix_line("return hi"), files)
    edits_tests = parse_response(
        "```diff\n--- a/test_clamping.py\n+++ b/test_clamping.py\n@@ -12,2 +12,2 @@\n"
        " def test_above():\n-    assert clamp(15, 0, 10) == 10\n+    assert True\n```\n",
        files,
    )
    assert fix.answer is not None and edits_tests.answer is not None
    visible = [f"test_clamping.py::test_{name}" for name in ("inside", "below", "above")]
    parsed = [(0, fix), (1, fix), (2, edits_tests)]
    pool = select.prefilter(s, parsed, visible, None, CONFIG.limits)
    one, twin, tests = pool.records
    assert (one.votes, one.visible) == (2, True)
    assert (twin.duplicate_of, twin.visible) == ("c1", None)
    assert tests.test_edits == ["test_clamping.py"] and tests.visible is None
    assert "edits the tests" in tests.error
    assert select.select(pool).selected == "c1" and select.passing(pool) == [one]
