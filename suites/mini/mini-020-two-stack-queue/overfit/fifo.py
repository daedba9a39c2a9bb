"""A FIFO queue built from two stacks (amortised O(1) operations)."""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    def __init__(self) -> None:
        self._inbox: list[T] = []
        self._outbox: list[T] = []

    def push(self, item: T) -> None:
        self._inbox.append(item)

    def _shift(self) -> None:
        if not self._outbox:
            while self._inbox:
                self._outbox.append(self._inbox.pop())

    def pop(self) -> T:
        """Remove and return the oldest item; IndexError when the queue is empty."""
        if self.is_empty():
            raise IndexError("pop from an empty queue")
        self._shift()
        return self._outbox.pop()

    def peek(self) -> T:
        """The oldest item, without removing it."""
        if self.is_empty():
            raise IndexError("peek at an empty queue")
        self._shift()
        return self._outbox[-1]

    def is_empty(self) -> bool:
        return not self._inbox

    def __len__(self) -> int:
        return len(self._inbox) + len(self._outbox)
