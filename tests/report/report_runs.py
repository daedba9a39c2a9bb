"""Run directories written for the report tests: varied verdicts, flags, model rounds, new record
fields, and hostile text in every field a candidate or a user can fill."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from truepass.agentic.limits import AgentLimits
from truepass.agentic.protocol import AgentProtocol
from truepass.agentic.tools import Submit
from truepass.agentic.trajectory import EndReason, ProcessMetrics, Step, Trajectory
from truepass.agents.protocols import make_protocol
from truepass.agents.solver import rounds as agent_rounds
from truepass.models.base import Completion, ToolCall
from truepass.usage import Usage

XSS = "</script><script>alert(1)</script><img src=x onerror=alert(2)>"

FIX = """--- a/clamp.py
+++ b/clamp.py
@@ -3,4 +3,4 @@
         return lo
     if x > hi:
-        return lo
+        return hi
     return x
"""
HOSTILE_PATCH = f"""--- a/clamp.py
+++ b/clamp.py
@@ -1,3 +1,4 @@
+# {XSS} & "quotes" 'single'
 def clamp(x, lo, hi):
     if x < lo:
         return lo
"""
HARDCODED = """--- a/clamp.py
+++ b/clamp.py
@@ -3,4 +3,4 @@
         return lo
     if x > hi:
-        return lo
+        return 5
     return x
