"""The warm test runner's worker: pytest imported once, a fresh confined child per test run.

Run inside bubblewrap as ``python -P pytestworker.py`` by the parent's
:class:`truepass.sandbox.testpool.TestPool`, with the same sandbox plan as a cold test run
(``run_sandboxed``: uid 65534, no network, read-only system, private tmpfs, cgroup, rlimits) and
the harness bound at the same path. Shipped beside it: ``pytestsession.py`` (pytest's side: the
warm-up and each run's child), ``worker.py`` (framing, never-inherited buffers),
``checkchild.py``, ``confine.py`` and ``plainvalues.py``.

At start it imports what a cold ``python -P -m pytest -p _truepass_reporter ...`` imports before
it looks at the workspace (pytest, its built-in plugins), records that state
(``pytestsession.Cold``: ``sys.path``, the top-level modules loaded), then runs one pytest
session of its own on a trusted warm-up suite in ``/tmp`` (so that the ``-p`` plugins are
imported through pytest's rewriting hook, as cold, and what pytest imports lazily is loaded
too), and cleans up after it.

Protocol with the parent (fds 0 and 1 at start; a frame is a big-endian u32 length and bytes):

* worker -> parent, once: hello (JSON: pid, uid, Landlock ABI, seccomp, notes, warm-up time);
* parent -> worker, per run: a header frame ``{"size", "timeout_s"}``, then ``size`` bytes of
  payload: JSON ``{"args", "env", "files", "rewrites", "compiled"}`` (pytest's arguments, the
  run's whole environment, the workspace's files, code compiled by the parent for pristine
  files: ``truepass.sandbox.precompiled``);
* worker -> parent, per run: one frame: a u32 header length, JSON ``{"events": [outcome],
  "results", "output", "truncated"}``, the channel's bytes (``results``), then stdout and
  stderr (``output``; ``outcome`` says where stdout ends).

Per run, the child (forked ahead, while the worker is idle) confines itself (:data:`PROFILE`),
sets itself up as a cold run (``pytestsession.child_prepare``), says ``armed`` and calls
pytest's own entry point at a cold run's stack depth; then it exits as an interpreter does
(threads, ``atexit``, flushing). The worker enforces the wall-clock timeout, reads stdout,
stderr and the channel under their caps, kills every other process of the sandbox, answers,
and empties ``/workspace``, ``/tmp`` and ``/dev/shm``. The payload, the channel and the output
only ever live in buffers the worker's children never inherit (``worker.Buffer``), wiped after
each run.
"""

from __future__ import annotations

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
# sys.path of a cold `python -P -m pytest`: PYTHONPATH (the harness), the standard library,
# site-packages; the child gets exactly this back.
COLD_PATH = list(sys.path)

import importlib  # noqa: E402
import importlib.machinery  # noqa: E402
import importlib.util  # noqa: E402
import runpy  # noqa: E402, F401  (a cold run starts through it: `-m pytest`)

import _pytest.config  # noqa: E402
import pytest  # noqa: E402, F401  (what a cold run imports first)


