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

The class is defined here; the update rules and the round loop are in
:mod:`optirules.learners._boosting._rules`, the text forms in
:mod:`optirules.learners._boosting._text` and the JSON persistence in
:mod:`optirules.learners._boosting._json`.
"""

from __future__ import annotations

import copy
import numbers
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils._param_validation import HasMethods, StrOptions
from sklearn.utils.validation import (
    validate_data,
)

from ...errors import InputError
from ...weak import check_binary_matrix
from .._checks import (
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
    input_names,
    n_rows,
    normalized_weights,
    table_kind,
    validate_params,
)
from .._multiclass import OneVsRestMixin, check_label_shape, one_vs_rest
from .._rule_model import RuleModelMixin
from .._rules_table import boosting_table

# a model loaded by from_json holds a _LiteralColumns as binarizer_: pickles written before
# the JSON code moved to _json look the class up here
from ._json import (
    _BoostingJSONMixin,
    _LiteralColumns,  # noqa: F401
)
from ._rules import (
    BOOSTERS,
    WEAK_LEARNERS,
    boost_rounds,
    gavinsky_measure,
    madaboost_weights,
    smoothboost_measure,
)
from ._sql import boosting_columns, boosting_query
from ._text import (
    boosting_dict,
    boosting_text,
    decision_support,
    distinct_votes,
    hypothesis_text,
)

__all__ = ["BoostingClassifier", "hypothesis_text", "madaboost_weights", "smoothboost_measure",
           "gavinsky_measure"]


@one_vs_rest
class BoostingClassifier(OneVsRestMixin, _BoostingJSONMixin, RuleModelMixin, ClassifierMixin,
                         BaseEstimator):
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
        ``optirules.learners._multiclass``), each with the attributes below.
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

    _table_builder = staticmethod(boosting_table)

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
        from ...weak import CartLearner, LiteralLearner, ParityLearner, StumpLearner

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
                from ...data import FeatureBinarizer
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
        self : BoostingClassifier
            The fitted classifier.
        """
        t0 = time.perf_counter()
        self._check_params()
        check_label_shape(y)
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
        else:
            self.feature_names_ = input_names(self)
        keep = d1 > 0
        if keep.all():
            boost_rounds(self, Xb, y_pm, d1)
        else:  # a zero weight is a removed row (also for the stumps' midpoint thresholds)
            Xk = Xb[keep] if isinstance(Xb, np.ndarray) else np.asarray(Xb)[keep]
            boost_rounds(self, Xk, y_pm[keep], d1[keep] / d1[keep].sum())
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
        """``F(x) = sum_t alpha_t h_t(x)``; positive means ``classes_[1]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the form ``fit`` took them.

        Returns
        -------
        ndarray of shape (n_samples,)
            The weighted vote ``F(x)``.
        """
        Xb = self._raw_scores(X)
        F = np.zeros(Xb.shape[0])
        for a, h in zip(self.alphas_, self.hypotheses_):
            F += a * h.predict(Xb)
        return F

    def staged_decision_function(self, X: Any) -> Iterator[np.ndarray]:
        """Yield ``F_t(x)`` after each round ``t = 1, ..., n_estimators_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the form ``fit`` took them.

        Yields
        ------
        ndarray of shape (n_samples,)
            The weighted vote ``F_t(x)`` of the first ``t`` rounds.
        """
        Xb = self._raw_scores(X)
        F = np.zeros(Xb.shape[0])
        for a, h in zip(self.alphas_, self.hypotheses_):
            F = F + a * h.predict(Xb)
            yield F

    def predict(self, X: Any) -> np.ndarray:
        """``classes_[1]`` where ``F(x) > 0``, else ``classes_[0]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the form ``fit`` took them.

        Returns
        -------
        ndarray of shape (n_samples,)
            The predicted labels.
        """
        F = self.decision_function(X)
        return self.classes_[(F > 0).astype(int)]

    def staged_predict(self, X: Any) -> Iterator[np.ndarray]:
        """Yield the predictions of the first ``t`` rounds, ``t = 1, ..., n_estimators_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the form ``fit`` took them.

        Yields
        ------
        ndarray of shape (n_samples,)
            The labels predicted by the first ``t`` rounds.
        """
        for F in self.staged_decision_function(X):
            yield self.classes_[(F > 0).astype(int)]

    def predict_proba(self, X: Any) -> np.ndarray:
        """A monotone score in ``[0, 1]``: ``P(classes_[1]) = 1 / (1 + exp(-2 F(x)))``.

        This is the logistic link of AdaBoost's exponential loss (Friedman, Hastie &
        Tibshirani 2000); it is not calibrated for the smooth boosters.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the form ``fit`` took them.

        Returns
        -------
        ndarray of shape (n_samples, 2)
            The scores of ``classes_[0]`` and ``classes_[1]``.
        """
        from scipy.special import expit

        F = self.decision_function(X)
        # expit on each side: neither underflows to 0 before |F| ~ 370 (one-vs-rest divides
        # by the sum of the classes' scores)
        return np.column_stack([expit(-2.0 * F), expit(2.0 * F)])

    def _votes(self) -> list[tuple[float, str, int, Any]]:
        """The distinct hypotheses as ``(net vote, text, first round, hypothesis)``, largest
        vote first (a hypothesis chosen in several rounds votes with the sum of its votes, a
        hypothesis and its negation with the difference: ``_text.distinct_votes``)."""
        return distinct_votes(self)

    # ------------------------------------------------------------------ text and JSON
    # (str, to_text, explain, to_json, from_json and to_sql: RuleModelMixin, from these hooks
    # and those of _BoostingJSONMixin)
    _fitted_attribute = "hypotheses_"
    _model_kind = "boosting"

    def _text(self) -> str:
        """``to_text``: the weighted vote, a header line, then one line per distinct
        hypothesis with its vote, largest first, e.g. ``+0.6931  x3 > 0.788 -> +1 else -1``,
        ``c0 == a -> +1 else -1`` or ``x0 <= 0.3885 XOR c0 == a -> -1 else +1`` (a parity is
        +1 on an even number of true literals), then ``input_summary_``."""
        return boosting_text(self)

    def _decision_support(self, X: Any) -> tuple[list[list[str]], list[list[str]]]:
        """Per row, the hypotheses voting -1 and +1, with their votes, largest first (the
        ``rules`` of ``explain``: those that voted for the prediction)."""
        return decision_support(self, X)

    # (to_sql: RuleModelMixin, through these two hooks; the SQL: _sql)
    def _sql_columns(self) -> list[str]:
        """The input columns this binary booster's hypotheses read, checked for SQL."""
        return boosting_columns(self)[1]

    def _sql_query(self, parts: list[Any], rows: str, kept: list[str], labels: list[str],
                   column: str, dialect: str) -> str:
        """``to_sql``'s SELECT of the vote of ``parts`` (this booster or its
        ``estimators_``) over ``rows``."""
        return boosting_query(parts, rows, kept, labels, column, dialect)

    def rules_table(self, X: Any = None, y: Any = None) -> Any:
        """A DataFrame, one row per line of ``to_text`` (a distinct hypothesis, a
        hypothesis and its negation as one; one-vs-rest: one block per class):
        ``class`` (the class it votes for where the condition of its text holds),
        ``vote`` (its net vote), ``rule``, ``n_literals``, ``support``, ``precision``,
        ``recall`` (``optirules.learners._rules_table``).

        The booster keeps no training rows: without ``X`` and ``y`` the statistics are NaN.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), optional
            Rows to count support, precision and recall on.
        y : array-like of shape (n_samples,), optional
            Their labels, given with ``X``.

        Returns
        -------
        pandas.DataFrame
            One row per distinct hypothesis, largest vote first.
        """
        return self._table_builder(self, X, y)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able summary: booster, classes, votes and hypotheses.

        Returns
        -------
        dict
            The summary, with plain Python values.
        """
        return boosting_dict(self)
