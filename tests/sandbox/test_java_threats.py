"""The sandbox's threat tests with Java candidates (issue 18): the attack is the code under
test, called by a JUnit test that passes when the attack was contained; a second test in the
same class shows that the run went on. Every run goes through the real Java runner."""

from __future__ import annotations

import os
import socket
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from tests.families.repair.java_helpers import SMALL, TEST, calc, ids, junit
from tests.sandbox.sandbox_helpers import new_marker, processes_with
from truepass.families.repair import javarun
from truepass.families.repair.javarun import run_java_tests
from truepass.sandbox.testrun import TestRun

pytestmark = pytest.mark.skipif(
    not all(map(os.path.exists, javarun.JUNIT_JARS)) or not javarun.shutil.which("javac"),
    reason="needs a JDK and JUnit 4 (make system-deps installs them)",
)

TESTS = junit(
    """\
    @Test public void contained() { assertEquals("contained", Calc.attack()); }
    @Test public void alive() { assertEquals(4, 2 + 2); }
    """
)


def attack(body: str) -> TestRun:
    """Run ``static String attack()`` (``body``) as the code under test."""
    code = calc(f"static String attack() {{\n    guard();\n{body}\n}}")
    return run_java_tests(code, TESTS, limits=SMALL)


def assert_contained(run: TestRun) -> None:
    assert run.finished, run.output
    assert run.passed == ids("contained", "alive"), run.messages


def test_no_network_not_even_the_hosts_loopback() -> None:
    server = socket.create_server(("127.0.0.1", 0))
    server.setblocking(False)
    port = server.getsockname()[1]
    try:
        run = attack(
            f"""\
            for (String host : new String[] {{"127.0.0.1", "1.1.1.1"}}) {{
                try (java.net.Socket s = new java.net.Socket()) {{
                    s.connect(new java.net.InetSocketAddress(host, {port}), 2000);
                    return "connected to " + host;
                }} catch (java.io.IOException e) {{
                    // refused or unreachable: contained
                }}
            }}
            return "contained";
            """
        )
        assert_contained(run)
        with pytest.raises(BlockingIOError):  # the server saw no connection at all
            server.accept()
    finally:
        server.close()


def test_files_outside_the_workspace_are_unreadable_and_unwritable() -> None:
    canary = Path.home() / f".truepass-canary-{uuid.uuid4().hex}"
    canary.write_text("SECRET")
    name = new_marker()
    host_tmp = Path(tempfile.gettempdir()) / name
    try:
        run = attack(
            f"""\
            try {{
                String s = java.nio.file.Files.readString(java.nio.file.Paths.get("{canary}"));
                return "read the canary: " + s;
            }} catch (java.io.IOException e) {{ }}
            String[] targets = {{"/usr/{name}", "/etc/{name}", "{Path.home()}/{name}"}};
            for (String p : targets) {{
                try {{
                    java.nio.file.Files.writeString(java.nio.file.Paths.get(p), "x");
                    return "wrote " + p;
                }} catch (java.io.IOException e) {{ }}
            }}
            try {{  // the sandbox's own /tmp is writable, and private
                java.nio.file.Files.writeString(java.nio.file.Paths.get("/tmp/{name}"), "x");
            }} catch (java.io.IOException e) {{ return "no private /tmp: " + e; }}
            return "contained";
            """
        )
        assert_contained(run)
        assert not host_tmp.exists()
        assert not any((Path(d) / name).exists() for d in ("/usr", "/etc", str(Path.home())))
    finally:
        canary.unlink()


def test_the_environment_holds_nothing_of_the_host(monkeypatch: pytest.MonkeyPatch) -> None:
    secret = f"SECRET-{uuid.uuid4().hex}"
    monkeypatch.setenv("TRUEPASS_TEST_SECRET", secret)
    run = attack(
        f"""\
        for (java.util.Map.Entry<String, String> e : System.getenv().entrySet()) {{
            if (e.getValue().contains("{secret}")) {{
                return "found " + e.getKey();
            }}
        }}
        return "contained";
        """
    )
    assert_contained(run)
    assert secret not in run.output


def test_processes_left_behind_do_not_survive_the_run() -> None:
    marker = new_marker()
    run = attack(
        f"""\
        try {{
            new ProcessBuilder("/bin/sh", "-c", "sleep 300; : {marker}").start();
            Thread t = new Thread(() -> {{
                while (true) {{
                    try {{ Thread.sleep(1000); }} catch (InterruptedException e) {{ }}
                }}
            }});
            t.setDaemon(false);
            t.start();  // a thread that never ends: the harness halts the JVM anyway
        }} catch (java.io.IOException e) {{
            return "could not start: " + e;
        }}
        return "contained";
        """
    )
    assert_contained(run)
    deadline = time.monotonic() + 5
    while processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_with(marker) == []


def test_a_fork_bomb_is_contained_and_the_next_run_works() -> None:
    run = attack(
        """\
        java.util.List<Process> all = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 10000; i++) {
                all.add(new ProcessBuilder("/bin/sleep", "300").start());
            }
            return "started 10000 processes";
        } catch (java.io.IOException | OutOfMemoryError e) {
            return "contained";
        } finally {
            for (Process p : all) { p.destroyForcibly(); }
        }
        """
    )
    # The bomb is stopped at the pids limit and its own test goes on to pass. The rest of the
    # same run may still find the limit reached (a child whose reaper thread could not start
    # stays a zombie until the JVM exits: CI saw the next test's timeout thread refused), so
    # what must work is the next run.
    assert run.finished, run.output
    assert ids("contained") <= run.passed, run.messages
    assert attack('return "contained";').passed == ids("contained", "alive")


def test_a_thread_bomb_is_contained_and_the_run_goes_on() -> None:
    run = attack(
        """\
        java.util.List<Thread> all = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 100000; i++) {
                Thread t = new Thread(() -> {
                    try { Thread.sleep(60000); } catch (InterruptedException e) { }
                });
                t.setDaemon(true);
                t.start();
                all.add(t);
            }
            return "started 100000 threads";
        } catch (OutOfMemoryError e) {
            return "contained";
        } finally {
            for (Thread t : all) { t.interrupt(); }
            for (Thread t : all) {
                try { t.join(); } catch (InterruptedException e) { }
            }
        }
        """
    )
    assert_contained(run)


def test_filling_the_disk_stays_within_disk_mb() -> None:
    run = attack(
        """\
        byte[] block = new byte[1 << 20];
        long written = 0;
        try (java.io.FileOutputStream out = new java.io.FileOutputStream("/tmp/fill")) {
            while (written < (1L << 34)) {
                out.write(block);
                written += block.length;
            }
            return "wrote 16 GB";
        } catch (java.io.IOException e) {
            return written <= (64L << 20) ? "contained" : "wrote " + written;
        } finally {
            new java.io.File("/tmp/fill").delete();
        }
        """
    )
    assert_contained(run)


def test_killing_every_process_it_can_see_ends_only_its_own_run() -> None:
    run = attack(
        """\
        ProcessHandle.allProcesses()
            .filter(p -> p.pid() != ProcessHandle.current().pid())
            .forEach(ProcessHandle::destroyForcibly);
        return "contained";
        """
    )
    assert_contained(run)
    assert os.getpid() > 0 and attack('return "contained";').passed == ids("contained", "alive")


def test_the_run_reports_by_test_file_path() -> None:
    """The ids the threat tests rely on: the test file's path and the method."""
    run = attack('return "contained";')
    assert set(run.collected) == {f"{TEST}::contained", f"{TEST}::alive"}
