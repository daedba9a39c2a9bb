"""Human review commands: review-sheet (export a stratified sample of a run's attempts as one
HTML page to label) and review-import (read the labels back; their agreement with truepass's
verdicts goes into summary.json and the report)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from truepass.cli.common import errors, out_console
from truepass.errors import InputError

RunArg = Annotated[Path, typer.Argument(help="A finished run directory.", metavar="RUN_DIR")]
SheetOutOpt = Annotated[Path, typer.Option("--out", "-o", help="The HTML sheet to write.")]
SizeOpt = Annotated[
    int | None,
    typer.Option("--size", min=1, help="Attempts on the sheet (at least one per stratum)."),
]
ShareOpt = Annotated[
    float | None,
    typer.Option(
        "--share",
        min=0.0001,
        max=1.0,
        help="Share of the run's counted attempts on "
        "the sheet (default 0.4, as seed 001 reviewed).",
    ),
]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed of the draw (same seed, same sheet).")]
ShowOpt = Annotated[
    bool,
    typer.Option(
        "--show-verdicts/--hide-verdicts",
        help="Show truepass's verdicts, flags and "
        "details on the sheet (default: hidden, so that they do not anchor the "
        "reviewer).",
    ),
]
LabelsArg = Annotated[
    Path, typer.Argument(help="The labels file the sheet downloaded.", metavar="LABELS_JSON")
]


def _manifest(run_dir: Path) -> dict[str, Any]:
    path = run_dir / "manifest.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON ({exc.msg})", location=str(path)) from None
    return data if isinstance(data, dict) else {}


def _suite_hash(manifest: dict[str, Any]) -> str:
    suite = manifest.get("suite")
    return str(suite.get("content_hash") or "") if isinstance(suite, dict) else ""


def _descriptions(manifest: dict[str, Any]) -> tuple[dict[str, str], str]:
    """The samples' task texts (``description``) from the run's suite, and a note when the suite
    cannot be read where the manifest says it is."""
    from truepass.suites.loader import load_suite

    suite = manifest.get("suite")
    path = suite.get("path") if isinstance(suite, dict) else None
    if not path:
        return {}, "the manifest names no suite: the sheet shows no task descriptions"
    try:
        loaded = load_suite(str(path))
    except InputError as exc:
        return {}, f"the suite could not be read ({exc}): the sheet shows no task descriptions"
    out = {}
    for s in loaded.samples:
        text = getattr(s, "description", None)
        if isinstance(text, str) and text:
            out[s.id] = text
    return out, ""


def review_sheet_cmd(
    run_dir: RunArg,
    out: SheetOutOpt = Path("sheet.html"),
    size: SizeOpt = None,
    share: ShareOpt = None,
    seed: SeedOpt = 0,
    show_verdicts: ShowOpt = False,
) -> None:
    """Export a stratified sample of a run's attempts as one self-contained HTML page to label
    by hand.

    Strata: verdict, fake-fix flag and solver; a person labels each attempt on the page and
    downloads the labels for review-import."""
    from truepass.analysis.humanreview import plan_sheet, save_plan
    from truepass.records import read_results
    from truepass.report.sheet import write_sheet

    with errors():
        records = read_results(run_dir)
        manifest = _manifest(run_dir)
        plan = plan_sheet(
            records, run=run_dir.resolve().name, suite_hash=_suite_hash(manifest), size=size,
            share=share, seed=seed, show_verdicts=show_verdicts,
        )  # fmt: skip
        descriptions, note = _descriptions(manifest)
        saved = save_plan(run_dir, plan)
        path = write_sheet(plan, records, out, descriptions)
    if note:
        out_console.print(f"note: {escape(note)}", highlight=False)
    strata = sum(1 for s in plan.strata if s.size)
    out_console.print(
        f"sheet {plan.sheet_id}: {len(plan.entries)} of {plan.population} counted attempts "
        f"({strata} strata; asked {plan.requested}); {escape(str(path))} (plan: "
        f"{escape(str(saved))})",
        highlight=False,
    )


def review_import_cmd(
    run_dir: RunArg,
    labels: LabelsArg,
) -> None:
    """Import a reviewer's labels into a run: their agreement with the verdicts goes into
    summary.json and the report."""
    from truepass.analysis.humanreview import import_labels, run_agreement
    from truepass.analysis.summary import Summary
    from truepass.cli.tables import print_agreement
    from truepass.records import read_results
    from truepass.report import write_report

    with errors():
        records = read_results(run_dir)
        manifest = _manifest(run_dir)
        stored = import_labels(run_dir, labels, records, _suite_hash(manifest))
        found = run_agreement(run_dir, records)
        summary_path = run_dir / "summary.json"
        if summary_path.is_file() and found is not None:
            summary = Summary.model_validate(json.loads(summary_path.read_text(encoding="utf-8")))
            summary.review = found
            tmp = summary_path.with_suffix(".tmp")
            tmp.write_text(json.dumps(summary.model_dump(mode="json"), indent=2) + "\n",
                           encoding="utf-8")  # fmt: skip
            tmp.replace(summary_path)
        report = write_report([run_dir], run_dir / "report.html", records={run_dir: records})
    out_console.print(f"labels stored: {escape(str(stored))}", highlight=False)
    if found is not None:
        print_agreement(found)
    out_console.print(f"report: {escape(str(report))}", highlight=False)
