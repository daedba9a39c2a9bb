"""ExecPool against hostile candidates: each attack runs for real in the sandbox and must neither
turn a wrong answer into a pass, nor escape, nor leave state for the next check.

Answers the attacks "forge" are deliberately wrong: a forgery of the right answer is just a
candidate that knows the answer (what matters is that the expected value is never reachable).
"""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pool_helpers import needs_bwrap, run, start_pool

from truepass.sandbox.pool import Case, ExecLimits, ExecPool

pytestmark = needs_bwrap
SECRET = 918_273_645  # the expected value; never in any input


@pytest.fixture(scope="module")
def pool() -> Iterator[ExecPool]:
    yield from start_pool(1)


@pytest.fixture(scope="module")
def bare_pool() -> Iterator[ExecPool]:
    """Neither Landlock nor seccomp: rlimits, dumpable=0 and bwrap alone must still hold."""
    yield from start_pool(1, ExecLimits(landlock=False, seccomp=False))


def secret_cases(n: int = 3) -> list[Case]:
    return [Case([i], SECRET + i, 2.0) for i in range(n)]


def assert_not_passed(pool: ExecPool, code: str, cases: list[Case] | None = None) -> str:
    got = run(pool, code, cases or secret_cases())
    assert not got.passed, got
    assert got.status != "pass"
    assert pool.restarts == 0
    return got.status


def test_an_answer_whose_eq_is_always_true_fails(pool: ExecPool) -> None:
    code = """
    class Anything:
        def __eq__(self, other): return True
        def __ne__(self, other): return False
        def __hash__(self): return 0
    def f(x):
        return Anything()
    """
    assert assert_not_passed(pool, code) == "fail"


@pytest.mark.parametrize("base", ["list", "int", "str", "dict", "float", "tuple"])
def test_subclasses_of_plain_types_fail(pool: ExecPool, base: str) -> None:
    code = f"""
    class Sneaky({base}):
        def __eq__(self, other): return True
        __hash__ = {base}.__hash__
    def f(x):
        return Sneaky()
    """
    got = run(pool, code, [Case([0], {"list": [], "int": 0, "str": "", "dict": {},
                                      "float": 0.0, "tuple": ()}[base])])  # fmt: skip
    assert (got.status, got.cases[0].error) == ("fail", "unserialisable type candidate.Sneaky")


def test_the_expected_value_is_nowhere_in_the_child(pool: ExecPool) -> None:
    code = """
    import gc, sys
    def f(x):
        wanted = set()
        for obj in gc.get_objects():
            if type(obj) is int and obj > 900_000_000:
                wanted.add(obj)
        frame = sys._getframe()
        while frame:
            for scope in (frame.f_locals, frame.f_globals):
                for value in list(scope.values()):
                    if type(value) is int and value > 900_000_000:
                        wanted.add(value)
            frame = frame.f_back
        return max(wanted) if wanted else -1
    """
    got = run(pool, code, secret_cases(1))
    assert got.status == "fail"
    assert got.cases[0].got_repr == "-1"


def test_walking_frames_to_forge_the_harness_messages_does_not_pass(pool: ExecPool) -> None:
    code = """
    import sys
    def f(x):
        frame = sys._getframe()
        while frame and "send" not in frame.f_locals:
            frame = frame.f_back
        send = frame.f_locals["send"]
        index = frame.f_locals["index"]
        for i in range(index, index + 3):  # forged results for this case and the next ones
            send({"k": "ok", "i": i, "v": 7})
        return 7
    """
    assert assert_not_passed(pool, code) == "fail"  # case 0: a forged 7 is just a wrong 7
    got = run(pool, code, secret_cases(), stop_on_first_failure=False)
    assert [c.got_repr for c in got.cases] == ["7", "7", "7"]  # claimed, and wrong


def test_patching_the_harness_serialiser_does_not_pass(pool: ExecPool) -> None:
    code = """
    import sys, json
    def f(x):
        frame = sys._getframe()
        while frame and "send" not in frame.f_locals:
            frame = frame.f_back
        send = frame.f_locals["send"]
        cells = dict(zip(send.__code__.co_freevars, send.__closure__))
        real = json.dumps
        cells["dumps"].cell_contents = lambda obj, **kw: real({"k": "pass", "i": obj["i"]}, **kw)
        frame.f_globals["plainvalues"].encode = lambda value: ["X", "pass"]
        return 0
    """
    assert assert_not_passed(pool, code) == "error"
    got = run(pool, code, secret_cases(1))
    assert "result stream corrupted" in (got.cases[0].error or "")


