"""Boosting with interpretable weak learners: AdaBoost, MadaBoost, SmoothBoost, Gavinsky's booster.

Papers: Reyzin's paper = Reyzin, "On Boosting Sparse Parities" (AAAI 2014): AdaBoost, its
Algorithm 1, with stumps, sparse parities and CART-16; Long and Servedio = Long & Servedio,
"Attribute-efficient learning of decision lists and linear threshold functions under
unconcentrated distributions" (NIPS 2006): the smooth boosters of its §2 and §7 with the
best-single-literal weak learner.  All four boosters share one loop:
keep non-negative example weights, normalize them into the distribution ``D_t``, ask the
weak learner for the hypothesis ``h_t`` of largest edge
``gamma_t = sum_i D_t(i) y_i h_t(x_i)`` (weighted error ``eps_t = (1 - gamma_t)/2``),
give it a vote ``alpha_t`` and update the weights.  The final classifier is
``H(x) = sign(sum_t alpha_t h_t(x))`` in every case.  No optimization solver is needed.
"""

from __future__ import annotations

import copy
import inspect
import json
import math
import numbers
import os
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils._param_validation import HasMethods, StrOptions
from sklearn.utils.validation import (
    validate_data,
)

from ..errors import InputError
from ..weak import (
    PreparedData,
    WeakHypothesis,
    WeakLearner,
    check_binary_matrix,
    hypothesis_from_dict,
)
from ._checks import (
    CLASS_WEIGHT,
    RANDOM_STATE,
    TIME_LIMIT,
    VERBOSE,
    Number,
    binarized_input_summary,
    binary_input_summary,
    check_2d,
    check_binarized_input,
    check_binary_targets,
    check_fitted,
    check_random_state,
    class_sample_weight,
    fit_binarizer,
    n_rows,
    normalized_weights,
    progress_logger,
    table_kind,
    validate_params,
)
from ._explain import binary_explain, label_text, text_or_repr, vote_text
from ._json import (
    INT_LIMIT,
    Field,
    check_literal_columns,
    damaged_as_input_error,
    dump_json,
    json_header,
    load_json,
    load_json_header,
    restore_params,
)
from ._multiclass import OneVsRestMixin, one_vs_rest
from ._rules import _column_cache, literal_to_dict, read_literal

__all__ = ["BoostingClassifier", "hypothesis_text", "madaboost_weights", "smoothboost_measure",
           "gavinsky_measure"]

BOOSTERS = ("adaboost", "madaboost", "smoothboost", "gavinsky")
_JSON_FORMAT = "optirules.BoostingClassifier"
#: the JSON layout to_json writes (2: literal table and names once, hypotheses by index)
#: and the layouts from_json reads (1: every hypothesis repeats the names)
_JSON_VERSION = 2
_JSON_VERSIONS = (1, 2)
WEAK_LEARNERS = ("stump", "literal", "parity", "cart")

#: the weighted error below which a hypothesis counts as perfect (AdaBoost/MadaBoost stop)
_PERFECT = 1e-10


def hypothesis_text(h: WeakHypothesis, feature_names: Any = None,
                    literal_names: bool = False) -> str:
    """A weak hypothesis as a rule: ``x3 > 0.788 -> +1 else -1``, ``c0 == a -> +1 else -1``,
    ``x0 <= 0.3885 XOR c0 == a -> -1 else +1``.

    ``feature_names`` name the columns (``x<j>`` when None); with ``literal_names`` every
    column is a 0/1 literal whose name is its condition (a binarizer's), otherwise a 0/1
    column ``x`` reads ``x == 1``.  A tree reads as ``tree(...)``.
    """
    def name(j: int) -> str:
        if feature_names is not None and 0 <= j < len(feature_names):
            return str(feature_names[j])
        return f"x{j}"

    def literal(j: int) -> str:
        return name(j) if literal_names else f"{name(j)} == 1"

    def sides(condition: str, plus_when_true: bool) -> str:
        return f"{condition} -> {'+1 else -1' if plus_when_true else '-1 else +1'}"

    kind = getattr(h, "kind", "")
    if kind == "constant":
        return f"always {'+1' if h.sign > 0 else '-1'}"
    if kind == "stump":
        if literal_names and h.threshold == 0.5:
            return sides(name(h.feature), h.right > 0)
        if h.right > 0:
            return f"{name(h.feature)} > {h.threshold:g} -> +1 else -1"
        return f"{name(h.feature)} <= {h.threshold:g} -> +1 else -1"
    if kind == "literal":
        return sides(literal(h.feature), not h.negated)
    if kind == "parity":
        if not h.features:
            return f"always {'-1' if h.negated else '+1'}"
        # chi_J = +1 on an even number of true literals, i.e. when their XOR is false
        return sides(" XOR ".join(literal(j) for j in h.features), h.negated)
    return h.describe(None if feature_names is None else list(feature_names))


def madaboost_weights(F: np.ndarray, y: np.ndarray, d1: np.ndarray) -> np.ndarray:
    """MadaBoost's weights ``D_1(i) min{1, exp(-y_i F(x_i))}`` (AdaBoost's, capped at ``D_1``).

    Domingo & Watanabe (2000): ``w_t(x) = D_1(x) beta_{[0,t)}^{cons}`` when that product is
    below 1 and ``D_1(x)`` otherwise, with ``beta_s^{cons(h_s, x)} = exp(-alpha_s y h_s(x))``.
    """
    return d1 * np.exp(-np.maximum(y * F, 0.0))


