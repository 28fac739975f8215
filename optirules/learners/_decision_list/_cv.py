"""The depth and the coverage of a BruteDL decision list chosen by cross-validation.

BruteDL (the decision-list learner of the Minimum OSR paper, with the Minimum OSR fallback) searches
every conjunction of at most ``max_degree`` tests, so the depth is the learner's capacity,
and ``min_coverage`` its brake: a list of deeper rules, or of rules allowed to cover few
rows, fits its training rows better and generalizes worse when the data do not support
it (splice in ``benchmarks/results/decision_list.md``), and a depth-3 search costs many
times a depth-2 one on data with many attributes.  The paper fixes the depth beforehand;
:class:`DecisionListCV` chooses ``max_degree`` and ``min_coverage`` by stratified k-fold
cross-validation instead and refits the chosen pair on all rows.  The grid's lists are not
fitted one by one: on each fold, the rows are encoded once and the lists of every
``min_coverage`` at one depth come from one search (``_cv_folds``,
``_grid``), which returns exactly the lists separate fits would.
:class:`DecisionListClassifier`'s default ``min_coverage="auto"`` was chosen to give lists
about the size of those this search picks, without its cost
(``benchmarks/results/decision_list_defaults.md``).
"""

from __future__ import annotations

import numbers
import os
import time
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone

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
    input_names,
    normalized_weights,
    progress_logger,
    validate_params,
)
from .._cv import RefitDelegation, cv_scorer, cv_splits
from .._rule_model import RuleModelMixin
from .._rules_table import cv_table
from ._cv_folds import refit, score_grid
from ._estimator import DecisionListClassifier

__all__ = ["DecisionListCV", "DEFAULT_MAX_DEGREES", "DEFAULT_MIN_COVERAGES"]

#: the default depth grid (depth 4 and more is rarely affordable: the search is exhaustive)
DEFAULT_MAX_DEGREES = (1, 2, 3)
#: the default coverage grid (integers: DecisionListClassifier's default "auto" is the
#: row-count rule ``max(2, ceil(n / 50))``; the large values matter on data sets of thousands
#: of rows, e.g. splice)
DEFAULT_MIN_COVERAGES = (2, 5, 10, 20, 40, 80)


def _int_grid(values: Any, name: str) -> list[int]:
    """A non-empty sequence of distinct integers >= 1, validated."""
    try:
        items = list(values)
    except TypeError:
        items = []
    ok = bool(items) and all(isinstance(v, numbers.Integral) and not isinstance(v, bool)
                             and v >= 1 for v in items)
    if not ok:
        raise InputError(f"{name} must be a non-empty sequence of integers >= 1, got "
                         f"{values!r}.")
    items = [int(v) for v in items]
    if len(set(items)) != len(items):
        raise InputError(f"{name} {values!r} repeats a value; give each once.")
    return items


