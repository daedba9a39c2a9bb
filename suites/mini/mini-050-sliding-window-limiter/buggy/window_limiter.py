"""A sliding-window rate limiter driven by an explicit clock."""

from __future__ import annotations

from collections import deque


class SlidingWindowLimiter:
    """At most ``limit`` allowed events in any window of ``window`` seconds."""

    def __init__(self, limit: int, window: float) -> None:
        if limit < 1 or window <= 0:
            raise ValueError("limit and window must be positive")
        self.limit = limit
        self.window = window
        self._events: deque[float] = deque()

    def allow(self, now: float) -> bool:
        """Record an event at ``now`` if that keeps within the limit; say whether it did."""
        # An event exactly ``window`` seconds old has left the window.
        while self._events and self._events[0] < now - self.window:
            self._events.popleft()
        if len(self._events) <= self.limit:
            self._events.append(now)
            return True
        return False