def _import_quietly(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


for _name in _pytest.config.default_plugins:
    _import_quietly(f"_pytest.{_name}")
# The `-p` plugins of every run (the reporter): imported by the warm-up session, through pytest's
# assertion-rewriting import hook as in a cold run, but loaded before the workspace all the same.
PLUGINS = [p for p in os.environ.get("TRUEPASS_PLUGINS", "").split(",") if p]
# Top-level modules a cold run has loaded before any workspace directory is on sys.path: a
# workspace file of the same name cannot shadow them there, so it must not here either.
COLD_TOP = frozenset([*(name.partition(".")[0] for name in sys.modules), *PLUGINS])

sys.path.insert(0, _HERE)
import confine  # type: ignore[import-not-found]  # noqa: E402
import pytestsession as session  # type: ignore[import-not-found]  # noqa: E402
import worker as base  # type: ignore[import-not-found]  # noqa: E402

del sys.path[0]

# Plugins that only some runs name with `-p` (QuixBugs: pytest_timeout): imported by the warm-up
# session too, but cold (never dropped) only for the runs that name them.
OPTIONAL = [
    p
    for p in os.environ.get("TRUEPASS_OPTIONAL_PLUGINS", "").split(",")
    if p and importlib.util.find_spec(p) is not None
]
COLD = session.Cold(tuple(COLD_PATH), COLD_TOP, tuple(PLUGINS), tuple(OPTIONAL))

import contextlib  # noqa: E402
import json  # noqa: E402
import select  # noqa: E402
import signal  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402

WORKSPACE = session.WORKSPACE
_U32 = 4
ARMED = session.ARMED
_ENTRY = session.COLD_ENTRY or session.entry  # `_console_main` itself: a cold run's depth
GRACE_S = 0.5  # after the child exits, how long its output pipes may stay open (as a cold run)
DRAIN_S = 2.0  # reading what is left once everything is dead (as a cold run)
SWEEP_S = 5.0  # killing every other process of the sandbox; past it the worker exits

# What a test run's child may do: what a cold test run may do, except what would outlive the run
# in the worker's sandbox (System V and POSIX message-queue IPC, keyrings) or reach the worker
# (ptrace and cross-process memory; Landlock's scopes keep signals and abstract unix sockets
# within the child's own processes).
DENIED = (
    "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp",
    "shmget", "shmat", "shmctl", "msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop",
    "semtimedop", "semctl", "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive",
    "mq_notify", "mq_getsetattr", "add_key", "request_key", "keyctl",
    "mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "mount_setattr", "fsopen",
    "fsmount", "fspick", "open_tree", "move_mount", "bpf", "perf_event_open", "userfaultfd",
    "io_uring_setup", "io_uring_enter", "io_uring_register", "open_by_handle_at",
    "name_to_handle_at", "fanotify_init", "acct", "swapon", "reboot",
)  # fmt: skip
PROFILE = confine.Profile(
    writable=("/tmp", "/dev/shm"),  # besides the workspace (the scratch directory)
    devices=("/dev", "/proc"),
    execute=True,
    tcp=True,
    processes=True,
    denied=DENIED,
)


@dataclass
class Child:
    """A forked child and the worker's ends of its pipes."""

    pid: int
    request: int  # worker -> child: the payload
    control: int  # child -> worker: ARMED, then closed
    streams: dict[str, int]  # stdout, stderr, channel (read ends, non-blocking)

    def close(self) -> None:
        for fd in (self.request, self.control, *self.streams.values()):
            with contextlib.suppress(OSError):
                os.close(fd)


class Worker:
    """The worker's state: its confinement, its buffers, its spare child."""

    def __init__(self) -> None:
        self.notes: list[str] = []
        self.proto_in, self.proto_out = os.dup(0), os.dup(1)
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(2, 1)  # a stray print of the worker goes to its stderr, never to the parent
        os.close(null)
        self.scrub_dirs = [d for d in os.environ.get("TRUEPASS_SCRUB", "").split(":") if d]
        if WORKSPACE not in self.scrub_dirs or not confine.empty_dirs([WORKSPACE]):
            # the sandbox's prelude copied the shipped files there: no run may see them
            raise RuntimeError(f"cannot empty {WORKSPACE}")
        self.skeleton = confine.skeleton(self.scrub_dirs)  # before anything writes there
        self.limits = json.loads(os.environ["TRUEPASS_CHILD_LIMITS"])
        self.made = confine.prepare(
            WORKSPACE,
            use_landlock=os.environ.get("TRUEPASS_LANDLOCK", "1") == "1",
            use_seccomp=os.environ.get("TRUEPASS_SECCOMP", "1") == "1",
            profile=PROFILE,
        )
        cap = int(self.limits["output_bytes"])
        self.buffers = {name: base.Buffer(cap) for name in ("stdout", "stderr", "channel")}
        self.sink = base.Buffer(1 << 16)
        self.warmup_s = session.warm_up(COLD, self.notes)
        if not self.scrub():
            raise RuntimeError("cannot empty the scratch directories after the warm-up")
        self.spare: Child | None = None

    def serve(self) -> None:
        """Answer test runs until the parent closes the pipe."""
        hello = {"pid": os.getpid(), "uid": os.getuid(), **self.made.summary(),
                 "notes": self.made.notes + self.notes, "warmup_s": self.warmup_s,
                 "python": sys.version}  # fmt: skip
        base.write_all(self.proto_out, [base.frame(json.dumps(hello).encode())])
        gc_freeze()
        self.spare = self.fork_child()
        while (raw := base.read_frame(self.proto_in)) is not None:
            header = json.loads(raw)
            payload = base.Buffer(int(header["size"]))
            payload.used = payload.cap
            if not base.read_exact_into(self.proto_in, payload.view):
                return
            try:
                outcome = self.run(payload.view, float(header["timeout_s"]))
            finally:
                payload.wipe()
                payload.close()
            self.respond(outcome)
            if not self.scrub():
                os._exit(3)  # something the run left cannot be removed: be replaced
            self.spare = self.fork_child()

    def fork_child(self) -> Child:
        """Fork a child that confines itself and waits for its payload."""
        request_r, request_w = os.pipe()
        control_r, control_w = os.pipe()
        pipes = {name: os.pipe() for name in ("stdout", "stderr", "channel")}
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child never returns
            code = 70
            try:
                for fd in (request_w, control_r, *(r for r, _ in pipes.values())):
                    os.close(fd)
                writes = {name: w for name, (_, w) in pipes.items()}
                code = session.child_prepare(
                    self.made, self.limits, COLD, request_r, control_w, writes
                )
                if code is None:
                    # pytest's entry point three frames deep, as in a cold run (runpy's two and
                    # pytest's __main__): a test recursing near the limit ends as it does cold
                    try:
                        code = _ENTRY()
                    except BaseException as exc:
                        code = session.uncaught(exc)
                    code = session.interpreter_exit(code)
            finally:
                os._exit(code)
        for fd in (request_r, control_w, *(w for _, w in pipes.values())):
            os.close(fd)
        for read, _ in pipes.values():
            os.set_blocking(read, False)
        os.set_blocking(control_r, False)
        return Child(pid, request_w, control_r, {name: r for name, (r, _) in pipes.items()})

    def run(self, payload: memoryview, timeout_s: float) -> dict[str, object]:
        """Hand the payload to the spare child, watch it, kill what is left; the outcome."""
        child, self.spare = self.spare, None
        assert child is not None  # serve() forks it ahead
        started = time.monotonic()
        try:
            try:
                base.write_all(child.request, [len(payload).to_bytes(_U32, "big"), payload])
            except OSError as exc:  # it died before reading: the harness failed
                return {"armed": False, "error": f"the child died before its request: {exc}"}
            finally:
                with contextlib.suppress(OSError):
                    os.close(child.request)
            return self.watch(child, started, started + timeout_s)
        finally:
            with contextlib.suppress(OSError):
                os.kill(child.pid, signal.SIGKILL)
            self.sweep()
            with contextlib.suppress(ChildProcessError):
                os.waitpid(child.pid, 0)
            child.close()

    def watch(self, child: Child, started: float, deadline: float) -> dict[str, object]:
        """Read the child's pipes until they close, it has exited ``GRACE_S`` ago, or the
        deadline passes; then as :func:`truepass.sandbox.execution.execute` does: wait for its
        exit until the deadline, kill everything, read what is left."""
        exited = confine.ExitWatch(child.pid)
        poll = select.poll()
        owner = {fd: name for name, fd in child.streams.items()}
        for fd in [*owner, child.control]:
            poll.register(fd, select.POLLIN)
        armed, stop = False, deadline
        try:
            while owner:
                now = time.monotonic()
                if stop == deadline and exited.exited(0.0):
                    stop = min(deadline, now + GRACE_S)
                if now >= stop:
                    break
                for fd, _ in poll.poll(max(1, min(50, int((stop - now) * 1000) + 1))):
                    if fd == child.control:
                        got = _read_some(fd)
                        armed = armed or got.startswith(ARMED)
                        if not got:
                            poll.unregister(fd)
                        continue
                    if not self.absorb(fd, owner[fd]):
                        poll.unregister(fd)
                        del owner[fd]
            armed = armed or _read_some(child.control).startswith(ARMED)
            timed_out = not exited.exited(max(0.0, deadline - time.monotonic()))
            status = 0
            if timed_out:
                with contextlib.suppress(OSError):
                    os.kill(child.pid, signal.SIGKILL)
            else:
                _, status = os.waitpid(child.pid, 0)  # before the sweep reaps it
            self.sweep()
            end = time.monotonic() + DRAIN_S
            for fd, name in list(owner.items()):
                while (
                    time.monotonic() < end
                    and select.select([fd], [], [], end - time.monotonic())[0]
                ):
                    if not self.absorb(fd, name):
                        break
        finally:
            exited.close()
        duration = time.monotonic() - started
        if not armed:
            return {"armed": False, "error": "the child failed before running pytest"}
        code = None if timed_out else exit_status(os.waitstatus_to_exitcode(status))
        return {
            "armed": True, "timed_out": timed_out, "code": code,
            "duration": duration, "stdout": self.buffers["stdout"].used,
            "stderr": self.buffers["stderr"].used,
            "truncated": any(b.dropped for b in self.buffers.values()),
        }  # fmt: skip

    def absorb(self, fd: int, name: str) -> bool:
        """Read what ``fd`` has into its buffer (past the cap: dropped); False at end of file."""
        try:
            return self.buffers[name].read_from(fd, self.sink.view) > 0
        except BlockingIOError:
            return True

    def respond(self, outcome: dict[str, object]) -> None:
        """Send one run's answer, then zero the buffers that held the candidate's bytes."""
        channel, stdout, stderr = (self.buffers[n] for n in ("channel", "stdout", "stderr"))
        meta = {"events": [outcome], "results": channel.used, "output": stdout.used + stderr.used,
                "truncated": bool(outcome.get("truncated"))}  # fmt: skip
        head = json.dumps(meta).encode()
        body = [b.view[: b.used] for b in (channel, stdout, stderr)]
        total = _U32 + len(head) + sum(len(v) for v in body)
        base.write_all(
            self.proto_out,
            [total.to_bytes(_U32, "big"), len(head).to_bytes(_U32, "big"), head, *body],
        )
        for buffer in (channel, stdout, stderr):
            buffer.wipe()
        self.sink.used = self.sink.cap
        self.sink.wipe()

    def sweep(self) -> None:
        """Kill every process of the sandbox but its init and the worker, until none is left
        (a test run may fork); exit (to be replaced) if that does not work."""
        keep = {1, os.getpid(), os.getppid()}
        end = time.monotonic() + SWEEP_S
        while live := _live_pids(keep):
            if time.monotonic() > end:
                os._exit(4)
            for pid in live:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            _reap()
            time.sleep(0.001)

    def scrub(self) -> bool:
        """Empty the scratch directories; False if something could not be removed."""
        return confine.empty_dirs(self.scrub_dirs, self.skeleton)


def _read_some(fd: int) -> bytes:
    try:
        return os.read(fd, 64)
    except (BlockingIOError, OSError):
        return b"?"  # nothing now (not end of file)


def _live_pids(keep: set[int]) -> list[int]:
    """Processes of the sandbox (its own /proc) other than ``keep`` and zombies."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in keep:
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                state = stat.read().rpartition(b")")[2][1:2]
        except OSError:
            continue
        if state not in (b"Z", b"X"):
            found.append(int(name))
    return found


def _reap() -> None:
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def exit_status(code: int) -> int:
    """A death by signal N as 128+N, as a cold run (its shell and bwrap) reports it."""
    return 128 - code if code < 0 else code


def gc_freeze() -> None:
    """Everything the worker made is never traversed by a child's collections (fewer pages
    copied after each fork)."""
    import gc

    gc.collect()
    gc.freeze()


def start() -> Worker:
    """The worker, once it checked its sandbox and became non-dumpable."""
    if os.environ.get("TRUEPASS_OWN_PIDNS") != "1":
        raise SystemExit("pytestworker: needs a pid namespace of its own (the bwrap tier)")
    confine.set_dumpable(False)
    return Worker()


if __name__ == "__main__":
    start().serve()  # from the module itself: children run pytest at a cold run's depth