"""


def phase(expected: int, passed: int, failing: list[str] | None = None) -> dict[str, Any]:
    failed = expected - passed
    return {
        "expected": expected,
        "passed": passed,
        "failed": failed,
        "missing": 0,
        "ok": failed == 0,
        "failing": failing or [],
    }


def record(sample_id: str, solver: str, verdict: str, **kw: Any) -> dict[str, Any]:
    """A results.jsonl line (the fields of truepass.records.AttemptRecord)."""
    base: dict[str, Any] = {
        "suite": "mini",
        "sample_id": sample_id,
        "defect_type": "off-by-one",
        "leakage": "private",
        "solver": solver,
        "attempt": 0,
        "patch_id": None,
        "verdict": verdict,
        "flags": [],
        "visible": None,
        "hidden": None,
        "patch": "",
        "changed_files": [],
        "details": "",
        "test_output": "",
        "sandbox_tier": "bwrap",
        "infra_retries": 0,
        "solve_s": 0.01,
        "duration_s": 0.5,
        "usage": None,
        "parse": None,
        "solver_meta": {},
    }
    if verdict in {"correct", "overfit", "plausible"}:
        base |= {
            "patch": FIX,
            "changed_files": ["clamp.py"],
            "visible": phase(2, 2),
            "test_output": "..\n2 passed\n",
        }
        base["hidden"] = phase(3, 3) if verdict == "correct" else None
        if verdict == "overfit":
            base["hidden"] = phase(3, 1, ["test_hidden.py::test_a", "test_hidden.py::test_b"])
    elif verdict == "fails-visible":
        base |= {
            "visible": phase(2, 1, ["test_clamp.py::test_high"]),
            "test_output": "F.\nE   assert 0 == 5\n1 failed, 1 passed\n",
        }
    base.update(kw)
    return base


def model(rounds: list[dict[str, Any]], cost: float | None = 0.0005) -> dict[str, Any]:
    tokens = sum(
        int(r.get("prompt_tokens", 0)) + int(r.get("completion_tokens", 0)) for r in rounds
    )
    return {
        "usage": {
            "calls": len(rounds),
            "cached_calls": 0,
            "prompt_tokens": tokens - 40 * len(rounds),
            "completion_tokens": 40 * len(rounds),
            "latency_s": 1.5,
            "cost_usd": cost,
            "tokens_estimated": False,
        },
        "parse": "diff",
        "solver_meta": {
            "model": "openai:fake",
            "variant": "feedback",
            "temperature": 0.0,
            "seed": 0,
            "rounds": rounds,
        },
    }


def round_(n: int, response: str, feedback: str | None = None) -> dict[str, Any]:
    return {
        "round": n,
        "prompt": [
            {"role": "system", "content": "You are an expert Python developer."},
            {"role": "user", "content": f"Fix the bug in clamp.py (round {n})."},
        ],
        "response": response,
        "feedback": feedback,
        "parse_kind": "diff",
        "cached": False,
        "prompt_tokens": 300,
        "completion_tokens": 40,
        "finish_reason": "stop",
    }


def write_run(
    path: Path, records: list[dict[str, Any]], *, suite: str = "mini", family: str = "repair"
) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    (path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    solvers = list(dict.fromkeys(r["solver"] for r in records))
    manifest = {
        "started": "2026-11-30T09:00:00+00:00",
        "finished": "2026-11-30T09:05:00+00:00",
        "suite": {
            "name": suite,
            "version": "1.0.0",
            "content_hash": "ab" * 32,
            "family": family,
        },
        "solvers": solvers,
        "sandbox_tier": "bwrap",
        "git_revision": "0123456789abcdef",
    }
    (path / "manifest.json").write_text(json.dumps(manifest))
    return path


SAMPLES = [
    ("mini-001-paginate", "off-by-one"),
    ("mini-002-window-sums", "off-by-one"),
    ("mini-003-chunk", "off-by-one"),
    ("mini-006-weighted-average", "wrong-operator"),
    ("mini-007-cart-total", "wrong-operator"),
    ("mini-011-retry", "missing-guard"),
]
LLM = "openai:fake#feedback-r2"


def varied_records() -> list[dict[str, Any]]:
    """Four solvers over six samples: every kind of verdict, flags, rounds, new fields."""
    recs: list[dict[str, Any]] = []
    for sid, dt in SAMPLES:
        recs.append(
            record(
                sid,
                "oracle",
                "invalid-sample" if sid == "mini-011-retry" else "correct",
                defect_type=dt,
            )
        )
    llm_verdicts = ["correct", "overfit", "correct", "fails-visible", "correct", "no-patch"]
    for (sid, dt), verdict in zip(SAMPLES, llm_verdicts, strict=True):
        rounds = [round_(0, "```diff\n" + FIX + "```\n")]
        extra: dict[str, Any] = {"defect_type": dt}
        if sid == "mini-001-paginate":
            rounds = [
                round_(0, "```diff\n" + HARDCODED + "```", "test_high still fails"),
                round_(1, "Here is the fix:\n```diff\n" + FIX + "```"),
            ]
        if verdict == "overfit":
            extra |= {
                "patch": HARDCODED,
                "flags": ["hardcodes-expected"],
                "flag_details": [
                    {
                        "name": "hardcodes-expected",
                        "file": "clamp.py",
                        "line": 6,
                        "explanation": "returns 5, the expected value of test_high",
                    }
                ],
                "regressions": ["test_hidden.py::test_b"],
            }
        if sid == "mini-003-chunk":
            extra |= {
                "patch": HOSTILE_PATCH,
                "test_output": f"..\n{XSS}\n2 passed\n",
                "details": f"dropped {XSS}",
            }
            rounds = [round_(0, f"```diff\n{HOSTILE_PATCH}```\n{XSS}")]
        extra |= {
            "quality": {
                "lines_added": 1,
                "lines_removed": 1,
                "hunks": 1,
                "files_touched": 1,
                "complexity_before": 3,
                "complexity_after": 3,
                "new_lint": {},
                "inside_fault_function": True,
            },
            "localisation": {
                "hit_file": True,
                "hit_function": True,
                "hit_line": sid != "x",
                "touched": {"clamp.py": [5]},
            },
        }
        recs.append(record(sid, LLM, verdict, **model(rounds), **extra))
    tmpl = ["correct", "overfit", "fails-visible", "apply-failed", "broken", "timeout"]
    for (sid, dt), verdict in zip(SAMPLES, tmpl, strict=True):
        flags = ["swallows-exception", "flaky"] if verdict == "overfit" else []
        recs.append(
            record(
                sid,
                "baseline:templates",
                verdict,
                defect_type=dt,
                flags=flags,
                solver_meta={"fault_source": "sbfl", "operator": "flip-compare"},
            )
        )
    for sid, dt in SAMPLES:
        verdict = "infra-error" if sid == "mini-007-cart-total" else "fails-visible"
        recs.append(record(sid, "noop", verdict, defect_type=dt))
    return recs


def varied_run(path: Path) -> Path:
    return write_run(path, varied_records())


# -- a k sweep of review solvers -----------------------------------------------------------------

MODEL = "openai:fake"
REVIEW_SAMPLES = [(f"rv-{i:02d}", "reject" if i % 2 else "accept") for i in range(1, 9)]
"""eight changes, in time order; the odd ones ended in reject"""
ARCHIVED = "rv-00-archived"
"""a demonstration the run's suite held but the report has no attempt on"""
SWEEP_A = {0: 4, 1: 6, 2: 7}
"""run a (``--shots 0,1,2``, context dialogue): k -> how many of the first samples are right"""
SWEEP_B = {1: 5, 2: 6}
"""run b (``--shots 1,2 --context decision-only``): no k = 0 solver of its own"""


