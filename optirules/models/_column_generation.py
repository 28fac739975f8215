r"""Column generation for the weighted Boolean rule master, then the master IP over the pool.

The DRO paper (*Obtaining Explainable Classification Models using Distributionally Robust Optimization*, Section 3, "Column Generation for (4)") learns a
rule set under a pmf :math:`P` over the training rows by the master IP (eqs 6-8)

.. math::

    \min\ & \sum_{i \in P^+} \xi_i + \sum_{k \in K}
        \Big(\sum_{i \in Z_k} P_i + \lambda_0 + \lambda_1 |k|\Big) w_k \\
    \text{s.t. } & \xi_i + P_i \sum_{k \in K_i} w_k \ge P_i \quad (i \in P^+), \qquad
        \sum_{k \in K} c_k w_k \le C, \qquad \xi \ge 0,\ w_k \in \{0, 1\},

over the exponentially many clauses :math:`K` (conjunctions of at most ``max_degree``
literals, cost :math:`c_k = 1 + |k|`), solved by column generation as in Dash, Günlük
and Wei (2018, NeurIPS): the LP relaxation over a growing pool (the restricted master,
:func:`restricted_master`: the warm highspy model
:class:`~optirules.models.HighsRuleMaster`, a Pyomo persistent solver, or the
LP rebuilt for any solver that returns duals) alternates with pricing, the
search for a clause of negative reduced cost

.. math::

    r(k) = \lambda c_k + \lambda_0 + \lambda_1 |k| + \sum_{i \in Z,\ k \ni i} P_i
           - \sum_{i \in P^+,\ k \ni i} \mu_i P_i

(:math:`\mu, \lambda` the duals of the cover and budget rows).  When pricing proves that no
clause has :math:`r(k) < 0` the restricted LP equals the LP over all clauses; the master
IP over the generated pool (:class:`~optirules.models.RuleMasterModel`) then
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

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InputError, OptirulesError, SolverError, SolverStatusError
from ._branch_and_bound import branch_and_bound_master
from ._clauses import Clause, clause_coverage, complexity_costs, row_prices
from ._enumeration import RC_TOL, EnumerationPricer
from .masters import MASTERS, aggregate_rows, restricted_master

__all__ = [
    "BRANCH_AND_BOUND_ROWS",
    "ColumnGenerationResult",
    "EXACT_METHODS",
    "MASTER_IPS",
    "MASTERS",
    "PRICING",
    "column_generation",
    "enumerate_master",
    "master_objective",
    "prune_redundant",
    "resolve_max_degree",
    "restricted_master",
    "split_solver",
]

PRICING = ("auto", "exact", "beam")
EXACT_METHODS = ("auto", "enumerate", "milp")
#: how the final master IP is solved (``column_generation(master_ip=)``)
MASTER_IPS = ("milp", "auto", "branch_and_bound")
#: master_ip="auto" on HiGHS solves master IPs of at least this many merged label-1 rows by
#: branch_and_bound_master, the others by HiGHS's MILP.  benchmarks/results/master_ip.md
#: (36 DRO member IPs at mip_gap 0.01, CPU s summed, MILP / B&B): from 5,000 rows (magic_gamma,
#: 7,433-11,181 rows) 232.0 / 37.1 s, faster on all 12; 1,000-4,999 rows (magic_gamma's
#: 3,000-row sample) 71.9 / 159.1 s, slower on the 4 hardest (budget 15-30: up to 2,931
#: nodes, where HiGHS's cuts close the gap); below 1,000 (adult) 2.4 / 0.4 s.  The MILP's
#: LPs have one row per cover row, the dual node LPs one per clause: the first wins where the
#: rows are many.
BRANCH_AND_BOUND_ROWS = 5000
#: column_generation(tol > 0) with beam search first: exact pricing for a bound every this
#: many iterations in which the beam found clauses
EXACT_EVERY = 5


#: after this many mispricings (a smoothed point whose clauses do not improve the LP, so
#: that pricing runs again at the LP duals) the pricing that follows a failed beam search
#: is done at the LP duals alone; the periodic pricing for the bound stays smoothed
MAX_MISPRICINGS = 2


def _milp_pricing(A: np.ndarray, y: np.ndarray, P: np.ndarray, duals: dict[str, Any],
                  max_degree: int, solver: str, time_limit: float | None,
                  pool: set[Clause]) -> tuple[list[tuple[Clause, float]], float, bool]:
    """Exact pricing by the MILP of :class:`~optirules.models._pricing.RulePricingModel`.

    Returns the optimal clause if it is new and negative, the MILP's bound (a proven lower
    bound on the minimum reduced cost, capped at 0), and whether it was solved to optimality.
    """
    from ..solvers import Status
    from ._pricing import RulePricingModel

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
    if model.reduced_cost_ < -RC_TOL and model.clause_ not in pool:
        cols = [(model.clause_, model.reduced_cost_)]
    return cols, min(0.0, bound, model.reduced_cost_), complete


# ====================================================================== restricted master
def split_solver(solver: Any) -> tuple[str, str]:
    """``(lp, milp)`` solver names from one name (both parts) or a mapping
    ``{"lp": ..., "milp": ...}`` (a missing part is ``"highs"``)."""
    if isinstance(solver, str):
        return solver.strip().lower(), solver.strip().lower()
    if isinstance(solver, Mapping):
        extra = set(solver) - {"lp", "milp"}
        if extra:
            raise InputError(f"the solver mapping takes the keys 'lp' and 'milp', got "
                             f"{sorted(map(str, extra))}.")
        names = {k: solver.get(k, "highs") for k in ("lp", "milp")}
        for k, v in names.items():
            if not isinstance(v, str):
                raise InputError(f"solver[{k!r}] must be a solver name, got {v!r}.")
        return names["lp"].strip().lower(), names["milp"].strip().lower()
    raise InputError(f"solver must be a solver name such as 'highs' or a mapping "
                     f"{{'lp': ..., 'milp': ...}}, got {solver!r}.")


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


def prune_redundant(A: np.ndarray, y: np.ndarray, P: np.ndarray, clauses: list[Clause],
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


def _merged_rows(A: np.ndarray, y: np.ndarray, P: np.ndarray, pool: Sequence[Clause],
                 coverage: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray,
                                                               np.ndarray]:
    """The rows merged by their label and coverage of ``pool``
    (:func:`~optirules.models.aggregate_rows`): ``(coverage, labels, weights)``
    of one row per group.  ``coverage``: ``clause_coverage(A, pool)`` when the caller has
    it."""

    cov_all = clause_coverage(A, list(pool)) if coverage is None else coverage
    first, weights, _ = aggregate_rows(cov_all, y, P)
    return cov_all[first], y[first], weights


def _greedy_rule_set(A: np.ndarray, y: np.ndarray, P: np.ndarray, pool: Sequence[Clause],
                     budget: float | None, lambda0: float, lambda1: float, *,
                     merged: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
                     ) -> list[Clause]:
    """A quick feasible rule set: add the pool clause that lowers the objective most.

    Its objective is the incumbent of the reduced-cost fixing before the master IP.  Works
    on the merged rows ``merged`` (:func:`_merged_rows`, computed when None).
    """
    if not pool:
        return []
    cov, pos, weights = _merged_rows(A, y, P, pool) if merged is None else merged
    C = cov.astype(np.float64)
    cost = 1.0 + np.fromiter((len(c) for c in pool), float, len(pool))
    fixed = np.where(pos, 0.0, weights) @ C + lambda0 + lambda1 * (cost - 1.0)
    uncovered = pos.copy()
    spent = 0.0
    chosen: list[int] = []
    free = np.ones(len(pool), bool)
    while True:
        gain = np.where(uncovered, weights, 0.0) @ C - fixed
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


def _improve_rule_set(A: np.ndarray, y: np.ndarray, P: np.ndarray, pool: Sequence[Clause],
                      chosen: Sequence[Clause], budget: float | None, lambda0: float,
                      lambda1: float, max_moves: int = 200, *,
                      merged: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
                      deadline: float | None = None) -> list[Clause]:
    """Local search from ``chosen``: the best of adding, dropping or swapping one pool clause,
    while it lowers the master objective (and keeps the budget).

    Works on the merged rows ``merged`` (:func:`_merged_rows`, computed when None).  A
    better incumbent lets the reduced-cost fixing before the master IP drop more columns;
    the IP's optimum does not depend on it.  At ``deadline`` (``time.perf_counter()``
    seconds; a user's ``time_limit`` only) the moves made so far are kept.
    """
    if not pool:
        return list(chosen)
    cov, pos, weights = _merged_rows(A, y, P, pool) if merged is None else merged
    C = cov[pos].astype(np.float64)
    w = weights[pos]
    cost = 1.0 + np.fromiter((len(c) for c in pool), float, len(pool))
    fixed = np.where(pos, 0.0, weights) @ cov + lambda0 + lambda1 * (cost - 1.0)
    index = {c: k for k, c in enumerate(pool)}
    inside = np.zeros(len(pool), bool)
    inside[[index[c] for c in chosen if c in index]] = True
    cnt = C[:, inside].sum(axis=1)
    limit = np.inf if budget is None else float(budget) + 1e-9
    for _ in range(max_moves):
        if deadline is not None and time.perf_counter() > deadline:
            break
        spent = float(cost[inside].sum())
        gain = (w * (cnt == 0)) @ C  # uncovered weight each clause would cover
        add = np.where(~inside & (spent + cost <= limit), fixed - gain, np.inf)
        best, move = float(add.min()), ("add", int(np.argmin(add)), -1)
        for k in np.flatnonzero(inside):
            lost = w * ((cnt == 1) & (C[:, k] > 0))  # rows only k covers
            drop = float(lost.sum()) - fixed[k]
            if drop < best:
                best, move = drop, ("drop", int(k), -1)
            swap = fixed - fixed[k] + lost @ (1.0 - C) - gain
            swap = np.where(~inside & (spent - cost[k] + cost <= limit), swap, np.inf)
            j = int(np.argmin(swap))
            if swap[j] < best:
                best, move = float(swap[j]), ("swap", j, int(k))
        if not best < -1e-15:
            break
        kind, j, k = move
        if kind in ("add", "swap"):
            inside[j] = True
            cnt += C[:, j]
        if kind == "drop":
            inside[j] = False
            cnt -= C[:, j]
        if kind == "swap":
            inside[k] = False
            cnt -= C[:, k]
    return [pool[k] for k in np.flatnonzero(inside)]


def _distinct_coverage(pool: Sequence[Clause], coverage: np.ndarray | None,
                       index: Sequence[int]) -> list[int]:
    """Of the pool clauses ``index``, one per coverage of the rows: the fewest literals, then
    the first in clause order.  Clauses of equal coverage have equal master columns, the
    one with more literals a higher cost, so the master IP's optimum is unchanged, and the
    rule set chosen among equal ones does not depend on how the rows are given (weights or
    repeated rows) or on the order of the pool."""
    if coverage is None or len(index) < 2:
        return list(index)
    keys = np.packbits(np.ascontiguousarray(coverage[:, list(index)].T), axis=1)
    best: dict[bytes, int] = {}
    for row, k in zip(keys, index):
        key = row.tobytes()
        j = best.get(key)
        if j is None or (len(pool[k]), pool[k]) < (len(pool[j]), pool[j]):
            best[key] = k
    return sorted(best.values())


#: the restricted IPs of :func:`column_generation` run when the master IP has at least this
#: many label-1 cover rows (merged by their coverage of the pool), over the restricted LP's
#: 10 and then 20 largest columns (ties: the lower reduced cost first).  Measured on the 11
#: member IPs of a DRO fit on magic_gamma (19,020 rows; 7,345-10,988 cover rows, 121-170
#: columns, budgets 10-30): the best of the two, after local search, was the IP's optimum on
#: 8 of them and within 1.4 % on the others, in 0.1-0.7 s CPU, where the greedy and local
#: search alone were 0.8-8.4 % above the optimum and HiGHS took 5-36 s to the 1 % gap.
RESTRICTED_IP_ROWS = 1000
RESTRICTED_IP_COLUMNS = (10, 20)


def _restricted_ip(master: Any, cols: list[Clause], solver: str, time_limit: float | None,
                   random_seed: int | None) -> list[Clause] | None:
    """The master IP over ``cols`` alone (an incumbent for the IP over the pool), to
    HiGHS's default precision; None when it finds no rule set (a time limit)."""
    try:
        ip = master.solve_ip(cols, solver=solver, time_limit=time_limit, mip_gap=1e-6,
                             random_seed=random_seed)
    except OptirulesError:
        return None
    return list(ip.selected)


