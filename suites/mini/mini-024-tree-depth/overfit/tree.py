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
    left = depth(node.left) if node.left else 0
    right = depth(node.right) if node.right else 0
    return 1 + max(left, right)


def count_leaves(node: Node | None) -> int:
    """Number of nodes without children."""
    if node is None:
        return 0
    if node.left is None and node.right is None:
        return 1
    return count_leaves(node.left) + count_leaves(node.right)
