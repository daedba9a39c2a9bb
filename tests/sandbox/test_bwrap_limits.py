"""The bwrap tier limits: processes (daemons, fork bombs), memory, time, disk, file size and
output, and it delivers the result channel intact.

Every threat test FAILS if the threat escapes: the attack runs for real inside the sandbox and the
host is then checked (surviving processes, free space, responsiveness). The tier is forced to
``bwrap`` and every payload starts with a guard that refuses to run outside a pid namespace, so a
fork bomb or ``kill(-1)`` can never run on the host itself.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest
from sandbox_helpers import SMALL, new_marker, processes_with, py

from truepass.sandbox import runner as sandbox_runner

REPO = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed"),
    pytest.mark.usefixtures("force_bwrap"),
]


def test_orphaned_daemons_do_not_survive_the_call() -> None:
    marker = new_marker()
    got = py(
        """
        import os, subprocess, sys
        sleeper = [sys.executable, "-c", "import signal, time; "
                   "signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(300)", sys.argv[1]]
        subprocess.Popen(sleeper, start_new_session=True, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if os.fork() == 0:  # the classic double fork
            os.setsid()
            if os.fork() == 0:
                os.closerange(0, 1024)
                os.execv(sys.executable, sleeper)
            os._exit(0)
        os.wait()
        print("parent done")
        """,
        marker=marker,
    )
    assert got.returncode == 0, got.stderr
    assert got.stdout.strip() == "parent done"
    assert got.duration_s < 10
    assert processes_with(marker) == []


def test_fork_bomb_is_contained() -> None:
    marker = new_marker()
    peak, done = [0], threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], len(processes_with(marker)))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample)
    sampler.start()
    limits = SMALL.model_copy(update={"timeout_s": 4.0, "max_processes": 40})
    try:
        got = py(
            """
            import os, time
            for _ in range(1000):
                try:
                    os.fork()
                except OSError:
                    pass
            time.sleep(60)
            """,
            limits=limits,
            marker=marker,
        )
    finally:
        done.set()
        sampler.join()
    assert got.timed_out or got.returncode != 0
    assert got.duration_s < limits.timeout_s + 5
    assert 10 < peak[0] <= limits.max_processes + 2  # + bwrap's monitor and init
    assert processes_with(marker) == []
    assert subprocess.run(["true"], timeout=10).returncode == 0  # the host can still fork


def test_memory_bomb_is_stopped_and_the_host_survives() -> None:
    got = py(
        """
        import sys
        try:
            bomb = bytearray(10 * 1024**3)
        except MemoryError:
            print("MemoryError", file=sys.stderr)
            sys.exit(3)
        print("ALLOCATED 10 GB")
        """
    )
    assert "ALLOCATED" not in got.stdout
    assert got.returncode in (3, 128 + signal.SIGKILL)
    assert subprocess.run(["true"], timeout=10).returncode == 0


def test_many_processes_cannot_add_up_to_more_memory_than_the_cgroup_allows() -> None:
    probe = sandbox_runner.RunCgroups.create(pids_max=10, memory_bytes=1 << 30)
    has_memory_cgroup = any("memory" in str(d) for d in probe.dirs)
    probe.remove()
    if not has_memory_cgroup:
        pytest.skip("no memory cgroup on this host")
    # each process stays under RLIMIT_AS (200 of 256 MB); together they want 1.2 GB
    limits = SMALL.model_copy(update={"memory_mb": 256, "disk_mb": 32, "timeout_s": 20})
    got = py(
        """
        import os, sys
        kids = []
        for _ in range(6):
            pid = os.fork()
            if pid == 0:
                block = bytearray(200 * 1024 * 1024)
                for i in range(0, len(block), 4096):
                    block[i] = 1
                os._exit(0)
            kids.append(pid)
        statuses = [os.waitpid(k, 0)[1] for k in kids]
        print(sum(1 for s in statuses if os.WIFSIGNALED(s)), "killed")
        """,
        limits=limits,
    )
    assert got.returncode == 0, got.stderr
    assert int(got.stdout.split()[0]) >= 1  # the OOM killer stepped in inside the group


def test_timeout_kills_a_loop_that_ignores_sigterm() -> None:
    marker = new_marker()
    limits = SMALL.model_copy(update={"timeout_s": 2.0})
    got = py(
        """
        import signal, sys
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print("started", flush=True)
        while True:
            pass
        """,
        limits=limits,
        marker=marker,
    )
    assert got.timed_out and got.returncode is None
    assert got.stdout == "started\n"  # output up to the kill is kept
    assert 2.0 <= got.duration_s < 6.0
    assert processes_with(marker) == []


def test_killing_the_parent_or_pid_1_does_not_reach_the_host() -> None:
    got = py(
        """
        import os, signal
        for target in (os.getppid(), 1):
            try:
                os.kill(target, signal.SIGKILL)
            except OSError as exc:
                print(type(exc).__name__)
        try:
            os.kill(-1, signal.SIGKILL)  # every process we may signal (not ourselves)
        except OSError as exc:
            print(type(exc).__name__)
        print("still here, ppid", os.getppid())
        """
    )
    assert got.returncode == 0, got.stderr
    assert "still here, ppid 1" in got.stdout
    assert os.getppid() > 0  # and this test runner is, evidently, alive


def test_filling_the_disk_stays_within_disk_mb() -> None:
    limits = SMALL.model_copy(update={"disk_mb": 16, "file_size_mb": 64})
    before = shutil.disk_usage(tempfile.gettempdir()).free
    got = py(
        """
        import errno, os
        print(os.statvfs("/workspace").f_blocks * os.statvfs("/workspace").f_frsize)
        total = 0
        for path in ("/workspace/fill", "/tmp/fill", "/dev/shm/fill"):
            try:
                with open(path, "wb") as f:
                    while True:
                        f.write(b"x" * 65536)
                        f.flush()
                        total += 65536
            except OSError as exc:
                print(path, errno.errorcode[exc.errno])
        print(total)
        """,
        limits=limits,
    )
    after = shutil.disk_usage(tempfile.gettempdir()).free
    assert got.returncode == 0, got.stderr
    size, *errors, written = got.stdout.splitlines()
    assert int(size) == limits.disk_mb * 1024 * 1024  # the workspace is a tmpfs of disk_mb
    assert [e.split()[1] for e in errors] == ["ENOSPC"] * 3, errors
    privileged = sandbox_runner._bwrap_mode()[0] == "privileged"
    cap = limits.disk_mb * 1024 * 1024 * (1 if privileged else 3)
    assert int(written) <= cap  # workspace + /tmp + /dev/shm share one tmpfs when privileged
    # each file could reach 64 MB were it on the host's disk; allow for other writers' noise
    assert before - after < 32 * 1024 * 1024


def test_file_size_limit() -> None:
    limits = SMALL.model_copy(update={"file_size_mb": 1})
    got = py(
        """
        import errno
        try:
            open("big", "wb").write(b"x" * 2 * 1024 * 1024)
        except OSError as exc:
            print(errno.errorcode[exc.errno])
        """,
        limits=limits,
    )
    assert got.stdout.strip() == "EFBIG"


def test_output_spam_is_capped_and_flagged() -> None:
    limits = SMALL.model_copy(update={"output_bytes": 100_000})
    got = py(
        """
        import os, sys
        chunk = b"x" * (1 << 20)
        fd = int(os.environ["TRUEPASS_CHANNEL_FD"])
        for _ in range(100):  # 100 MB to stdout, with some stderr and channel on the way
            sys.stdout.buffer.write(chunk)
            os.write(2, chunk[:65536])
            os.write(fd, chunk[:65536])
        """,
        limits=limits,
    )
    assert got.returncode == 0, got.stderr[:200]
    assert got.output_truncated
    assert len(got.stdout) == len(got.stderr) == len(got.channel) == 100_000
    assert got.duration_s < 15


def test_channel_data_arrives_intact_alongside_big_output() -> None:
    payload = bytes(range(256)) * 1200  # 300 KB, more than a pipe buffer, all byte values
    got = py(
        """
        import os, subprocess, sys
        fd = int(os.environ["TRUEPASS_CHANNEL_FD"])
        data = bytes(range(256)) * 1200
        for i in range(0, len(data), 4096):
            os.write(fd, data[i : i + 4096])
            sys.stdout.write("o" * 4096)
            os.write(2, b"e" * 4096)
        sys.stdout.flush()
        # a child process that is handed the fd can write to the channel too
        code = "import os; os.write(int(os.environ['TRUEPASS_CHANNEL_FD']), b'END')"
        subprocess.run([sys.executable, "-c", code], pass_fds=(fd,), check=True)
        """
    )
    assert got.returncode == 0, got.stderr[-500:]
    assert len(got.channel) == len(payload) + 3
    assert got.channel == payload + b"END"
    assert got.stdout == "o" * 4096 * 75 and got.stderr == "e" * 4096 * 75
    assert not got.output_truncated


def test_rlimits_apply_to_children() -> None:
    got = py(
        """
        import subprocess, sys
        code = "import resource as r; print(r.getrlimit(r.RLIMIT_AS)[0], r.getrlimit(7)[0])"
        print(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout)
        """
    )
    assert got.stdout.split() == [str(SMALL.memory_mb * 1024 * 1024), str(SMALL.open_files)]
