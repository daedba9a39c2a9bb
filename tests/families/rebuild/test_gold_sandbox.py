"""The gold as an agent's sandbox shows it: runnable at /opt/gold, not readable, copyable or
traceable; its installed paths hold a tripwire; the docs come from this machine."""

from __future__ import annotations

from pathlib import Path

from rebuild_tasks import needs_rev, rev_task

from truepass.families.rebuild.agent import DOCS_FILE, rebuild_agent_task
from truepass.families.rebuild.gold import TRIPWIRE_MARK, documentation, installed_paths
from truepass.sandbox.session import SandboxSession


def test_the_gold_runs_but_cannot_be_read_copied_or_traced() -> None:
    needs_rev()
    task = rebuild_agent_task(rev_task())
    assert task.files[DOCS_FILE].startswith("$ rev --help")
    with SandboxSession(task.files, ro_binds=task.ro_binds) as s:
        ran = s.run("printf 'abc\\n' | /opt/gold/rev")
        assert (ran.exit_code, ran.stdout) == (0, "cba\n")
        for command in ("cat /opt/gold/rev", "cp /opt/gold/rev copy", "od -c /opt/gold/rev"):
            denied = s.run(command)
            assert denied.exit_code != 0 and "Permission denied" in denied.stderr, command
        traced = s.run(
            "(sleep 3 | /opt/gold/rev) & sleep 0.5; pid=$(pgrep -x rev); "
            "cat /proc/$pid/maps; head -c 4 /proc/$pid/exe; "
            "python3 -c \"import sys; open('/proc/%s/mem' % sys.argv[1], 'rb')\" $pid"
        )
        assert traced.stdout == ""
        assert traced.stderr.count("Permission denied") >= 3, traced.stderr
        for path in installed_paths(rev_task()):
            wired = s.run(f"{path} < /dev/null")
            assert wired.exit_code == 127 and TRIPWIRE_MARK in wired.stderr
        assert s.list_files() == [DOCS_FILE]


def test_the_documentation_is_the_help_text_and_the_man_page() -> None:
    needs_rev()
    docs = documentation(rev_task())
    assert "Usage:" in docs and "rev [options]" in docs
    assert "$ man rev" in docs and "reverse lines characterwise" in docs


def test_an_installed_truepass_hides_its_bundled_suites_from_the_sandbox() -> None:
    """Where truepass lies in the interpreter's tree (an installed, not editable, package), the
    sandbox binds that tree: the bundled tasks, hidden tests and all, must not show there. The
    sandbox covers the package for every family (the agent's session here)."""
    needs_rev()
    from truepass.suites.loader import bundled_dir

    package = Path(bundled_dir()).resolve().parents[1]  # .../truepass
    parent = str(package.parent)
    listing = f"ls -A {parent} {package} {Path(bundled_dir()).resolve()}"
    with SandboxSession(ro_binds={parent: parent}) as s:
        seen = s.run(listing)
    assert package.name in seen.stdout  # the tree is bound...
    assert "rebuild-mini" not in seen.stdout and "No such file" in seen.stderr  # ...not the tasks
