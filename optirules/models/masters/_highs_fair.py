"""The fairness rows (:mod:`._fairness`) in the warm ``highspy`` master: the
:math:`\\delta` columns, the rate rows and the ``neg_cover`` rows added once, and the pair
rows ``exact_pos`` / ``exact_neg`` of each clause added with its column."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._clauses import clause_label, row_label

__all__ = ["FairLayout"]


def _csr_rows(h: Any, lower: np.ndarray, upper: np.ndarray, matrix: np.ndarray,
              columns: np.ndarray) -> None:
    """Add the rows of the dense ``matrix`` (rows x len(columns)) over ``columns``."""
    r, c = np.nonzero(matrix)
    starts = np.searchsorted(r, np.arange(matrix.shape[0])).astype(np.int32)
    h.addRows(matrix.shape[0], lower.astype(float), upper.astype(float), int(r.size), starts,
              columns[c].astype(np.int32), matrix[r, c].astype(float))


class FairLayout:
    """Where the fairness parts sit in a :class:`HighsRuleMaster`'s model: the
    :math:`\\delta` columns after the :math:`\\xi` columns, then the rate rows, the
    ``neg_cover`` rows, and the pair rows in the order the clauses came."""

    def __init__(self, master: Any) -> None:
        d, h, inf = master._data, master._h, master._inf
        self.fair = f = d.fair
        n_pos = master._n_pos
        self.n_delta = len(d.neg) if f.negative else 0
        self.delta0 = n_pos
        if self.n_delta:  # delta_i in [0, P_i], cost 0
            h.addVars(self.n_delta, np.zeros(self.n_delta), d.P[d.neg].astype(float))
        self.rate_row0 = h.getNumRow()
        self.rate_names: list[str] = []
        eps = f.tolerance
        for side, col0, on in (("pos", 0, f.positive), ("neg", self.delta0, f.negative)):
            if not on:
                continue
            names, M = f.rate_rows(side)
            _csr_rows(h, np.full(len(names), -inf), np.full(len(names), eps), M,
                      col0 + np.arange(M.shape[1]))
            self.rate_names += names
        self.neg_row0 = h.getNumRow()
        if self.n_delta:  # neg_cover: delta_i - P_i sum_k w_k <= 0 (the w entries come later)
            n = self.n_delta
            _csr_rows(h, np.full(n, -inf), np.zeros(n), np.eye(n),
                      self.delta0 + np.arange(n))
        self.pairs: list[tuple[str, int, int]] = []  # (kind, data row, clause) by row
        self.named_rows = 0
        self.pair_row0 = -1  # set by the master once its fixed rows are in
    def column_entries(self, master: Any, cov_neg: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The new columns' entries in the ``neg_cover`` rows: ``(column, row, value)``."""
        d = master._data
        if not self.n_delta:
            return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)
        col, t = np.nonzero(cov_neg.T)
        return col, self.neg_row0 + t, -d.P[d.neg][t]

    def add_pair_rows(self, master: Any, new: list[int]) -> None:
        """``xi_i + P_i w_k <= P_i`` (``exact_pos``) and ``delta_i - P_i w_k >= 0``
        (``exact_neg``) for every new clause ``k`` and row ``i`` it covers."""
        d, h, inf = master._data, master._h, master._inf
        for kind, rows, on in (("exact_pos", d.pos, self.fair.positive),
                               ("exact_neg", d.neg, self.fair.negative)):
            if not on:
                continue
            cov = d.coverage[rows][:, new]
            t, c = np.nonzero(cov)
            if not t.size:
                continue
            p = d.P[rows][t].astype(float)
            w_col = (master._w0 + np.asarray(new)[c]).astype(np.int32)
            var = t if kind == "exact_pos" else self.delta0 + t
            n = t.size
            index = np.column_stack([var, w_col]).reshape(-1).astype(np.int32)
            value = np.column_stack([np.ones(n), p if kind == "exact_pos" else -p]).reshape(-1)
            lower, upper = ((np.full(n, -inf), p) if kind == "exact_pos"
                            else (np.zeros(n), np.full(n, inf)))
            h.addRows(n, lower, upper, 2 * n, np.arange(0, 2 * n, 2, dtype=np.int32), index,
                      value)
            self.pairs += [(kind, int(rows[i]), int(new[k])) for i, k in zip(t, c)]

    def sigma(self, row_dual: np.ndarray) -> np.ndarray | None:
        """The label-0 rows' ``neg_cover`` duals :math:`\\sigma \\ge 0` (None without)."""
        if not self.n_delta:
            return None
        return np.maximum(-row_dual[self.neg_row0:self.neg_row0 + self.n_delta], 0.0)

    def name(self, master: Any) -> None:
        """Name the delta columns and the fairness rows (first call), then the pair rows
        added since."""
        h, d = master._h, master._data
        if self.named_rows == 0:
            for t, i in enumerate(d.neg[:self.n_delta]):
                h.passColName(self.delta0 + t, f"delta({row_label(i)})")
                h.passRowName(self.neg_row0 + t, f"neg_cover({row_label(i)})")
            for r, name in enumerate(self.rate_names):
                h.passRowName(self.rate_row0 + r, name)
        first = self.pair_row0
        for r in range(self.named_rows, len(self.pairs)):
            kind, i, k = self.pairs[r]
            h.passRowName(first + r, f"{kind}({row_label(i)},{clause_label(k)})")
        self.named_rows = len(self.pairs)
