"""The fitted attributes of :class:`~optirules.learners.DRORuleEnsembleClassifier` from the
loop whose candidate it returns, and the calibration of its vote levels (``predict_proba``)
on the training rows."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...models import clause_coverage
from .._json import json_scalar
from .._rules import RuleSet
from ._loop import LoopRun
from ._math import _cost, _monotone_scores, _share

__all__ = ["set_vote_scores", "store_run"]


def store_run(est: Any, run: LoopRun, chosen: int) -> None:
    """The fitted attributes of the loop ``run`` whose candidate ``chosen`` is returned:
    the members (typed rules and clause indices), the candidates with their weights over
    every member, the histories, and the cycle facts of the binary loss."""
    pos, neg = json_scalar(est.classes_[1]), json_scalar(est.classes_[0])
    est._train = (run.A, run.y, run.pools)
    est._train_pmf = run.q
    est.member_clauses_ = [[tuple(int(j) for j in c) for c in m] for m in run.members]
    est.members_ = [RuleSet.from_clauses(m, est.literals_, pos, neg)
                     for m in est.member_clauses_]
    est.member_costs_ = np.array([_cost(m) for m in run.members], dtype=float)
    n_members = len(run.members)
    for c in run.candidates:  # weights over all members (later ones get 0)
        w = np.zeros(n_members)
        w[: len(c["weights"])] = c["weights"]
        c["weights"] = w
    est.candidates_ = run.candidates
    est.selected_ = int(chosen)
    est.weights_ = np.asarray(est.candidates_[chosen]["weights"], dtype=float)
    est.complexity_ = int(est.candidates_[chosen]["cost"])
    est.pmf_history_ = run.pmfs
    est.robust_loss_history_ = run.robust
    est.divergence_history_ = run.divergences
    est.member_results_ = [dict(i) for i in run.infos]
    est.n_estimators_ = len(run.members)
    est.n_iter_ = np.array([int(i["cg_iterations"]) for i in run.infos], dtype=int)
    if est.loss == "binary":
        cyc = run.cycle
        est.cycle_detected_ = cyc is not None
        est.cycle_start_ = None if cyc is None else cyc[0]
        est.cycle_length_ = None if cyc is None else cyc[1]

def set_vote_scores(est: Any, A: np.ndarray, y: np.ndarray, q: np.ndarray) -> None:
    """``class_prior_`` and the vote levels of the training rows with their counts,
    positives and scores (:meth:`predict_proba`), under the empirical pmf ``q``."""
    F = np.zeros(A.shape[0])
    for k in np.flatnonzero(est.weights_):
        cl = est.member_clauses_[k]
        if cl:
            F += est.weights_[k] * clause_coverage(A, cl).any(axis=1)
    # sums of the same weights in another order differ by round-off: one level
    levels, group = np.unique(np.round(np.clip(F, 0.0, 1.0), 12), return_inverse=True)
    # the empirical pmf P0: a row counts as total * P0_i rows (its sample weight; 1
    # without weights, total = the row count)
    total = float(getattr(est, "_total_weight", len(y)))
    support = total * np.bincount(group, weights=q, minlength=len(levels))
    positives = total * np.bincount(group, weights=q * y, minlength=len(levels))
    est.class_prior_ = _share(y, q)
    est.vote_levels_ = levels
    est.vote_level_support_ = support
    est.vote_level_positives_ = positives
    est.vote_level_scores_ = _monotone_scores(positives, support, est.class_prior_)
