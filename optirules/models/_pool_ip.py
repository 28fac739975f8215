"""The master IP over the pool column generation generated: an incumbent (greedy, local
search, the restricted LP rounded, restricted IPs over the LP's largest columns),
reduced-cost fixing, then enumeration, branch and bound or the MILP (:class:`PoolIP`);
and the master objective of a rule set, which every step compares."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import InputError, OptirulesError, SolverError, SolverStatusError
from ..solvers import capable
from ._branch_and_bound import branch_and_bound_master
from ._clauses import Clause, clause_coverage, clause_degrees
from ._problem import RuleSetProblem
from .masters import aggregate_rows
from .options import BRANCH_AND_BOUND_ROWS

__all__ = ["PoolIP", "enumerate_master", "master_objective", "prune_redundant"]



def master_objective(A: np.ndarray, y: np.ndarray, P: np.ndarray, clauses: Sequence[Clause],
                     lambda0: float, lambda1: float, literal_costs: Any = None) -> float:
    """The master IP objective of a rule set: weighted Hamming loss plus penalties.

    Parameters
    ----------
    A : bool array of shape (N, L)
        Literal matrix.
    y : array of shape (N,)
        0/1 labels.
    P : array of shape (N,)
        Row weights (summing to 1).
    clauses : sequence of Clause
        The rule set.
    lambda0 : float
        Penalty per clause.
    lambda1 : float
        Penalty per literal.
    literal_costs : array of shape (L,), optional
        A cost per literal (the penalty is then per unit of literal cost).

    Returns
    -------
    float
        The objective.
    """
    cov = clause_coverage(A, list(clauses))
    missed = y & ~cov.any(axis=1) if clauses else y.copy()
    neg = float((np.where(y, 0.0, P) @ cov).sum()) if clauses else 0.0
    pen = float(np.sum(lambda0 + lambda1 * clause_degrees(list(clauses), literal_costs))) \
        if literal_costs is not None else sum(lambda0 + lambda1 * len(c) for c in clauses)
    return float(P[missed].sum()) + neg + pen


def prune_redundant(A: np.ndarray, y: np.ndarray, P: np.ndarray, clauses: list[Clause],
                     lambda0: float, lambda1: float, literal_costs: Any = None
                     ) -> list[Clause]:
    """Drop clauses whose removal does not increase the master objective (greedy, stable).

    The IP optimum is unchanged (removing never increases it, and it was optimal), but a
    budget-form IP may otherwise keep clauses that cost nothing and do nothing.

    Parameters
    ----------
    A : bool array of shape (N, L)
        Literal matrix.
    y : array of shape (N,)
        0/1 labels.
    P : array of shape (N,)
        Row weights (summing to 1).
    clauses : list of Clause
        The rule set.
    lambda0 : float
        Penalty per clause.
    lambda1 : float
        Penalty per literal.
    literal_costs : array of shape (L,), optional
        A cost per literal (:func:`master_objective`).

    Returns
    -------
    list of Clause
        The clauses kept, in their order.
    """
    current = list(clauses)
    obj = master_objective(A, y, P, current, lambda0, lambda1, literal_costs)
    changed = True
    while changed and current:
        changed = False
        for c in sorted(current, key=lambda c: (-len(c), c)):
            trial = [d for d in current if d != c]
            o = master_objective(A, y, P, trial, lambda0, lambda1, literal_costs)
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


def budget_rows(pool: Sequence[Clause], complexity: float | None = None,
                max_rules: int | None = None, max_literals: int | None = None,
                literal_costs: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """The master's budget rows over ``pool`` as ``(coefficients (R, K), right-hand sides
    (R,))``: the complexity budget (:math:`1 + |k|`), ``max_rules`` (1) and
    ``max_literals`` (:math:`|k|`), those that are set (:math:`|k|` weighted by
    ``literal_costs``)."""
    deg = clause_degrees(list(pool), literal_costs).astype(float)
    rows, rhs = [], []
    for coef, bound in ((1.0 + deg, complexity), (np.ones_like(deg), max_rules),
                        (deg, max_literals)):
        if bound is not None:
            rows.append(coef)
            rhs.append(float(bound))
    return np.array(rows, dtype=float).reshape(len(rows), len(pool)), np.array(rhs)


def within_budget(clauses: Sequence[Clause], complexity: float | None = None,
                  max_rules: int | None = None, max_literals: int | None = None,
                  literal_costs: Any = None) -> bool:
    """Whether the rule set ``clauses`` meets every budget row (:func:`budget_rows`)."""
    coef, rhs = budget_rows(list(clauses), complexity, max_rules, max_literals,
                            literal_costs)
    return bool(np.all(coef.sum(axis=1) <= rhs + 1e-9))


def _greedy_rule_set(A: np.ndarray, y: np.ndarray, P: np.ndarray, pool: Sequence[Clause],
                     budget: float | None, lambda0: float, lambda1: float, *,
                     merged: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
                     limits: tuple[int | None, int | None] = (None, None),
                     literal_costs: Any = None) -> list[Clause]:
    """A quick feasible rule set: add the pool clause that lowers the objective most.

    Its objective is the incumbent of the reduced-cost fixing before the master IP.  Works
    on the merged rows ``merged`` (:func:`_merged_rows`, computed when None).
    """
    if not pool:
        return []
    cov, pos, weights = _merged_rows(A, y, P, pool) if merged is None else merged
    C = cov.astype(np.float64)
    cost = 1.0 + clause_degrees(list(pool), literal_costs).astype(float)
    fixed = np.where(pos, 0.0, weights) @ C + lambda0 + lambda1 * (cost - 1.0)
    uncovered = pos.copy()
    coef, rhs = budget_rows(pool, budget, *limits, literal_costs)
    spent = np.zeros(rhs.size)
    chosen: list[int] = []
    free = np.ones(len(pool), bool)
    while True:
        gain = np.where(uncovered, weights, 0.0) @ C - fixed
        ok = free & (gain > 1e-15)
        ok &= np.all(spent[:, None] + coef <= rhs[:, None] + 1e-9, axis=0)
        if not ok.any():
            break
        k = int(np.flatnonzero(ok)[np.argmax(gain[ok])])
        chosen.append(k)
        free[k] = False
        spent += coef[:, k]
        uncovered &= ~cov[:, k]
    return [pool[k] for k in chosen]


def _improve_rule_set(problem: RuleSetProblem, pool: Sequence[Clause],
                      chosen: Sequence[Clause], max_moves: int = 200, *,
                      merged: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
                      deadline: float | None = None) -> list[Clause]:
    """Local search from ``chosen``: the best of adding, dropping or swapping one pool clause,
    while it lowers the master objective of ``problem`` (and keeps its budget,
    ``max_rules`` and ``max_literals`` rows; clause degrees weighted by its literal costs).

    Works on the merged rows ``merged`` (:func:`_merged_rows`, computed when None).  A
    better incumbent lets the reduced-cost fixing before the master IP drop more columns;
    the IP's optimum does not depend on it.  At ``deadline`` (``time.perf_counter()``
    seconds; a user's ``time_limit`` only) the moves made so far are kept.
    """
    if not pool:
        return list(chosen)
    A, y, P = problem.A, problem.y, problem.P
    budget, lambda0, lambda1 = problem.complexity, problem.lambda0, problem.lambda1
    limits, literal_costs = (problem.max_rules, problem.max_literals), problem.literal_costs
    cov, pos, weights = _merged_rows(A, y, P, pool) if merged is None else merged
    C = cov[pos].astype(np.float64)
    w = weights[pos]
    cost = 1.0 + clause_degrees(list(pool), literal_costs).astype(float)
    fixed = np.where(pos, 0.0, weights) @ cov + lambda0 + lambda1 * (cost - 1.0)
    index = {c: k for k, c in enumerate(pool)}
    inside = np.zeros(len(pool), bool)
    inside[[index[c] for c in chosen if c in index]] = True
    cnt = C[:, inside].sum(axis=1)
    coef, rhs = budget_rows(pool, budget, *limits, literal_costs)
    limit = rhs[:, None] + 1e-9
    for _ in range(max_moves):
        if deadline is not None and time.perf_counter() > deadline:
            break
        spent = coef[:, inside].sum(axis=1)[:, None]
        gain = (w * (cnt == 0)) @ C  # uncovered weight each clause would cover
        add = np.where(~inside & np.all(spent + coef <= limit, axis=0), fixed - gain, np.inf)
        best, move = float(add.min()), ("add", int(np.argmin(add)), -1)
        for k in np.flatnonzero(inside):
            lost = w * ((cnt == 1) & (C[:, k] > 0))  # rows only k covers
            drop = float(lost.sum()) - fixed[k]
            if drop < best:
                best, move = drop, ("drop", int(k), -1)
            swap = fixed - fixed[k] + lost @ (1.0 - C) - gain
            swap = np.where(~inside & np.all(spent - coef[:, k:k + 1] + coef <= limit, axis=0),
                            swap, np.inf)
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


def _coverage_keys(pool: Sequence[Clause], coverage: np.ndarray, index: Sequence[int],
                   required: Sequence[Any] = ()) -> list[bytes]:
    """Per pool clause of ``index``, a key of its master column: its coverage of the rows
    and the required groups it uses (two clauses of one key are interchangeable in the
    master IP)."""
    keys = np.packbits(np.ascontiguousarray(coverage[:, list(index)].T), axis=1)
    if not required:
        return [row.tobytes() for row in keys]
    return [row.tobytes() + bytes(int(bool(set(g).intersection(pool[k]))) for g in required)
            for row, k in zip(keys, index)]


def _distinct_coverage(pool: Sequence[Clause], coverage: np.ndarray | None,
                       index: Sequence[int], required: Sequence[Any] = (),
                       literal_costs: Any = None) -> list[int]:
    """Of the pool clauses ``index``, one per master column (coverage of the rows and the
    required groups used, :func:`_coverage_keys`): the least literal cost, then the first
    in clause order.  Clauses of one key have equal master columns, the one with more
    literals a higher cost, so the master IP's optimum is unchanged, and the rule set
    chosen among equal ones does not depend on how the rows are given (weights or
    repeated rows) or on the order of the pool."""
    if coverage is None or len(index) < 2:
        return list(index)
    index = list(index)
    cost = clause_degrees([pool[k] for k in index], literal_costs)
    best: dict[bytes, tuple[Any, int]] = {}
    for key, k, c in zip(_coverage_keys(pool, coverage, index, required), index,
                         cost.tolist()):
        rank = (c, len(pool[k]), pool[k])
        held = best.get(key)
        if held is None or rank < held[0]:
            best[key] = (rank, k)
    return sorted(k for _, k in best.values())


#: the restricted IPs of :func:`column_generation` run when the master IP has at least this
#: many label-1 cover rows (merged by their coverage of the pool), over the restricted LP's
#: 10 and then 20 largest columns (ties: the lower reduced cost first): on the member IPs of
#: a DRO fit on magic_gamma they found the optimum or came close to it in a fraction of the
#: time HiGHS takes to the gap, far closer than greedy and local search alone (figures in
#: docs/user_guide/models.md).
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
    :math:`\binom{K}{\le 3}` subsets are scored at once.  Returns the optimal clauses
    (ties: fewer clauses, then the first in pool order) and the objective; equal to
    :class:`~optirules.models.RuleMasterModel`'s IP optimum (tested).

    Parameters
    ----------
    A : bool array of shape (N, L)
        Literal matrix.
    y : array of shape (N,)
        0/1 labels.
    P : array of shape (N,)
        Row weights (summing to 1).
    pool : sequence of Clause
        The candidate clauses.
    budget : float
        Complexity budget :math:`C` (below 8).
    lambda0 : float, default 0.0
        Penalty per clause.
    lambda1 : float, default 0.0
        Penalty per literal.

    Returns
    -------
    clauses : list of Clause
        The optimal rule set.
    objective : float
        Its master objective.
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



class PoolIP:
    """The master IP over a run's pool: an incumbent (greedy, local search, the LP
    rounded, restricted IPs), reduced-cost fixing, then the route (enumeration, branch and
    bound, or the MILP) within what ``time_limit`` leaves."""

    def __init__(self, run: Any) -> None:
        self.run = run
        master = run.master
        self.pool = master.clauses_
        self.duals = {k: (np.array(v, copy=True) if isinstance(v, np.ndarray) else float(v))
                      for k, v in master.duals_for_pricing_.items()}
        # the final restricted LP's w where the master keeps it, and its support (w_k > 0)
        w_lp = getattr(master, "w_", None)
        self.w_lp = None if w_lp is None or len(w_lp) != len(self.pool) else w_lp
        self.lp_support = [] if self.w_lp is None else [
            self.pool[k] for k in np.flatnonzero(np.asarray(self.w_lp) > 1e-9)]
        cov = clause_coverage(run.A, self.pool) if self.pool else None
        self.merged = _merged_rows(run.A, run.y, run.P, self.pool, cov) if self.pool else None
        self.n_cover = 0 if self.merged is None else int(np.count_nonzero(self.merged[1]))
        self.limits = (run.max_rules, run.max_literals)
        self.limited = self.limits != (None, None) or run.fairness is not None \
            or run.literal_costs is not None or bool(run.required)
        self.enumerated = (run.master_ip == "auto" and run.complexity is not None
                           and run.complexity < 8 and not self.limited)
        self.rc_lp = np.asarray(master.reduced_costs_, dtype=float)
        if run.unsolved:  # (no reduced-cost fixing below: z is not the LP over these)
            self.rc_lp = np.concatenate([self.rc_lp, run.unsolved])

    def objective(self, clauses: Sequence[Clause]) -> float:
        r = self.run
        return master_objective(r.A, r.y, r.P, clauses, r.lambda0, r.lambda1,
                                r.literal_costs)

    def improved(self, start: list[Clause]) -> list[Clause]:
        r = self.run
        return _improve_rule_set(r.problem, self.pool, start, merged=self.merged,
                                 deadline=r.deadline)

    def meets_required(self, clauses: Sequence[Clause]) -> bool:
        """Whether a rule set uses every required group of literals."""
        used = {j for c in clauses for j in c}
        return all(used.intersection(g) for g in self.run.required)

    def with_required(self, clauses: list[Clause]) -> list[Clause]:
        """``clauses`` with, for each required group it does not use, the group's single
        literal that raises the objective least, while the budget rows allow."""
        r, out = self.run, list(clauses)
        for g in r.required:
            if {j for c in out for j in c}.intersection(g):
                continue
            options = [out + [(j,)] for j in g if (j,) not in out]
            options = [o for o in options
                       if within_budget(o, r.complexity, *self.limits, r.literal_costs)]
            if options:
                out = min(options, key=self.objective)
        return out

    def fair(self, clauses: Sequence[Clause]) -> bool:
        """Whether a rule set meets the run's fairness rows on its rows."""
        r = self.run
        covered = clause_coverage(r.A, list(clauses)).any(axis=1) if clauses else \
            np.zeros(len(r.y), bool)
        return r.fair.meets(covered)

    def canonical(self, index: Any) -> list[Clause]:
        """Each clause by the pool's representative of its master column (coverage and
        required groups used), as the IP keeps them (never a higher cost or objective)."""
        r, every = self.run, range(len(self.pool))
        keys = _coverage_keys(self.pool, self.merged[0], every, r.required)
        rep = {keys[k]: k for k in _distinct_coverage(self.pool, self.merged[0], every,
                                                      r.required, r.literal_costs)}
        return [self.pool[k] for k in sorted({rep[keys[k]] for k in index})]

    def feasible(self, clauses: Sequence[Clause]) -> bool:
        """Whether a rule set meets every side constraint of the run: the budget rows, the
        required groups and the fairness rows."""
        r = self.run
        return (within_budget(clauses, r.complexity, *self.limits, r.literal_costs)
                and (not r.required or self.meets_required(clauses))
                and (r.fair is None or self.fair(clauses)))

    def incumbent(self) -> tuple[list[Clause], float, str]:
        """The best rule set found without the IP: greedy then local search; with
        ``skip_ip`` the restricted LP's solution rounded; on a large IP the restricted IPs
        over the LP's largest columns, each followed by local search."""
        r = self.run
        inc = _greedy_rule_set(r.A, r.y, r.P, self.pool, r.complexity, r.lambda0,
                               r.lambda1, merged=self.merged, limits=self.limits,
                               literal_costs=r.literal_costs)
        inc, source = self.improved(inc), "local search"
        if r.required:
            inc = self.with_required(inc)
        if r.fair is not None and not self.fair(inc):  # the empty set meets every rate row
            inc, source = [], "empty rule set (fairness rows)"
        # an incumbent that misses a side constraint bounds nothing: no reduced-cost
        # fixing by it, and the IP's rule set is never replaced by it
        ub = self.objective(inc) if self.feasible(inc) else math.inf
        # skip_ip: the LP optimum z bounds the IP over the pool from below, so an
        # incumbent within mip_gap of it meets the gap the IP solver would be asked for
        # and no IP is solved.  The restricted LP's solution rounded (w_k > 0.5) is a
        # candidate too (integral LP solutions are common).  Among rule sets of equal
        # objective the incumbent need not be the one the IP solver returns (nor the same
        # for weights as for repeated rows), hence an option.
        if r.skip_ip and self.w_lp is not None and self.merged is not None:
            lp_set = self.canonical(np.flatnonzero(np.asarray(self.w_lp) > 0.5))
            if self.feasible(lp_set):
                lp_obj = self.objective(lp_set)
                if lp_obj < ub:
                    inc, ub = lp_set, lp_obj
        # restricted IPs: on a large master IP, the IP over the restricted LP's largest
        # columns (the rows merged over those few columns), then local search over the
        # whole pool, is a far better incumbent than the greedy one (not before
        # enumerate_master, which needs no incumbent)
        # (with fairness rows at any size: the heuristics above know no fairness, and the
        # restricted IPs, which have the rows, give the reduced-cost fixing its incumbent)
        if self.w_lp is not None and (self.n_cover >= RESTRICTED_IP_ROWS
                                      or r.fair is not None) and not self.enumerated:
            order = np.lexsort((self.rc_lp, -np.asarray(self.w_lp, dtype=float)))
            for n in RESTRICTED_IP_COLUMNS:
                if n >= len(self.pool) or (r.remaining() is not None and r.remaining() <= 0):
                    break
                found = _restricted_ip(r.master, [self.pool[k] for k in np.sort(order[:n])],
                                       r.solver, r.remaining(), r.random_seed)
                if found is None:
                    continue
                cand = self.improved(found)
                if not self.feasible(cand):
                    # the IP's rule set meets the side constraints; local search, which
                    # knows only the budget rows, may not
                    cand = found
                obj = self.objective(cand) if self.feasible(cand) else math.inf
                if obj < ub:
                    inc, ub, source = cand, obj, f"restricted IP over {n} columns"
        return inc, ub, source

    def columns(self, ub: float) -> list[Clause]:
        """Reduced-cost fixing: with the final LP duals every IP solution using column k
        costs at least z + r_k, so columns with z + r_k > ub are in no optimal solution;
        of equal coverage one column is kept."""
        r = self.run
        rc = np.maximum(self.rc_lp, 0.0)
        keep = [k for k, rk in enumerate(rc) if r.unsolved or r.z + rk <= ub + 1e-12]
        return [self.pool[k] for k in _distinct_coverage(
            self.pool, None if self.merged is None else self.merged[0], keep, r.required,
            r.literal_costs)]

    def solve(self) -> dict[str, Any]:
        r = self.run
        incumbent, ub, source = self.incumbent()
        keep_cols = self.columns(ub)
        within_gap = r.skip_ip and r.mip_gap is not None and ub - r.z <= float(r.mip_gap) * ub \
            and math.isfinite(ub)
        branch_and_bound = r.master_ip == "branch_and_bound" or (
            r.master_ip == "auto" and not self.enumerated and capable(r.solver, "milp", "highspy")
            and self.n_cover >= BRANCH_AND_BOUND_ROWS and not self.limited)
        tl = r.remaining()  # the master IP's seconds: what time_limit leaves
        if r.ip_time_limit is not None:
            tl = float(r.ip_time_limit) if tl is None else min(tl, float(r.ip_time_limit))
        out = {"chosen": [], "status": "optimal", "bound": math.nan, "route": "",
               "nodes": None}
        if keep_cols and within_gap:
            out["chosen"] = self.canonical([self.pool.index(c) for c in incumbent])
            out["status"] = "optimal (incumbent within mip_gap of the LP bound)"
        elif keep_cols and tl is not None and tl <= 0:
            # time_limit is spent: no IP, the incumbent (greedy and local search over the
            # pool) is the rule set, its gap to the certified bound reported
            out.update(chosen=incumbent, route="incumbent", status="time_limit (no time "
                       "left for the IP; the local-search incumbent)")
        elif keep_cols and self.enumerated:
            out["chosen"], _ = enumerate_master(r.A, r.y, r.P, keep_cols, r.complexity,
                                                r.lambda0, r.lambda1)
            out["status"] = "optimal (enumeration)"
        elif keep_cols and branch_and_bound:
            ip = branch_and_bound_master(r.problem, keep_cols, mip_gap=r.mip_gap, time_limit=tl,
                                         incumbent=incumbent, random_seed=r.random_seed)
            out.update(chosen=list(ip.selected), status=ip.status, bound=float(ip.bound),
                       route=ip.route, nodes=ip.info.get("nodes"))
        elif keep_cols:
            out.update(self.milp(keep_cols, tl, incumbent))
        if self.objective(out["chosen"]) > ub:
            out["chosen"] = incumbent  # only after a time limit: the better heuristic one
        out.update(n_columns=len(keep_cols), incumbent_objective=ub, source=source,
                   lp_support=self.lp_support, duals=self.duals)
        return out

    def milp(self, cols: list[Clause], tl: float | None, incumbent: list[Clause]
             ) -> dict[str, Any]:
        """The master IP by the MILP solver (on HiGHS the LP's own model)."""
        r = self.run
        try:
            ip = r.master.solve_ip(cols, solver=r.solver, time_limit=tl, mip_gap=r.mip_gap,
                                   incumbent=incumbent, random_seed=r.random_seed)
        except OptirulesError as exc:
            from ..solvers import Status

            res = exc.result if isinstance(exc, SolverStatusError) else None
            if r.required and res is not None and res.status in (
                    Status.INFEASIBLE, Status.INFEASIBLE_OR_UNBOUNDED):
                raise InputError(
                    f"no rule set over the {len(self.pool)} generated clauses uses every "
                    f"required feature within the limits (max_rules={r.max_rules}, "
                    f"max_literals={r.max_literals}, complexity={r.complexity}); loosen "
                    "them or require fewer features.") from None
            if res is None or res.status is not Status.TIME_LIMIT:
                raise SolverError(
                    f"the master IP over {len(self.pool)} generated clauses was not solved "
                    f"({exc}). Raise time_limit or try another solver."
                ) from None
            # the time limit came before the IP solver's first solution: the incumbent
            # (greedy and local search over the pool) is the rule set, its gap reported
            return {"chosen": incumbent, "route": "incumbent",
                    "status": "time_limit (no IP solution; the local-search incumbent)"}
        return {"chosen": list(ip.selected), "status": ip.status, "bound": float(ip.bound),
                "route": ip.route}
