"""Concurrent, capped reading of a sandboxed process's pipes.

All pipes are read from one thread with a selector, so no pipe can fill up and block the child
while we wait on another. Each stream keeps at most ``cap`` bytes; the rest is read and discarded
(the writer never blocks on a full pipe) and the stream is flagged as truncated.
"""

from __future__ import annotations

import os
import selectors
import time
from collections.abc import Callable

_CHUNK = 1 << 16


class Stream:
    """The read end of one pipe, with the bytes kept so far."""

    def __init__(self, fd: int, cap: int) -> None:
        self.fd = fd
        self.cap = cap
        self.data = bytearray()
        self.truncated = False
        self.open = True
        os.set_blocking(fd, False)

    def absorb(self, chunk: bytes) -> None:
        """Keep what fits under the cap and flag the rest as discarded."""
        room = self.cap - len(self.data)
        if len(chunk) > room:
            self.truncated = True
            chunk = chunk[: max(room, 0)]
        self.data += chunk

    def close(self) -> None:
        """Close the read end (idempotent)."""
        if self.open:
            self.open = False
            os.close(self.fd)


def drain(
    streams: list[Stream],
    *,
    deadline: float,
    exited: Callable[[], bool],
    grace_s: float = 0.5,
) -> None:
    """Read every open stream until all reach end of file, ``deadline`` passes, or ``grace_s``
    after ``exited()`` first returns True (an escaped grandchild may hold a pipe open forever).

    Streams that reach end of file are closed; the others stay open for a later call.
    """
    selector = selectors.DefaultSelector()
    for stream in streams:
        if stream.open:
            selector.register(stream.fd, selectors.EVENT_READ, stream)
    stop, exit_seen = deadline, False
    try:
        while selector.get_map():
            now = time.monotonic()
            if not exit_seen and exited():
                exit_seen, stop = True, min(deadline, now + grace_s)
            if now >= stop:
                return
            for key, _ in selector.select(timeout=min(stop - now, 0.05)):
                stream = key.data
                try:
                    chunk = os.read(stream.fd, _CHUNK)
                except BlockingIOError:
                    continue
                if chunk:
                    stream.absorb(chunk)
                else:
                    selector.unregister(stream.fd)
                    stream.close()
    finally:
        selector.close()
