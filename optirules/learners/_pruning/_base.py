r"""The shared plumbing of the pruners (:mod:`optirules.learners._pruning._estimator`).

``_BasePruner`` reads the members into :math:`\mathbf H` (through
:mod:`optirules.learners._pruning._members`), codes the labels :math:`\pm 1`, calls the
subclass's ``_prune`` for the weights and votes with them in ``predict``, ``to_text`` and
``explain``.
"""

from __future__ import annotations

import numbers
from abc import ABCMeta, abstractmethod
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import HasMethods

from ...errors import InputError, NotFittedError
from .._checks import (
    VERBOSE,
    Number,
    check_binary_targets,
    n_rows,
    progress_logger,
    validate_params,
)
from .._explain import label_text, vote_block, vote_text
from .._text import TextMixin
from ._members import (
    _as_member_matrix,
    _check_fitted_ensemble,
    _kind,
    _member_columns,
    _n_members,
    _raw_weights,
    _unwrap,
)

#: a fraction of the members in (0, 1]
_FRACTION = [Number(numbers.Real, 0, 1, closed="right")]


class _BasePruner(TextMixin, ClassifierMixin, BaseEstimator, metaclass=ABCMeta):
    """Shared plumbing: member matrix, label coding, weighted vote."""

    _parameter_constraints: dict = {
        # a fitted voting ensemble (_kind and _check_fitted_ensemble say which) or None
        "estimator": [None, HasMethods(["fit"])],
        # one finite weight >= 0 per member: checked against the ensemble in _fit_members
        "member_weights": [None, "array-like"],
        "verbose": VERBOSE,
    }

    def __init__(self, estimator: Any = None, *, member_weights: Any = None,
                 verbose: bool = False):
        self.estimator = estimator
        self.member_weights = member_weights
        self.verbose = verbose

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.non_deterministic = False
        return tags

    # ------------------------------------------------------------------ inputs
    def _check_member_names(self, X: Any, *, reset: bool) -> None:
        """With ``estimator=None``: record the member matrix's columns (count, and names of a
        DataFrame) at fit, and refuse other or reordered columns later."""
        from sklearn.utils.validation import validate_data

        try:
            validate_data(self, X, reset=reset, skip_check_array=True)
        except ValueError as exc:
            raise InputError(f"{exc} Pass the member columns in the order used at fit.") \
                from None

    def _check_params(self) -> None:
        """Validate the hyperparameters (``_parameter_constraints``), before any work."""
        validate_params(self)

    def _fit_members(self, X: Any, y: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if y is None:
            raise InputError(f"{type(self).__name__} requires y to be passed, but the target y "
                             "is None: pass the labels of the pruning rows.")
        y = np.asarray(y)
        if y.ndim == 2 and 1 in y.shape:
            y = y.reshape(-1)
        if y.ndim != 1:
            raise InputError(f"y must be 1-D, got shape {y.shape}.")
        if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
            raise InputError("y contains NaN or inf; drop those rows.")
        if self.estimator is None:
            # the labels first (scikit-learn's messages), then H; +1 in H is the larger label
            classes, _ = check_binary_targets(y, n_rows(X), type(self).__name__)
            H = _as_member_matrix(X)
            self._check_member_names(X, reset=True)
            T = H.shape[1]
            alpha = np.ones(T)
            self._kind_ = "matrix"
            self._signs_ = np.ones(T, dtype=int)
        else:
            est = _unwrap(self.estimator)
            kind = _kind(est)
            _check_fitted_ensemble(est, kind)
            T = _n_members(est, kind)
            raw = _raw_weights(est, kind, T)
            if not np.all(np.isfinite(raw)):
                raise InputError("The ensemble's member weights contain NaN or inf.")
            self._signs_ = np.where(raw < 0, -1, 1)
            alpha = np.abs(raw)
            classes = np.asarray(est.classes_)
            self._kind_ = kind
            self.ensemble_ = est
            H = _member_columns(est, kind, X, np.arange(T), self._signs_)
            if getattr(est, "n_features_in_", None) is not None:
                self.n_features_in_ = est.n_features_in_
        if H.shape[0] != y.shape[0]:
            raise InputError(
                f"The member matrix has {H.shape[0]} rows but y has {y.shape[0]} labels: H must "
                "be (n_samples, n_members) with one row per label (transpose it if it is "
                "(n_members, n_samples)).")
        unknown = ~np.isin(y, classes)
        if unknown.any():
            raise InputError(
                f"y holds labels {np.unique(y[unknown])[:5].tolist()} that are not the "
                f"ensemble's classes {classes.tolist()}.")
        if self.member_weights is not None:
            try:
                mw = np.asarray(self.member_weights, dtype=float).reshape(-1)
            except (TypeError, ValueError) as exc:
                raise InputError(f"member_weights must be numeric: {exc}.") from None
            if mw.size != T:
                raise InputError(f"member_weights has {mw.size} entries but the ensemble has "
                                 f"{T} members.")
            if not np.all(np.isfinite(mw)) or np.any(mw < 0):
                raise InputError("member_weights must be finite and non-negative.")
            alpha = mw
        if alpha.sum() <= 0:
            raise InputError("The member weights sum to zero: give some member a positive "
                             "weight.")
        self.classes_ = classes
        self.n_members_ = T
        self.member_weights_ = alpha / alpha.sum()
        return H, np.where(y == classes[1], 1, -1).astype(np.int8), self.member_weights_

    # ------------------------------------------------------------------ fit
    def fit(self, X: Any, y: Any) -> _BasePruner:
        """Evaluate the members on ``(X, y)`` and choose their weights.

        Parameters
        ----------
        X : array-like
            The pruning rows as the ensemble reads them, or with ``estimator=None`` the
            member-prediction matrix :math:`\\mathbf H` of shape (n_samples, n_members).
        y : array-like of shape (n_samples,)
            Labels (two classes; those of the ensemble).

        Returns
        -------
        self : object
            The fitted pruner.
        """
        self._check_params()
        log = progress_logger("learners.pruning", self.verbose)
        self._log = log
        H, ypm, alpha = self._fit_members(X, y)
        if log:
            log.info("%s: %d members evaluated on %d rows", type(self).__name__, H.shape[1],
                     H.shape[0])
        w = np.asarray(self._prune(H, ypm, alpha), dtype=float)
        w = np.where(w > 0, w, 0.0)
        w = w / w.sum()
        self.weights_ = w
        self.kept_ = np.flatnonzero(w > 0)
        self.n_kept_ = int(self.kept_.size)
        self.pruning_rate_ = 1.0 - self.n_kept_ / self.n_members_
        F = H[:, self.kept_] @ w[self.kept_]
        self.train_error_ = float(np.mean(np.where(F > 0, 1, -1) != ypm))
        if log:
            log.info("%s: kept %d of %d members (pruning rate %.1f%%), training error %.4f",
                     type(self).__name__, self.n_kept_, self.n_members_,
                     100 * self.pruning_rate_, self.train_error_)
        del self._log
        return self

    @abstractmethod
    def _prune(self, H: np.ndarray, y: np.ndarray, alpha: np.ndarray) -> np.ndarray:
        """Return the pruned members' weights (length T, zero for pruned members)."""

    # ------------------------------------------------------------------ predict
    def _check_fitted(self) -> None:
        if "weights_" not in vars(self):
            raise NotFittedError(f"This {type(self).__name__} is not fitted yet: call fit(X, y) "
                                 "on the pruning rows first.")

    def member_matrix(self, X: Any, members: Any = None) -> np.ndarray:
        r"""Columns ``members`` (default: all) of the member-prediction matrix for rows X.

        Parameters
        ----------
        X : array-like
            Rows as the ensemble reads them, or with ``estimator=None`` the
            member-prediction matrix of shape (n_samples, n_members).
        members : array-like of int, optional
            Indices of the members to evaluate; all members by default.

        Returns
        -------
        ndarray of shape (n_samples, n_selected), int8
            :math:`h_t(\mathbf x_i) \in \{-1, +1\}`, +1 meaning ``classes_[1]`` (members
            with a negative weight negated).
        """
        self._check_fitted()
        idx = np.arange(self.n_members_) if members is None else np.asarray(members, dtype=int)
        if self._kind_ == "matrix":
            H = _as_member_matrix(X)
            self._check_member_names(X, reset=False)
            if H.shape[1] != self.n_members_:
                raise InputError(f"X has {H.shape[1]} member columns but the pruner was fitted "
                                 f"on {self.n_members_} members.")
            return H[:, idx]
        return _member_columns(self.ensemble_, self._kind_, X, idx, self._signs_)

    def decision_function(self, X: Any) -> np.ndarray:
        r"""The pruned vote :math:`\sum_{t \in \text{kept}} w_t h_t(\mathbf x) \in [-1, 1]`.

        Parameters
        ----------
        X : array-like
            Rows as the ensemble reads them (the member-prediction matrix with
            ``estimator=None``).

        Returns
        -------
        ndarray of shape (n_samples,)
            The weighted vote; positive means ``classes_[1]``.
        """
        self._check_fitted()
        H = self.member_matrix(X, self.kept_)
        return H @ self.weights_[self.kept_]

    def predict(self, X: Any) -> np.ndarray:
        """``classes_[1]`` where the pruned vote is positive, else ``classes_[0]``.

        Parameters
        ----------
        X : array-like
            Rows as the ensemble reads them (the member-prediction matrix with
            ``estimator=None``).

        Returns
        -------
        ndarray of shape (n_samples,)
            The predicted labels.
        """
        F = self.decision_function(X)
        return self.classes_[(F > 0).astype(int)]

    def predict_proba(self, X: Any) -> np.ndarray:
        """Vote shares ``[(1 - F)/2, (1 + F)/2]`` of the pruned vote (not calibrated).

        Parameters
        ----------
        X : array-like
            Rows as the ensemble reads them (the member-prediction matrix with
            ``estimator=None``).

        Returns
        -------
        ndarray of shape (n_samples, 2)
            The shares of ``classes_[0]`` and ``classes_[1]``.
        """
        F = self.decision_function(X)
        p = np.clip((1.0 + F) / 2.0, 0.0, 1.0)
        return np.column_stack([1.0 - p, p])

    # ------------------------------------------------------------------ reading
    def _member_text(self, t: int) -> str:
        """Member ``t`` in words: a boosting hypothesis as its rule, else its position."""
        if self._kind_ == "optirules":
            from .._boosting._text import hypothesis_text

            e = self.ensemble_
            names = e.feature_names_
            return hypothesis_text(e.hypotheses_[t], names,
                                   getattr(e, "binarizer_", None) is not None and names is not None)
        names = getattr(self, "feature_names_in_", None) if self._kind_ == "matrix" else None
        return f"member {names[t]}" if names is not None else f"member {t + 1}"

    def _kept_by_weight(self) -> list[int]:
        return sorted((int(t) for t in self.kept_), key=lambda t: (-self.weights_[t], t))

    # ------------------------------------------------------------------ text
    # (str, to_text and explain: TextMixin)
    _fitted_attribute = "weights_"

    def _text(self) -> str:
        """``to_text``: the pruned vote, a header line, then one line per kept member with
        its weight, largest first."""
        pos, neg = label_text(self.classes_[1]), label_text(self.classes_[0])
        order = self._kept_by_weight()
        return vote_block(f"{type(self).__name__}: predict {pos} if the weighted vote of the "
                          f"{self.n_kept_} kept of {self.n_members_} members > 0, else {neg} "
                          "(a member votes +1 or -1)", self.weights_,
                          {t: self._member_text(t) for t in order}, order)

    def _decision_support(self, X: Any) -> tuple[list[list[str]], list[list[str]]]:
        """Per row, the kept members voting -1 and +1, with their weights, largest first (the
        ``rules`` of ``explain``; ``X`` as the ensemble reads it, the member-prediction
        matrix with ``estimator=None``)."""
        order = self._kept_by_weight()
        H = self.member_matrix(X, order)
        items = [vote_text(self.weights_[t], self._member_text(t)) for t in order]
        neg = [[items[j] for j in np.flatnonzero(row < 0)] for row in H]
        pos = [[items[j] for j in np.flatnonzero(row > 0)] for row in H]
        return neg, pos

