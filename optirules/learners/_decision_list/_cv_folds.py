"""The fold fits of :class:`~optirules.learners.DecisionListCV`, shared across its grid.

Each fold's training rows are checked and encoded once (the encoding depends on neither
``max_degree`` nor ``min_coverage``), its held-out rows encoded once with them, and, for
each depth, the lists of every ``min_coverage`` come from one search
(:func:`~optirules.learners._decision_list._shared.grid_lists`), which returns exactly the
lists the separate fits would find.  Each list is then set up as the
:class:`~optirules.learners.DecisionListClassifier` a fit with that pair gives and scored
on the held-out rows.  Where the shared search does not apply (``max_degree`` above 3,
weights of many distinct values, a pair table too large), the fold's lists are searched
one by one, on the same encoding.
"""

from __future__ import annotations

import copy
import time
from typing import Any

import numpy as np
from sklearn.base import clone

from ..._workers import parallel
from ._estimator import DecisionListClassifier
from ._shared import grid_lists

__all__ = ["score_grid", "refit"]


class _Fold:
    """One fold: the training part prepared by a list's fit (``est``: encoding, classes,
    weights; no list yet) and the held-out part encoded the same way."""

    def __init__(self, base: DecisionListClassifier, X: Any, y: np.ndarray,
                 w: np.ndarray | None, train: np.ndarray, test: np.ndarray, encode: bool):
        from sklearn.utils import _safe_indexing

        est = clone(base).set_params(verbose=False)  # the folds' fits stay quiet
        t0 = time.perf_counter()
        self.codes, self.y, self.weights = est._prepare_fit(
            _safe_indexing(X, train), y[train], None if w is None else w[train], t0)
        self.prepare_time = time.perf_counter() - t0
        self.est = est
        self.X_test = _safe_indexing(X, test)
        self.y_test = y[test]
        self.w_test = None if w is None else w[test]
        self.test_codes = None
        if encode:  # accuracy is scored from the codes, without reading X_test again
            cols, _, _ = est._validate(self.X_test, reset=False)
            self.test_codes = est._encode(cols)


def _score(est: DecisionListClassifier, fold: _Fold, scorer: Any) -> float:
    """The held-out score of a fitted list: accuracy (weighted by the fold's row weights)
    when ``scorer`` is None, else ``scorer(est, X, y[, sample_weight])``."""
    if scorer is None:
        counts = est._classify_codes(*fold.test_codes)[0]
        hit = est.classes_[np.argmax(counts, axis=1)] == fold.y_test
        return float(np.average(hit, weights=fold.w_test))
    if fold.w_test is None:
        return float(scorer(est, fold.X_test, fold.y_test))
    return float(scorer(est, fold.X_test, fold.y_test, sample_weight=fold.w_test))


def _depth_job(fold: _Fold, degree: int, coverages: list[int], scorer: Any,
               deadline: float | None) -> list[dict] | None:
    """Every coverage's list at ``degree`` on ``fold``, scored; ``None`` when
    ``deadline`` (a ``time.time()`` value) has passed before the start."""
    t0 = time.perf_counter()
    own = fold.est.time_limit
    limit = None if own is None else float(own)
    if deadline is not None:
        left = deadline - time.time()
        if left <= 0:
            return None
        limit = left if limit is None else min(limit, left)
    stop_at = None if limit is None else t0 + limit
    base = fold.est
    n_values = np.array([len(f.categories) for f in base.features_], dtype=np.int64)
    found = grid_lists(fold.codes, fold.y, base.classes_.size, n_values, degree, coverages,
                       base.max_rules, weights=fold.weights, deadline=stop_at)
    out = []
    scored: dict = {}  # the lists found, by their rules: equal lists score the same
    tests: dict = {}
    for i, c in enumerate(coverages):
        t1 = time.perf_counter()
        est = copy.copy(base)  # shares the fold's encoding; the pair set directly
        est.max_degree, est.min_coverage = degree, c
        est.min_coverage_ = int(c)
        est._deadline = stop_at
        est._build_list(fold.codes, fold.y, fold.weights, None if found is None else found[i],
                        tests)
        # a shared search's list took the seconds of its steps (those it shares included)
        seconds = (time.perf_counter() - t1) if found is None else \
            sum(step["seconds"] for step in found[i][0])
        est.fit_time_ = fold.prepare_time + seconds
        key = tuple(tuple((t.feature, t.value) for t in r.conditions) for r in est.rules_)
        if key not in scored:
            scored[key] = _score(est, fold, scorer)
        out.append({"score": scored[key], "n_rules": float(len(est.rules_)),
                    "fit_time": est.fit_time_, "cut": est.stop_reason_ == "time_limit"})
    return out


def score_grid(base: DecisionListClassifier, depths: list[int], coverages: list[int],
               X: Any, y: np.ndarray, w: np.ndarray | None, splits: list, scorer: Any,
               cv_deadline: float | None, n_jobs: Any) -> tuple[np.ndarray, ...]:
    """Every pair of ``depths`` x ``coverages`` fitted and scored on every fold.

    The depths are fitted from the smallest on, each on every fold before the next (what a
    time limit leaves), over ``n_jobs`` workers, one job per depth and fold.

    Returns
    -------
    scores, n_rules, fit_times : ndarray of shape (n_pairs, n_folds)
        Depth-major pairs (``depths[0]`` with every coverage, ...); NaN: not fitted before
        ``cv_deadline`` (a ``time.time()`` value).
    cut : ndarray of bool, shape (n_pairs,)
        Whether a fold's list of the pair was stopped by the time limit.
    """
    from joblib import delayed

    folds = [_Fold(base, X, y, w, tr, te, scorer is None) for tr, te in splits]
    jobs = [(d, s) for d in sorted(depths) for s in range(len(splits))]
    out = parallel(n_jobs=n_jobs)(
        delayed(_depth_job)(folds[s], d, coverages, scorer, cv_deadline) for d, s in jobs)
    n_pairs = len(depths) * len(coverages)
    scores = np.full((n_pairs, len(splits)), np.nan)
    n_rules = np.full_like(scores, np.nan)
    times = np.full_like(scores, np.nan)
    cut = np.zeros(n_pairs, dtype=bool)
    for (d, s), recs in zip(jobs, out):
        if recs is None:  # the time limit came first
            continue
        for i, rec in enumerate(recs):
            g = depths.index(d) * len(coverages) + i
            scores[g, s] = rec["score"]
            n_rules[g, s] = rec["n_rules"]
            times[g, s] = rec["fit_time"]
            cut[g] |= rec["cut"]
    return scores, n_rules, times, cut


def refit(est: DecisionListClassifier, X: Any, y: Any, sample_weight: Any = None
          ) -> DecisionListClassifier:
    """``est.fit(X, y, sample_weight)``, the list found by the shared search (one coverage)
    where it applies: the same list, rules and attributes (``history_`` and
    ``n_candidates_`` count what that search looked at)."""
    t0 = time.perf_counter()
    codes, y_enc, weights = est._prepare_fit(X, y, sample_weight, t0)
    n_values = np.array([len(f.categories) for f in est.features_], dtype=np.int64)
    found = grid_lists(codes, y_enc, est.classes_.size, n_values, int(est.max_degree),
                       [int(est.min_coverage_)], est.max_rules, weights=weights,
                       deadline=est._deadline)
    est._build_list(codes, y_enc, weights, None if found is None else found[0])
    est.fit_time_ = time.perf_counter() - t0
    return est
