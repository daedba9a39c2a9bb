"""SandboxSession: a workspace that persists across commands, each run in a fresh sandbox.

Every tier the machine offers is exercised: ``bwrap`` (privileged when root), its unprivileged
variant (forced, as ``test_bwrap_isolation`` does) and the weaker ``rlimits-only`` fallback
(forced through TRUEPASS_SANDBOX). Threat tests FAIL if the threat escapes: the attack runs for
real and the host is checked afterwards; then the same session must still work. Destructive
payloads (the fork bomb) run in the bwrap tier only, behind a guard that refuses to run outside a
pid namespace; the fallback only gets the threats it contains (see ``fallback.py``).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sandbox_helpers import HOST_PIDNS, SMALL, new_marker, processes_with

from truepass.errors import SandboxError
from truepass.patches.apply import apply_diff
from truepass.sandbox import Limits, runner
from truepass.sandbox.fallback import namespaces
from truepass.sandbox.session import SandboxSession, WorkspaceError, clip

REPO = Path(__file__).resolve().parents[2]
HAS_BWRAP = shutil.which("bwrap") is not None
TIERS = [
    pytest.param("bwrap", marks=pytest.mark.skipif(not HAS_BWRAP, reason="no bubblewrap")),
    pytest.param(
        "bwrap-unprivileged", marks=pytest.mark.skipif(not HAS_BWRAP, reason="no bubblewrap")
    ),
    "rlimits-only",
]
# a destructive command refuses to run unless it is in a pid namespace of its own
GUARD = f'[ "$(readlink /proc/self/ns/pid)" != "{HOST_PIDNS}" ] || exit 97\n'

Factory = Callable[..., SandboxSession]


@pytest.fixture(params=TIERS)
def tier(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    name: str = request.param
    monkeypatch.setenv("TRUEPASS_SANDBOX", "rlimits-only" if name == "rlimits-only" else "bwrap")
    if name == "bwrap-unprivileged":
        monkeypatch.setattr(runner, "bwrap_mode", lambda: "unprivileged")
    monkeypatch.setattr(runner, "_warned", True)  # the fallback's warning is tested elsewhere
    return name


@pytest.fixture
def make(tier: str) -> Iterator[Factory]:
    """Opens sessions in the tier under test and closes whatever the test left open."""
    opened: list[SandboxSession] = []

    def factory(files: dict[str, str | bytes] | None = None, **kwargs: object) -> SandboxSession:
        kwargs.setdefault("limits", SMALL)
        session = SandboxSession(files, **kwargs)  # type: ignore[arg-type]
        opened.append(session)
        assert session.tier == ("rlimits-only" if tier == "rlimits-only" else "bwrap")
        return session

    yield factory
    for session in opened:
        session.close()


def _disk_capped(session: SandboxSession) -> bool:
    return session.tier == "bwrap" or session._holder is not None


def test_state_persists_across_commands(make: Factory) -> None:
    s = make({"pkg/mod.py": "X = 1\n", "notes.txt": "start\n"})
    first = s.run("echo made > made.txt && mkdir -p deep/er && echo inner > deep/er/f.txt")
    assert first.exit_code == 0, first.stderr
    second = s.run("cat made.txt deep/er/f.txt notes.txt && pwd")
    assert second.exit_code == 0, second.stderr
    assert second.stdout_full.splitlines() == ["made", "inner", "start", s.workdir]
    assert s.read_file("made.txt") == "made\n"

    s.write_file("pkg/mod.py", "X = 2\n")
    s.write_file("new/dir/data.txt", "from the trusted side\n")
    got = s.run("python -c 'import pkg.mod; print(pkg.mod.X)' && cat new/dir/data.txt")
    assert got.exit_code == 0, got.stderr
    assert got.stdout_full == "2\nfrom the trusted side\n"
    # the sandboxed user may change what the trusted side wrote
    edit = s.run("echo appended >> pkg/mod.py && echo more > new/dir/more.txt")
    assert edit.exit_code == 0, edit.stderr
    assert s.read_file("pkg/mod.py") == "X = 2\nappended\n"
    assert s.list_files() == [
        "deep/er/f.txt", "made.txt", "new/dir/data.txt", "new/dir/more.txt", "notes.txt",
        "pkg/mod.py",
    ]  # fmt: skip


def test_each_command_gets_a_fresh_tmp(make: Factory) -> None:
    s = make()
    assert s.run("echo left > $TMPDIR/left && echo w > kept").exit_code == 0
    got = s.run("ls -A $TMPDIR; cat kept")
    assert got.exit_code == 0, got.stderr
    # what the previous command left in /tmp is gone (read-only binds of a checkout that lives
    # under /tmp, such as the venv of a clone in /tmp/ci, show up as their mount points)
    *listed, kept = got.stdout_full.splitlines()
    assert kept == "w" and "left" not in listed


def test_a_tmpdir_swapped_for_a_symlink_is_not_followed(make: Factory, tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    victim.chmod(0o751)
    (victim / "keep").write_text("keep")
    s = make()
    s.run(f'rm -rf "$TMPDIR"; ln -s {victim} "$TMPDIR"; echo x > /dev/null')
    assert (victim / "keep").read_text() == "keep"
    assert victim.stat().st_mode & 0o7777 == 0o751
    assert s.run("echo x > $TMPDIR/y && cat $TMPDIR/y").stdout_full == "x\n"
    assert not (victim / "y").exists()


def test_observation_reports_exit_code_streams_and_truncation(make: Factory) -> None:
    limits = SMALL.model_copy(update={"output_bytes": 5000})
    s = make(limits=limits, display_chars=100)
    failed = s.run("echo out; echo err >&2; exit 3")
    assert (failed.exit_code, failed.stdout, failed.stderr) == (3, "out\n", "err\n")
    assert not failed.truncated and not failed.output_capped and not failed.timed_out

    long = s.run("python -c \"print('a' * 60 + 'b' * 940, end='')\"")
    assert long.stdout_full == "a" * 60 + "b" * 940
    assert long.truncated and not long.output_capped
    assert long.stdout.startswith("a" * 50) and long.stdout.endswith("b" * 50)
    assert "900 characters omitted" in long.stdout and len(long.stdout) < 200

    flood = s.run("python -c \"print('x' * 100000)\"")
    assert flood.output_capped and len(flood.stdout_full) == 5000


def test_clip_keeps_head_and_tail() -> None:
    assert clip("abc", 3) == ("abc", False)
    text, cut = clip("0123456789", 4)
    assert cut and text == "01\n[... 6 characters omitted ...]\n89"


def test_a_timeout_is_reported_and_the_session_goes_on(make: Factory) -> None:
    s = make()
    got = s.run("echo before > state; echo started; sleep 30", timeout_s=1.0)
    assert got.timed_out and got.exit_code is None
    assert got.stdout_full == "started\n"
    after = s.run("cat state")
    assert after.exit_code == 0 and after.stdout_full == "before\n"
    assert not after.timed_out


def test_no_process_survives_its_command(make: Factory) -> None:
    s = make()
    seconds = f"1000.{uuid.uuid4().int % 10**8:08d}"  # a unique command line to look for
    got = s.run(f"sleep {seconds} & setsid sleep {seconds} & nohup sleep {seconds} & echo bg")
    assert got.exit_code == 0, got.stderr
    assert got.stdout_full == "bg\n"
    assert processes_with(seconds) == []
    assert s.run("echo next").stdout_full == "next\n"


def test_no_network(make: Factory) -> None:
    s = make()
    if s.tier == "rlimits-only" and not namespaces():
        pytest.skip("the rlimits-only tier isolates the network only as root with unshare")
    server = socket.create_server(("127.0.0.1", 0))
    server.setblocking(False)
    port = server.getsockname()[1]
    try:
        code = (
            "import socket\n"
            "try:\n"
            f"    socket.create_connection(('127.0.0.1', {port}), timeout=3)\n"
            "    print('CONNECTED')\n"
            "except OSError as exc:\n"
            "    print(type(exc).__name__)\n"
        )
        s.write_file("net.py", code)
        got = s.run("python net.py")
        assert got.exit_code == 0, got.stderr
        assert "CONNECTED" not in got.stdout_full and got.stdout_full.strip()
        with pytest.raises(BlockingIOError):
            server.accept()
    finally:
        server.close()
    assert s.run("echo still").stdout_full == "still\n"


@pytest.mark.parametrize("tier", TIERS[:2], indirect=True)
def test_nothing_outside_the_workspace_is_visible_or_writable(make: Factory) -> None:
    secret = f"canary-{uuid.uuid4().hex}"
    canary = Path.home() / f".truepass-canary-{uuid.uuid4().hex}"
    canary.write_text(secret)
    target = REPO / f"pwned-{uuid.uuid4().hex}"
    try:
        s = make()
        got = s.run(
            f"cat {canary}; ls -A {Path.home()}; ls {REPO}; cat {REPO}/pyproject.toml; "
            f"echo x > {target}; echo x > /etc/pwned; echo done"
        )
        assert secret not in got.stdout_full
        assert canary.name not in got.stdout_full
        assert "pyproject.toml" not in got.stdout_full and "[project]" not in got.stdout_full
        assert got.stdout_full.endswith("done\n")
        assert not target.exists() and not Path("/etc/pwned").exists()
        assert s.run("echo fine > here && cat here").stdout_full == "fine\n"
    finally:
        canary.unlink()


def test_trusted_tools_refuse_paths_and_symlinks_out_of_the_workspace(make: Factory) -> None:
    s = make({"a.txt": "inside\n", "sub/b.txt": "b\n"})
    passwd = Path("/etc/passwd").read_bytes()
    made = s.run(
        "ln -s /etc/passwd leak && ln -s ../../../../../../../../etc/passwd sub/rel && "
        f"ln -s / rootdir && ln -s a.txt good && ln -s {s.workdir}/sub/b.txt goodabs && "
        "ln -s sub subdir && ln -s loop1 loop2 && ln -s loop2 loop1 && mkfifo fifo"
    )
    assert made.exit_code == 0, made.stderr
    for bad in ("leak", "sub/rel", "rootdir/etc/passwd", "subdir/rel", "loop1"):
        with pytest.raises(WorkspaceError):
            s.read_file(bad)
        with pytest.raises(WorkspaceError):
            s.write_file(bad, "pwned\n")
    for bad in ("/etc/passwd", "../a.txt", "sub/../../a.txt", "", ".", "a\0b"):
        with pytest.raises(WorkspaceError):
            s.read_file(bad)
        with pytest.raises(WorkspaceError):
            s.write_file(bad, "pwned\n")
    with pytest.raises(WorkspaceError, match="not a regular file"):
        s.read_file("fifo")  # and does not block on it
    assert Path("/etc/passwd").read_bytes() == passwd
    # symlinks that stay inside are followed
    assert s.read_file("good") == "inside\n"
    assert s.read_file("goodabs") == "b\n"
    assert s.read_file("subdir/b.txt") == "b\n"
    s.write_file("subdir/c.txt", "via link\n")
    assert s.read_file("sub/c.txt") == "via link\n"
    # walks neither follow nor list links
    assert s.list_files() == ["a.txt", "sub/b.txt", "sub/c.txt"]
    assert s.snapshot() == {"a.txt": "inside\n", "sub/b.txt": "b\n", "sub/c.txt": "via link\n"}
    assert s.run("cat sub/c.txt").stdout_full == "via link\n"


def test_write_file_replaces_rather_than_writing_through_a_hard_link(make: Factory) -> None:
    s = make({"orig.txt": "original\n"})
    assert s.run("ln orig.txt hard.txt").exit_code == 0
    s.write_file("hard.txt", "replaced\n")
    assert s.read_file("orig.txt") == "original\n"
    assert s.read_file("hard.txt") == "replaced\n"


def test_filling_the_disk_fails_the_command_and_the_session_goes_on(make: Factory) -> None:
    limits = SMALL.model_copy(update={"disk_mb": 16, "file_size_mb": 64})
    s = make({"keep.txt": "kept\n"}, limits=limits)
    if not _disk_capped(s):
        pytest.skip("the rlimits-only tier caps disk use only as root (see fallback.py)")
    before = shutil.disk_usage(tempfile.gettempdir()).free
    # bounded (64 MB) so that a broken cap could never fill the host
    got = s.run("dd if=/dev/zero of=fill bs=1M count=64")
    after = shutil.disk_usage(tempfile.gettempdir()).free
    assert got.exit_code != 0
    assert "No space left on device" in got.stderr_full
    assert before - after < 32 * 1024 * 1024  # other writers' noise allowed for
    with pytest.raises(OSError):
        s.write_file("more.txt", "x" * (1 << 20))  # the workspace really is full
    again = s.run("ls; rm fill && echo ok > after.txt && cat after.txt keep.txt")
    assert again.exit_code == 0, again.stderr
    assert again.stdout_full.endswith("ok\nkept\n")
    s.write_file("more.txt", "x" * (1 << 20))
    # a full /tmp is gone with its command
    assert s.run("dd if=/dev/zero of=$TMPDIR/fill bs=1M count=64").exit_code != 0
    assert s.run("dd if=/dev/zero of=big bs=1M count=4").exit_code == 0


@pytest.mark.parametrize("tier", TIERS[:2], indirect=True)
def test_a_fork_bomb_hits_the_process_limit_and_the_session_goes_on(make: Factory) -> None:
    marker = new_marker()
    limits = SMALL.model_copy(update={"timeout_s": 5.0, "max_processes": 40})
    s = make(limits=limits)
    got = s.run(f"# {marker}\n{GUARD}bomb() {{ bomb | bomb & }}; bomb; sleep 3; echo survived")
    assert got.exit_code != 97, "the guard found no pid namespace"
    assert "fork" in got.stderr_full.lower() or got.timed_out, got.stderr_full[-500:]
    assert processes_with(marker) == []
    assert subprocess.run(["true"], timeout=10).returncode == 0  # the host can still fork
    assert s.run("echo alive").stdout_full == "alive\n"


def test_diff_shows_exactly_the_edits(make: Factory) -> None:
    files: dict[str, str | bytes] = {
        "calc.py": "def add(a, b):\n    return a - b\n",
        "old.txt": "to be removed\n",
        "same.txt": "unchanged\n",
        "blob.bin": b"\x00\x01binary",
    }
    s = make(files)
    assert s.diff() == ""
    edit = s.run(
        "sed -i 's/a - b/a + b/' calc.py && rm old.txt && printf 'new\\n' > new.txt && "
        "mkdir __pycache__ && echo junk > __pycache__/calc.txt && printf '\\000\\002' > blob.bin"
    )
    assert edit.exit_code == 0, edit.stderr
    s.write_file("same.txt", "unchanged\n")  # rewritten identically: not an edit
    diff = s.diff()
    assert diff == (
        "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n"
        "-    return a - b\n+    return a + b\n"
        "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+new\n"
        "--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-to be removed\n"
    )
    start = {k: v for k, v in files.items() if isinstance(v, str)}
    expected = {
        "calc.py": "def add(a, b):\n    return a + b\n",
        "new.txt": "new\n",
        "same.txt": "unchanged\n",
    }
    assert s.snapshot() == expected
    assert apply_diff(start, diff) == expected


def test_starting_paths_are_normalised(make: Factory) -> None:
    s = make({"./a.txt": "a\n", "d//b.txt": "b\n"})
    assert s.list_files() == ["a.txt", "d/b.txt"]
    assert s.diff() == ""


def test_snapshot_is_bounded(make: Factory) -> None:
    s = make({"a.txt": "a" * 600, "b.txt": "b" * 600, "c.txt": "c" * 300}, snapshot_bytes=1000)
    assert s.snapshot() == {"a.txt": "a" * 600, "c.txt": "c" * 300}


def test_close_removes_the_workspace_even_after_an_exception(make: Factory) -> None:
    with pytest.raises(RuntimeError), make({"f.txt": "x"}) as s:
        assert s.run("echo more > g.txt").exit_code == 0
        run_dir = s._run_dir
        holder = s._holder.pid if s._holder is not None else None
        raise RuntimeError("the agent loop failed")
    assert s.closed and not run_dir.exists()
    if holder is not None:
        assert not Path(f"/proc/{holder}").exists()
    with pytest.raises(SandboxError, match="closed"):
        s.run("true")
    s.close()  # idempotent


def _own_run_dirs() -> list[str]:
    mine = f"-{os.getpid()}-"
    return [n for n in os.listdir(tempfile.gettempdir()) if n.startswith("truepass-") and mine in n]


def test_bad_starting_files_are_refused(make: Factory) -> None:
    assert _own_run_dirs() == []
    for bad in ("/etc/passwd", "../escape", ""):
        with pytest.raises(SandboxError):
            make({bad: "x"})
    with pytest.raises(SandboxError):
        make({"big": "x" * (2 << 20)}, limits=Limits(disk_mb=1))
    assert _own_run_dirs() == []
