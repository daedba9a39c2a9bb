"""Shared by the workflow tests: a one-line `mini` defect (mini-044-clamp: ``return lo`` where
``return hi`` is meant, line 13 of clamping.py), scripted candidate answers on the fake OpenAI
server, and running ``workflow:openai:fake`` through the real runner, sandbox and judge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fake_openai import FakeOpenAI, Step, fake_model_options

from truepass.families.repair.schema import RepairSample
from truepass.judged import JudgeConfig
from truepass.runner import RunResult, run
from truepass.sandbox import Limits
from truepass.solvers import SolverOptions, make_solvers
from truepass.suites.loader import load_suite
from truepass.suites.suite import Suite

SAMPLE_ID = "mini-044-clamp"
CODE = "clamping.py"
HIDDEN = "test_clamping_hidden.py"
FAULT_LINE = 13
CONFIG = JudgeConfig(limits=Limits(timeout_s=30), reruns=0)
MODEL = "openai:fake"
EXPLANATION = (
    "Root cause: clamping.py | clamp | return lo\n"
    "The branch for values above the range returned the lower bound; returning hi clamps them."
)


def sample(sample_id: str = SAMPLE_ID) -> RepairSample:
    found = next(s for s in load_suite("mini").samples if s.id == sample_id)
    assert isinstance(found, RepairSample)
    return found


def suite_of(tmp_path: Path, sample_id: str = SAMPLE_ID) -> Suite:
    """A suite of the one sample, written out as a suite file."""
    path = tmp_path / f"{sample_id}.jsonl"
    data = sample(sample_id).model_dump(mode="json", exclude_defaults=True)
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")
    return load_suite(str(path))


def fix_line(new: str) -> str:
    """An answer replacing line 13 (``return lo``) by ``new`` (indented as it), as a diff."""
    assert sample().files[CODE].splitlines()[FAULT_LINE - 1] == "        return lo"
    return (
        "The branch for x above hi is wrong.\n\n```diff\n--- a/clamping.py\n+++ b/clamping.py\n"
        "@@ -12,3 +12,3 @@\n     if x > hi:\n-        return lo\n"
        f"+        {new}\n     return x\n```\n"
    )


def options(tmp_path: Path, **kw: Any) -> SolverOptions:
    """Solver options of the fake model with a private cache and fast retries."""
    return fake_model_options(tmp_path, MODEL, **kw)


def run_workflow(
    tmp_path: Path,
    server: FakeOpenAI,
    script: list[Step],
    out: str = "run",
    sample_id: str = SAMPLE_ID,
    **kw: Any,
) -> tuple[dict[str, Any], RunResult]:
    """Run ``workflow:openai:fake`` on one sample through the runner: its record and the run."""
    server.script = list(script)
    solvers = make_solvers([f"workflow:{MODEL}"], options=options(tmp_path, **kw))
    result = run(suite_of(tmp_path, sample_id), solvers, tmp_path / out, config=CONFIG)
    lines = (tmp_path / out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1
    return json.loads(lines[0]), result


def prompts_sent(server: FakeOpenAI) -> list[list[dict[str, Any]]]:
    """The messages of every request the server received, in order."""
    return [seen.body["messages"] for seen in server.requests]
