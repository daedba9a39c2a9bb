"""The ``truepass`` command: the only place that parses arguments and prints.

typer and rich live only in this package; everything below it is importable without a terminal.

The commands are declared here (:data:`COMMANDS`: name, ``"module:function"``, help line), the
families' and plug-ins' found by :mod:`truepass.cli.discovery`, and each command's module is
imported only when that command runs (:mod:`truepass.cli.lazy`): ``truepass --help`` lists them
all without importing the runner, the models or the families.
"""

from __future__ import annotations

from typing import Any

import typer

from truepass.cli.lazy import LazyGroup
from truepass.errors import InputError
from truepass.plugins import Command

HELP = "Evaluate code-producing systems with verdicts a fake fix cannot fool."

COMMANDS = (
    Command("run", "truepass.cli.run:run_cmd", help="Run solvers on a suite; every attempt is "
            "judged in the sandbox and stored as it ends."),
    Command("judge", "truepass.cli.run:judge_cmd",
            help="Judge patches made elsewhere (the replay solver)."),
    Command("estimate", "truepass.cli.run:estimate_cmd", help="Run a few samples for real, then "
            "extrapolate tokens, cost and time to the whole suite."),
    Command("check-suite", "truepass.cli.suites:check_suite_cmd", help="Validate a suite: each "
            "sample's check passes (e.g. a repair sample's buggy code fails, its reference fix "
            "passes), the reference answer passes stably and the null answer does not."),
    Command("suites", "truepass.cli.suites:suites_cmd", help="List the bundled suites, and the "
            "public benchmarks read through adapters."),
    Command("summary", "truepass.cli.suites:summary_cmd",
            help="Print the summary table of a finished run."),
    Command("report", "truepass.cli.report:report_cmd", help="Write a self-contained HTML report "
            "of runs (opens offline), and optionally CSV/JSON."),
    Command("compare", "truepass.cli.compare:compare_cmd", help="Compare solvers sample by "
            "sample: rates with intervals, McNemar, effect size, leakage."),
    Command("import", "truepass.cli.suites:import_cmd", help="Turn a public benchmark into a "
            "suite directory (suite.jsonl + suite.toml)."),
    Command("review-sheet", "truepass.cli.review:review_sheet_cmd", help="Export a stratified "
            "sample of a run's attempts as one self-contained HTML page to label by hand."),
    Command("review-import", "truepass.cli.review:review_import_cmd", help="Import a reviewer's "
            "labels into a run: their agreement with the verdicts goes into summary.json and "
            "the report."),
)  # fmt: skip
"""The kernel's commands, in the order ``--help`` lists them; the families' and plug-ins'
follow, then :data:`LAST`."""

LAST = (
    Command("cache", "truepass.cli.cache:cache_app",
            help="Inspect or clear the model response cache."),
)  # fmt: skip

GROUPS = {
    "build-suite": "Build a suite from source code (summarize) or from earlier runs "
    "(patch-correctness)."
}
"""The groups families and plug-ins add subcommands to (``Command.group``), with their help.
Their subcommands are ``truepass build-suite NAME``."""


class TruepassGroup(LazyGroup):
    """The top-level group: :data:`COMMANDS`, the families' and plug-ins' commands, :data:`LAST`
    and the :data:`GROUPS`, all declared, none imported."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        from truepass.cli.discovery import commands

        try:
            added = commands()
            groups = {
                name: LazyGroup(name=name, help=text, no_args_is_help=True,
                                rich_markup_mode=self.rich_markup_mode)
                for name, text in GROUPS.items()
            }  # fmt: skip
            for command in added:
                if command.group is not None and command.group not in groups:
                    raise InputError(f"the command '{command.name}' names no known group "
                                     f"'{command.group}' (known: {', '.join(groups)})")  # fmt: skip
        except InputError as exc:  # a broken plug-in: one clear error, exit 2
            from truepass.cli.common import print_error

            print_error(exc)
            raise SystemExit(2) from None
        self.declare(COMMANDS)
        self.declare(c for c in added if c.group is None)
        self.declare(LAST)
        for name, group in groups.items():
            group.declare(c for c in added if c.group == name)
            self.add_group(group)


app = typer.Typer(cls=TruepassGroup, help=HELP, no_args_is_help=True, add_completion=False)


@app.callback()
def _group() -> None:
    """The commands are :class:`TruepassGroup`'s (a typer app needs a callback to be a group
    without commands of its own)."""


def main() -> None:
    """Console entry point."""
    app()
