r"""Reading the members of a fitted voting ensemble, for the pruners (``_pruning``).

The member-prediction matrix :math:`\mathbf H` (``member_predictions``), the members'
weights and classes, the checks that the ensemble is a fitted binary voting ensemble, and the
:math:`|\mathscr H|` estimate of the EMargin (``ensemble_hypothesis_space_size``).  The
ensembles understood are listed in :mod:`optirules.learners._pruning._estimator`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...errors import InputError, NotFittedError
from .._checks import n_rows

__all__ = ["member_predictions", "ensemble_hypothesis_space_size"]


def _unwrap(estimator: Any) -> Any:
    """The ensemble inside a ``sklearn.frozen.FrozenEstimator`` (which survives ``clone``)."""
    while type(estimator).__name__ == "FrozenEstimator" and hasattr(estimator, "estimator"):
        estimator = estimator.estimator
    return estimator


def _kind(estimator: Any) -> str:
    """Which extraction rule applies to ``estimator``."""
    from sklearn.ensemble import BaggingClassifier, ExtraTreesClassifier, RandomForestClassifier

    from .._boosting._estimator import BoostingClassifier

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

    Parameters
    ----------
    estimator : fitted ensemble
        A fitted voting ensemble of trees (forest, bagging or AdaBoost over decision trees) or
        an optirules ``BoostingClassifier`` (or either wrapped in ``FrozenEstimator``).
    n_thresholds : int, default=100
        :math:`K`, the number of fixed thresholds a split may use.

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

