"""``workflow:MODEL`` on a repair sample, end to end: a real HTTP server replaying scripted
candidates, the real sandbox, runner, judge (with its candidate hook), store and response cache."""

from __future__ import annotations

import json
from pathlib import Path

from fake_openai import FakeOpenAI, ok
from workflow_helpers import (
    CODE,
    CONFIG,
    EXPLANATION,
    FAULT_LINE,
    HIDDEN,
    fix_line,
    options,
    prompts_sent,
    run_workflow,
    sample,
    suite_of,
)

from truepass.families.codegen.family import CodegenFamily
from truepass.families.repair.family import RepairFamily
from truepass.families.repair.workflow.meta import SelectionReason, read_workflow
from truepass.runner import run
from truepass.solvers import make_solvers
from truepass.solvers.base import refusal

BROKEN = fix_line("return hi)")  # a syntax error
FAILS_VISIBLE = fix_line("return x")  # clamp(15, 0, 10) == 15
CORRECT = fix_line("return hi")


def test_the_workflow_prefilters_and_selects_the_correct_candidate(
    tmp_path: Path, server: FakeOpenAI
) -> None:
    script = [ok(BROKEN), ok(FAILS_VISIBLE), ok(CORRECT), ok(EXPLANATION)]
    rec, result = run_workflow(tmp_path, server, script, workflow_candidates=3)
    assert rec["solver"] == "workflow:openai:fake#c3"
    assert rec["verdict"] == "correct" and rec["flags"] == []
    assert "+        return hi" in rec["patch"] and rec["patch_id"] == "workflow:c3"
    assert rec["usage"]["calls"] == 4 and rec["parse"] == "diff"

    flow, candidates = read_workflow(rec["solver_meta"])
    assert [c.id for c in candidates] == ["c1", "c2", "c3"]
    broken, failing, correct = candidates
    assert (broken.applies, broken.compiles, broken.visible) == (True, False, None)
    assert "line 13" in broken.error
    assert (failing.compiles, failing.visible) == (True, False)
    assert (correct.compiles, correct.visible) == (True, True)
    c = flow.counts
    assert (c.generated, c.parsed, c.distinct, c.compiled, c.passing_visible) == (3, 3, 3, 2, 1)
    assert flow.selection.selected == "c3"
    assert flow.selection.reason is SelectionReason.ONLY_PASSING
    assert flow.fuzz.skipped  # one passing candidate: nothing to compare

    # stage 1: the fault line is the top suspect (Ochiai 1: only the failing test runs it)
    top = flow.localisation.suspects[0]
    assert (top.file, top.line, top.code) == (CODE, FAULT_LINE, "return lo")
    assert flow.stage1.fault_rank == 1
    assert flow.stage1.top1 is not None and flow.stage1.top1.hit_line
    assert flow.static.tools == ["ruff"]
    assert set(flow.seconds) == {"localise", "static", "candidates", "select", "explain"}

    # stage 5: the explanation is scored by the root-cause metric
    assert flow.explanation == EXPLANATION
    assert rec["named_cause"]["hit_line"] and rec["named_cause"]["hit_function"]
    assert rec["solver_meta"]["rounds"][-1]["stage"] == "explanation"
    assert rec["solver_meta"]["root_cause"] == EXPLANATION
    assert rec["solver_meta"]["variant"] == "workflow"

    # the judge judged every candidate: a correct one existed and selection took it
    assert rec["scores"] == {
        "candidates_judged": 3.0,
        "candidates_correct": 1.0,
        "candidates_correct_exists": 1.0,
        "candidates_selection_right": 1.0,
        "similarity": 1.0,  # the selected candidate is the reference fix
        "exact_match": 1.0,
        "same_strategy": 1.0,
        "style_consistency": 1.0,
        "readability": 1.0,
    }
    assert "c1 broken, c2 fails-visible, c3 correct (the answer)" in rec["details"]
    metrics = result.summary.solvers[0].metrics
    assert metrics["candidates_selection_accuracy"] == 1.0
    assert metrics["candidates_correct_exists"] == 1.0

    # each candidate sampled at the workflow's temperature with its own seed; the explanation
    # at the run's temperature (0)
    bodies = [seen.body for seen in server.requests]
    assert [b["temperature"] for b in bodies] == [0.8, 0.8, 0.8, 0.0]
    assert len({b["seed"] for b in bodies[:3]}) == 3

    # a rerun replays every call from the response cache and selects the same candidate
    again, _ = run_workflow(tmp_path, server, [], out="again", workflow_candidates=3)
    assert len(server.requests) == 4
    assert again["verdict"] == "correct" and again["usage"]["cached_calls"] == 4


def test_the_hidden_tests_never_reach_a_prompt(tmp_path: Path, server: FakeOpenAI) -> None:
    s = sample()
    script = [ok(BROKEN), ok(FAILS_VISIBLE), ok(CORRECT), ok(EXPLANATION)]
    rec, _ = run_workflow(tmp_path, server, script, workflow_candidates=3)
    assert rec["verdict"] == "correct"
    sent = prompts_sent(server)
    assert len(sent) == 4
    key = RepairFamily().answer_key(s)
    hidden_names = [n for n, where in key.names.items() if where == "hidden test name"]
    assert "test_above_with_negative_range" in hidden_names
    hidden_lines = [ln.strip() for ln in s.tests.hidden[HIDDEN].splitlines() if len(ln) > 12]
    for messages in sent:
        text = "\n".join(m["content"] for m in messages)
        assert HIDDEN not in text
        assert not [n for n in hidden_names if n in text]
        assert not [ln for ln in hidden_lines if ln in text]
        # the candidate prompts, and the explanation's before the model's own patch
        own = next((i for i, m in enumerate(messages) if m["role"] == "assistant"), None)
        shown = messages[:own] if own is not None else messages
        assert key.found_in("\n".join(m["content"] for m in shown)) == []
    # what the prompt does show: the code, the failing test, the localisation, the static stage
    first = sent[0][-1]["content"]
    assert "def clamp" in first and "test_above" in first
    assert "`clamping.py` line 13 in `clamp` (score 1.00): `return lo`" in first
    assert "Static analysis (ruff)" in first