def smoothboost_measure(N: np.ndarray, gamma: float) -> np.ndarray:
    """SmoothBoost's ``M(N) = 1`` for ``N < 0`` and ``(1 - gamma)^{N/2}`` for ``N >= 0``."""
    return np.where(N < 0, 1.0, (1.0 - gamma) ** (np.maximum(N, 0.0) / 2.0))


def gavinsky_measure(N: np.ndarray, epsilon: float) -> np.ndarray:
    """Gavinsky's flat measure: 1 for ``N <= 0``, ``1 - epsilon N`` up to ``N = 1/epsilon``,
    then 0."""
    return np.clip(1.0 - epsilon * N, 0.0, 1.0)


@one_vs_rest
class BoostingClassifier(OneVsRestMixin, ClassifierMixin, BaseEstimator):
    """Boosting with stumps, literals, sparse parities or CART trees (Reyzin; Long and Servedio).

    Let ``D_1`` be the initial distribution (uniform, or proportional to
    ``sample_weight``), ``F_t(x) = sum_{s <= t} alpha_s h_s(x)`` and ``y_i in {-1, +1}``.

    **AdaBoost** (Reyzin's paper, Algorithm 1):

    .. math::

        \\gamma_t = \\sum_i D_t(i) y_i h_t(x_i), \\qquad
        \\alpha_t = \\tfrac12 \\ln\\frac{1 + \\gamma_t}{1 - \\gamma_t}, \\qquad
        D_{t+1}(i) = \\frac{D_t(i) \\exp(-\\alpha_t y_i h_t(x_i))}{Z_t}.

    **MadaBoost** (Domingo & Watanabe 2000, Long and Servedio [8]: "a cap on the weight, prior to
    normalization"): the same ``alpha_t`` (``= ln(1/beta_t)``,
    ``beta_t = sqrt(eps_t / (1 - eps_t))``), weights capped at their initial value,

    .. math::

        D_{t+1}(i) \\propto D_1(i) \\min\\{1, \\exp(-y_i F_t(x_i))\\}.

    **SmoothBoost** (Servedio 2003, Long and Servedio [27]) with parameters ``gamma`` and
    ``theta = gamma / (2 + gamma)`` (Long and Servedio §7), ``N_0 = 0``:

    .. math::

        N_t(i) = N_{t-1}(i) + y_i h_t(x_i) - \\theta, \\qquad
        M_{t+1}(i) = \\begin{cases} 1 & N_t(i) < 0 \\\\ (1 - \\gamma)^{N_t(i)/2} & N_t(i) \\ge 0
        \\end{cases}, \\qquad D_{t+1}(i) \\propto D_1(i) M_{t+1}(i),

    every hypothesis gets the same vote ``alpha_t = 1``, and when ``target_error`` (Servedio's
    ``kappa``) is set the booster stops once ``sum_i D_1(i) M_t(i) < target_error``
    (Servedio's stopping rule).

    **Gavinsky's booster** (AdaFlat, Gavinsky 2003, Long and Servedio [10]) with accuracy
    parameter ``epsilon``, advantage ``a_t = gamma_t / 2`` (``= Pr_{D_t}[h_t = y] - 1/2``):

    .. math::

        N_t(i) = N_{t-1}(i) + a_t y_i h_t(x_i), \\qquad
        \\mu_{t+1}(i) = \\min\\{1, \\max\\{0, 1 - \\epsilon N_t(i)\\}\\}, \\qquad
        D_{t+1}(i) \\propto D_1(i) \\mu_{t+1}(i),

    with vote ``alpha_t = a_t``.  It stops when every weight ``mu`` has vanished
    (Long and Servedio §7: "might set all of these weights to zero: in such cases, it was
    terminated").

    Parameters
    ----------
    booster : {"adaboost", "madaboost", "smoothboost", "gavinsky"}, default="adaboost"
    weak_learner : {"stump", "literal", "parity", "cart"} or WeakLearner, default="stump"
        ``"stump"``: :class:`~optirules.weak.StumpLearner` (numeric or binary features);
        ``"literal"``: best single literal over ``{x_j, -x_j, +1, -1}`` (binary);
        ``"parity"``: parities of degree at most ``max_degree`` and their negations (binary);
        ``"cart"``: scikit-learn CART with at most 16 leaves
        (``CartLearner(size=16, count="leaves")``; Reyzin's "CART trees pruned to 16
        nodes" read as 16 leaves, the reading closer to its Table 3 — pass
        ``CartLearner(size=16, count="nodes")`` for the 15-node, 8-leaf reading); or any
        object with ``fit(X, y, sample_weight) -> hypothesis``.
    n_estimators : int, default=100
        Number of boosting rounds ``T``, one weak hypothesis each (Reyzin's paper uses 250,
        Long and Servedio use 100).
    max_degree : int, default=2
        Parity degree bound ``d`` for ``weak_learner="parity"``: parities of at most ``d``
        features (every degree ``0..d`` is searched).
    target_error : float or None, default=None
        SmoothBoost's target error ``kappa`` (Servedio's symbol): stop once the mean weight
        ``sum_i D_1(i) M_t(i)`` falls below it.  ``None`` runs all ``n_estimators`` rounds,
        as Long and Servedio §7 does.
    gamma : float, default=0.1
        SmoothBoost's assumed advantage ``gamma`` in ``(0, 1)``; ``theta = gamma/(2+gamma)``.
    epsilon : float, default=0.1
        Gavinsky's accuracy parameter ``epsilon`` > 0: the slope of the flat measure
        ``mu = min{1, max{0, 1 - epsilon N}}`` (an example's weight reaches 0 once its
        accumulated advantage ``N`` reaches ``1/epsilon``).  Long and Servedio do not state
        the value they used; 0.1 is our choice, not the paper's (the documentation's
        *Smooth boosting* page gives the measured grid of values).
    binarizer : None, "auto" or FeatureBinarizer, default="auto"
        ``"auto"``: ``X`` is read as it is when it holds only 0/1 values, or only finite
        numbers and the weak learner reads numbers (``"stump"``, ``"cart"``); otherwise
        (strings, categories, missing values, or non-0/1 numbers for ``"literal"`` and
        ``"parity"``) it is binarized by ``optirules.data.FeatureBinarizer()`` with its
        defaults.  ``input_summary_`` and ``str(model)`` say which.  ``None``: ``X`` is
        read as it is (numbers); an instance is cloned and fitted.
    random_state : int, RandomState or None, default=None
        Seeds the CART learner's tie-breaking; every other part is deterministic.
    verbose : bool, default=False
        Log one INFO line per round (edge, error, vote, smoothness, hypothesis) and one when
        boosting stops, through :mod:`logging` under ``optirules.learners.boosting`` (a
        stderr handler is added only when the application configured none).
    class_weight : None, "balanced" or dict {label: weight}, default=None
        Multiplies ``sample_weight`` by the weight of each row's class, as in scikit-learn
        (``"balanced"``: ``n_samples / (n_classes * count(class))``).
    time_limit : float or None, default=None
        Wall-clock seconds for the fit (opt-in), counted with :func:`time.perf_counter` from
        the start of ``fit``, binarizing included: once it has passed, boosting stops after
        the round in progress and keeps the rounds so far, at least one (``status_`` says
        so).  The rounds
        kept are those of the fit without a limit, so the model is that fit truncated; how
        many there are depends on the machine's speed.  With more than two classes the
        classes' boosters share the one budget.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Two classes: ``classes_[1]`` is coded ``+1``, ``classes_[0]`` is ``-1``.  More than
        two: one booster per class against the rest (``estimators_``,
        :mod:`optirules.learners._multiclass`), each with the attributes below.
    estimators_ : list of BoostingClassifier
        Only with more than two classes: the booster of ``classes_[k]`` (coded 1) against
        the rest (0).
    hypotheses_ : list of WeakHypothesis
    alphas_ : ndarray of shape ``(n_estimators_,)``
    edges_ : ndarray of shape ``(n_estimators_,)``
        ``gamma_t`` under ``D_t``.
    weighted_errors_ : ndarray of shape ``(n_estimators_,)``
        ``eps_t`` under ``D_t``.
    max_weight_ratios_ : ndarray of shape ``(n_estimators_,)``
        ``max_i D_t(i) / D_1(i)`` of the distribution ``D_t`` given to the weak learner in
        round ``t = 1..n_estimators_`` (``D_1`` is the initial distribution, ``D_t`` is
        normalized; the distribution after the last round is not included).
    smoothness_ : float
        ``max_t max_i D_t(i) / D_1(i)``: the smallest ``kappa`` such that every ``D_t`` is
        ``kappa``-smooth w.r.t. ``D_1`` in Long and Servedio's §2 sense.  Their Table 2
        says only "average smoothness"; the documentation's *Smooth boosting* page
        compares this statistic, ``smoothness_final_`` and ``smoothness_mean_`` with it.
    smoothness_final_ : float
        ``max_i D_T(i) / D_1(i)`` of the last round's distribution.
    smoothness_mean_ : float
        The mean over rounds of ``max_i D_t(i) / D_1(i)``.
    training_margins_ : ndarray of shape (n_samples,)
        Normalized margins ``y_i F_T(x_i) / sum_t |alpha_t|`` in ``[-1, 1]``.
    n_estimators_ : int
        Rounds actually run (hypotheses kept).
    stop_reason_ : str
        ``"n_estimators"``, ``"perfect hypothesis"``, ``"no edge"``,
        ``"target_error reached"``, ``"all weights vanished"`` or ``"time_limit"``.
    status_ : str
        ``"completed"``, or ``"time_limit: stopped after k of n_estimators rounds
        (time_limit=..., wall-clock: ...)"`` when ``time_limit`` stopped the fit.
    binarizer_ : fitted binarizer or None
        None when ``X`` was read as it is.
    input_summary_ : str
        One line on what ``fit`` did with ``X``; the last line of ``str(model)``.
    weak_learner_ : WeakLearner
    feature_names_ : list of str or None
        Names of the (binarized) features the hypotheses read.

    Notes
    -----
    Perfect hypotheses: when ``eps_t`` is 0 (below 1e-10) AdaBoost and MadaBoost give it
    the vote of ``eps_t = 1e-10`` (``alpha ~ 11.5``) and stop.  A hypothesis with no edge
    (``gamma_t <= 0``) is dropped and AdaBoost, MadaBoost and Gavinsky's booster stop
    (their weights would not change); SmoothBoost keeps going, as in Servedio's paper.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(0, 2, size=(200, 8))
    >>> y = X[:, 1] ^ X[:, 5]                       # an XOR: no stump has an edge
    >>> clf = BoostingClassifier(weak_learner="parity", max_degree=2, n_estimators=5).fit(X, y)
    >>> print(clf)
    adaboost: predict 1 if F(x) = sum of vote * h(x) > 0, else 0 (1 round, 1 distinct hypothesis)
      vote     h(x)
      +11.5129  x1 == 1 XOR x5 == 1 -> +1 else -1
    >>> clf.score(X, y)
    1.0
    """

    _parameter_constraints: dict = {
        "booster": [StrOptions(set(BOOSTERS))],
        "weak_learner": [StrOptions(set(WEAK_LEARNERS)), HasMethods(["fit"])],
        "n_estimators": [Number(numbers.Integral, 1, None, closed="left")],
        "max_degree": [Number(numbers.Integral, 1, None, closed="left")],
        "target_error": [None, Number(numbers.Real, 0, 1, closed="neither")],
        "gamma": [Number(numbers.Real, 0, 1, closed="neither")],
        "epsilon": [Number(numbers.Real, 0, None, closed="neither")],
        "binarizer": [None, StrOptions({"auto"}), HasMethods(["fit"])],
        "random_state": RANDOM_STATE,
        "verbose": VERBOSE,
        "time_limit": TIME_LIMIT,
        "class_weight": CLASS_WEIGHT,
    }

    def __init__(self, booster: str = "adaboost", weak_learner: Any = "stump",
                 n_estimators: int = 100, max_degree: int = 2,
                 target_error: float | None = None,
                 gamma: float = 0.1, epsilon: float = 0.1, binarizer: Any = "auto",
                 random_state: Any = None, verbose: bool = False, *,
                 time_limit: float | None = None, class_weight: Any = None):
        self.class_weight = class_weight
        self.time_limit = time_limit
        self.booster = booster
        self.weak_learner = weak_learner
        self.n_estimators = n_estimators
        self.max_degree = max_degree
        self.target_error = target_error
        self.gamma = gamma
        self.epsilon = epsilon
        self.binarizer = binarizer
        self.random_state = random_state
        self.verbose = verbose

    # ------------------------------------------------------------------ validation
    def __sklearn_tags__(self):
        """Binary labels only; raw (NaN, string, categorical) input when a binarizer is used."""
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.allow_nan = self.binarizer is not None
        tags.input_tags.string = self.binarizer is not None
        tags.input_tags.categorical = self.binarizer is not None
        return tags

    def _check_params(self) -> None:
        validate_params(self)

    def _make_weak_learner(self, seed: int) -> Any:
        from ..weak import CartLearner, LiteralLearner, ParityLearner, StumpLearner

        wl = self.weak_learner
        if wl == "stump":
            return StumpLearner()
        if wl == "literal":
            return LiteralLearner()
        if wl == "parity":
            return ParityLearner(max_degree=int(self.max_degree))
        if wl == "cart":
            return CartLearner(size=16, count="leaves", random_state=seed)
        return clone(wl) if isinstance(wl, BaseEstimator) else copy.deepcopy(wl)

    def _make_binarizer(self) -> Any:
        if self.binarizer is None:
            return None
        if self.binarizer == "auto":
            try:
                from ..data import FeatureBinarizer
            except ImportError as exc:  # pragma: no cover - depends on the data layer
                raise InputError("binarizer='auto' needs optirules.data.FeatureBinarizer, "
                                 "which is not available; binarize X yourself.") from exc
            return FeatureBinarizer()
        return clone(self.binarizer) if isinstance(self.binarizer, BaseEstimator) \
            else copy.deepcopy(self.binarizer)

    def _takes_as_is(self, X: Any) -> bool:
        """Whether ``fit`` reads ``X`` without a binarizer: ``binarizer=None``, or
        ``"auto"`` on 0/1 values, or on finite numbers when the weak learner reads numbers
        (stumps and CART do; literals and parities need 0/1 columns)."""
        b = self.binarizer
        if b is None:
            return True
        if not (isinstance(b, str) and b == "auto"):
            return False
        kind = table_kind(X)
        wl = self.weak_learner
        needs_binary = (wl in ("literal", "parity") if isinstance(wl, str)
                        else bool(getattr(wl, "requires_binary", False)))
        return kind == "binary" or (kind == "numeric" and not needs_binary)

    def _validate_X(self, X: Any, reset: bool, sample_weight: Any = None) -> np.ndarray:
        """Validate X, binarize it when a binarizer is used; return the matrix h_t reads.
        The binarizer is fitted with ``sample_weight`` (weighted quantile thresholds), so
        an integer weight is the same as the row repeated."""
        if reset:
            self.binarizer_ = None if self._takes_as_is(X) else self._make_binarizer()
        if self.binarizer_ is not None:
            check_2d(X)
            validate_data(self, X, reset=reset, skip_check_array=True)
            if reset:
                fit_binarizer(self.binarizer_, X, sample_weight)
            else:  # what fit refuses (inf, NaN in a column without NaN at fit)
                check_binarized_input(self.binarizer_, X)
            Xb = np.asarray(self.binarizer_.transform(X))
            if Xb.dtype.kind not in "biuf" or (Xb.dtype.kind == "f" and
                                              not np.all(np.isfinite(Xb))):
                raise InputError("The binarizer returned non-numeric or non-finite values.")
            if reset:
                self.input_summary_ = binarized_input_summary(self.binarizer_, Xb.shape[1])
            return Xb
        try:
            Xa = validate_data(self, X, reset=reset, dtype="numeric")
        except InputError:
            raise
        except ValueError as exc:
            why = ("Impute or drop missing values, or pass numeric data (use binarizer='auto' "
                   "for categorical columns)." if self.binarizer is None else
                   "This model read X's numbers as they are at fit; pass finite numbers.")
            raise InputError(f"{exc} {why}") from exc
        if reset:
            self.input_summary_ = (binary_input_summary(Xa.shape[1])
                                   if table_kind(Xa) == "binary" else
                                   f"input: {Xa.shape[1]} numeric columns taken as they are")
        return Xa

    # ------------------------------------------------------------------ fitting
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> BoostingClassifier:
        """Run ``n_estimators`` rounds of the chosen booster on ``(X, y)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Two classes, or more (one booster per class against the rest).
        sample_weight : array-like of shape (n_samples,), optional
            The initial distribution ``D_1`` (normalized); uniform by default.  Multiplied
            by the class weights of ``class_weight``.

        Returns
        -------
        self
        """
        t0 = time.perf_counter()
        self._check_params()
        self._deadline = None if self.time_limit is None else t0 + float(self.time_limit)
        sample_weight = class_sample_weight(self.class_weight, y, sample_weight)
        if self._fit_one_vs_rest(X, y, sample_weight):  # K > 2 classes: K binary boosters
            return self
        if sample_weight is not None:  # checked before the binarizer uses it
            normalized_weights(sample_weight, n_rows(X))
        Xb = self._validate_X(X, reset=True, sample_weight=sample_weight)
        classes, positive = check_binary_targets(y, Xb.shape[0], "boosting")
        self.classes_ = classes
        y_pm = np.where(positive, 1, -1).astype(np.int8)
        d1 = normalized_weights(sample_weight, Xb.shape[0])

        rng = check_random_state(self.random_state)
        seed = 0 if self.random_state is None else int(rng.randint(np.iinfo(np.int32).max))
        learner = self._make_weak_learner(seed)
        if getattr(learner, "requires_binary", False):
            Xb = check_binary_matrix(
                np.asarray(Xb), f"weak learner {type(learner).__name__}")
        self.weak_learner_ = learner
        if self.binarizer_ is not None and hasattr(self.binarizer_, "get_feature_names_out"):
            self.feature_names_ = [str(s) for s in self.binarizer_.get_feature_names_out()]
        elif hasattr(self, "feature_names_in_"):
            self.feature_names_ = [str(s) for s in self.feature_names_in_]
        else:
            self.feature_names_ = None
        keep = d1 > 0
        if keep.all():
            self._boost(Xb, y_pm, d1)
        else:  # a zero weight is a removed row (also for the stumps' midpoint thresholds)
            Xk = Xb[keep] if isinstance(Xb, np.ndarray) else np.asarray(Xb)[keep]
            self._boost(Xk, y_pm[keep], d1[keep] / d1[keep].sum())
            F = np.zeros(len(y_pm))
            for a, h in zip(self.alphas_, self.hypotheses_):
                F += a * h.predict(Xb)
            scale = float(np.abs(self.alphas_).sum())
            self.training_margins_ = y_pm * F / scale if scale > 0 else np.zeros(len(y_pm))
        self._set_status()
        return self

    def _set_status(self) -> None:
        """``status_`` from ``stop_reason_``: whether ``time_limit`` cut the fit short."""
        if self.stop_reason_ == "time_limit":
            self.status_ = (f"time_limit: stopped after {self.n_estimators_} of "
                            f"{int(self.n_estimators)} rounds (time_limit={self.time_limit}, "
                            "wall-clock: the result depends on the machine's speed)")
        else:
            self.status_ = "completed"

    def _boost(self, X: np.ndarray, y: np.ndarray, d1: np.ndarray) -> None:
        booster = self.booster
        m = X.shape[0]
        pos = d1 > 0
        F = np.zeros(m)                    # sum_s alpha_s h_s(x_i)
        logw = np.log(np.where(pos, d1, 1.0))   # AdaBoost: log of unnormalized weights
        N = np.zeros(m)                    # SmoothBoost / Gavinsky state
        theta = self.gamma / (2.0 + self.gamma)
        takes_names = "feature_names" in inspect.signature(self.weak_learner_.fit).parameters
        # validate X once and share per-matrix work (sorting, +-1 form) across rounds
        Xw = PreparedData(X) if isinstance(self.weak_learner_, WeakLearner) else X
        log = progress_logger("learners.boosting", self.verbose)
        hyps: list[WeakHypothesis] = []
        alphas: list[float] = []
        edges: list[float] = []
        errors: list[float] = []
        ratios: list[float] = []
        stop = "n_estimators"
        deadline = getattr(self, "_deadline", None)
        for t in range(int(self.n_estimators)):
            if deadline is not None and t > 0 and time.perf_counter() > deadline:
                stop = "time_limit"
                break
            # ---- the (unnormalized) weights whose normalization is D_t
            if booster == "adaboost":
                w = np.zeros(m)
                w[pos] = np.exp(logw[pos] - logw[pos].max())
            elif booster == "madaboost":
                w = madaboost_weights(F, y, d1)
            elif booster == "smoothboost":
                w = d1 * smoothboost_measure(N, self.gamma)
                if self.target_error is not None and w.sum() < self.target_error:
                    stop = "target_error reached"
                    break
            else:
                w = d1 * gavinsky_measure(N, self.epsilon)
            total = w.sum()
            if total <= 0:
                stop = "all weights vanished"
                break
            D = w / total
            # ---- weak hypothesis and its edge
            h = (self.weak_learner_.fit(Xw, y, D, feature_names=self.feature_names_)
                 if takes_names else self.weak_learner_.fit(Xw, y, D))
            yh = y * np.asarray(h.predict(X), dtype=np.float64)
            edge = float(np.dot(D, yh))
            err = float(np.dot(D, yh < 0))
            if booster in ("adaboost", "madaboost"):
                if edge <= 0:
                    stop = "no edge"
                    break
                eps = max(err, _PERFECT)
                alpha = 0.5 * math.log((1.0 - eps) / eps)
            elif booster == "smoothboost":
                alpha = 1.0
            else:
                if edge <= 0:
                    stop = "no edge"
                    break
                alpha = edge / 2.0
            hyps.append(h)
            alphas.append(alpha)
            edges.append(edge)
            errors.append(err)
            ratios.append(float((D[pos] / d1[pos]).max()))
            F += alpha * y * yh                      # y*yh = h(x) since y in {-1, 1}
            if booster == "adaboost":
                logw = logw - alpha * yh
            elif booster == "smoothboost":
                N = N + yh - theta
            elif booster == "gavinsky":
                N = N + alpha * yh
            if log is not None:
                log.info("%s round %d: edge %.4f, error %.4f, vote %.4f, max D/D1 %.2f, h: %s",
                         booster, t + 1, edge, err, alpha, ratios[-1],
                         hypothesis_text(h, self.feature_names_, self.binarizer_ is not None
                                         and self.feature_names_ is not None))
            if booster in ("adaboost", "madaboost") and err < _PERFECT:
                stop = "perfect hypothesis"
                break
        if log is not None:
            log.info("%s stopped after %d rounds: %s", booster, len(hyps), stop)
        self.hypotheses_ = hyps
        self.alphas_ = np.asarray(alphas, dtype=np.float64)
        self.edges_ = np.asarray(edges, dtype=np.float64)
        self.weighted_errors_ = np.asarray(errors, dtype=np.float64)
        self.max_weight_ratios_ = np.asarray(ratios, dtype=np.float64)
        self._set_smoothness()
        self.n_estimators_ = len(hyps)
        self.stop_reason_ = stop
        scale = float(np.abs(self.alphas_).sum())
        self.training_margins_ = y * F / scale if scale > 0 else np.zeros(m)

    def _set_smoothness(self) -> None:
        r = self.max_weight_ratios_
        self.smoothness_ = float(r.max()) if r.size else 1.0
        self.smoothness_final_ = float(r[-1]) if r.size else 1.0
        self.smoothness_mean_ = float(r.mean()) if r.size else 1.0

    # ------------------------------------------------------------------ prediction
    def _raw_scores(self, X: Any) -> np.ndarray:
        check_fitted(self, "hypotheses_")
        Xb = self._validate_X(X, reset=False)
        if getattr(self.weak_learner_, "requires_binary", False):
            Xb = check_binary_matrix(np.asarray(Xb), f"weak learner "
                                     f"{type(self.weak_learner_).__name__}")
        return Xb

    def decision_function(self, X: Any) -> np.ndarray:
        """``F(x) = sum_t alpha_t h_t(x)``; positive means ``classes_[1]``."""
        Xb = self._raw_scores(X)
        F = np.zeros(Xb.shape[0])
        for a, h in zip(self.alphas_, self.hypotheses_):
            F += a * h.predict(Xb)
        return F

    def staged_decision_function(self, X: Any) -> Iterator[np.ndarray]:
        """Yield ``F_t(x)`` after each round ``t = 1, ..., n_estimators_``."""
        Xb = self._raw_scores(X)
        F = np.zeros(Xb.shape[0])
        for a, h in zip(self.alphas_, self.hypotheses_):
            F = F + a * h.predict(Xb)
            yield F

    def predict(self, X: Any) -> np.ndarray:
        """``classes_[1]`` where ``F(x) > 0``, else ``classes_[0]``."""
        F = self.decision_function(X)
        return self.classes_[(F > 0).astype(int)]

    def staged_predict(self, X: Any) -> Iterator[np.ndarray]:
        """Yield the predictions of the first ``t`` rounds, ``t = 1, ..., n_estimators_``."""
        for F in self.staged_decision_function(X):
            yield self.classes_[(F > 0).astype(int)]

    def predict_proba(self, X: Any) -> np.ndarray:
        """A monotone score in ``[0, 1]``: ``P(classes_[1]) = 1 / (1 + exp(-2 F(x)))``.

        This is the logistic link of AdaBoost's exponential loss (Friedman, Hastie &
        Tibshirani 2000); it is not calibrated for the smooth boosters.
        """
        from scipy.special import expit

        F = self.decision_function(X)
        # expit on each side: neither underflows to 0 before |F| ~ 370 (one-vs-rest divides
        # by the sum of the classes' scores)
        return np.column_stack([expit(-2.0 * F), expit(2.0 * F)])

    # ------------------------------------------------------------------ export
    def _votes(self) -> list[tuple[float, str, int]]:
        """The distinct hypotheses as ``(summed vote, text, first round)``, largest vote
        first (a hypothesis chosen in several rounds votes with the sum of its votes)."""
        check_fitted(self, "hypotheses_")
        names = self.feature_names_
        literal_names = self.binarizer_ is not None and names is not None
        votes: dict[str, list] = {}
        for t, (a, h) in enumerate(zip(self.alphas_, self.hypotheses_)):
            key = json.dumps({k: v for k, v in h.to_dict().items() if k != "feature_names"},
                             sort_keys=True)
            if key in votes:
                votes[key][0] += float(a)
            else:
                votes[key] = [float(a), hypothesis_text(h, names, literal_names), t]
        return sorted((tuple(v) for v in votes.values()), key=lambda v: (-v[0], v[2]))

    def to_text(self) -> str:
        """The weighted vote as text: one line per distinct hypothesis with its vote, largest
        first, e.g. ``+0.6931  x3 > 0.788 -> +1 else -1``, ``c0 == a -> +1 else -1`` or
        ``x0 <= 0.3885 XOR c0 == a -> -1 else +1`` (a parity is +1 on an even number of true
        literals)."""
        votes = self._votes()
        pos, neg = label_text(self.classes_[1]), label_text(self.classes_[0])
        r, k = self.n_estimators_, len(votes)
        lines = [f"{self.booster}: predict {pos} if F(x) = sum of vote * h(x) > 0, else {neg} "
                 f"({r} round{'s' * (r != 1)}, {k} distinct hypothes{'es' if k != 1 else 'is'})",
                 "  vote     h(x)"]
        lines.extend("  " + vote_text(a, text) for a, text, _ in votes)
        summary = getattr(self, "input_summary_", "")
        return "\n".join(lines + ([summary] if summary else []))

    def _decision_support(self, X: Any) -> tuple[list[list[str]], list[list[str]]]:
        """Per row, the hypotheses voting -1 and +1, with their votes, largest first."""
        votes = self._votes()
        Xb = self._raw_scores(X)
        merged: dict[str, Any] = {}
        for h in self.hypotheses_:
            merged.setdefault(hypothesis_text(h, self.feature_names_,
                                              self.binarizer_ is not None
                                              and self.feature_names_ is not None), h)
        H = np.column_stack([merged[text].predict(Xb) for _, text, _ in votes]) \
            if votes else np.zeros((Xb.shape[0], 0), np.int8)
        items = [vote_text(a, text) for a, text, _ in votes]
        neg = [[items[j] for j in np.flatnonzero(row < 0)] for row in H]
        pos = [[items[j] for j in np.flatnonzero(row > 0)] for row in H]
        return neg, pos

    def explain(self, X: Any):
        """A DataFrame, one row per row of ``X``: ``prediction``, ``score``
        (:meth:`predict_proba` of it), ``rules`` (the hypotheses that voted for it, with
        their votes, largest first), ``fired`` and ``text``
        (:mod:`optirules.learners._explain`)."""
        return binary_explain(self, X)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able summary: booster, classes, votes and hypotheses."""
        check_fitted(self, "hypotheses_")
        return {
            "booster": self.booster,
            "classes": [c.item() if hasattr(c, "item") else c for c in self.classes_],
            "feature_names": self.feature_names_,
            "alphas": self.alphas_.tolist(),
            "edges": self.edges_.tolist(),
            "hypotheses": [h.to_dict() for h in self.hypotheses_],
            "smoothness": self.smoothness_,
            "stop_reason": self.stop_reason_,
            "input_summary": getattr(self, "input_summary_", None),
        }

    def __str__(self) -> str:
        return text_or_repr(self, "hypotheses_")

    def to_json(self, path: str | os.PathLike | None = None, *, indent: int | None = 2) -> str:
        """The fitted vote as JSON text (and written to ``path`` if given); no pickle.

        :meth:`from_json` rebuilds a classifier with the same ``decision_function``.  With a
        binarizer, its literals are saved (``optirules.data.Literal``, e.g. ``age > 52.5``)
        and the loaded model evaluates them on raw data, with the binarizer's semantics.
        ``training_margins_`` (one value per training row) is not saved.

        Layout (version 2): the literal table (``literals``, with a binarizer) and the
        column names (``feature_names``) are stored once; a hypothesis refers to its
        columns by index into them and carries no names of its own.  Version 1 files,
        whose every hypothesis repeated ``feature_names``, are still read.

        Raises
        ------
        InputError
            For a custom weak-learner object (only the named weak learners' hypotheses have
            a JSON form) or a binarizer without ``literals_``.
        """
        check_fitted(self, "hypotheses_")
        if not isinstance(self.weak_learner, str):
            raise InputError("a BoostingClassifier with a custom weak-learner object cannot be "
                             f"saved as JSON; use one of {list(WEAK_LEARNERS)}.")
        literals = None
        if self.binarizer_ is not None:
            if not hasattr(self.binarizer_, "literals_"):
                raise InputError("the binarizer has no literals_ to save; use "
                                 "optirules.data.FeatureBinarizer to save the model as JSON.")
            literals = [literal_to_dict(lit) for lit in self.binarizer_.literals_]
        data = {
            **json_header(self, _JSON_FORMAT, version=_JSON_VERSION),
            "literals": literals,
            "feature_names": self.feature_names_,
            "hypotheses": [_compact_hypothesis(h, self.feature_names_)
                           for h in self.hypotheses_],
            "alphas": self.alphas_.tolist(),
            "edges": self.edges_.tolist(),
            "weighted_errors": self.weighted_errors_.tolist(),
            "max_weight_ratios": self.max_weight_ratios_.tolist(),
            "smoothness": self.smoothness_,
            "stop_reason": self.stop_reason_,
            "input_summary": getattr(self, "input_summary_", None),
        }
        return dump_json(data, path, indent)

    @classmethod
    def from_json(cls, source: str | os.PathLike) -> BoostingClassifier:
        """Rebuild a fitted classifier from :meth:`to_json` output (text or a file path).

        Every field is checked; a damaged or foreign file raises one
        :class:`~optirules.errors.InputError` naming the field."""
        name = "BoostingClassifier"
        data = load_json(source, _JSON_FORMAT, "to_json", versions=_JSON_VERSIONS)
        doc = Field(name, data)
        with damaged_as_input_error(name):
            est = cls(**restore_params(data["params"]))
            load_json_header(est, data)
            doc["params"]["weak_learner"].string(choices=WEAK_LEARNERS)
            lits = doc["literals"]
            literals = None if lits.is_null() else [read_literal(f) for f in lits.items()]
            if literals is not None and est.binarizer is None:
                raise lits.damaged("must be null when 'params.binarizer' is null (the model "
                                   "read X's columns as they are)")
            if literals is not None:
                check_literal_columns(est, literals, name)
            n_columns = est.n_features_in_ if literals is None else len(literals)
            names = doc["feature_names"]
            est.feature_names_ = None if names.is_null() else \
                [f.string() for f in names.items(n_columns)]
            est.hypotheses_ = [_read_hypothesis(f, n_columns, est.feature_names_)
                               for f in doc["hypotheses"].items()]
            n = len(est.hypotheses_)
            est.alphas_ = doc["alphas"].reals(n)
            est.edges_ = _stats(doc["edges"])
            est.weighted_errors_ = _stats(doc["weighted_errors"])
            est.max_weight_ratios_ = _stats(doc["max_weight_ratios"])
            est._set_smoothness()
            est.stop_reason_ = doc["stop_reason"].string()
            est.n_estimators_ = n
            est._set_status()
            est.weak_learner_ = est._make_weak_learner(0)
            est.binarizer_ = None if literals is None else _LiteralColumns(literals)
            summary = doc["input_summary"].string(null=None, default=None)
            if summary is not None:
                est.input_summary_ = summary
        return est


def _stats(field: Any) -> np.ndarray:
    """A list of per-round statistics (numbers; NaN written as null)."""
    return np.asarray([f.real(null=math.nan, finite=False) for f in field.items()],
                      dtype=np.float64)


def _compact_hypothesis(h: WeakHypothesis, names: list[str] | None) -> dict[str, Any]:
    """``h.to_dict()`` without the column names when they are the model's (version 2): the
    hypothesis refers to the model's literal table and ``feature_names`` by column index."""
    d = h.to_dict()
    own = d.get("feature_names")
    if own is None or (names is not None and list(own) == list(names)):
        d.pop("feature_names", None)
    return d


