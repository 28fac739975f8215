"""The shared BruteDL search of a grid of ``min_coverage`` values at one ``max_degree``:
:func:`grid_lists` builds the rows' counts once (:mod:`._grid`) and runs the
search that keeps the counts of every conjunction when they are few
(:mod:`._dense`), else the one that keeps the tests' and pairs' counts."""

from __future__ import annotations

import numpy as np

from . import _grid as grid
from ._dense import DenseSearch, dense_size

__all__ = ["grid_lists"]


def grid_lists(codes: np.ndarray, y: np.ndarray, n_classes: int, n_values: np.ndarray,
               max_degree: int, coverages: list[int], max_rules: int | None = None, *,
               weights: np.ndarray | None = None, deadline: float | None = None
               ) -> list[tuple[list[dict], np.ndarray, str]] | None:
    """The BruteDL list of every ``min_coverage`` in ``coverages`` at ``max_degree``.

    Parameters
    ----------
    codes : ndarray of int, shape (n, p)
        Value codes of the rows (``0 .. n_values[j] - 1`` in column ``j``).
    y : ndarray of int, shape (n,)
        Classes ``0 .. n_classes - 1``.
    n_classes : int
        ``k``.
    n_values : ndarray of int, shape (p,)
        Number of values of each attribute; tests are numbered attribute by attribute, as
        :meth:`~optirules.learners.DecisionListClassifier.fit` numbers them.
    max_degree : int
        Largest number of tests in a rule (1 to ``MAX_SHARED_DEGREE``).
    coverages : list of int
        The ``min_coverage`` values (integers >= 1).
    max_rules : int or None
        Largest number of rules in a list.
    weights : ndarray of float, shape (n,), optional
        Positive row weights, as :func:`grow_decision_list` takes them.
    deadline : float, optional
        A :func:`time.perf_counter` value: once it has passed, no further rule is searched
        in any list (the rules found are kept) and their stop reason is ``"time_limit"``.

    Returns
    -------
    list of (steps, remaining, stop) or None
        One entry per coverage, in the order given, each what
        ``grow_decision_list(onehot, y, n_classes, av_attr, max_degree, coverage,
        max_rules, weights=weights)`` returns (``candidates`` and ``seconds`` of a step
        are the shared search's, the step shared by every list that took it); ``None``
        when the shared search does not apply (see the module docstring).
    """
    if not 1 <= int(max_degree) <= grid.MAX_SHARED_DEGREE or not coverages:
        return None
    coverages = [max(1, int(c)) for c in coverages]
    y = np.asarray(y, dtype=np.int64)
    try:
        rows = grid._Rows(np.asarray(codes), y, int(n_classes), np.asarray(n_values),
                          weights, min(coverages), int(max_degree) >= 2)
    except grid._NotShared:
        return None
    n_cells, n_entries = dense_size(rows, int(max_degree))
    if n_cells <= grid.MAX_DENSE_CELLS and n_entries <= grid.MAX_DENSE_ENTRIES:
        return DenseSearch(rows, int(max_degree), coverages, max_rules, deadline).run()
    return grid._Search(rows, int(max_degree), coverages, max_rules, deadline).run()
