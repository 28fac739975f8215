"""The highspy restricted master LP over rows merged by their coverage of the pool."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .._clauses import (
    Clause,
    clause_label,
)
from .._problem import RuleSetProblem
from ._data import (
    MasterData,
    PoolView,
    refine_groups,
)
from ._dual import DualHighsRuleMaster
from ._highs import (
    HighsRuleMaster,
)
from ._protocol import (
    MasterIP,
    solve_ip_doc,
)


class MergedHighsRuleMaster(PoolView):
    r"""The restricted master LP of :class:`HighsRuleMaster` over merged rows.

    Rows of equal label and equal coverage over the current pool are one row of summed
    weight (:func:`aggregate_rows`: the same LP optimum, and an optimal dual
    :math:`\mu_g` of a merged cover row is an optimal dual of each of its rows, since
    :math:`\sum_{i \in g} P_i \mu_g = W_g \mu_g` and every reduced cost is unchanged).  Each
    :meth:`add_clauses` splits the groups by the new columns' coverage; when the number of
    groups changes the LP over the merged rows is rebuilt (a :class:`HighsRuleMaster` over
    one row of each group), else the columns are appended to the warm LP.  Once the
    label-1 groups pass ``max_share`` of the label-1 rows the merging stops paying and the
    master becomes the LP over every row held as its dual
    (:class:`~optirules.models.DualHighsRuleMaster`, one row per clause) for
    the rest of the run.

    The pool, ``objective_``, ``reduced_costs_`` and ``duals_for_pricing_`` (``mu``: one
    dual per label-1 row, the merged row's dual repeated) are those of the unmerged LP;
    :meth:`solve_ip` is :meth:`HighsRuleMaster.solve_ip` (over rows merged by the IP's own
    columns).

    Parameters
    ----------
    literals, labels, clauses, sample_weight, complexity, lambda0, lambda1, options
        As for :class:`HighsRuleMaster`.
    max_share : float, default 0.5
        Merging stops when the label-1 groups exceed this share of the label-1 rows.
    warm_start : bool, default True
        Start each rebuilt LP from the last LP's simplex basis, carried over to the split
        rows (``split_basis``); ``False`` starts every rebuilt LP cold.  The LP optimum
        is the same either way (tested); only the simplex iterations differ.

    Attributes
    ----------
    n_groups_ : int
        Rows of the current LP (merged label-1 rows, or every label-1 row once unmerged).
    merged_ : bool
        Whether the LP is still over merged rows.
    warm_started_ : int
        Rebuilt LPs that HiGHS accepted a carried-over basis for.
    """

    def __init__(self, literals: Any, labels: Any, clauses: Iterable[Iterable[Any]] = (), *,
                 sample_weight: Any = None, complexity: float | None = None,
                 lambda0: float = 0.0, lambda1: float = 0.0,
                 options: dict[str, Any] | None = None, max_share: float = 0.5,
                 warm_start: bool = True) -> None:
        self._data = d = MasterData(RuleSetProblem(
            literals, labels, sample_weight, complexity, lambda0, lambda1))
        self._kw = dict(complexity=d.budget, lambda0=d.lambda0, lambda1=d.lambda1,
                        options=dict(options or {}))
        self.max_share = float(max_share)
        self._group = d.y.astype(np.int64)  # by label only while the pool is empty
        self._group, self._first = refine_groups(self._group, np.zeros((d.A.shape[0], 0)))
        self._inner: HighsRuleMaster | None = None
        self._pos_row = np.zeros(0, dtype=np.int64)
        self.merged_ = True
        self.warm_start = bool(warm_start)
        self.warm_started_ = 0
        self.add_clauses(clauses)
        if self._inner is None:
            self._rebuild()

    def _rebuild(self) -> None:
        d = self._data
        old = self._inner if self._inner is not None and self._inner._solved else None
        old_row = self._pos_row if old is not None else None  # old LP row of each positive
        if not self.merged_:  # rows that no longer merge: the LP as its dual (one row per
            # clause, DualHighsRuleMaster), solved cold

            self._inner = DualHighsRuleMaster(d.A, d.y.astype(int), d.clauses,
                                              sample_weight=d.P, **self._kw)
            self.n_groups_ = len(d.pos)
            old = parent = None
        else:
            first = self._first
            weights = np.bincount(self._group, weights=d.P, minlength=first.size)
            self._inner = HighsRuleMaster(d.A[first], d.y[first].astype(int), d.clauses,
                                          sample_weight=weights, **self._kw)
            # the merged LP row of each label-1 row
            inner_row = np.cumsum(d.y[first]) - 1
            self._pos_row = inner_row[self._group[d.pos]]
            self._pos_share = d.P[d.pos] / weights[self._group[d.pos]].clip(min=1e-300)
            self.n_groups_ = int(d.y[first].sum())
            if old_row is not None:  # the old LP row of each new LP row's first row
                lead = np.full(self.n_groups_, -1, dtype=np.int64)
                lead[self._pos_row[::-1]] = np.arange(len(d.pos))[::-1]
                parent = old_row[lead]
        if old is not None and self.warm_start:
            self.warm_started_ += int(split_basis(old, self._inner, parent))

    def add_clauses(self, clauses: Iterable[Iterable[Any]]) -> list[str]:
        """Append clauses (skipping those already present); returns their labels.

        Parameters
        ----------
        clauses : iterable of clauses
            Clauses as iterables of literal indices.

        Returns
        -------
        list of str
            The labels of the clauses added.
        """
        d = self._data
        new = d.add(clauses)
        if not new:
            return []
        if self.merged_:
            n_before = self._first.size
            self._group, self._first = refine_groups(self._group,
                                                      d.coverage[:, new[0]:new[-1] + 1])
            if int(d.y[self._first].sum()) > self.max_share * len(d.pos):
                self.merged_ = False
                self._rebuild()
            elif self._first.size != n_before or self._inner is None:
                self._rebuild()
            else:
                self._inner.add_clauses([d.clauses[k] for k in new])
        else:
            self._inner.add_clauses([d.clauses[k] for k in new])
        return [clause_label(k) for k in new]

    def solve(self) -> float:
        """Solve the LP (merged or not); return and store ``objective_``.

        Returns
        -------
        float
            The LP's optimal objective.
        """
        inner = self._inner
        z = inner.solve()
        self.objective_ = z
        self.status_, self.iterations_ = inner.status_, inner.iterations_
        self.wall_time_ = inner.wall_time_
        self.w_ = inner.w_
        self.reduced_costs_ = inner.reduced_costs_
        self.selected_ = inner.selected_
        self.complexity_dual_ = inner.complexity_dual_
        if self.merged_:
            self.cover_duals_ = inner.cover_duals_[self._pos_row]
            self.xi_ = inner.xi_[self._pos_row] * self._pos_share
        else:
            self.cover_duals_ = inner.cover_duals_
            self.xi_ = inner.xi_
        self.duals_for_pricing_ = dict(inner.duals_for_pricing_, mu=self.cover_duals_.copy())
        return z

    @solve_ip_doc
    def solve_ip(self, clauses: Iterable[Iterable[Any]] | None = None, *,
                 solver: str = "highs", time_limit: float | None = None,
                 mip_gap: float | None = None, incumbent: Iterable[Clause] = (),
                 random_seed: int | None = None, aggregate: bool = True) -> MasterIP:
        """The master IP over ``clauses`` (default: the pool), as
        :meth:`HighsRuleMaster.solve_ip` (same optimum over merged rows or not).
        """
        return self._inner.solve_ip(clauses, solver=solver, time_limit=time_limit,
                                    mip_gap=mip_gap, incumbent=incumbent,
                                    random_seed=random_seed, aggregate=aggregate)


def split_basis(old: HighsRuleMaster, new: HighsRuleMaster, parent: np.ndarray) -> bool:
    """Give ``new`` (a master over finer row groups, the same first columns and maybe more)
    a starting simplex basis from the solved ``old``.  ``parent[r]`` is the row of ``old``
    whose group holds new row ``r``'s rows.

    The first child of an old row takes the old statuses of its cover row and ``xi``
    column; each further child takes one basic variable: its row's slack when the old row
    was basic (inactive), else its ``xi``.  The basis keeps one basic variable per row;
    ``w`` columns and the budget row keep their status, new columns start at 0.  With the
    new columns at 0 the children of a row have the old row's coverage, so the start is
    primal feasible.  Returns whether
    HiGHS accepted the basis (else the next solve starts cold, as before).
    """
    import highspy

    basis = old._h.getBasis()
    if not basis.valid:
        return False
    basic, lower = highspy.HighsBasisStatus.kBasic, highspy.HighsBasisStatus.kLower
    code = {basic: 1, lower: 0}
    old_col = np.array([code.get(s, 2) for s in basis.col_status], dtype=np.int8)
    old_row = np.array([code.get(s, 2) for s in basis.row_status], dtype=np.int8)
    if old_row.size > old._n_pos:
        old_row[old._n_pos:] = 0
    n_old, n_new = old._n_pos, new._n_pos
    if (old_col == 2).any() or (old_row[:n_old] == 2).any() or parent.size != n_new:
        return False  # only the budget row may be nonbasic at its upper bound
    xi = old_col[:n_old][parent]
    row = old_row[:n_old][parent]
    extra = np.ones(n_new, dtype=bool)
    extra[np.unique(parent, return_index=True)[1]] = False  # the first child of each row
    row_basic = old_row[:n_old][parent] == 1
    xi[extra] = ~row_basic[extra]
    row[extra] = row_basic[extra]
    k_old = old_col.size - n_old
    col = np.concatenate([xi, old_col[n_old:], np.zeros(new._h.getNumCol() - n_new - k_old,
                                                         dtype=np.int8)])
    budget_row = list(basis.row_status)[n_old:]  # its own status (at its upper bound ...)
    if int(col.sum() + row.sum()) + sum(s == basic for s in budget_row) != \
            new._h.getNumRow():
        return False
    status = (lower, basic)
    b = highspy.HighsBasis()
    b.col_status = [status[v] for v in col]
    b.row_status = [status[v] for v in row] + budget_row
    b.valid = True
    return new._h.setBasis(b) == highspy.HighsStatus.kOk


#: LP solvers with a persistent Pyomo interface that returns duals: optirules name ->
