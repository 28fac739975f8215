r"""The master IP (the DRO paper eqs 6-8) by LP-based branch and bound over its dual LP.

A master IP over a few hundred clauses can have thousands of cover rows: continuous
features make nearly every label-1 row distinct, so merging equal rows leaves nearly all
of them (magic_gamma's sizes: docs/user_guide/models.md).  A MILP solver works on the primal, one LP row per cover
row, and re-solves that LP at every node.  Here every node LP is the *dual* of the node's
LP relaxation, held in one warm ``highspy`` model
(:class:`~optirules.models.DualHighsRuleMaster`: one row per clause), so a
node is a change of bounds re-solved from its parent's basis.

**Node LP.**  A node fixes :math:`w_k = 1` for :math:`k \in O` and :math:`w_k = 0` for
:math:`k \in Z`; the other clauses :math:`F` are free in :math:`[0, 1]`.  Substituting the
fixings, its LP relaxation has the dual

.. math::

    \max\ f(O) + \sum_{i \in P^+ \setminus \mathrm{cov}(O)} P_i \mu_i
        - \big(C - c(O)\big) \lambda
    \quad\text{s.t.}\quad \sum_{i \in P^+,\ k \ni i} P_i \mu_i - c_k \lambda \le f_k
        \ (k \in F), \quad 0 \le \mu \le 1,\ \lambda \ge 0

(:math:`f_k = \sum_{i \in Z_k} P_i + \lambda_0 + \lambda_1 |k|`, :math:`c_k = 1 + |k|`;
no :math:`\lambda` in the penalty form): the rows of :math:`O \cup Z` are freed, the
:math:`\mu_i` of the rows :math:`O` covers are fixed to 0 and :math:`\lambda`'s cost
changes.  :math:`w_k` is the dual of row :math:`k`.

**Bound.**  A node's bound is the Lagrangian value at its LP's :math:`(\mu, \lambda)`
(cover rows relaxed with multipliers :math:`P_i \mu_i`, the budget with :math:`\lambda`)

.. math::

    L(\mu, \lambda) = \sum_{i \in P^+} P_i \mu_i - C \lambda + \sum_{k \in O} r_k
        + \sum_{k \in F} \min(0, r_k), \qquad r_k = f_k + c_k \lambda
        - \sum_{i \in P^+,\ k \ni i} P_i \mu_i ,

a lower bound on every rule set of the node for *any* :math:`\mu \in [0, 1]`,
:math:`\lambda \ge 0`, so the proof does not rest on the LP's tolerances (it equals the LP
optimum when the LP solution is exact).

**Search.**  Best bound first; both children of a node are solved from its basis.  The
branching clause is the fractional one of the largest product of estimated bound gains
:math:`\psi^+_k (1 - w_k) \cdot \psi^-_k w_k`, where the pseudocosts :math:`\psi^\pm_k`
average the gains per unit change observed when branching on :math:`k` so far (the mean
over all clauses where :math:`k` has none yet; before the first branching, the clause
closest to :math:`1/2`).  The children are solved anyway, so the pseudocosts cost no extra
LP (no strong branching).  A node
whose :math:`w` is integral is a rule set; the LP solution rounded (:math:`w_k \ge 1/2`,
with :math:`O`), when within the budget, is a candidate incumbent; a free clause whose
reduced cost :math:`r_k` lifts the node's bound above the incumbent is fixed to 0 below
that node (no rule set better than the incumbent uses it there).  The search stops when
the incumbent is within ``mip_gap`` of the least bound of the open and the pruned nodes
(``incumbent - bound <= mip_gap * incumbent``), or at ``time_limit`` with the best rule set
found and that bound.
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Iterable
from typing import Any

import numpy as np

from ..errors import SolverError
from ._clauses import (
    clause_coverage,
    normalize_clauses,
)
from ._problem import RuleSetProblem
from .masters import LP_TOLERANCES, DualHighsRuleMaster, MasterIP, aggregate_rows

__all__ = ["branch_and_bound_master"]

#: ``w_k`` within this of 0 or 1 counts as integral
_INTEGRALITY = 1e-6


def branch_and_bound_master(problem: RuleSetProblem, clauses: Iterable[Iterable[Any]], *,
                            mip_gap: float | None = 1e-6, time_limit: float | None = None,
                            incumbent: Iterable[Iterable[Any]] = (),
                            random_seed: int | None = None) -> MasterIP:
    r"""The master IP over ``clauses`` (eqs 6-8) by branch and bound over its dual LP
    (module docstring).

    Parameters
    ----------
    problem : RuleSetProblem
        The literal matrix, labels (label 1 = True), row weights, budget :math:`C`
        (``None``: the penalty form) and penalty costs.  Its other side constraints
        (limit, fairness and required rows, literal costs) are not held here:
        column generation takes this route only without them.
    clauses : iterable of clauses
        The IP's columns.
    mip_gap : float or None, default 1e-6
        Relative gap at which the search stops (``None``: 1e-6).
    time_limit : float, optional
        Seconds for the search; when it passes, the best rule set so far is returned with
        status ``"time_limit"`` and its proven bound.
    incumbent : iterable of clauses
        A rule set to start from (e.g. a local-search one); the empty rule set is always
        a candidate.  Clauses not among ``clauses`` are ignored.
    random_seed : int, optional
        HiGHS's ``random_seed``.

    Returns
    -------
    MasterIP
        ``route="branch_and_bound"``; ``bound`` a proven lower bound on the IP optimum;
        ``info``: ``nodes`` (LPs solved), ``lp_iterations``, ``rows`` (merged cover rows).

    The rows are merged by their coverage of ``clauses`` first (:func:`aggregate_rows`:
    the same optimum).  Raises :class:`~optirules.errors.SolverError` when HiGHS fails on a
    node LP twice (from the parent's basis and from scratch).
    """

    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + max(0.0, float(time_limit))
    A, y, P = problem.A, problem.y, problem.P
    cols = list(dict.fromkeys(normalize_clauses(clauses, A.shape[1])))
    gap = 1e-6 if mip_gap is None else float(mip_gap)
    if not cols:  # nothing to choose: the empty rule set, which misses every positive
        missed = float(P[y].sum())
        return MasterIP([], missed, missed, "optimal", time.perf_counter() - t0,
                        "branch_and_bound", info={"nodes": 0, "lp_iterations": 0, "rows": 0})
    first, weights, _ = aggregate_rows(clause_coverage(A, cols), y, P)
    options = dict(LP_TOLERANCES)
    if random_seed is not None:
        options["random_seed"] = int(random_seed)
    master = DualHighsRuleMaster(A[first], y[first].astype(int), cols, sample_weight=weights,
                                 complexity=problem.complexity, lambda0=problem.lambda0,
                                 lambda1=problem.lambda1, options=options)
    search = _Search(master, gap, deadline)
    index = {c: k for k, c in enumerate(master.clauses_)}
    start = [index[c] for c in normalize_clauses(incumbent, A.shape[1]) if c in index]
    search.offer(np.array(sorted(set(start)), dtype=np.int64))
    status = search.run()
    chosen = [master.clauses_[k] for k in search.best]
    return MasterIP(chosen, float(search.ub), float(search.lower_bound()), status,
                    time.perf_counter() - t0, "branch_and_bound",
                    info={"nodes": search.nodes, "lp_iterations": search.iterations,
                          "rows": int(len(master._p_pos))})


class _Search:
    """Best-first branch and bound on a :class:`DualHighsRuleMaster` (module docstring)."""

    def __init__(self, master: Any, gap: float, deadline: float | None) -> None:
        import highspy

        d = master._data
        self.h = master._h
        self.inf = highspy.kHighsInf
        self.optimal = highspy.HighsModelStatus.kOptimal
        self.cov = np.ascontiguousarray(d.coverage[d.pos])  # cover rows x clauses
        self.covf = self.cov.astype(np.float64)
        self.p = np.asarray(master._p_pos, dtype=float)
        self.f = np.asarray(d.neg_loss + d.penalty, dtype=float)
        self.c = np.asarray(d.cost, dtype=float)
        self.budget = d.budget
        self.n, self.K = self.cov.shape
        self.n_var = self.n + (self.budget is not None)
        self.gap, self.deadline = gap, deadline
        self.best = np.zeros(0, dtype=np.int64)
        self.ub = float(self.p.sum())  # the empty rule set
        self.nodes = 0
        self.iterations = 0
        self.pruned = math.inf  # least bound of the nodes closed by the gap
        self.heap: list[tuple[float, int, frozenset, frozenset, np.ndarray, Any]] = []
        #: per clause: summed up-gains, their count, summed down-gains, their count
        self.pseudocosts: dict[int, np.ndarray] = {}
        self._cols = np.arange(self.n_var, dtype=np.int32)
        self._rows = np.arange(self.K, dtype=np.int32)

    # ------------------------------------------------------------------ rule sets
    def objective(self, S: np.ndarray) -> float:
        missed = ~self.cov[:, S].any(axis=1) if S.size else np.ones(self.n, dtype=bool)
        return float(self.p[missed].sum() + self.f[S].sum())

    def offer(self, S: np.ndarray) -> None:
        """Take rule set ``S`` (clause indices) as the incumbent if it is feasible and
        better."""
        if self.budget is not None and self.c[S].sum() > self.budget + 1e-9:
            return
        obj = self.objective(S)
        if obj < self.ub - 1e-15:
            self.ub, self.best = obj, np.sort(S)

    def closed(self, bound: float) -> bool:
        """Whether a node of this bound needs no search for ``mip_gap``."""
        return bound >= self.ub - self.gap * self.ub - 1e-12

    # ------------------------------------------------------------------ node LPs
    def solve(self, ones: frozenset, zeros: frozenset, basis: Any
              ) -> tuple[float, np.ndarray, np.ndarray, Any] | None:
        """The node's LP from ``basis``: (bound, w, reduced costs, basis), or None when the
        fixings exceed the budget."""
        h, n, K = self.h, self.n, self.K
        one = np.fromiter(ones, dtype=np.int64, count=len(ones))
        rest = None
        if self.budget is not None:
            rest = float(self.budget) - float(self.c[one].sum())
            if rest < -1e-9:
                return None
        upper = np.ones(self.n_var)
        if self.budget is not None:
            upper[-1] = self.inf
        if one.size:
            upper[:n][self.cov[:, one].any(axis=1)] = 0.0
        h.changeColsBounds(self.n_var, self._cols, np.zeros(self.n_var), upper)
        fixed = np.zeros(K, dtype=bool)
        fixed[list(ones | zeros)] = True
        hi = np.where(fixed, self.inf, self.f)
        h.changeRowsBounds(K, self._rows, np.full(K, -self.inf), hi)
        if rest is not None:
            h.changeColCost(n, -rest)
        for attempt in (basis, None):
            if attempt is not None:
                h.setBasis(attempt)
            else:
                h.clearSolver()
            h.run()
            if h.getModelStatus() == self.optimal:
                break
        else:
            raise SolverError(
                f"HiGHS did not solve a node LP of the master IP's branch and bound (status "
                f"{h.modelStatusToString(h.getModelStatus())!r}); use master_ip='milp'.")
        self.nodes += 1
        self.iterations += int(h.getInfo().simplex_iteration_count)
        sol = h.getSolution()
        x = np.asarray(sol.col_value, dtype=float)
        mu = np.clip(x[:n], 0.0, 1.0)
        lam = max(float(x[n]), 0.0) if self.budget is not None else 0.0
        r = self.f + self.c * lam - (self.p * mu) @ self.covf
        free = ~fixed
        bound = float(self.p @ mu) + float(r[one].sum()) + float(np.minimum(r[free], 0.0).sum())
        if self.budget is not None:
            bound -= float(self.budget) * lam
        w = np.abs(np.asarray(sol.row_dual, dtype=float))
        w[fixed] = 0.0
        w[one] = 1.0
        return bound, w, np.where(free, r, np.inf), h.getBasis()

    def consider(self, ones: frozenset, zeros: frozenset, result: Any) -> None:
        """Incumbents from a solved node, then queue it unless it is closed."""
        if result is None:
            return
        bound, w, r, basis = result
        S = np.flatnonzero(w >= 0.5)
        self.offer(S)
        integral = not ((w > _INTEGRALITY) & (w < 1.0 - _INTEGRALITY)).any()
        if integral or self.closed(bound):  # integral: the node's optimum is S, offered
            self.pruned = min(self.pruned, bound)
            return
        # reduced-cost fixing: w_k = 1 costs at least bound + r_k there
        drop = np.flatnonzero((bound + r > self.ub + 1e-12) & np.isfinite(r))
        if drop.size:
            zeros = zeros | frozenset(int(k) for k in drop)
        heapq.heappush(self.heap, (bound, self.nodes, ones, zeros, w, basis))

    def lower_bound(self) -> float:
        open_ = self.heap[0][0] if self.heap else math.inf
        return min(open_, self.pruned, self.ub)

    def branching(self, w: np.ndarray, frac: np.ndarray) -> int:
        """The clause to branch on: the best pseudocost product, or the most fractional
        before any branching was observed (module docstring)."""
        pc = self.pseudocosts
        if not pc:
            return int(frac[np.argmin(np.abs(w[frac] - 0.5))])
        obs = np.array(list(pc.values()))
        mean_up = obs[:, 0].sum() / max(obs[:, 1].sum(), 1.0)
        mean_down = obs[:, 2].sum() / max(obs[:, 3].sum(), 1.0)
        best, choice = -1.0, int(frac[0])
        for k in frac:
            s = pc.get(int(k))
            up = s[0] / s[1] if s is not None and s[1] else mean_up
            down = s[2] / s[3] if s is not None and s[3] else mean_down
            score = max(up * (1.0 - w[k]), 1e-12) * max(down * w[k], 1e-12)
            if score > best:
                best, choice = score, int(k)
        return choice

    def observe(self, k: int, w_k: float, bound: float, child: Any, up: bool) -> None:
        """Record a child's bound gain per unit change of w_k (the pseudocost of k)."""
        if child is None:
            return
        s = self.pseudocosts.setdefault(k, np.zeros(4))
        j = 0 if up else 2
        s[j] += max(child[0] - bound, 0.0) / max(1.0 - w_k if up else w_k, 1e-6)
        s[j + 1] += 1.0

    def run(self) -> str:
        self.consider(frozenset(), frozenset(), self.solve(frozenset(), frozenset(), None))
        while self.heap:
            if self.closed(self.lower_bound()):
                return "optimal"
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                return "time_limit"
            bound, _, ones, zeros, w, basis = heapq.heappop(self.heap)
            if self.closed(bound):
                self.pruned = min(self.pruned, bound)
                continue
            free = np.ones(self.K, dtype=bool)
            free[list(ones | zeros)] = False
            frac = np.flatnonzero(free & (w > _INTEGRALITY) & (w < 1.0 - _INTEGRALITY))
            if not frac.size:  # every fractional clause was fixed to 0 since: re-solve
                self.consider(ones, zeros, self.solve(ones, zeros, basis))
                continue
            k = self.branching(w, frac)
            up = self.solve(ones | {k}, zeros, basis)
            down = self.solve(ones, zeros | {k}, basis)
            self.observe(k, float(w[k]), bound, up, True)
            self.observe(k, float(w[k]), bound, down, False)
            self.consider(ones | {k}, zeros, up)
            self.consider(ones, zeros | {k}, down)
        return "optimal"
