"""Stage 1: localise. The visible tests run once on the buggy code in the sandbox, with per-test
coverage (:func:`truepass.families.repair.solvers.sbfl.localise`, as ``baseline:templates``
localises); lines are
ranked by their Ochiai score, and the lines the failing tests' stack traces pass through in the
code under test are raised (the innermost most).

:func:`guess_hits` scores the guess against the suite's fault lines. It is a metric of the
stage, computed after the attempt's last model call; nothing it reads reaches a prompt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from truepass.families.repair.schema import RepairSample
from truepass.families.repair.solvers.sbfl import Localisation as SbflLocalisation
from truepass.families.repair.solvers.sbfl import SuspiciousLine
from truepass.families.repair.solvers.sbfl import localise as sbfl_localise
from truepass.families.repair.workflow.meta import Frame, GuessHits, LocalisationStage, Suspect
from truepass.metrics.localisation import Localisation, localisation
from truepass.metrics.quality import enclosing_function, function_spans
from truepass.patches.apply import unified_diff
from truepass.sandbox import Limits

INNERMOST_BOOST = 0.5
"""added to the score of the innermost frame of a failing test in the code under test"""
FRAME_BOOST = 0.25
"""added to the score of every other such frame"""
TOP = 5
"""suspect lines kept in the record and shown to the model"""

# pytest's long tracebacks end each frame with "PATH:LINE: in FUNCTION" or "PATH:LINE: ERROR"
_FRAME = re.compile(r"^(?P<path>[^\s:]+\.py):(?P<line>\d+):(?: (?P<what>.*))?$", re.MULTILINE)


@dataclass
class Stage1:
    """What stage 1 found: the typed record and the SBFL run (the pre-filter reuses it)."""

    record: LocalisationStage
    ranking: list[Suspect]
    sbfl: SbflLocalisation


def trace_frames(reports: list[str], code: dict[str, str]) -> list[Frame]:
    """Frames of the failing tests' tracebacks (pytest's failure reports) that lie in the code
    files, outermost first per report."""
    out: list[Frame] = []
    for i, text in enumerate(reports):
        for m in _FRAME.finditer(text):
            path, line = m["path"], int(m["line"])
            if path in code and 0 < line <= len(code[path].splitlines()):
                out.append(Frame(file=path, line=line, what=(m["what"] or "").strip(), report=i))
    return out


def rank(lines: list[SuspiciousLine], frames: list[Frame], code: dict[str, str]) -> list[Suspect]:
    """SBFL lines raised by the stack traces, most suspicious first (ties: SBFL order)."""
    boost: dict[tuple[str, int], float] = {}
    by_report: dict[int, list[Frame]] = {}
    for f in frames:
        by_report.setdefault(f.report, []).append(f)
    for test_frames in by_report.values():
        for i, f in enumerate(test_frames):
            add = INNERMOST_BOOST if i == len(test_frames) - 1 else FRAME_BOOST
            key = (f.file, f.line)
            boost[key] = max(boost.get(key, 0.0), add)
    order = {(s.file, s.line): i for i, s in enumerate(lines)}
    sbfl = {(s.file, s.line): s.score for s in lines}
    keys = list(order) + [k for k in boost if k not in order]
    spans = {path: function_spans(text) for path, text in code.items() if path.endswith(".py")}
    out = []
    for key in keys:
        path, n = key
        text = code.get(path, "").splitlines()
        out.append(
            Suspect(
                file=path,
                line=n,
                score=round(sbfl.get(key, 0.0) + boost.get(key, 0.0), 6),
                sbfl=round(sbfl.get(key, 0.0), 6),
                in_trace=key in boost,
                function=enclosing_function(spans.get(path, []), n),
                code=text[n - 1].strip() if 0 < n <= len(text) else "",
            )
        )
    out.sort(key=lambda s: (-s.score, order.get((s.file, s.line), len(order))))
    return out


def localise(sample: RepairSample, expected: list[str], limits: Limits) -> Stage1:
    """Run stage 1 on ``sample`` (``expected``: the visible test ids of its check)."""
    loc = sbfl_localise(sample, expected, limits, given_fault=False)
    frames = trace_frames(loc.messages, sample.files)
    ranking = rank(loc.lines, frames, sample.files)
    record = LocalisationStage(
        failing=loc.failing,
        exceptions=loc.exceptions,
        frames=frames[:20],
        suspects=ranking[:TOP],
        ranked=len(ranking),
        fallback=loc.fallback,
    )
    return Stage1(record, ranking, loc)


def guess_hits(sample: RepairSample, ranking: list[Suspect], top: int = TOP) -> GuessHits:
    """hit@file/function/line of the top line and of the top ``top`` lines against the sample's
    fault lines (:func:`truepass.metrics.localisation.localisation`, reading the guess as an
    edit of the guessed lines), and the rank of the first fault line."""
    fault = {loc.file: set(loc.lines) for loc in sample.fault}
    fault_rank = next(
        (i for i, s in enumerate(ranking, start=1) if s.line in fault.get(s.file, set())), None
    )
    return GuessHits(
        top1=_as_edit_hits(sample.files, ranking[:1], fault),
        top5=_as_edit_hits(sample.files, ranking[:top], fault),
        fault_rank=fault_rank,
    )


def _as_edit_hits(
    files: dict[str, str], suspects: list[Suspect], fault: dict[str, set[int]]
) -> Localisation | None:
    marked = dict(files)
    for s in suspects:
        lines = marked[s.file].splitlines(keepends=True)
        text = lines[s.line - 1]
        body = text.rstrip("\r\n")
        lines[s.line - 1] = body + "  # suspect" + text[len(body) :]
        marked[s.file] = "".join(lines)
    return localisation(files, unified_diff(files, marked), fault) if suspects else None
