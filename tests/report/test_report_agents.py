"""Agent attempts in the report: the timeline of each attempt's trajectory, its end reason and
process metrics, the per-solver process table, summary.json's ``process``, and the exports."""

from __future__ import annotations

import csv
import json
import statistics
from pathlib import Path

import pytest
from page_tree import Node, tree
from report_runs import (
    AGENT_TEXT,
    AGENT_TOOLS,
    CUT_COMMAND,
    CUT_MARKER,
    FIX_SED,
    SHOWN_TAIL,
    XSS,
    agent_records,
    agent_run,
    real_agent_run,
    record,
    varied_run,
    write_run,
)

from truepass.agentic.trajectory import Trajectory
from truepass.analysis.summary import Summary, summarize
from truepass.records import AttemptRecord
from truepass.report import render_report, write_exports
from truepass.report.exports import AGENT_COLUMNS, AGENT_STEP_COLUMNS

TEXT_FIXES, TEXT_RUNS_OUT, TOOLS_FIXES, TOOLS_BABBLES = (3, 4, 5, 6)
"""the attempts' numbers in the report (1 and 2 are oracle's)"""


@pytest.fixture
def page(tmp_path: Path) -> Node:
    return tree(render_report([agent_run(tmp_path / "run")]))


def attempt(page: Node, n: int) -> Node:
    return page.one("section", id=f"attempt-{n}")


def steps(section: Node) -> list[Node]:
    return section.one("ol", "timeline").children_of("li")


def trajectories(solver: str) -> list[Trajectory]:
    return [
        Trajectory.model_validate(r["solver_meta"]["agent"])
        for r in agent_records()
        if r["solver"] == solver
    ]


def facts(section: Node) -> dict[str, str]:
    """The attempt's process metrics as its page lists them."""
    return {
        d.one("span", "k").text(): d.one("span", "v").words()
        for d in section.one("div", "process").children_of("div")
    }


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_the_attempt_page_shows_the_timeline(page: Node) -> None:
    section = attempt(page, TEXT_FIXES)
    li = steps(section)
    assert [s.attrs["data-step"] for s in li] == ["1", "2", "3", "4", "5"]
    kinds = [next(c for c in s.classes if c.startswith("kind-")) for s in li]
    assert kinds == [
        "kind-command",
        "kind-format-error",
        "kind-command",
        "kind-tests",
        "kind-submit",
    ]
    read, babble, fix, test, submit = li

    head = read.one("div", "step-head").words()
    assert head.startswith("step 1 bash exit 0")
    assert "model 0.25 s · action 0.12 s" in head and "300 + 31 tokens" in head
    assert read.one("pre", "action-code").text() == "cat -n clamp.py"
    assert read.one("div", "observation").one("pre").text().startswith("<status>exit code 0")
    assert "6\t        return lo" in read.one("div", "observation").text()
    assert read.all("p", "changed") == []
    reply = read.one("details", "response")
    assert "open" not in reply.attrs
    assert reply.one("summary").words().startswith("model's reply: Let me read the code.")

    # a reply without an action: highlighted, its error said, the reply open, the reminder shown
    assert babble.one("p", "format-error-note").words() == (
        "format error: your reply has no fenced shell blocks, not one"
    )
    assert babble.all("pre", "action-code") == [] and babble.all("span", "exit") == []
    assert "open" in babble.one("details", "response").attrs
    assert "The fix is to return hi" in babble.one("details", "response").text()
    assert babble.one("div", "observation").one("pre").text().startswith("Format error: your")

    assert fix.one("pre", "action-code").text() == FIX_SED
    assert fix.one("p", "changed").words() == "changed: clamp.py"

    # the test run: the output as the agent saw it, the whole of it behind a closed toggle
    assert "runs tests" in test.one("div", "step-head").words()
    shown = test.one("div", "observation").text()
    assert SHOWN_TAIL in shown and CUT_MARKER not in shown
    full = test.one("details", "full-output")
    assert "open" not in full.attrs
    assert full.one("summary").words().startswith("full output (")
    assert CUT_MARKER in full.one("pre").text() and "test_clamp.py::test_13 PASSED" in full.text()
    assert [s for s in li if s.all("details", "full-output")] == [test]

    assert submit.one("div", "step-head").words().startswith("step 5 submit")
    assert submit.all("div", "observation") == []


