"""The shared BruteDL search of :mod:`optirules.learners._decision_list._grid` when the rows
hold few conjunctions: the class counts of every conjunction up to ``max_degree`` are kept.

Each conjunction of ``1 .. max_degree`` useful tests on distinct attributes is a *cell*;
the cells run by depth, then in lexicographic order of their tests (attribute/value
order), so the first cell among those of equal Laplace accuracy and coverage is the one
the exhaustive search prefers (fewer tests, then the first in that order).  Their weight
group counts are counted once on all rows and decreased by the rows each rule covers, so
a step reads every candidate's counts instead of counting them.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from ._grid import _best, _Rows, _Search
from ._search import _row_max, _row_sum

__all__ = ["DenseSearch", "dense_size"]


def dense_size(rows: _Rows, degree: int) -> tuple[int, int]:
    """The number of conjunctions up to ``degree`` of ``rows``' useful tests, and of
    (row, attribute set) entries of the table of each row's cells."""
    p = rows.p
    per_row = p + (p * (p - 1) // 2 if degree >= 2 else 0) \
        + (p * (p - 1) * (p - 2) // 6 if degree >= 3 else 0)
    return _n_cells(rows, degree), rows.n * per_row


def _n_cells(rows: _Rows, degree: int) -> int:
    n = rows.n_u
    if degree >= 2:
        n += rows.n2
    if degree >= 3 and rows.n2:
        n += int(np.sum(rows.n_u - rows.first[rows.attr[rows.p2] + 1]))
    return n


class _DenseNode:
    """The lists of some coverages that chose the same rules so far: the rows left and
    the weight-group counts of every cell over them."""

    def __init__(self, rem, counts, cols, steps):
        self.rem, self.counts, self.cols, self.steps = rem, counts, cols, steps

    def copy(self, cols: list[int]) -> _DenseNode:
        return _DenseNode(self.rem.copy(), self.counts.copy(), cols, list(self.steps))


class DenseSearch(_Search):
    """:class:`~optirules.learners._decision_list._grid._Search` with the counts of every
    cell kept (see the module docstring)."""

    def __init__(self, rows: _Rows, degree: int, coverages: list[int],
                 max_rules: int | None, deadline: float | None):
        super().__init__(rows, degree, coverages, max_rules, deadline)
        r = rows
        p = r.p
        tests = [np.column_stack([np.arange(r.n_u), np.full(r.n_u, -1), np.full(r.n_u, -1)])]
        self.attr_sets = [np.arange(p)[:, None]]
        self.offsets = [0]
        if degree >= 2 and r.n2:
            tests.append(np.column_stack([r.p1, r.p2, np.full(r.n2, -1)]))
            self.attr_sets.append(np.array(list(combinations(range(p), 2)),
                                           dtype=np.int64).reshape(-1, 2))
            self.offsets.append(r.n_u)
        if degree >= 3 and r.n2:
            start = r.first[r.attr[r.p2] + 1]  # the third tests of each pair
            size = r.n_u - start
            self.base3 = np.concatenate([[0], np.cumsum(size)[:-1]]).astype(np.int64)
            pair = np.repeat(np.arange(r.n2), size)
            third = np.arange(int(size.sum())) - self.base3[pair] + start[pair]
            tests.append(np.column_stack([r.p1[pair], r.p2[pair], third]))
            self.attr_sets.append(np.array(list(combinations(range(p), 3)),
                                           dtype=np.int64).reshape(-1, 3))
            self.offsets.append(r.n_u + r.n2)
        self.tests = np.concatenate(tests)  # (n_cells, 3) useful tests, -1 padded
        self.n_cells = self.tests.shape[0]
        # the cells of each row, once (the counts of a rule's rows are taken out of them)
        self.cells = np.concatenate(
            [self._row_cells(np.arange(s, min(r.n, s + 4096))) for s in range(0, r.n, 4096)]
        ).astype(np.int32 if self.n_cells < 2**31 else np.int64)

    def _row_cells(self, rows: np.ndarray) -> np.ndarray:
        """The cell of each of ``rows`` (first axis) and attribute set (second axis), -1
        where the row's value is not a useful test."""
        r = self.rows
        u = r.U[rows]
        out = []
        for depth, attrs in enumerate(self.attr_sets, start=1):
            t = u[:, attrs]  # (len(rows), n_sets, depth)
            ok = (t >= 0).all(axis=2)
            t = np.maximum(t, 0)
            if depth == 1:
                cell = t[:, :, 0]
            else:
                cell = np.where(ok, r.base[t[:, :, 0]] + t[:, :, 1]
                                - r.first[attrs[None, :, 0] + 1], 0)
                if depth == 3:
                    cell = self.base3[cell] + t[:, :, 2] - r.first[attrs[None, :, 1] + 1]
            out.append(np.where(ok, cell + self.offsets[depth - 1], -1))
        return np.concatenate(out, axis=1)

    def _flat_cells(self, rows: np.ndarray) -> np.ndarray:
        """The flat indices (cell, weight group) of the counts ``rows`` add to."""
        cells = self.cells[rows]
        groups = np.broadcast_to(self.rows.lab[rows][:, None], cells.shape)
        ok = cells >= 0
        return cells[ok] * self.rows.n_groups + groups[ok]

    def root(self) -> _DenseNode:
        r = self.rows
        g = r.n_groups
        counts = np.bincount(self._flat_cells(np.arange(r.n)), minlength=self.n_cells * g)
        cols = sorted(range(len(self.coverages)), key=lambda i: self.coverages[i])
        return _DenseNode(np.ones(r.n, dtype=bool), counts.reshape(self.n_cells, g), cols, [])

    def _decide(self, node: _DenseNode) -> tuple[list, int]:
        r = self.rows
        m = len(node.cols)
        rem_idx = np.flatnonzero(node.rem)
        stop = self._stop(node, rem_idx)
        if stop is not None:
            return [("stop", stop)] * m, 0
        cc = r.class_counts(node.counts)
        tot = _row_sum(cc)
        la = (_row_max(cc) + 1.0) / (tot + self.k)
        default_la = self._default_laplace(rem_idx)
        out = []
        for i in node.cols:
            cell, top, _ = _best(la, tot, self.coverages[i])
            if cell < 0:
                out.append(("stop", "min_coverage"))
            elif top <= default_la:
                out.append(("stop", "not_better_than_default"))
            else:
                conj = tuple(int(r.uav[t]) for t in self.tests[cell] if t >= 0)
                out.append(("rule", conj, top))
        return out, self.n_cells

    def _apply(self, node: _DenseNode, conj: tuple[int, ...], la: float, n_looked: int,
               t0: float) -> None:
        rows = self._take(node, conj, la, n_looked, t0)
        np.subtract.at(node.counts.reshape(-1), self._flat_cells(rows), 1)
