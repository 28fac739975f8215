r"""Sums over the rows of a tall matrix taken by blocks of rows.

The products of pricing and of the masters are sums over the training rows of a boolean
matrix (the literal matrix, a pool's coverage) weighted by float64 row prices: numpy casts
the boolean operand of ``v @ B`` to a float64 copy, eight bytes for each of its entries
(the peaks by size are in benchmarks/results/scale.md).  :func:`row_block_sum` takes such
a sum by blocks of rows instead, each block's float64 operands within :data:`ROW_BLOCK_BYTES`, adding the
blocks' partial sums in float64 in block order.

When every row fits in one block the product is the very expression of the caller on the
whole matrix (the same floating-point operations as an unblocked product); with more
blocks the sums are grouped by block, which changes their rounding (a relative 1e-16 of
each block's sum of absolute values), never their exact value.  Counts (a 0/1 matrix
times a 0/1 matrix) stay exact whatever the blocks: every partial sum is an integer below
:math:`2^{53}`, which float64 holds exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["EXACT_COUNT", "ROW_BLOCK_BYTES", "modal_price", "row_block_sum", "row_slices"]

#: bytes of the float64 operands of one row block (``width`` float64 values per row)
ROW_BLOCK_BYTES = 1 << 26

#: float32 holds every whole number below this exactly: counts of fewer rows, summed in
#: float32, are exact
EXACT_COUNT = 1 << 24

#: most priced rows whose prices :func:`modal_price` sorts to find its candidate
MODE_SAMPLE = 1024


def modal_price(v: np.ndarray) -> tuple[float, np.ndarray] | None:
    """A nonzero price that at least a quarter of the rows with a price share (the label-0
    rows' price under uniform weights), and the mask of its rows in ``v``, when they are
    fewer than :data:`EXACT_COUNT`; else None.  A sum over rows can then take those rows
    as the price times their count (exact) and the others as they are (the degree-3
    extension sums of exact enumeration pricing do).  The candidate is the most common
    price among at most ``MODE_SAMPLE`` evenly spaced priced rows, so the cost is one pass
    over ``v`` (a price held by a quarter of the rows is that candidate but for
    improbable samples; missing it only leaves the plain sum)."""
    priced = v[v != 0.0]
    if priced.size == 0:
        return None
    sample = priced[:: max(1, priced.size // MODE_SAMPLE)]
    vals, counts = np.unique(sample, return_counts=True)
    c = vals[int(np.argmax(counts))]
    same = v == c
    n_same = int(np.count_nonzero(same))
    if 4 * n_same < priced.size or n_same >= EXACT_COUNT:
        return None
    return float(c), same


def row_slices(n_rows: int, width: int, block_bytes: int | None = None) -> list[slice]:
    """Consecutive row blocks of an ``n_rows``-row matrix whose float64 operands, ``width``
    values per row, take at most ``block_bytes`` each (default :data:`ROW_BLOCK_BYTES`; at
    least one row per block)."""
    if block_bytes is None:
        block_bytes = ROW_BLOCK_BYTES
    per = max(1, int(block_bytes) // (8 * max(int(width), 1)))
    return [slice(s, min(s + per, n_rows)) for s in range(0, max(int(n_rows), 1), per)]


def _accumulate(total: Any, part: Any) -> Any:
    if isinstance(total, tuple):
        return tuple(_accumulate(t, p) for t, p in zip(total, part))
    if isinstance(total, np.ndarray) and total.dtype == np.float64 and total.flags.writeable:
        total += part
        return total
    return total + part


def row_block_sum(part: Callable[[slice], Any], n_rows: int, width: int,
                  block_bytes: int | None = None) -> Any:
    """``part(rows)`` summed over the row blocks of :func:`row_slices` in block order.

    ``part`` returns the partial sums of one block of rows (an array, or a tuple of
    arrays added elementwise); with a single block it is called once on every row,
    ``slice(0, n_rows)``, so the result is the caller's unblocked expression.

    Parameters
    ----------
    part : callable
        ``part(rows)`` for a slice of rows.
    n_rows : int
        Rows of the matrix.
    width : int
        float64 values per row that one call of ``part`` holds (its block's operands).
    block_bytes : int, optional
        Bound on those operands' bytes per block (default :data:`ROW_BLOCK_BYTES`).

    Returns
    -------
    The sum of the blocks' results (float64 arrays are added in place).
    """
    total = None
    for rows in row_slices(n_rows, width, block_bytes):
        p = part(rows)
        total = p if total is None else _accumulate(total, p)
    return total
