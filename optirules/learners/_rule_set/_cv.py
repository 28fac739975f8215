r"""The penalty of a Boolean rule set chosen by cross-validation.

The DRO paper (§1) recalls that Dash, Günlük and Wei (2018) choose the complexity of a rule set
by cross-validation, "at the expense of a large computational cost"; the distributionally
robust ensemble of that seed is its alternative.  :class:`BooleanRuleSetCV` is the
cross-validated rule set, for comparison and for data where the default penalty of
:class:`~optirules.learners.BooleanRuleSetClassifier` (``lambda0 = lambda1 = "auto"``,
:math:`0.1/\sqrt{n}` for ``n`` training rows) over- or under-fits.

Why this matters for an *exact* learner: the master objective of the rule set is the
weighted error plus :math:`\lambda_0` per rule and :math:`\lambda_1` per literal.  With the
uniform pmf one training row weighs :math:`1/N`; with AIX360's BRCG default
:math:`\lambda_0 = \lambda_1 = 0.001` a two-literal rule covering a single positive row and
no negative one costs 0.003 and removes an error worth :math:`1/N`, so for :math:`N < 333`
the optimum adds such single-row rules.  A heuristic master (AIX360's BRCG ends with a beam
search over its columns) misses many of them; the exact IP finds them and overfits small
data sets.  The default grid is therefore relative to the number of rows
(``penalties="auto"``); ``benchmarks/results/suite.md`` compares the two learners on the
bundled data sets.
"""

from __future__ import annotations

import math
import numbers
import os
import time
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils import indexable
from sklearn.utils._param_validation import StrOptions

from ..._workers import parallel
from ...errors import InputError
from .._checks import (
    CLASS_WEIGHT,
    CV,
    N_JOBS,
    RANDOM_STATE,
    SCORING,
    TIME_LIMIT,
    VERBOSE,
    Collection,
    Number,
    check_binary_targets,
    class_sample_weight,
    input_names,
    n_rows,
    normalized_weights,
    progress_logger,
    validate_params,
)
from .._cv import RefitDelegation, cv_scorer, cv_splits
from .._multiclass import multiclass_labels
from .._rule_model import RuleModelMixin
from .._rules_table import cv_table
from ._cv_fits import _fit_and_score, _path_and_scores
from ._estimator import BooleanRuleSetClassifier, auto_penalty

__all__ = ["BooleanRuleSetCV", "AUTO_PENALTY_FACTORS"]

#: penalties="auto": lambda0 = lambda1 = f * 0.1 / sqrt(n) for each factor f (1 is the rule
#: set's own "auto" penalty), for n training rows
AUTO_PENALTY_FACTORS = (0.7, 1.0, 1.4, 2.0, 2.8)
SELECTIONS = ("best", "one_se", "prefer_default")
_JSON_FORMAT = "optirules.BooleanRuleSetCV"


def _read_estimator(field: Any) -> BooleanRuleSetClassifier | None:
    """The ``estimator`` parameter of a saved search: null, or a saved
    BooleanRuleSetClassifier (class name and parameters, which it must take)."""
    from .._json import restore_params

    if field.is_null():
        return None
    field.object()
    if field["__estimator__"].string() != "BooleanRuleSetClassifier":
        raise field["__estimator__"].damaged("must be 'BooleanRuleSetClassifier'")
    params = field["params"].object()
    known = BooleanRuleSetClassifier().get_params(deep=False)
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise field["params"].damaged(f"BooleanRuleSetClassifier has no parameter "
                                      f"{unknown[0]!r}")
    return BooleanRuleSetClassifier(**restore_params(params))


def _penalty_pairs(penalties: Any, n: float) -> list[tuple[float, float]]:
    """``penalties`` as a list of (lambda0, lambda1) pairs, validated; ``"auto"`` for ``n``
    training rows."""
    if isinstance(penalties, str) and penalties == "auto":
        return [(f * auto_penalty(n), f * auto_penalty(n)) for f in AUTO_PENALTY_FACTORS]
    # another string, or no sequence, is refused by validate_params
    try:
        items = list(penalties)
    except TypeError:
        items = None
    if not items:
        raise InputError(f"penalties must be a non-empty sequence of numbers p (lambda0 = "
                         f"lambda1 = p) or of (lambda0, lambda1) pairs, got {penalties!r}.")
    pairs = []
    for item in items:
        pair = (item, item) if np.ndim(item) == 0 else tuple(item)
        ok = len(pair) == 2
        try:
            pair = (float(pair[0]), float(pair[1])) if ok else pair
        except (TypeError, ValueError):
            ok = False
        if not ok or not all(math.isfinite(v) and v >= 0 for v in pair):
            raise InputError(f"penalty {item!r} is not a non-negative number or a pair "
                             "(lambda0, lambda1) of them.")
        pairs.append(pair)
    if len(set(pairs)) != len(pairs):
        raise InputError(f"penalties {penalties!r} repeats a value; give each once.")
    return pairs


