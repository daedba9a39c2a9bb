"""One check's child: a fork of the warm worker that confines itself, then runs the candidate.

Standard library only: shipped into the sandbox beside ``worker.py``. The worker forks the child
ahead of time (while idle); the child confines itself at once (fds, uid, rlimits, Landlock,
seccomp) and then waits for its request on a pipe: a JSON frame ``{"start", "stop", "cpu_s"}``
and a frame with the payload (code, entry point, tagged args). It writes one result frame when
it is confined and about to run the candidate's code (``armed``; before it, only ``harness``
can come: the harness failed), one when the code is loaded (``{"k":"ready",...}``) or failed to
load (``broken``), and one per case from
``start`` on (``ok`` with the tagged value, ``bad`` for an unserialisable value, ``exc`` for an
exception). Every frame also carries ``o``, the bytes written so far through ``sys.stdout`` and
``sys.stderr`` (both go to one pipe, counted here), so that the parent can split the output by
case, and case frames carry ``t`` and ``c``, the call's duration and CPU time. All are
informational: a candidate can only misattribute its own output or misreport its own time (the
worker keeps the limits, on its own clocks).

Everything here runs in the candidate's own process: the candidate can tamper with all of it.
That is why the child only *reports* values and never judges them; the trusted parent checks the
framing, every index and every value's type, and holds the expected values. The parent may also
mix canary cases among the candidate's (``canaries`` in the payload: index and kind): for those
the child calls :func:`canary_value` or :func:`canary_raise` instead of the entry point, through
the same call, encoding and frames, and goes on after a canary's exception; the parent knows
what they must report (:mod:`truepass.sandbox.casecanaries`).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import sys
import time
import types
from collections.abc import Callable

try:
    from truepass.sandbox.guest import confine, plainvalues
except ImportError:  # inside the sandbox
    import confine  # type: ignore[no-redef]
    import plainvalues  # type: ignore[no-redef]

READY = b'{"k":"ready"'  # the prefix of the frame that says the code is loaded
_U32 = 4
NOBODY = 65534


def read_exact(fd: int, size: int) -> bytes:
    """``size`` bytes from ``fd`` (EOFError if it closes first)."""
    buffer = bytearray(size)
    view, done = memoryview(buffer), 0
    while done < size:
        got = os.readv(fd, [view[done:]])
        if not got:
            raise EOFError("the worker closed the request pipe")
        done += got
    return bytes(buffer)


def read_frame(fd: int) -> bytes:
    """One length-prefixed frame."""
    return read_exact(fd, int.from_bytes(read_exact(fd, _U32), "big"))


def confine_self(
    made: confine.Confinement, limits: dict[str, int], fds: tuple[int, int, int]
) -> None:
    """Keep only the child's own pipes (request, results, output as fds 1 and 2), drop root if
    the worker has it (weak fallback tier only), apply the rlimits, Landlock and seccomp."""
    request_r, result_w, out_w = fds
    os.setpgid(0, 0)
    devnull = os.open("/dev/null", os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(out_w, 1)
    os.dup2(out_w, 2)
    keep = sorted({0, 1, 2, request_r, result_w, made.ruleset_fd} - {-1})
    for low, high in zip(keep, [*keep[1:], 1 << 16], strict=True):
        os.closerange(low + 1, high)
    os.chdir(made.scratch)
    if os.geteuid() == 0:
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)
    confine.set_rlimits(
        memory_mb=limits["memory_mb"], file_size_mb=limits["file_size_mb"],
        open_files=limits["open_files"], no_procs=made.seccomp is None,
    )  # fmt: skip
    confine.apply(made)


class CountingWriter(io.RawIOBase):
    """fd 2, counting every byte written through it (in a child, fds 1 and 2 are its output
    pipe; in the worker, fd 2 is its own stderr and fd 1 its channel to the parent)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def writable(self) -> bool:
        return True

    def write(self, data: bytes) -> int:  # type: ignore[override]
        written = os.write(2, data)
        self.count += written
        return written


def counted_streams() -> CountingWriter:
    """Point ``sys.stdout`` and ``sys.stderr`` at fd 2 through one counting writer (the worker
    does this once; each child inherits the streams and resets the count)."""
    raw = CountingWriter()
    _KEEP.extend([sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__])  # never finalised
    sys.stdout, sys.stderr = (
        io.TextIOWrapper(io.BufferedWriter(raw), encoding="utf-8", errors="replace")
        for _ in range(2)
    )
    sys.__stdout__, sys.__stderr__ = sys.stdout, sys.stderr  # type: ignore[misc]
    return raw


