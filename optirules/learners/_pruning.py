r"""Ensemble pruning on any voting ensemble: QMM (the QMM paper), kappa pruning and DREP.

All three pruners are scikit-learn meta-estimators over a **fitted** voting ensemble
:math:`f(\mathbf x) = \operatorname{sign}\sum_{t=1}^T \alpha_t h_t(\mathbf x)` with members
:math:`h_t(\mathbf x) \in \{-1, +1\}`.  ``fit(X, y)`` evaluates every member on the pruning
rows (the training rows in "Ensemble Pruning via Margin Maximization") into the prediction matrix
:math:`\mathbf H \in \{-1, +1\}^{n \times T}`, chooses member weights
:math:`\mathbf w` (zero for pruned members) and ``predict`` votes with them:
:math:`\hat y = \texttt{classes\_[1]}` where :math:`\sum_t w_t h_t(\mathbf x) > 0`, else
``classes_[0]`` (the convention of scikit-learn's AdaBoost).

Ensembles understood (``estimator=``):

* scikit-learn ``AdaBoostClassifier`` (members predict class labels; :math:`\boldsymbol\alpha`
  = ``estimator_weights_``) and any estimator with ``estimators_`` and
  ``estimator_weights_`` that behaves the same way;
* ``RandomForestClassifier`` / ``ExtraTreesClassifier`` and ``BaggingClassifier`` (members
  predict encoded class indices; uniform :math:`\boldsymbol\alpha`; Bagging's feature
  subsets are honoured).  Note that scikit-learn's forests *average probabilities* while
  the pruners vote with one unit vote per tree, as the QMM paper (after Breiman 2001) does;
  for fully grown trees the two coincide;
* optirules ``BoostingClassifier`` (``hypotheses_`` and ``alphas_``; a negative
  :math:`\alpha_t` votes like :math:`-h_t` with weight :math:`|\alpha_t|`);
* any of these wrapped in ``sklearn.frozen.FrozenEstimator``, which keeps it fitted through
  ``clone`` (so a pruner over a fitted ensemble can go into ``GridSearchCV``);
* ``estimator=None``: ``X`` *is* the member-prediction matrix :math:`\mathbf H` (in
  ``fit`` and in ``predict``), +1 standing for ``classes_[1]``; weights from
  ``member_weights`` (uniform by default).

Every pruner exposes ``weights_`` (length :math:`T`, on the simplex), ``kept_`` (members
with positive weight), ``pruning_rate_`` (:math:`1 - |\text{kept}|/T`), ``n_members_``,
``member_weights_`` (the normalised original :math:`\boldsymbol\alpha`), ``classes_``,
``train_error_`` and, for an ensemble, ``ensemble_`` (the unwrapped fitted ensemble).
"""

from __future__ import annotations

import math
import numbers
import os
from abc import ABCMeta, abstractmethod
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import HasMethods, Hidden, StrOptions

from ..errors import InputError, NotFittedError
from ._checks import (
    TIME_LIMIT,
    VERBOSE,
    CaseInsensitiveStrOptions,
    Number,
    check_binary_targets,
    n_rows,
    progress_logger,
    validate_params,
)
from ._explain import binary_explain, label_text, text_or_repr, vote_block, vote_text

__all__ = ["QMMPruner", "KappaPruner", "DREPPruner", "member_predictions",
           "ensemble_hypothesis_space_size"]


# =========================================================================== members
def _unwrap(estimator: Any) -> Any:
    """The ensemble inside a ``sklearn.frozen.FrozenEstimator`` (which survives ``clone``)."""
    while type(estimator).__name__ == "FrozenEstimator" and hasattr(estimator, "estimator"):
        estimator = estimator.estimator
    return estimator


def _kind(estimator: Any) -> str:
    """Which extraction rule applies to ``estimator``."""
    from sklearn.ensemble import BaggingClassifier, ExtraTreesClassifier, RandomForestClassifier

    from ._boosting import BoostingClassifier

    if isinstance(estimator, type):
        raise InputError(f"estimator must be a fitted ensemble instance, got the class "
                         f"{estimator.__name__}; fit an instance first.")
    if isinstance(estimator, BoostingClassifier):
        return "optirules"
    if isinstance(estimator, (RandomForestClassifier, ExtraTreesClassifier)):
        return "forest"
    if isinstance(estimator, BaggingClassifier):
        return "bagging"
    if hasattr(estimator, "estimator_weights_"):
        return "weighted"
    if hasattr(estimator, "estimators_") or callable(getattr(estimator, "fit", None)):
        return "generic"
    raise InputError(
        f"{type(estimator).__name__} is not a voting ensemble this pruner understands: pass a "
        "fitted AdaBoostClassifier, RandomForestClassifier, BaggingClassifier or optirules "
        "BoostingClassifier, or estimator=None with the member-prediction matrix as X.")


