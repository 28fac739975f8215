r"""Margin-row generation for :class:`~optirules.models.QMMModel`.

:class:`_MarginRowGenerationMixin` solves the QMM quadratic program over a working set of
margin rows and adds the violated ones round by round (``margin_constraints="generated"``,
and every solve of the direct path, whose single round then holds every row).  It reads
the prepared model (``_margin_A``, ``_margin_b``, ``basis_``, ``covariance_``, ``factor_``)
and calls the model's ``_problem``, ``_fallback`` and ``_read_solution``; it never imports
the model's module.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._qmm_linalg import complemented_rows

__all__ = ["_MarginRowGenerationMixin"]


class _MarginRowGenerationMixin:
    """The margin-row generation of the QMM quadratic program (a base of ``QMMModel``)."""

    def _start_rows(self, batch: int) -> np.ndarray:
        r"""The ``batch`` distinct margin rows of smallest slack at :math:`\mathbf w_0 \propto \hat{\boldsymbol\Sigma}'^{-1}\mathbf 1`.

        :math:`\mathbf w_0` (Cholesky of the covariance with a ridge of
        :math:`10^{-12}\operatorname{tr}\hat{\boldsymbol\Sigma}'`, or two triangular solves
        with ``factor_``) is only a guess of which rows bind: generation checks every row.
        Rows of largest :math:`\varphi_i` when :math:`\mathbf w_0` is not finite.
        """
        from scipy.linalg import LinAlgError, cho_factor, cho_solve, solve_triangular

        A, b = self._margin_A, self._margin_b
        r = self.basis_.size
        one = np.ones(r)
        x = None
        try:
            if self.covariance_ is not None:
                S = self.covariance_
                ridge = 1e-12 * max(float(np.trace(S)), 1e-300)
                x = cho_solve(cho_factor(S + ridge * np.eye(r)), one)
            elif self.factor_.shape[0] == r and np.all(np.abs(np.diag(self.factor_)) > 0):
                R = self.factor_
                x = solve_triangular(R, solve_triangular(R, one, trans="T"))
        except (LinAlgError, ValueError):
            x = None
        if x is not None and np.all(np.isfinite(x)) and x.sum() > 0:
            slack = A @ (x / x.sum()) - b
            return np.sort(np.argsort(slack, kind="stable")[:batch])
        return np.sort(np.argsort(-b, kind="stable")[:batch])

    def _solve_generated(self, name: str, time_limit: float | None, verbose: bool,
                         opts: dict[str, Any], *, direct: bool = False, generate: bool = True):
        r"""Margin-row generation: solve over a working set of margin rows, add the violated.

        Starts from the ``batch = max(50, ceil(2 r / 5))`` distinct margin rows of smallest
        slack :math:`\boldsymbol\Lambda_i\mathbf w_0 - \varphi_i` at the minimum-variance
        weights on the plane :math:`\mathbf 1^\top\mathbf w = 1`,
        :math:`\mathbf w_0 \propto \hat{\boldsymbol\Sigma}'^{-1}\mathbf 1` (``_start_rows``;
        the rows of largest :math:`\varphi_i` when it cannot be computed), and adds, each
        round, every violated row.  A solution of the restricted QP that satisfies every
        margin row is optimal for the whole QP (it has fewer constraints), so the optimum is
        the same; every round adds a row, so it ends.  ``time_limit`` bounds all rounds
        together.  With ``direct`` each round goes to the solver's own API with the margin
        rows in their sparse complemented form (``complemented_rows``; HiGHS gets the +-1
        rows; OSQP and SCS start from the previous round's weights); with ``generate=False`` the one round holds
        every margin row.  This start and batch took fewer rounds and less time than starting
        from the rows of largest :math:`\varphi_i` or from a smaller batch (figures in
        docs/papers/qmm_pruning.md).
        """
        import time

        from ..solvers import SolveResult, Status, adapter, solve
        from ._qmm_direct import solve_direct

        start = time.perf_counter()
        A, b = self._margin_A, self._margin_b
        # HiGHS's active-set solver reported primal infeasibilities of 5e-5 at "optimality"
        # on the complemented rows of a 30-member QP that it solves with the +-1 rows
        active_set = adapter(name).qp_algorithm == "active_set"
        A_s, b_s = complemented_rows(A, b) if direct and not active_set else (A, b)
        batch = max(50, math.ceil(2 * self.basis_.size / 5))
        rows = self._start_rows(batch) if generate else np.arange(b.size)
        tol = 1e-9 * max(1.0, float(np.abs(b).max(initial=0.0)))
        rounds = 0
        warm = None
        w_var = None
        while True:
            rounds += 1
            remaining = None
            if time_limit is not None:
                remaining = float(time_limit) - (time.perf_counter() - start)
                if remaining <= 0:
                    result = SolveResult(status=Status.TIME_LIMIT, solver=name,
                                         raw_status="time limit between generation rounds")
                    self.result_ = result
                    self._fallback(result, f"the time limit ({time_limit} s) ran out after "
                                           f"{rounds - 1} rounds of margin-row generation, "
                                           "before the weights met every margin row")
                    return result
            if direct:
                result, w, warm = solve_direct(
                    name, self.covariance_, self.factor_, A_s[rows], b_s[rows],
                    time_limit=remaining, verbose=verbose, options=opts, warm=warm)
            else:
                w_var, problem = self._problem(rows)
                result = solve(problem, name, time_limit=remaining, verbose=verbose, **opts)
                w = w_var.value
            self.result_ = result
            self.n_margin_rows_ = int(rows.size)
            self.generation_rounds_ = rounds
            if not result.has_solution or w is None:
                self._fallback(result, f"the solver {name!r} returned no solution (status "
                                       f"{result.status.value!r}) in round {rounds} of "
                                       "margin-row generation")
                return result
            violation = b - A @ np.asarray(w).reshape(-1)
            violation[rows] = -np.inf
            out = np.flatnonzero(violation > tol)
            if out.size == 0:
                break
            if result.status not in (Status.OPTIMAL, Status.FEASIBLE):
                # a limit stopped the round; an inaccurate ("feasible") round still tells
                # which rows are violated, so generation goes on
                self._fallback(result, f"the solver stopped with status "
                                       f"{result.status.value!r} in round {rounds} of "
                                       f"margin-row generation, its weights violating "
                                       f"{out.size} margin rows")
                return result
            rows = np.union1d(rows, out)
        self._w_var = w_var  # None on the direct path: the weights are in result.values
        self._read_solution(result)
        return result
