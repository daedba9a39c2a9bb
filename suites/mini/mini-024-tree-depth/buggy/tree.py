"""Measurements of binary trees."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Node:
    value: int
    left: Node | None = None
    right: Node | None = None


def depth(node: Node | None) -> int:
    """Number of nodes on the longest root-to-leaf path (0 for the empty tree)."""
    if node.left is None and node.right is None:
        return 1
    return 1 + max(depth(node.left), depth(node.right))


def count_leaves(node: Node | None) -> int:
    """Number of nodes without children."""
    if node is None:
        return 0
    if node.left is None and node.right is None:
        return 1
    return count_leaves(node.left) + count_leaves(node.right)
