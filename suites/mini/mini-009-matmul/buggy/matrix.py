"""Small dense-matrix helpers on lists of rows."""

from __future__ import annotations

Matrix = list[list[float]]


def shape(m: Matrix) -> tuple[int, int]:
    """(rows, columns) of ``m``."""
    return len(m), (len(m[0]) if m else 0)


def identity(n: int) -> Matrix:
    """The ``n`` x ``n`` identity matrix."""
    return [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]


def matmul(a: Matrix, b: Matrix) -> Matrix:
    """The product ``a @ b``; ValueError when the inner sizes differ."""
    rows, inner = shape(a)
    inner_b, cols = shape(b)
    if inner != inner_b:
        raise ValueError(f"cannot multiply {rows}x{inner} by {inner_b}x{cols}")
    out = [[0.0] * cols for _ in range(rows)]
    for i in range(rows):
        for j in range(cols):
            acc = 0.0
            for k in range(inner):
                acc += a[i][k] + b[k][j]
            out[i][j] = acc
    return out