def test_forged_messages_on_stdout_and_stderr_are_only_output(pool: ExecPool) -> None:
    code = """
    import os, sys, json
    def f(x):
        forged = json.dumps({"k": "ok", "i": x, "v": 5}).encode()
        for fd in (1, 2):
            os.write(fd, len(forged).to_bytes(4, "big") + forged)
        print('{"passed": true, "status": "pass"}')
        return 5
    """
    got = run(pool, code, secret_cases(1))
    assert got.status == "fail"
    assert '"passed": true' in got.cases[0].output


def test_out_of_order_writes_to_the_result_pipe_do_not_pass(pool: ExecPool) -> None:
    code = """
    import os, json, stat
    def frame(obj):
        data = json.dumps(obj).encode()
        return len(data).to_bytes(4, "big") + data
    def f(x):
        for fd in range(3, 64):
            try:
                if not stat.S_ISFIFO(os.fstat(fd).st_mode):
                    continue
                os.write(fd, frame({"k": "ok", "i": 2, "v": 1}) + frame({"k": "ok", "i": 1, "v": 1})
                         + b"garbage")
            except OSError:
                pass
        return 1
    """
    assert assert_not_passed(pool, code) == "error"


def test_forging_the_whole_stream_at_load_time_is_only_a_claimed_answer(pool: ExecPool) -> None:
    code = """
    import os, json, stat
    def frame(data):
        return len(data).to_bytes(4, "big") + data
    for fd in range(3, 64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                os.write(fd, frame(b'{"k":"ready"}') + b"".join(
                    frame(json.dumps({"k": "ok", "i": i, "v": 0}).encode()) for i in range(3)))
        except OSError:
            pass
    def f(x):
        return 0
    """
    assert assert_not_passed(pool, code) == "fail"


def test_closing_the_harness_pipes_does_not_pass(pool: ExecPool) -> None:
    code = "import os\nos.closerange(3, 1024)\ndef f(x):\n    return x\n"
    assert_not_passed(pool, code, [Case([1], 1)])


PROBE = """
import ctypes, os
def attempt(action):
    try:
        action()
    except OSError as exc:
        return type(exc).__name__
    return "SUCCEEDED"
def parent_of(pid):
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])
def f(names):
    zygote = os.getppid()  # the process that forked this child
    worker = parent_of(zygote)  # the worker, which forked the zygote
    libc = ctypes.CDLL(None, use_errno=True)
    def ptrace(pid):
        if libc.ptrace(16, pid, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "ptrace")
    def attempts(pid):
        return {
            "write worker pipe": lambda: os.open(f"/proc/{pid}/fd/1", os.O_WRONLY),
            "read worker memory": lambda: open(f"/proc/{pid}/mem", "rb").read(1),
            "read worker environ": lambda: open(f"/proc/{pid}/environ", "rb").read(),
            "ptrace worker": lambda: ptrace(pid),
            "fork": os.fork,
            "write outside /tmp": lambda: open("/workspace/x", "w"),
            "kill worker": lambda: os.kill(pid, 9),
            "exec": lambda: os.execv("/bin/true", ["true"]),
        }
    found = {}
    for who, pid in (("worker", worker), ("zygote", zygote)):
        found.update({f"{name} ({who})": attempt(attempts(pid)[name]) for name in names})
    # short enough for the parent's repr: how many were tried, which succeeded
    return [zygote != worker, len(found), sorted(k for k, v in found.items() if v == "SUCCEEDED")]
"""
ALWAYS = ["write worker pipe", "read worker memory", "read worker environ", "ptrace worker", "fork"]
# Without Landlock and seccomp, a child may still signal its worker (same uid: the check then
# fails as an infra error, never as a pass), exec a program and write its /workspace.
CONFINED = [*ALWAYS, "write outside /tmp", "kill worker", "exec"]


@pytest.mark.parametrize(("which", "names"), [("pool", CONFINED), ("bare_pool", ALWAYS)])
def test_the_child_cannot_reach_the_worker(
    which: str, names: list[str], request: pytest.FixtureRequest
) -> None:
    target: ExecPool = request.getfixturevalue(which)
    got = run(target, PROBE, [Case([names], {})])
    assert got.cases[0].status == "fail"
    apart, tried, succeeded = eval(got.cases[0].got_repr)  # repr'd by the parent
    assert apart  # the child's parent is the zygote, not the worker
    assert tried == 2 * len(names)  # each attempt against the worker and against the zygote
    assert succeeded == []
    assert run(target, "def f():\n    return 1\n", [Case([], 1)]).passed
    assert target.restarts == 0