def test_agreement_on_fuzzed_inputs_decides_between_passing_candidates(
    tmp_path: Path, server: FakeOpenAI
) -> None:
    # three candidates pass the visible tests; the first is wrong above 15 (clamp(7, -5, -1)
    # would be 2), the other two are the same behaviour written differently
    overfit, plain, with_min = fix_line("return x - 5"), CORRECT, fix_line("return min(x, hi)")
    script = [ok(overfit), ok(plain), ok(with_min), ok(EXPLANATION)]
    rec, result = run_workflow(tmp_path, server, script, workflow_candidates=3)
    flow, candidates = read_workflow(rec["solver_meta"])
    assert [c.visible for c in candidates] == [True, True, True]
    assert flow.fuzz.targets == ["clamping.clamp"] and flow.fuzz.inputs > 0
    first, second, third = (c.agreement for c in candidates)
    assert first is not None and second is not None and second == third > first
    assert flow.selection.selected == "c2"
    assert flow.selection.reason is SelectionReason.AGREEMENT
    assert flow.selection.ranking == ["c2", "c3", "c1"]
    assert rec["verdict"] == "correct"
    assert rec["scores"]["candidates_correct"] == 2.0
    assert rec["scores"]["candidates_selection_right"] == 1.0

    # without fuzzing the tie goes to the first asked for: the overfit one; the judge still
    # knows that a correct candidate was there and that selection missed it
    server.script = [ok(EXPLANATION)]  # the candidates come from the response cache
    own = options(tmp_path, workflow_candidates=3, workflow_fuzz=0)
    solvers = make_solvers(["workflow:openai:fake"], options=own)
    assert solvers[0].name == "workflow:openai:fake#c3-f0"
    plain_run = run(suite_of(tmp_path), solvers, tmp_path / "nofuzz", config=CONFIG)
    assert len(server.requests) == 5  # only the explanation of the other choice was asked
    rec2 = json.loads((tmp_path / "nofuzz" / "results.jsonl").read_text().splitlines()[0])
    flow2, _ = read_workflow(rec2["solver_meta"])
    assert flow2.fuzz.skipped.startswith("fuzzing is off")
    assert flow2.selection.selected == "c1" and flow2.selection.reason is SelectionReason.FIRST
    assert rec2["verdict"] == "overfit"
    assert rec2["scores"]["candidates_correct_exists"] == 1.0
    assert rec2["scores"]["candidates_selection_right"] == 0.0
    assert plain_run.summary.solvers[0].metrics["candidates_selection_accuracy"] == 0.0
    assert result.summary.solvers[0].metrics["candidates_selection_accuracy"] == 1.0


def test_nothing_parsed_is_no_patch_without_an_explanation(
    tmp_path: Path, server: FakeOpenAI
) -> None:
    script = [ok("I cannot tell what is wrong."), ok("Sorry, no idea.")]
    rec, _ = run_workflow(tmp_path, server, script, workflow_candidates=2)
    assert rec["verdict"] == "no-patch" and rec["parse"] == "none"
    assert len(server.requests) == 2  # no explanation of a fix that does not exist
    flow, candidates = read_workflow(rec["solver_meta"])
    assert flow.selection.reason is SelectionReason.NOTHING and flow.explanation is None
    assert [c.diff for c in candidates] == [None, None]
    candidates = {k: v for k, v in rec["scores"].items() if k.startswith("candidates_")}
    assert candidates == {
        "candidates_judged": 0.0, "candidates_correct": 0.0, "candidates_correct_exists": 0.0,
    }  # fmt: skip
    assert rec["scores"]["exact_match"] == 0.0  # no patch: the buggy code is scored


def test_the_workflow_serves_repair_only(tmp_path: Path) -> None:
    (solver,) = make_solvers(["workflow:openai:fake"], options=options(tmp_path))
    assert refusal(solver, RepairFamily()) is None
    why = refusal(solver, CodegenFamily())
    assert why is not None and "only repair" in why and "codegen" in why


def test_a_java_sample_gets_no_patch_with_the_reason(tmp_path: Path) -> None:
    from truepass.families.repair.checks import RepairCheck
    from truepass.families.repair.workflow.solver import PYTHON_ONLY
    from truepass.judged import JudgeConfig
    from truepass.solvers.base import SolveContext
    from truepass.suites.loader import load_suite

    (solver,) = make_solvers(["workflow:openai:fake"], options=options(tmp_path))
    java = load_suite("mini-java").samples[0]
    check = RepairCheck(sample_id=java.id, valid=True, visible_ids=["x.java::t"])
    answer = solver.solve(java, 0, SolveContext(RepairFamily(), JudgeConfig(), check))
    assert answer is not None and answer.no_patch
    assert answer.meta["parse_detail"] == PYTHON_ONLY
