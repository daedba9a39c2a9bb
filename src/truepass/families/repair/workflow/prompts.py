"""The workflow's two prompts.

Stage 3 asks for a candidate with repair's ``description`` prompt
(:func:`truepass.prompts.build_repair_messages`: the description, the buggy code trimmed around
the suspect lines, the failing visible tests' output with their stack traces, and the suspect
lines as the localisation hint), followed by what stages 1 and 2 found. Stage 5 replays that
prompt, the chosen patch as the model's own answer, and asks for the root cause in the form the
``root-cause`` variant uses. Neither shows anything of the sample's answer key, and every call
goes through the leak guard (:meth:`truepass.solvers.llm.LLMSolver.ask`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from truepass.families.repair.prompts import build_repair_messages
from truepass.families.repair.schema import FaultLocation, RepairSample
from truepass.families.repair.workflow.meta import LocalisationStage, StaticStage, Suspect
from truepass.models.base import Message
from truepass.prompts.templating import fence

FOCUS = 3
"""suspect lines given as the localisation hint (the code is trimmed around them)"""


def focus_of(suspects: list[Suspect], record: LocalisationStage) -> list[FaultLocation] | None:
    """The top suspect lines as fault locations (None when localisation found nothing: SBFL
    fell back to every line and no stack trace passes through the code)."""
    if record.fallback and not record.frames:
        return None
    by_file: dict[str, list[int]] = {}
    for s in suspects[:FOCUS]:
        by_file.setdefault(s.file, []).append(s.line)
    return [FaultLocation(file=f, lines=sorted(ls)) for f, ls in by_file.items()] or None


def evidence(record: LocalisationStage, static: StaticStage) -> str:
    """What stages 1 and 2 found, as the end of the candidate prompt."""
    out = ["What running the visible tests and analysing the code found:", ""]
    if record.fallback and not record.frames:
        out.append(f"Fault localisation found nothing to go on ({record.fallback}).")
    else:
        out.append(
            "The most suspicious lines (spectrum-based fault localisation over the visible "
            "tests' coverage, raised where a failing test's stack trace passes):"
        )
        for i, s in enumerate(record.suspects, start=1):
            where = f"`{s.file}` line {s.line}" + (f" in `{s.function}`" if s.function else "")
            why = f"score {s.score:.2f}" + (", in the stack trace" if s.in_trace else "")
            out.append(f"{i}. {where} ({why}): `{s.code}`")
    frames = list(dict.fromkeys((f.file, f.line, f.what) for f in record.frames))
    if frames:
        out += ["", "Stack trace frames of the failing tests in the code under test:"]
        out += [f"- `{f}` line {n}" + (f": {w}" if w else "") for f, n, w in frames[:5]]
    out.append("")
    if static.tools:
        tools = ", ".join(static.tools)
        if static.findings:
            out.append(f"Static analysis ({tools}) near these lines:")
            out += [f"- `{f.file}` line {f.line}: {f.rule} {f.message}" for f in static.findings]
        else:
            out.append(f"Static analysis ({tools}) found nothing near these lines.")
        out.append("")
    out.append("Reply with exactly one fix, in one of the two forms asked for above.")
    return "\n".join(out)


def candidate_messages(
    sample: RepairSample,
    failing_output: str,
    record: LocalisationStage,
    static: StaticStage,
    *,
    token_budget: int,
    count_tokens: Callable[[str], int],
    template_dir: Path | None,
) -> list[Message]:
    """The stage-3 prompt: repair's ``description`` prompt, then :func:`evidence`."""
    extra = evidence(record, static)
    messages = build_repair_messages(
        sample,
        "description",
        failing_output=failing_output,
        focus=focus_of(record.suspects, record),
        token_budget=max(token_budget - count_tokens(extra), 256),
        count_tokens=count_tokens,
        template_dir=template_dir,
    )
    last = messages[-1]
    return [*messages[:-1], {**last, "content": last["content"] + "\n\n" + extra}]


EXPLAIN = """This fix was chosen: it passes the visible tests. Now explain it.
Begin with one line naming where the defect is, in exactly this form (the file, the function,
then the faulty line of code copied as it is in the buggy code):
Root cause: FILE | FUNCTION | FAULTY LINE OF CODE
Then explain in a few sentences what the root cause is and why the fix works.
Do not write another fix."""


def explanation_messages(prompt: list[Message], diff: str) -> tuple[list[Message], int]:
    """The stage-5 prompt: the stage-3 prompt, the chosen patch as the model's own answer, and
    the request; with the index of that answer (where the leak guard stops checking: the
    model's own patch may rightly hold lines of the reference fix)."""
    own = len(prompt)
    f = fence(diff)
    return [
        *prompt,
        {"role": "assistant", "content": f"{f}diff\n{diff}{f}"},
        {"role": "user", "content": EXPLAIN},
    ], own
