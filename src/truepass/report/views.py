"""What each attempt page and table row shows, prepared from a record for the template."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from truepass.report.demonstrations import read_demonstrations
from truepass.report.load import Attempt
from truepass.report.trajectories import AGENT_META, AgentView, agent_view
from truepass.vocabulary import FLAG_MEANING, counted

# Fields shown in their own places on an attempt page; any other field of a record (quality,
# localisation, regressions, and whatever later versions add) is shown generically.
CORE_FIELDS = {
    "suite",
    "sample_id",
    "defect_type",
    "leakage",
    "solver",
    "attempt",
    "patch_id",
    "verdict",
    "flags",
    "flag_details",
    "visible",
    "hidden",
    "patch",
    "changed_files",
    "details",
    "test_output",
    "sandbox_tier",
    "infra_retries",
    "solve_s",
    "duration_s",
    "usage",
    "parse",
    "solver_meta",
}
FIRST_EXTRAS = ["regressions", "quality", "localisation"]


@dataclass
class FlagView:
    name: str
    where: str
    explanation: str


@dataclass
class Message:
    role: str
    content: str


@dataclass
class RoundView:
    number: object
    messages: list[Message]
    response: str | None
    feedback: str | None
    facts: dict[str, object]


@dataclass
class DemoItem:
    """One demonstration shown: its id, rank, retrieval score and what its family adds."""

    rank: int
    id: str
    score: float | None
    columns: dict[str, object]
    """the family's per-demonstration values (``decisions``, ``labels``, ...)"""
    anchor: str | None
    """the page of an attempt on that sample in this report; None when the report has none"""


@dataclass
class DemoView:
    """The demonstrations an attempt was shown and what the leakage guard removed."""

    k: int
    context: str | None
    retrieval: str | None
    items: list[DemoItem]
    columns: list[str]
    removed: dict[str, int]
    considered: int | None
    passed: int | None
    other: dict[str, object]
    """other keys the family records about its demonstrations"""

    @property
    def removed_total(self) -> int:
        return sum(self.removed.values())


class SampleLinks:
    """Where a sample's page is: the report has a page per attempt, so a sample links to an
    attempt on it, of the same solver and run when there is one, else of the same run, else any."""

    def __init__(self, attempts: list[Attempt]) -> None:
        self._by: dict[tuple[str, ...], str] = {}
        for a in attempts:
            anchor = f"attempt-{a.index}"
            for key in (
                (a.record.sample_id, a.run, a.label),
                (a.record.sample_id, a.run),
                (a.record.sample_id,),
            ):
                self._by.setdefault(key, anchor)

    def anchor(self, sample_id: str, run: str, solver: str) -> str | None:
        for key in ((sample_id, run, solver), (sample_id, run), (sample_id,)):
            if key in self._by:
                return self._by[key]
        return None


def demo_view(a: Attempt, links: SampleLinks | None = None) -> DemoView | None:
    """The demonstrations of an attempt for its page; None when its record carries none."""
    d = read_demonstrations(a.record.solver_meta)
    if d is None:
        return None
    n = len(d.shown)
    columns = [k for k, v in d.extras.items() if isinstance(v, list) and len(v) == n and n]
    items = [
        DemoItem(
            rank=i + 1,
            id=demo,
            score=d.scores[i] if i < len(d.scores) else None,
            columns={c: d.extras[c][i] for c in columns},
            anchor=links.anchor(demo, a.run, a.label) if links else None,
        )
        for i, demo in enumerate(d.shown)
    ]
    return DemoView(
        k=d.k,
        context=d.context,
        retrieval=d.retrieval,
        items=items,
        columns=columns,
        removed=dict(d.removed),
        considered=d.considered,
        passed=d.passed,
        other={k: v for k, v in d.extras.items() if k not in columns and _present(v)},
    )


@dataclass
class AttemptView:
    """An attempt as the template shows it."""

    index: int
    anchor: str
    run: str
    suite: str
    solver: str
    sample_id: str
    defect_type: str
    leakage: str
    attempt: int
    patch_id: str | None
    verdict: str
    counted: bool
    flags: list[FlagView]
    flag_names: list[str]
    facts: dict[str, object]
    details: str
    diff: list[tuple[str, str]]
    test_output: str
    failing: dict[str, list[str]]
    rounds: list[RoundView]
    meta: dict[str, object]
    extras: dict[str, object]
    visible: str
    hidden: str
    tokens: int | None
    cost: float | None
    duration_s: float
    demonstrations: DemoView | None = None
    agent: AgentView | None = None
    """an agent attempt's trajectory (its timeline replaces the model rounds)"""
    search: str = field(default="")


def diff_lines(patch: str) -> list[tuple[str, str]]:
    """(css class, text) per line of a unified diff."""
    out = []
    for line in patch.splitlines():
        if line.startswith(("--- ", "+++ ", "diff ", "index ", "new file", "deleted file")):
            cls = "meta"
        elif line.startswith("@@"):
            cls = "hunk"
        elif line.startswith("+"):
            cls = "add"
        elif line.startswith("-"):
            cls = "del"
        elif line.startswith("\\"):
            cls = "note"
        else:
            cls = "ctx"
        out.append((cls, line))
    return out


def _phase(p: Any) -> str:
    if not isinstance(p, dict):
        return "not run"
    return f"{p.get('passed', 0)}/{p.get('expected', 0)}"


def _text(value: object) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, indent=2, ensure_ascii=False)


