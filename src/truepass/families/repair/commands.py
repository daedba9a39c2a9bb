"""Repair's commands, declared without importing them (``truepass --help`` stays quick):
``truepass harvest`` and ``truepass envs`` (docs/environments.md)."""

from __future__ import annotations

from truepass.plugins import Command

COMMANDS = (
    Command("harvest", "truepass.families.repair.cli:harvest_cmd", help="Harvest "
            "SWE-bench-shaped instances from a repository's bug-fix commits: for each, build "
            "the repository's environment, run the tests the commit touches before and after "
            "the fix in the sandbox, keep FAIL_TO_PASS and PASS_TO_PASS, and write "
            "OUT/instances.jsonl (judge it with --suite swebench:OUT/instances.jsonl), "
            "OUT/repos.toml and OUT/harvest.jsonl (every commit, valid or not, with the "
            "reason)."),
    Command("envs", "truepass.families.repair.cli:envs_cmd", help="List the repositories' "
            "environments built on this machine (content-addressed, in $TRUEPASS_ENVS or "
            "~/.cache/truepass/envs), or prune them."),
)  # fmt: skip