def enumerate_master(A: np.ndarray, y: np.ndarray, P: np.ndarray, pool: Sequence[Clause],
                     budget: float, lambda0: float = 0.0, lambda1: float = 0.0,
                     ) -> tuple[list[Clause], float]:
    r"""The master IP over a pool by enumeration, when the budget admits at most 3 clauses.

    Every clause costs at least 2, so with :math:`C < 8` a rule set has at most 3 clauses.
    The weighted positives covered by a union come from inclusion-exclusion over the
    pairwise and triple intersections (matrix products over the label-1 rows), so all
    :math:`inom{K}{\le 3}` subsets are scored at once.  Returns the optimal clauses
    (ties: fewer clauses, then the first in pool order) and the objective; equal to
    :class:`~optirules.models.RuleMasterModel`'s IP optimum (tested).
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
                      max_iter: int = 100, time_limit: float | None = None,
                      pricing_time_limit: float | None = None,
                      solver: str | Mapping[str, str] = "highs", master: str = "auto",
                      mip_gap: float | None = 1e-6, random_seed: int | None = None,
                      initial_clauses: Sequence[Clause] = (), master_ip: str = "milp",
                      progress: Callable[[dict[str, Any]], None] | None = None,
                      skip_ip: bool = False, ip_time_limit: float | None = None,
                      backend: Any = "local", pricer: EnumerationPricer | None = None,
                      tol: float = 0.0, smoothing: float = 0.0) -> ColumnGenerationResult:
    r"""Column generation for the weighted rule master, then the master IP over the pool.

    Parameters
    ----------
    A : bool array of shape (N, L)
        Literal matrix.
    y : bool array of shape (N,)
        Labels (True = positive).
    P : array of shape (N,)
        Row weights (a pmf in the DRO paper).
    complexity, lambda0, lambda1
        Budget :math:`C` (``None``: no budget row) and penalty costs.
    max_degree, pricing, exact_method, beam_width, n_columns, max_iter, time_limit
        As for :class:`BooleanRuleSetClassifier` (``pricing="auto"``: exact enumeration
        alone up to ``max_degree=2``; beam search first, then exact pricing when it finds
        nothing, at degree 3 or with the pricing MILP).
    pricing_time_limit, mip_gap, random_seed
        As for :class:`BooleanRuleSetClassifier`.
    solver : str or mapping, default "highs"
        One name for every part, or ``{"lp": ..., "milp": ...}``: the LP solver of the
        restricted master (it must return duals) and the MILP solver of the pricing MILP
        and the master IP.
    master : {"auto", "direct", "merged", "dual", "persistent", "rebuild"}, default "auto"
        How the restricted master LP is held (:func:`restricted_master`).
    initial_clauses : sequence of clauses
        Columns to start the pool with (e.g. the previous members', in the DRO loop).
    master_ip : {"milp", "auto", "branch_and_bound"}, default "milp"
        ``"milp"``: the final master IP is :class:`RuleMasterModel` solved by ``solver``
        (on HiGHS through ``highspy``); ``"branch_and_bound"``:
        :func:`~optirules.models.branch_and_bound_master` (LP-based branch and bound over
        the IP's dual LP in HiGHS); ``"auto"``: :func:`enumerate_master` when the budget
        admits at most 3 clauses (``complexity < 8``), else branch and bound when the MILP
        solver is HiGHS and the IP has at least ``BRANCH_AND_BOUND_ROWS`` merged label-1
        rows, else the MILP.
    progress : callable, optional
        Called with each history record.
    skip_ip : bool, default False
        ``True``: no master IP when the incumbent (the local-search rule set, or the
        restricted LP's solution rounded) is within ``mip_gap`` of the restricted LP's
        optimum, which bounds the IP from below: the rule set is that incumbent, within
        ``mip_gap`` of the optimum as the IP solver's would be (``ip_status`` "optimal
        (incumbent within mip_gap of the LP bound)", ``info["ip_route"]`` "incumbent").
        Among rule sets of equal objective it may differ from the solver's choice.  On a
        master IP of at least ``RESTRICTED_IP_ROWS`` merged label-1 rows, the incumbent is
        also sought by the IP over the restricted LP's 10 and 20 largest columns, each
        followed by local search (``info["incumbent_source"]`` names the winner).
    ip_time_limit : float, optional
        Seconds for the master IP alone (within ``time_limit``).  When it stops the IP,
        the rule set is the better of the IP solver's best solution and the incumbent
        (the local-search rule set), with its gap to the certified bound reported.
    backend : {"local", "dask"} or dask.distributed.Client, default "local"
        Where exact enumeration pricing maps its row blocks
        (:class:`~optirules.models.EnumerationPricer`); the same columns either way.
    pricer : EnumerationPricer, optional
        A pricer prepared for ``A`` (its row blocks, float copy, complement pairs), to share
        between runs on the same literal matrix (the DRO loop's members); the caller closes
        it.  Default: one prepared for this run.
    tol : float, default 0.0
        Stop column generation once the restricted LP value :math:`z` is within ``tol`` of
        the certified bound :math:`\underline{z}` (module docstring):
        :math:`z - \underline{z} \le \mathrm{tol} \cdot z`.  No clause can then lower the LP
        by more than ``tol`` (relative), so the final gap stays certified
        (``stop_reason`` "gap ...", ``converged`` False).  With beam search first at degree
        3, exact enumeration also runs every ``EXACT_EVERY`` iterations in which the beam
        found clauses, for a bound.  ``0``: column generation runs until pricing proves
        that no improving clause exists (or ``max_iter``).
    smoothing : float in [0, 1), default 0.0
        Wentges' dual smoothing (Wentges 1997, "Weighted Dantzig-Wolfe decomposition for
        linear mixed-integer programming", Int. Trans. Oper. Res. 4(2)): exact pricing runs
        at :math:`\alpha \pi_c + (1 - \alpha) \pi` for the LP duals :math:`\pi` and the
        duals :math:`\pi_c` of the best Lagrangian bound so far, :math:`\alpha` =
        ``smoothing``, with ``pricing="auto"`` where beam search comes first (degree 3, or
        the pricing MILP; exact pricing is then an occasional step for the bound).  Every
        dual point in the box gives a valid bound, so the certificate is unchanged; the
        bound rises faster where the LP duals oscillate (degenerate restricted masters).  A clause found there enters when it improves the LP at
        :math:`\pi`; when none does (a mispricing), pricing runs again at :math:`\pi` (so
        the proof of convergence is always at the LP's own duals), and after
        ``MAX_MISPRICINGS`` of them the pricing after a failed beam search is done at
        :math:`\pi` alone (near the optimum the smoothed points misprice; each costs a
        second enumeration).  ``0``: plain column generation.

    Returns
    -------
    ColumnGenerationResult
        ``info`` holds, among others, ``ip_route`` (how the master IP was solved),
        ``ip_nodes`` (branch-and-bound nodes), ``incumbent_source``, ``lp_support`` (the
        clauses with :math:`w_k > 0` in the final restricted LP), ``cg_time`` and
        ``ip_time``.
    """
    from ._pricing import beam_search_pricing

    t_start = time.perf_counter()
    if master_ip not in MASTER_IPS:
        raise InputError(f"master_ip must be one of {MASTER_IPS}, got {master_ip!r}.")
    if not (isinstance(tol, (int, float)) and math.isfinite(tol) and tol >= 0):
        raise InputError(f"tol must be a finite number >= 0, got {tol!r}.")
    if not (isinstance(smoothing, (int, float)) and 0 <= smoothing < 1):
        raise InputError(f"smoothing must be a number in [0, 1), got {smoothing!r}.")
    deadline = None if time_limit is None else t_start + float(time_limit)
    y = np.asarray(y, dtype=bool)
    A = np.ascontiguousarray(A, dtype=bool)
    y_int = y.astype(np.int64)
    use_milp = exact_method == "milp" or (exact_method == "auto" and max_degree > 3)
    # pricing="auto": beam search first only where exact pricing is costly (degree 3, or
    # the MILP); up to degree 2 the enumeration is one matrix product per row block, and it
    # returns the n_columns best clauses, of which beam search scores a subset
    beam_first = use_milp or max_degree >= 3
    lp_solver, solver = split_solver(solver)
    master = restricted_master(A, y_int, P, initial_clauses, complexity=complexity,
                               lambda0=lambda0, lambda1=lambda1, lp_solver=lp_solver,
                               master=master)
    pool: set[Clause] = set(master.clauses_)
    history: list[dict[str, Any]] = []
    best_bound = -math.inf
    last_lower = math.nan
    converged = False
    stop = "max_iter"
    n_exact_incomplete = 0
    z = math.nan
    unsolved: list[float] = []  # reduced costs of columns added after the last LP solve

    def remaining() -> float | None:
        return None if deadline is None else max(0.0, deadline - time.perf_counter())

    own_pricer = pricer is None
    stats0 = {} if pricer is None else dict(pricer.stats)  # a shared pricer's counts so far
    if pricer is not None and (pricer.n_rows, pricer.n_lit) != A.shape:
        raise InputError(f"pricer was prepared for a {pricer.n_rows} x {pricer.n_lit} literal "
                         f"matrix, not this {A.shape[0]} x {A.shape[1]} one.")

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
        nonlocal pricer
        if pricer is None:  # prepared once per run (row blocks, float copy, pair indices)
            pricer = EnumerationPricer(A, backend=backend)
        return pricer.price(v, comp, max_degree, k=n_columns, pool=pool, deadline=dl,
                            need_proof=need_proof)

    pos_weight = np.asarray(P, dtype=float)[y]
    n_mispriced = 0  # smoothed points whose clauses did not improve the LP
    # smoothing where exact pricing is an occasional step after beam search (degree 3, the
    # MILP); where it is the pricer of every iteration, a mispriced smoothed point costs a
    # second enumeration per iteration
    smooth_pricing = pricing == "auto" and beam_first
    center: dict[str, Any] | None = None  # the duals of the best Lagrangian bound so far

    def dual_value(d: dict[str, Any]) -> float:
        """The restricted master's dual objective at duals ``d`` (any ``0 <= mu <= 1``,
        ``lam >= 0`` are dual feasible for the row bounds; the columns enter by pricing)."""
        budget = 0.0 if complexity is None else float(complexity) * float(d["lam"])
        return float(pos_weight @ d["mu"]) - budget

    def record_bound(d: dict[str, Any], lower: float, value: float, kappa: float) -> None:
        nonlocal best_bound, center
        if math.isnan(lower):
            return
        bound = value if lower >= 0 else value + kappa * lower
        if bound > best_bound:
            best_bound = bound
            center = {k: (np.array(v, copy=True) if isinstance(v, np.ndarray) else v)
                      for k, v in d.items()}

    def improving_at(cand: list[tuple[Clause, float]], d: dict[str, Any]
                     ) -> list[tuple[Clause, float]]:
        """The clauses of ``cand`` with a negative reduced cost at the LP duals ``d``."""
        if not cand:
            return []
        cs = [c for c, _ in cand]
        comp = complexity_costs([len(c) for c in cs], d["lam"], d["lambda0"], d["lambda1"])
        r = comp + row_prices(y, P, d["mu"]) @ clause_coverage(A, cs)
        return [(c, float(rk)) for c, rk in zip(cs, r) if rk < -RC_TOL]

    def exact_priced(duals: dict[str, Any], z: float, kappa: float, need_proof: bool,
                     fallback: bool) -> tuple[list[tuple[Clause, float]], float, bool, bool]:
        """Exact pricing with Wentges smoothing: first at ``smoothing * center + (1 -
        smoothing) * duals``, whose Lagrangian bound is as valid as the LP duals' own; the
        clauses it finds enter when they improve the LP at its own duals.  Otherwise (a
        mispricing, when ``fallback``) pricing at the LP duals.  Returns the columns, the
        lower bound on the reduced cost, whether the search completed, and whether those
        two are at the LP duals."""
        nonlocal n_mispriced
        if smoothing > 0 and center is not None and smooth_pricing and \
                (not fallback or n_mispriced < MAX_MISPRICINGS):
            s = {"mu": smoothing * center["mu"] + (1.0 - smoothing) * duals["mu"],
                 "lam": smoothing * float(center["lam"]) + (1.0 - smoothing) * float(duals["lam"]),
                 "lambda0": duals["lambda0"], "lambda1": duals["lambda1"]}
            found, low, done = exact(s, need_proof=False)
            record_bound(s, low, dual_value(s), kappa)
            good = improving_at(found, duals)
            if good or not fallback or (tol > 0 and z - best_bound <= tol * z):
                return good, low, done, False
            n_mispriced += 1
        found, low, done = exact(duals, need_proof=need_proof)
        record_bound(duals, low, z, kappa)
        return found, low, done, True

    for it in range(1, max_iter + 1):
        z = master.solve()
        duals = master.duals_for_pricing_
        kappa = _kappa(complexity, lambda0, lambda1, z)
        if it > 1 and deadline is not None and time.perf_counter() > deadline:
            stop = "time_limit"  # the LP over the pool is solved: no pricing time left
            break
        cols: list[tuple[Clause, float]] = []
        lower = math.nan
        complete = True
        at_lp = True
        used = ""
        if pricing == "beam" or (pricing == "auto" and beam_first):
            used = "beam"
            cand = beam_search_pricing(A, y_int, P, duals["mu"], duals["lam"], max_degree,
                                       lambda0=duals["lambda0"], lambda1=duals["lambda1"],
                                       beam_width=beam_width, k=n_columns,
                                       exclude=sorted(pool))
            cols = [(c, r) for c, r in cand if r < -RC_TOL and c not in pool]
        if not cols and pricing in ("exact", "auto"):
            used = "exact" if not used else "beam+exact"
            cols, lower, complete, at_lp = exact_priced(duals, z, kappa,
                                                        pricing == "exact", fallback=True)
            if not complete and not cols:
                n_exact_incomplete += 1
        elif (cols and tol > 0 and pricing == "auto" and not use_milp
              and it % EXACT_EVERY == 0):
            # the beam found clauses: exact pricing (no proof needed) for a bound
            used = "beam+exact"
            more, lower, _, at_lp = exact_priced(duals, z, kappa, False, fallback=False)
            seen = {c for c, _ in cols}
            cols += [(c, r) for c, r in more if c not in seen]
        if not math.isnan(lower) and at_lp:
            last_lower = lower
        best_r = min((r for _, r in cols), default=lower if not math.isnan(lower) else 0.0)
        record = {"iteration": it, "lp_objective": z, "best_reduced_cost": float(best_r),
                  "reduced_cost_lower_bound": float(lower), "columns_added": len(cols),
                  "pool_size": len(pool) + len(cols), "pricing": used,
                  "lp_bound": float(best_bound), "time": time.perf_counter() - t_start}
        history.append(record)
        if progress is not None:
            progress(record)
        proved = not cols and at_lp and not math.isnan(lower) and lower >= -RC_TOL
        if (not proved and tol > 0 and math.isfinite(best_bound)
                and z - best_bound <= tol * z):
            master.add_clauses([c for c, _ in cols])  # kept for the IP; the LP is re-solved
            pool.update(c for c, _ in cols)
            stop = "gap (the certified bound is within tol of the restricted LP)"
            break
        if not cols:
            if pricing == "beam":
                stop = "beam search found no improving clause (no proof)"
            elif proved:
                # a proven bound >= 0 is a proof, even from an interrupted search
                converged = True
                stop = "converged (exact pricing proved no improving clause)"
            else:
                stop = "exact pricing stopped by its time limit (no proof)"
            break
        master.add_clauses([c for c, _ in cols])
        pool.update(c for c, _ in cols)
        if deadline is not None and time.perf_counter() > deadline:
            # no LP solve for the new columns (time_limit leaves none): they join the
            # IP's pool with their reduced costs at the last duals
            unsolved = [min(r, 0.0) for _, r in cols]
            stop = "time_limit"
            break
    if not converged and stop != "time_limit":
        z = master.solve()  # columns added by the last iteration
        if pricing != "beam" and stop == "max_iter":
            # no proof yet: price once more at the final duals, for a certified bound
            _, lower, _ = exact(master.duals_for_pricing_, need_proof=True)
            last_lower = lower
            record_bound(master.duals_for_pricing_, lower, z,
                         _kappa(complexity, lambda0, lambda1, z))

    final_duals = {k: (np.array(v, copy=True) if isinstance(v, np.ndarray) else float(v))
                   for k, v in master.duals_for_pricing_.items()}
    # the final restricted LP's w where the master keeps it, and its support (w_k > 0)
    w_lp = getattr(master, "w_", None)
    if w_lp is not None and len(w_lp) != len(master.clauses_):
        w_lp = None
    lp_support = [] if w_lp is None else [master.clauses_[k]
                                          for k in np.flatnonzero(np.asarray(w_lp) > 1e-9)]
    # ------------------------------------------------------------------ master IP
    t_ip = time.perf_counter()
    pool_list = master.clauses_
    ip_status = "optimal"
    ip_bound = math.nan
    ip_route = ""
    chosen: list[Clause] = []
    pool_cov = clause_coverage(A, pool_list) if pool_list else None
    merged = _merged_rows(A, y, P, pool_list, pool_cov) if pool_list else None
    incumbent = _greedy_rule_set(A, y, P, pool_list, complexity, lambda0, lambda1,
                                 merged=merged)
    incumbent = _improve_rule_set(A, y, P, pool_list, incumbent, complexity, lambda0, lambda1,
                                  merged=merged, deadline=deadline)
    ub = master_objective(A, y, P, incumbent, lambda0, lambda1)
    def canonical(index: Any) -> list[Clause]:
        """Each clause by the pool's representative of its coverage, as the IP keeps them
        (never a higher cost or objective)."""
        keys = [r.tobytes() for r in np.packbits(np.ascontiguousarray(merged[0].T), axis=1)]
        rep = {keys[k]: k for k in _distinct_coverage(pool_list, merged[0],
                                                      range(len(pool_list)))}
        return [pool_list[k] for k in sorted({rep[keys[k]] for k in index})]

    # skip_ip: the LP optimum z bounds the IP over the pool from below, so an incumbent
    # within mip_gap of it meets the gap the IP solver would be asked for and no IP is
    # solved.  The restricted LP's solution rounded (w_k > 0.5) is a candidate too
    # (integral LP solutions are common: magic_gamma's first DRO member at 19,020 rows).
    # Among rule sets of equal objective the incumbent need not be the one the IP solver
    # returns (nor the same for weights as for repeated rows), hence an option.
    if skip_ip and w_lp is not None and merged is not None:
        lp_set = canonical(np.flatnonzero(np.asarray(w_lp) > 0.5))
        if complexity is None or sum(1 + len(c) for c in lp_set) <= complexity + 1e-9:
            lp_obj = master_objective(A, y, P, lp_set, lambda0, lambda1)
            if lp_obj < ub:
                incumbent, ub = lp_set, lp_obj
    # restricted IPs: on a large master IP, the IP over the restricted LP's largest columns
    # (the rows merged over those few columns: tens to hundreds of cover rows), then local
    # search over the whole pool, is a far better incumbent than the greedy one
    # (not before enumerate_master, which needs no incumbent)
    enumerated = master_ip == "auto" and complexity is not None and complexity < 8
    n_cover = 0 if merged is None else int(np.count_nonzero(merged[1]))
    branch_and_bound = master_ip == "branch_and_bound" or (
        master_ip == "auto" and not enumerated and solver == "highs"
        and n_cover >= BRANCH_AND_BOUND_ROWS)
    ip_source = "local search"
    rc_lp = np.asarray(master.reduced_costs_, dtype=float)
    if unsolved:  # (no reduced-cost fixing below: z is not the LP over these columns)
        rc_lp = np.concatenate([rc_lp, unsolved])
    if (w_lp is not None and n_cover >= RESTRICTED_IP_ROWS
            and not enumerated):
        order = np.lexsort((rc_lp, -np.asarray(w_lp, dtype=float)))
        for n in RESTRICTED_IP_COLUMNS:
            if n >= len(pool_list) or (remaining() is not None and remaining() <= 0):
                break
            found = _restricted_ip(master, [pool_list[k] for k in np.sort(order[:n])],
                                   solver, remaining(), random_seed)
            if found is None:
                continue
            cand = _improve_rule_set(A, y, P, pool_list, found, complexity, lambda0,
                                     lambda1, merged=merged, deadline=deadline)
            obj = master_objective(A, y, P, cand, lambda0, lambda1)
            if obj < ub:
                incumbent, ub, ip_source = cand, obj, f"restricted IP over {n} columns"
    within_gap = skip_ip and mip_gap is not None and ub - z <= float(mip_gap) * ub
    # reduced-cost fixing: with the final LP duals every IP solution using column k costs
    # at least z + r_k, so columns with z + r_k > ub are in no optimal solution
    rc = np.maximum(rc_lp, 0.0)
    keep = [k for k, r in enumerate(rc) if unsolved or z + r <= ub + 1e-12]
    # (rows of one merged group are covered by the same clauses: their coverage suffices)
    keep_cols = [pool_list[k] for k in _distinct_coverage(
        pool_list, None if merged is None else merged[0], keep)]
    rem = remaining()
    tl = rem  # the master IP's seconds: what time_limit leaves
    if ip_time_limit is not None:
        tl = float(ip_time_limit) if tl is None else min(tl, float(ip_time_limit))
    ip_info: dict[str, Any] = {}
    if keep_cols and within_gap:
        chosen = canonical([pool_list.index(c) for c in incumbent])
        ip_status = "optimal (incumbent within mip_gap of the LP bound)"
    elif keep_cols and tl is not None and tl <= 0:
        # time_limit is spent: no IP, the incumbent (greedy and local search over the
        # pool) is the rule set, its gap to the certified bound reported
        chosen = incumbent
        ip_status = "time_limit (no time left for the IP; the local-search incumbent)"
        ip_route = "incumbent"
        ip_route = "incumbent"
    elif keep_cols and enumerated:
        chosen, _ = enumerate_master(A, y, P, keep_cols, complexity, lambda0, lambda1)
        ip_status = "optimal (enumeration)"
    elif keep_cols and branch_and_bound:
        ip = branch_and_bound_master(A, y, P, keep_cols, complexity=complexity,
                                     lambda0=lambda0, lambda1=lambda1, mip_gap=mip_gap,
                                     time_limit=tl, incumbent=incumbent,
                                     random_seed=random_seed)
        ip_status, ip_bound, chosen = ip.status, float(ip.bound), list(ip.selected)
        ip_route, ip_info = ip.route, ip.info
    elif keep_cols:
        try:
            ip = master.solve_ip(keep_cols, solver=solver, time_limit=tl, mip_gap=mip_gap,
                                 incumbent=incumbent, random_seed=random_seed)
        except OptirulesError as exc:
            from ..solvers import Status

            res = exc.result if isinstance(exc, SolverStatusError) else None
            if res is None or res.status is not Status.TIME_LIMIT:
                raise SolverError(
                    f"the master IP over {len(pool_list)} generated clauses was not solved "
                    f"({exc}). Raise time_limit or try another solver."
                ) from None
            # the time limit came before the IP solver's first solution: the incumbent
            # (greedy and local search over the pool) is the rule set, its gap reported
            chosen = incumbent
            ip_status = "time_limit (no IP solution; the local-search incumbent)"
            ip_route = "incumbent"
        else:
            ip_status, ip_bound, chosen = ip.status, float(ip.bound), list(ip.selected)
            ip_route = ip.route
    if master_objective(A, y, P, chosen, lambda0, lambda1) > ub:
        chosen = incumbent  # only after a time limit: keep the better heuristic solution
    chosen = prune_redundant(A, y, P, chosen, lambda0, lambda1)
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
    if pricer is not None and own_pricer:
        pricer.close()
    info = {"n_exact_incomplete": n_exact_incomplete,
            "pricing_stats": None if pricer is None else {
                k: v - stats0.get(k, 0) for k, v in pricer.stats.items()},
            "kappa": _kappa(complexity, lambda0, lambda1, z),
            "ip_columns": len(keep_cols), "greedy_objective": ub,
            "cg_time": t_ip - t_start, "ip_time": time.perf_counter() - t_ip,
            "lp_support": lp_support, "duals": final_duals, "master": type(master).__name__, "lp_solver": lp_solver,
            "milp_solver": solver, "ip_route": ip_route, "incumbent_source": ip_source,
            "ip_nodes": ip_info.get("nodes")}
    return ColumnGenerationResult(
        clauses=chosen, pool=pool_list, history=history, lp_objective=float(z),
        lp_bound=float(lp_bound), ip_objective=float(ip_obj), ip_status=ip_status,
        ip_bound=ip_bound, gap=float(gap), certified=certified, converged=converged,
        absolute_gap=float(abs_gap),
        stop_reason=stop, pricing_lower_bound=float(last_lower),
        fit_time=time.perf_counter() - t_start, info=info,
    )


#: max_degree="auto" is 3 when the literals give at most this many triples (L <= 288)
_AUTO_DEGREE_TRIPLES = 4e6


def resolve_max_degree(max_degree: int | str, shape: tuple[int, int]) -> int:
    """``max_degree``, with ``"auto"`` resolved to 3 or 2 by the number of literals ``L``:
    3 when :math:`L^3/6 \\le 4 \\cdot 10^6` (``L <= 288``), whatever the number of rows (exact
    pricing enumerates triples over row blocks with bound pruning; a pricing time-out still
    leaves a certified bound over degree 3), else 2."""
    if max_degree != "auto":
        return int(max_degree)
    _, n_lit = shape
    return 3 if n_lit ** 3 / 6.0 <= _AUTO_DEGREE_TRIPLES else 2
