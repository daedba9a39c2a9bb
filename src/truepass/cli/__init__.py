"""The ``truepass`` command: the only place that parses arguments and prints.

typer and rich live only in this package; everything below it is importable without a terminal.
"""

from __future__ import annotations

import typer

from truepass.cli.build import build_app
from truepass.cli.cache import cache_app
from truepass.cli.common import import_errors
from truepass.cli.compare import compare_cmd
from truepass.cli.discovery import commands
from truepass.cli.report import report_cmd
from truepass.cli.review import review_import_cmd, review_sheet_cmd
from truepass.cli.run import estimate_cmd, judge_cmd, run_cmd
from truepass.cli.suites import check_suite_cmd, import_cmd, suites_cmd, summary_cmd
from truepass.errors import InputError

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
app.command("review-sheet")(review_sheet_cmd)
app.command("review-import")(review_import_cmd)
app.add_typer(cache_app, name="cache")
app.add_typer(build_app, name="build-suite")

_groups = {"build-suite": build_app}
with import_errors():  # a broken plug-in: one clear error, exit 2
    for _command in commands():
        if _command.group is not None and _command.group not in _groups:
            raise InputError(f"the command '{_command.name}' names no known group "
                             f"'{_command.group}' (known: {', '.join(_groups)})")  # fmt: skip
        (_groups[_command.group] if _command.group else app).command(_command.name)(
            _command.function
        )


def main() -> None:
    """Console entry point."""
    app()
