r"""Boolean rule sets (DNF) by column generation: the weighted BRCG of seed 000.

Seed 000 (*Obtaining Explainable Classification Models using Distributionally Robust Optimization*, Section 3, "Column Generation for (4)") learns a
rule set under a pmf :math:`P` over the training rows by the master IP (eqs 6-8)

.. math::

    \min\ & \sum_{i \in P^+} \xi_i + \sum_{k \in K}
        \Big(\sum_{i \in Z_k} P_i + \lambda_0 + \lambda_1 |k|\Big) w_k \\
    \text{s.t. } & \xi_i + P_i \sum_{k \in K_i} w_k \ge P_i \quad (i \in P^+), \qquad
        \sum_{k \in K} c_k w_k \le C, \qquad \xi \ge 0,\ w_k \in \{0, 1\},

over the exponentially many clauses :math:`K` (conjunctions of at most ``max_degree``
literals, cost :math:`c_k = 1 + |k|`), solved by column generation as in Dash, Günlük
and Wei (2018, NeurIPS): the LP relaxation over a growing pool (the restricted master,
:class:`~optirules.models._rule_master.HighsRuleMaster`) alternates with pricing, the
search for a clause of negative reduced cost

.. math::

    r(k) = \lambda c_k + \lambda_0 + \lambda_1 |k| + \sum_{i \in Z,\ k \ni i} P_i
           - \sum_{i \in P^+,\ k \ni i} \mu_i P_i

(:math:`\mu, \lambda` the duals of the cover and budget rows).  When pricing proves that no
clause has :math:`r(k) < 0` the restricted LP equals the LP over all clauses; the master
IP over the generated pool (:class:`~optirules.models._rule_master.RuleMasterModel`) then
gives the rule set, and the LP value bounds every rule set from below.

**Certified lower bound.**  For any restricted-master duals :math:`(\mu, \lambda)` and any
feasible :math:`(w, \xi)` of the *full* LP, Lagrangian duality gives

.. math::

    \text{obj}(w, \xi) \ge z_{RMP} + \Big(\min_k r(k)\Big) \sum_k w_k ,

and :math:`\sum_k w_k \le \kappa` with :math:`\kappa = C/2` (budget row, every clause
costs at least 2) or :math:`\kappa = z_{RMP} / (\lambda_0 + \lambda_1)` (penalty form: an
optimal solution cannot pay more penalty than the restricted optimum).  So
:math:`z_{RMP} + \kappa \min(0, r_{lb})` is a lower bound on the optimum of the full
master (LP and IP) for any proven lower bound :math:`r_{lb} \le \min_k r(k)`; exact pricing
provides :math:`r_{lb}` (the true minimum, or a bound when stopped by its time limit).
"""

from __future__ import annotations

import copy
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.validation import validate_data

from ..data import Literal
from ..errors import InputError, NotFittedError, OptirulesError, SolverError
from ..models import (
    Clause,
    clause_coverage,
    complexity_costs,
    row_prices,
)
from ._checks import (
    check_2d,
    check_binary_targets,
    check_fitted,
    fit_binarizer,
    n_rows,
    normalized_weights,
)
from ._json import (
    check_rule_columns,
    dump_json,
    json_header,
    json_scalar,
    load_json,
    load_json_header,
    num,
    restore_params,
)
from ._rules import Rule, RuleSet

__all__ = [
    "BooleanRuleSetClassifier",
    "ColumnGenerationResult",
    "column_generation",
    "enumerate_master",
    "enumerate_pricing",
    "resolve_max_degree",
]

PRICING = ("auto", "exact", "beam")
EXACT_METHODS = ("auto", "enumerate", "milp")

#: a column enters the master only if its reduced cost is below -_RC_TOL
_RC_TOL = 1e-9
#: HiGHS tolerances of the restricted master LP (tighter than the 1e-7 defaults, so the
#: duals price columns to about the same accuracy as _RC_TOL)
_LP_OPTIONS = {"primal_feasibility_tolerance": 1e-9, "dual_feasibility_tolerance": 1e-9}