def review_solver(k: int, context: str | None = None) -> str:
    """The solver's name as ``truepass run`` makes it (never read back by the report)."""
    if not k:
        return f"{MODEL}#code-only"
    return f"{MODEL}#code-only-k{k}" + (f"-{context}" if context else "")


def review_demonstrations(index: int, k: int, context: str) -> dict[str, Any]:
    """``solver_meta.demonstrations`` of a review attempt on the ``index``-th sample (from 0): the
    earlier samples, latest first, and the archived one for the second sample."""
    demos: dict[str, Any] = {"k": k, "context": context}
    if not k:
        return demos
    earlier = [sid for sid, _ in REVIEW_SAMPLES[:index]][::-1]
    if index == 1:
        earlier.append(ARCHIVED)
    shown = earlier[:k]
    decisions = {sid: gold for sid, gold in REVIEW_SAMPLES} | {ARCHIVED: "accept"}
    later = len(REVIEW_SAMPLES) - index - 1
    return demos | {
        "shown": shown,
        "decisions": [decisions[s] for s in shown],
        "scores": [round(3.25 - 0.5 * n, 2) for n in range(len(shown))],
        "removed": {
            "target": 1,
            "near-duplicate": 0,
            "later": later,
            "other-project": 0,
            "same-dialogue": 0,
        },
        "considered": len(REVIEW_SAMPLES) + 1,
    }


def review_record(
    index: int, solver: str, k: int, context: str, right: bool, *, with_demos: bool = True
) -> dict[str, Any]:
    """One review attempt as the review family records it."""
    sid, gold = REVIEW_SAMPLES[index]
    said = gold if right else ("accept" if gold == "reject" else "reject")
    meta: dict[str, Any] = {
        "model": MODEL,
        "variant": "code-only",
        "temperature": 0.0,
        "seed": 0,
        "parse_kind": "decision",
        "parse_detail": "",
        "rounds": [
            {
                "round": 0,
                "prompt": [{"role": "user", "content": f"Review change {sid}."}],
                "response": f"Decision: {said}",
                "feedback": None,
            }
        ],
    }
    if with_demos:
        meta["demonstrations"] = review_demonstrations(index, k, context)
    return record(
        sid,
        solver,
        "correct" if right else "fails-visible",
        suite="review-mini",
        defect_type="review",
        patch=f"Decision: {said}\nbecause",
        visible=None,
        hidden=None,
        changed_files=[],
        test_output="",
        details="" if right else f"answered {said}, the review ended in {gold}",
        solve_s=0.2,
        duration_s=0.001,
        usage={
            "calls": 1,
            "cached_calls": 0,
            "prompt_tokens": 200 + 150 * k,
            "completion_tokens": 20,
            "latency_s": 0.5,
            "cost_usd": None,
            "tokens_estimated": False,
        },
        parse="none",
        solver_meta=meta,
        scores={
            "gold_reject": int(gold == "reject"),
            "predicted_reject": int(said == "reject"),
            "right": int(right),
        },
    )


