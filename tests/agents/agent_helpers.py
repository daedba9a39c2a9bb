"""Shared by the agent tests: a one-line `mini` defect, scripted agents on the fake OpenAI server
(text replies, and tool calls), and running them through the real runner, sandbox and judge."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fake_openai import FakeOpenAI, Step, fake_model_options, ok

from truepass.agentic.trajectory import Trajectory
from truepass.answers import Answer
from truepass.families.repair.family import RepairFamily
from truepass.families.repair.schema import RepairSample
from truepass.judged import JudgeConfig, SampleCheck
from truepass.runner import RunResult, run
from truepass.sandbox import Limits
from truepass.solvers import SolverOptions, make_solvers
from truepass.solvers.base import SolveContext
from truepass.suites.loader import load_suite
from truepass.suites.suite import Suite

SAMPLE_ID = "mini-044-clamp"
"""Its fix is one line: ``return lo`` -> ``return hi`` at line 13 of clamping.py."""
CODE, TEST = "clamping.py", "test_clamping.py"
HIDDEN = "test_clamping_hidden.py"
FIX_COMMAND = "sed -i '13s/return lo/return hi/' clamping.py"
CONFIG = JudgeConfig(limits=Limits(timeout_s=30), reruns=0)
MODEL = "openai:fake"


def sample() -> RepairSample:
    """The bundled sample the scripts fix (checked: its fix is the one line the script makes)."""
    found = next(s for s in load_suite("mini").samples if s.id == SAMPLE_ID)
    assert isinstance(found, RepairSample)
    removed = [ln for ln in found.fix.splitlines() if ln.startswith("-") and ln[1:3] != "--"]
    added = [ln for ln in found.fix.splitlines() if ln.startswith("+") and ln[1:3] != "++"]
    assert (removed, added) == (["-        return lo"], ["+        return hi"])
    assert found.files[CODE].splitlines()[12] == "        return lo"
    return found


def suite_of(tmp_path: Path) -> Suite:
    """A suite of the one sample, written out as a suite file."""
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(sample().model_dump(mode="json", exclude_defaults=True)) + "\n")
    return load_suite(str(path))


def bash(command: str, thought: str = "Next.") -> Step:
    """A text-protocol reply running ``command``."""
    return ok(f"{thought}\n\n```bash\n{command}\n```")


FIXING_SCRIPT = [
    bash(f"cat -n {CODE}", "Let me read the code."),
    bash(FIX_COMMAND, "Line 13 returns lo where x is above hi."),
    bash("run_tests"),
    bash("submit", "The tests pass."),
]


@dataclass
class ToolStep(Step):
    """A reply with tool calls: (name, arguments as a dict or raw text)."""

    calls: list[tuple[str, Any]] = field(default_factory=list)


def tool(*calls: tuple[str, Any], text: str = "") -> ToolStep:
    return ToolStep("ok", text=text, calls=list(calls))


def options(tmp_path: Path, **kw: Any) -> SolverOptions:
    """Solver options of the fake model with a private cache and fast retries."""
    return fake_model_options(tmp_path, MODEL, **kw)


def run_agent(
    tmp_path: Path,
    server: FakeOpenAI,
    script: list[Step],
    out: str = "run",
    config: JudgeConfig = CONFIG,
    **kw: Any,
) -> tuple[dict[str, Any], RunResult]:
    """Run ``agent:openai:fake`` on the sample through the runner; its one record and the run."""
    server.script = list(script)
    solvers = make_solvers([f"agent:{MODEL}"], options=options(tmp_path, **kw))
    result = run(suite_of(tmp_path), solvers, tmp_path / out, config=config)
    lines = (tmp_path / out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1
    return json.loads(lines[0]), result


def solve(tmp_path: Path, server: FakeOpenAI, script: list[Step], **kw: Any) -> Answer:
    """One attempt of the agent solver, not judged."""
    server.script = list(script)
    (solver,) = make_solvers([f"agent:{MODEL}"], options=options(tmp_path, **kw))
    s = sample()
    ctx = SolveContext(RepairFamily(), CONFIG, SampleCheck(sample_id=s.id, valid=True))
    answer = solver.solve(s, 0, ctx)
    assert answer is not None
    return answer


def trajectory(meta: dict[str, object]) -> Trajectory:
    """The typed trajectory an attempt's solver_meta holds."""
    return Trajectory.model_validate(meta["agent"])
