"""The warm worker: a long-lived process inside the sandbox; each check runs in a confined fork.

Run as ``python -S -s -B worker.py`` inside bubblewrap (standard library only; ``checkchild.py``,
``confine.py`` and ``plainvalues.py`` are shipped beside it). Protocol with the trusted parent,
on fds 0 and 1 (a frame is a big-endian u32 length and that many bytes):

* worker -> parent, once: a hello frame (JSON: pid, uid, Landlock ABI, seccomp, notes);
* parent -> worker, per check: a JSON header frame ``{"timeouts", "walls", "load_timeout",
  "cpu_s", "stop", "size"}`` then ``size`` raw bytes of payload (JSON: code, entry_point,
  tagged args). Expected values are never sent.
* worker -> parent, per check: one frame holding a u32 header length, a JSON header
  ``{"events", "results", "output", "truncated"}``, the child's raw result frames (``results``
  bytes) and its captured output (``output`` bytes).

Children are forked by the worker's **zygote** (:func:`zygote`), a process the worker forks
once, before its first check, that does nothing but fork the next child when the worker asks,
tell the worker its pid, and tell it how the child ended. The worker asks while idle, after a
check (the child confines itself and waits for its request; see ``checkchild.py``), so a check
costs no fork on its critical path; and since the worker, which runs Python for every frame,
shares no pages with the children, none of its writes costs a copy-on-write fault. Every child
gets the same three pipes (request, result frames, output), which the worker empties after each
child has ended and before it asks for the next.

The worker only counts the child's frames (the one after ``ready`` belongs to case ``start``,
and so on) and times them. Case k has two limits, both counted from the previous frame:
``timeouts[k]``, seconds of the child's CPU time (read from its CPU clock, so a busy machine
does not make a correct solution time out), and ``walls[k]``, seconds of wall-clock time (for
code that waits without computing). When either runs out the worker kills the child and,
unless ``stop``, has a fresh one run from case k+1. The parent decodes and judges everything.

The candidate's bytes (payload, results, output) only ever live in the worker, in buffers it
zeroes after each check; a child is a fork of the zygote, forked before any check, so it cannot
find an earlier check's code or answers in its memory. After each check the worker kills every
other process of the sandbox but its zygote and empties the scratch directories; if something
cannot be removed it exits, and the pool replaces it.
"""

from __future__ import annotations

import contextlib
import gc
import json
import math
import mmap
import os
import select
import signal
import time
from dataclasses import dataclass

try:
    from truepass.sandbox.guest import checkchild, confine
except ImportError:  # inside the sandbox: shipped side by side, no site-packages
    import checkchild  # type: ignore[no-redef]
    import confine  # type: ignore[no-redef]

# Warm imports: what candidates commonly import costs nothing per check.
import bisect, collections, copy, dataclasses, datetime, decimal, fractions, functools  # noqa: E401, F401, I001
import hashlib, heapq, itertools, operator, random, re, statistics, string, typing  # noqa: E401, F401  (math above)

READY = b'{"k":"ready"'  # the prefix of the frame that says the code is loaded
ARMED = b'{"k":"armed"'  # the first frame: confined, about to load the code
_U32 = 4


def read_exact_into(fd: int, view: memoryview) -> bool:
    """Fill ``view`` from ``fd``; False at end of file."""
    done = 0
    while done < len(view):
        got = os.readv(fd, [view[done:]])
        if got == 0:
            return False
        done += got
    return True


def write_all(fd: int, buffers: list[bytes | memoryview]) -> None:
    """Write every buffer, in order, completely."""
    for buffer in buffers:
        view = memoryview(buffer)
        while view:
            view = view[os.write(fd, view) :]


def read_frame(fd: int) -> bytes | None:
    """One length-prefixed frame (small control frames only); None at end of file."""
    head = bytearray(_U32)
    if not read_exact_into(fd, memoryview(head)):
        return None
    body = bytearray(int.from_bytes(head, "big"))
    if not read_exact_into(fd, memoryview(body)):
        return None
    return bytes(body)


def frame(data: bytes) -> bytes:
    """``data`` with its length prefix."""
    return len(data).to_bytes(_U32, "big") + data


