"""Stage 2: static analysis around the suspect region.

ruff (a dependency of truepass, which the judge's quality metrics already run) checks each file
holding a suspect line for rules that point at bugs rather than style: pyflakes (``F``: unused or
undefined names, a variable assigned and never read), bugbear (``B``), unused arguments
(``ARG``: a parameter the function never reads is a classic wrong-variable defect), syntax
errors (``E9``) and pylint's errors and warnings (``PLE``, ``PLW``). Only findings in a function
holding a suspect line, or within :data:`NEAR` lines of one, are kept. ruff parses the code read
from stdin with ``--isolated`` (no configuration file of the sample is read); nothing is run.

pylint and bandit are not used: neither is a dependency of truepass, and on the bundled suites
ruff's pyflakes and bugbear rules cover what they would find near a one-function defect.
"""

from __future__ import annotations

from truepass.families.repair.workflow.meta import Finding, StaticStage, Suspect
from truepass.metrics.quality import enclosing_function, function_spans, ruff_json

RULES = "F,B,ARG,E9,PLE,PLW"
NEAR = 3
"""lines around a suspect line whose findings count as near it"""
SHOWN = 10
"""findings kept (nearest suspects first)"""


def ruff_findings(path: str, content: str) -> list[Finding] | None:
    """ruff's findings of :data:`RULES` in one file (None when ruff is unavailable or failed)."""
    raw = ruff_json(path, content, RULES)
    if raw is None:
        return None
    return [
        Finding(
            tool="ruff",
            rule=str(f.get("code") or "syntax"),
            file=path,
            line=int((f.get("location") or {}).get("row") or 0),
            message=str(f.get("message", "")),
        )
        for f in raw
    ]


def near(findings: list[Finding], suspects: list[Suspect], code: dict[str, str]) -> list[Finding]:
    """The findings in a function holding a suspect line or within :data:`NEAR` lines of one,
    those nearest the most suspicious lines first."""
    spans = {path: function_spans(text) for path, text in code.items()}
    kept: list[tuple[int, int, Finding]] = []
    for f in findings:
        func = enclosing_function(spans.get(f.file, []), f.line)
        best = None
        for rank, s in enumerate(suspects):
            if s.file != f.file:
                continue
            same_function = func is not None and func == s.function
            if same_function or abs(s.line - f.line) <= NEAR:
                best = rank
                break
        if best is not None:
            kept.append((best, abs(suspects[best].line - f.line), f))
    kept.sort(key=lambda k: (k[0], k[1], k[2].line, k[2].rule))
    return [f for _, _, f in kept]


def analyse(code: dict[str, str], suspects: list[Suspect]) -> StaticStage:
    """Run stage 2 on the files of ``suspects``."""
    files = list(dict.fromkeys(s.file for s in suspects if s.file.endswith(".py")))
    found: list[Finding] = []
    ran = False
    for path in files:
        got = ruff_findings(path, code.get(path, ""))
        if got is not None:
            ran = True
            found.extend(got)
    return StaticStage(
        tools=["ruff"] if ran else [],
        skipped="ruff is unavailable or failed" if files and not ran else "",
        findings=near(found, suspects, code)[:SHOWN],
        all_findings=len(found),
    )