def review_sweep_records(
    sweep: dict[int, int], context: str, *, name_context: bool = False
) -> list[dict[str, Any]]:
    """Every sample for every k of ``sweep``: the first ``sweep[k]`` samples answered right."""
    return [
        review_record(i, review_solver(k, context if name_context else None), k, context, i < n)
        for k, n in sweep.items()
        for i in range(len(REVIEW_SAMPLES))
    ]


def review_sweep_runs(tmp: Path) -> list[Path]:
    """Run a: oracle and the k = 0, 1, 2 sweep (context dialogue, the default); run b: k = 1, 2
    with ``--context decision-only``."""
    oracle = [
        record(sid, "oracle", "correct", suite="review-mini", defect_type="review",
               scores={"gold_reject": int(g == "reject"), "predicted_reject": int(g == "reject"),
                       "right": 1})
        for sid, g in REVIEW_SAMPLES
    ]  # fmt: skip
    for rec in oracle:
        rec |= {"visible": None, "hidden": None, "patch": "", "changed_files": []}
    a = write_run(
        tmp / "a",
        oracle + review_sweep_records(SWEEP_A, "dialogue"),
        suite="review-mini",
        family="review",
    )
    b = write_run(
        tmp / "b",
        review_sweep_records(SWEEP_B, "decision-only", name_context=True),
        suite="review-mini",
        family="review",
    )
    return [a, b]


# -- agent attempts ------------------------------------------------------------------------------

AGENT_TEXT = "agent:openai:fake#text"
AGENT_TOOLS = "agent:openai:fake#tools-s8"
PRICE = 0.0002
"""USD per call of the agents' model"""
CUT_MARKER = "only-in-the-full-output"
"""a line of a test run's output the agent was not shown (it is in ``observation_full`` only)"""
SHOWN_TAIL = "21 passed"


@dataclass(frozen=True)
class Turn:
    """One scripted step: what the model replied and what came of its action."""

    reply: str = ""
    calls: tuple[tuple[str, str], ...] = ()
    """tool calls (tools protocol): the tool's name and its arguments as the model wrote them"""
    shown: str = ""
    full: str | None = None
    exit_code: int | None = None
    timed_out: bool = False
    changed: tuple[str, ...] = ()
    action_s: float = 0.0


def shell(command: str, thought: str = "Next.") -> str:
    """A text-protocol reply running ``command``."""
    return f"{thought}\n\n```bash\n{command}\n```"


def agent_meta(
    kind: AgentProtocol,
    turns: list[Turn],
    end: EndReason,
    detail: str = "",
    *,
    steps_limit: int = 30,
    price: float | None = PRICE,
) -> dict[str, Any]:
    """``usage``, ``parse`` and ``solver_meta`` of an agent attempt as ``agent:MODEL`` records it:
    each reply parsed by the real protocol (a reply without a valid action gets its reminder),
    the trajectory and its metrics built by the agents' models, the rounds by their helper."""
    protocol = make_protocol(kind)
    usage = Usage()
    steps = []
    for n, turn in enumerate(turns, start=1):
        completion = Completion(
            text=turn.reply,
            prompt_tokens=200 + 100 * n,
            completion_tokens=30 + n,
            latency_s=0.25 * n,
            model="fake",
            finish_reason="tool_calls" if turn.calls else "stop",
            tool_calls=[
                ToolCall(id=f"call_{n}_{i}", name=name, arguments=args)
                for i, (name, args) in enumerate(turn.calls)
            ],
        )
        usage.add_completion(completion, price)
        parsed = protocol.parse(completion)
        shown = turn.shown if parsed.error is None else protocol.reminder(parsed.error)
        steps.append(
            Step(
                step=n,
                response=completion.text,
                tool_calls=completion.tool_calls,
                action=parsed.action,
                format_error=parsed.error,
                observation="" if isinstance(parsed.action, Submit) else shown,
                observation_full=turn.full,
                exit_code=turn.exit_code,
                timed_out=turn.timed_out,
                changed_files=list(turn.changed),
                prompt_tokens=completion.prompt_tokens,
                completion_tokens=completion.completion_tokens,
                finish_reason=completion.finish_reason,
                model_s=completion.latency_s,
                action_s=turn.action_s,
            )
        )
    t = Trajectory(
        protocol=kind,
        limits=AgentLimits(steps=steps_limit),
        system=protocol.system_prompt,
        task="Fix the bug in clamp.py: clamp(x, lo, hi) returns lo for x above hi.",
        steps=steps,
        end_reason=end,
        end_detail=detail,
        metrics=ProcessMetrics.of(steps, None if price is None else price * len(steps)),
    )
    changed = any(s.changed_files for s in steps)
    parse = "workspace-diff" if changed else "none"
    meta = {
        "model": "openai:fake",
        "protocol": kind.value,
        "temperature": 0.0,
        "seed": 0,
        "end_reason": end.value,
        "parse_kind": parse,
        "parse_detail": f"ended: {end.value}" + (f" ({detail})" if detail else ""),
        "rounds": agent_rounds(t),
        "agent": t.model_dump(mode="json"),
    }
    return {"usage": usage.model_dump(mode="json"), "parse": parse, "solver_meta": meta}