def test_the_end_reason_badge_and_the_attempts_process_metrics(page: Node) -> None:
    section = attempt(page, TEXT_FIXES)
    agent = section.one("div", "agent")
    badge = agent.one("span", "end")
    assert badge.text() == "submitted" and "end-done" in badge.classes
    assert agent.one("p", "ending").words() == "ended: submitted"
    assert facts(agent) == {
        "steps": "5",
        "edits": "1",
        "files touched": "clamp.py",
        "files rewritten": "none",
        "commands": "3",
        "test runs": "1",
        "ran tests before finishing": "yes",
        "format errors": "1",
        "tokens (prompt + completion)": "2500 + 165",
        "cost (USD)": "0.001000",
        "time (s)": "4.87",
    }
    assert "limits: 30 steps, 600 s, no token limit" in agent.words()
    system = Trajectory.model_validate(agent_records()[2]["solver_meta"]["agent"]).system
    prompts = agent.children_of("details")
    assert [d.one("summary").words().split(" (")[0] for d in prompts] == ["system prompt", "task"]
    assert prompts[0].one("pre").text() == system

    ran_out = attempt(page, TEXT_RUNS_OUT).one("p", "ending")
    assert ran_out.one("span", "end").text() == "step-limit"
    assert "end-limit" in ran_out.one("span", "end").classes
    assert ran_out.one("span", "end-detail").text() == "3 steps made (--agent-steps)"
    row = page.one("tr", data_target=f"attempt-{TEXT_RUNS_OUT}")
    assert "step-limit" in (row.attrs["data-text"] or "")  # the attempts filter finds it
    ran_out_facts = facts(attempt(page, TEXT_RUNS_OUT))
    assert ran_out_facts["files rewritten"] == "clamp.py"
    assert ran_out_facts["ran tests before finishing"] == "no"

    babbles = attempt(page, TOOLS_BABBLES)
    assert "end-error" in babbles.one("span", "end").classes
    assert babbles.one("span", "end").text() == "format-errors"
    assert all("kind-format-error" in s.classes for s in steps(babbles))
    # the tools protocol's format error shows the tool call as the model wrote it
    assert [s.one("p", "format-error-note").words() for s in steps(babbles)] == [
        "format error: your reply calls no tool"
    ] * 3


def test_every_kind_of_action_of_the_tools_protocol(page: Node) -> None:
    view, edit, broken, sleep, write, test, submit = steps(attempt(page, TOOLS_FIXES))
    assert view.one("div", "step-head").words().startswith("step 1 view lines 1–8 clamp.py")
    assert view.all("pre", "action-code") == []
    assert view.all("details", "response") == []  # one valid call and no text: nothing to add
    assert [(s.attrs["class"], s.text()) for s in edit.one("pre", "diff").all("span")] == [
        ("del", "-        return lo\n"),
        ("del", "-    return x\n"),
        ("add", "+        return hi\n"),
        ("add", "+    return x\n"),
    ]
    assert edit.one("code", "path").text() == "clamp.py"
    calls = [p.text() for p in edit.all("pre", "tool-call")]
    assert calls[1] == "run_tests({})" and "only the first tool call ran" in edit.words()
    assert "kind-format-error" in broken.classes
    assert "the arguments of run_tests are not JSON" in broken.one("p", "format-error-note").text()
    assert broken.one("pre", "tool-call").text() == 'run_tests({"verbose": tru)'
    exit_ = sleep.one("span", "exit")
    assert exit_.text() == "timed out" and "exit-bad" in exit_.classes
    assert "action 30.00 s" in sleep.one("div", "step-head").words()
    assert write.one("pre", "action-code").text() == "# fixed\nreturn hi"
    assert write.one("code", "path").text() == "NOTES.md"
    assert (
        test.one("span", "exit").text() == "exit 0"
        and "exit-ok" in test.one("span", "exit").classes
    )
    assert "kind-submit" in submit.classes