# =============================================================================== pricing
def enumerate_pricing(A: np.ndarray, v: np.ndarray, comp: Sequence[float], max_degree: int, *,
                      k: int = 10, pool: set[Clause] | frozenset = frozenset(),
                      deadline: float | None = None, need_proof: bool = True,
                      tol: float = _RC_TOL) -> tuple[list[tuple[Clause, float]], float, bool]:
    r"""Exact pricing for clauses of at most 3 literals by (pruned) enumeration.

    Every clause's reduced cost is :math:`r(k) = \mathrm{comp}_{|k|} + \sum_{i:\,k \ni i} v_i`
    (``v`` the row prices of :func:`~optirules.models._clauses.row_prices`, ``comp`` the
    complexity part :func:`~optirules.models._clauses.complexity_costs` by degree).  Degree 1
    is :math:`v^\top A`, degree 2 the upper triangle of :math:`A^\top \mathrm{diag}(v) A`
    (all pairs in one matrix product).  Degree 3 uses the bound

    .. math::

        r(j, l, m) \ge \beta_{jl} := \mathrm{comp}_3 + \sum_{i:\ A_{ij} A_{il} = 1}
            \min(v_i, 0)

    (extending a clause can only drop rows), so a triple can beat a threshold only if all
    three of its pairs do; for each first literal ``j`` the surviving partners are scored
    together by one matrix product over the rows ``j`` covers.  The threshold is 0 (the
    proof that no clause has :math:`r < 0`), lowered to the ``k``-th best reduced cost found
    once ``k`` new negative clauses are known.  Rows with :math:`v_i = 0` are skipped.

    Parameters
    ----------
    A : bool array of shape (N, L)
        Literal matrix.
    v : array of shape (N,)
        Row prices.
    comp : sequence of float
        ``comp[d]`` is the complexity part of the reduced cost of a degree-``d`` clause
        (index 0 unused).
    max_degree : int
        1, 2 or 3.
    k : int, default 10
        Number of new clauses to return.
    pool : set of clauses
        Clauses already in the master (never returned; still counted in the bound).
    deadline : float, optional
        ``time.perf_counter()`` value after which the degree-3 pass stops; the bound then
        uses :math:`\beta` of the unexplored pairs.
    need_proof : bool, default True
        If False and degrees 1-2 already give a new negative clause, skip degree 3 (the
        bound then uses :math:`\min \beta`).
    tol : float
        A clause is returned only if :math:`r < -\mathrm{tol}`.

    Returns
    -------
    columns : list of (clause, reduced cost)
        Up to ``k`` new clauses with :math:`r < -\mathrm{tol}`, best first.
    lower_bound : float
        A proven lower bound on :math:`\min(0, \min_k r(k))` over all clauses of degree at
        most ``max_degree``; exact (the minimum) when ``complete``.
    complete : bool
        Whether every clause was accounted for exactly (no time-out, no skipped pass).
    """
    if max_degree > 3:
        raise InputError("enumerate_pricing handles clauses of at most 3 literals; use the "
                         "pricing MILP (exact_method='milp') for larger max_degree.")
    n_lit = A.shape[1]
    rows = np.flatnonzero(v != 0.0)
    found: dict[Clause, float] = {}

    def consider(clauses: list[Clause], values: np.ndarray) -> None:
        for c, r in zip(clauses, values.tolist()):
            if r < -tol and c not in pool:
                found[c] = r

    def kth() -> float:
        if len(found) < k:
            return 0.0
        return float(np.partition(np.fromiter(found.values(), float), k - 1)[k - 1])

    if rows.size == 0:  # every clause has r = comp >= 0
        return [], min(0.0, float(min(comp[1:max_degree + 1]))), True
    Af = A[rows].astype(np.float64)
    vr = v[rows]
    # ---- degree 1
    r1 = comp[1] + vr @ Af
    lower = float(r1.min())
    order = np.argsort(r1, kind="stable")[: k + len(pool)]
    consider([(int(j),) for j in order], r1[order])
    iu = None
    if max_degree >= 2 and n_lit >= 2:
        G = Af.T @ (Af * vr[:, None])
        iu = np.triu_indices(n_lit, 1)
        r2 = comp[2] + G[iu]
        lower = min(lower, float(r2.min()))
        take = min(r2.size, k + len(pool))
        idx = np.argpartition(r2, take - 1)[:take] if take < r2.size else np.arange(r2.size)
        idx = idx[np.argsort(r2[idx], kind="stable")]
        consider([(int(iu[0][t]), int(iu[1][t])) for t in idx], r2[idx])
    complete = True
    if max_degree >= 3 and n_lit >= 3:
        neg = vr < 0
        An = Af[neg]
        B = comp[3] + An.T @ (An * vr[neg][:, None])  # beta_{jl}
        np.fill_diagonal(B, np.inf)
        if not need_proof and not found:
            # a cheap pass first: extend the most promising pairs by every literal
            pairs = _best_pairs(r2_full=comp[2] + G, B=B, iu=iu, n=max(4 * k, 40))
            for ja, jb in pairs:
                cov = (Af[:, ja] > 0) & (Af[:, jb] > 0)
                vals = comp[3] + vr[cov] @ Af[cov]
                vals[[ja, jb]] = np.inf
                order = np.argsort(vals, kind="stable")[: k]
                consider([tuple(sorted((int(ja), int(jb), int(m)))) for m in order],
                         vals[order])
        if not need_proof and found:
            lower = min(lower, float(B[iu].min()))
            complete = False
        else:
            lower3 = math.inf
            for j in range(n_lit - 2):
                thr = kth()
                if deadline is not None and time.perf_counter() > deadline:
                    rest = B[j:, :][np.triu(np.ones((n_lit - j, n_lit), bool), j + 1)]
                    lower3 = min(lower3, float(rest.min()) if rest.size else math.inf)
                    complete = False
                    break
                part = np.flatnonzero(B[j, j + 1:] < thr) + j + 1
                if part.size < 2:
                    continue
                cov = Af[:, j] > 0
                As = Af[np.ix_(cov, part)]
                W = comp[3] + As.T @ (As * vr[cov][:, None])
                mask = B[np.ix_(part, part)] < thr
                mask &= np.triu(np.ones((part.size, part.size), bool), 1)
                vals = np.where(mask, W, np.inf)
                best = float(vals.min())
                if best < lower3:
                    lower3 = best
                if best < -tol:
                    hit = np.flatnonzero(vals.ravel() < min(-tol, thr))
                    if hit.size > k + len(pool):
                        hit = hit[np.argpartition(vals.ravel()[hit], k + len(pool) - 1)
                                  [: k + len(pool)]]
                    a, b = np.unravel_index(hit, vals.shape)
                    consider([(j, int(part[x]), int(part[y])) for x, y in zip(a, b)],
                             vals.ravel()[hit])
            lower = min(lower, lower3)
    ranked = sorted(found.items(), key=lambda kv: (kv[1], len(kv[0]), kv[0]))[:k]
    return [(c, float(r)) for c, r in ranked], min(0.0, lower), complete


def _best_pairs(r2_full: np.ndarray, B: np.ndarray, iu: tuple[np.ndarray, np.ndarray],
                n: int) -> list[tuple[int, int]]:
    """The ``n`` pairs of least reduced cost and the ``n`` of least bound (seeds of the
    degree-3 heuristic)."""
    r2 = r2_full[iu]
    b = B[iu]
    out: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for score in (r2, b):
        take = min(n, score.size)
        idx = np.argpartition(score, take - 1)[:take]
        for t in idx[np.argsort(score[idx], kind="stable")]:
            pair = (int(iu[0][t]), int(iu[1][t]))
            if pair not in seen and b[t] < 0:
                seen.add(pair)
                out.append(pair)
    return out


def _milp_pricing(A: np.ndarray, y: np.ndarray, P: np.ndarray, duals: dict[str, Any],
                  max_degree: int, solver: str, time_limit: float | None,
                  pool: set[Clause]) -> tuple[list[tuple[Clause, float]], float, bool]:
    """Exact pricing by the MILP of :class:`~optirules.models._pricing.RulePricingModel`.

    Returns the optimal clause if it is new and negative, the MILP's bound (a proven lower
    bound on the minimum reduced cost, capped at 0), and whether it was solved to optimality.
    """
    from ..models import RulePricingModel
    from ..solvers import Status

    model = RulePricingModel(A, y, P, duals["mu"], duals["lam"], max_degree,
                             lambda0=duals["lambda0"], lambda1=duals["lambda1"])
    options = {"mip_abs_gap": 1e-10} if solver == "highs" else {}
    try:
        result = model.solve(solver, time_limit=time_limit, **options)
    except OptirulesError:
        result = model.result_
        if result is None:
            raise
        bound = result.bound if math.isfinite(result.bound) else -math.inf
        return [], min(0.0, bound), False
    bound = float(result.bound) if math.isfinite(result.bound) else -math.inf
    complete = result.status == Status.OPTIMAL
    cols = []
    if model.reduced_cost_ < -_RC_TOL and model.clause_ not in pool:
        cols = [(model.clause_, model.reduced_cost_)]
    return cols, min(0.0, bound, model.reduced_cost_), complete


# ====================================================================== column generation
@dataclass
class ColumnGenerationResult:
    """Everything one column-generation run produced (see :func:`column_generation`)."""

    clauses: list[Clause]
    pool: list[Clause]
    history: list[dict[str, Any]]
    lp_objective: float
    lp_bound: float
    ip_objective: float
    ip_status: str
    ip_bound: float
    gap: float
    certified: bool
    converged: bool
    absolute_gap: float
    stop_reason: str
    pricing_lower_bound: float
    fit_time: float
    info: dict[str, Any] = field(default_factory=dict)


def _kappa(budget: float | None, lambda0: float, lambda1: float, z: float) -> float:
    """An upper bound on sum_k w_k at an optimum of the full master LP (module docstring)."""
    kappa = math.inf
    if budget is not None:
        kappa = budget / 2.0
    if lambda0 + lambda1 > 0:
        kappa = min(kappa, z / (lambda0 + lambda1))
    return kappa


