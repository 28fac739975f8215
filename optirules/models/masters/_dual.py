r"""The restricted master LP solved as its dual: one row per clause instead of one per
label-1 row.

The LP relaxation of the rule master (the DRO paper eqs 6-8 with :math:`w \ge 0`)

.. math::

    \min\ \sum_{i \in P^+} \xi_i + \sum_k f_k w_k \quad \text{s.t.}\quad
    \xi_i + P_i \sum_{k \ni i} w_k \ge P_i\ (i \in P^+),\quad
    \sum_k c_k w_k \le C,\quad \xi, w \ge 0,

(:math:`f_k = \sum_{i \in Z_k} P_i + \lambda_0 + \lambda_1 |k|`) has the dual

.. math::

    \max\ \sum_{i \in P^+} P_i \mu_i - C \lambda \quad \text{s.t.}\quad
    \sum_{i \in P^+,\ k \ni i} P_i \mu_i - c_k \lambda \le f_k\ (k \in K),\quad
    0 \le \mu_i \le 1,\ \lambda \ge 0

(no :math:`\lambda` in the penalty form).  Its variables are the cover duals that pricing
needs, its rows are the clauses, and a clause added by column generation is a row added
to the dual: the simplex basis has one row per clause (a hundred or two) instead of one
per label-1 row, far more where continuous features leave the rows nearly all distinct
(magic_gamma's sizes: docs/user_guide/models.md).  Strong duality gives the same optimum; :math:`w_k` is the dual of clause
``k``'s row, and the reduced cost of column ``k`` is that row's slack.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import numpy as np

from ...solvers import capable
from .._clauses import Clause, clause_label
from .._problem import RuleSetProblem
from ._data import MasterData, PoolView
from ._highs import HighsRuleMaster
from ._highs_lp import highs_with_options, run_lp
from ._ip import MasterIPMixin
from ._protocol import MasterIP, solve_ip_doc

__all__ = ["DualHighsRuleMaster"]


class DualHighsRuleMaster(MasterIPMixin, PoolView):
    r"""The restricted master LP of :class:`~optirules.models.HighsRuleMaster`,
    held as its dual in a warm ``highspy.Highs`` (module docstring).

    Variables: :math:`\mu_i \in [0, 1]` for the label-1 rows, then :math:`\lambda \ge 0`
    (budget form only); rows: one per clause, :math:`\sum_{k \ni i} P_i \mu_i - c_k
    \lambda \le f_k`.  :meth:`add_clauses` appends rows (``Highs.addRows``), so the next
    :meth:`solve` restarts from the previous basis.  The attributes are those of the primal
    master: ``objective_`` (the common optimum), ``w_`` (the rows' duals), ``xi_``
    (:math:`P_i \max(0, 1 - \sum_{k \ni i} w_k)`), ``cover_duals_`` (:math:`\mu`),
    ``complexity_dual_`` (:math:`\lambda`), ``reduced_costs_`` (the rows' slacks, the
    reduced costs of the ``w`` columns), ``duals_for_pricing_``.  :meth:`solve_ip` solves
    the master IP as :class:`HighsRuleMaster` does, over the rows merged by their coverage
    of the IP's columns.

    Parameters
    ----------
    literals, labels, clauses, sample_weight, complexity, lambda0, lambda1, options
        As for :class:`HighsRuleMaster`.
    """

    def __init__(self, literals: Any, labels: Any, clauses: Iterable[Iterable[Any]] = (), *,
                 sample_weight: Any = None, complexity: float | None = None,
                 lambda0: float = 0.0, lambda1: float = 0.0,
                 options: dict[str, Any] | None = None) -> None:
        import highspy

        self._data = d = MasterData(RuleSetProblem(
            literals, labels, sample_weight, complexity, lambda0, lambda1))
        self._options = dict(options or {})
        self._inf = highspy.kHighsInf
        h = highs_with_options(self._options)
        n_pos = len(d.pos)
        self._p_pos = d.P[d.pos].astype(float)
        n_var = n_pos + (d.budget is not None)
        upper = np.ones(n_var)
        cost = self._p_pos.copy()
        if d.budget is not None:
            upper[-1] = self._inf
            cost = np.append(cost, -float(d.budget))
        h.addVars(n_var, np.zeros(n_var), upper)
        h.changeColsCost(n_var, np.arange(n_var, dtype=np.int32), cost)
        h.changeObjectiveSense(highspy.ObjSense.kMaximize)
        self._h = h
        self._n_pos = n_pos
        self._solved = False
        self.add_clauses(clauses)

    def add_clauses(self, clauses: Iterable[Iterable[Any]]) -> list[str]:
        """Append clauses (skipping those already present) as rows of the warm dual LP;
        returns their labels (``clause_k``).

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
        k = len(new)
        cov = d.coverage[d.pos, new[0]:new[-1] + 1]  # the new clauses are the last ones
        row, col = np.nonzero(cov.T)  # by clause, then by label-1 row
        counts = np.bincount(row, minlength=k)
        idx = col.astype(np.int32)
        val = self._p_pos[col]
        if d.budget is not None:  # -c_k on lambda, the last variable
            ends = np.cumsum(counts)
            idx = np.insert(idx, ends, self._n_pos).astype(np.int32)
            val = np.insert(val, ends, -d.cost[new])
            counts = counts + 1
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int32)
        rhs = (d.neg_loss[new] + d.penalty[new]).astype(float)
        self._h.addRows(k, np.full(k, -self._inf), rhs, int(idx.size), starts, idx, val)
        return [clause_label(c) for c in new]

    def solve(self) -> float:
        """Re-solve the dual LP from the current basis; return and store ``objective_``.

        Returns
        -------
        float
            The LP's optimal objective.
        """
        h, d = self._h, self._data
        run_lp(self, "the dual of the rule master LP", "try master='direct' or "
               "RuleMasterModel(relax=True) with another solver")
        info = h.getInfo()
        sol = h.getSolution()
        x = np.asarray(sol.col_value)
        n_pos = self._n_pos
        mu = np.clip(x[:n_pos], 0.0, 1.0)
        lam = max(float(x[n_pos]), 0.0) + 0.0 if d.budget is not None else 0.0
        K = len(d.clauses)
        # a row's dual is d objective / d rhs = w_k (>= 0 for a <= row of a maximization)
        self.w_ = np.abs(np.asarray(sol.row_dual, dtype=float)[:K]) if K else np.zeros(0)
        self.reduced_costs_ = np.maximum(
            (d.neg_loss + d.penalty) - np.asarray(sol.row_value, dtype=float)[:K], 0.0)
        self.iterations_ = int(info.simplex_iteration_count)
        self.objective_ = float(info.objective_function_value)
        covered = d.covered_weight(self.w_) if K else np.zeros(n_pos)
        self.xi_ = self._p_pos * np.maximum(0.0, 1.0 - covered)
        self.selected_ = [d.clauses[k] for k in np.flatnonzero(self.w_ > 0.5)]
        self.cover_duals_ = mu
        self.complexity_dual_ = lam
        self.duals_for_pricing_ = {"mu": mu.copy(), "lam": lam, "lambda0": d.lambda0,
                                   "lambda1": d.lambda1}
        self._solved = True
        return self.objective_

    @solve_ip_doc
    def solve_ip(self, clauses: Iterable[Iterable[Any]] | None = None, *,
                 solver: str = "highs", time_limit: float | None = None,
                 mip_gap: float | None = None, incumbent: Iterable[Clause] = (),
                 random_seed: int | None = None, aggregate: bool = True) -> MasterIP:
        """The master IP over ``clauses`` (default: the pool): with ``solver="highs"`` in a
        primal :class:`HighsRuleMaster` over the rows (merged by their coverage of
        ``clauses`` when ``aggregate``), as :meth:`HighsRuleMaster.solve_ip`; any other
        solver through :class:`RuleMasterModel`.
        """
        if not capable(solver, "milp", "highspy"):
            return super().solve_ip(clauses, solver=solver, time_limit=time_limit,
                                    mip_gap=mip_gap, incumbent=incumbent,
                                    random_seed=random_seed, aggregate=aggregate)
        t0 = time.perf_counter()
        cols = self._ip_columns(clauses)
        A, y, P, _ = self._ip_rows(cols, aggregate)
        d = self._data
        primal = HighsRuleMaster(A, y.astype(int), cols, sample_weight=P,
                                 complexity=d.budget, lambda0=d.lambda0, lambda1=d.lambda1,
                                 options=self._options)
        ip = primal.solve_ip(solver="highs", time_limit=time_limit, mip_gap=mip_gap,
                             incumbent=incumbent, random_seed=random_seed, aggregate=False)
        ip.wall_time = time.perf_counter() - t0
        return ip