def _messages(prompt: object) -> list[Message]:
    if isinstance(prompt, str):
        return [Message("prompt", prompt)]
    if isinstance(prompt, list):
        return [
            Message(str(m.get("role", "")), _text(m.get("content")))
            if isinstance(m, dict)
            else Message("", _text(m))
            for m in prompt
        ]
    return [] if prompt is None else [Message("prompt", _text(prompt))]


def _rounds(meta: dict[str, Any]) -> list[RoundView]:
    rounds = meta.get("rounds")
    if not isinstance(rounds, list):
        return []
    out = []
    for n, rd in enumerate(rounds):
        if not isinstance(rd, dict):
            continue
        facts = {
            k: v for k, v in rd.items() if k not in {"round", "prompt", "response", "feedback"}
        }
        response = rd.get("response")
        feedback = rd.get("feedback")
        out.append(
            RoundView(
                number=rd.get("round", n),
                messages=_messages(rd.get("prompt")),
                response=None if response is None else _text(response),
                feedback=None if feedback in (None, "") else _text(feedback),
                facts=facts,
            )
        )
    return out


def _flags(raw: dict[str, Any], names: list[str]) -> list[FlagView]:
    out = []
    explained = set()
    for d in raw.get("flag_details") or []:
        if not isinstance(d, dict):
            continue
        name = str(d.get("name", ""))
        explained.add(name)
        where = str(d.get("file") or "")
        if d.get("line"):
            where += f":{d['line']}"
        out.append(FlagView(name, where, str(d.get("explanation") or FLAG_MEANING.get(name, ""))))
    for name in names:
        if name not in explained:
            out.append(FlagView(name, "", FLAG_MEANING.get(name, "")))
    return out


def _present(value: object) -> bool:
    return value not in (None, "", [], {})


def attempt_view(a: Attempt, links: SampleLinks | None = None) -> AttemptView:
    """What the page and the table row of attempt ``a`` show; ``links`` finds the pages of the
    samples its demonstrations came from."""
    r, raw = a.record, a.raw
    meta = dict(r.solver_meta)
    agent = agent_view(meta)
    rounds = _rounds(meta) if agent is None else []
    meta.pop("rounds", None)
    if agent is not None:  # the timeline shows them (an unreadable trajectory stays in the table)
        for key in AGENT_META:
            meta.pop(key, None)
    demos = demo_view(a, links)
    if demos is not None:  # shown in its own place (unreadable ones stay in the solver's table)
        meta.pop("demonstrations", None)
    usage = r.usage
    tokens = usage.prompt_tokens + usage.completion_tokens if usage else None
    facts: dict[str, object] = {
        "run": a.run,
        "suite": r.suite,
        "defect type": r.defect_type,
        "leakage tier": r.leakage,
        "attempt": r.attempt,
        "patch id": r.patch_id,
        "counted in rates": "yes" if counted(r.verdict) else "no",
        "visible tests passed": _phase(raw.get("visible")),
        "hidden tests passed": _phase(raw.get("hidden")),
        "changed files": ", ".join(r.changed_files) or None,
        "solve time (s)": r.solve_s,
        "judge time (s)": r.duration_s,
        "sandbox tier": r.sandbox_tier or None,
        "infra retries": r.infra_retries or None,
        "answer parsed as": r.parse,
    }
    if usage is not None:
        facts["model calls (cached)"] = f"{usage.calls} ({usage.cached_calls})"
        facts["tokens (prompt + completion)"] = (
            f"{usage.prompt_tokens} + {usage.completion_tokens}"
            + (" (estimated)" if usage.tokens_estimated else "")
        )
        facts["cost (USD)"] = "unknown" if usage.cost_usd is None else f"{usage.cost_usd:.6f}"
    extra_keys = [k for k in FIRST_EXTRAS if k in raw] + sorted(
        k for k in raw if k not in CORE_FIELDS and k not in FIRST_EXTRAS
    )
    failing = {
        phase: list(p.get("failing") or [])
        for phase in ("visible", "hidden")
        if isinstance(p := raw.get(phase), dict) and p.get("failing")
    }
    names = list(r.flags)
    view = AttemptView(
        index=a.index,
        anchor=f"attempt-{a.index}",
        run=a.run,
        suite=r.suite,
        solver=a.label,
        sample_id=r.sample_id,
        defect_type=r.defect_type,
        leakage=r.leakage,
        attempt=r.attempt,
        patch_id=r.patch_id,
        verdict=r.verdict,
        counted=counted(r.verdict),
        flags=_flags(raw, names),
        flag_names=names,
        facts={k: v for k, v in facts.items() if _present(v)},
        details=r.details,
        diff=diff_lines(r.patch),
        test_output=r.test_output,
        failing=failing,
        rounds=rounds,
        meta={k: v for k, v in meta.items() if _present(v)},
        extras={k: raw[k] for k in extra_keys if _present(raw[k]) or k == "regressions"},
        visible=_phase(raw.get("visible")),
        hidden=_phase(raw.get("hidden")),
        tokens=tokens,
        cost=usage.cost_usd if usage else None,
        duration_s=r.duration_s,
        demonstrations=demos,
        agent=agent,
    )
    view.search = " ".join(
        [
            r.sample_id,
            a.label,
            r.verdict,
            r.defect_type,
            r.leakage,
            *names,
            r.patch_id or "",
            r.details,
            a.run,
            agent.end_reason if agent else "",
        ]
    ).lower()
    return view
