"""``agent:MODEL`` on a rebuild task, end to end: a scripted agent on the fake model server runs
the execute-only gold, cannot read it, writes a genuine ``rev`` in Python with a compile.sh, and
is judged by the real runner, sandbox and judge."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI, Step, fake_model_options, ok
from rebuild_tasks import PYTHON_COMPILE, PYTHON_REV, needs_rev, rev_task

from truepass.agentic.trajectory import Trajectory
from truepass.families import registry
from truepass.judged import JudgeConfig
from truepass.runner import run
from truepass.sandbox import Limits
from truepass.solvers import make_solvers
from truepass.suites.loader import load_suite

MODEL = "openai:fake"


def bash(command: str, thought: str = "Next.") -> Step:
    return ok(f"{thought}\n\n```bash\n{command}\n```")


REBUILDING_SCRIPT = [
    bash("head -5 DOCS.txt; ls -l /opt/gold/rev", "Let me read the docs."),
    bash("printf 'abc\\nxy' | /opt/gold/rev; echo; cat /opt/gold/rev > copy", "Try it."),
    bash(f"cat > rev.py <<'EOF'\n{PYTHON_REV}EOF\ncat > compile.sh <<'EOF'\n{PYTHON_COMPILE}EOF"),
    bash("sh compile.sh && printf 'abc\\nxy' | ./rev", "Build and try."),
    bash("submit", "Done."),
]


def test_a_scripted_agent_rebuilds_rev_and_passes(tmp_path: Path, server: FakeOpenAI) -> None:
    needs_rev()
    task = rev_task()
    suite_file = tmp_path / "rev.jsonl"
    suite_file.write_text(json.dumps(task.model_dump(mode="json")) + "\n", encoding="utf-8")
    server.script = list(REBUILDING_SCRIPT)
    solvers = make_solvers([f"agent:{MODEL}"], options=fake_model_options(tmp_path, MODEL))
    config = JudgeConfig(limits=Limits(timeout_s=60), reruns=0)
    run(load_suite(str(suite_file)), solvers, tmp_path / "run", config=config)
    lines = (tmp_path / "run" / "results.jsonl").read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[0])
    assert rec["verdict"] == "correct", rec["details"] + rec["test_output"]
    assert rec["flags"] == [] and rec["scores"]["pass_rate"] == 1.0
    assert rec["submission"]["language"] == "Python"

    steps = Trajectory.model_validate(rec["solver_meta"]["agent"]).steps
    docs, tried, _, built, _ = steps
    assert "REV(1)" in docs.observation or "Usage" in docs.observation
    assert "---x--x--x" in docs.observation  # execute-only
    assert "cba\nyx" in tried.observation  # it runs
    assert "Permission denied" in tried.observation  # and cannot be read
    assert built.exit_code == 0 and "cba\nyx" in built.observation
    first = server.requests[0].body["messages"][1]["content"]
    assert "/opt/gold/rev" in first and "compile.sh" in first


def test_near_its_step_limit_the_agent_is_told_to_build_now(
    tmp_path: Path, server: FakeOpenAI
) -> None:
    needs_rev()
    suite_file = tmp_path / "rev.jsonl"
    suite_file.write_text(json.dumps(rev_task().model_dump(mode="json")) + "\n", encoding="utf-8")
    server.script = [bash("ls"), bash("ls"), bash("ls"), bash("ls")]
    options = fake_model_options(tmp_path, MODEL, agent_steps=4)
    config = JudgeConfig(limits=Limits(timeout_s=60), reruns=0)
    run(load_suite(str(suite_file)), make_solvers([f"agent:{MODEL}"], options=options),
        tmp_path / "run", config=config)  # fmt: skip
    rec = json.loads((tmp_path / "run" / "results.jsonl").read_text(encoding="utf-8"))
    steps = Trajectory.model_validate(rec["solver_meta"]["agent"]).steps
    warned = [
        s.step for s in steps if "Make sure `sh compile.sh` builds ./rev now" in s.observation
    ]
    assert warned == [1, 2, 3]  # 3, 2 and 1 steps left
    assert rec["solver_meta"]["end_reason"] == "step-limit"
    # the workspace holds only DOCS.txt, which is not part of a submission: nothing submitted
    assert rec["verdict"] == "no-patch" and rec["scores"]["pass_rate"] == 0.0


@pytest.mark.parametrize(("forced", "passes"), [("python", True), ("c", False)])
def test_forced_language_judges_a_scripted_agents_python_rebuild_of_a_c_gold(
    tmp_path: Path, server: FakeOpenAI, forced: str, passes: bool
) -> None:
    """rev's gold is C; the agent writes Python. Forcing Python accepts it, forcing the gold's
    own language refuses it (``wrong-language``, score 0)."""
    needs_rev()
    suite_file = tmp_path / "rev.jsonl"
    suite_file.write_text(json.dumps(rev_task().model_dump(mode="json")) + "\n", encoding="utf-8")
    suite = load_suite(str(suite_file))
    suite = registry.get(suite.family).transforms()[f"language-{forced}"](suite)
    server.script = list(REBUILDING_SCRIPT)
    solvers = make_solvers([f"agent:{MODEL}"], options=fake_model_options(tmp_path, MODEL))
    config = JudgeConfig(limits=Limits(timeout_s=60), reruns=0)
    run(suite, solvers, tmp_path / "run", config=config)
    rec = json.loads((tmp_path / "run" / "results.jsonl").read_text(encoding="utf-8"))
    assert rec["submission"]["language"] == "Python" and rec["gold_language"] == "c"
    first = server.requests[0].body["messages"][1]["content"]
    assert f"in {'Python' if passes else 'C'} (a submission mainly in another" in first
    if passes:
        assert rec["flags"] == [] and rec["scores"]["pass_rate"] == 1.0, rec["details"]
        # the benchmark's scores, in the summary and the report's metrics table
        (solver,) = json.loads((tmp_path / "run" / "summary.json").read_text())["solvers"]
        metrics = solver["metrics"]
        assert metrics["resolved"] == metrics["almost"] == metrics["resolved_easy"] == 1.0
        assert metrics["same_language"] == 0.0 and metrics["structure_n"] == 1.0
        report = (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
        for name in ("resolved", "almost", "resolved_easy", "same_language", "structure_n"):
            assert f">{name}<" in report, name
    else:
        assert rec["flags"] == ["wrong-language"] and rec["scores"]["pass_rate"] == 0.0
        assert "requires C" in rec["details"]
