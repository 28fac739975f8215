"""What the cross-validated learners (BooleanRuleSetCV, DecisionListCV) share: the folds
from any ``cv`` scikit-learn takes, the scorer from ``scoring``, and the delegation of
prediction to the refitted ``best_estimator_``."""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np

from ..errors import InputError
from ._checks import check_fitted, check_random_state

__all__ = ["cv_splits", "cv_scorer", "RefitDelegation"]

_CV_FORMS = "an int >= 2, a scikit-learn splitter or an iterable of (train, test) index arrays"


def cv_splits(cv: Any, y: np.ndarray, random_state: Any) -> list[tuple[np.ndarray, np.ndarray]]:
    """The (train, test) row indices of every fold.

    ``cv`` is an int (stratified folds, shuffled with ``random_state`` when it is not None;
    fewer folds, with a warning, when a class has fewer rows; two folds when one of more than
    two classes has a single row, which one fold then trains without), a splitter, or an iterable
    (a list or a generator) of ``(train, test)`` index pairs.  Every fold must hold row
    indices in ``0 .. n - 1`` in both parts and train on both classes.
    """
    from sklearn.model_selection import StratifiedKFold, check_cv

    check_random_state(random_state)
    n = y.shape[0]
    if isinstance(cv, numbers.Integral) and not isinstance(cv, bool):
        if cv < 2:
            raise InputError(f"cv must be {_CV_FORMS}, got {cv!r}.")
        counts = np.unique(y, return_counts=True)[1]
        smallest = int(counts.min())
        if smallest < 2 and counts.size == 2:
            raise InputError("a class has a single row, so no cross-validation fold can train "
                             "on it; give each class at least 2 rows.")
        k = int(cv)
        if smallest < 2:  # more classes: a one-row class is left out of one fold's training
            k = 2
        elif smallest < k:
            warnings.warn(f"the smallest class has {smallest} rows, fewer than cv={k}; using "
                          f"{smallest} folds.", UserWarning, stacklevel=4)
            k = smallest
        shuffle = random_state is not None
        splitter: Any = StratifiedKFold(n_splits=k, shuffle=shuffle,
                                        random_state=random_state if shuffle else None)
    elif hasattr(cv, "split") or (hasattr(cv, "__iter__")
                                  and not isinstance(cv, (str, bytes, dict))):
        try:
            splitter = check_cv(cv, y, classifier=True)
        except (TypeError, ValueError) as exc:
            raise InputError(f"cv could not be used as cross-validation folds ({exc}).") \
                from None
    else:
        raise InputError(f"cv must be {_CV_FORMS}, got {cv!r}.")
    try:
        splits = [(np.asarray(tr).reshape(-1), np.asarray(te).reshape(-1))
                  for tr, te in splitter.split(np.zeros((n, 1)), y)]
    except (TypeError, ValueError) as exc:
        raise InputError(f"cv gave no usable folds ({exc}).") from None
    if not splits:
        raise InputError("cv gave no fold; pass at least one (train, test) pair.")
    for tr, te in splits:
        for part in (tr, te):
            if part.size == 0 or part.dtype.kind not in "iu" or part.min() < 0 \
                    or part.max() >= n:
                raise InputError(f"every cv fold needs non-empty integer row indices in "
                                 f"[0, {n}); a fold has {part[:5]!r}...")
        if np.unique(y[tr]).size < 2:
            raise InputError("a cross-validation fold trains on one class only; use "
                             "stratified folds or more rows.")
    return splits


def cv_scorer(scoring: Any) -> Any:
    """``None`` (plain or weighted accuracy), a callable as given, or scikit-learn's scorer
    of that name."""
    if scoring is None or callable(scoring):
        return scoring
    from sklearn.metrics import get_scorer

    try:
        return get_scorer(scoring)
    except ValueError as exc:
        raise InputError(f"{exc}") from None


class RefitDelegation:
    """``predict``, ``predict_proba`` and ``explain`` of a cross-validated learner: those of
    the estimator refitted with the chosen parameters (``best_estimator_``), after
    optirules' not-fitted check."""

    def _check_fitted(self) -> None:
        check_fitted(self, "best_estimator_")

    def predict(self, X: Any) -> np.ndarray:
        """The refitted estimator's prediction.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the layout of the training data (same columns).

        Returns
        -------
        ndarray of shape (n_samples,)
            The predicted class of each row.
        """
        self._check_fitted()
        return self.best_estimator_.predict(X)

    def predict_proba(self, X: Any) -> np.ndarray:
        """The refitted estimator's class probabilities.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the layout of the training data (same columns).

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Class probabilities, columns in the order of ``classes_``.
        """
        self._check_fitted()
        return self.best_estimator_.predict_proba(X)

    def explain(self, X: Any) -> Any:
        """The refitted estimator's ``explain`` DataFrame.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the layout of the training data (same columns).

        Returns
        -------
        pandas.DataFrame
            One row per input row: the prediction, its score and the rules that fired.
        """
        self._check_fitted()
        return self.best_estimator_.explain(X)
