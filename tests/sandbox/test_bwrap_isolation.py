"""The bwrap tier isolates: no network, no view of the home directory or root-only files, no
writes outside the workspace, no inherited environment; the interpreter and pytest still work.

Every threat test FAILS if the threat escapes: the attack runs for real inside the sandbox and the
host is then checked. The tier is forced to ``bwrap`` (a broken bwrap raises instead of falling
back) and every payload starts with a guard that refuses to run outside a pid namespace.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import sys
import tempfile
import uuid
from pathlib import Path

import pytest
from sandbox_helpers import SMALL, new_marker, py

from truepass.errors import SandboxError
from truepass.sandbox import run_sandboxed, sandbox_tier
from truepass.sandbox import runner as sandbox_runner

REPO = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed"),
    pytest.mark.usefixtures("force_bwrap"),
]


def test_tier_is_bwrap_and_basic_run_works() -> None:
    assert sandbox_tier() == "bwrap"
    got = py(
        """
        import os, sys
        print(os.getcwd(), sorted(os.listdir('.')), open('pkg/mod.py').read())
        os.write(int(os.environ['TRUEPASS_CHANNEL_FD']), b'channel-ok')
        """,
        files={"pkg/mod.py": "X = 1\n", "data.bin": b"\x00\xff"},
    )
    assert got.tier == "bwrap"
    assert got.returncode == 0, got.stderr
    assert got.stdout.split() == ["/workspace", "['data.bin',", "'pkg']", "X", "=", "1"]
    assert got.channel == b"channel-ok"
    assert not got.timed_out and not got.output_truncated


def test_no_network_not_even_the_hosts_loopback() -> None:
    server = socket.create_server(("127.0.0.1", 0))
    server.setblocking(False)
    port = server.getsockname()[1]
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract_name = f"\0truepass-test-{uuid.uuid4().hex}"
    abstract.bind(abstract_name)
    abstract.listen()
    abstract.setblocking(False)
    try:
        got = py(
            f"""
            import socket
            def attempt(family, address):
                try:
                    s = socket.socket(family, socket.SOCK_STREAM)
                    s.settimeout(3)
                    s.connect(address)
                    return "CONNECTED"
                except OSError as exc:
                    return type(exc).__name__
            print(attempt(socket.AF_INET, ("127.0.0.1", {port})))
            print(attempt(socket.AF_INET, ("1.1.1.1", 53)))
            print(attempt(socket.AF_UNIX, {abstract_name!r}))
            """
        )
        assert got.returncode == 0, got.stderr
        assert "CONNECTED" not in got.stdout
        assert got.stdout.split()[0] == "ConnectionRefusedError"
        with pytest.raises(BlockingIOError):  # the server saw no connection at all
            server.accept()
        with pytest.raises(BlockingIOError):
            abstract.accept()
    finally:
        server.close()
        abstract.close()


def test_home_canary_and_root_only_files_are_unreadable() -> None:
    canary = Path.home() / f".truepass-canary-{uuid.uuid4().hex}"
    secret = f"SECRET-{uuid.uuid4().hex}"
    canary.write_text(secret)
    try:
        got = py(
            f"""
            import os
            for path in [{str(canary)!r}, "/etc/shadow", "/proc/1/environ"]:
                try:
                    print(path, open(path).read())
                except OSError as exc:
                    print(path, type(exc).__name__)
            print(sorted(os.listdir({str(Path.home())!r})))
            """
        )
        assert got.returncode == 0, got.stderr
        assert secret not in got.stdout + got.stderr
        lines = got.stdout.splitlines()
        assert canary.name not in lines[-1]  # not even listed
        assert lines[0].endswith(("FileNotFoundError", "PermissionError"))
        if os.geteuid() == 0:  # the candidate must not be root outside: shadow stays closed
            assert lines[1] in ("/etc/shadow PermissionError", "/etc/shadow FileNotFoundError")
    finally:
        canary.unlink()


def test_writes_outside_the_workspace_fail_and_nothing_reaches_the_host() -> None:
    name = new_marker()
    host_tmp = Path(tempfile.gettempdir())
    targets = [
        Path("/usr") / name,
        Path("/etc") / name,
        Path.home() / name,
        REPO / name,
        Path(sys.prefix) / name,
        Path("/") / name,
        host_tmp / name,  # private /tmp inside: may succeed there, must not appear here
    ]
    got = py(
        f"""
        import os
        for path in {[str(t) for t in targets]!r} + ["/workspace/{name}"]:
            try:
                with open(path, "w") as f:
                    f.write("escaped")
                print("WROTE", path)
            except OSError as exc:
                print("DENIED", path, type(exc).__name__)
        """
    )
    assert got.returncode == 0, got.stderr
    outcome = {line.split()[1]: line.split()[0] for line in got.stdout.splitlines()}
    for target in targets[:-1]:
        if target.is_relative_to(host_tmp):
            continue  # e.g. a checkout under /tmp: the private /tmp hides it; checked below
        assert outcome[str(target)] == "DENIED", got.stdout
    assert outcome[f"/workspace/{name}"] == "WROTE"
    for target in targets:
        assert not target.exists(), f"{target} appeared on the host"


def test_parent_environment_does_not_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    key = f"sk-canary-{uuid.uuid4().hex}"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    got = py(
        """
        import json, os
        leaked = []
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    leaked.append(open(f"/proc/{pid}/environ", "rb").read().decode())
                except OSError:
                    pass
        print(json.dumps({"env": dict(os.environ), "proc": leaked}))
        """,
        env={"EXTRA": "given"},
    )
    assert got.returncode == 0, got.stderr
    assert key not in got.stdout
    env = json.loads(got.stdout)["env"]
    assert "OPENAI_API_KEY" not in env
    assert env["EXTRA"] == "given" and env["HOME"] in ("/tmp", "/workspace")
    allowed = {"PATH", "HOME", "TMPDIR", "LANG", "PWD", "EXTRA", "TRUEPASS_CHANNEL_FD"}
    assert set(env) - allowed == {"PYTHONDONTWRITEBYTECODE", "PYTHONNOUSERSITE", "PYTHONHASHSEED"}


def test_workspace_is_fresh_and_discarded(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    mkdtemp = tempfile.mkdtemp

    def spy(*args: object, **kwargs: object) -> str:
        made.append(mkdtemp(*args, **kwargs))  # type: ignore[call-overload]
        return made[-1]

    monkeypatch.setattr(tempfile, "mkdtemp", spy)
    first = py("open('left-behind', 'w').write('x'); open('/tmp/also', 'w').write('x')")
    second = py("import os; print(sorted(os.listdir('.')), sorted(os.listdir('/tmp')))")
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert "left-behind" not in second.stdout and "also" not in second.stdout
    assert len(made) == 2 and not any(os.path.exists(d) for d in made)  # nothing kept


def test_ro_binds_are_readable_not_writable(tmp_path: Path) -> None:
    (tmp_path / "harness.py").write_text("VALUE = 42\n")
    tmp_path.chmod(0o755)  # the sandbox uid must be able to read it
    got = py(
        """
        import sys
        sys.path.insert(0, "/opt/harness")
        import harness
        print(harness.VALUE)
        try:
            open("/opt/harness/harness.py", "w")
        except OSError:
            print("OSError")
        """,
        ro_binds={str(tmp_path): "/opt/harness"},
    )
    assert got.stdout.split() == ["42", "OSError"], got.stderr
    assert (tmp_path / "harness.py").read_text() == "VALUE = 42\n"


def test_pytest_runs_inside() -> None:
    tests = "def test_ok():\n    assert 1 + 1 == 2\n\n\ndef test_fails():\n    assert 0\n"
    got = run_sandboxed(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_small.py"],
        {"test_small.py": tests},
        limits=SMALL,
    )
    assert got.returncode == 1, got.stdout + got.stderr
    assert "1 failed, 1 passed" in got.stdout


def test_unprivileged_variant_runs_pytest() -> None:
    """The variant used when truepass does not run as root (here exercised as root)."""
    tests = "def test_ok():\n    assert True\n"
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_u.py"]
    got = sandbox_runner._run_bwrap(
        argv, {"test_u.py": tests}, SMALL, None, {}, mode="unprivileged"
    )
    assert got.returncode == 0, got.stdout + got.stderr
    assert "1 passed" in got.stdout


def test_bwrap_that_cannot_start_raises_sandbox_error(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    with pytest.raises(SandboxError, match="bwrap failed to start"):
        py("print(1)", ro_binds={str(tmp_path): "/proc/cannot-mount-here"})


def test_unreadable_ro_bind_is_refused_up_front(tmp_path: Path) -> None:
    if sandbox_runner._bwrap_mode()[0] != "privileged":
        pytest.skip("only the privileged variant runs the candidate as another uid")
    tmp_path.chmod(0o700)
    with pytest.raises(SandboxError, match="not readable by the sandbox uid"):
        py("print(1)", ro_binds={str(tmp_path): "/opt/harness"})


def test_own_package_is_hidden_where_a_bind_would_show_it() -> None:
    """A wheel lands in the venv's site-packages, which every run binds: the bundled suites'
    hidden tests and reference fixes would be readable. Bind the package's parent directory as
    site-packages is bound: the parent shows, the package directory is empty and read-only."""
    import truepass

    package = Path(truepass.__file__).parent
    suite = package / "suites" / "bundled" / "mini" / "suite.jsonl"
    assert suite.is_file()
    parent = str(package.parent)
    got = py(
        f"""
        import os
        print("parent", {package.name!r} in os.listdir({parent!r}))
        print("package", os.listdir({str(package)!r}))
        try:
            open({str(suite)!r}).read()
            print("suite readable")
        except OSError as e:
            print("suite", type(e).__name__)
        try:
            open(os.path.join({str(package)!r}, "__init__.py"), "w").write("x = 1")
            print("package writable")
        except OSError as e:
            print("write", type(e).__name__)
        """,
        ro_binds={parent: parent},
    )
    assert got.returncode == 0, got.stderr
    assert got.stdout.splitlines() == [
        "parent True",
        "package []",
        "suite FileNotFoundError",
        "write OSError",
    ], got.stdout
