"""Conflicting literals: pairs no clause holds together.

Two literals of one input column conflict when one contradicts the other (``x <= 2`` and
``x > 5``: the clause never fires) or implies it (``x > 4`` and ``x > 2``: the clause is
the shorter one with a literal more).  Neither kind is a rule anyone wants, and a
contradiction covers no row, so it would meet a required feature's row for the price of
its literals alone.  Which literals conflict is a fact about what they mean, so the data
layer derives the pairs (:func:`~optirules.data.literal_conflicts`) and the models take
them as index pairs; :class:`ConflictIndex` answers the questions pricing asks of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import InputError

__all__ = ["ConflictIndex", "check_conflicts"]


def check_conflicts(conflicts: Any, n_lit: int) -> np.ndarray:
    """Pairs of literals no clause may hold together, as a sorted ``(m, 2)`` int array with
    ``a < b`` in each row (duplicates merged); an ``InputError`` for anything else.

    Parameters
    ----------
    conflicts : array-like of shape (m, 2) or None
        Literal index pairs.
    n_lit : int
        Number of literals (columns of the literal matrix).

    Returns
    -------
    ndarray of shape (m, 2), dtype int64

    Examples
    --------
    >>> check_conflicts([(3, 1), (1, 3), (0, 2)], 4).tolist()
    [[0, 2], [1, 3]]
    """
    if conflicts is None:
        return np.zeros((0, 2), dtype=np.int64)
    arr = np.asarray(conflicts)
    if arr.size == 0:
        return np.zeros((0, 2), dtype=np.int64)
    if arr.ndim != 2 or arr.shape[1] != 2 or arr.dtype.kind not in "iu":
        raise InputError(f"conflicts must be pairs of literal indices, shape (m, 2), got "
                         f"shape {arr.shape} of dtype {arr.dtype}.")
    arr = arr.astype(np.int64)
    # each pair as (smaller, larger): two elementwise passes, not a sort per row
    arr = np.column_stack([np.minimum(arr[:, 0], arr[:, 1]), np.maximum(arr[:, 0], arr[:, 1])])
    if arr.min() < 0 or arr.max() >= n_lit or (arr[:, 0] == arr[:, 1]).any():
        raise InputError(f"conflicts must pair two different literals in 0 .. {n_lit - 1}.")
    # the rows in lexicographic order, duplicates merged: one integer key per pair (a * L + b
    # orders as (a, b) does), far faster than a unique over rows
    key = np.sort(arr[:, 0] * np.int64(n_lit) + arr[:, 1])
    key = key[np.concatenate([[True], key[1:] != key[:-1]])]
    return np.column_stack([key // n_lit, key % n_lit])


class ConflictIndex:
    """The conflicting pairs of ``n_lit`` literals, indexed for pricing: each literal's
    partners (both directions, as a CSR structure), a bool mask over a block of pairs, and
    a test of a whole clause.

    Parameters
    ----------
    conflicts : array-like of shape (m, 2) or None
        Literal index pairs (:func:`check_conflicts`).
    n_lit : int
        Number of literals.

    Examples
    --------
    >>> ix = ConflictIndex([(0, 2), (1, 2)], 4)
    >>> ix.partners(2).tolist(), ix.conflicting((0, 1, 3)), ix.conflicting((0, 2))
    ([0, 1], False, True)
    >>> ix.mask([0, 1], [2, 3]).tolist()
    [[True, False], [True, False]]
    """

    def __init__(self, conflicts: Any, n_lit: int) -> None:
        self.n_lit = int(n_lit)
        self.pairs = check_conflicts(conflicts, self.n_lit)
        # every (literal, partner) entry, both directions, sorted: one integer key each
        width = np.int64(max(self.n_lit, 1))
        a, b = self.pairs[:, 0], self.pairs[:, 1]
        key = np.sort(np.concatenate([a * width + b, b * width + a]))
        self.indices = key % width
        self.indptr = np.zeros(self.n_lit + 1, dtype=np.int64)
        self.indptr[1:] = np.cumsum(np.bincount(key // width, minlength=self.n_lit))

    def __len__(self) -> int:
        return int(self.pairs.shape[0])

    def partners(self, literal: int) -> np.ndarray:
        """The literals that conflict with ``literal``, in increasing order."""
        j = int(literal)
        return self.indices[self.indptr[j]:self.indptr[j + 1]]

    def conflicting(self, clause: Sequence[int]) -> bool:
        """Whether ``clause`` holds two conflicting literals."""
        if len(clause) < 2 or not len(self):
            return False
        c = np.asarray(clause, dtype=np.int64)
        return any(np.isin(self.partners(j), c).any() for j in c.tolist())

    def mask(self, rows: Any, cols: Any) -> np.ndarray | None:
        """Which pairs ``(rows[a], cols[b])`` conflict, as a bool matrix of shape
        ``(len(rows), len(cols))``; None when none does.  ``cols`` must not repeat a
        literal."""
        if not len(self):
            return None
        rows = np.asarray(rows, dtype=np.int64).reshape(-1)
        cols = np.asarray(cols, dtype=np.int64).reshape(-1)
        ok = (rows >= 0) & (rows < self.n_lit)  # callers may pad rows with n_lit
        starts = np.where(ok, self.indptr[np.minimum(rows, self.n_lit - 1)], 0)
        counts = np.where(ok, self.indptr[np.minimum(rows, self.n_lit - 1) + 1], 0) - starts
        total = int(counts.sum())
        if total == 0:
            return None
        r_idx = np.repeat(np.arange(rows.size), counts)
        first = np.cumsum(counts) - counts
        offsets = np.arange(total) - np.repeat(first, counts) + np.repeat(starts, counts)
        where = np.full(self.n_lit + 1, -1, dtype=np.int64)
        keep = (cols >= 0) & (cols < self.n_lit)
        where[cols[keep]] = np.flatnonzero(keep)
        c_idx = where[self.indices[offsets]]
        hit = c_idx >= 0
        if not hit.any():
            return None
        out = np.zeros((rows.size, cols.size), dtype=bool)
        out[r_idx[hit], c_idx[hit]] = True
        return out
