"""The fold fits of :class:`~optirules.learners.BooleanRuleSetCV`: one penalty on one fold
(warm-started from the fold's previous fit), or one fold's whole penalty path from one
column generation, each scored on the fold's held-out rows."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from sklearn.base import clone

__all__ = ["_fit_and_score", "_path_and_scores"]


def _fit_and_score(estimator: Any, X: Any, y: np.ndarray, w: np.ndarray | None,
                   train: np.ndarray, test: np.ndarray, scorer: Any,
                   deadline: float | None = None, warm: Any = None,
                   groups: np.ndarray | None = None) -> dict[str, Any] | None:
    """Fit on ``train`` and score on ``test``; ``None`` when ``deadline`` (a
    ``time.time()`` value, shared by the worker processes) has passed before the fit.
    ``warm``: the ``(literals_, pool_)`` of the fold's previous fit, to start from;
    ``groups``: the protected attribute of a fair rule set (its training rows go to fit)."""
    from sklearn.utils import _safe_indexing

    est = _limited(estimator, deadline)
    if est is None:
        return None
    if warm is not None:
        est.set_params(warm_start=True)
        est.literals_, est.pool_ = warm
    Xtr, Xte = _safe_indexing(X, train), _safe_indexing(X, test)
    t0 = time.perf_counter()
    est.fit(Xtr, y[train], sample_weight=None if w is None else w[train],
            **({} if groups is None else {"sensitive_features": groups[train]}))
    fit_time = time.perf_counter() - t0
    score = _score(est, scorer, Xte, y[test], None if w is None else w[test])
    parts = est.__dict__.get("estimators_") or [est]  # K > 2 classes: one rule set per class
    state = None if "estimators_" in est.__dict__ else (list(est.literals_), list(est.pool_))
    return {"score": score, "complexity": float(sum(e.rules_.complexity for e in parts)),
            "fit_time": fit_time, "certified": all(bool(e.gap_certified_) for e in parts),
            "state": state}


def _path_and_scores(estimator: Any, X: Any, y: np.ndarray, w: np.ndarray | None,
                     train: np.ndarray, test: np.ndarray, scorer: Any, pairs: list,
                     deadline: float | None = None,
                     groups: np.ndarray | None = None) -> list[dict[str, Any]] | None:
    """One fold's penalty path (``BooleanRuleSetClassifier.penalty_path``, the penalties in
    the order given) fitted on ``train`` and each point scored on ``test``; ``None`` when
    ``deadline`` has passed before the fit."""
    from sklearn.utils import _safe_indexing

    est = _limited(estimator, deadline)
    if est is None:
        return None
    Xtr, Xte = _safe_indexing(X, train), _safe_indexing(X, test)
    path = est.penalty_path(Xtr, y[train], pairs,
                            sample_weight=None if w is None else w[train],
                            sensitive_features=None if groups is None else groups[train])
    out = []
    for point in path:
        out.append({"score": _score(point, scorer, Xte, y[test],
                                    None if w is None else w[test]),
                    "complexity": float(point.rules_.complexity),
                    "fit_time": float(point.fit_time_),
                    "certified": bool(point.gap_certified_)})
    return out


def _limited(estimator: Any, deadline: float | None) -> Any:
    """A clone of ``estimator`` whose ``time_limit`` is what is left before ``deadline`` (a
    ``time.time()`` value; its own limit if smaller), or None when nothing is left."""
    est = clone(estimator)
    if deadline is not None:
        left = deadline - time.time()
        if left <= 0:
            return None
        own = est.time_limit
        est.set_params(time_limit=left if own is None else min(float(own), left))
    return est


def _score(est: Any, scorer: Any, X: Any, y: np.ndarray, w: np.ndarray | None) -> float:
    """The test score of a fitted rule set (accuracy, weighted by ``w``, without
    ``scorer``)."""
    if scorer is None:
        return float(np.average(est.predict(X) == y, weights=w))
    if w is None:
        return float(scorer(est, X, y))
    return float(scorer(est, X, y, sample_weight=w))