def test_the_timeline_replaces_the_rounds_and_the_trajectory_dump(page: Node) -> None:
    for n in (TEXT_FIXES, TEXT_RUNS_OUT, TOOLS_FIXES, TOOLS_BABBLES):
        section = attempt(page, n)
        headings = [h.text() for h in section.all("h3")]
        assert "Agent trajectory" in headings and "Model rounds" not in headings
        assert section.all("div", "round") == []
        solver = {
            tr.one("th").text(): tr.one("td").words()
            for tr in section.one("table", "meta").all("tr")
        }
        assert set(solver) == {"model", "protocol", "temperature", "seed", "parse_kind"}
    oracle = attempt(page, 1)
    assert oracle.all("div", "agent") == [] and oracle.all("ol", "timeline") == []


def test_hostile_text_in_a_trajectory_is_shown_as_text(tmp_path: Path) -> None:
    html = render_report([agent_run(tmp_path / "run")])
    assert "<script>alert" not in html and "<img" not in html
    first = steps(attempt(tree(html), TEXT_RUNS_OUT))[0]
    assert XSS in first.one("pre", "action-code").text()
    assert XSS in first.one("div", "observation").text()


def test_records_without_a_readable_trajectory_keep_the_old_page(tmp_path: Path) -> None:
    """An agent attempt without a task (``agent`` null) and one a newer truepass wrote (an
    action this one does not know) render with their rounds and metadata as they are."""
    readable = agent_records()[2]
    newer = json.loads(json.dumps(readable))
    newer["sample_id"] = "mini-002-window-sums"
    newer["solver_meta"]["agent"]["steps"][0]["action"] = {"tool": "browse", "url": "x"}
    no_task = record(
        "mini-003-chunk",
        AGENT_TEXT,
        "no-patch",
        solver_meta={"model": "openai:fake", "agent": None, "end_reason": "no-task"},
    )
    html = render_report([write_run(tmp_path / "r", [readable, newer, no_task])])
    page = tree(html)
    assert len(steps(attempt(page, 1))) == 5
    second = attempt(page, 2)
    assert second.all("ol", "timeline") == []
    assert [h.text() for h in second.all("h3")].count("Model rounds") == 1
    meta = {
        tr.children_of("th")[0].text(): tr for tr in second.one("table", "meta").children_of("tr")
    }
    assert "agent" in meta and "browse" in meta["agent"].text()
    third = attempt(page, 3)
    assert third.all("ol", "timeline") == [] and "no-task" in third.one("table", "meta").text()


def test_the_per_solver_process_table(page: Node) -> None:
    assert page.one("a", href="#agents").text() == "Agents"
    table = page.one("table", "process")
    heads = [th.words() for th in table.one("thead").all("th")]
    assert heads[:12] == [
        "solver", "attempts", "steps", "edits", "files touched", "test runs", "format errors",
        "tokens", "cost (USD)", "time s", "ran tests before finishing", "rewrote files",
    ]  # fmt: skip
    assert heads[12:] == ["ended: submitted", "ended: step-limit", "ended: format-errors"]
    rows = {
        tr.attrs["data-solver"]: [td.words() for td in tr.all("td")]
        for tr in table.all("tr")
        if "data-solver" in tr.attrs
    }
    assert list(rows) == [AGENT_TEXT, AGENT_TOOLS]  # not oracle

    def tests_run(t: Trajectory) -> int:
        return sum(
            s.action is not None
            and (s.action.tool == "run_tests" or "pytest" in getattr(s.action, "command", ""))
            for s in t.steps
        )

    for solver, ended in ((AGENT_TEXT, ["50.0%", "50.0%", "0.0%"]),
                          (AGENT_TOOLS, ["50.0%", "0.0%", "50.0%"])):  # fmt: skip
        ts = trajectories(solver)
        mean = statistics.mean
        assert rows[solver][1:12] == [
            "2",
            f"{mean(len(t.steps) for t in ts):.1f}",
            f"{mean(sum(bool(s.changed_files) for s in t.steps) for t in ts):.1f}",
            f"{mean(len({f for s in t.steps for f in s.changed_files}) for t in ts):.1f}",
            f"{mean(tests_run(t) for t in ts):.1f}",
            f"{mean(sum(s.format_error is not None for s in t.steps) for t in ts):.1f}",
            f"{mean(sum(s.prompt_tokens + s.completion_tokens for s in t.steps) for t in ts):.0f}",
            f"{mean(0.0002 * len(t.steps) for t in ts):.4f}",
            f"{mean(sum(s.model_s + s.action_s for s in t.steps) for t in ts):.1f}",
            "50.0%",  # the fixing attempts tested after their last change, the others did not
            "50.0%" if solver == AGENT_TEXT else "0.0%",  # the text agent's second edits again
        ]
        assert rows[solver][12:] == ended


