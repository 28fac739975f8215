"""AdaBoost by resampling with CART trees, for ensembles of fully grown trees.

scikit-learn's ``AdaBoostClassifier`` reweights and stops at the first tree without training
error, which a fully grown tree usually is; the pruning experiments of *Ensemble Pruning via
Margin Maximization* need 500 full trees, so they are boosted by resampling instead.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from ...errors import InputError, OptirulesError
from ...weak import check_tree_input
from .._checks import (
    CLASS_WEIGHT,
    RANDOM_STATE,
    VERBOSE,
    Number,
    check_2d,
    check_binary_targets,
    check_fitted,
    check_random_state,
    class_sample_weight,
    input_names,
    n_rows,
    normalized_weights,
    progress_logger,
    validate_params,
)
from .._explain import label_text, vote_block, vote_text
from .._multiclass import check_label_shape
from .._text import TextMixin

__all__ = ["ResampledAdaBoostClassifier"]


class ResampledAdaBoostClassifier(TextMixin, ClassifierMixin, BaseEstimator):
    r"""AdaBoost by resampling with CART trees (Freund and Schapire 1996, "boosting by resampling").

    Round :math:`t` draws a bootstrap sample of :math:`n` rows from the weights
    :math:`D_t`, fits an unweighted ``DecisionTreeClassifier(max_depth)`` on it, and scores
    the tree on the whole training set:

    .. math::

        \epsilon_t = \sum_i D_t(i)\, I[h_t(\mathbf x_i) \ne y_i], \qquad
        \alpha_t = \tfrac12 \ln\frac{1 - \bar\epsilon_t}{\bar\epsilon_t}, \qquad
        D_{t+1}(i) \propto D_t(i)\, e^{-\alpha_t y_i h_t(\mathbf x_i)},

    with :math:`\bar\epsilon_t = \max(\epsilon_t, 10^{-3})`, so that a tree without
    training error gets the finite vote :math:`\tfrac12\ln 999 \approx 3.45` (its update
    leaves :math:`D` unchanged and boosting continues on new resamples).  A tree with
    :math:`\epsilon_t \ge 1/2` is discarded and the weights are reset to uniform (Bauer and
    Kohavi 1999; to ``sample_weight`` when given); after ``10 * n_estimators`` discarded
    trees the booster stops.

    Unlike scikit-learn's ``AdaBoostClassifier`` it does not stop when a fully grown tree
    fits the training data, which is what the QMM paper's full-tree ensembles need.  Members
    predict class labels; ``estimators_`` and ``estimator_weights_`` follow scikit-learn's
    AdaBoost, so the pruners read it the same way.

    Parameters
    ----------
    n_estimators : int, default=200
    max_depth : int or None, default=None
        Depth of the trees (1 = stumps, None = fully grown).
    random_state : int, RandomState or None, default=None
        Seed of the resampling and of the trees: None, an int in ``[0, 2**32 - 1]`` or a
        ``numpy.random.RandomState``.
    verbose : bool, default=False
        Log every round (kept or discarded tree, its weighted error and vote) through
        :mod:`logging` (logger ``optirules.learners.resampled_adaboost``, level INFO).
    class_weight : None, "balanced" or dict {label: weight}, default=None
        Multiplies ``sample_weight`` by the weight of each row's class, as in scikit-learn
        (``"balanced"``: ``n_samples / (n_classes * count(class))``).
    """

    _parameter_constraints: dict = {
        "n_estimators": [Number(numbers.Integral, 1, None, closed="left")],
        "max_depth": [None, Number(numbers.Integral, 1, None, closed="left")],
        "random_state": RANDOM_STATE,
        "verbose": VERBOSE,
        "class_weight": CLASS_WEIGHT,
    }

    def __init__(self, n_estimators: int = 200, max_depth: int | None = None,
                 random_state: Any = None, verbose: bool = False, *,
                 class_weight: Any = None):
        self.class_weight = class_weight
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.random_state = random_state
        self.verbose = verbose

    def __sklearn_tags__(self):
        """Binary labels only."""
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _check_params(self) -> None:
        """Every parameter, with an :class:`InputError` naming it (before any work)."""
        validate_params(self)

    def _validate_X(self, X: Any, reset: bool) -> np.ndarray:
        """``X`` as a finite float matrix, with an :class:`InputError` naming the column
        that holds NaN or infinity (the same check in ``fit`` and at prediction)."""
        from sklearn.utils.validation import validate_data

        check_2d(X)
        try:
            Xa = validate_data(self, X, reset=reset, dtype="numeric", ensure_all_finite=False)
        except OptirulesError:
            raise
        except (ValueError, TypeError) as exc:
            advice = ("pass numeric features (encode categorical columns first)" if reset
                      else "pass the numeric columns the model was fitted on")
            message = f"{exc} ResampledAdaBoostClassifier needs a 2-D numeric X; {advice}."
            if isinstance(exc, TypeError):  # an entry that is no number (scikit-learn's type)
                raise TypeError(message) from None
            raise InputError(message) from None
        Xa = np.asarray(Xa, dtype=np.float64)
        bad = ~np.isfinite(Xa)
        if bad.any():
            j = int(np.flatnonzero(bad.any(axis=0))[0])
            name = (input_names(self) or [f"x{k}" for k in range(Xa.shape[1])])[j]
            if np.isnan(Xa[:, j]).any():
                raise InputError(f"column {name!r} has NaN; the trees need finite numbers. "
                                 "Impute the missing values or drop those rows.")
            raise InputError(f"column {name!r} has infinite values; the trees need finite "
                             "numbers. Replace them by finite ones or drop those rows.")
        if reset:  # numbers the trees (float32, steps above 1e-7) can hold and split
            names = input_names(self) or [f"x{j}" for j in range(Xa.shape[1])]
            check_tree_input(Xa, "ResampledAdaBoostClassifier", names)
            return Xa
        # beyond the float32 range a value is past every threshold of the trees (fitted on
        # float32 values): at the float32 extreme it goes the same way, where scikit-learn
        # would refuse its infinite float32 copy (scikit-learn's finiteness check then sums
        # the float32 rows, which may overflow: the predictions silence that warning)
        limit = float(np.finfo(np.float32).max)
        return np.clip(Xa, -limit, limit)

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> ResampledAdaBoostClassifier:
        """Boost ``n_estimators`` trees on ``(X, y)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite numeric features.
        y : array-like of shape (n_samples,)
            Two classes.
        sample_weight : array-like of shape (n_samples,), optional
            The distribution the first round resamples from (normalized; uniform by
            default), and the one a discarded tree resets the weights to.  Multiplied by
            the class weights of ``class_weight``.

        Returns
        -------
        self
        """
        from sklearn.tree import DecisionTreeClassifier

        self._check_params()
        check_label_shape(y)
        sample_weight = class_sample_weight(self.class_weight, y, sample_weight)
        if sample_weight is not None:  # checked before X, so its message comes first
            normalized_weights(sample_weight, n_rows(X))
        X = self._validate_X(X, reset=True)
        classes, positive = check_binary_targets(y, X.shape[0],
                                                 "ResampledAdaBoostClassifier")
        y = classes[positive.astype(np.intp)]
        self.classes_ = classes
        rng = check_random_state(self.random_state)
        n = X.shape[0]
        D1 = normalized_weights(sample_weight, n)
        D = D1.copy()
        trees, alphas, errors = [], [], []
        discarded = 0
        log = progress_logger("learners.resampled_adaboost", self.verbose)
        while len(trees) < self.n_estimators and discarded < 10 * self.n_estimators:
            idx = rng.choice(n, size=n, replace=True, p=D)
            tree = DecisionTreeClassifier(max_depth=self.max_depth,
                                          random_state=rng.randint(np.iinfo(np.int32).max))
            tree.fit(X[idx], y[idx])
            wrong = tree.predict(X) != y
            eps = float(D[wrong].sum())
            if eps >= 0.5:
                if log is not None:
                    log.info("tree discarded: weighted error %.4f >= 1/2; weights reset", eps)
                discarded += 1
                D = D1.copy()
                continue
            eps_c = max(eps, 1e-3)
            alpha = 0.5 * math.log((1.0 - eps_c) / eps_c)
            D = D * np.exp(np.where(wrong, alpha, -alpha))
            D /= D.sum()
            trees.append(tree)
            alphas.append(alpha)
            errors.append(eps)
            if log is not None:
                log.info("round %d: weighted error %.4f, vote %.4f", len(trees), eps, alpha)
        self.estimators_ = trees
        self.estimator_weights_ = np.asarray(alphas)
        self.estimator_errors_ = np.asarray(errors)
        self.n_discarded_ = discarded
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        r""":math:`\sum_t \alpha_t h_t(\mathbf x) / \sum_t \alpha_t` (> 0 for ``classes_[1]``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the layout of the training data (same columns).

        Returns
        -------
        ndarray of shape (n_samples,)
            The normalized vote of each row, in [-1, 1].
        """
        check_fitted(self, "estimators_")
        X = self._validate_X(X, reset=False)
        F = np.zeros(X.shape[0])
        with np.errstate(over="ignore", invalid="ignore"):  # float32 sums of clipped rows
            for a, tree in zip(self.estimator_weights_, self.estimators_):
                F += a * np.where(tree.predict(X) == self.classes_[1], 1.0, -1.0)
        return F / max(float(self.estimator_weights_.sum()), 1e-300)

    def predict(self, X: Any) -> np.ndarray:
        """``classes_[1]`` where the weighted vote is positive, else ``classes_[0]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the layout of the training data (same columns).

        Returns
        -------
        ndarray of shape (n_samples,)
            The predicted class of each row.
        """
        positive = self.decision_function(X) > 0  # first: it checks that the model is fitted
        return self.classes_[positive.astype(int)]

    def predict_proba(self, X: Any) -> np.ndarray:
        """Vote shares ``[(1 - F)/2, (1 + F)/2]`` of the normalized vote ``F`` (not
        calibrated).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the layout of the training data (same columns).

        Returns
        -------
        ndarray of shape (n_samples, 2)
            The two vote shares of each row, columns in the order of ``classes_``.
        """
        p = np.clip((1.0 + self.decision_function(X)) / 2.0, 0.0, 1.0)
        return np.column_stack([1.0 - p, p])

    def _tree_text(self, t: int) -> str:
        tree = self.estimators_[t]
        return (f"tree {t + 1} (depth {tree.get_depth()}, {tree.get_n_leaves()} leaves, "
                f"weighted error {self.estimator_errors_[t]:.4f})")

    def _by_vote(self) -> list[int]:
        return sorted(range(len(self.estimators_)),
                      key=lambda t: (-self.estimator_weights_[t], t))

    # ------------------------------------------------------------------ text
    # (str, to_text and explain: TextMixin; the last two in the class's own namespace so
    # that the API page, which leaves out inherited members, shows them)
    to_text = TextMixin.to_text
    explain = TextMixin.explain
    _fitted_attribute = "estimators_"

    def _text(self) -> str:
        """``to_text``: the vote, a header line, then one line per tree with its vote,
        largest first."""
        pos, neg = label_text(self.classes_[1]), label_text(self.classes_[0])
        order = self._by_vote()
        return vote_block(f"AdaBoost by resampling: predict {pos} if the weighted vote of "
                          f"{len(self.estimators_)} trees > 0, else {neg}",
                          self.estimator_weights_, {t: self._tree_text(t) for t in order},
                          order)

    def _decision_support(self, X: Any) -> tuple[list[list[str]], list[list[str]]]:
        """Per row, the trees voting for ``classes_[0]`` and for ``classes_[1]``, largest
        vote first (the ``rules`` of ``explain``; its ``score`` is the vote share)."""
        Xv = self._validate_X(X, reset=False)
        order = self._by_vote()
        items = [vote_text(self.estimator_weights_[t], self._tree_text(t)) for t in order]
        with np.errstate(over="ignore", invalid="ignore"):  # float32 sums of clipped rows
            H = np.column_stack([self.estimators_[t].predict(Xv) == self.classes_[1]
                                 for t in order])
        neg = [[items[j] for j in np.flatnonzero(~row)] for row in H]
        pos = [[items[j] for j in np.flatnonzero(row)] for row in H]
        return neg, pos
