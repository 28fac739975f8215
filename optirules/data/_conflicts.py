"""Which literals no rule should hold together (:func:`literal_conflicts`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ._binarizer import Literal

__all__ = ["literal_conflicts", "literals_conflict"]


def literals_conflict(a: Literal, b: Literal) -> bool:
    """Whether a rule holding both ``a`` and ``b`` is useless: they test one column and one
    contradicts the other (the rule never fires) or implies it (the rule is the shorter one
    with a literal more).

    Two literals on one column that do neither, and so may share a rule: an interval
    (``x > 2`` and ``x <= 5``) and two excluded categories (``c != a`` and ``c != b``).
    Everything else on one column conflicts: two thresholds of one direction (one implies
    the other), an empty interval (``x <= 2`` and ``x > 5``), a category with any other
    test of its column (``c == a`` implies ``c != b`` and contradicts ``c == b`` and
    ``c != a``), and a missing-value test with any other (``is missing`` contradicts every
    comparison, which is False on a missing value; ``is not missing`` is implied by it).
    Literals on different columns never conflict.

    Parameters
    ----------
    a, b : Literal
        The two literals.

    Returns
    -------
    bool

    Examples
    --------
    >>> literals_conflict(Literal("x", ">", 2), Literal("x", "<=", 5))
    False
    >>> literals_conflict(Literal("x", ">", 2), Literal("x", ">", 4))
    True
    >>> literals_conflict(Literal("x", "==", 1), Literal("x", "==", 0))
    True
    """
    if a.feature != b.feature or a == b:
        return False
    ops = {a.op, b.op}
    if ops == {"<=", ">"}:
        low, high = (a, b) if a.op == ">" else (b, a)
        return not float(low.value) < float(high.value)
    if ops == {"!="}:
        return False
    return True


def literal_conflicts(literals: Sequence[Literal]) -> np.ndarray:
    """The pairs of ``literals`` (by position) that no rule should hold together
    (:func:`literals_conflict`), as an ``(m, 2)`` int array, ``a < b`` in each row.

    Rule learners pass them to column generation, whose pricing then never proposes such a
    rule (a contradiction covers no row, so it would otherwise meet a required feature for
    the price of its literals).

    Parameters
    ----------
    literals : sequence of Literal
        The literals, in the order of the literal matrix's columns.

    Returns
    -------
    ndarray of shape (m, 2), dtype int64
        The conflicting pairs by position.

    Examples
    --------
    >>> lits = [Literal("x", "<=", 2), Literal("x", ">", 2), Literal("x", ">", 4),
    ...         Literal("y", "==", 1)]
    >>> literal_conflicts(lits).tolist()
    [[0, 1], [0, 2], [1, 2]]
    """
    by_column: dict[str, list[int]] = {}
    for j, lit in enumerate(literals):
        by_column.setdefault(str(lit.feature), []).append(j)
    groups = list(by_column.values())
    # the pairs of each column in turn (columns in the order they first appear): columns of
    # thresholds only (a binarized numeric column) are done together, by their size
    parts, ranks = [], []
    thresholds: dict[int, list[int]] = {}
    for g, idx in enumerate(groups):
        if len(idx) < 2:
            continue
        if all(literals[j].op in _THRESHOLD_OPS for j in idx):
            thresholds.setdefault(len(idx), []).append(g)
            continue
        pairs = [(i, j) for p, i in enumerate(idx) for j in idx[p + 1:]
                 if literals_conflict(literals[i], literals[j])]
        parts.append(np.array(pairs, dtype=np.int64).reshape(-1, 2))
        ranks.append(np.full(len(pairs), g, dtype=np.int64))
    for size, gs in thresholds.items():
        pairs, rank = _threshold_conflicts(literals, [groups[g] for g in gs], size)
        parts.append(pairs)
        ranks.append(np.asarray(gs, dtype=np.int64)[rank])
    if not parts:
        return np.zeros((0, 2), dtype=np.int64)
    pairs, rank = np.concatenate(parts), np.concatenate(ranks)
    return pairs[np.lexsort((pairs[:, 1], pairs[:, 0], rank))]


_THRESHOLD_OPS = ("<=", ">")


def _threshold_conflicts(literals: Sequence[Literal], groups: list[list[int]], size: int
                         ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`literals_conflict` over the pairs of columns of ``size`` threshold literals
    each (``groups``: their positions, increasing), at once: the conflicting pairs and the
    index in ``groups`` of the column of each."""
    lits = [[literals[j] for j in idx] for idx in groups]
    above = np.array([[lit.op == ">" for lit in row] for row in lits], dtype=bool)
    value = np.array([[float(lit.value) for lit in row] for row in lits], dtype=float)
    has_col = np.array([[lit.column is not None for lit in row] for row in lits], dtype=bool)
    col = np.array([[0 if lit.column is None else lit.column for lit in row] for row in lits],
                   dtype=np.int64)
    p, q = np.triu_indices(size, 1)
    same_op = above[:, p] == above[:, q]
    # equal literals (the same op, value and column) never conflict
    equal = same_op & (value[:, p] == value[:, q]) & (has_col[:, p] == has_col[:, q]) \
        & (~has_col[:, p] | (col[:, p] == col[:, q]))
    # x > low and x <= high: an interval unless low >= high
    low = np.where(above[:, p], value[:, p], value[:, q])
    high = np.where(above[:, p], value[:, q], value[:, p])
    conflict = ~equal & (same_op | ~(low < high))
    g, t = np.nonzero(conflict)
    index = np.asarray(groups, dtype=np.int64)
    return np.column_stack([index[g, p[t]], index[g, q[t]]]), g