def test_no_agents_no_process_table(tmp_path: Path) -> None:
    page = tree(render_report([varied_run(tmp_path / "v")]))
    assert page.all("table", "process") == [] and page.all("a", href="#agents") == []
    assert page.all("div", "agent") == []


def test_summary_json_holds_the_process_of_agent_solvers() -> None:
    records = [AttemptRecord.model_validate(r) for r in agent_records()]
    summary = summarize("mini", records)
    by_solver = {s.solver: s for s in summary.solvers}
    assert by_solver["oracle"].process is None
    text = by_solver[AGENT_TEXT].process
    assert text is not None
    assert (text.attempts, text.steps, text.edits, text.test_runs) == (2, 4.0, 1.5, 1.0)
    assert text.ended == {"step-limit": 0.5, "submitted": 0.5}
    assert text.ran_tests_before_finish == 0.5 and text.rewrote_files == 0.5
    assert text.cost_usd == pytest.approx((0.0002 * 5 + 0.0002 * 3) / 2)
    tools = by_solver[AGENT_TOOLS].process
    assert tools is not None and tools.ended == {"format-errors": 0.5, "submitted": 0.5}
    assert tools.format_errors == 2.0 and tools.files_touched == 1.0
    # as summary.json holds it, and read back
    data = json.loads(json.dumps(summary.model_dump()))
    assert data["solvers"][1]["process"]["ended"]["submitted"] == 0.5
    assert data["solvers"][0]["process"] is None
    assert Summary.model_validate(data) == summary