def master_objective(A: np.ndarray, y: np.ndarray, P: np.ndarray, clauses: Sequence[Clause],
                     lambda0: float, lambda1: float) -> float:
    """The master IP objective of a rule set: weighted Hamming loss plus penalties."""
    cov = clause_coverage(A, list(clauses))
    missed = y & ~cov.any(axis=1) if clauses else y.copy()
    neg = float((np.where(y, 0.0, P) @ cov).sum()) if clauses else 0.0
    pen = sum(lambda0 + lambda1 * len(c) for c in clauses)
    return float(P[missed].sum()) + neg + pen


def _prune_redundant(A: np.ndarray, y: np.ndarray, P: np.ndarray, clauses: list[Clause],
                     lambda0: float, lambda1: float) -> list[Clause]:
    """Drop clauses whose removal does not increase the master objective (greedy, stable).

    The IP optimum is unchanged (removing never increases it, and it was optimal), but a
    budget-form IP may otherwise keep clauses that cost nothing and do nothing.
    """
    current = list(clauses)
    obj = master_objective(A, y, P, current, lambda0, lambda1)
    changed = True
    while changed and current:
        changed = False
        for c in sorted(current, key=lambda c: (-len(c), c)):
            trial = [d for d in current if d != c]
            o = master_objective(A, y, P, trial, lambda0, lambda1)
            if o <= obj + 1e-15:
                current, obj, changed = trial, min(o, obj), True
                break
    return current


def _greedy_rule_set(A: np.ndarray, y: np.ndarray, P: np.ndarray, pool: Sequence[Clause],
                     budget: float | None, lambda0: float, lambda1: float) -> list[Clause]:
    """A quick feasible rule set: add the pool clause that lowers the objective most.

    Its objective is the incumbent of the reduced-cost fixing before the master IP.
    """
    if not pool:
        return []
    cov = clause_coverage(A, list(pool))
    cost = 1.0 + np.fromiter((len(c) for c in pool), float, len(pool))
    fixed = np.where(y, 0.0, P) @ cov + lambda0 + lambda1 * (cost - 1.0)
    uncovered = y.copy()
    spent = 0.0
    chosen: list[int] = []
    free = np.ones(len(pool), bool)
    while True:
        gain = np.where(uncovered, P, 0.0) @ cov - fixed
        ok = free & (gain > 1e-15)
        if budget is not None:
            ok &= spent + cost <= budget + 1e-9
        if not ok.any():
            break
        k = int(np.flatnonzero(ok)[np.argmax(gain[ok])])
        chosen.append(k)
        free[k] = False
        spent += cost[k]
        uncovered &= ~cov[:, k]
    return [pool[k] for k in chosen]


def enumerate_master(A: np.ndarray, y: np.ndarray, P: np.ndarray, pool: Sequence[Clause],
                     budget: float, lambda0: float = 0.0, lambda1: float = 0.0,
                     ) -> tuple[list[Clause], float]:
    r"""The master IP over a pool by enumeration, when the budget admits at most 3 clauses.

    Every clause costs at least 2, so with :math:`C < 8` a rule set has at most 3 clauses.
    The weighted positives covered by a union come from inclusion-exclusion over the
    pairwise and triple intersections (matrix products over the label-1 rows), so all
    :math:`inom{K}{\le 3}` subsets are scored at once.  Returns the optimal clauses
    (ties: fewer clauses, then the first in pool order) and the objective; equal to
    :class:`~optirules.models._rule_master.RuleMasterModel`'s IP optimum (tested).
    """
    K = len(pool)
    pos_mass = float(P[y].sum())
    if K == 0:
        return [], pos_mass
    if budget >= 8:
        raise InputError("enumerate_master handles budgets below 8 (at most 3 clauses).")
    cov = clause_coverage(A, list(pool))
    C = cov[y].astype(np.float64)
    w = P[y]
    cost = 1.0 + np.fromiter((len(c) for c in pool), float, K)
    fixed = np.where(y, 0.0, P) @ cov + lambda0 + lambda1 * (cost - 1.0)
    single = w @ C
    best_obj, best = pos_mass, ()
    ok1 = cost <= budget + 1e-9
    obj1 = pos_mass - single + fixed
    obj1[~ok1] = np.inf
    if ok1.any():
        a = int(np.argmin(obj1))
        if obj1[a] < best_obj - 1e-15:
            best_obj, best = float(obj1[a]), (a,)
    I2 = C.T @ (C * w[:, None])
    tri = np.triu(np.ones((K, K), bool), 1)
    ok2 = tri & (cost[:, None] + cost[None, :] <= budget + 1e-9)
    if ok2.any():
        obj2 = pos_mass - (single[:, None] + single[None, :] - I2) + fixed[:, None] \
            + fixed[None, :]
        obj2 = np.where(ok2, obj2, np.inf)
        t = int(np.argmin(obj2))
        if obj2.flat[t] < best_obj - 1e-15:
            best_obj, best = float(obj2.flat[t]), tuple(int(v) for v in divmod(t, K))
    if cost.min() * 3 <= budget + 1e-9:
        for a in range(K - 2):
            ok3 = tri.copy()
            ok3[: a + 1, :] = False
            ok3 &= cost[a] + cost[:, None] + cost[None, :] <= budget + 1e-9
            if not ok3.any():
                continue
            I3 = C.T @ (C * (w * C[:, a])[:, None])
            union = (single[a] + single[:, None] + single[None, :] - I2[a][:, None]
                     - I2[a][None, :] - I2 + I3)
            obj3 = pos_mass - union + fixed[a] + fixed[:, None] + fixed[None, :]
            obj3 = np.where(ok3, obj3, np.inf)
            t = int(np.argmin(obj3))
            if obj3.flat[t] < best_obj - 1e-15:
                b, c = divmod(t, K)
                best_obj, best = float(obj3.flat[t]), (a, int(b), int(c))
    chosen = [pool[k] for k in best]
    return chosen, master_objective(A, y, P, chosen, lambda0, lambda1)