def _check_fitted_ensemble(estimator: Any, kind: str) -> None:
    from sklearn.exceptions import NotFittedError as SkNotFittedError
    from sklearn.utils.validation import check_is_fitted

    attr = {"optirules": "hypotheses_", "generic": None}.get(kind, "estimators_")
    classes = getattr(estimator, "classes_", None)
    if (kind == "optirules" and "estimators_" in getattr(estimator, "__dict__", {})
            and classes is not None and np.ndim(classes) == 1 and len(classes) > 2):
        raise InputError(
            f"The {type(estimator).__name__} was fitted on {len(classes)} classes (one "
            "booster per class against the rest, in estimators_); prune a one-vs-rest binary "
            "ensemble: pass estimators_[k] (classes_[k] against the rest) and the labels "
            "y == classes_[k].")
    try:
        check_is_fitted(estimator, attr)
    except SkNotFittedError:
        raise NotFittedError(
            f"The ensemble {type(estimator).__name__} is not fitted: fit it on the training "
            "data first (the pruners take a fitted ensemble and do not fit it).") from None
    except TypeError as exc:
        raise InputError(f"{type(estimator).__name__} is not an estimator: {exc}") from None
    if kind == "generic" and not hasattr(estimator, "estimators_"):
        raise InputError(
            f"{type(estimator).__name__} has no members (no estimators_ attribute): the pruners "
            "need a voting ensemble, or estimator=None with a member-prediction matrix.")
    classes = getattr(estimator, "classes_", None)
    if classes is None:
        raise InputError(f"{type(estimator).__name__} has no classes_: its members cannot be "
                         "read as +-1 predictions of a binary classifier.")
    classes = np.asarray(classes)
    if classes.ndim != 1 or classes.size != 2:
        raise InputError(
            f"The ensemble has {classes.size if classes.ndim == 1 else 'multi-output'} "
            "classes; pruning needs a binary classifier whose members predict one of two "
            "classes (+-1). Prune a one-vs-rest binary ensemble: train one on the labels "
            "y == c for the class c you want, and prune that.")
    n = _n_members(estimator, kind)
    if n == 0:
        raise InputError("The ensemble has no members: nothing to prune.")


def _n_members(estimator: Any, kind: str) -> int:
    if kind == "optirules":
        return len(estimator.hypotheses_)
    return len(estimator.estimators_)


def _raw_weights(estimator: Any, kind: str, T: int) -> np.ndarray:
    if kind == "optirules":
        return np.asarray(estimator.alphas_, dtype=float)[:T]
    if kind in ("weighted", "generic") and hasattr(estimator, "estimator_weights_"):
        w = np.asarray(estimator.estimator_weights_, dtype=float).reshape(-1)
        if w.size < T:
            raise InputError(f"estimator_weights_ has {w.size} entries for {T} members.")
        return w[:T]
    return np.ones(T)


def _validated_X(estimator: Any, kind: str, X: Any) -> Any:
    """X as the ensemble's members read it (validated against the ensemble's fit)."""
    from sklearn.utils.validation import validate_data

    if kind == "optirules":
        return estimator._raw_scores(X)
    try:
        if kind == "forest":
            return validate_data(estimator, X, reset=False, dtype=np.float32,
                                 accept_sparse="csr", ensure_all_finite="allow-nan")
        if kind in ("bagging", "weighted"):
            return validate_data(estimator, X, reset=False, dtype=None,
                                 accept_sparse=["csr", "csc"], ensure_all_finite=False)
    except InputError:
        raise
    except (ValueError, TypeError) as exc:
        raise InputError(f"X does not fit the ensemble: {exc}") from None
    return X


def _to_pm1(pred: Any, classes: np.ndarray, encoded: bool, member: int) -> np.ndarray:
    pred = np.asarray(pred).reshape(-1)
    if encoded:
        pos, neg = pred == 1, pred == 0
    else:
        pos, neg = pred == classes[1], pred == classes[0]
    if not np.all(pos | neg):
        bad = pred[~(pos | neg)][:3]
        raise InputError(
            f"Member {member} predicted {bad.tolist()}, which is not one of the ensemble's two "
            f"classes {classes.tolist()}: its members cannot be read as +-1 predictions. Pass "
            "the member-prediction matrix yourself with estimator=None.")
    return np.where(pos, 1, -1).astype(np.int8)


def _member_columns(estimator: Any, kind: str, X: Any, members: np.ndarray,
                    signs: np.ndarray | None = None) -> np.ndarray:
    """Columns ``members`` of H (n x len(members), int8 in {-1, +1}) for the rows X."""
    Xv = _validated_X(estimator, kind, X)
    classes = np.asarray(estimator.classes_)
    cols = []
    for t in members:
        t = int(t)
        try:
            if kind == "optirules":
                col = np.asarray(estimator.hypotheses_[t].predict(Xv))
                col = np.where(col > 0, 1, np.where(col < 0, -1, 0))
                if np.any(col == 0):
                    raise InputError(f"Hypothesis {t} predicted 0; members must give +-1.")
                col = col.astype(np.int8)
            elif kind == "forest":
                col = _to_pm1(estimator.estimators_[t].predict(Xv, check_input=False),
                              classes, True, t)
            elif kind == "bagging":
                feats = estimator.estimators_features_[t]
                col = _to_pm1(estimator.estimators_[t].predict(Xv[:, feats]), classes, True, t)
            else:
                pred = np.asarray(estimator.estimators_[t].predict(Xv)).reshape(-1)
                in_labels = np.isin(pred, classes).all()
                col = _to_pm1(pred, classes, encoded=not in_labels, member=t)
        except InputError:
            raise
        except (ValueError, TypeError, AttributeError) as exc:
            raise InputError(f"Member {t} of the ensemble could not predict X: {exc}") from None
        if signs is not None and signs[t] < 0:
            col = -col
        cols.append(col)
    if not cols:
        return np.zeros((n_rows(X), 0), dtype=np.int8)
    H = np.column_stack(cols).astype(np.int8)
    return H


