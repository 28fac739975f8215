"""Checks of the labels, sample weights and row counts the binary learners share, and the
progress log of their ``verbose`` parameter."""

from __future__ import annotations

import logging
from typing import Any

import numpy as np
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, _num_samples, column_or_1d

from ..errors import InputError

__all__ = ["check_binary_targets", "normalized_weights", "n_rows", "fit_binarizer", "check_fitted",
           "check_2d", "check_n_jobs", "progress_logger"]


def n_rows(X: Any) -> int:
    """Number of rows of ``X`` (array, DataFrame, list of rows)."""
    try:
        return int(_num_samples(X))
    except TypeError as exc:
        raise InputError(f"{exc}; pass a 2-D array or a DataFrame.") from None


def check_binary_targets(y: Any, rows: int, owner: str) -> tuple[np.ndarray, np.ndarray]:
    """``(classes, y == classes[1])`` for labels of exactly two classes, one per row.

    ``owner`` (the estimator's name) goes into the messages.
    """
    if y is None:
        raise InputError(f"{owner} requires y to be passed, but the target y is None. Pass "
                         "the class labels.")
    y = column_or_1d(y, warn=True)
    if y.shape[0] != rows:
        raise InputError(f"X has {rows} rows but y has {y.shape[0]} labels; pass one label "
                         "per row.")
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        raise InputError("y contains NaN or infinity; drop or label those rows.")
    try:
        check_classification_targets(y)
    except ValueError as exc:
        raise InputError(f"{exc} {owner} needs two class labels.") from None
    classes = np.unique(y)
    if classes.size < 2:
        raise InputError(f"y has only one class ({classes.tolist()}); {owner} needs examples "
                         "of two classes. Check the labels or the train/test split.")
    if classes.size > 2:
        raise InputError(f"Only binary classification is supported. y has {classes.size} "
                         "classes; merge them into two (one-vs-rest) first.")
    return classes, y == classes[1]


def normalized_weights(sample_weight: Any, rows: int) -> np.ndarray:
    """``sample_weight`` as a pmf over the rows (uniform when None)."""
    if sample_weight is None:
        return np.full(rows, 1.0 / rows)
    try:
        w = _check_sample_weight(sample_weight, np.empty((rows, 0)), dtype=np.float64,
                                 ensure_non_negative=True)
    except ValueError as exc:
        raise InputError(f"{exc} Pass one non-negative finite weight per row.") from None
    total = float(w.sum())
    if not total > 0:
        raise InputError("sample_weight sums to zero; give some rows a positive weight.")
    return w / total


def fit_binarizer(binarizer: Any, X: Any, sample_weight: Any = None) -> Any:
    """Fit ``binarizer`` on ``X`` with the row weights when its ``fit`` takes them (a
    FeatureBinarizer does: weighted quantiles, so an integer weight is a repeated row)."""
    import inspect

    if sample_weight is not None:
        try:
            takes = "sample_weight" in inspect.signature(binarizer.fit).parameters
        except (TypeError, ValueError):
            takes = False
        if takes:
            return binarizer.fit(X, sample_weight=sample_weight)
    return binarizer.fit(X)


def check_n_jobs(n_jobs: Any) -> None:
    """``n_jobs`` as joblib takes it: None or a nonzero int (-1: every core), else an
    :class:`InputError` saying so (before any work)."""
    if n_jobs is None:
        return
    if isinstance(n_jobs, (bool, np.bool_)) or not isinstance(n_jobs, (int, np.integer)) \
            or n_jobs == 0:
        raise InputError(f"n_jobs must be None or a nonzero int (joblib's: -1 for every "
                         f"core, 2 for two processes), got {n_jobs!r}.")


def check_fitted(estimator: Any, attribute: str) -> None:
    """scikit-learn's ``check_is_fitted``, raising :class:`optirules.errors.NotFittedError`
    (a subclass of scikit-learn's), so that either ``except`` catches it."""
    from sklearn.exceptions import NotFittedError as SklearnNotFittedError
    from sklearn.utils.validation import check_is_fitted

    from ..errors import NotFittedError

    try:
        check_is_fitted(estimator, attribute)
    except SklearnNotFittedError as exc:
        raise NotFittedError(str(exc)) from None


def check_2d(X: Any) -> None:
    """Refuse 1-D (or 3-D ...) input with scikit-learn's message, before a binarizer sees it."""
    ndim = getattr(X, "ndim", None)
    if ndim is None and not hasattr(X, "columns"):
        ndim = np.ndim(np.asarray(X, dtype=object))
    if ndim is not None and ndim != 2:
        raise InputError(
            f"Expected 2D array, got {ndim}D array instead. Reshape your data either using "
            "X.reshape(-1, 1) if your data has a single feature or X.reshape(1, -1) if it "
            "contains a single sample.")


def progress_logger(name: str, verbose: Any) -> logging.Logger | None:
    """The :mod:`logging` logger ``optirules.<name>`` of a learner whose ``verbose`` is set,
    else None.

    Progress goes through :mod:`logging` at level INFO.  If the application configured no
    handler (no handler on the logger, the ``optirules`` logger or the root logger), one
    stderr handler at level INFO is added to the ``optirules`` logger, so ``verbose=True``
    prints without any set-up; an application's own logging configuration is left alone.
    """
    if not verbose:
        return None
    logger = logging.getLogger(f"optirules.{name}")
    if not logger.hasHandlers():
        package = logging.getLogger("optirules")
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("[%(name)s] %(message)s"))
        package.addHandler(handler)
        if package.level == logging.NOTSET or package.level > logging.INFO:
            package.setLevel(logging.INFO)
    return logger
