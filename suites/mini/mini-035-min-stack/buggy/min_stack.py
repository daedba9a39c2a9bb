"""A stack that also reports its minimum in O(1)."""

from __future__ import annotations


class MinStack:
    def __init__(self) -> None:
        self._items: list[int] = []
        self._mins: list[int] = []

    def push(self, x: int) -> None:
        self._items.append(x)
        if not self._mins or x <= self._items[-1]:
            self._mins.append(x)

    def pop(self) -> int:
        """Remove and return the top item; IndexError when empty."""
        if not self._items:
            raise IndexError("pop from an empty stack")
        x = self._items.pop()
        if x == self._mins[-1]:
            self._mins.pop()
        return x

    def min(self) -> int:
        """The smallest item on the stack; IndexError when empty."""
        if not self._mins:
            raise IndexError("min of an empty stack")
        return self._mins[-1]

    def __len__(self) -> int:
        return len(self._items)
