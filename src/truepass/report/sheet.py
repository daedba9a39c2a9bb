"""The review sheet: one self-contained HTML page (inline CSS and script, nothing fetched) with
a stratified sample of a run's attempts for a person to label (issue 28, item 5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined

from truepass.analysis.agreement import LABEL_MEANING, ReviewLabel
from truepass.analysis.humanreview import SheetPlan, attempt_key
from truepass.records import AttemptRecord
from truepass.report.html import _asset, _csp, _version, write_page
from truepass.report.views import diff_lines
from truepass.vocabulary import FLAG_MEANING, VERDICT_MEANING


@dataclass
class SheetEntry:
    """One attempt as the sheet shows it."""

    number: int
    key: str
    solver: str
    sample_id: str
    attempt: int
    defect_type: str
    description: str
    diff: list[tuple[str, str]]
    changed_files: list[str]
    visible: str
    hidden: str
    failing: dict[str, list[str]]
    test_output: str
    verdict: str
    flags: list[tuple[str, str]]
    details: str


def _phase(p: object) -> str:
    if p is None:
        return "not run"
    return f"{getattr(p, 'passed', 0)}/{getattr(p, 'expected', 0)} passed"


def entry(number: int, r: AttemptRecord, description: str = "") -> SheetEntry:
    failing = {
        name: list(phase.failing)
        for name, phase in (("visible", r.visible), ("hidden", r.hidden))
        if phase is not None and phase.failing
    }
    return SheetEntry(
        number=number,
        key=attempt_key(r),
        solver=r.solver,
        sample_id=r.sample_id,
        attempt=r.attempt,
        defect_type=r.defect_type,
        description=description,
        diff=diff_lines(r.patch or ""),
        changed_files=list(r.changed_files),
        visible=_phase(r.visible),
        hidden=_phase(r.hidden),
        failing=failing,
        test_output=r.test_output or "",
        verdict=str(r.verdict),
        flags=[(f, FLAG_MEANING.get(f, "")) for f in r.flags],
        details=r.details or "",
    )


def render_sheet(
    plan: SheetPlan, records: Sequence[AttemptRecord], descriptions: Mapping[str, str]
) -> str:
    """The sheet's HTML: the plan's attempts in its order; ``descriptions`` by sample id (the
    suite's task text, when the suite could be read)."""
    by_key = {attempt_key(r): r for r in records}
    entries = [
        entry(i, by_key[k], descriptions.get(by_key[k].sample_id, ""))
        for i, k in enumerate(plan.entries, 1)
    ]
    env = Environment(
        loader=PackageLoader("truepass.report", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    script = _asset("review_sheet.js")
    return env.get_template("review_sheet.html.j2").render(
        plan=plan,
        entries=entries,
        labels=[(x.value, LABEL_MEANING[x]) for x in ReviewLabel],
        verdict_help={v.value: text for v, text in VERDICT_MEANING.items()},
        css=_asset("report.css") + _asset("review_sheet.css"),
        script=script,
        csp=_csp(script),
        version=_version(),
    )


def write_sheet(
    plan: SheetPlan,
    records: Sequence[AttemptRecord],
    out: Path,
    descriptions: Mapping[str, str] | None = None,
) -> Path:
    """Write the sheet to ``out`` (its directory is created) and return its path."""
    return write_page(out, render_sheet(plan, records, descriptions or {}), prefix=".sheet-")