FIX_SED = "sed -i '6s/return lo/return hi/' clamp.py"
LONG_OUTPUT = "\n".join(f"test_clamp.py::test_{i} PASSED" for i in range(21))
TEXT_FIXES = [
    Turn(shell("cat -n clamp.py", "Let me read the code."), shown="<status>exit code 0</status>\n"
         "<stdout>\n     1\tdef clamp(x, lo, hi):\n     6\t        return lo\n</stdout>",
         exit_code=0, action_s=0.12),
    Turn("The fix is to return hi when x is above hi."),
    Turn(shell(FIX_SED, "Line 6 returns lo where x is above hi."),
         shown="<status>exit code 0</status>\n(no output)", exit_code=0, changed=("clamp.py",),
         action_s=0.1),
    Turn(shell("run_tests"), shown=f"<status>exit code 0</status>\n<stdout>\n"
         f"test_clamp.py::test_0 PASSED\n[... 900 characters cut ...]\n{SHOWN_TAIL}\n</stdout>",
         full=f"<status>exit code 0</status>\n<stdout>\n{LONG_OUTPUT}\n{CUT_MARKER}\n"
         f"{SHOWN_TAIL}\n</stdout>", exit_code=0, action_s=0.9),
    Turn(shell("submit", "The tests pass.")),
]  # fmt: skip
"""A text agent that reads, fails to give an action once, fixes, tests and submits."""
TEXT_RUNS_OUT = [
    Turn(shell(f"echo '{XSS}' && python -m pytest -q"), shown=f"<status>exit code 1</status>\n"
         f"<stdout>\n{XSS}\nF.\n1 failed, 1 passed\n</stdout>", exit_code=1, action_s=0.8),
    Turn(shell("sed -i 's/lo/hi/' clamp.py"), shown="<status>exit code 0</status>\n(no output)",
         exit_code=0, changed=("clamp.py",), action_s=0.1),
    Turn(shell("sed -i 's/hi/lo/2' clamp.py"), shown="<status>exit code 0</status>\n(no output)",
         exit_code=0, changed=("clamp.py",), action_s=0.1),
]  # fmt: skip
"""A text agent that tests first, then edits the same file twice and runs out of steps."""
TOOLS_FIXES = [
    Turn(calls=(("view", '{"path": "clamp.py", "start_line": 1, "end_line": 8}'),),
         shown="     1\tdef clamp(x, lo, hi):\n     6\t        return lo"),
    Turn("Replacing the wrong return.", calls=(
        ("str_replace", '{"path": "clamp.py", "old": "        return lo\\n    return x", '
                        '"new": "        return hi\\n    return x"}'),
        ("run_tests", "{}"),
    ), shown="replaced 1 occurrence in clamp.py", changed=("clamp.py",)),
    Turn(calls=(("run_tests", '{"verbose": tru'),)),
    Turn(calls=(("bash", '{"command": "sleep 100"}'),),
         shown="<status>timed out: killed after the limit of 30 s</status>\n(no output)",
         timed_out=True, action_s=30.0),
    Turn(calls=(("write_file", '{"path": "NOTES.md", "content": "# fixed\\nreturn hi"}'),),
         shown="wrote NOTES.md (2 lines)", changed=("NOTES.md",)),
    Turn(calls=(("run_tests", "{}"),), shown="<status>exit code 0</status>\n<stdout>\n2 passed"
         "\n</stdout>", exit_code=0, action_s=0.7),
    Turn(calls=(("submit", "{}"),)),
]  # fmt: skip
"""A tool-calling agent: view, an edit (with a second call that does not run), a malformed
call, a command killed by the time limit, a new file, a test run, submit."""
TOOLS_BABBLES = [Turn("I would change clamp.py."), Turn("Done?"), Turn("Still no tool.")]