class Buffer:
    """A byte buffer filled by ``readv``, never inherited by a child, emptied after use.

    It is an anonymous mapping marked MADV_DONTFORK: a forked child does not have it at all (and
    a fork does not pay for its pages); :meth:`wipe` gives its pages back (MADV_DONTNEED: they
    read as zeros afterwards).
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.map = mmap.mmap(-1, max(cap, 1))
        self.private = True
        try:
            self.map.madvise(mmap.MADV_DONTFORK)
        except (AttributeError, OSError):
            self.private = False  # zeroed by hand instead; children still get a copy
        self.view = memoryview(self.map)[:cap]
        self.used = 0
        self.dropped = 0  # bytes read past the cap and thrown away

    @property
    def full(self) -> bool:
        return self.used == self.cap

    def read_from(self, fd: int, sink: memoryview) -> int:
        """Read what ``fd`` has (0 at end of file). Past the cap, bytes go to ``sink`` and are
        dropped, so the writer never blocks on a full pipe."""
        if self.full:
            got = os.readv(fd, [sink])
            self.dropped += got
            return got
        got = os.readv(fd, [self.view[self.used :]])
        self.used += got
        return got

    def wipe(self) -> None:
        """Forget (and zero) what was used."""
        if self.used:
            try:
                self.map.madvise(mmap.MADV_DONTNEED, 0, self.used)
            except (AttributeError, OSError):
                self.view[: self.used] = bytes(self.used)
        self.used = self.dropped = 0

    def close(self) -> None:
        """Unmap it (after :meth:`wipe`)."""
        self.view.release()
        self.map.close()


@dataclass
class Child:
    """A child the zygote forked: its pid, and how it ended once the zygote said so."""

    pid: int
    ended: tuple[int, int] | None = None  # (si_code, si_status) of waitid, once it exited


class Worker:
    """The worker's state: its confinement, its buffers, its zygote, its scratch dirs."""

    def __init__(self) -> None:
        self.scratch = os.environ.get("TMPDIR", "/tmp")
        self.scrub_dirs = [d for d in os.environ.get("TRUEPASS_SCRUB", "").split(":") if d]
        self.skeleton = confine.skeleton(self.scrub_dirs)  # before any candidate runs
        self.own_pidns = os.environ.get("TRUEPASS_OWN_PIDNS") == "1"
        self.limits = json.loads(os.environ.get("TRUEPASS_CHILD_LIMITS", "{}"))
        self.made = confine.prepare(
            self.scratch,
            use_landlock=os.environ.get("TRUEPASS_LANDLOCK", "1") == "1",
            use_seccomp=os.environ.get("TRUEPASS_SECCOMP", "1") == "1",
        )
        self.results = Buffer(int(os.environ.get("TRUEPASS_RESULT_BYTES", 16 << 20)))
        self.output = Buffer(int(os.environ.get("TRUEPASS_OUTPUT_BYTES", 64 << 10)))
        self.sink = Buffer(1 << 16)
        self.dying: list[Child] = []
        self.counter = checkchild.counted_streams()  # children inherit sys.stdout/stderr
        # The pipes every child gets (the zygote hands them down), and the worker's ends:
        # the request (the worker keeps its read end too, to empty it after a child died),
        # the result frames, the output (non-blocking here).
        self.request_r, self.request_w = os.pipe()
        self.result_r, result_w = os.pipe()
        self.out_r, out_w = os.pipe()
        self.child_fds = (self.request_r, result_w, out_w)
        os.set_blocking(self.out_r, False)
        os.set_blocking(self.request_w, False)  # only send_request writes it, as the child reads
        self.zygote = 0
        self.go_w = self.status_r = -1

    def serve(self) -> None:
        """Answer checks until the parent closes the pipe."""
        hello = {"pid": os.getpid(), "uid": os.getuid(), **self.made.summary()}
        hello["notes"] = self.made.notes
        write_all(1, [frame(json.dumps(hello).encode())])
        gc.collect()
        gc.freeze()  # what exists now is never traversed again: a child's collections copy
        # none of the worker's pages (copy-on-write), so a fork costs less to run and to end
        self.start_zygote()
        self.order_child()
        while (raw := read_frame(0)) is not None:
            header = json.loads(raw)
            payload = Buffer(header["size"])
            payload.used = header["size"]
            if not read_exact_into(0, payload.view):
                break
            try:
                events = self.check(header, payload.view)
            finally:
                payload.wipe()
                payload.close()
            self.respond(events)
            self.settle()
            if not self.scrub():
                os._exit(3)  # something the check left cannot be removed: be replaced
            self.order_child()
        self.stop_zygote()

    def stop_zygote(self) -> None:
        """At the end: the waiting child reads the end of its request pipe and exits, the
        zygote reaps it and exits, and the worker reaps the zygote (so that the CPU time of the
        zygote and of every child counts in the worker's, and the sandbox's, as it did when
        the worker forked the children itself)."""
        os.close(self.request_w)
        os.close(self.go_w)
        os.waitpid(self.zygote, 0)

    def respond(self, events: list[dict[str, object]]) -> None:
        """Send one check's response, then zero the buffers that held the candidate's bytes."""
        meta = {"events": events, "results": self.results.used, "output": self.output.used,
                "truncated": self.output.dropped > 0}  # fmt: skip
        head = json.dumps(meta).encode()
        body = [self.results.view[: self.results.used], self.output.view[: self.output.used]]
        total = _U32 + len(head) + self.results.used + self.output.used
        write_all(1, [total.to_bytes(_U32, "big"), len(head).to_bytes(_U32, "big"), head, *body])
        self.results.wipe()
        self.output.wipe()
        self.sink.used = self.sink.cap  # whatever it holds: forget it all
        self.sink.wipe()

    def start_zygote(self) -> None:
        """Fork the zygote: the process that forks every child (see :func:`zygote`)."""
        go_r, self.go_w = os.pipe()
        self.status_r, status_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the zygote never returns
            code = 70
            try:
                null = os.open(os.devnull, os.O_RDWR)
                os.dup2(null, 0)  # never hold the parent's channel: its end must be seen
                os.dup2(null, 1)
                os.close(null)
                for fd in (self.go_w, self.status_r, self.request_w, self.result_r, self.out_r):
                    os.close(fd)
                zygote(go_r, status_w, self.child_fds, self.made, self.limits, self.counter)
                code = 0
            finally:
                os._exit(code)
        os.close(go_r)
        os.close(status_w)
        for fd in self.child_fds[1:]:  # the child ends the worker never uses (it keeps request_r)
            os.close(fd)
        self.zygote = pid

    def order_child(self) -> None:
        """Have the zygote fork the next child (it confines itself and waits for its request)."""
        write_all(self.go_w, [b"f"])

    def take_child(self) -> Child:
        """The child the zygote forked last."""
        return Child(int.from_bytes(self.read_status(_U32), "big"))

    def read_status(self, size: int) -> bytes:
        """``size`` bytes from the zygote; a zygote gone is the worker's end."""
        data = bytearray(size)
        if not read_exact_into(self.status_r, memoryview(data)):
            raise RuntimeError("the zygote is gone")
        return bytes(data)

    def ended(self, child: Child) -> tuple[int, int]:
        """How ``child`` ended (waits until it has)."""
        if child.ended is None:
            raw = self.read_status(2 * _U32)
            child.ended = (int.from_bytes(raw[:_U32], "big"), int.from_bytes(raw[_U32:], "big"))
        return child.ended

    def check(self, header: dict, payload: memoryview) -> list[dict[str, object]]:
        """Run the cases, re-forking after a timeout or crash unless ``stop``."""
        n = len(header["timeouts"])
        events: list[dict[str, object]] = []
        start = 0
        while True:
            child = self.take_child()
            try:
                case, finished = self.run_child(child, header, payload, start, events)
            finally:
                if child.ended is None:  # not reaped before the worker has its status: no reuse
                    with contextlib.suppress(OSError):
                        os.kill(child.pid, signal.SIGKILL)
                self.dying.append(child)
            if finished or header["stop"] or case < 0 or case + 1 >= n:
                return events
            self.settle()
            self.order_child()
            start = case + 1

    def run_child(
        self, child: Child, header: dict, payload: memoryview, start: int, events: list
    ) -> tuple[int, bool]:
        """Hand the request to ``child`` and watch it; (case it ended in, finished)."""
        events.append({"e": "start", "case": start})
        request = {"start": start, "stop": header["stop"], "cpu_s": header["cpu_s"]}
        data = json.dumps(request).encode()
        if not self.send_request([frame(data), len(payload).to_bytes(_U32, "big"), payload]):
            # it died while idle, before any candidate code: an infra failure
            raise RuntimeError(f"the child died before its request: {self.ended(child)}")
        return self.watch(child, header, start, events)

    def send_request(self, buffers: list[bytes | memoryview]) -> bool:
        """Write the request while the child reads it; False if the child ended first (the
        worker holds a read end too, so a dead child's pipe would never say so)."""
        poll = select.poll()
        poll.register(self.request_w, select.POLLOUT)
        poll.register(self.status_r, select.POLLIN)
        for buffer in buffers:
            view = memoryview(buffer)
            while view:
                try:
                    view = view[os.write(self.request_w, view) :]
                    continue
                except BlockingIOError:
                    pass
                if any(fd == self.status_r for fd, _ in poll.poll()):
                    return False
        return True

    def settle(self) -> None:
        """Wait until the killed children have ended, empty the pipes they shared with the next
        child, and kill anything else left in the sandbox."""
        for child in self.dying:
            self.ended(child)
        self.dying = []
        for fd in (self.request_r, self.result_r, self.out_r):
            discard(fd, self.sink.view)
        self.sweep()

    def watch(self, child: Child, header: dict, start: int, events: list) -> tuple[int, bool]:
        """Read frames and output until every case has its frame, the deadline of the case in
        progress passes, the child dies or its results overflow; (case in progress, finished).
        Events of failures carry ``o``, the output taken so far; frames carry their own."""
        result_r, out_r, status_r = self.result_r, self.out_r, self.status_r
        timeouts: list[float] = header["timeouts"]
        walls: list[float] = header["walls"]
        case = -1  # -1 while the code loads, then the case in progress
        last = time.monotonic()
        deadline = last + float(header["load_timeout"])
        clock = cpu_clock(child.pid)
        cpu_mark, cpu_limit = 0.0, math.inf  # CPU time at the last frame; the case's CPU limit
        pos = self.results.used  # where the next frame starts
        poll = select.poll()
        poll.register(result_r, select.POLLIN)
        poll.register(out_r, select.POLLIN)
        poll.register(status_r, select.POLLIN)
        while True:
            now = time.monotonic()
            used = max(0.0, cpu_time(clock) - cpu_mark)  # 0 once the child is gone
            if now >= deadline or used >= cpu_limit:
                self.drain(out_r)
                self.results.used = pos
                events.append({"e": "timeout", "case": case, "dt": now - last, "cpu": used,
                               "by": "cpu" if used >= cpu_limit else "wall",
                               "o": self.output.used})  # fmt: skip
                return case, False
            wait = min(deadline - now, cpu_limit - used)  # CPU time runs no faster than wall
            ready = [fd for fd, _ in poll.poll(max(1, int(wait * 1000) + 1))]
            if ready == [status_r]:  # it exited, and all it wrote before is read: it is gone
                self.results.used = pos
                events.append(exit_event(case, self.ended(child), self.output.used))
                return case, False
            for fd in ready:
                if fd == status_r:
                    continue  # read what it wrote first
                buffer = self.results if fd == result_r else self.output
                try:
                    buffer.read_from(fd, self.sink.view)
                except BlockingIOError:  # drained already, after poll saw it
                    continue
                if fd != result_r:
                    continue
                if self.results.full:
                    self.results.used = pos
                    events.append({"e": "overflow", "case": case, "o": self.output.used})
                    return case, False
                while self.results.used - pos >= _U32:  # every complete frame
                    end = pos + _U32 + int.from_bytes(self.results.view[pos : pos + _U32], "big")
                    if end > self.results.used:
                        break
                    now, cpu = time.monotonic(), cpu_time(clock) or cpu_mark
                    if case < 0:
                        events.append({"e": "frame", "case": -1})
                        head = self.results.view[pos + _U32 : pos + _U32 + len(READY)]
                        if head == ARMED:
                            pos = end
                            continue
                        if head != READY:
                            self.results.used = end  # broken: no cases
                            self.drain(out_r)
                            return -1, True
                        case = start
                    else:
                        events.append({"e": "frame", "case": case, "dt": now - last,
                                       "cpu": max(0.0, cpu - cpu_mark)})  # fmt: skip
                        case += 1
                    pos, last, cpu_mark = end, now, cpu
                    if case >= len(timeouts):
                        self.results.used = pos
                        self.drain(out_r)  # all it wrote before its last frame
                        return case, True
                    deadline = now + float(walls[case])
                    cpu_limit = float(timeouts[case])

    def drain(self, out_r: int) -> None:
        """Read whatever output is in the pipe now."""
        with contextlib.suppress(BlockingIOError):
            while self.output.read_from(out_r, self.sink.view):
                pass

    def sweep(self) -> None:
        """Kill any process of the sandbox other than its init, the worker, its parent and its
        zygote (a child that ended is a zombie until the zygote reaps it: no pid is reused)."""
        if self.own_pidns:
            confine.kill_others({1, os.getpid(), os.getppid(), self.zygote})

    def scrub(self) -> bool:
        """Empty the scratch directories; False if something could not be removed."""
        return confine.empty_dirs(self.scrub_dirs, self.skeleton)