def _read_hypothesis(field: Any, n_columns: int,
                     names: list[str] | None = None) -> WeakHypothesis:
    """A hypothesis of :meth:`WeakHypothesis.to_dict` form, checked before it is built:
    integers (indices, signs, children) are integers, thresholds numbers, ``negated`` a
    boolean, and every column it reads one of the ``n_columns``.  Without its own
    ``feature_names`` (version 2), it takes the model's ``names``."""
    field.object()
    if "feature_names" not in field.value and names is not None:
        field = Field(field.name, {**field.value, "feature_names": list(names)}, field.path)
    for key in field.value:
        f = field[key]
        if key == "type":
            f.string()
        elif key == "feature_names":
            if not f.is_null():
                for g in f.items():
                    g.string()
        elif key == "negated":
            f.boolean()
        else:
            parts = f.items() if isinstance(f.value, list) else [f]
            for g in parts:
                if key == "threshold":
                    g.real(finite=False)
                else:
                    g.count(lo=-INT_LIMIT)
    try:
        h = hypothesis_from_dict(field.value)
        h.check_columns(n_columns)
    except InputError as exc:
        raise field.damaged(str(exc).rstrip(".")) from None
    return h


class _LiteralColumns:
    """The 0/1 matrix of saved literals on raw data: a fitted binarizer's ``transform``."""

    def __init__(self, literals: list[Any]) -> None:
        self.literals_ = literals

    def transform(self, X: Any) -> np.ndarray:
        X = _column_cache(X)  # columns without string names: by position
        out = np.zeros((n_rows(X), len(self.literals_)), dtype=np.uint8)
        for k, lit in enumerate(self.literals_):
            out[:, k] = lit.evaluate(X)
        return out
