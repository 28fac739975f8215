"""The master IP through the declarative :class:`RuleMasterModel` and ``solve``, shared by
the masters that do not hold the LP in highspy themselves."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import numpy as np

from ...errors import InputError
from .._clauses import (
    Clause,
    normalize_clauses,
)
from .._problem import RuleSetProblem
from ._data import (
    MasterData,
    aggregate_rows,
    refine_groups,
)
from ._protocol import (
    MasterIP,
    solve_ip_doc,
)
from ._pyomo import (
    RuleMasterModel,
)


class MasterIPMixin:
    """``solve_ip`` through the declarative :class:`RuleMasterModel` and ``solve``."""

    _data: MasterData

    def _ip_columns(self, clauses: Iterable[Iterable[Any]] | None) -> list[Clause]:
        d = self._data
        if clauses is None:
            return list(d.clauses)
        cols = normalize_clauses(clauses, d.A.shape[1])
        missing = [c for c in cols if c not in d.index]
        if missing:
            raise InputError(f"clause {missing[0]!r} is not in the master's pool; add it "
                             "with add_clauses first.")
        return cols

    def _ip_rows(self, cols: list[Clause], aggregate: bool
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(A, y, P, rows)`` of the master IP over ``cols``: the rows as given, or with
        the rows of equal label and equal coverage over ``cols`` merged
        (:func:`aggregate_rows`; with fairness rows, of equal group too); ``rows`` the data
        row each stands for."""
        d = self._data
        if not aggregate:
            return d.A, d.y, d.P, np.arange(d.A.shape[0])
        idx = np.array([d.index[c] for c in cols], dtype=np.int64)
        if d.fair is None:
            first, weights, _ = aggregate_rows(d.coverage[:, idx], d.y, d.P)
        else:  # rows of one group only: its rates are sums over its rows
            key = d.y.astype(np.int64) * d.fair.labels.size + d.fair.codes
            group, first = refine_groups(key, d.coverage[:, idx])
            weights = np.bincount(group, weights=d.P, minlength=first.size)
        return d.A[first], d.y[first], weights, first

    def _problem_over(self, A: np.ndarray, y: np.ndarray, P: np.ndarray, rows: np.ndarray,
                      scale: float = 1.0) -> RuleSetProblem:
        """This master's problem over the rows ``A, y, P`` standing for the data rows
        ``rows`` (all of them, or the rows merged by :meth:`_ip_rows`): its budget, its
        penalties times ``scale`` (the weights ``P`` come scaled alike), its limit rows,
        literal costs and required groups, and its fairness rows over the groups of
        ``rows``."""
        d = self._data
        f = d.fair
        return RuleSetProblem(
            A, y, P, complexity=d.budget, lambda0=d.lambda0 * scale,
            lambda1=d.lambda1 * scale, max_rules=d.max_rules, max_literals=d.max_literals,
            literal_costs=d.literal_costs, required=tuple(tuple(sorted(g)) for g in d.required),
            groups=None if f is None else f.labels[f.codes[rows]],
            fairness=None if f is None else f.kind,
            fairness_tolerance=0.0 if f is None else f.tolerance)

    @solve_ip_doc
    def solve_ip(self, clauses: Iterable[Iterable[Any]] | None = None, *,
                 solver: str = "highs", time_limit: float | None = None,
                 mip_gap: float | None = None, incumbent: Iterable[Clause] = (),
                 random_seed: int | None = None, aggregate: bool = True) -> MasterIP:
        r"""The master IP over ``clauses`` (default: the pool), as :class:`RuleMasterModel`
        solved by ``solver`` (any MILP solver of :func:`~optirules.solvers.solve`).

        ``aggregate=True`` (default) solves it over the rows merged by
        :func:`aggregate_rows` (rows of equal label and equal coverage over ``clauses``,
        weights summed): the same optimum and optimal rule sets, far fewer cover rows when
        rows repeat.  The weights (and :math:`\lambda_0, \lambda_1`) are multiplied by
        :math:`s = \max(1, 10^{-3} / \min_i P_i)` (positive :math:`P_i`) before the model is
        built, and the objective and bound divided by :math:`s` after: a MILP solver's
        feasibility tolerance (1e-6 by default in SCIP, CBC, Gurobi, CPLEX, HiGHS) is then at
        most a thousandth of the smallest weight, so no cover row of a small weight (a
        million uniform rows: :math:`P_i = 10^{-6}`) is "met" with :math:`\xi_i = 0`.
        ``incumbent`` is not passed on by this route (the Pyomo interfaces take no start
        solution); ``random_seed`` goes to HiGHS as ``random_seed``.  A solve without any
        solution raises :class:`~optirules.errors.SolverStatusError`.
        """
        from ...solvers import Status, adapter

        t0 = time.perf_counter()
        cols = self._ip_columns(clauses)
        A, y, P, rows = self._ip_rows(cols, aggregate)
        positive = P[P > 0]
        scale = max(1.0, 1e-3 / float(positive.min())) if positive.size else 1.0
        model = RuleMasterModel.from_problem(self._problem_over(A, y, P * scale, rows, scale),
                                             cols)
        options: dict[str, Any] = {}
        seed_option = adapter(solver).seed_option
        if seed_option is not None and random_seed is not None:
            options[seed_option] = int(random_seed)
        result = model.solve(solver, time_limit=time_limit, mip_gap=mip_gap, **options)
        status = result.status.value if isinstance(result.status, Status) else \
            str(result.status)
        return MasterIP(list(model.selected_), float(result.objective) / scale,
                        float(result.bound) / scale, status, time.perf_counter() - t0,
                        "model")

    def _store_duals(self, objective: float, mu: np.ndarray, lam: float,
                     limit_duals: Any = (), sigma: Any = None, required_duals: Any = None) -> float:
        d = self._data
        lam = max(float(lam), 0.0) + 0.0
        nu = [max(float(v), 0.0) + 0.0 for v in limit_duals] or [0.0] * len(d.limits)
        self.objective_ = float(objective)
        self.cover_duals_ = np.asarray(mu, dtype=float)
        self.complexity_dual_ = lam
        self.limit_duals_ = {name: v for (name, *_), v in zip(d.limits, nu)}
        self.duals_for_pricing_ = p = d.pricing_duals(self.cover_duals_, lam, nu, sigma,
                                                      required_duals)
        self.reduced_costs_ = d.reduced_costs(self.cover_duals_, lam, p["lambda0"],
                                              p["lambda1"], p.get("sigma"), p.get("required_duals")) \
            if d.clauses else np.zeros(0)
        return self.objective_