def test_exports_per_attempt_and_per_step(tmp_path: Path) -> None:
    paths = write_exports([agent_run(tmp_path / "run")], tmp_path / "out")
    assert [p.name for p in paths][-1] == "agent_steps.csv"

    attempts = read_csv(tmp_path / "out" / "attempts.csv")
    header = (tmp_path / "out" / "attempts.csv").read_text().splitlines()[0].split(",")
    assert header[-len(AGENT_COLUMNS) :] == AGENT_COLUMNS
    assert all(r[c] == "" for r in attempts if r["solver"] == "oracle" for c in AGENT_COLUMNS)
    fixes = attempts[TEXT_FIXES - 1]
    assert {c: fixes[c] for c in AGENT_COLUMNS} == {
        "agent.end_reason": "submitted",
        "agent.end_detail": "",
        "agent.steps": "5",
        "agent.format_errors": "1",
        "agent.commands": "3",
        "agent.test_runs": "1",
        "agent.edits": "1",
        "agent.files_touched": "clamp.py",
        "agent.files_rewritten": "",
        "agent.ran_tests_before_finish": "True",
        "agent.prompt_tokens": "2500",
        "agent.completion_tokens": "165",
        "agent.cost_usd": "0.001",
        "agent.time_s": "4.87",
    }
    assert attempts[TOOLS_FIXES - 1]["agent.files_touched"] == "NOTES.md;clamp.py"
    assert attempts[TEXT_RUNS_OUT - 1]["agent.end_detail"] == "3 steps made (--agent-steps)"

    rows = read_csv(tmp_path / "out" / "agent_steps.csv")
    header = (tmp_path / "out" / "agent_steps.csv").read_text().splitlines()[0].split(",")
    assert header == AGENT_STEP_COLUMNS
    every = [t for s in (AGENT_TEXT, AGENT_TOOLS) for t in trajectories(s)]
    assert len(rows) == sum(len(t.steps) for t in every) == 18
    text = [r for r in rows if r["solver"] == AGENT_TEXT and r["sample_id"] == "mini-001-paginate"]
    assert [(r["step"], r["tool"], r["exit_code"], r["runs_tests"]) for r in text] == [
        ("1", "bash", "0", "False"),
        ("2", "", "", "False"),
        ("3", "bash", "0", "False"),
        ("4", "run_tests", "0", "True"),
        ("5", "submit", "", "False"),
    ]
    assert text[0]["command"] == "cat -n clamp.py" and text[2]["command"] == FIX_SED
    assert text[1]["format_error"] == "your reply has no fenced shell blocks, not one"
    assert text[2]["changed_files"] == "clamp.py" and text[3]["output_cut"] == "True"
    assert {r["verdict"] for r in text} == {"correct"} and {r["end_reason"] for r in text} == {
        "submitted"
    }
    assert (text[0]["prompt_tokens"], text[0]["completion_tokens"]) == ("300", "31")
    assert (text[0]["model_s"], text[0]["action_s"]) == ("0.25", "0.12")
    assert int(text[1]["observation_chars"]) > 100  # the format reminder
    tools = [
        r for r in rows if r["solver"] == AGENT_TOOLS and r["sample_id"] == "mini-001-paginate"
    ]
    assert [(r["tool"], r["path"]) for r in tools[:2]] == [
        ("view", "clamp.py"),
        ("str_replace", "clamp.py"),
    ]
    assert tools[3]["timed_out"] == "True" and tools[3]["exit_code"] == ""
    ran_out = [
        r for r in rows if r["solver"] == AGENT_TEXT and r["sample_id"] != text[0]["sample_id"]
    ]
    assert XSS in ran_out[0]["command"] and ran_out[0]["runs_tests"] == "True"

    metrics = {r["solver"]: r for r in read_csv(tmp_path / "out" / "metrics.csv")}
    assert metrics[AGENT_TEXT]["process.steps"] == "4.0"
    assert metrics[AGENT_TEXT]["process.ended.step-limit"] == "0.5"
    assert metrics[AGENT_TOOLS]["process.ended.step-limit"] == "0.0"
    assert metrics["oracle"]["process.steps"] == ""


def test_exports_without_agents(tmp_path: Path) -> None:
    write_exports([varied_run(tmp_path / "v")], tmp_path / "out")
    assert (tmp_path / "out" / "agent_steps.csv").read_text().splitlines() == [
        ",".join(AGENT_STEP_COLUMNS)
    ]
    header = (tmp_path / "out" / "attempts.csv").read_text().splitlines()[0]
    assert "agent." not in header
    assert "process." not in (tmp_path / "out" / "metrics.csv").read_text()


def test_a_real_agent_attempt_in_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scripted agent run through the real runner, sandbox and judge: judged correct, its
    trajectory in results.jsonl, its timeline and process in the report."""
    run_dir, rec = real_agent_run(tmp_path, monkeypatch)
    assert rec["verdict"] == "correct"
    t = Trajectory.model_validate(rec["solver_meta"]["agent"])
    assert [s.action.tool if s.action else None for s in t.steps] == [
        "bash", "bash", "bash", "run_tests", "submit",
    ]  # fmt: skip
    long = t.steps[1]
    assert long.observation_full is not None
    assert "\n1500\n" in long.observation_full and "\n1500\n" not in long.observation

    page = tree(render_report([run_dir]))
    section = attempt(page, 1)
    li = steps(section)
    assert len(li) == 5
    assert li[1].one("pre", "action-code").text() == CUT_COMMAND
    assert li[1].one("div", "observation").one("pre").text() == long.observation
    assert li[1].one("details", "full-output").one("pre").text() == long.observation_full
    assert li[2].one("p", "changed").words() == "changed: clamping.py"
    assert "3 passed" in li[3].one("div", "observation").text()
    assert section.one("span", "end").text() == "submitted"
    assert facts(section)["ran tests before finishing"] == "yes"
    row = page.one("table", "process").one("tr", data_solver=rec["solver"])
    assert [td.words() for td in row.all("td")][:3] == [rec["solver"], "1", "5.0"]
