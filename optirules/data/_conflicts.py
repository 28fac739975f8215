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
    pairs = [(i, j) for idx in by_column.values() if len(idx) > 1
             for p, i in enumerate(idx) for j in idx[p + 1:]
             if literals_conflict(literals[i], literals[j])]
    return np.array(pairs, dtype=np.int64).reshape(-1, 2)
