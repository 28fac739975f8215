"""The DRO loop of :class:`~optirules.learners.DRORuleEnsembleClassifier` (the DRO paper §3,
steps 1-3 and the combination IPs after each) and the choice of the returned candidate
among the loops of every member budget (``selection``).

:class:`DROFit` holds one fit's state (the estimator whose parameters it reads, the deadline,
the members still planned, the history); a member and the combination IPs of an iteration
are the steps of :mod:`._steps`.
"""

from __future__ import annotations

import logging
import math
import re
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..._workers import parallel
from ...models import Clause, EnumerationPricer, clause_coverage
from .._scores import VOTE_CUT
from ._math import _cost, _divergence, _robust, _share, margin_loss
from ._steps import _DROSteps

_LOG = logging.getLogger("optirules.learners.dro_ensemble")


@dataclass
class _Loop:
    """The state of one DRO loop (:meth:`DROFit._run`): its rows and member budget,
    the current pmf :math:`P^n` and vote :math:`F_n`, and what it has grown so far."""

    A: np.ndarray
    y: np.ndarray
    budget: float
    n_iter: int
    seed: int
    P: np.ndarray
    P0: np.ndarray
    F: np.ndarray
    #: n_iter_no_change for this loop (None: no early stop)
    patience: int | None
    bar: Any = None
    pricer: Any = None
    members: list[list[Clause]] = field(default_factory=list)
    preds: list[np.ndarray] = field(default_factory=list)
    infos: list[dict[str, Any]] = field(default_factory=list)
    pmfs: list[np.ndarray] = field(default_factory=list)
    robust: list[float] = field(default_factory=list)
    candidates: list[dict[str, Any]] = field(default_factory=list)
    #: the previous member's whole pool and the support of its final restricted LP
    pool: list[Clause] = field(default_factory=list)
    support: list[Clause] = field(default_factory=list)
    pools: list[list[Clause]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    cycle: tuple[int, int] | None = None
    timed_out: bool = False
    #: n_iter_no_change: the best candidate's key so far, members since it, where it stopped
    best_key: tuple[float, int] | None = None
    since: int = 0
    stopped: int | None = None
    #: the empirical pmf's combination IPs, keyed by the distinct members
    empirical_ips: dict[tuple[int, ...], tuple] = field(default_factory=dict)


@dataclass(frozen=True)
class LoopRun:
    """What one DRO loop (:meth:`DROFit._run`) grew, for the selection and the fitted
    attributes: its rows ``A``, ``y`` and empirical pmf ``q``; per member the clause pool
    (``pools``), the clauses (``members``), the predictions (``preds``) and the column
    generation facts (``infos``); the pmfs :math:`P^0 .. P^n`, the robust losses and the
    divergences; the candidates (one dict per combination IP, as ``candidates_`` keeps
    them); the history records; the member budget, the seconds, the cycle of the binary
    loss (``(start, length)`` or None), whether the deadline ended it, and the member after
    which ``n_iter_no_change`` stopped it (or None)."""

    A: np.ndarray
    y: np.ndarray
    q: np.ndarray
    pools: list[list[Clause]]
    history: list[dict[str, Any]]
    fit_time: float
    budget: float
    members: list[list[Clause]]
    preds: list[np.ndarray]
    infos: list[dict[str, Any]]
    pmfs: np.ndarray
    robust: np.ndarray
    candidates: list[dict[str, Any]]
    cycle: tuple[int, int] | None
    divergences: np.ndarray
    timed_out: bool
    stopped_early: int | None


class DROFit(_DROSteps):
    """One fit's DRO loops (one per member budget), their iterations, and the selection of
    the returned candidate; made by ``DRORuleEnsembleClassifier.fit``, which keeps what it
    returns."""

    def _select_on_validation(self, A: np.ndarray, ypos: np.ndarray, n_iter: int, seed: int,
                              budgets: list[float], split: tuple, q: np.ndarray,
                              results: list[dict[str, Any]], every: list[dict[str, Any]],
                              ) -> tuple[float, LoopRun, int, bool, bool]:
        r"""``selection="validation"``: the loops on the inner split ``split = (tr, va, q_tr,
        q_va)``, the candidate of best held-out accuracy (ties: the smaller cost, the
        smaller :math:`\mathfrak{C}'`, the earlier iteration) and, with ``refit``, the loop
        rerun on all rows up to its iteration.  Appends to ``results`` (one per budget)
        and ``every`` (every candidate); returns (budget, run, chosen, timed_out,
        refitted)."""
        tr, va, q_tr, q_va = split
        refitted = False
        if self.est.refit:
            self._members_left += n_iter
        best = None
        runs = {}
        for bi, run in enumerate(self._loops(A[tr], ypos[tr], n_iter, seed,
                                             budgets, q_tr)):
            b = run.budget
            runs[b] = run
            every.extend(run.candidates)
            top = None
            for ci, c in enumerate(run.candidates):
                F = np.zeros(len(va))
                for k in np.flatnonzero(c["weights"]):
                    F += c["weights"][k] * clause_coverage(A[va], run.members[k]).any(
                        axis=1)
                acc = _share((F >= VOTE_CUT) == ypos[va], q_va)
                c["validation_accuracy"] = acc
                key = (-acc, c["cost"], bi, c["iteration"])
                if top is None or key < top[0]:
                    top = (key, ci)
            c = run.candidates[top[1]]
            results.append({"member_complexity": b, "score": c["validation_accuracy"],
                            "iteration": c["iteration"], "pmf": c["pmf"],
                            "n_estimators": len(run.members),
                            "stopped_early": run.stopped_early is not None,
                            "fit_time": run.fit_time})
            if best is None or top[0] < best[0]:
                best = (top[0], b, top[1])
        _, b, ci = best
        pick = runs[b].candidates[ci]
        self.est.validation_candidates_ = runs[b].candidates
        self.est.validation_choice_ = {"member_complexity": b, "iteration": pick["iteration"],
                                   "pmf": pick["pmf"]}
        timed_out = any(r.timed_out for r in runs.values())
        if self.est.refit and not timed_out:
            self._members_left = pick["iteration"]
            run = self._run(A, ypos, pick["iteration"], seed, b, early_stop=False,
                            q=q)
            self._history.extend(run.history)
            every.extend(run.candidates)
            timed_out = run.timed_out
            last = max(c["iteration"] for c in run.candidates)
            chosen = next(i for i, c in enumerate(run.candidates)
                          if c["iteration"] == last and c["pmf"] == pick["pmf"])
            refitted = True
        else:
            run, chosen = runs[b], ci
        run.candidates[chosen]["validation_selected"] = True
        return b, run, chosen, timed_out, refitted

    def _select_on_robust_loss(self, A: np.ndarray, ypos: np.ndarray, n_iter: int, seed: int,
                               budgets: list[float], q: np.ndarray,
                               results: list[dict[str, Any]], every: list[dict[str, Any]],
                               ) -> tuple[float, LoopRun, int, bool]:
        """``selection="robust_loss"`` or ``"last"``: the loops on all rows and, over every
        member budget, the candidate :meth:`_choose` picks of least robust loss (ties: the
        smaller cost, the earlier budget).  Appends to ``results`` and ``every``; returns
        (budget, run, chosen, timed_out)."""
        best = None
        for r in self._loops(A, ypos, n_iter, seed, budgets, q):
            b = r.budget
            every.extend(r.candidates)
            ci = self._choose(r.candidates)
            c = r.candidates[ci]
            results.append({"member_complexity": b, "score": c["robust_loss"],
                            "iteration": c["iteration"], "pmf": c["pmf"],
                            "n_estimators": len(r.members),
                            "stopped_early": r.stopped_early is not None,
                            "fit_time": r.fit_time})
            key = (round(c["robust_loss"], 12), c["cost"], len(results))
            if best is None or key < best[0]:
                best = (key, b, r, ci)
        _, budget, run, chosen = best
        timed_out = run.timed_out or any(
            res["n_estimators"] < n_iter and not res["stopped_early"] for res in results)
        return budget, run, chosen, timed_out

    def _choose(self, candidates: list[dict[str, Any]]) -> int:
        if self.est.selection == "last" or not candidates:
            last = len(candidates) - 1
            if self.est.loss == "margin" and last >= 1:
                return last - 1  # the worst-case pmf candidate of the last iteration
            return max(last, 0)
        keys = [(round(c["robust_loss"], 12), c["cost"], i) for i, c in enumerate(candidates)]
        return min(keys)[2]

    def _loops(self, A: np.ndarray, y: np.ndarray, n_iter: int, seed: int,
               budgets: list[float], q: np.ndarray | None = None) -> list[LoopRun]:
        """The DRO loop of each member budget (:meth:`_run`), in the order of ``budgets``:
        one after the other, stopping after a loop the deadline ended, or ``n_jobs`` at a
        time (joblib); each loop's ``history`` joins ``self._history`` in that order."""
        n_jobs = 1 if self.est.n_jobs is None else int(self.est.n_jobs)
        if n_jobs != 1 and len(budgets) > 1:
            from joblib import delayed

            runs = parallel(n_jobs=n_jobs)(
                delayed(self._run)(A, y, n_iter, seed, b, q=q) for b in budgets)
        else:
            runs = []
            for b in budgets:
                runs.append(self._run(A, y, n_iter, seed, b, q=q))
                if runs[-1].timed_out:
                    break
        for run in runs:
            self._history.extend(run.history)
        return runs

    def _run(self, A: np.ndarray, y: np.ndarray, n_iter: int, seed: int,
             budget: float, early_stop: bool = True,
             q: np.ndarray | None = None) -> LoopRun:
        """The DRO loop on (A, y) with member budget C' = ``budget``: members, pmfs, robust
        losses and candidates; stops after the member in progress when the deadline passes.
        ``q``: the empirical pmf :math:`P^0` of the rows (uniform when None)."""
        N = A.shape[0]
        P = np.full(N, 1.0 / N) if q is None else np.asarray(q, dtype=float).copy()
        patience = (None if self.est.n_iter_no_change is None or self.est.loss != "margin"
                    or self.est.selection == "last" or not early_stop
                    else int(self.est.n_iter_no_change))
        loop = _Loop(A=A, y=y, budget=budget, n_iter=n_iter, seed=seed, P=P, P0=P.copy(),
                     F=np.zeros(N), patience=patience)
        loop.pmfs.append(P.copy())
        if self.est.verbose:
            from tqdm.auto import tqdm

            loop.bar = tqdm(total=n_iter, desc=f"DRO rule ensemble, C'={budget:g}",
                            unit="member")
        # one exact pricer for the members of this loop: its float copy and complement
        # pairs are prepared once, and its sums carry over from member to member
        # (EnumerationPricer, incremental); each loop has its own, so a loop's members do
        # not depend on the loops run before it (or beside it, n_jobs)
        loop.pricer = (EnumerationPricer(A, conflicts=self.est._conflicts) if self.est._member_setting("pricing") != "beam"
                       and self.est.max_degree_ <= 3 else None)
        t_run = time.perf_counter()
        try:
            for it in range(1, n_iter + 1):
                if it > 1 and self._expired():
                    loop.timed_out = True
                    break
                self._grow(loop, it)
                if loop.stopped is not None:
                    break
        finally:
            if loop.bar is not None:
                loop.bar.close()
            if loop.pricer is not None:
                loop.pricer.close()
        divs = np.array([_divergence(p, loop.P0, self.est.divergence) for p in loop.pmfs])
        return LoopRun(A=A, y=y, q=loop.P0, pools=loop.pools, history=loop.history,
                       fit_time=time.perf_counter() - t_run, budget=float(budget),
                       members=loop.members, preds=loop.preds, infos=loop.infos,
                       pmfs=np.array(loop.pmfs), robust=np.array(loop.robust),
                       candidates=loop.candidates, cycle=loop.cycle, divergences=divs,
                       timed_out=loop.timed_out or self._expired(), stopped_early=loop.stopped)

    def _warm_start(self, loop: _Loop) -> list[Clause]:
        """The clauses the next member's column generation starts from
        (``member_warm_start``): the members' clauses so far (with the support of the
        previous member's final restricted LP), or the previous member's whole pool
        (:math:`P^n` changes the master's weights, not its columns).  Not for the binary
        loss, where :math:`h_{n+1}` must depend on :math:`P^n` alone for a repeat to prove a
        cycle."""
        if self.est.loss != "margin" or self.est.member_warm_start == "none":
            return []
        if self.est.member_warm_start == "members":
            return sorted({c for m in loop.members for c in m})
        if self.est.member_warm_start == "support":
            return sorted({c for m in loop.members for c in m} | set(loop.support))
        return loop.pool

    def _grow(self, loop: _Loop, it: int) -> None:
        """Iteration ``it`` of ``loop``: the member :math:`h_n` (eq 4), the vote
        :math:`F_n`, the worst-case pmf :math:`P^n` (eq 9) and the iteration's candidates;
        sets ``loop.stopped`` when ``n_iter_no_change`` ends the loop."""
        A, y, budget = loop.A, loop.y, loop.budget
        N = A.shape[0]
        start = self._warm_start(loop)
        tm = time.perf_counter()
        clauses, info, res = self._member(A, y, loop.P, loop.seed, start, budget, loop.pricer,
                                          self._cg_progress(loop.bar, budget, it))
        step = {"member_complexity": float(budget), "iteration": it, "rows": N,
                "member_time": time.perf_counter() - tm,
                "member_cg_time": info["cg_time"], "member_ip_time": info["ip_time"],
                "cg_iterations": info["cg_iterations"],
                "initial_pool": len(start), "pool_size": info["pool_size"]}
        loop.pool, loop.support = list(res.pool), list(res.info.get("lp_support", []))
        loop.pools.append(loop.pool)
        h = clause_coverage(A, clauses).any(axis=1) if clauses else np.zeros(N, bool)
        if self.est.loss == "binary":
            z = (h != y).astype(float)
            key = frozenset(clauses)
            if loop.cycle is None:
                for m, old in enumerate(loop.members):
                    if frozenset(old) == key:
                        loop.cycle = (m + 1, it - (m + 1))
                        break
        else:
            loop.F = ((it - 1) * loop.F + h) / it
            z = margin_loss(loop.F, y)
        loop.members.append(clauses)
        loop.preds.append(h)
        loop.infos.append(info)
        # a member cut short by its share of time_limit: the ensemble is too
        if self.est.time_limit is not None and re.search(r"(?<!\w)time_limit(?!\w)",
                                                     info["status"]):
            loop.timed_out = True
        tp = time.perf_counter()
        r, loop.P = _robust(z, float(self.est.rho), self.est.divergence, loop.P0)
        step["pmf_time"] = time.perf_counter() - tp
        loop.robust.append(r)
        loop.pmfs.append(loop.P.copy())
        step["combination_time"] = self._add_candidates(loop, it, clauses, h, r)
        step["robust_loss"] = r
        loop.history.append(step)
        if loop.patience is not None:  # n_iter_no_change: the best candidate so far
            best = min((round(c["robust_loss"], 12), c["cost"]) for c in loop.candidates[-2:])
            if loop.best_key is None or best < loop.best_key:
                loop.best_key, loop.since = best, 0
            else:
                loop.since += 1
        _LOG.info("C'=%g member %d/%d on %d rows: cost %d, %d CG iterations, pool %d "
                  "(started from %d), robust loss %.6f; %.2f s (CG %.2f, IP %.2f), "
                  "pmf %.3f s, combination %.2f s", budget, it, loop.n_iter, N,
                  _cost(clauses), step["cg_iterations"], step["pool_size"],
                  step["initial_pool"], r, step["member_time"], step["member_cg_time"],
                  step["member_ip_time"], step["pmf_time"], step["combination_time"])
        if loop.bar is not None:
            loop.bar.update(1)
            loop.bar.set_postfix(robust_loss=f"{r:.4f}")
        if loop.patience is not None and loop.since >= loop.patience and it < loop.n_iter:
            loop.stopped = it
            _LOG.info("C'=%g: stopped after member %d, the best candidate's robust "
                      "loss unchanged for %d members (n_iter_no_change)", budget, it,
                      loop.since)

    def _add_candidates(self, loop: _Loop, it: int, clauses: list[Clause], h: np.ndarray,
                        r: float) -> float:
        """Iteration ``it``'s candidates, appended to ``loop.candidates``: the combination
        IPs under :math:`P^n` and :math:`P^0` (margin loss), or the member alone (binary
        loss, robust loss ``r``); returns the combination IPs' seconds."""
        tc = time.perf_counter()
        if self.est.loss == "margin":
            for kind, p in (("worst_case", loop.P), ("empirical", loop.P0)):
                loop.candidates.append(self._combine(
                    loop.preds, loop.members, loop.y, p, it, kind,
                    loop.empirical_ips if kind == "empirical" else None, loop.P0))
            return time.perf_counter() - tc
        w = np.zeros(len(loop.members))
        w[-1] = 1.0
        loop.candidates.append({"iteration": it, "pmf": "binary", "weights": w,
                                "cost": _cost(clauses), "robust_loss": r / 1.0,
                                "train_accuracy": _share(h == loop.y, loop.P0),
                                "objective": r, "status": "single member",
                                "gap": math.nan, "limit": None})
        return 0.0