def column_generation(A: np.ndarray, y: np.ndarray, P: np.ndarray, *,
                      complexity: float | None = None, lambda0: float = 0.0,
                      lambda1: float = 0.0, max_degree: int = 3, pricing: str = "auto",
                      exact_method: str = "auto", beam_width: int = 10, n_columns: int = 10,
                      max_iterations: int = 100, time_limit: float | None = None,
                      pricing_time_limit: float | None = 30.0, solver: str = "highs",
                      mip_gap: float | None = 1e-6, random_seed: int | None = None,
                      initial_clauses: Sequence[Clause] = (), master_ip: str = "milp",
                      progress: Callable[[dict[str, Any]], None] | None = None,
                      ) -> ColumnGenerationResult:
    r"""Column generation for the weighted rule master, then the master IP over the pool.

    Parameters
    ----------
    A : bool array of shape (N, L)
        Literal matrix.
    y : bool array of shape (N,)
        Labels (True = positive).
    P : array of shape (N,)
        Row weights (a pmf in seed 000).
    complexity, lambda0, lambda1
        Budget :math:`C` (``None``: no budget row) and penalty costs.
    max_degree, pricing, exact_method, beam_width, n_columns, max_iterations, time_limit,
    pricing_time_limit, solver, mip_gap, random_seed
        As for :class:`BooleanRuleSetClassifier`.
    initial_clauses : sequence of clauses
        Columns to start the pool with (e.g. the previous members', in the DRO loop).
    master_ip : {"milp", "auto"}, default "milp"
        ``"milp"``: the final master IP is :class:`RuleMasterModel` solved by ``solver``;
        ``"auto"``: :func:`enumerate_master` when the budget admits at most 3 clauses
        (``complexity < 8``), the MILP otherwise.
    progress : callable, optional
        Called with each history record.

    Returns
    -------
    ColumnGenerationResult
    """
    from ..models import HighsRuleMaster, RuleMasterModel, beam_search_pricing
    from ..solvers import Status

    t_start = time.perf_counter()
    deadline = None if time_limit is None else t_start + float(time_limit)
    y = np.asarray(y, dtype=bool)
    A = np.ascontiguousarray(A, dtype=bool)
    y_int = y.astype(np.int64)
    use_milp = exact_method == "milp" or (exact_method == "auto" and max_degree > 3)
    master = HighsRuleMaster(A, y_int, initial_clauses, sample_weight=P,
                             complexity_budget=complexity, lambda0=lambda0, lambda1=lambda1,
                             options=_LP_OPTIONS)
    pool: set[Clause] = set(master.clauses_)
    history: list[dict[str, Any]] = []
    best_bound = -math.inf
    last_lower = math.nan
    converged = False
    stop = "max_iterations"
    n_exact_incomplete = 0
    z = math.nan

    def remaining() -> float | None:
        return None if deadline is None else max(0.0, deadline - time.perf_counter())

    def exact(duals: dict[str, Any], need_proof: bool):
        v = row_prices(y, P, duals["mu"])
        if use_milp:
            tl = pricing_time_limit
            rem = remaining()
            if rem is not None:
                tl = rem if tl is None else min(tl, rem)
            return _milp_pricing(A, y_int, P, duals, max_degree, solver, tl, pool)
        comp = [0.0] + [float(complexity_costs(d, duals["lam"], duals["lambda0"],
                                               duals["lambda1"])) for d in range(1, 4)]
        dl = None if pricing_time_limit is None else time.perf_counter() + pricing_time_limit
        if deadline is not None:
            dl = deadline if dl is None else min(dl, deadline)
        return enumerate_pricing(A, v, comp, max_degree, k=n_columns, pool=pool, deadline=dl,
                                 need_proof=need_proof)

    for it in range(1, max_iterations + 1):
        z = master.solve()
        duals = master.duals_for_pricing_
        kappa = _kappa(complexity, lambda0, lambda1, z)
        cols: list[tuple[Clause, float]] = []
        lower = math.nan
        complete = True
        used = ""
        if pricing in ("beam", "auto"):
            used = "beam"
            cand = beam_search_pricing(A, y_int, P, duals["mu"], duals["lam"], max_degree,
                                       lambda0=duals["lambda0"], lambda1=duals["lambda1"],
                                       beam_width=beam_width, k=n_columns,
                                       exclude=sorted(pool))
            cols = [(c, r) for c, r in cand if r < -_RC_TOL and c not in pool]
        if not cols and pricing in ("exact", "auto"):
            used = "exact" if not used else "beam+exact"
            cols, lower, complete = exact(duals, need_proof=pricing == "exact")
            if not complete and not cols:
                n_exact_incomplete += 1
        if not math.isnan(lower):
            last_lower = lower
            bound = z if lower >= 0 else z + kappa * lower
            best_bound = max(best_bound, bound)
        best_r = min((r for _, r in cols), default=lower if not math.isnan(lower) else 0.0)
        record = {"iteration": it, "lp_objective": z, "best_reduced_cost": float(best_r),
                  "reduced_cost_lower_bound": float(lower), "columns_added": len(cols),
                  "pool_size": len(pool) + len(cols), "pricing": used,
                  "lp_bound": float(best_bound), "time": time.perf_counter() - t_start}
        history.append(record)
        if progress is not None:
            progress(record)
        if not cols:
            if pricing == "beam":
                stop = "beam search found no improving clause (no proof)"
            elif not math.isnan(lower) and lower >= -_RC_TOL:
                # a proven bound >= 0 is a proof, even from an interrupted search
                converged = True
                stop = "converged (exact pricing proved no improving clause)"
            else:
                stop = "exact pricing stopped by its time limit (no proof)"
            break
        master.add_clauses([c for c, _ in cols])
        pool.update(c for c, _ in cols)
        if deadline is not None and time.perf_counter() > deadline:
            stop = "time_limit"
            break
    if not converged:
        z = master.solve()  # columns added by the last iteration
        if pricing != "beam" and stop == "max_iterations":
            # no proof yet: price once more at the final duals, for a certified bound
            _, lower, _ = exact(master.duals_for_pricing_, need_proof=True)
            last_lower = lower
            kappa = _kappa(complexity, lambda0, lambda1, z)
            best_bound = max(best_bound, z if lower >= 0 else z + kappa * lower)

    final_duals = {k: (np.array(v, copy=True) if isinstance(v, np.ndarray) else float(v))
                   for k, v in master.duals_for_pricing_.items()}
    # ------------------------------------------------------------------ master IP
    t_ip = time.perf_counter()
    pool_list = master.clauses_
    ip_status = "optimal"
    ip_bound = math.nan
    chosen: list[Clause] = []
    incumbent = _greedy_rule_set(A, y, P, pool_list, complexity, lambda0, lambda1)
    ub = master_objective(A, y, P, incumbent, lambda0, lambda1)
    # reduced-cost fixing: with the final LP duals every IP solution using column k costs
    # at least z + r_k, so columns with z + r_k > ub are in no optimal solution
    rc = np.maximum(np.asarray(master.reduced_costs_, dtype=float), 0.0)
    keep_cols = [c for c, r in zip(pool_list, rc) if z + r <= ub + 1e-12]
    if keep_cols and master_ip == "auto" and complexity is not None and complexity < 8:
        chosen, _ = enumerate_master(A, y, P, keep_cols, complexity, lambda0, lambda1)
        ip_status = "optimal (enumeration)"
    elif keep_cols:
        model = RuleMasterModel(A, y_int, keep_cols, sample_weight=P,
                                complexity_budget=complexity, lambda0=lambda0, lambda1=lambda1)
        options: dict[str, Any] = {}
        if solver == "highs" and random_seed is not None:
            options["random_seed"] = int(random_seed)
        rem = remaining()
        tl = None if rem is None else max(rem, 1.0)
        try:
            result = model.solve(solver, time_limit=tl, mip_gap=mip_gap, **options)
        except OptirulesError as exc:
            raise SolverError(
                f"the master IP over {len(pool_list)} generated clauses was not solved "
                f"({exc}). Raise time_limit or try another solver."
            ) from None
        ip_status = result.status.value if isinstance(result.status, Status) else \
            str(result.status)
        ip_bound = float(result.bound)
        chosen = list(model.selected_)
    if master_objective(A, y, P, chosen, lambda0, lambda1) > ub:
        chosen = incumbent  # only after a time limit: keep the better heuristic solution
    chosen = _prune_redundant(A, y, P, chosen, lambda0, lambda1)
    ip_obj = master_objective(A, y, P, chosen, lambda0, lambda1)
    certified = math.isfinite(best_bound)
    if certified:
        lp_bound = min(best_bound, ip_obj)
        gap = 0.0 if ip_obj <= 0 else max(0.0, (ip_obj - lp_bound) / ip_obj)
        abs_gap = max(0.0, ip_obj - lp_bound)
    else:
        # no exact pricing finished (beam only, or stopped by a time limit): the restricted
        # LP bounds nothing over all clauses, so the gap is unknown, not 0
        lp_bound = math.nan
        gap = abs_gap = math.nan
    info = {"n_exact_incomplete": n_exact_incomplete,
            "kappa": _kappa(complexity, lambda0, lambda1, z),
            "ip_columns": len(keep_cols), "greedy_objective": ub,
            "cg_time": t_ip - t_start, "ip_time": time.perf_counter() - t_ip,
            "duals": final_duals}
    return ColumnGenerationResult(
        clauses=chosen, pool=pool_list, history=history, lp_objective=float(z),
        lp_bound=float(lp_bound), ip_objective=float(ip_obj), ip_status=ip_status,
        ip_bound=ip_bound, gap=float(gap), certified=certified, converged=converged,
        absolute_gap=float(abs_gap),
        stop_reason=stop, pricing_lower_bound=float(last_lower),
        fit_time=time.perf_counter() - t_start, info=info,
    )


