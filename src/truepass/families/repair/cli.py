"""Commands of the repair family: ``truepass harvest`` (fresh SWE-bench-shaped instances from a
repository's history) and ``truepass envs`` (the cache of repository environments); see
docs/environments.md."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from truepass.cli.common import err_console, errors, out_console
from truepass.errors import InputError


def harvest_cmd(
    repo: Annotated[Path, typer.Argument(help="A local git clone of the repository.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory to write into (resumable).")],
    commit: Annotated[
        list[str] | None, typer.Option("--commit", "-c", help="A bug-fix commit (repeatable).")
    ] = None,
    since: Annotated[
        str | None, typer.Option(help="Commits after this date (git's --since).")
    ] = None,
    until: Annotated[
        str | None, typer.Option(help="Commits before this date (git's --until).")
    ] = None,
    grep: Annotated[
        str | None,
        typer.Option(
            help="Only commits whose message matches this regular expression, "
            "e.g. 'fix|bug' (with --since/--until)."
        ),
    ] = None,
    name: Annotated[
        str | None, typer.Option(help="The repository as owner/name (default: local/DIRNAME).")
    ] = None,
    runs: Annotated[
        int, typer.Option(min=1, help="Runs of the tests before and after each fix.")
    ] = 3,
) -> None:
    """Harvest SWE-bench-shaped instances from a repository's bug-fix commits: for each, build
    the repository's environment, run the tests the commit touches before and after the fix in
    the sandbox, keep FAIL_TO_PASS and PASS_TO_PASS, and write OUT/instances.jsonl (judge it
    with --suite swebench:OUT/instances.jsonl), OUT/repos.toml and OUT/harvest.jsonl (every
    commit, valid or not, with the reason)."""
    from truepass.families.repair.adapters.harvest import commits_between, harvest
    from truepass.suites.gitfiles import GitError

    with errors():
        if not (repo / ".git").exists() and not (repo / "HEAD").is_file():
            raise InputError("not a git repository", location=str(repo))
        try:
            shas = list(commit or []) or commits_between(repo, since, until, grep)
        except GitError as exc:
            raise InputError(str(exc), location=str(repo)) from exc
        if not shas:
            raise InputError("no commits: give --commit SHA, or --since/--until/--grep "
                             "that match some", location=str(repo))  # fmt: skip
        label = name or f"local/{repo.resolve().name}"
        started = time.monotonic()
        try:
            found = harvest(
                repo, shas, out, name=label, runs=runs,
                progress=lambda m: err_console.print(escape(m), highlight=False),
            )  # fmt: skip
        except GitError as exc:
            raise InputError(str(exc), location=str(repo)) from exc
    table = Table(title=f"harvest of {label}")
    for col in ("commit", "date", "valid", "FAIL_TO_PASS", "PASS_TO_PASS", "flaky", "reason"):
        table.add_column(col)
    for h in found:
        table.add_row(
            h.commit[:12], (h.created_at or "")[:10], "yes" if h.valid else "no",
            str(len(h.fail_to_pass)), str(len(h.pass_to_pass)), str(len(h.flaky)),
            escape(h.reason[:160]),
        )  # fmt: skip
    out_console.print(table)
    valid = sum(h.valid for h in found)
    out_console.print(
        f"{valid} of {len(found)} valid in {time.monotonic() - started:.0f} s; "
        f"instances: {escape(str(out / 'instances.jsonl'))}", highlight=False,
    )  # fmt: skip


def envs_cmd(
    prune: Annotated[
        bool, typer.Option("--prune", help="Remove unfinished environments and those below.")
    ] = False,
    unused_days: Annotated[
        float | None,
        typer.Option("--unused-days", min=0, help="With --prune: unused for this many days."),
    ] = None,
    remove: Annotated[
        list[str] | None, typer.Option("--remove", help="With --prune: this key (repeatable).")
    ] = None,
) -> None:
    """List the repositories' environments built on this machine (content-addressed, in
    $TRUEPASS_ENVS or ~/.cache/truepass/envs), or prune them."""
    from truepass.families.repair.environments.store import cached
    from truepass.families.repair.environments.store import prune as prune_envs
    from truepass.families.repair.environments.uvtool import envs_dir

    if prune:
        gone = prune_envs(unused_days=unused_days, keys=remove)
        freed = sum(g.built.size_bytes for g in gone if g.built)
        out_console.print(f"removed {len(gone)} environment(s), {freed >> 20} MiB")
        return
    entries = cached()
    table = Table(title=f"environments in {escape(str(envs_dir()))}")
    for col in ("key", "python", "from", "packages", "MiB", "built in", "last used"):
        table.add_column(col)
    for e in entries:
        used = datetime.fromtimestamp(e.last_used, UTC).strftime("%Y-%m-%d %H:%M")
        if e.built is None:
            table.add_row(e.key, "-", "unfinished build", "-", "-", "-", used)
            continue
        spec = e.built.spec
        table.add_row(
            e.key, spec.python, escape(", ".join(spec.declared) or spec.source.value),
            str(len(spec.requirements) + len(spec.build_requires)),
            str(e.built.size_bytes >> 20), f"{e.built.build_s:.1f} s", used,
        )  # fmt: skip
    out_console.print(table)
