"""A token-bucket rate limiter driven by an explicit clock."""

from __future__ import annotations


class TokenBucket:
    """Bursts of up to ``capacity`` requests, refilled at ``rate`` tokens per second."""

    def __init__(self, capacity: float, rate: float, now: float = 0.0) -> None:
        if capacity <= 0 or rate <= 0:
            raise ValueError("capacity and rate must be positive")
        self.capacity = capacity
        self.rate = rate
        self.tokens = capacity
        self.updated = now

    def _refill(self, now: float) -> None:
        elapsed = max(0.0, now - self.updated)
        self.tokens = self.tokens + elapsed * self.rate
        self.updated = max(self.updated, now)

    def allow(self, now: float, cost: float = 1.0) -> bool:
        """Take ``cost`` tokens at time ``now`` if there are enough; say whether that happened."""
        self._refill(now)
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False
