"""The restricted master LP rebuilt and solved from scratch at every solve."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import numpy as np

from ...errors import InputError
from .._clauses import (
    clause_label,
)
from .._problem import RuleSetProblem
from ._data import (
    MasterData,
    PoolView,
)
from ._ip import (
    MasterIPMixin,
)
from ._pyomo import (
    RuleMasterModel,
)


class RebuildRuleMaster(MasterIPMixin, PoolView):
    r"""The restricted master LP rebuilt and solved from scratch at every :meth:`~optirules.models.RebuildRuleMaster.solve`.

    For any LP solver that returns duals: through Pyomo (:class:`RuleMasterModel` with
    ``relax=True``) where the solver returns duals there (HiGHS, CBC's CLP, Gurobi,
    CPLEX), otherwise as a ``cvxpy.Problem`` in matrix form (SCIP, Clarabel, SCS, OSQP,
    SciPy's HiGHS):

    .. math::

        \min\ \mathbf 1^\top \xi + (z + \pi)^\top w \quad \text{s.t. }
        \xi + \operatorname{diag}(P^+) A^+ w \ge P^+,\ c^\top w \le C,\ \xi, w \ge 0

    with :math:`A^+` the coverage of the label-1 rows, :math:`z_k = \sum_{i \in Z_k} P_i`
    and :math:`\pi_k = \lambda_0 + \lambda_1 |k|`.  Cover duals :math:`\mu \ge 0` and
    :math:`\lambda \ge 0` are read from the constraints.  Interior-point solvers
    (Clarabel, SCS) return duals to their tolerance only, so column generation with them
    prices approximately.  The side constraints of :class:`RuleMasterModel` come with a
    :class:`~optirules.models.RuleSetProblem`, through :meth:`from_problem` (fairness and
    required groups on the Pyomo route only).

    Parameters
    ----------
    literals, labels, clauses, sample_weight, complexity, lambda0, lambda1
        As for :class:`HighsRuleMaster`.
    solver : str, default "highs"
        Any solver with LP duals on the Pyomo or the cvxpy route
        (:func:`~optirules.solvers.available_solvers`).
    route : {"auto", "pyomo", "cvxpy"}, default "auto"
        ``"auto"``: Pyomo when the solver returns duals there, else cvxpy.
    """

    def __init__(self, literals: Any, labels: Any, clauses: Iterable[Iterable[Any]] = (), *,
                 sample_weight: Any = None, complexity: float | None = None,
                 lambda0: float = 0.0, lambda1: float = 0.0, solver: str = "highs",
                 route: str = "auto") -> None:
        self._start(RuleSetProblem(literals, labels, sample_weight, complexity, lambda0,
                                   lambda1), clauses, solver, route)

    @classmethod
    def from_problem(cls, problem: RuleSetProblem, clauses: Iterable[Iterable[Any]] = (), *,
                     solver: str = "highs", route: str = "auto") -> RebuildRuleMaster:
        """The master LP of ``problem`` (its data, budget, penalties and every side
        constraint; fairness and required groups on the Pyomo route only) over the pool
        ``clauses``.

        Parameters
        ----------
        problem : RuleSetProblem
            The problem (its ``max_degree`` and ``conflicts`` are pricing's and unused here).
        clauses : iterable of clauses, default ()
            The initial pool.
        solver, route : str
            As for the constructor.

        Returns
        -------
        RebuildRuleMaster
        """
        master = cls.__new__(cls)
        master._start(problem, clauses, solver, route)
        return master

    def _start(self, problem: RuleSetProblem, clauses: Iterable[Iterable[Any]], solver: str,
               route: str) -> None:
        from ...solvers import available_solvers

        self._data = MasterData(problem)
        self._data.add(clauses)
        fairness, required = problem.fairness, problem.required
        key = str(solver).strip().lower()
        info = {s.name: s for s in available_solvers()}.get(key)
        routes = [r for r in ("pyomo", "cvxpy")
                  if info is not None and info.can("lp", r) and info.can("duals", r)]
        if route not in ("auto", "pyomo", "cvxpy"):
            raise InputError(f"route must be 'auto', 'pyomo' or 'cvxpy', got {route!r}.")
        if route != "auto":
            routes = [r for r in routes if r == route]
        if fairness is not None or required:  # these rows are on the Pyomo model only
            routes = [r for r in routes if r == "pyomo"]
        if not routes:
            able = [s.name for s in available_solvers()
                    if any(s.can("lp", r) and s.can("duals", r) for r in ("pyomo", "cvxpy"))]
            raise InputError(
                f"solver {solver!r} cannot solve the rule master LP with duals"
                f"{'' if route == 'auto' else ' on the ' + route + ' route'}; installed "
                f"LP solvers that return duals: {', '.join(able)}."
            )
        self.solver = key
        self.route = routes[0]

    def add_clauses(self, clauses: Iterable[Iterable[Any]]) -> list[str]:
        """Add clauses to the pool; the next :meth:`solve` rebuilds the LP.

        Parameters
        ----------
        clauses : iterable of clauses
            Clauses as iterables of literal indices.

        Returns
        -------
        list of str
            The labels of the clauses added.
        """
        return [clause_label(k) for k in self._data.add(clauses)]

    def solve(self) -> float:
        """Build the LP over the current pool, solve it and read the duals.

        Returns
        -------
        float
            The LP's optimal objective (also ``objective_``).
        """
        t0 = time.perf_counter()
        d = self._data
        if self.route == "pyomo":
            lp = RuleMasterModel.from_problem(
                self._problem_over(d.A, d.y, d.P, np.arange(d.A.shape[0])), d.clauses,
                relax=True)
            lp.solve(self.solver)
            out = self._store_duals(lp.objective_, lp.cover_duals_, lp.complexity_dual_,
                                    list(getattr(lp, "limit_duals_", {}).values()),
                                    lp.duals_for_pricing_.get("sigma"),
                                    lp.duals_for_pricing_.get("required_duals"))
        else:
            out = self._solve_cvxpy()
        self.wall_time_ = time.perf_counter() - t0
        return out

    def _solve_cvxpy(self) -> float:
        import cvxpy as cp
        import scipy.sparse as sp

        from ...solvers import solve

        d = self._data
        n_pos, K = len(d.pos), len(d.clauses)
        p_pos = d.P[d.pos]
        xi = cp.Variable(n_pos, nonneg=True)
        if K:
            w = cp.Variable(K, nonneg=True)
            cover_matrix = sp.csr_matrix(d.coverage[d.pos].astype(float) * p_pos[:, None])
            cover = xi + cover_matrix @ w >= p_pos
            cons = [cover]
            objective = cp.sum(xi) + (d.neg_loss + d.penalty) @ w
            if d.budget is not None:
                budget = d.cost @ w <= d.budget
                cons.append(budget)
            limits = [coef @ w <= rhs for coef, (*_, rhs) in
                      zip(d.limit_coefficients(np.arange(K)), d.limits)]
            cons += limits
        else:
            cover = xi >= p_pos
            cons, objective = [cover], cp.sum(xi)
        result = solve(cp.Problem(cp.Minimize(objective), cons), self.solver)
        if not result.has_solution:
            result.raise_for_status()
        mu = np.maximum(np.asarray(cover.dual_value, dtype=float).reshape(-1), 0.0)
        # a row no pool column covers has xi_i = P_i > 0, so its dual is exactly 1 in every
        # optimal pair (complementary slackness on xi_i); cvxpy's SCIP interface reports
        # 0 there, since SCIP turns a one-variable row into a bound, which has no dual
        alone = ~d.coverage[d.pos].any(axis=1) & (p_pos > 0)
        mu[alone] = 1.0
        lam = float(budget.dual_value) if K and d.budget is not None else 0.0
        nu = [float(c.dual_value) for c in limits] if K else []
        return self._store_duals(float(result.objective), mu, lam, nu)