#: the work budget (multiply-adds of enumerate_pricing) under which max_degree="auto" is 3
_AUTO_DEGREE_WORK = 2e9


def resolve_max_degree(max_degree: int | str, shape: tuple[int, int]) -> int:
    """``max_degree``, with ``"auto"`` resolved to 3 or 2 by the cost of exact pricing."""
    if max_degree != "auto":
        return int(max_degree)
    n_rows, n_lit = shape
    return 3 if n_lit ** 3 * n_rows / 6.0 <= _AUTO_DEGREE_WORK else 2


# =============================================================================== inputs
def _is_int(value: Any, low: int = 1) -> bool:
    return (isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
            and value >= low)


def _is_number(value: Any, low: float = 0.0, strict: bool = False) -> bool:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        return False
    v = float(value)
    return math.isfinite(v) and (v > low if strict else v >= low)


class _RuleInputMixin:
    """Input handling shared by the rule-set learners: labels, weights, literals and the
    column-generation parameters."""

    binarizer: Any
    lambda0: float
    lambda1: float
    max_degree: int | str
    pricing: str
    solver: str

    def _check_search_params(self, counts: Sequence[str], seconds: Sequence[str]) -> None:
        """The column-generation parameters both rule learners take: penalties, degree,
        pricing, the integer ``counts``, the time limits ``seconds``, solver, binarizer."""
        for name in ("lambda0", "lambda1"):
            if not _is_number(getattr(self, name)):
                raise InputError(f"{name} must be a finite number >= 0, got "
                                 f"{getattr(self, name)!r}.")
        if not (_is_int(self.max_degree) or self.max_degree == "auto"):
            raise InputError(f"max_degree must be an integer >= 1 or 'auto', got "
                             f"{self.max_degree!r}.")
        if self.pricing not in PRICING:
            raise InputError(f"pricing must be one of {PRICING}, got {self.pricing!r}.")
        for name in counts:
            if not _is_int(getattr(self, name)):
                raise InputError(f"{name} must be an integer >= 1, got "
                                 f"{getattr(self, name)!r}.")
        for name in seconds:
            value = getattr(self, name)
            if value is not None and not _is_number(value, 0.0, strict=True):
                raise InputError(f"{name} must be None or a positive number of seconds, got "
                                 f"{value!r}.")
        if not isinstance(self.solver, str):
            raise InputError(f"solver must be a solver name such as 'highs', got "
                             f"{self.solver!r}.")
        from ..solvers import require_support

        # the pricing MILP and the master IP need a Pyomo MILP solver: refuse another now,
        # not after column generation
        require_support(self.solver, type(self).__name__)
        self._check_binarizer_param()

    def __sklearn_tags__(self):
        """Binary labels only; raw (NaN, string, categorical) input when a binarizer is used."""
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.allow_nan = self.binarizer is not None
        tags.input_tags.string = self.binarizer is not None
        tags.input_tags.categorical = self.binarizer is not None
        return tags

    def _make_binarizer(self) -> Any:
        if self.binarizer is None:
            return None
        if isinstance(self.binarizer, str):
            from ..data import FeatureBinarizer

            return FeatureBinarizer()
        if isinstance(self.binarizer, BaseEstimator):
            return clone(self.binarizer)
        return copy.deepcopy(self.binarizer)

    def _check_binarizer_param(self) -> None:
        b = self.binarizer
        if not (b is None or (isinstance(b, str) and b == "auto")
                or (callable(getattr(b, "fit", None)) and hasattr(b, "transform"))):
            raise InputError(
                f"binarizer must be None (X is already 0/1), 'auto' or a FeatureBinarizer, "
                f"got {b!r}."
            )

    def _binary_literals(self, names: list[str]) -> list[Literal]:
        lits = [Literal(n, "==", 1, j) for j, n in enumerate(names)]
        return lits + [Literal(n, "==", 0, j) for j, n in enumerate(names)]

    def _literal_matrix(self, X: Any, *, reset: bool, sample_weight: Any = None) -> np.ndarray:
        """Validate ``X`` and return its literal matrix (binarized, or ``[X, 1 - X]``); a
        binarizer is fitted with ``sample_weight`` (weighted quantile thresholds)."""
        if self.binarizer is None:
            try:
                Xa = validate_data(self, X, reset=reset, dtype=None,
                                   ensure_all_finite=True)
            except OptirulesError:
                raise
            except (ValueError, TypeError) as exc:
                raise InputError(f"{exc} With binarizer=None X must be a 0/1 matrix; pass "
                                 "binarizer='auto' for raw numeric or categorical data.") \
                    from None
            if Xa.dtype == bool:
                Xb = Xa
            else:
                if Xa.dtype.kind not in "biuf":
                    raise InputError(
                        f"X has dtype {Xa.dtype}; with binarizer=None X must hold 0/1 values. "
                        "Pass binarizer='auto' to binarize numeric and categorical columns."
                    )
                ok = (Xa == 0) | (Xa == 1)
                if not ok.all():
                    bad = Xa[~ok].ravel()[0]
                    raise InputError(
                        f"X holds the non-binary value {bad!r}, but binarizer=None needs 0/1 "
                        "features; pass binarizer='auto' (a FeatureBinarizer) to learn "
                        "thresholds, or binarize X yourself."
                    )
                Xb = Xa == 1
            if reset:
                names = ([str(c) for c in self.feature_names_in_]
                         if hasattr(self, "feature_names_in_")
                         else [f"x{j}" for j in range(Xb.shape[1])])
                self.literals_ = self._binary_literals(names)
            return np.ascontiguousarray(np.hstack([Xb, ~Xb]))
        check_2d(X)
        try:
            validate_data(self, X, reset=reset, skip_check_array=True)
        except OptirulesError:
            raise
        except (ValueError, TypeError) as exc:
            raise InputError(f"{exc} Pass the columns the model was fitted on.") from None
        if reset:
            self.binarizer_ = self._make_binarizer()
            fit_binarizer(self.binarizer_, X, sample_weight)
            self.literals_ = list(getattr(self.binarizer_, "literals_", []))
        Xb = np.asarray(self.binarizer_.transform(X))
        if Xb.ndim != 2 or Xb.shape[0] != n_rows(X):
            raise InputError("the binarizer returned an array of unexpected shape "
                             f"{Xb.shape}; it must return one row per input row.")
        if Xb.dtype != bool:
            if Xb.dtype.kind not in "biuf" or not np.all((Xb == 0) | (Xb == 1)):
                raise InputError("the binarizer must return 0/1 values.")
            Xb = Xb == 1
        if reset:
            if len(self.literals_) != Xb.shape[1]:
                names = [str(s) for s in self.binarizer_.get_feature_names_out()] \
                    if hasattr(self.binarizer_, "get_feature_names_out") \
                    else [f"b{j}" for j in range(Xb.shape[1])]
                self.literals_ = [Literal(n, "==", 1, None) for n in names]
            if Xb.shape[1] == 0:
                raise InputError("the binarizer produced no literal (every column is constant); "
                                 "a rule set needs at least one varying feature.")
        return np.ascontiguousarray(Xb)