class DecisionListCV(RefitDelegation, RuleModelMixin, ClassifierMixin, BaseEstimator):
    """A :class:`DecisionListClassifier` whose ``max_degree`` and ``min_coverage`` are
    chosen by cross-validation.

    Every pair of the grid ``max_degrees`` x ``min_coverages`` is fitted on the training
    part of every fold and scored on its held-out part; the pair of best mean score is
    refitted on all rows (``best_estimator_``), and ``predict``, ``predict_proba``,
    :meth:`~optirules.learners.DecisionListClassifier.explain`, :meth:`to_text`, :meth:`to_json`, ``rules_`` and ``str`` are those of
    the refitted list.  The other parameters of ``estimator`` (``fallback``,
    ``osr_rows``, ``confidence``, ``n_bins``, ``categorical_features``, ``max_rules``)
    are kept in every fit.  The fits share their work: on each fold the rows are encoded
    once, and the lists of all coverages at one depth are found by one search that keeps
    its counts up to date from rule to rule and follows the lists together while they
    choose the same rules; the lists, scores and choice are those of separate fits
    (weights of many distinct values, or depths above 3, are searched one coverage at a
    time, on the same encoding).  With ``time_limit`` the depths are fitted from the
    smallest on, each on every fold before the next, and pairs the limit leaves unscored
    on some fold are left out of the choice (``status_`` says so).

    Parameters
    ----------
    estimator : DecisionListClassifier or None, default None
        The list whose depth and coverage are tuned; ``None``: ``DecisionListClassifier()``.
        Its own ``max_degree`` and ``min_coverage`` (e.g. the default ``"auto"``) are
        replaced by each pair of the grid.
    max_degrees : sequence of int, default (1, 2, 3)
        The depths tried.  The cost of a fit grows by about the number of attribute values
        per level on data with many attributes (timings per data set:
        ``benchmarks/results/decision_list.md``).
    min_coverages : sequence of int, default (2, 5, 10, 20, 40, 80)
        The ``min_coverage`` values tried (integers >= 1).  A larger coverage also makes a
        depth-3 search slower or faster depending on the data (less pruning by pure small
        rules, fewer rules).
    cv : int, cross-validation splitter or iterable, default 5
        Number of stratified folds (shuffled with ``random_state`` when it is given), any
        scikit-learn splitter, or an iterable of ``(train, test)`` index arrays.  With an
        int and fewer rows of a class than folds, the number of folds drops to that count
        (with a warning).
    scoring : None, str or callable, default None
        ``None``: accuracy; else a scikit-learn scorer name or ``scorer(estimator, X, y)``.
    n_jobs : int or None, default None
        Parallel fits over folds and depths (joblib; one job per fold and depth, its
        coverages searched together); results do not depend on it.
    random_state : int or None, default 0
        Shuffles the folds when ``cv`` is an int (the same folds on every run); ``None``
        keeps the row order, whose folds on a table sorted by some column (the MONK's files
        are) differ from each other more than random folds do and choose worse (the default
        changed from ``None`` on 2026-12-06: ``benchmarks/results/rule_set_cv_path.md``
        against the suite's ``rule_set_cv`` rows).  BruteDL itself is deterministic.
    verbose : bool, default False
        Log the grid, each pair's mean cross-validated score and the chosen pair through
        :mod:`logging` (logger ``optirules.learners.decision_list_cv``, level INFO; printed
        to stderr when the application configured no logging).  The fits inside the
        cross-validation stay quiet; the refit logs as ``estimator`` does.
    time_limit : float or None, default None
        Wall-clock seconds for the whole search (opt-in): the fold fits share ``k/(k+1)``
        of it (smallest depth first, each fold's search limited to what is left, and to
        the list's own ``time_limit`` if smaller) and the refit on all rows gets the
        rest.  Fold fits the
        limit leaves out are skipped; the pair is then chosen among those scored on every
        fold, or, when none was, by the mean over the folds done (the cheapest pair when no
        fold finished).  The result then depends on the machine's speed; ``status_`` says
        what happened.
    class_weight : None, "balanced" or dict {label: weight}, default None
        Given to every fit (the list's ``class_weight``: it multiplies ``sample_weight``);
        ``None`` keeps the estimator's own.  The held-out scores are not weighted by it.

    Attributes
    ----------
    best_estimator_ : DecisionListClassifier
        The list refitted on all rows with the chosen pair.
    best_params_ : dict
        ``{"max_degree": ..., "min_coverage": ...}`` of the chosen pair.
    best_score_ : float
        Its mean cross-validated score.
    best_index_ : int
        Its position in ``cv_results_``.
    cv_results_ : dict of ndarray
        One entry per grid pair, depth-major (``max_degrees[0]`` with every coverage, then
        ``max_degrees[1]`` ...): ``param_max_degree``, ``param_min_coverage``, ``params``
        (list of dicts), ``split<k>_test_score``, ``mean_test_score``,
        ``std_test_score``, ``rank_test_score`` (1 = best; ties share the lower rank),
        ``mean_n_rules``, ``mean_fit_time`` (a fold's encoding plus the seconds of the
        shared search's steps the list took, those it shares with other lists included),
        ``complete`` (scored on every fold, with no fold fit cut by ``time_limit``; pairs
        not complete have NaN mean scores).
    n_splits_ : int
    classes_, n_features_in_, feature_names_in_, rules_ :
        As the refitted list's.
    status_ : str
        ``"complete"``, or ``"time_limit (...)"`` with how many fold fits were done and how
        the pair was chosen.
    cv_time_ : float
        Seconds of the cross-validation (the refit excluded).
    refit_time_ : float
        Seconds of the refit.

    Notes
    -----
    Ties in mean score go to the smaller depth, then to the larger ``min_coverage`` (the
    simpler list).  The paper fixes the rule depth; choosing it by cross-validation is
    ours, measured in ``benchmarks/results/decision_list.md``.
    """

    _table_builder = staticmethod(cv_table)

    _parameter_constraints: dict = {
        "estimator": [None, DecisionListClassifier],
        # the entries (distinct integers >= 1) are checked by _int_grid
        "max_degrees": [Collection()],
        "min_coverages": [Collection()],
        "cv": CV,
        "scoring": SCORING,
        "n_jobs": N_JOBS,
        "random_state": RANDOM_STATE,
        "verbose": VERBOSE,
        "time_limit": TIME_LIMIT,
        "class_weight": CLASS_WEIGHT,
    }

    def __init__(self, estimator: Any = None, *,
                 max_degrees: Sequence[int] = DEFAULT_MAX_DEGREES,
                 min_coverages: Sequence[int] = DEFAULT_MIN_COVERAGES,
                 cv: Any = 5, scoring: Any = None, n_jobs: int | None = None,
                 random_state: int | None = 0, verbose: bool = False,
                 time_limit: float | None = None, class_weight: Any = None) -> None:
        self.time_limit = time_limit
        self.class_weight = class_weight
        self.estimator = estimator
        self.max_degrees = max_degrees
        self.min_coverages = min_coverages
        self.cv = cv
        self.scoring = scoring
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.string = True
        tags.input_tags.allow_nan = True  # as its decision lists
        return tags

    # ------------------------------------------------------------------ parameters
    def _base_estimator(self) -> DecisionListClassifier:
        if self.estimator is None:
            return DecisionListClassifier()
        if not isinstance(self.estimator, DecisionListClassifier):
            raise InputError(f"estimator must be a DecisionListClassifier (or None), got "
                             f"{type(self.estimator).__name__}.")
        return self.estimator

    # ------------------------------------------------------------------ fit
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> DecisionListCV:
        """Cross-validate the grid, then refit the chosen pair on all rows.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Categorical and/or numeric features (as :class:`DecisionListClassifier`).
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), optional
            Passed to every fit (an integer weight counts as the row repeated) and weights
            the held-out scores.

        Returns
        -------
        self
        """
        t_start = time.perf_counter()
        validate_params(self)
        base = self._base_estimator()
        if self.class_weight is not None:
            base = clone(base).set_params(class_weight=self.class_weight)
        tl = self.time_limit
        depths = _int_grid(self.max_degrees, "max_degrees")
        coverages = _int_grid(self.min_coverages, "min_coverages")
        clone(base).set_params(max_degree=depths[0], min_coverage=coverages[0])._check_params()
        X, y = self._checked_targets(X, y)
        w = None
        if sample_weight is not None:
            w = normalized_weights(sample_weight, y.shape[0]) * y.shape[0]
        scorer = cv_scorer(self.scoring)
        splits = cv_splits(self.cv, y, self.random_state)
        # the folds get k/(k+1) of the limit, the refit on all rows the rest
        cv_deadline = (None if tl is None
                       else time.time() + float(tl) * len(splits) / (len(splits) + 1))
        grid = [(d, c) for d in depths for c in coverages]
        candidates = [clone(base).set_params(max_degree=d, min_coverage=c) for d, c in grid]
        log = progress_logger("learners.decision_list_cv", self.verbose)
        if log is not None:
            log.info("%d pairs (max_degree, min_coverage) x %d folds = %d fits", len(grid),
                     len(splits), len(grid) * len(splits))
        # cheapest first: smaller depth, then larger coverage (what a time limit leaves)
        order = sorted(range(len(grid)), key=lambda i: (grid[i][0], -grid[i][1]))
        scores, n_rules, times, cut = score_grid(base, depths, coverages, X, y, w, splits,
                                                 scorer, cv_deadline, self.n_jobs)
        self.cv_time_ = time.perf_counter() - t_start
        best = self._set_cv_results(grid, order, scores, n_rules, times, cut)
        if log is not None:
            results = self.cv_results_
            for i, (d, c) in enumerate(grid):
                log.info("max_degree=%d, min_coverage=%d: mean score %.4f (sd %.4f), %.1f "
                         "rules", d, c, results["mean_test_score"][i],
                         results["std_test_score"][i], results["mean_n_rules"][i])
            log.info("chosen: max_degree=%d, min_coverage=%d (%.1f s of cross-validation, "
                     "%s); refitting on all rows", *grid[best], self.cv_time_, self.status_)
        t0 = time.perf_counter()
        best_est = clone(candidates[best])
        if tl is not None:
            # what is left, however little: the list then stops before its next rule
            left = max(float(tl) - (time.perf_counter() - t_start), 1e-3)
            own = best_est.time_limit
            best_est.set_params(time_limit=left if own is None else min(float(own), left))
        self.best_estimator_ = refit(best_est, X, y, sample_weight)
        self.refit_time_ = time.perf_counter() - t0
        est = self.best_estimator_
        self.classes_ = est.classes_
        self.n_features_in_ = est.n_features_in_
        if input_names(est) is not None:
            self.feature_names_in_ = est.feature_names_in_
        self.rules_ = est.rules_
        self.fit_time_ = time.perf_counter() - t_start
        return self

    @staticmethod
    def _checked_targets(X: Any, y: Any) -> tuple[Any, np.ndarray]:
        """``X`` made indexable and ``y`` a 1-D array of at least two discrete classes, or
        an InputError."""
        from sklearn.utils import indexable
        from sklearn.utils.multiclass import check_classification_targets
        from sklearn.utils.validation import column_or_1d

        if y is None:
            raise InputError("DecisionListCV requires y to be passed, but the target y is "
                             "None; pass the class labels of the training rows.")
        try:
            X, y = indexable(X, y)
        except ValueError as exc:
            raise InputError(f"{exc} Check the shape of X and y.") from None
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            y = column_or_1d(y, warn=True)  # scikit-learn's DataConversionWarning
        if y.ndim != 1 or y.shape[0] == 0:
            raise InputError("y must be a non-empty 1-D array of class labels.")
        try:
            check_classification_targets(y)
        except ValueError as exc:
            raise InputError(f"{exc} DecisionListCV needs discrete class labels.") from None
        if np.unique(y).size < 2:
            raise InputError("y holds one class only; a classifier needs at least two classes "
                             "in the training data.")
        return X, y

    def _set_cv_results(self, grid: list[tuple[int, int]], order: list[int],
                        scores: np.ndarray, n_rules: np.ndarray, times: np.ndarray,
                        cut: np.ndarray) -> int:
        """``cv_results_``, ``n_splits_``, ``status_`` and the chosen pair (``best_index_``,
        ``best_params_``, ``best_score_``) from the fold scores of :func:`_score_grid`; the
        chosen pair's index."""
        n_splits = scores.shape[1]
        complete = ~np.isnan(scores).any(axis=1) & ~cut
        n_done = int(np.sum(~np.isnan(scores)))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN rows of skipped fits
            partial = np.nanmean(scores, axis=1)
            n_rules_mean = np.nanmean(n_rules, axis=1)
            times_mean = np.nanmean(times, axis=1)
        mean = np.where(complete, partial, np.nan)
        results: dict[str, Any] = {
            "param_max_degree": np.array([d for d, _ in grid]),
            "param_min_coverage": np.array([c for _, c in grid]),
            "params": [{"max_degree": d, "min_coverage": c} for d, c in grid],
        }
        for s in range(n_splits):
            results[f"split{s}_test_score"] = scores[:, s].copy()
        results["mean_test_score"] = mean
        results["std_test_score"] = np.where(complete, np.nan_to_num(scores).std(axis=1),
                                             np.nan)
        ranked = np.nan_to_num(mean, nan=-np.inf)
        results["rank_test_score"] = np.array(
            [1 + int(np.sum(ranked > m + 1e-12)) for m in ranked], dtype=np.int32)
        results["mean_n_rules"] = n_rules_mean
        results["mean_fit_time"] = times_mean
        results["complete"] = complete
        self.cv_results_ = results
        self.n_splits_ = n_splits
        # smaller depth first, then larger coverage: the first of the best means wins
        if complete.all():
            self.status_ = "complete"
            chosen_by = mean
        elif complete.any():
            self.status_ = (f"time_limit ({n_done} of {scores.size} fold fits done; pair "
                            "chosen among those scored on every fold)")
            chosen_by = mean
        else:
            self.status_ = (f"time_limit ({n_done} of {scores.size} fold fits done; no pair "
                            "was scored on every fold, so the pair is chosen by the mean over "
                            "the folds done, the cheapest pair when none was)")
            chosen_by = partial
        chosen_by = np.nan_to_num(chosen_by, nan=-np.inf)
        top = float(chosen_by.max())
        best = next(i for i in order if chosen_by[i] >= top - 1e-12) if np.isfinite(top) \
            else order[0]
        self.best_index_ = int(best)
        self.best_params_ = dict(results["params"][best])
        self.best_score_ = float(mean[best])
        return best

    # ------------------------------------------------------------------ delegation
    # (to_json writes the refitted list's document through RuleModelMixin)
    _json_format = DecisionListClassifier._json_format
    _json_allow_nan = False

    def to_text(self, stats: bool = False) -> str:
        """The refitted list as text (see :meth:`DecisionListClassifier.to_text`) and the
        parameters cross-validation chose.

        Parameters
        ----------
        stats : bool, default False
            Append each rule's coverage and Laplace accuracy.

        Returns
        -------
        str
            The chosen parameters, then one rule a line.
        """
        self._check_fitted()
        p = self.best_params_
        return (f"{self.best_estimator_.to_text(stats=stats)}\nmax_degree = {p['max_degree']}, "
                f"min_coverage = {p['min_coverage']} chosen by {self.n_splits_}-fold "
                f"cross-validation (mean score {self.best_score_:.4f})")

    def to_json(self, path: str | os.PathLike | None = None, *, indent: int | None = None,
                training_rows: str = "auto") -> str:
        """The refitted list as :meth:`DecisionListClassifier.to_json` writes it (load it
        with :meth:`DecisionListClassifier.from_json` or ``optirules predict``).

        Parameters
        ----------
        path : str or path-like, optional
            File the JSON is also written to.
        indent : int, optional
            Indentation of the JSON text; ``None`` writes it on one line.
        training_rows : str, default "auto"
            Whether the training rows are stored, as for
            :meth:`DecisionListClassifier.to_json`.

        Returns
        -------
        str
            The JSON text.
        """
        return self._write_json(path, indent, training_rows=training_rows)

    def _json_document(self, training_rows: str = "auto") -> dict[str, Any]:
        """The refitted list's document (the JSON keeps the list, not the search)."""
        return self.best_estimator_._json_document(training_rows)

    @classmethod
    def from_json(cls, source: str | os.PathLike) -> DecisionListClassifier:
        """The refitted list that :meth:`to_json` wrote, as a
        :class:`DecisionListClassifier` (the JSON keeps the list, not the search): the
        same as :meth:`DecisionListClassifier.from_json`, so either class loads it.

        Parameters
        ----------
        source : str or path-like
            JSON text or the path of a JSON file.

        Returns
        -------
        DecisionListClassifier
            The fitted list.
        """
        return DecisionListClassifier.from_json(source)

    def rules_table(self, X: Any = None, y: Any = None):
        """The ``rules_table`` of the refitted estimator (``best_estimator_``): one row per
        rule with its support, precision and recall (``optirules.learners._rules_table``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), optional
            Rows to count support, precision and recall on; ``None`` uses the training
            counts.
        y : array-like of shape (n_samples,), optional
            Their labels, given with ``X``.

        Returns
        -------
        pandas.DataFrame
            One row per rule and a last row for the default entry.
        """
        return self._table_builder(self, X, y)


    # (str: RuleModelMixin; to_text takes stats: the search's own)
    _fitted_attribute = "best_estimator_"
