"""The tools protocol (``--agent-protocol tools``): OpenAI-style tool calls sent and read over
real HTTP, carried out in the sandboxed session, judged like any patch; and the response cache
keys requests on the tools they offer."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from agent_helpers import CODE, TEST, options, run_agent, solve, tool, trajectory
from fake_openai import FakeOpenAI

from truepass.agentic.protocol import AgentProtocol
from truepass.agentic.tools import ACTION_TYPES, tool_specs
from truepass.agentic.trajectory import EndReason
from truepass.errors import InputError
from truepass.models import GenerationParams, cache_key
from truepass.models.base import ToolSpec
from truepass.models.openai_compat import _tool_calls
from truepass.solvers import make_solvers

TOOLS = {"agent_protocol": AgentProtocol.TOOLS}


FIX = {
    "path": CODE,
    "old": "        return lo\n    return x",
    "new": "        return hi\n    return x",
}


@pytest.mark.usefixtures("tool_replies")
def test_an_agent_fixes_the_defect_through_tool_calls(tmp_path: Path, server: FakeOpenAI) -> None:
    script = [
        tool(("view", {"path": CODE, "start_line": 12, "end_line": 13}), text="Let me look."),
        tool(("str_replace", FIX)),
        tool(("run_tests", {})),
        tool(("submit", {})),
    ]
    rec, _ = run_agent(tmp_path, server, script, **TOOLS)
    assert rec["solver"] == "agent:openai:fake#tools"
    assert rec["verdict"] == "correct" and rec["flags"] == []
    t = trajectory(rec["solver_meta"])
    assert t.end_reason is EndReason.SUBMITTED and t.protocol is AgentProtocol.TOOLS
    view, edit, test, _ = t.steps
    assert view.observation == "    12\t    if x > hi:\n    13\t        return lo"
    assert view.response == "Let me look." and view.tool_calls[0].name == "view"
    assert edit.observation == f"replaced 1 occurrence in {CODE}"
    assert edit.changed_files == [CODE]
    assert test.exit_code == 0 and "3 passed" in test.observation
    assert t.metrics.ran_tests_before_finish and t.metrics.edits == 1

    first = server.requests[0].body
    assert [x["function"]["name"] for x in first["tools"]] == list(ACTION_TYPES)
    second = server.requests[1].body["messages"]
    call = second[2]["tool_calls"][0]
    assert second[2]["role"] == "assistant" and call["function"]["name"] == "view"
    assert json.loads(call["function"]["arguments"])["path"] == CODE
    assert second[3] == {"role": "tool", "tool_call_id": call["id"], "content": view.observation}

    # the rerun replays from the cache, tools and all
    again, _ = run_agent(tmp_path, server, [], out="again", **TOOLS)
    assert len(server.requests) == 4 and again["usage"]["cached_calls"] == 4
    assert again["verdict"] == "correct"


@pytest.mark.usefixtures("tool_replies")
def test_bad_tool_calls_are_told_to_the_agent(tmp_path: Path, server: FakeOpenAI) -> None:
    plan = {"path": "notes/plan.txt", "content": "fix line 13\n"}
    script = [
        tool(("bash", "{not json")),
        tool(("rm_rf", {})),
        tool(("write_file", plan), ("bash", {"command": f"rm {TEST}"})),
        tool(("str_replace", {"path": CODE, "old": "return"})),  # "new" is missing
        tool(("str_replace", {"path": CODE, "old": "return lo", "new": "return hi"})),
        tool(("view", {"path": "/etc/passwd"})),
        tool(("view", {"path": "missing.py"})),
        tool(("submit", {})),
    ]
    answer = solve(tmp_path, server, script, agent_steps=10, **TOOLS)
    t = trajectory(answer.meta)
    assert t.end_reason is EndReason.SUBMITTED
    bad_json, unknown, two, missing, ambiguous, outside, absent, _ = t.steps
    assert bad_json.format_error is not None
    assert bad_json.format_error.startswith("the arguments of bash are not JSON")
    assert unknown.format_error == "there is no tool 'rm_rf'"
    assert missing.format_error == "bad arguments for str_replace: new: Field required"
    assert all(s.observation.startswith("Format error") for s in (bad_json, unknown, missing))
    assert two.changed_files == ["notes/plan.txt"]  # only the first call ran: the test stays
    sent = server.requests[3].body["messages"][-2:]
    assert [m["role"] for m in sent] == ["tool", "tool"]
    assert sent[1]["content"] == "not run: one tool call per reply"
    assert ambiguous.observation.startswith("error: the old text occurs 2 times in clamping.py")
    assert outside.observation.startswith("error:") and "absolute" in outside.observation
    assert absent.observation.startswith("error:")
    assert answer.diff is not None and "+++ b/notes/plan.txt" in answer.diff
    assert f"b/{TEST}" not in answer.diff and f"b/{CODE}" not in answer.diff
    assert t.metrics.format_errors == 3


def test_tools_need_an_endpoint_that_has_them(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="--agent-protocol tools needs an openai: endpoint"):
        make_solvers(["agent:local:smollm2"], options=options(tmp_path, **TOOLS))


def test_the_cache_key_holds_the_tools_and_is_unchanged_without_them() -> None:
    messages = [{"role": "user", "content": "x"}]
    plain = GenerationParams()
    # the key of a request without tools is what it was before tools existed
    params = {"temperature": 0.0, "max_tokens": 1024, "top_p": 1.0, "seed": None, "stop": None}
    payload = {"model": "openai:m", "params": params, "messages": messages, "attempt": 0}
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert (
        cache_key("openai:m", plain, messages, 0) == hashlib.sha256(canonical.encode()).hexdigest()
    )
    specs = tool_specs()
    with_tools = plain.model_copy(update={"tools": specs})
    assert cache_key("openai:m", with_tools, messages, 0) != cache_key(
        "openai:m", plain, messages, 0
    )
    fewer = plain.model_copy(update={"tools": specs[:-1]})
    assert cache_key("openai:m", with_tools, messages, 0) != cache_key(
        "openai:m", fewer, messages, 0
    )


def test_tool_specs_and_calls_in_openais_shape() -> None:
    specs = {s.name: s for s in tool_specs()}
    assert list(specs) == ["bash", "view", "write_file", "str_replace", "run_tests", "submit"]
    replace = specs["str_replace"].openai()
    assert replace["type"] == "function"
    params = replace["function"]["parameters"]
    assert params["required"] == ["path", "old", "new"] and "tool" not in params["properties"]
    assert "required" not in specs["submit"].parameters
    with pytest.raises(ValueError):
        ToolSpec(name="two words", description="", parameters={})
    fn = {"name": "bash", "arguments": {"command": "ls"}}  # an object, not JSON text
    raw = [{"id": "c1", "type": "function", "function": fn}]
    (call,) = _tool_calls(raw) or []
    assert (call.id, call.name, json.loads(call.arguments)) == ("c1", "bash", {"command": "ls"})
    assert _tool_calls(None) == [] and _tool_calls([{"function": 3}]) is None
