"""The ``truepass`` command: the only place that parses arguments and prints.

typer and rich live only in this package; everything below it is importable without a terminal.
"""

from __future__ import annotations

import typer

from truepass.cli.build import build_app
from truepass.cli.cache import cache_app
from truepass.cli.compare import compare_cmd
from truepass.cli.report import report_cmd
from truepass.cli.run import estimate_cmd, judge_cmd, run_cmd
from truepass.cli.suites import check_suite_cmd, import_cmd, suites_cmd, summary_cmd
from truepass.families.codegen.cli_explain import explain_cmd
from truepass.families.codegen.cli_harden import harden_cmd
from truepass.families.rebuild.cli import build_rebuild_cmd

app = typer.Typer(
    help="Evaluate code-producing systems with verdicts a fake fix cannot fool.",
    no_args_is_help=True,
    add_completion=False,
)
app.command("run")(run_cmd)
app.command("judge")(judge_cmd)
app.command("estimate")(estimate_cmd)
app.command("check-suite")(check_suite_cmd)
app.command("suites")(suites_cmd)
app.command("summary")(summary_cmd)
app.command("report")(report_cmd)
app.command("compare")(compare_cmd)
app.command("import")(import_cmd)
app.command("harden")(harden_cmd)
app.command("explain")(explain_cmd)
app.command("build-rebuild")(build_rebuild_cmd)
app.add_typer(cache_app, name="cache")
app.add_typer(build_app, name="build-suite")


def main() -> None:
    """Console entry point."""
    app()