def agent_records() -> list[dict[str, Any]]:
    """Oracle and two agents (text, tools) on two samples, ending four different ways."""
    a, b = SAMPLES[0][0], SAMPLES[1][0]
    text = AgentProtocol.TEXT
    tools = AgentProtocol.TOOLS
    return [
        record(a, "oracle", "correct"),
        record(b, "oracle", "correct"),
        record(a, AGENT_TEXT, "correct", **agent_meta(text, TEXT_FIXES, EndReason.SUBMITTED)),
        record(
            b,
            AGENT_TEXT,
            "fails-visible",
            patch=FIX,
            changed_files=["clamp.py"],
            **agent_meta(
                text,
                TEXT_RUNS_OUT,
                EndReason.STEP_LIMIT,
                "3 steps made (--agent-steps)",
                steps_limit=3,
            ),
        ),
        record(
            a,
            AGENT_TOOLS,
            "correct",
            **agent_meta(tools, TOOLS_FIXES, EndReason.SUBMITTED, steps_limit=8),
        ),
        record(
            b,
            AGENT_TOOLS,
            "no-patch",
            **agent_meta(
                tools,
                TOOLS_BABBLES,
                EndReason.FORMAT_ERRORS,
                "3 replies in a row had no action",
                steps_limit=8,
            ),
        ),
    ]


def agent_run(path: Path) -> Path:
    return write_run(path, agent_records())


CUT_COMMAND = "seq 1 3000"
"""a command whose output the agent is shown cut (its first and last lines)"""


def real_agent_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, dict[str, Any]]:
    """``agent:openai:fake`` through the real runner, sandbox and judge: the scripted agent of
    tests/agents (on the fake OpenAI server) that reads, fixes, tests and submits, with a step
    whose output is cut. The run directory and its one record."""
    from agents.agent_helpers import FIXING_SCRIPT, bash, run_agent  # tests/agents
    from fake_openai import FakeOpenAI

    script = [FIXING_SCRIPT[0], bash(CUT_COMMAND, "How long is it?"), *FIXING_SCRIPT[1:]]
    with FakeOpenAI() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        rec, _ = run_agent(tmp_path, server, script)
    return tmp_path / "run", rec


def many_samples_records(samples: int = 12, n: int = 200) -> list[dict[str, Any]]:
    """``n`` attempts per sample for two solvers (pass@k scale): sample i's correct share falls
    with i; every 7th attempt of the template solver fails its visible tests, every 50th of the
    model is flagged."""
    out = []
    for solver in ("baseline:templates", LLM):
        for i in range(samples):
            sample_id = f"mini-{i:03d}"
            for a in range(n):
                if solver == LLM and a % 50 == 49:
                    verdict, kw = "correct", {"flags": ["special-cases-input"]}
                elif a % 7 == 3 or a * samples < i * n:
                    verdict, kw = "fails-visible", {}
                else:
                    verdict, kw = "correct", {}
                out.append(record(sample_id, solver, verdict, attempt=a, **kw))
    return out
