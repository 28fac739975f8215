"""The two solves of each iteration of :class:`~optirules.learners.DRORuleEnsembleClassifier`:
a member (column generation, then its master IP within ``member_ip_max_nodes``
branch-and-bound nodes) and the sparse combination IPs (the DRO paper, eqs 11-14), with
the text of the bounds that stopped them.

:class:`_DROSteps` is the base of one fit's state (:class:`~._loop.DROFit`); it reads
the estimator's parameters and fitted settings (``lambda0_``, ``lambda1_``,
``max_degree_``) and keeps the fit's deadline.
"""

from __future__ import annotations

import logging
import math
import time
from typing import Any

import numpy as np

from ...errors import InputError, OptirulesError, SolverError
from ...models import (
    Clause,
    ColumnGenerationOptions,
    RuleSetProblem,
    aggregate_rows,
    clause_coverage,
    solve_column_generation,
)
from .._scores import VOTE_CUT
from ._math import MIN_IP_SECONDS, _cost, _robust, _share, margin_loss

_LOG = logging.getLogger("optirules.learners.dro_ensemble")


class _DROSteps:
    """A member's column generation and master IP, and the combination IPs, of one fit of
    the estimator ``est`` (its parameters and fitted settings: ``lambda0_``, ``lambda1_``,
    ``max_degree_``, the literal conflicts), with the fit's deadline and the members still
    planned (for the fair share of ``time_limit``)."""

    def __init__(self, est: Any, deadline: float | None, members_left: int) -> None:
        self.est = est
        self._deadline = deadline
        self._members_left = members_left
        self._history: list[dict[str, Any]] = []

    def _remaining(self) -> float | None:
        if self._deadline is None:
            return None
        return max(0.0, self._deadline - time.perf_counter())

    def _expired(self) -> bool:
        return self._deadline is not None and time.perf_counter() >= self._deadline

    def _member(self, A: np.ndarray, y: np.ndarray, P: np.ndarray, seed: int,
                start: list[Clause], budget: float, pricer: Any, progress: Any = None,
                ) -> tuple[list[Clause], dict[str, Any], Any]:
        """One member's column generation and master IP: (clauses, info, result)."""
        tl = None
        rem = self._remaining()
        if rem is not None:  # a fair share of what is left for the members still planned
            tl = rem / max(1, self._members_left)
        self._members_left = max(0, self._members_left - 1)
        own_ip = self._node_bounded_ip(y, budget)
        t_cg = time.perf_counter()
        problem = RuleSetProblem(
            A, y, P, complexity=budget, lambda0=self.est.lambda0_, lambda1=self.est.lambda1_,
            max_degree=self.est.max_degree_, max_rules=self.est._member_setting("max_rules"),
            max_literals=self.est._member_setting("max_literals"),
            literal_costs=self.est._literal_costs(), required=self.est._required_groups() or (),
            conflicts=self.est._conflicts)
        options = ColumnGenerationOptions(
            pricing=self.est._member_setting("pricing"),
            exact_method=self.est._member_setting("exact_method"),
            beam_width=int(self.est._member_setting("beam_width")),
            n_columns=int(self.est._member_setting("n_columns")),
            max_iter=int(self.est._member_setting("max_iter")), time_limit=tl,
            tol=float(self.est._member_setting("tol")),
            pricing_time_limit=self.est._member_setting("pricing_time_limit"),
            backend=self.est._member_setting("backend"),
            # own_ip: column generation stops at its incumbent (any gap is "within"), and
            # the node-bounded master IP below decides the member
            mip_gap=1.0 if own_ip else float(self.est._member_setting("mip_gap")),
            solver=self.est._solver(), random_seed=seed, master_ip="auto", skip_ip=True)
        res = solve_column_generation(problem, options, initial_clauses=start,
                                      progress=progress, pricer=pricer)
        if own_ip:
            # the IP's seconds as column generation gives them: what is left of the
            # member's share (with a floor of MIN_IP_SECONDS)
            ip_tl = None if tl is None else max(tl - (time.perf_counter() - t_cg), MIN_IP_SECONDS)
            res = self._member_ip(A, y, P, res, budget, seed, ip_tl)
        info = {"cg_iterations": len(res.history), "lp_objective": res.lp_objective,
                "converged": res.converged, "gap": res.gap, "absolute_gap": res.absolute_gap,
                "gap_certified": res.certified, "lp_bound": res.lp_bound,
                "ip_objective": res.ip_objective, "status": res.status, "fit_time": res.fit_time,
                "cg_time": res.info.get("cg_time"), "ip_time": res.info.get("ip_time"),
                "ip_columns": res.info.get("ip_columns"), "pool_size": len(res.pool)}
        return res.clauses, info, res

    def _node_bounded_ip(self, y: np.ndarray, budget: float) -> bool:
        """Whether a member's master IP goes through :meth:`_member_ip` (a node bound is set,
        the MILP solver takes a highspy model (HiGHS), and column generation would have used the MILP route:
        a budget of at least 8 and fewer label-1 rows than ``BRANCH_AND_BOUND_ROWS``)."""
        from ...models import options
        from ...solvers import capable

        limited = (self.est._member_setting("max_rules"), self.est._member_setting("max_literals")) \
            != (None, None)  # the member's limit rows: the MILP of column generation
        return (self.est.member_ip_max_nodes is not None and capable(self.est._milp_solver(), "milp", "highspy")
                and budget >= 8 and int(np.count_nonzero(y)) < options.BRANCH_AND_BOUND_ROWS
                and not limited)

    def _member_ip(self, A: np.ndarray, y: np.ndarray, P: np.ndarray, res: Any,
                   budget: float, seed: int, time_limit: float | None = None) -> Any:
        """The member's master IP (eqs 6-8 over the pool column generation ended with) by
        HiGHS within ``member_ip_max_nodes`` branch-and-bound nodes and ``mip_gap`` (and
        ``time_limit`` seconds, when given).

        ``res`` is column generation's result with its incumbent (local search, or the
        restricted LP rounded) as the rule set.  Columns whose LP reduced cost puts every
        IP solution using them above the incumbent are dropped first (reduced-cost fixing,
        as column generation does); the member is the better of the IP's best rule set and
        the incumbent; the gap is against the certified LP bound over all clauses."""
        import dataclasses

        from ...models import HighsRuleMaster, complexity_costs, master_objective, row_prices

        t0 = time.perf_counter()
        l0, l1 = self.est.lambda0_, self.est.lambda1_
        pool = list(res.pool)
        incumbent = list(res.clauses)
        ub = master_objective(A, y, P, incumbent, l0, l1)
        z = float(res.lp_objective)
        duals = res.info.get("duals") or {}
        keep = pool
        if pool and "mu" in duals and math.isfinite(z):
            cov = clause_coverage(A, pool)
            rc = (row_prices(y, P, np.asarray(duals["mu"], dtype=float)) @ cov
                  + complexity_costs([len(c) for c in pool], float(duals.get("lam", 0.0)),
                                     l0, l1))
            keep = [c for c, r in zip(pool, rc) if z + max(float(r), 0.0) <= ub + 1e-12]
        chosen, status = incumbent, "incumbent (no column can improve it)"
        gap_rel = float(self.est._member_setting("mip_gap"))
        if keep and not ub - z <= gap_rel * ub:
            master = HighsRuleMaster(A, y.astype(int), pool, sample_weight=P,
                                     complexity=float(budget), lambda0=l0, lambda1=l1,
                                     options={"mip_max_nodes": int(self.est.member_ip_max_nodes)})
            try:
                ip = master.solve_ip(keep, mip_gap=gap_rel, random_seed=seed,
                                     time_limit=time_limit)
            except OptirulesError as exc:  # no IP solution within the node or time bound
                found = getattr(getattr(exc, "result", None), "status", None)
                why = str(getattr(found, "value", found) or "no solution")
                status = (f"{why} within member_ip_max_nodes={self.est.member_ip_max_nodes} "
                          "(no IP solution: the incumbent)")
            else:
                status = f"{ip.status} within member_ip_max_nodes={self.est.member_ip_max_nodes}"
                if master_objective(A, y, P, ip.selected, l0, l1) <= ub:
                    chosen = list(ip.selected)
                else:
                    status += "; the incumbent was better"
        elif keep:
            status = "incumbent within mip_gap of the LP bound"
        from ...models import prune_redundant

        chosen = prune_redundant(A, y, P, sorted(chosen), l0, l1)
        obj = master_objective(A, y, P, chosen, l0, l1)
        if res.certified:
            bound = min(float(res.lp_bound), obj)
            gap = 0.0 if obj <= 0 else max(0.0, (obj - bound) / obj)
            abs_gap = max(0.0, obj - bound)
        else:
            bound = gap = abs_gap = math.nan
        ip_time = time.perf_counter() - t0
        info = dict(res.info, ip_time=float(res.info.get("ip_time") or 0.0) + ip_time,
                    ip_columns=len(keep), ip_route="node-bounded MILP", ip_nodes=None)
        return dataclasses.replace(res, clauses=chosen, ip_objective=float(obj),
                                   ip_status=status, lp_bound=float(bound), gap=float(gap),
                                   absolute_gap=float(abs_gap),
                                   fit_time=res.fit_time + ip_time, info=info)

    @staticmethod
    def _cg_progress(bar: Any, budget: float, it: int) -> Any:
        """The ``progress`` callback of column generation: a DEBUG record and the bar's
        postfix at every iteration."""
        debug = _LOG.isEnabledFor(logging.DEBUG)
        if bar is None and not debug:
            return None

        def progress(record: dict[str, Any]) -> None:
            if debug:
                _LOG.debug("C'=%g member %d: CG iteration %d, LP %.6g, %d columns added, "
                           "pool %d, %.2f s", budget, it, record["iteration"],
                           record["lp_objective"], record["columns_added"],
                           record["pool_size"], record["time"])
            if bar is not None:
                bar.set_postfix(member=it, cg_iter=record["iteration"],
                                lp=f"{record['lp_objective']:.5f}", pool=record["pool_size"])

        return progress

    def _combine(self, preds: list[np.ndarray], members: list[list[Clause]], y: np.ndarray,
                 p: np.ndarray, it: int, kind: str,
                 cache: dict[tuple[int, ...], tuple] | None = None,
                 q: np.ndarray | None = None) -> dict[str, Any]:
        """Solve the sparse combination IP (eqs 11-14) over the distinct non-empty members.

        ``cache`` (the empirical pmf's IPs of one loop, keyed by the distinct members): a
        member that repeats an earlier one leaves the IP under :math:`P^0` unchanged, so its
        solution is reused instead of solving the same IP again."""
        from ...models import SparseCombinationModel

        n_members = len(members)
        first: dict[frozenset, int] = {}
        for k, c in enumerate(members):
            if c and frozenset(c) not in first:
                first[frozenset(c)] = k
        cols = sorted(first.values())
        costs = np.array([_cost(members[k]) for k in cols], dtype=float)
        weights = np.zeros(n_members)
        status = "no non-empty member"
        objective = gap = math.nan
        limit = None
        budget = float(self.est.complexity)
        hit = None if cache is None else cache.get(tuple(cols))
        if hit is not None:
            v, status, objective, gap, limit = hit
            weights[cols] = v
        elif len(cols) == 1 and costs[0] <= budget:
            weights[cols[0]] = 1.0  # one distinct member: sum v = 1 leaves no choice
            status = "single member"
        elif cols and costs.min() <= budget:
            H = np.column_stack([preds[k] for k in cols])
            # rows with the same member votes and label have identical constraints (12/13):
            # merging them (weights added) gives the same IP with far fewer rows
            first, w, _ = aggregate_rows(H, y, p)
            uniq = np.column_stack([H[first], y[first]]).astype(np.int8)
            model = SparseCombinationModel(uniq[:, :-1], uniq[:, -1].astype(int), costs,
                                           budget, margin=self.est.margin,
                                           sample_weight=w / w.sum())
            # the node bound (deterministic); seconds only from the fit's time_limit (what
            # is left of it, floor MIN_IP_SECONDS)
            tl, clock = None, None
            rem = self._remaining()
            if rem is not None:
                tl, clock = max(rem, MIN_IP_SECONDS), "time_limit"
            nodes = self.est.combination_max_nodes
            try:
                result = model.solve(self.est._milp_solver(), time_limit=tl,
                                     max_nodes=None if nodes is None else int(nodes))
            except InputError:
                raise
            except OptirulesError as exc:
                found = getattr(getattr(exc, "result", None), "status", None)
                limit = self._combination_limit(found, clock)
                if limit is None:
                    raise SolverError(
                        f"the combination IP (the DRO paper eqs 11-14) at iteration {it} was "
                        f"not solved ({exc}); try another solver.") from None
                # a bound stopped the IP before any incumbent: the best affordable member
                result = None
                ok = np.flatnonzero(costs <= budget)
                errs = [float(w @ (uniq[:, j] != uniq[:, -1])) for j in ok]
                weights[cols[int(ok[int(np.argmin(errs))])]] = 1.0
                status = (f"no IP solution within {self._limit_text(limit)}; best single "
                          "member")
            if result is not None:
                weights[cols] = model.v_
                objective = float(model.objective_)
                gap = float(result.gap) if math.isfinite(result.gap) else math.nan
                limit = self._combination_limit(result.status, clock)
                status = str(getattr(result.status, "value", result.status))
                if limit is not None:
                    status = (f"{self._limit_text(limit)} reached: best incumbent, gap "
                              f"{gap:.4g}")
                if cache is not None:
                    cache[tuple(cols)] = (weights[cols].copy(), status, objective, gap, limit)
        elif n_members:
            weights[0] = 1.0  # every member is empty: the empty rule set (always negative)
        F = np.zeros(len(y))
        for k in np.flatnonzero(weights):
            F += weights[k] * preds[k]
        z = margin_loss(F, y)
        r, _ = _robust(z, float(self.est.rho), self.est.divergence, q)
        return {"iteration": it, "pmf": kind, "weights": weights,
                "cost": int(sum(_cost(members[k]) for k in np.flatnonzero(weights))),
                "robust_loss": r,
                "train_accuracy": _share((F >= VOTE_CUT) == y, np.full(len(y), 1.0 / len(y))
                                         if q is None else q),
                "objective": objective, "status": status, "gap": gap, "limit": limit}

    def _combination_limit(self, status: Any, clock: str | None) -> str | None:
        """The parameter whose bound stopped a combination IP with solve ``status``
        (``combination_max_nodes``, or ``clock``: the fit's ``time_limit``; None without a
        wall-clock limit), or None."""
        from ...solvers import Status

        if status is Status.ITERATION_LIMIT and self.est.combination_max_nodes is not None:
            return "combination_max_nodes"
        if status in (Status.TIME_LIMIT, Status.INTERRUPTED) and clock is not None:
            return clock
        return None

    def _limit_text(self, limit: str) -> str:
        """How a combination IP's status names the bound ``limit``."""
        if limit == "combination_max_nodes":
            return f"the node limit combination_max_nodes={self.est.combination_max_nodes}"
        return (f"the wall-clock limit {limit}={getattr(self.est, limit)} s (the result depends "
                "on the machine's speed)")

    def _combination_summary(self, candidates: list[dict[str, Any]],
                             chosen: dict[str, Any]) -> str:
        """``"; combination IPs: ..."`` for ``status_`` when a bound stopped combination IPs
        of ``candidates`` (every loop of the fit), else ``""``."""
        parts = []
        for limit in ("combination_max_nodes", "time_limit"):
            hit = [c for c in candidates if c.get("limit") == limit]
            if not hit:
                continue
            none = sum(str(c.get("status", "")).startswith("no IP solution") for c in hit)
            gaps = [c["gap"] for c in hit if c.get("gap") is not None
                    and math.isfinite(c["gap"])]
            found = []
            if len(hit) > none:
                found.append(f"{len(hit) - none} best incumbents"
                             + (f", largest gap {max(gaps):.4g}" if gaps else ""))
            if none:
                found.append(f"{none} without an IP solution: the best single member")
            parts.append(f"{self._limit_text(limit)} stopped the IPs of {len(hit)} of "
                         f"{len(candidates)} candidates ({'; '.join(found)})")
        if not parts:
            return ""
        mine = chosen.get("limit")
        gap = chosen.get("gap")
        gap_text = "" if gap is None or not math.isfinite(gap) else f", gap {gap:.4g}"
        own = ("no bound stopped the returned candidate's IP" if mine is None
               else f"the returned candidate's IP was stopped by {mine}{gap_text}")
        return "; combination IPs: " + "; ".join(parts) + "; " + own