_KEEP: list[object] = []  # the replaced streams: collecting them would close fds 1 and 2


def main(
    made: confine.Confinement,
    limits: dict[str, int],
    fds: tuple[int, int, int],
    counter: CountingWriter,
) -> None:
    """The whole life of a child (the caller ``_exit``s afterwards)."""
    request_r, result_w, _ = fds
    counter.count = 0
    send = _sender(result_w, counter)
    try:
        confine_self(made, limits, fds)
        header = json.loads(read_frame(request_r))
        confine.set_cpu_limit(int(header["cpu_s"]))
        request = json.loads(read_frame(request_r))
        random.seed(0)
    except EOFError:  # a spare child the worker no longer needs
        return
    except BaseException as exc:  # the candidate has not run yet: the harness failed
        send({"k": "harness", "e": describe(exc)})
        return
    send({"k": "armed"})  # from here on the candidate's code runs: "harness" means nothing
    run(request, int(header["start"]), bool(header["stop"]), send)


def canary_value(x: int, s: str) -> object:
    """What a canary case that must return a value returns: computed with operators and
    literals only (no builtin looked up by name, which a candidate might have replaced)."""
    return [x, -x, x * 3 + 1, (x % 97, x // 97), {s: x, "": None}, s + s[::-1], x > 0]


def canary_raise(x: int, s: str, _error: type[Exception] = LookupError) -> object:
    """A canary case that must raise: ``LookupError: S:X`` (the type bound at definition)."""
    raise _error(f"{s}:{x}")


CANARY_CALLS: dict[str, Callable[[int, str], object]] = {
    "value": canary_value,
    "raise": canary_raise,
}


def run(request: dict, start: int, stop: bool, send: Callable[[dict | None], None]) -> None:
    """Load the candidate's code and call its entry point on cases ``start``.. (the harness's
    canary function on the canary cases)."""
    # Bound before the candidate runs: patching builtins or these modules cannot reach them.
    indices = range(start, len(request["args"]))
    harness = {int(i): CANARY_CALLS[kind] for i, kind in request.get("canaries", ())}
    encode, decode, clock = plainvalues.encode, plainvalues.decode, time.perf_counter
    cpu = time.process_time
    unserialisable = plainvalues.Unserialisable
    entry = request["entry_point"]
    module = types.ModuleType("candidate")
    sys.modules["candidate"] = module
    try:
        exec(compile(request["code"], "<candidate>", "exec"), module.__dict__)
        function = module.__dict__.get(entry)
        if function is None:
            raise LookupError(f"entry point {entry!r} is not defined")
        if not callable(function):
            raise TypeError(f"entry point {entry!r} is not callable")
    except BaseException as exc:
        send({"k": "broken", "e": describe(exc)})
        return
    send(None)
    for index in indices:
        began, began_cpu = clock(), cpu()
        try:
            args = decode(request["args"][index])
            began, began_cpu = clock(), cpu()
            value = harness.get(index, function)(*args)
            took, took_cpu = clock() - began, cpu() - began_cpu
            try:
                message = {"k": "ok", "i": index, "v": encode(value), "t": took, "c": took_cpu}
            except unserialisable as exc:
                message = {"k": "bad", "i": index, "e": str(exc), "t": took, "c": took_cpu}
        except BaseException as exc:
            message = {"k": "exc", "i": index, "e": describe(exc), "t": clock() - began,
                       "c": cpu() - began_cpu}  # fmt: skip
        send(message)
        if message["k"] == "exc" and stop and index not in harness:
            return


def describe(exc: BaseException) -> str:
    """``Type: message`` of an exception, capped; never raises."""
    try:
        text = f"{type(exc).__name__}: {exc}"
    except BaseException:
        text = type(exc).__name__
    return text[:2000]


def _sender(fd: int, counter: CountingWriter) -> Callable[[dict | None], None]:
    dumps, write, size, view_of, streams = json.dumps, os.write, len, memoryview, sys

    def send(message: dict | None) -> None:
        for stream in (streams.stdout, streams.stderr):
            with contextlib.suppress(BaseException):
                stream.flush()
        message = {"k": "ready"} if message is None else message
        message["o"] = counter.count
        data = dumps(message, separators=(",", ":")).encode()
        view = view_of(size(data).to_bytes(_U32, "big") + data)
        while view:
            view = view[write(fd, view) :]

    return send