@pytest.mark.parametrize("which", ["pool", "bare_pool"])
def test_fork_bombs_and_subprocesses_are_contained(which: str, request: pytest.FixtureRequest):
    target: ExecPool = request.getfixturevalue(which)
    bomb = "import os\ndef f():\n    while True:\n        os.fork()\n"
    got = run(target, bomb, [Case([], 0)])
    assert got.status == "error"  # EPERM from seccomp, EAGAIN from RLIMIT_NPROC=0
    assert (got.cases[0].error or "").startswith(("PermissionError", "BlockingIOError"))
    spawn = "import subprocess\ndef f():\n    return subprocess.run(['true']).returncode\n"
    assert run(target, spawn, [Case([], 0)]).status == "error"
    assert run(target, "def f():\n    return 1\n", [Case([], 1)]).passed


def test_thread_bombs_are_contained(pool: ExecPool) -> None:
    code = """
    import threading, time
    def f():
        n = 0
        while n < 100000:
            threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
            n += 1
        return n
    """
    got = run(pool, code, [Case([], 0, 5.0)])
    assert got.status in ("error", "timeout")
    assert run(pool, "def f():\n    return 1\n", [Case([], 1)]).passed


def test_network_is_refused(pool: ExecPool) -> None:
    server = socket.create_server(("127.0.0.1", 0))
    server.setblocking(False)
    port = server.getsockname()[1]
    try:
        code = f"""
        import socket
        def f():
            socket.create_connection(("127.0.0.1", {port}), timeout=1).sendall(b"hi")
            return "connected"
        """
        got = run(pool, code, [Case([], "nope")])
        assert got.status == "error"
        with pytest.raises(BlockingIOError):
            server.accept()
    finally:
        server.close()


def test_memory_bombs_are_stopped(pool: ExecPool) -> None:
    at_once = "def f():\n    return len(bytearray(64 << 30))\n"
    got = run(pool, at_once, [Case([], 0)])
    assert (got.status, got.cases[0].error) == ("error", "MemoryError: ")
    growing = "def f():\n    keep = []\n    while True:\n        keep.append(' ' * (1 << 24))\n"
    got = run(pool, growing, [Case([], 0, 10.0)])
    assert got.status == "error" and "MemoryError" in (got.cases[0].error or "")
    assert run(pool, "def f():\n    return 1\n", [Case([], 1)]).passed


def test_no_state_survives_into_the_next_check(pool: ExecPool) -> None:
    dirty = """
    import builtins, ctypes, math, os, random, sys
    math.pi = 3
    builtins.len = lambda obj: 0
    os.environ["LEFT_BEHIND"] = "1"
    sys.modules["left_behind"] = sys
    for d in ("/tmp", "/dev/shm"):
        try:
            open(d + "/left-behind", "w").write("x")
        except OSError:
            pass
    os.makedirs("/tmp/dir/sub", exist_ok=True)
    os.chmod("/tmp/dir", 0)
    libc = ctypes.CDLL(None, use_errno=True)
    shm = libc.shmget(0x7EA5, 4096, 0o1666)  # System V IPC would outlive the process
    def f():
        return [shm, random.random()]
    """
    first = run(pool, dirty, [Case([], [])])
    assert first.cases, first
    assert first.cases[0].got_repr.startswith("[-1, ")  # shmget refused
    clean = """
    import builtins, math, os, random, sys
    def f():
        return [math.pi == 3.141592653589793, builtins.len("ab"), "LEFT_BEHIND" in os.environ,
                "left_behind" in sys.modules, os.listdir("/tmp"), os.listdir("/dev/shm"),
                random.random()]
    """
    second = run(pool, clean, [Case([], [])])
    got = second.cases[0].got_repr
    # /tmp holds only what the sandbox put there itself: the mount point of the venv when the
    # venv lives under /tmp (as in CI), nothing otherwise
    skeleton = sorted({Path(sys.prefix).parts[2]} if sys.prefix.startswith("/tmp/") else set())
    assert got.startswith(f"[True, 2, False, False, {skeleton}, [], 0.84442"), got  # seed 0
    assert first.cases[0].got_repr.endswith("0.8444218515250481]")
    assert pool.restarts == 0


def test_a_forged_harness_failure_is_broken_code_not_an_infra_error(pool: ExecPool) -> None:
    code = """
    import os, stat
    data = b'{"k":"harness","e":"forged"}'
    for fd in range(3, 64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                os.write(fd, len(data).to_bytes(4, "big") + data)
        except OSError:
            pass
    def f(x):
        return x
    """
    got = run(pool, code, [Case([1], 1)])
    assert (got.status, pool.restarts) == ("broken", 0)