def member_predictions(estimator: Any, X: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""The member-prediction matrix :math:`\mathbf H`, weights and classes of a fitted ensemble.

    Parameters
    ----------
    estimator : fitted ensemble
        ``AdaBoostClassifier``, ``RandomForestClassifier``, ``ExtraTreesClassifier``,
        ``BaggingClassifier``, optirules ``BoostingClassifier``, or an estimator with
        ``estimators_`` (and optionally ``estimator_weights_``) and two ``classes_``.
    X : array-like of shape (n_samples, n_features)
        Rows to evaluate the members on.

    Returns
    -------
    H : ndarray of shape (n_samples, n_members), int8
        :math:`h_{it} \in \{-1, +1\}`, +1 meaning ``classes[1]``.  Members with a negative
        weight (possible in optirules boosters) are negated.
    alpha : ndarray of shape (n_members,)
        Non-negative weights normalised to sum to one (uniform for forests and bagging).
    classes : ndarray of shape (2,)

    Raises
    ------
    NotFittedError
        The ensemble is not fitted.
    InputError
        Not a binary voting ensemble, or a member predicts something other than the two
        classes, or X does not match the ensemble.
    """
    estimator = _unwrap(estimator)
    kind = _kind(estimator)
    _check_fitted_ensemble(estimator, kind)
    T = _n_members(estimator, kind)
    raw = _raw_weights(estimator, kind, T)
    if not np.all(np.isfinite(raw)):
        raise InputError("The ensemble's member weights contain NaN or inf.")
    signs = np.where(raw < 0, -1, 1)
    alpha = np.abs(raw)
    if alpha.sum() <= 0:
        raise InputError("Every member weight of the ensemble is zero: nothing votes.")
    H = _member_columns(estimator, kind, X, np.arange(T), signs)
    return H, alpha / alpha.sum(), np.asarray(estimator.classes_)


def ensemble_hypothesis_space_size(estimator: Any, n_thresholds: int = 100) -> int:
    r"""An estimate of :math:`|\mathscr H|` for the EMargin of a fitted ensemble (the QMM paper).

    The QMM paper (after Wang et al. 2011) scales features to [0, 1] and lets every split use
    one of ``n_thresholds`` = :math:`K` fixed thresholds, so a split node has
    :math:`2Kp` choices (feature, threshold, orientation) and a tree with :math:`s` split
    nodes one of :math:`(2Kp)^s` (its depth-2 example: :math:`s = 3`,
    :math:`|\mathscr H| = (2 \times 100 \times p)^3`).  We take :math:`s` as the largest
    number of split nodes of any member tree (1 for stumps, at most 3 for depth 2; for
    fully grown trees, for which the paper gives no count, the largest tree actually grown —
    an estimate, documented as such).  For optirules boosters: literals
    :math:`2p + 2`, parities of degree :math:`\le d` :math:`2\sum_{k=0}^{d}\binom pk`,
    stumps :math:`2Kp`, CART with :math:`L` leaves :math:`(2Kp)^{L-1}`.

    Returns
    -------
    int
        The estimate (an exact Python integer; it may be huge).

    Raises
    ------
    InputError
        Members of a kind with no rule above: pass ``hypothesis_space_size`` yourself.
    """
    estimator = _unwrap(estimator)
    kind = _kind(estimator)
    _check_fitted_ensemble(estimator, kind)
    K = int(n_thresholds)
    if kind == "optirules":
        p = int(getattr(estimator, "n_features_in_", 0))
        names = getattr(estimator, "feature_names_", None)
        if names is not None:
            p = len(names)
        wl = type(estimator.weak_learner_).__name__
        if wl == "LiteralLearner":
            return 2 * p + 2
        if wl == "ParityLearner":
            d = int(estimator.weak_learner_.max_degree)
            return 2 * sum(math.comb(p, k) for k in range(d + 1))
        if wl == "StumpLearner":
            return 2 * K * p
        if wl == "CartLearner":
            leaves = int(getattr(estimator.weak_learner_, "max_leaf_nodes", 16) or 16)
            return (2 * K * p) ** max(1, leaves - 1)
        raise InputError(f"No |H| rule for the weak learner {wl}: pass hypothesis_space_size.")
    splits = 0
    p = 0
    for t, member in enumerate(estimator.estimators_):
        tree = getattr(member, "tree_", None)
        if tree is None:
            raise InputError(
                f"Member {t} ({type(member).__name__}) is not a decision tree, so |H| cannot be "
                "counted from fixed thresholds: pass hypothesis_space_size yourself.")
        splits = max(splits, int(tree.node_count - tree.n_leaves))
        p = max(p, int(getattr(member, "n_features_in_", 0)))
    return (2 * K * max(p, 1)) ** max(splits, 1)


# =========================================================================== base class
#: a fraction of the members in (0, 1]
_FRACTION = [Number(numbers.Real, 0, 1, closed="right")]


def _as_member_matrix(X: Any) -> np.ndarray:
    from sklearn.utils import check_array

    try:  # scikit-learn's own messages for sparse, complex, empty, 1-D, NaN and inf input
        arr = check_array(X, accept_sparse=False, dtype=float, ensure_all_finite=True)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{exc} With estimator=None, X is the (n_samples, n_members) "
                         "member-prediction matrix H of -1/+1 entries.") from None
    if np.any((arr != 1.0) & (arr != -1.0)):
        raise InputError("With estimator=None, X is the member-prediction matrix H and must "
                         "hold only -1 and +1 (map {0, 1} predictions with 2*H - 1), and no "
                         "NaN.")
    return arr.astype(np.int8)


class _BasePruner(ClassifierMixin, BaseEstimator, metaclass=ABCMeta):
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
            if hasattr(est, "n_features_in_"):
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
        self
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
        if not hasattr(self, "weights_"):
            raise NotFittedError(f"This {type(self).__name__} is not fitted yet: call fit(X, y) "
                                 "on the pruning rows first.")

    def member_matrix(self, X: Any, members: Any = None) -> np.ndarray:
        """Columns ``members`` (default: all) of the member-prediction matrix for rows X."""
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
        r"""The pruned vote :math:`\sum_{t \in \text{kept}} w_t h_t(\mathbf x) \in [-1, 1]`."""
        self._check_fitted()
        H = self.member_matrix(X, self.kept_)
        return H @ self.weights_[self.kept_]

    def predict(self, X: Any) -> np.ndarray:
        """``classes_[1]`` where the pruned vote is positive, else ``classes_[0]``."""
        F = self.decision_function(X)
        return self.classes_[(F > 0).astype(int)]

    def predict_proba(self, X: Any) -> np.ndarray:
        """Vote shares ``[(1 - F)/2, (1 + F)/2]`` of the pruned vote (not calibrated)."""
        F = self.decision_function(X)
        p = np.clip((1.0 + F) / 2.0, 0.0, 1.0)
        return np.column_stack([1.0 - p, p])

    # ------------------------------------------------------------------ reading
    def _member_text(self, t: int) -> str:
        """Member ``t`` in words: a boosting hypothesis as its rule, else its position."""
        if self._kind_ == "optirules":
            from ._boosting import hypothesis_text

            e = self.ensemble_
            names = e.feature_names_
            return hypothesis_text(e.hypotheses_[t], names,
                                   getattr(e, "binarizer_", None) is not None and names is not None)
        names = getattr(self, "feature_names_in_", None) if self._kind_ == "matrix" else None
        return f"member {names[t]}" if names is not None else f"member {t + 1}"

    def _kept_by_weight(self) -> list[int]:
        return sorted((int(t) for t in self.kept_), key=lambda t: (-self.weights_[t], t))

    def to_text(self) -> str:
        """The pruned vote: the kept members with their weights, largest first."""
        self._check_fitted()
        pos, neg = label_text(self.classes_[1]), label_text(self.classes_[0])
        order = self._kept_by_weight()
        return vote_block(f"{type(self).__name__}: predict {pos} if the weighted vote of the "
                          f"{self.n_kept_} kept of {self.n_members_} members > 0, else {neg} "
                          "(a member votes +1 or -1)", self.weights_,
                          {t: self._member_text(t) for t in order}, order)

    def __str__(self) -> str:
        return text_or_repr(self, "weights_")

    def _decision_support(self, X: Any) -> tuple[list[list[str]], list[list[str]]]:
        order = self._kept_by_weight()
        H = self.member_matrix(X, order)
        items = [vote_text(self.weights_[t], self._member_text(t)) for t in order]
        neg = [[items[j] for j in np.flatnonzero(row < 0)] for row in H]
        pos = [[items[j] for j in np.flatnonzero(row > 0)] for row in H]
        return neg, pos

    def explain(self, X: Any):
        """A DataFrame, one row per row of ``X``: ``prediction``, ``score`` (the vote share of
        it, :meth:`predict_proba`), ``rules`` (the kept members that voted for it, with their
        weights, largest first), ``fired`` and ``text`` (:mod:`optirules.learners._explain`)."""
        self._check_fitted()
        return binary_explain(self, X)


# =========================================================================== QMM
class QMMPruner(_BasePruner):
    r"""QMM ensemble pruning (the QMM paper): QR pivoting plus the margin-percentile QP.

    Builds :math:`\mathbf H` on the pruning rows and solves, through
    :class:`optirules.models.QMMModel` (the QMM paper, its eq. 19 and Algorithm 2),

    .. math::

        \min_{\mathbf w} \ \mathbf w^\top \hat{\boldsymbol\Sigma}' \mathbf w
        \quad \text{s.t.} \quad
        \boldsymbol\Lambda'_\upsilon \mathbf w \ge \boldsymbol\varphi'_\upsilon, \quad
        \mathbf 1^\top \mathbf w = 1, \quad \mathbf w \ge 0,

    on the QR basis :math:`\mathbf H'` of :math:`\mathbf H` after identical members were
    merged (their :math:`\alpha` added to the first copy), with
    :math:`\hat{\boldsymbol\Sigma}' = \operatorname{cov}(\mathbf H' \bullet \mathbf y)` and the
    :math:`\lceil n\upsilon\rceil` smallest margins protected.  Members with zero weight are
    pruned.  Linearly dependent members that are *not* identical to another one are handled
    as ``dependent`` says (default ``"keep"``: they stay in the QP as variables, so the
    reference vote is the original one; the paper drops them, ``"drop"``, which changes the
    vote when e.g. a stump and its negation are both members); the weight moved is
    ``moved_weight_``.  When the covariance of the QR basis is singular (the paper's
    :math:`n < T` case) the QP is not solved and the QR-reduced ensemble keeps its reference
    weights, as the paper does (``singular_covariance="fallback"``, recorded in
    ``singular_covariance_``); ``"solve"`` solves it anyway.  If the QP cannot be solved the
    model falls back to the reference weights, warns with ``QMMFallbackWarning`` and sets
    ``fallback_used_``.

    Parameters
    ----------
    estimator : fitted ensemble or None, default=None
        The ensemble to prune (module docstring); ``None`` means ``X`` is the
        member-prediction matrix.
    upsilon : float in (0, 1] or "emargin", default=0.5
        Fraction of smallest margins to protect.  The QMM paper uses 0.5 for AdaBoost and 0.25
        for random forests.  ``"emargin"`` takes it from the Equilibrium margin (Wang et al.
        2011), which needs :math:`|\mathscr H|`.
    hypothesis_space_size : "auto", int or float, default="auto"
        :math:`|\mathscr H|` for ``upsilon="emargin"``; ``"auto"`` uses
        :func:`ensemble_hypothesis_space_size` (trees on ``n_thresholds`` fixed thresholds,
        as the paper describes).  Ignored for a numeric ``upsilon``.
    n_thresholds : int, default=100
        :math:`K` of that estimate.
    confidence : float, default=0.95
        Confidence level of the EMargin bound (the paper's :math:`\delta` is
        ``1 - confidence``).
    dependent : {"keep", "drop", "lstsq"}, default="keep"
        How linearly dependent, non-identical members are handled (see
        :class:`~optirules.models.QMMModel`): ``"keep"`` (default, departs from the paper:
        they stay in the QP), ``"drop"`` (the paper's Algorithm 2: dropped, alpha'
        renormalised; ``"proportional"`` is an accepted older name), ``"lstsq"`` (their
        weight moved onto the basis by a simplex-constrained least-squares fit).
    singular_covariance : {"fallback", "solve"}, default="fallback"
        What to do when the covariance of the QR basis is singular: ``"fallback"`` (the
        paper's rule: no QP, reference weights) or ``"solve"`` (solve the QP anyway).
    margin_reference : {"basis", "original"}, default="basis"
        Whose lower margins the QP protects (see :class:`~optirules.models.QMMModel`).
    formulation : {"covariance", "least_squares"}, default="covariance"
        The paper's covariance QP, or the same QP as least squares without the covariance
        (see :class:`~optirules.models.QMMModel`; same optimum).
    margin_constraints : {"auto", "generated", "all"}, default="auto"
        Margin rows added as they are violated, or all at once (same optimum); ``"auto"``
        generates them on large QPs (see :class:`~optirules.models.QMMModel`).
    interface : {"auto", "direct", "cvxpy"}, default="auto"
        How the QP reaches the solver: ``"direct"``, its own API with prebuilt matrices
        (Clarabel, OSQP, SCS, Gurobi, CPLEX, HiGHS), ``"cvxpy"``, the declarative cvxpy
        model; ``"auto"`` takes the direct path where there is one, HiGHS excepted (see
        :class:`~optirules.models.QMMModel`; same optimum).
    solver : str, default="scs"
        Any QP-capable backend of :func:`optirules.solvers.solve`; SCS (tolerances 1e-9)
        the fastest in ``benchmarks/results/qmm.md``, "clarabel" (interior point) reaches the same weights (HiGHS and
        SCIP are refused above 100 members; the size-limited Gurobi wheel from PyPI refuses
        dense QPs of a few hundred members, a SolverError quoting it).
    solver_options : dict, optional
        Extra options for the solver.
    time_limit : float, optional
        Seconds for the QP solve (all rounds); a solve stopped by it returns its weights if
        they meet the margin rows (``status_`` says ``time_limit``), else the reference
        weights (the fallback, ``fallback_used_``).
    verbose : bool, default=False
        Log progress (``logging``, logger ``optirules.learners.pruning``) and show the
        solver's output.
    member_weights : array-like of shape (n_members,), optional
        Override the ensemble's weights :math:`\boldsymbol\alpha`.

    Attributes
    ----------
    weights_, kept_, n_kept_, pruning_rate_, n_members_, member_weights_, classes_, train_error_
        See the module docstring.
    model_ : QMMModel
        The solved model (QR basis, covariance, protected rows, result).
    status_ : Status or None
        The solver's status (``None`` when the solver was not called).
    fallback_used_ : bool
    fallback_reason_ : str
    merged_weight_ : float
        Weight carried from identical members to their first copy.
    moved_weight_ : float
        Weight of dependent, non-identical members given to other members.
    margin_shift_ : float
        Largest change of a training margin caused by that move.
    rank_ : int
        Numerical rank of :math:`\mathbf H`.
    singular_covariance_ : bool
        Whether the covariance of the QR basis was singular (the QP was then not solved
        unless ``singular_covariance="solve"``).
    upsilon_ : float
        The percentile used (from the EMargin if asked).
    emargin_ : EMarginResult or None
    hypothesis_space_size_ : int or None
        :math:`|\mathscr H|` used by the EMargin.
    """

    _parameter_constraints: dict = {
        **_BasePruner._parameter_constraints,
        "upsilon": [Number(numbers.Real, 0, 1, closed="right"),
                    CaseInsensitiveStrOptions({"emargin"})],
        # None is refused with upsilon="emargin" (models._margins says what to pass)
        "hypothesis_space_size": [StrOptions({"auto"}), None,
                                  Number(numbers.Real, 8, None, closed="neither")],
        "n_thresholds": [Number(numbers.Integral, 1, None, closed="left")],
        "confidence": [Number(numbers.Real, 0, 1, closed="neither")],
        "dependent": [StrOptions({"keep", "drop", "lstsq"}),
                      Hidden(StrOptions({"proportional"}))],  # the older name of "drop"
        "margin_reference": [StrOptions({"basis", "original"})],
        "singular_covariance": [StrOptions({"fallback", "solve"})],
        "formulation": [StrOptions({"covariance", "least_squares"})],
        "margin_constraints": [StrOptions({"auto", "generated", "all"})],
        "interface": [StrOptions({"auto", "direct", "cvxpy"})],
        # checked against the installed solvers by require_support in _check_params
        "solver": [str, Mapping],
        "solver_options": [None, dict],
        "time_limit": TIME_LIMIT,
    }

    def __init__(self, estimator: Any = None, *, upsilon: float | str = 0.5,
                 hypothesis_space_size: Any = "auto", n_thresholds: int = 100,
                 confidence: float = 0.95, dependent: str = "keep",
                 margin_reference: str = "basis", singular_covariance: str = "fallback",
                 formulation: str = "covariance", margin_constraints: str = "auto",
                 interface: str = "auto",
                 solver: str = "scs", solver_options: dict | None = None,
                 time_limit: float | None = None, member_weights: Any = None,
                 verbose: bool = False):
        super().__init__(estimator, member_weights=member_weights, verbose=verbose)
        self.upsilon = upsilon
        self.hypothesis_space_size = hypothesis_space_size
        self.n_thresholds = n_thresholds
        self.confidence = confidence
        self.formulation = formulation
        self.margin_constraints = margin_constraints
        self.interface = interface
        self.time_limit = time_limit
        self.dependent = dependent
        self.margin_reference = margin_reference
        self.singular_covariance = singular_covariance
        self.solver = solver
        self.solver_options = solver_options

    def _check_params(self) -> None:
        super()._check_params()
        if self.solver_options and "time_limit" in self.solver_options:
            raise InputError("Pass the time limit as QMMPruner(time_limit=...), not in "
                             "solver_options.")
        from ..solvers import require_support

        require_support(self.solver, "QMMPruner")  # before the members are evaluated

    def _space_size(self) -> Any:
        hs = self.hypothesis_space_size
        if not (isinstance(hs, str) and hs == "auto"):
            return hs
        if self.estimator is None:
            raise InputError(
                "upsilon='emargin' with a member-prediction matrix needs hypothesis_space_size "
                "(|H| of the members' hypothesis class): pass a number, e.g. "
                "optirules.models._margins.tree_hypothesis_space_size(p, 100, depth).")
        return ensemble_hypothesis_space_size(_unwrap(self.estimator), self.n_thresholds)

    def _prune(self, H: np.ndarray, y: np.ndarray, alpha: np.ndarray) -> np.ndarray:
        from ..models import QMMModel

        emargin = isinstance(self.upsilon, str)
        hs = self._space_size() if emargin else None
        self.hypothesis_space_size_ = hs
        model = QMMModel(H, y, alpha, upsilon="emargin" if emargin else float(self.upsilon),
                         hypothesis_space_size=hs, confidence=self.confidence,
                         dependent=self.dependent, margin_reference=self.margin_reference,
                         singular_covariance=self.singular_covariance,
                         formulation=self.formulation,
                         margin_constraints=self.margin_constraints,
                         interface=self.interface)
        log = getattr(self, "_log", None)
        if log:
            log.info("QMMPruner: QP over %d weights (rank %d), %d protected rows, upsilon "
                     "%.3f, solver %s", model.basis_.size, model.rank_,
                     model.lower_rows_.size, model.upsilon_, self.solver)
        model.solve(self.solver, time_limit=self.time_limit, verbose=bool(self.verbose),
                    **(self.solver_options or {}))
        if log:
            log.info("QMMPruner: status %s, %d margin rows in %s round(s)%s",
                     None if model.status_ is None else model.status_.value,
                     getattr(model, "n_margin_rows_", 0), getattr(model, "generation_rounds_", 0),
                     f"; fallback: {model.fallback_reason_}" if model.fallback_used_ else "")
        self.model_ = model
        self.status_ = model.status_
        self.fallback_used_ = bool(model.fallback_used_)
        self.fallback_reason_ = model.fallback_reason_
        self.merged_weight_ = float(model.merged_weight_)
        self.moved_weight_ = float(model.moved_weight_)
        self.margin_shift_ = float(model.margin_shift_)
        self.rank_ = int(model.rank_)
        self.singular_covariance_ = bool(model.singular_covariance_)
        self.upsilon_ = float(model.upsilon_)
        self.emargin_ = model.emargin_
        return model.weights_

    def export_model(self, path: str | os.PathLike) -> list[Path]:
        """Write the QMM QP of this fit (all protected margin rows, on the QR-reduced
        members) as ``.lp`` or ``.mps`` by suffix; returns the files written.

        HiGHS reads the file back (:func:`optirules.solvers.read_model`).  KappaPruner and
        DREPPruner are greedy searches, not optimization models: they have nothing to export.
        """
        self._check_fitted()
        path = Path(path)
        if path.suffix.lower() not in (".lp", ".mps"):
            raise InputError(f"cannot write {str(path)!r}: use a .lp or .mps suffix.")
        self.model_.write(path)
        return [path]


# =========================================================================== kappa
class KappaPruner(_BasePruner):
    r"""Kappa pruning (Margineantu and Dietterich 1997), as the QMM paper runs it: keep 20%.

    For every pair of members :math:`(a, b)`, :math:`a < b`, Cohen's :math:`\kappa` of their
    predictions on the pruning rows is computed (the QMM paper eqs. 21-23; see
    :func:`~optirules.learners._diversity.pairwise_kappa`).  The **pairs** are sorted by
    increasing :math:`\kappa` (most diverse pair first; ties, to 12 decimals, by
    :math:`(a, b)`), and the
    members of each pair, :math:`a` then :math:`b`, are added to the kept set unless already
    in it, until :math:`M = \lceil \text{fraction}\cdot T\rceil` members are kept.  Kept
    members vote with their original weights :math:`\alpha_t` (renormalised), as
    Margineantu and Dietterich do for AdaBoost; forests vote uniformly.

    Ranking *pairs* is the method: ranking single members (e.g. by their mean kappa with
    the others) is a different method that keeps a different subset.

    Parameters
    ----------
    estimator : fitted ensemble or None, default=None
    fraction : float in (0, 1], default=0.2
        Fraction of members to keep (the QMM paper: prune 80%).
    member_weights : array-like, optional
    verbose : bool, default=False
        Log progress (``logging``, logger ``optirules.learners.pruning``).

    Attributes
    ----------
    kappa_ : ndarray of shape (n_members, n_members)
        Pairwise kappa on the pruning rows.
    pair_order_ : ndarray of shape (n_pairs_used, 2)
        The pairs consumed, in order.
    """

    _parameter_constraints: dict = {**_BasePruner._parameter_constraints,
                                    "fraction": _FRACTION}

    def __init__(self, estimator: Any = None, *, fraction: float = 0.2,
                 member_weights: Any = None, verbose: bool = False):
        super().__init__(estimator, member_weights=member_weights, verbose=verbose)
        self.fraction = fraction

    def _prune(self, H: np.ndarray, y: np.ndarray, alpha: np.ndarray) -> np.ndarray:
        from ._diversity import pairwise_kappa

        T = H.shape[1]
        M = min(T, max(1, math.ceil(float(self.fraction) * T - 1e-9)))
        K = pairwise_kappa(H)
        self.kappa_ = K
        kept: list[int] = []
        used: list[tuple[int, int]] = []
        if T == 1:
            kept = [0]
        else:
            a, b = np.triu_indices(T, 1)
            # by kappa (rounded to 1e-12 so that round-off does not break exact ties),
            # then a, then b
            order = np.lexsort((b, a, np.round(K[a, b], 12)))
            seen = np.zeros(T, dtype=bool)
            for p in order:
                if len(kept) >= M:
                    break
                used.append((int(a[p]), int(b[p])))
                for t in (int(a[p]), int(b[p])):
                    if not seen[t] and len(kept) < M:
                        seen[t] = True
                        kept.append(t)
        self.pair_order_ = np.asarray(used, dtype=int).reshape(-1, 2)
        self.selection_order_ = np.asarray(kept, dtype=int)
        w = np.zeros(T)
        w[kept] = alpha[kept]
        if w.sum() <= 0:  # every kept member had weight 0: vote uniformly among them
            w[kept] = 1.0
        return w


# =========================================================================== DREP
def _vote_error(S: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Training error of votes ``S`` (n,) or (n, k) with ties counted as half an error."""
    yS = S * (y[:, None] if S.ndim == 2 else y)
    scale = np.max(np.abs(S)) if S.size else 1.0
    tol = 1e-12 * max(1.0, float(scale))
    return np.mean(np.where(yS < -tol, 1.0, np.where(yS > tol, 0.0, 0.5)), axis=0)


class DREPPruner(_BasePruner):
    r"""Diversity Regularized Ensemble Pruning (Li, Yu and Zhou 2012).

    With :math:`H^*` the current sub-ensemble and
    :math:`f_{H^*}(\mathbf x) = \sum_{t \in H^*} \alpha_t h_t(\mathbf x) / \sum_{t\in H^*}\alpha_t`
    its vote, DREP measures how much a candidate :math:`h` agrees with it on the pruning rows,

    .. math::

        \operatorname{diff}(h, H^*) = \frac1n \sum_{i=1}^n h(\mathbf x_i)\, f_{H^*}(\mathbf x_i)

    (small = diverse), and runs (Li et al. 2012, Algorithm 1):

    1. :math:`H^* \leftarrow \{h^\circ\}`, the member of least training error (ties: lowest
       index); the others are the remaining set :math:`R`.
    2. Repeat: sort :math:`R` by increasing :math:`\operatorname{diff}(h, H^*)` (ties by
       index); :math:`\Gamma \leftarrow` the first :math:`\lceil \rho |R| \rceil`
       (:math:`\rho` = ``candidate_fraction``);
       add to :math:`H^*` the :math:`h \in \Gamma` whose addition gives the least
       training error (ties: the more diverse one, i.e. earlier in :math:`\Gamma`);
    3. until the training error cannot be reduced.

    The diversity term acts only through :math:`\Gamma`: :math:`\rho = 1` is plain greedy
    forward selection by error (reduced-error pruning), smaller :math:`\rho` restricts
    each step to the most diverse candidates.

    ``voting="uniform"`` (default) combines the sub-ensemble by plain majority vote, the
    setting of Li et al. (2012); ``"weighted"`` uses the original :math:`\alpha` (the same
    for forests).  A tied vote counts as half an error.

    **Stopping.**  A vote of two members equals, on every row, the heavier one or a tie,
    so a second member can never lower the error of the best single member: the literal
    rule (stop at the first addition that does not reduce the error; ``patience=1``)
    always returns one member.  We therefore stop after
    ``patience`` consecutive additions without a new lowest training error and return the
    shortest prefix of the additions that reached the lowest error.  With plain voting the
    error also see-saws between odd and even sizes (even sizes have ties), and weak but
    diverse members need a few additions before they outvote the first one, so the default
    looks ahead four additions (``patience=5``); ``patience >= T`` follows the greedy path
    to the end and returns its best prefix.

    Parameters
    ----------
    estimator : fitted ensemble or None, default=None
    candidate_fraction : float in (0, 1], default=0.5
        :math:`\rho` of Li et al.: fraction of the most diverse remaining members among
        which each step chooses.
        (Li et al. select it from {0.2, 0.25, ..., 0.5} by validation; the QMM paper does not
        say which value it used.)
    patience : int, default=5
        Consecutive additions without a new lowest error before stopping (above).
    voting : {"uniform", "weighted"}, default="uniform"
        How the sub-ensemble votes, during the search and in ``predict``.
    member_weights : array-like, optional
        Override the ensemble's weights (used with ``voting="weighted"``).
    verbose : bool, default=False
        Log every step (``logging``, logger ``optirules.learners.pruning``).

    Attributes
    ----------
    selection_order_ : ndarray of int
        Members in the order added (all additions tried, the kept ones first).
    training_errors_ : ndarray
        Training error after each addition (index 0: the first member alone).
    history_ : list of dict
        Per step: ``candidates`` (:math:`\Gamma`), ``diff`` (their diff values),
        ``chosen``, ``error``.
    """

    _parameter_constraints: dict = {
        **_BasePruner._parameter_constraints,
        "candidate_fraction": _FRACTION,
        "patience": [Number(numbers.Integral, 1, None, closed="left")],
        "voting": [StrOptions({"uniform", "weighted"})],
    }

    def __init__(self, estimator: Any = None, *, candidate_fraction: float = 0.5,
                 patience: int = 5, voting: str = "uniform", member_weights: Any = None,
                 verbose: bool = False):
        super().__init__(estimator, member_weights=member_weights, verbose=verbose)
        self.candidate_fraction = candidate_fraction
        self.patience = patience
        self.voting = voting

    def _prune(self, H: np.ndarray, y: np.ndarray, alpha: np.ndarray) -> np.ndarray:
        n, T = H.shape
        Hf = H.astype(float)
        a = alpha.astype(float)
        if self.voting == "uniform":
            a = np.where(a > 0, 1.0, 0.0)
        member_err = np.mean(Hf * y[:, None] < 0, axis=0)
        eligible = np.flatnonzero(a > 0)
        first = int(eligible[np.argmin(member_err[eligible])])
        order = [first]
        remaining = [int(t) for t in eligible if t != first]
        S = a[first] * Hf[:, first]
        wsum = a[first]
        errors = [float(_vote_error(S, y))]
        history: list[dict[str, Any]] = []
        best_err, best_len, fails = errors[0], 1, 0
        rho = float(self.candidate_fraction)
        log = getattr(self, "_log", None)
        while remaining and fails < int(self.patience):
            R = np.asarray(remaining)
            agree = Hf[:, R].T @ S  # n * wsum * diff(h, H*); exact for plain voting
            diff = agree / (n * wsum)
            srt = np.lexsort((R, agree))
            k = max(1, math.ceil(rho * R.size - 1e-9))
            gamma = R[srt[:k]]
            cand_err = _vote_error(S[:, None] + Hf[:, gamma] * a[gamma], y)
            j = int(np.argmin(cand_err))  # first minimum = most diverse among ties
            chosen = int(gamma[j])
            S = S + a[chosen] * Hf[:, chosen]
            wsum += a[chosen]
            order.append(chosen)
            remaining.remove(chosen)
            err = float(cand_err[j])
            errors.append(err)
            history.append({"candidates": gamma.copy(), "diff": diff[srt[:k]].copy(),
                            "chosen": chosen, "error": err})
            if log:
                log.info("DREPPruner: step %d: %d candidates, added member %d, training "
                         "error %.4f", len(order) - 1, k, chosen, err)
            if err < best_err - 1e-12:
                best_err, best_len, fails = err, len(order), 0
            else:
                fails += 1
        self.selection_order_ = np.asarray(order, dtype=int)
        self.training_errors_ = np.asarray(errors)
        self.history_ = history
        kept = self.selection_order_[:best_len]
        w = np.zeros(T)
        w[kept] = a[kept]
        return w
