"""Tier selection, and the weaker ``rlimits-only`` tier (forced through TRUEPASS_SANDBOX) for the
threats it can contain: the timeout, the environment, output caps, address space.

The payloads here are harmless on purpose: this tier may run them on the host itself.
"""

from __future__ import annotations

import json
import os
import socket
import uuid
from pathlib import Path

import pytest
from sandbox_helpers import SMALL, new_marker, processes_with, py

from truepass.errors import SandboxError
from truepass.sandbox import run_sandboxed, sandbox_tier
from truepass.sandbox import runner as sandbox_runner


@pytest.fixture
def fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUEPASS_SANDBOX", "rlimits-only")


def test_forcing_a_missing_bwrap_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUEPASS_SANDBOX", "bwrap")
    monkeypatch.setattr(sandbox_runner, "tool", lambda name: None)
    sandbox_runner._bwrap_mode.cache_clear()
    try:
        with pytest.raises(SandboxError, match="apt-get install bubblewrap"):
            sandbox_tier()
    finally:
        monkeypatch.undo()
        sandbox_runner._bwrap_mode.cache_clear()


def test_unknown_forced_tier_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUEPASS_SANDBOX", "docker")
    with pytest.raises(SandboxError, match="TRUEPASS_SANDBOX"):
        sandbox_tier()


def test_bad_workspace_paths_are_rejected() -> None:
    for bad in ("/etc/passwd", "../escape", ""):
        with pytest.raises(SandboxError):
            run_sandboxed(["true"], {bad: "x"}, limits=SMALL)


@pytest.mark.usefixtures("fallback")
def test_fallback_reports_its_tier_and_warns_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(sandbox_runner, "_warned", False)
    with caplog.at_level("WARNING"):
        assert sandbox_tier() == "rlimits-only"
        got = py("import os; print(os.path.exists('mod.py'))", files={"mod.py": "x"}, guard=False)
        sandbox_tier()
    assert got.tier == "rlimits-only"
    assert got.returncode == 0 and got.stdout.strip() == "True"
    warnings = [r for r in caplog.records if "SANDBOX IS WEAK" in r.getMessage()]
    assert len(warnings) == 1 and "bubblewrap" in warnings[0].getMessage()


@pytest.mark.usefixtures("fallback")
def test_fallback_kills_at_timeout_including_detached_children() -> None:
    marker = new_marker()
    limits = SMALL.model_copy(update={"timeout_s": 2.0})
    got = py(
        """
        import signal, subprocess, sys
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", sys.argv[1]],
                         start_new_session=True, stdout=subprocess.DEVNULL)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print("looping", flush=True)
        while True:
            pass
        """,
        limits=limits,
        marker=marker,
        guard=False,
    )
    assert got.tier == "rlimits-only"
    assert got.timed_out and got.returncode is None
    assert got.stdout == "looping\n"
    assert 2.0 <= got.duration_s < 6.0
    assert processes_with(marker) == []


@pytest.mark.usefixtures("fallback")
def test_fallback_scrubs_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    key = f"sk-canary-{uuid.uuid4().hex}"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    got = py("import json, os; print(json.dumps(dict(os.environ)))", guard=False)
    env = json.loads(got.stdout)
    assert "OPENAI_API_KEY" not in env and key not in got.stdout
    assert env["PYTHONHASHSEED"] == "0" and "TRUEPASS_CHANNEL_FD" in env
    assert os.environ["OPENAI_API_KEY"] == key  # the caller's own environment is untouched


@pytest.mark.usefixtures("fallback")
def test_fallback_caps_output_and_keeps_the_channel() -> None:
    limits = SMALL.model_copy(update={"output_bytes": 50_000})
    got = py(
        """
        import os, sys
        os.write(int(os.environ["TRUEPASS_CHANNEL_FD"]), b"result")
        for _ in range(20):
            sys.stdout.buffer.write(b"y" * (1 << 20))
        """,
        limits=limits,
        guard=False,
    )
    assert got.returncode == 0
    assert got.output_truncated and len(got.stdout) == 50_000
    assert got.channel == b"result"


@pytest.mark.usefixtures("fallback")
def test_fallback_limits_address_space() -> None:
    got = py("bytearray(10 * 1024**3)", guard=False)
    assert got.returncode != 0 and "MemoryError" in got.stderr


@pytest.mark.usefixtures("fallback")
def test_fallback_as_root_gets_pid_and_network_namespaces() -> None:
    from truepass.sandbox.fallback import namespaces

    if os.geteuid() != 0 or not namespaces():
        pytest.skip("namespaces are only added for root where unshare works")
    server = socket.create_server(("127.0.0.1", 0))
    server.setblocking(False)
    try:
        got = py(  # the guard makes this refuse to run unless it is in its own pid namespace
            f"""
            import os, signal, socket
            try:
                socket.create_connection(("127.0.0.1", {server.getsockname()[1]}), timeout=3)
                print("CONNECTED")
            except OSError as exc:
                print(type(exc).__name__)
            try:
                os.kill(-1, signal.SIGKILL)  # as root: every process it can see (its own ns)
            except ProcessLookupError:
                pass  # nothing else to kill in there
            print("alive, ppid", os.getppid())
            """
        )
        assert got.returncode == 0, got.stderr
        assert "CONNECTED" not in got.stdout and "alive, ppid 1" in got.stdout
        with pytest.raises(BlockingIOError):
            server.accept()
    finally:
        server.close()


def test_remove_tree_never_touches_the_parent(tmp_path: Path) -> None:
    """Two processes clearing the same stale run directory: the loser's rmtree fails on the
    directory itself, and must not chmod its parent (that once made /tmp 0700, locking the
    sandbox uid out of every later run)."""
    from truepass.sandbox.execution import remove_tree

    parent = tmp_path / "tmp"
    parent.mkdir(mode=0o777)
    parent.chmod(0o1777)
    remove_tree(parent / "truepass-sb-1-gone")  # already removed by the other process
    tree = parent / "truepass-sb-2-x"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "f").write_text("x")
    (tree / "sub").chmod(0o500)
    remove_tree(tree)
    assert not tree.exists()
    assert parent.stat().st_mode & 0o7777 == 0o1777