class BooleanRuleSetCV(RefitDelegation, RuleModelMixin, ClassifierMixin, BaseEstimator):
    """A :class:`BooleanRuleSetClassifier` whose penalty is chosen by cross-validation.

    For each penalty of the grid, the rule set is fitted on the training part of every
    fold (stratified ``cv``-fold) and scored on the held-out part; the chosen penalty is
    then refitted on all the data (``best_estimator_``), and prediction, ``rules_``,
    ``str``, :meth:`~optirules.learners.BooleanRuleSetClassifier.explain` and :meth:`export_model` are those of the refitted rule set;
    :meth:`to_json` saves the search (its results and the refitted rule set, nested).

    Parameters
    ----------
    estimator : BooleanRuleSetClassifier or None, default None
        The rule set whose ``lambda0`` and ``lambda1`` are tuned (its other parameters,
        e.g. ``binarizer``, ``max_degree`` or a ``complexity`` budget, are kept).
        ``None``: ``BooleanRuleSetClassifier(binarizer="auto")``.
    penalties : "auto" or sequence, default "auto"
        The grid: a number ``p`` means ``lambda0 = lambda1 = p``; a pair means
        ``(lambda0, lambda1)``.  ``"auto"``: ``f`` times the rule set's ``"auto"``
        penalty :math:`0.1 / \\sqrt{n}` for the ``n`` rows given to :meth:`fit` (the sum of
        ``sample_weight``), for each factor ``f`` of ``AUTO_PENALTY_FACTORS``
        (0.7, 1, 1.4, 2, 2.8); the values are in ``cv_results_``.
    cv : int, cross-validation splitter or iterable, default 5
        Number of stratified folds (shuffled with ``random_state`` when it is given), any
        scikit-learn splitter, or an iterable (a list or a generator) of ``(train, test)``
        index arrays, as scikit-learn's ``cross_validate`` takes.  With fewer rows of a
        class than int folds, the number of folds drops to that count (with a warning).
    scoring : None, str or callable, default None
        ``None``: accuracy, weighted by ``sample_weight`` when given; else any
        scikit-learn scorer name or callable ``scorer(estimator, X, y)``.
    selection : {"prefer_default", "best", "one_se"}, default "prefer_default"
        ``"best"``: the penalty of highest mean score, ties going to the larger penalty
        (the simpler rule set); ``"one_se"``: the largest penalty whose mean score is
        within one standard error of the best mean (the one-standard-error rule);
        ``"prefer_default"``: the estimator's own penalty (``"auto"`` resolved, when the
        grid holds it) unless the best mean exceeds its mean by more than the best's
        standard error, else the best (a one-standard-error rule anchored at the default
        rather than at the simplest rule set; without the own penalty in the grid, the
        best).  Penalties are ordered by ``lambda0 + lambda1``.  The default departs from
        the grid search of Dash, Günlük and Wei (``"best"``): over the bundled data sets the
        best mean held-out score chose penalties less accurate than the default's on the
        outer folds, and ``"prefer_default"`` was the one rule at least as accurate
        (``benchmarks/rule_set_cv_path.py``, results in
        ``benchmarks/results/rule_set_cv_path.md``).
    time_limit : float or None, default None
        Wall-clock seconds for the whole search: the fold fits share ``k/(k+1)`` of it
        (largest penalties first, each fit limited to what is left, and to the rule set's
        own ``time_limit`` if smaller) and the refit on all rows gets the rest (with
        nothing left, one column-generation iteration and its incumbent; the result
        depends on the machine's speed).  Fold fits the limit leaves
        out are skipped; the penalty is then chosen among those scored on every fold, or,
        when none was, by the mean over the folds done (the largest penalty when no fold
        finished); ``status_`` says which.
    n_jobs : int or None, default None
        Folds fitted in parallel (joblib), one penalty after the other; results do not
        depend on it (each fold's path runs in the same order either way).
    reuse_pool : bool, default True
        One column generation per fold for the whole grid
        (:meth:`BooleanRuleSetClassifier.penalty_path`, largest penalty first): the fold's
        literals are built once, and the restricted master, its pool and the pricer go on
        from one penalty to the next, each point certified on its own (its gap in
        ``all_certified``).  With ``n_iter_no_change`` (or more than two classes) the
        penalties are fitted one after the other instead, each fold warm-started from its
        previous fit's clauses.  A larger pool can only lower the master IP's optimum; a
        rule set can differ from a cold fit's only where the IP has ties or the smaller
        pool missed the optimum.  ``False``: every fit starts from an empty pool, the plain
        grid search of Dash, Günlük and Wei.  The refit on all rows always starts empty.
    n_iter_no_change : int or None, default None
        Early stopping of the penalty path: stop after this many penalties in a row (from
        the largest down) without a higher mean validation score; the penalties not
        reached are left out (``complete`` False) and ``status_`` says so.  ``None`` (the
        default) scores the whole grid, the grid search of Dash, Günlük and Wei: stopping
        early saves fits but can miss the best penalty, and the one data set on which it
        was tried (docs/user_guide/defaults.md) does not earn a default that skips them.
    solver : str, mapping or None, default None
        The solver of every fit (``BooleanRuleSetClassifier``'s ``solver``); ``None`` keeps
        the estimator's own (``"highs"`` by default).
    verbose : bool, default False
        One progress bar (tqdm) over folds x penalties with the time left, and progress
        messages through :mod:`logging` (logger ``optirules.learners.rule_set_cv``).
    random_state : int or None, default 0
        Shuffles the folds when ``cv`` is an int (the same folds on every run); ``None``
        keeps the row order, whose folds on a table sorted by some column (the MONK's files
        are) differ from each other more than random folds do and choose worse (the default
        changed from ``None`` on 2026-12-06: ``benchmarks/results/rule_set_cv_path.md``
        against the suite's ``rule_set_cv`` rows).
    class_weight : None, "balanced" or dict {label: weight}, default None
        Given to every fit (the rule set's ``class_weight``: it multiplies
        ``sample_weight``; ``"balanced"`` is computed on each fit's rows, as scikit-learn's
        grid search does); ``None`` keeps the estimator's own.  The scores stay unweighted
        by it.

    Attributes
    ----------
    best_estimator_ : BooleanRuleSetClassifier
        The rule set refitted on all the data with the chosen penalty.
    penalty_ : tuple of float
        The chosen ``(lambda0, lambda1)``.
    cv_results_ : dict of ndarray
        Per penalty (in the order of the grid): ``lambda0``, ``lambda1``,
        ``mean_score``, ``std_score``, ``split<k>_score``, ``mean_complexity`` (rules +
        literals), ``mean_fit_time``, ``all_certified`` (every fold's gap certified),
        ``complete`` (scored on every fold; ``False`` when ``time_limit`` cut it or early
        stopping did not reach it).
    status_ : str
        ``"complete"``, ``"stopped early (...)"`` or ``"time_limit (...)"`` with how many
        fold fits were done.
    best_index_ : int
        Position of the chosen penalty in the grid.
    n_splits_ : int
    classes_, n_features_in_, feature_names_in_ :
        As the refitted rule set's.
    rules_ : RuleSet
        The refitted rule set's rules (two classes; with more, ``best_estimator_`` is
        one-vs-rest and each of its ``estimators_`` has its own).
    cv_time_ : float
        Seconds spent in the cross-validation (the refit excluded).
    fit_time_ : float
        Seconds of the whole fit.
    """

    _table_builder = staticmethod(cv_table)

    _parameter_constraints: dict = {
        "estimator": [None, BooleanRuleSetClassifier],
        # the entries (numbers >= 0 or pairs of them, no repeats) are checked by _penalty_pairs
        "penalties": [StrOptions({"auto"}), Collection()],
        "cv": CV,
        "scoring": SCORING,
        "selection": [StrOptions(set(SELECTIONS))],
        "time_limit": TIME_LIMIT,
        "n_jobs": N_JOBS,
        "random_state": RANDOM_STATE,
        "reuse_pool": ["boolean"],
        "n_iter_no_change": [None, Number(numbers.Integral, 1, None, closed="left")],
        "verbose": VERBOSE,
        # support by the installed solvers: the base estimator's _check_params
        "solver": [None, str, Mapping],
        "class_weight": CLASS_WEIGHT,
    }

    def __init__(self, estimator: Any = None, *, penalties: Sequence[Any] | str = "auto",
                 cv: Any = 5, scoring: Any = None, selection: str = "prefer_default",
                 time_limit: float | None = None, n_jobs: int | None = None,
                 random_state: int | None = 0, reuse_pool: bool = True,
                 n_iter_no_change: int | None = None, verbose: bool = False,
                 solver: Any = None, class_weight: Any = None) -> None:
        self.class_weight = class_weight
        self.solver = solver
        self.reuse_pool = reuse_pool
        self.n_iter_no_change = n_iter_no_change
        self.verbose = verbose
        self.estimator = estimator
        self.penalties = penalties
        self.cv = cv
        self.scoring = scoring
        self.selection = selection
        self.time_limit = time_limit
        self.n_jobs = n_jobs
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        base = self._base_estimator()
        inner = base.__sklearn_tags__()
        tags.classifier_tags.multi_class = inner.classifier_tags.multi_class
        tags.input_tags.allow_nan = inner.input_tags.allow_nan
        tags.input_tags.string = inner.input_tags.string
        tags.input_tags.categorical = inner.input_tags.categorical
        return tags

    # ------------------------------------------------------------------ parameters
    def _base_estimator(self) -> BooleanRuleSetClassifier:
        if self.estimator is None:
            return BooleanRuleSetClassifier(binarizer="auto")
        if not isinstance(self.estimator, BooleanRuleSetClassifier):
            raise InputError(f"estimator must be a BooleanRuleSetClassifier (or None), got "
                             f"{type(self.estimator).__name__}.")
        return self.estimator

    def _time_limit(self) -> float | None:
        tl = self.time_limit  # None or a positive number (validate_params)
        return None if tl is None else float(tl)

    # ------------------------------------------------------------------ fit
    def fit(self, X: Any, y: Any, sample_weight: Any = None, *,
            sensitive_features: Any = None) -> BooleanRuleSetCV:
        """Cross-validate the penalty grid, then refit the chosen penalty on all rows.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels: two, or more (the rule set is then one-vs-rest, one rule set per
            class, and the penalty is chosen for all of them by the multiclass score).
        sample_weight : array-like of shape (n_samples,), optional
            Passed to every fit (the pmf of the rule set) and weights the scores.
        sensitive_features : array-like of shape (n_samples,) or (n_samples, k), optional
            The protected attribute of an ``estimator`` with ``fairness``: each fold's
            training rows go to its fit, all rows to the refit (the penalty is chosen by the
            score alone).

        Returns
        -------
        self
        """
        t_start = time.perf_counter()
        validate_params(self)
        X, y, w, n, base, pairs, scorer, splits = self._search_inputs(X, y, sample_weight)
        groups = base._check_fairness(X, y, sensitive_features)
        total = self._time_limit()
        # the folds get k/(k+1) of the limit, the refit on all rows the rest
        cv_deadline = (None if total is None
                       else time.time() + total * len(splits) / (len(splits) + 1))
        if self.solver is not None:
            base = clone(base).set_params(solver=self.solver)
            base._check_params()  # an unknown solver is refused before any fit
        candidates = [clone(base).set_params(lambda0=l0, lambda1=l1) for l0, l1 in pairs]
        log = progress_logger("learners.rule_set_cv", self.verbose)
        scores, comp, times, cert, stopped = self._penalty_path(
            X, y, w, splits, candidates, pairs, scorer, cv_deadline, log, groups)
        self.cv_time_ = time.perf_counter() - t_start
        self._set_cv_results(pairs, scores, comp, times, cert, stopped)
        self.penalty_ = pairs[self.best_index_]
        if log is not None:
            log.info("chosen penalty (%g, %g) (%s); refitting on all %d rows",
                     *self.penalty_, self.status_, n)
        best = clone(candidates[self.best_index_])
        if total is not None:
            # what is left, however little: the rule set then returns its first
            # iteration's incumbent rather than run past the call's limit
            left = max(total - (time.perf_counter() - t_start), 1e-3)
            own = best.time_limit
            best.set_params(time_limit=left if own is None else min(float(own), left))
        best.fit(X, y, sample_weight=sample_weight,
                 **({} if groups is None else {"sensitive_features": groups}))
        self.best_estimator_ = best
        self.classes_ = best.classes_
        self.n_features_in_ = best.n_features_in_
        if input_names(best) is not None:
            self.feature_names_in_ = best.feature_names_in_
        if len(best.classes_) == 2:  # two classes (with more, each of estimators_ has its own)
            self.rules_ = best.rules_
        self.fit_time_ = time.perf_counter() - t_start
        return self

    def _search_inputs(self, X: Any, y: Any, sample_weight: Any) -> tuple:
        """``fit``'s inputs checked, in the order ``fit`` refuses them: ``(X, y, w, n, base,
        pairs, scorer, splits)``, ``w`` the weights scaled to sum ``n`` (or None), ``base``
        the rule set with this search's ``class_weight``, ``pairs`` the penalty grid."""
        base = self._base_estimator()
        n = n_rows(X)
        if n == 0:
            raise InputError("X has no rows; pass at least one example of each class.")
        if multiclass_labels(y) is None:  # more classes: the rule set is one-vs-rest itself
            check_binary_targets(y, n, "BooleanRuleSetCV")
        else:
            from sklearn.utils.validation import column_or_1d

            y = column_or_1d(y, warn=True)
        y = np.asarray(y).reshape(-1)
        w = None
        if sample_weight is not None:
            w = normalized_weights(sample_weight, n) * n
        # checked before any fit; the rule set's "auto" penalty counts rows as the sum of
        # its weights (sample_weight times the class weights)
        class_weight = self.class_weight
        if class_weight is not None:
            base = clone(base).set_params(class_weight=class_weight)
        fit_weight = class_sample_weight(base.class_weight, y, sample_weight)
        n_eff = float(n) if fit_weight is None else \
            float(np.sum(np.asarray(fit_weight, dtype=float)))
        pairs = _penalty_pairs(self.penalties, n_eff)
        # the rule set's own penalty ("auto" resolved), if the grid holds it
        own = base._penalties(n_eff)
        self._own_index = next((k for k, p in enumerate(pairs)
                                if np.allclose(p, own, rtol=1e-12, atol=0.0)), None)
        scorer = cv_scorer(self.scoring)
        X = indexable(X)[0]
        splits = cv_splits(self.cv, y, self.random_state)
        return X, y, w, n, base, pairs, scorer, splits

    def _penalty_path(self, X: Any, y: np.ndarray, w: np.ndarray | None, splits: list,
                      candidates: list, pairs: list, scorer: Any, cv_deadline: float | None,
                      log: Any, groups: np.ndarray | None = None) -> tuple:
        """Score every candidate on every fold, largest penalty first, each fold warm-started
        from its previous fit (``reuse_pool``), until the grid, the time limit or early
        stopping ends; ``(scores, complexities, fit times, certified, stopped)``, the arrays
        one row per penalty (NaN: not scored) and ``stopped`` the step of an early stop."""
        from joblib import delayed

        patience = self.n_iter_no_change
        reuse = bool(self.reuse_pool)
        if reuse and patience is None and multiclass_labels(y) is None:
            return self._fold_paths(X, y, w, splits, candidates[0], pairs, scorer,
                                    cv_deadline, log, groups)
        # larger penalties first: they fit fastest (so a time limit leaves whole penalties),
        # and each fold's pool grows along the path
        order = [int(c) for c in np.argsort([-(l0 + l1) for l0, l1 in pairs], kind="stable")]
        n_s = len(splits)
        scores = np.full((len(pairs), n_s), np.nan)
        comp = np.full_like(scores, np.nan)
        times = np.full_like(scores, np.nan)
        cert = np.ones(len(pairs), dtype=bool)
        state: list[Any] = [None] * n_s
        bar = None
        if self.verbose:
            from tqdm.auto import tqdm

            bar = tqdm(total=len(pairs) * n_s, desc="BooleanRuleSetCV", unit="fit")
        best_mean, since, stopped = -math.inf, 0, None
        try:
            with parallel(n_jobs=self.n_jobs, return_as="generator") as pool:
                for step, c in enumerate(order):
                    t_pen = time.perf_counter()
                    gen = pool(
                        delayed(_fit_and_score)(candidates[c], X, y, w, *splits[s], scorer,
                                                cv_deadline, state[s] if reuse else None,
                                                groups)
                        for s in range(n_s))
                    for s, rec in enumerate(gen):
                        if bar is not None:
                            bar.update(1)
                        if rec is None:  # the time limit came first
                            cert[c] = False
                            continue
                        scores[c, s] = rec["score"]
                        comp[c, s] = rec["complexity"]
                        times[c, s] = rec["fit_time"]
                        cert[c] &= rec["certified"]
                        state[s] = rec["state"]
                    done = not np.isnan(scores[c]).any()
                    mean = float(np.mean(scores[c])) if done else math.nan
                    if log is not None:
                        log.info("penalty (%g, %g): mean score %.4f over %d folds (%.1f s)",
                                 *pairs[c], mean, n_s, time.perf_counter() - t_pen)
                    if patience is None or not done:
                        continue
                    if mean > best_mean + 1e-12:
                        best_mean, since = mean, 0
                    else:
                        since += 1
                    if since >= patience and step + 1 < len(order):
                        stopped = step
                        cert[order[step + 1:]] = False
                        if log is not None:
                            log.info("stopped early: %d penalties without a better mean "
                                     "score; %d penalties not scored", since,
                                     len(order) - step - 1)
                        break
        finally:
            if bar is not None:
                bar.close()
        return scores, comp, times, cert, stopped

    def _fold_paths(self, X: Any, y: np.ndarray, w: np.ndarray | None, splits: list,
                    base: Any, pairs: list, scorer: Any, cv_deadline: float | None,
                    log: Any, groups: np.ndarray | None = None) -> tuple:
        """:meth:`_penalty_path` by one column generation per fold for the whole grid
        (``penalty_path``, largest penalty first), the folds in parallel with ``n_jobs``."""
        from joblib import delayed

        order = [int(c) for c in np.argsort([-(l0 + l1) for l0, l1 in pairs], kind="stable")]
        path = [pairs[c] for c in order]
        n_s = len(splits)
        scores = np.full((len(pairs), n_s), np.nan)
        comp = np.full_like(scores, np.nan)
        times = np.full_like(scores, np.nan)
        cert = np.ones(len(pairs), dtype=bool)
        bar = None
        if self.verbose:
            from tqdm.auto import tqdm

            bar = tqdm(total=n_s, desc="BooleanRuleSetCV", unit="fold")
        try:
            with parallel(n_jobs=self.n_jobs, return_as="generator") as pool:
                gen = pool(delayed(_path_and_scores)(base, X, y, w, *splits[s], scorer, path,
                                                     cv_deadline, groups)
                           for s in range(n_s))
                for s, recs in enumerate(gen):
                    if bar is not None:
                        bar.update(1)
                    if recs is None:  # the time limit came first
                        cert[:] = False
                        continue
                    for c, rec in zip(order, recs):
                        scores[c, s] = rec["score"]
                        comp[c, s] = rec["complexity"]
                        times[c, s] = rec["fit_time"]
                        cert[c] &= rec["certified"]
                    if log is not None:
                        log.info("fold %d: the path of %d penalties scored", s + 1, len(path))
        finally:
            if bar is not None:
                bar.close()
        return scores, comp, times, cert, None

    def _set_cv_results(self, pairs: list, scores: np.ndarray, comp: np.ndarray,
                        times: np.ndarray, cert: np.ndarray, stopped: int | None) -> None:
        """``cv_results_``, ``n_splits_``, ``status_`` and ``best_index_`` from the scores of
        :meth:`_penalty_path`."""
        n_s = scores.shape[1]
        complete = ~np.isnan(scores).any(axis=1)
        n_done = int(np.sum(~np.isnan(scores)))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN rows of skipped fits
            results: dict[str, Any] = {
                "lambda0": np.array([p[0] for p in pairs]),
                "lambda1": np.array([p[1] for p in pairs]),
                "mean_score": np.where(complete, np.nanmean(scores, axis=1), np.nan),
                "std_score": np.where(complete, np.nanstd(scores, axis=1), np.nan),
            }
        for s in range(n_s):
            results[f"split{s}_score"] = scores[:, s].copy()
        results["mean_complexity"] = comp.mean(axis=1)
        results["mean_fit_time"] = times.mean(axis=1)
        results["all_certified"] = cert
        results["complete"] = complete
        self.cv_results_ = results
        self.n_splits_ = n_s
        if complete.any():
            if complete.all():
                self.status_ = "complete"
            elif stopped is not None and n_done == (stopped + 1) * n_s:
                self.status_ = (f"stopped early (n_iter_no_change={self.n_iter_no_change}: "
                                f"{stopped + 1} of {len(pairs)} penalties scored, the "
                                "penalty chosen among them)")
            else:
                self.status_ = (f"time_limit ({n_done} of {scores.size} fold fits done; "
                                "penalty chosen among those scored on every fold)")
            self.best_index_ = self._select(results)
        else:  # the limit came before any penalty had every fold: use the folds done
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                partial = np.nan_to_num(np.nanmean(scores, axis=1), nan=-np.inf)
            order = np.argsort([-(l0 + l1) for l0, l1 in pairs], kind="stable")
            self.best_index_ = int(order[np.argmax(partial[order])])
            self.status_ = (f"time_limit ({n_done} of {scores.size} fold fits done; no penalty "
                            "was scored on every fold, so the penalty is chosen by the mean "
                            "over the folds done, the largest penalty when none was)")

    def _select(self, results: dict[str, Any]) -> int:
        """Index of the chosen penalty (class docstring, ``selection``)."""
        mean = np.nan_to_num(results["mean_score"], nan=-np.inf)  # NaN: not on every fold
        size = results["lambda0"] + results["lambda1"]
        # larger penalty first, so that argmax breaks ties towards the simpler rule set
        order = np.argsort(-size, kind="stable")
        best = int(order[np.argmax(mean[order])])
        if self.selection == "best":
            return best
        se = results["std_score"][best] / math.sqrt(max(self.n_splits_ - 1, 1))
        if self.selection == "prefer_default":
            own = getattr(self, "_own_index", None)
            if own is None or mean[best] > mean[own] + se + 1e-12:
                return best
            return own
        ok = [int(i) for i in order if mean[i] >= mean[best] - se - 1e-12]
        return ok[0]

    # ------------------------------------------------------------------ delegation
    def decision_rules(self, X: Any) -> np.ndarray:
        """Boolean matrix ``(n_samples, n_rules)``: which rules fire on which rows.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the layout of the training data (same columns).

        Returns
        -------
        ndarray of bool, shape (n_samples, n_rules)
            Entry ``[i, r]`` is True when rule ``r`` of the refitted set covers row ``i``.
        """
        self._check_fitted()
        return self.best_estimator_.decision_rules(X)

    def decision_function(self, X: Any) -> np.ndarray:
        """The refitted rule set's :meth:`BooleanRuleSetClassifier.decision_function`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the layout of the training data (same columns).

        Returns
        -------
        ndarray of shape (n_samples,)
            The refitted rule set's score of each row.
        """
        self._check_fitted()
        return self.best_estimator_.decision_function(X)

    # ------------------------------------------------------------------ JSON
    # to_json and from_json of RuleModelMixin, in the class's own namespace so that
    # the API page (which leaves out inherited members) shows them
    to_json = RuleModelMixin.to_json
    from_json = RuleModelMixin.__dict__["from_json"]
    _json_format = _JSON_FORMAT
    _json_multiclass = True  # a search over a K-class rule set saves K classes

    def _json_fields(self) -> dict[str, Any]:
        """After the header (this search's own parameters, classes, columns): the chosen
        penalty (``penalty_``), ``best_index_``, ``status_``, ``n_splits_``, ``cv_time_``,
        ``fit_time_``, the ``cv_results_`` arrays (NaN written as null) and the refitted
        rule set as :meth:`BooleanRuleSetClassifier.to_json` writes it (``best_estimator``).
        :meth:`from_json` (or ``optirules predict``) rebuilds a fitted search whose
        predictions, probabilities, rules and ``rules_table`` are the original's.
        Parameters with no JSON form (a splitter ``cv``, a callable ``scoring``) are kept
        as their ``repr``."""
        import json

        best = json.loads(self.best_estimator_.to_json(indent=None))
        results = {}
        for key, values in self.cv_results_.items():
            arr = np.asarray(values)
            if arr.dtype == bool:
                results[key] = [bool(v) for v in arr]
            else:
                results[key] = [None if not math.isfinite(v) else float(v)
                                for v in arr.astype(float)]
        data = {
            "penalty": [float(v) for v in self.penalty_],
            "best_index": int(self.best_index_),
            "status": str(self.status_),
            "n_splits": int(self.n_splits_),
            "cv_time": float(getattr(self, "cv_time_", math.nan)),
            "fit_time": float(getattr(self, "fit_time_", math.nan)),
            "cv_results": results,
            "best_estimator": best,
        }
        for key in ("cv_time", "fit_time"):
            if not math.isfinite(data[key]):
                data[key] = None
        return data

    @classmethod
    def _json_params(cls, doc: Any) -> dict[str, Any]:
        """The saved parameters, the rule set of ``estimator`` rebuilt."""
        from .._json import restore_params

        params = restore_params(doc.value["params"])
        params["estimator"] = _read_estimator(doc["params"]["estimator"])
        return params

    def _load_json_fields(self, doc: Any) -> None:
        """The refitted rule set (read by :meth:`BooleanRuleSetClassifier.from_json`, its
        errors said to be in ``best_estimator``), checked against the search's columns and
        classes, then the penalty, ``cv_results_`` and the facts of the search."""
        import json

        sub = doc["best_estimator"]
        sub.object()
        try:
            best = BooleanRuleSetClassifier.from_json(json.dumps(sub.value))
        except InputError as exc:
            raise InputError(f"in 'best_estimator' (the refitted rule set): {exc}") from None
        if (best.n_features_in_ != self.n_features_in_
                or list(map(str, getattr(best, "feature_names_in_", []))) !=
                list(map(str, getattr(self, "feature_names_in_", [])))
                or len(best.classes_) != len(self.classes_)
                or any(type(a) is not type(b) or a != b for a, b in zip(
                    best.classes_.tolist(), self.classes_.tolist()))):
            raise sub.damaged("must read the search's columns and predict its classes "
                              "('classes', 'n_features_in', 'feature_names_in')")
        res = doc["cv_results"]
        res.object()
        n = len(res["lambda0"].items(min_length=1))
        results: dict[str, Any] = {}
        for key in ("lambda0", "lambda1"):
            results[key] = res[key].reals(n, lo=0.0)
        for key in ("mean_score", "std_score", "mean_complexity", "mean_fit_time"):
            results[key] = np.asarray([f.real(null=math.nan) for f in res[key].items(n)],
                                      dtype=float)
        n_splits = doc["n_splits"].count(lo=1)
        for s in range(n_splits):
            key = f"split{s}_score"
            results[key] = np.asarray([f.real(null=math.nan) for f in res[key].items(n)],
                                      dtype=float)
        for key in ("all_certified", "complete"):
            results[key] = np.asarray([f.boolean() for f in res[key].items(n)], dtype=bool)
        best_index = doc["best_index"].count(hi=n - 1)
        penalty = tuple(doc["penalty"].reals(2, lo=0.0).tolist())
        if penalty != (results["lambda0"][best_index], results["lambda1"][best_index]):
            raise doc["penalty"].damaged(
                f"must be the penalty of 'best_index' {best_index} in 'cv_results' "
                f"({results['lambda0'][best_index]:g}, {results['lambda1'][best_index]:g})")
        nan = math.nan
        self.cv_results_ = results
        self.n_splits_ = n_splits
        self.best_index_ = best_index
        self.penalty_ = penalty
        self.status_ = doc["status"].string()
        self.cv_time_ = doc["cv_time"].real(lo=0.0, null=nan, default=nan)
        self.fit_time_ = doc["fit_time"].real(lo=0.0, null=nan, default=nan)
        self.best_estimator_ = best
        self.classes_ = best.classes_
        if len(best.classes_) == 2:  # (with more, each of estimators_ has its own)
            self.rules_ = best.rules_

    def export_model(self, path: str | os.PathLike, **kwargs: Any) -> list[Any]:
        """The refitted rule set's master (see :meth:`BooleanRuleSetClassifier.export_model`).

        Parameters
        ----------
        path : str or path-like
            File name ending in ``.lp`` or ``.mps``.
        **kwargs
            The keyword arguments of :meth:`BooleanRuleSetClassifier.export_model`
            (``X``, ``y``, ``sample_weight``, ``iterations``, ``relax``).

        Returns
        -------
        list of pathlib.Path
            The files written.
        """
        self._check_fitted()
        return self.best_estimator_.export_model(path, **kwargs)

    def rules_table(self, X: Any = None, y: Any = None):
        """The ``rules_table`` of the refitted estimator (``best_estimator_``): one row per
        rule with its support, precision and recall (``optirules.learners._rules_table``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), optional
            Rows to count support, precision and recall on; ``None`` uses the training
            rows.
        y : array-like of shape (n_samples,), optional
            Their labels, given with ``X``.

        Returns
        -------
        pandas.DataFrame
            One row per rule.
        """
        return self._table_builder(self, X, y)


    # ------------------------------------------------------------------ text
    # (str and to_text: RuleModelMixin, to_text shown on the API page; explain: RefitDelegation's)
    to_text = RuleModelMixin.to_text
    _fitted_attribute = "best_estimator_"

    def _text(self) -> str:
        """``to_text``: the refitted rule set's text, then the penalty chosen."""
        l0, l1 = self.penalty_
        return (f"{self.best_estimator_.to_text()}\npenalty lambda0 = {l0:g}, lambda1 = {l1:g} chosen by "
                f"{self.n_splits_}-fold cross-validation (mean score "
                f"{self.cv_results_['mean_score'][self.best_index_]:.4f})")