# ============================================================================ estimator
class BooleanRuleSetClassifier(_RuleInputMixin, ClassifierMixin, BaseEstimator):
    r"""A DNF rule set learned by column generation (weighted BRCG, seed 000 §3, eqs 6-8).

    Fits the master of the module docstring by column generation over clauses of at most
    ``max_degree`` literals, then solves the master IP over the generated clauses.
    ``sample_weight`` is the pmf :math:`P` of seed 000 (normalized to sum 1; the uniform
    :math:`P_i = 1/N` gives Dash, Günlük and Wei 2018).  The rule set predicts
    ``classes_[1]`` where any rule holds.

    Parameters
    ----------
    complexity : float or None, default None
        Complexity budget :math:`C` (rules plus literals, eq 8).  ``None`` drops the budget
        row (penalty form).
    lambda0, lambda1 : float, default 0.001
        Penalty per rule and per literal, added to the objective (the form of BRCG
        implementations; same units as the weighted error, which lies in [0, 1]).  Set both
        to 0 with a ``complexity`` budget for the pure budget form of seed 000.
    max_degree : int or "auto", default "auto"
        Most literals in one rule.  ``"auto"``: 3 when exact pricing of degree-3 clauses
        is cheap (:math:`L^3 N / 6 \le 2 \cdot 10^9` for ``L`` literals and ``N`` rows:
        the work of :func:`enumerate_pricing`), else 2.  The choice is in ``max_degree_``.
    pricing : {"auto", "exact", "beam"}, default "auto"
        ``"beam"``: beam search only (fast, no proof, ``gap_`` not certified);
        ``"exact"``: exact pricing every iteration; ``"auto"``: beam search, and when it
        finds no improving clause, exact pricing, which either finds one (the loop goes
        on) or proves that none exists.
    exact_method : {"auto", "enumerate", "milp"}, default "auto"
        How exact pricing is done: ``"enumerate"`` (pruned enumeration with matrix
        products, :func:`enumerate_pricing`; ``max_degree <= 3``), ``"milp"`` (the
        pricing MILP :class:`~optirules.models._pricing.RulePricingModel` with
        ``solver``), ``"auto"``: enumeration up to degree 3, the MILP beyond.  (On WDBC
        with 540 literals HiGHS did not close the degree-3 pricing MILP in 25 s, while
        the enumeration proves optimality in about a second.)
    beam_width : int, default 10
        Beam width of :func:`~optirules.models._pricing.beam_search_pricing`.
    n_columns : int, default 10
        Most clauses added per iteration.
    max_iterations : int, default 100
        Most column-generation iterations.
    time_limit : float or None, default None
        Wall-clock seconds for the whole fit (column generation and IP; the IP always
        gets at least one second).  At the limit the best rule set so far is kept.
    pricing_time_limit : float or None, default 30
        Seconds for one exact pricing call.  When it stops the pricing early the proof is
        incomplete, but its bound still gives a certified (weaker) ``lp_bound_``;
        ``pricing_complete_`` says so.
    solver : str, default "highs"
        Solver of the master IP (and of the pricing MILP); any name
        :func:`optirules.solvers.solve` knows.  The restricted master LP of the loop
        always runs in HiGHS directly (warm-started column adds).
    mip_gap : float, default 1e-6
        Relative gap at which the master IP may stop.
    binarizer : None, "auto" or FeatureBinarizer, default None
        ``None``: ``X`` must already be 0/1 (literals are ``x == 1`` and ``x == 0``);
        ``"auto"``: :class:`~optirules.data.FeatureBinarizer` with its defaults (deciles,
        negations, categorical and missing values); an instance is cloned and fitted.
    random_state : int or None, default None
        Passed to HiGHS as ``random_seed`` for the master IP.  Everything else is
        deterministic, so equal ``random_state`` gives equal fits.
    verbose : bool, default False
        Show a progress bar (tqdm) over the iterations.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    rules_ : RuleSet
        The learned DNF; its conditions read like ``age > 52.5``.
    literals_ : list of Condition
        The literals (columns of the literal matrix).
    clauses_ : list of tuple of int
        The rules as literal indices.
    history_ : list of dict
        Per iteration: ``iteration``, ``lp_objective``, ``best_reduced_cost``,
        ``reduced_cost_lower_bound`` (NaN when only the beam ran), ``columns_added``,
        ``pool_size``, ``pricing``, ``lp_bound`` (best certified bound so far), ``time``.
    lp_objective_ : float
        The final restricted master LP value.
    lp_bound_ : float
        Certified lower bound on the master optimum over *all* clauses of at most
        ``max_degree`` literals over ``literals_`` (module docstring); NaN when no exact
        pricing ran (``pricing="beam"``).
    ip_objective_ : float
        Master objective of ``rules_`` (weighted Hamming loss plus penalties).
    gap_ : float
        ``(ip_objective_ - lp_bound_) / ip_objective_``.  When ``gap_certified_``: no rule
        set made of clauses of at most ``max_degree`` literals over ``literals_`` (and
        within the budget) has a master objective below ``(1 - gap_) * ip_objective_``.
        NaN (unknown) when not certified: no exact pricing finished (``pricing="beam"``, or
        stopped by ``time_limit``), so nothing bounds the optimum.
    absolute_gap_ : float
        ``ip_objective_ - lp_bound_`` (NaN when not certified).  In the budget form
        (``lambda0 = lambda1 = 0``) the LP relaxation can spread the budget over fractional
        clauses and reach a bound of 0, where the relative gap is 100 % whatever the IP;
        the absolute gap still says how far the IP can be from the optimum.
    gap_certified_ : bool
    pricing_complete_ : bool
        Whether column generation ended with a complete proof (``converged``).
    status_ : str
        Why column generation stopped (``"converged (...)"``, ``"max_iterations"``,
        ``"time_limit"``, ...) and the IP status, e.g.
        ``"converged (exact pricing proved no improving clause); IP optimal"``.
    ip_status_ : str
    max_degree_ : int
        The degree bound used (``max_degree`` with ``"auto"`` resolved).
    pool_ : list of tuple of int
        Every generated clause (the columns of the final master).
    duals_ : dict
        Duals of the final restricted master LP: ``mu`` (cover rows, over the label-1
        rows with positive weight, in row order), ``lam`` (budget row), ``lambda0``,
        ``lambda1`` (as :func:`~optirules.models._clauses.reduced_costs` takes them).
    fit_info_ : dict
        Timings (``cg_time``, ``ip_time``), the number of IP columns after reduced-cost
        fixing, the greedy incumbent and :math:`\kappa`.
    n_iterations_ : int
    fit_time_ : float

    Notes
    -----
    Rows with zero weight are dropped before fitting (also from the binarizer's fit), so
    zero weights are equivalent to removing rows.
    """

    def __init__(self, complexity: float | None = None, *, lambda0: float = 0.001,
                 lambda1: float = 0.001, max_degree: int | str = "auto", pricing: str = "auto",
                 exact_method: str = "auto", beam_width: int = 10, n_columns: int = 10,
                 max_iterations: int = 100, time_limit: float | None = None,
                 pricing_time_limit: float | None = 30.0, solver: str = "highs",
                 mip_gap: float = 1e-6, binarizer: Any = None, random_state: Any = None,
                 verbose: bool = False) -> None:
        self.complexity = complexity
        self.lambda0 = lambda0
        self.lambda1 = lambda1
        self.max_degree = max_degree
        self.pricing = pricing
        self.exact_method = exact_method
        self.beam_width = beam_width
        self.n_columns = n_columns
        self.max_iterations = max_iterations
        self.time_limit = time_limit
        self.pricing_time_limit = pricing_time_limit
        self.solver = solver
        self.mip_gap = mip_gap
        self.binarizer = binarizer
        self.random_state = random_state
        self.verbose = verbose

    # ------------------------------------------------------------------ validation
    def _check_params(self) -> None:
        if self.complexity is not None and not _is_number(self.complexity, 2.0):
            raise InputError(f"complexity must be None or a number >= 2 (one rule of one "
                             f"literal costs 2), got {self.complexity!r}.")
        self._check_search_params(("beam_width", "n_columns", "max_iterations"),
                                  ("time_limit", "pricing_time_limit"))
        if self.exact_method not in EXACT_METHODS:
            raise InputError(f"exact_method must be one of {EXACT_METHODS}, got "
                             f"{self.exact_method!r}.")
        if self.exact_method == "enumerate" and self.max_degree != "auto" and \
                self.max_degree > 3:
            raise InputError("exact_method='enumerate' handles max_degree <= 3; use 'milp' "
                             "or exact_method='auto'.")
        if not _is_number(self.mip_gap):
            raise InputError(f"mip_gap must be a number >= 0, got {self.mip_gap!r}.")

    def _seed(self) -> int | None:
        rs = self.random_state
        if rs is None:
            return None
        if _is_int(rs, 0):
            return int(rs) % (2**31 - 1)
        if isinstance(rs, np.random.RandomState):
            return int(rs.randint(2**31 - 1))
        raise InputError(f"random_state must be None or an int >= 0, got {rs!r}.")

    # ------------------------------------------------------------------ fitting
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> BooleanRuleSetClassifier:
        """Learn the rule set.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            0/1 features when ``binarizer=None``; anything the binarizer takes otherwise.
        y : array-like of shape (n_samples,)
            Two class labels.
        sample_weight : array-like of shape (n_samples,), optional
            The pmf :math:`P` (normalized to sum 1); uniform by default.

        Returns
        -------
        self
        """
        self._check_params()
        n = n_rows(X)
        if n == 0:
            raise InputError("X has no rows; pass at least one example of each class.")
        classes, ypos = check_binary_targets(y, n, "a rule set")
        P = normalized_weights(sample_weight, n)
        keep = P > 0
        X_fit = X
        if not keep.all():
            from sklearn.utils import _safe_indexing

            X_fit = _safe_indexing(X, np.flatnonzero(keep))
            if not (ypos[keep].any() and (~ypos[keep]).any()):
                raise InputError("after dropping zero-weight rows only one class is left; give "
                                 "rows of both classes a positive weight.")
        # the user's weights, not the pmf: integer weights then give exactly the thresholds
        # of the repeated rows (the same floating-point sums)
        A = self._literal_matrix(X_fit, reset=True, sample_weight=None if sample_weight is None
                                 else np.asarray(sample_weight, dtype=float).reshape(-1)[keep])
        yk, Pk = ypos[keep], P[keep] / P[keep].sum()
        self.classes_ = classes
        self.max_degree_ = resolve_max_degree(self.max_degree, A.shape)
        bar = None
        progress = None
        if self.verbose:
            from tqdm.auto import tqdm

            bar = tqdm(total=self.max_iterations, desc="column generation", unit="it")

            def progress(rec: dict[str, Any]) -> None:
                bar.update(1)
                bar.set_postfix(lp=f"{rec['lp_objective']:.5f}",
                                r=f"{rec['best_reduced_cost']:.2e}", pool=rec["pool_size"])
        try:
            res = column_generation(
                A, yk, Pk, complexity=None if self.complexity is None else float(self.complexity),
                lambda0=float(self.lambda0), lambda1=float(self.lambda1),
                max_degree=self.max_degree_, pricing=self.pricing,
                exact_method=self.exact_method, beam_width=int(self.beam_width),
                n_columns=int(self.n_columns), max_iterations=int(self.max_iterations),
                time_limit=self.time_limit, pricing_time_limit=self.pricing_time_limit,
                solver=self.solver, mip_gap=float(self.mip_gap), random_seed=self._seed(),
                progress=progress,
            )
        finally:
            if bar is not None:
                bar.close()
        self._set_result(res)
        self._train = (A, yk, Pk)
        return self

    def _set_result(self, res: ColumnGenerationResult) -> None:
        self.clauses_ = [tuple(int(j) for j in c) for c in res.clauses]
        self.rules_ = RuleSet.from_clauses(self.clauses_, self.literals_,
                                           json_scalar(self.classes_[1]),
                                           json_scalar(self.classes_[0]))
        self.pool_ = [tuple(int(j) for j in c) for c in res.pool]
        self.history_ = res.history
        self.lp_objective_ = res.lp_objective
        self.lp_bound_ = res.lp_bound
        self.ip_objective_ = res.ip_objective
        self.ip_status_ = res.ip_status
        self.gap_ = res.gap
        self.absolute_gap_ = res.absolute_gap
        self.gap_certified_ = res.certified
        self.pricing_complete_ = res.converged
        self.status_ = f"{res.stop_reason}; IP {res.ip_status}"
        self.n_iterations_ = len(res.history)
        self.fit_time_ = res.fit_time
        self.fit_info_ = {k: v for k, v in res.info.items() if k != "duals"}
        self.duals_ = res.info["duals"]

    # ------------------------------------------------------------------ prediction
    def _check_fitted(self) -> None:
        check_fitted(self, "rules_")

    def decision_rules(self, X: Any) -> np.ndarray:
        """Boolean matrix ``(n_samples, n_rules)``: which rules fire on which rows."""
        self._check_fitted()
        if hasattr(self, "literals_") and (self.binarizer is None or hasattr(self, "binarizer_")):
            A = self._literal_matrix(X, reset=False)
            return clause_coverage(A, self.clauses_)
        return self._rules_fired_from_json(X)

    def _rules_fired_from_json(self, X: Any) -> np.ndarray:
        try:
            validate_data(self, X, reset=False, skip_check_array=True)
        except OptirulesError:
            raise
        except (ValueError, TypeError) as exc:
            raise InputError(f"{exc} Pass the columns the model was fitted on.") from None
        return self.rules_.fired(X)

    def predict(self, X: Any) -> np.ndarray:
        """``classes_[1]`` where some rule holds, ``classes_[0]`` elsewhere."""
        fired = self.decision_rules(X)
        hit = fired.any(axis=1) if fired.shape[1] else np.zeros(fired.shape[0], bool)
        return self.classes_[hit.astype(int)]

    def explain(self, X: Any) -> list[str]:
        """One line per row: the rules that fired (and so the prediction), or that none did."""
        fired = self.decision_rules(X)
        pos, neg = json_scalar(self.classes_[1]), json_scalar(self.classes_[0])
        out = []
        for row in fired:
            idx = np.flatnonzero(row)
            if idx.size == 0:
                out.append(f"{neg!r}: no rule holds")
            else:
                why = "; ".join(f"rule {m + 1}: {self.rules_.rules[m]}" for m in idx)
                out.append(f"{pos!r}: {why}")
        return out

    # ------------------------------------------------------------------ text, JSON, export
    def __str__(self) -> str:
        if not hasattr(self, "rules_"):
            return repr(self)
        head = self.rules_.to_string(multiline=True)
        if self.gap_certified_:
            tail = (f"complexity {self.rules_.complexity} (rules + literals); master objective "
                    f"{self.ip_objective_:.6g}, certified gap {self.gap_:.2%} "
                    f"(absolute {self.absolute_gap_:.4g})")
        else:
            tail = (f"complexity {self.rules_.complexity} (rules + literals); master objective "
                    f"{self.ip_objective_:.6g}, gap unknown (not certified)")
        return f"{head}\n{tail}"

    def to_json(self, path: str | os.PathLike | None = None, *, indent: int | None = 2) -> str:
        """The fitted model as JSON text (and written to ``path`` if given); no pickle.

        :meth:`from_json` rebuilds a classifier whose predictions are identical (it
        evaluates ``rules_`` on the raw data).
        """
        self._check_fitted()
        data = {
            **json_header(self, "optirules.BooleanRuleSetClassifier"),
            "rules": self.rules_.to_dict(),
            "clauses": [list(c) for c in self.clauses_],
            "fit": {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in {
                "lp_objective": self.lp_objective_, "lp_bound": self.lp_bound_,
                "ip_objective": self.ip_objective_, "gap": self.gap_,
                "absolute_gap": self.absolute_gap_, "gap_certified": self.gap_certified_, "pricing_complete": self.pricing_complete_,
                "status": self.status_, "ip_status": self.ip_status_,
                "n_iterations": self.n_iterations_, "fit_time": self.fit_time_}.items()},
        }
        return dump_json(data, path, indent)

    @classmethod
    def from_json(cls, source: str | os.PathLike) -> BooleanRuleSetClassifier:
        """Rebuild a fitted classifier from :meth:`to_json` output (text or a file path)."""
        data = load_json(source, "optirules.BooleanRuleSetClassifier", "to_json")
        est = cls(**restore_params(data["params"]))
        est._load_common(data)
        fit = data.get("fit", {})
        nan = float("nan")
        est.lp_objective_ = num(fit.get("lp_objective"))
        est.lp_bound_ = num(fit.get("lp_bound"))
        est.ip_objective_ = num(fit.get("ip_objective"))
        est.gap_ = num(fit.get("gap"), nan)
        est.absolute_gap_ = num(fit.get("absolute_gap"), nan)
        est.gap_certified_ = bool(fit.get("gap_certified", False))
        est.pricing_complete_ = bool(fit.get("pricing_complete", False))
        est.status_ = str(fit.get("status", ""))
        est.ip_status_ = str(fit.get("ip_status", ""))
        est.n_iterations_ = int(fit.get("n_iterations", 0))
        est.fit_time_ = num(fit.get("fit_time"))
        est.history_ = []
        return est

    def _load_common(self, data: dict[str, Any]) -> None:
        load_json_header(self, data)
        try:
            self.rules_ = RuleSet.from_dict(data["rules"])
            self.clauses_ = [tuple(int(j) for j in c) for c in data.get("clauses", [])]
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, InputError):
                raise
            raise InputError(f"the rule-set JSON is incomplete or damaged ({exc!r}); "
                             "re-export the model with to_json().") from None
        check_rule_columns(self, [self.rules_], "BooleanRuleSetClassifier")

    def export_model(self, path: str | os.PathLike, *, iterations: bool = False,
                     relax: bool = False) -> list[Path]:
        """Write the final master over the generated clauses as ``.lp`` or ``.mps``.

        Parameters
        ----------
        path : str or path
            File name ending in ``.lp`` or ``.mps``.
        iterations : bool, default False
            Also write each iteration's restricted master LP, as ``<stem>_iter<t><suffix>``
            next to ``path`` (the LP over the columns present at iteration ``t``).
        relax : bool, default False
            Write the LP relaxation instead of the IP.

        Returns
        -------
        list of Path
            The files written.
        """
        from ..models import RuleMasterModel

        self._check_fitted()
        if not hasattr(self, "_train"):
            raise NotFittedError("export_model needs the training data of this fit; a model "
                                 "restored from JSON cannot rebuild its master. Refit it.")
        path = Path(path)
        if path.suffix not in (".lp", ".mps"):
            raise InputError(f"cannot write {str(path)!r}: use a .lp or .mps suffix.")
        A, y, P = self._train
        kw = dict(sample_weight=P, lambda0=float(self.lambda0), lambda1=float(self.lambda1),
                  complexity_budget=None if self.complexity is None else float(self.complexity))
        written = []
        RuleMasterModel(A, y.astype(int), self.pool_, relax=relax, **kw).write(path)
        written.append(path)
        if iterations:
            for rec in self.history_:
                t = rec["iteration"]
                n_cols = rec["pool_size"] - rec["columns_added"]
                p = path.with_name(f"{path.stem}_iter{t}{path.suffix}")
                RuleMasterModel(A, y.astype(int), self.pool_[:n_cols], relax=True,
                                **kw).write(p)
                written.append(p)
        return written


# keep Rule importable from here for users who read the rules of a fitted model
_ = Rule