def cpu_clock(pid: int) -> int:
    """The id of process ``pid``'s CPU-time clock (Linux's encoding of
    ``clock_getcpuclockid``: every thread of the process, user and system time)."""
    return ((~pid) << 3) | 2


def cpu_time(clock: int) -> float:
    """Seconds on a process CPU clock; 0.0 once the process cannot be read (it is gone: the
    pipes tell what happened)."""
    try:
        return time.clock_gettime(clock)
    except OSError:
        return 0.0


def exit_event(case: int, ended: tuple[int, int], out: int) -> dict[str, object]:
    """The child ended before sending every frame (``case``: the one in progress, -1 loading);
    ``ended`` is waitid's (si_code, si_status)."""
    code, status = ended
    if code == os.CLD_EXITED:
        return {"e": "exit", "case": case, "code": status, "o": out}
    return {"e": "exit", "case": case, "signal": status, "o": out}


def discard(fd: int, sink: memoryview) -> None:
    """Read and drop whatever ``fd`` holds now (blocking or not: it reads only when poll says
    there is something)."""
    poll = select.poll()
    poll.register(fd, select.POLLIN)
    with contextlib.suppress(BlockingIOError):
        while poll.poll(0):
            if not os.readv(fd, [sink]):
                return


def zygote(
    go_r: int,
    status_w: int,
    fds: tuple[int, int, int],
    made: confine.Confinement,
    limits: dict[str, int],
    counter: checkchild.CountingWriter,
) -> None:
    """The zygote's life: for each byte the worker sends, reap the last child, fork the next
    (it runs :func:`checkchild.main` on ``fds``) and tell the worker its pid; then wait until it
    exits, without reaping it, and tell the worker how (si_code, si_status).

    The worker watches, judges frames and keeps the time: all the Python it runs per check
    would dirty pages a forked child shares with it, and each such page costs a copy on the
    next write. The zygote only forks and waits, so it writes few pages between forks, and the
    worker, forked off once, shares nothing with the children."""
    last = 0
    while os.read(go_r, 1):
        if last:
            os.waitpid(last, 0)
        last = os.fork()
        if last == 0:  # pragma: no cover - the child never returns
            code = 70
            try:
                checkchild.main(made, limits, fds, counter)
                code = 0
            finally:
                os._exit(code)
        write_all(status_w, [last.to_bytes(_U32, "big")])
        info = os.waitid(os.P_PID, last, os.WEXITED | os.WNOWAIT)
        ended = info.si_code.to_bytes(_U32, "big") + info.si_status.to_bytes(_U32, "big")
        write_all(status_w, [ended])
    if last:
        os.waitpid(last, 0)


def main() -> None:
    """Entry point inside the sandbox."""
    confine.set_dumpable(False)
    Worker().serve()


if __name__ == "__main__":
    main()
