"""BruteDL decision lists with the Minimum OSR fallback (the Minimum OSR paper).

The learner searches every conjunction of at most ``max_degree`` tests ``attribute = value``
exhaustively (BruteDL, after Segal and Etzioni 1994), builds an ordered decision list by
Laplace accuracy, and classifies the test points that no rule covers either by the default
rule or by *Minimum OSR*, a greedy one-path decision tree grown along the test point's own
attribute values (the paper on BruteDL decision lists with the Minimum OSR fallback,
section "The Minimum OSR").

The modules behind it, one job each: ``_stats`` (Laplace accuracy, the
information measure, the significance statistic), ``_search`` (the bitset
search), ``_build`` (the fitted list from the search's steps),
``_osr`` (Minimum OSR), ``_encoding`` (input columns to value
codes), ``_rules`` (the typed tests and rules) and ``_json``
(the JSON form); ``_grid`` is the search
:class:`~optirules.learners.DecisionListCV` shares across its grid.
"""

from __future__ import annotations

import math
import numbers
import os
import time
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight

from ...errors import InputError
from .._checks import (
    CLASS_WEIGHT,
    TIME_LIMIT,
    VERBOSE,
    Collection,
    Number,
    check_fitted,
    class_sample_weight,
    validate_params,
)
from .._explain import explain_frame
from .._json import json_scalar
from .._rule_model import RuleModelMixin
from .._rules_table import decision_list_table
from .._scores import smoothed_distribution
from ._build import build_list, count_text
from ._encoding import encode_columns, fit_features, read_columns
from ._json import (
    JSON_FORMAT,
    JSON_VERSION,
    JSON_VERSIONS,
    TRAINING_ROWS,
    decision_list_from_text,
    decision_list_to_doc,
)
from ._osr import OSRResult, minimum_osr, minimum_osr_rows
from ._rules import AttributeTest, DecisionRule, fallback_note
from ._search import best_conjunction, grow_decision_list
from ._stats import (
    class_entropy,
    information_measure,
    laplace_accuracy,
    significance_statistic,
)

__all__ = [
    "DecisionListClassifier",
    "AUTO_MIN_COVERAGE_DIVISOR",
    "auto_min_coverage",
    "AttributeTest",
    "DecisionRule",
    "OSRResult",
    "laplace_accuracy",
    "class_entropy",
    "information_measure",
    "significance_statistic",
    "best_conjunction",
    "grow_decision_list",
    "minimum_osr",
]


#: ``min_coverage="auto"``: a rule must cover one in this many training rows (and at least
#: 2 rows); chosen by ``benchmarks/decision_list_defaults.py``
AUTO_MIN_COVERAGE_DIVISOR = 50

#: the largest ``n_bins``: a bound on the per-column cut points a fit allocates
MAX_N_BINS = 10_000


def auto_min_coverage(n_rows: int | float) -> int:
    """The integer ``min_coverage="auto"`` stands for on ``n_rows`` training rows.

    :math:`\\max(2, \\lceil n / 50 \\rceil)`, computed in integers (no rounding error):
    2 up to 100 rows, then one rule per 2 % of the training rows at least, so a list
    fitted with it has at most 50 rules.  For a weighted fit ``n`` is the total weight
    (a whole number is taken as that many rows).
    """
    if isinstance(n_rows, numbers.Integral) or float(n_rows).is_integer():
        return max(2, -(-int(n_rows) // AUTO_MIN_COVERAGE_DIVISOR))
    return max(2, math.ceil(float(n_rows) / AUTO_MIN_COVERAGE_DIVISOR))


class DecisionListClassifier(RuleModelMixin, ClassifierMixin, BaseEstimator):
    """BruteDL decision list with the Minimum OSR fallback (the Minimum OSR paper).

    The list is found by exhaustive search, not by solving an optimization model, so it has
    no ``export_model``: there is no LP, MILP or QP to write.

    **How the list is built.**  Every training row starts uncovered.  Repeatedly, among all
    conjunctions of ``1..max_degree`` tests ``attribute = value`` on distinct attributes that
    cover at least ``min_coverage`` uncovered rows (``min_coverage_``: the integer, also
    when ``min_coverage="auto"``), the one of best Laplace accuracy
    :math:`(\\max_c n_c + 1)/(n + k)` on the uncovered rows is found by exhaustive search
    (ties: larger coverage, then fewer tests, then the first in attribute/value order); it
    predicts its majority class among those rows (ties: the first class in ``classes_``),
    is appended to the list, and its rows become covered.  The search stops when no row is
    uncovered, when no conjunction covers ``min_coverage`` uncovered rows, when the best
    conjunction's Laplace accuracy does not exceed that of the default rule on the uncovered
    rows, or after ``max_rules`` rules.  The default rule predicts the majority class of the
    rows left uncovered (of all training rows if none is left).

    **Prediction.**  The first rule that covers a point classifies it.  A point that no rule
    covers goes to the fallback: ``"default"`` uses the default rule; ``"min_osr"`` runs
    Minimum OSR (``minimum_osr``) over the training rows chosen by ``osr_rows`` - the
    whole training set (the paper: rules "evaluated based on statistics computed over the
    training data"), or the rows no rule covers (those behind the default rule) - and uses
    the default rule only when every attribute of the point is missing or none of its
    known values occurs in those rows.  ``predict_proba``: the class shares of the training
    rows behind the rule, OSR leaf or default rule that decided, smoothed toward the class
    prior (:meth:`predict_proba`); ``predict`` is its argmax.

    **Features.**  Categorical columns (strings, booleans, pandas ``category``/``object``
    columns, object arrays holding anything but plain numbers, or those named in
    ``categorical_features``) are used natively: each distinct value (compared as a
    string, integral numbers written without ``.0``) is a test; missing values (None, NaN,
    empty string) form their own value ``"?"``.  Rules may test ``= ?``; Minimum OSR treats a
    missing test value as unknown.  Numeric columns are cut into at most ``n_bins`` quantile
    bins: the cut points are the training quantiles at ``1/n_bins, ..., (n_bins-1)/n_bins``
    (``inverted_cdf``, i.e. observed values), deduplicated, without the maximum, and bin
    ``i`` is the interval :math:`(c_i, c_{i+1}]` - every bin holds training rows.  Missing
    numeric values (NaN) are handled as :class:`optirules.data.FeatureBinarizer` handles
    them: a numeric column with NaN at fit is cut on its known values and gets one more
    value ``"?"``, its ``is missing`` test (``x = ?``); a NaN satisfies no interval test,
    only that one, and Minimum OSR treats it as unknown.  A NaN in a numeric column that
    had none at fit matches no test of that column at prediction (as a category never seen
    in training), and numeric values must otherwise be finite.  A category never seen in training matches no
    rule and is unknown to Minimum OSR.

    **Row weights.**  ``fit(X, y, sample_weight)`` and ``class_weight`` (which multiplies
    ``sample_weight``) weigh the training rows: a row of weight ``w`` counts as ``w``
    repeated rows everywhere a count is used - the class counts :math:`n_c` (weight sums)
    of the Laplace accuracy, the coverage compared with ``min_coverage`` (and the total
    weight behind ``min_coverage="auto"``), the default rule, Minimum OSR's statistics,
    ``predict_proba`` and the quantile bins (weighted ``inverted_cdf`` quantiles) - so
    integer weights give exactly the list fitted on the repeated rows.  Rows of weight 0
    are dropped before anything else.  A weighted fit's class counts are floats.

    Parameters
    ----------
    max_degree : int, default=2
        Largest number of tests (literals ``attribute = value``) in one rule.  BruteDL fixes
        this depth beforehand (the paper's extracted text does not give its value); each
        further level multiplies the exhaustive search by about the number of attribute
        values, and deeper rules fitted to few rows can overfit.
        :class:`~optirules.learners.DecisionListCV` chooses it, and ``min_coverage``, by
        cross-validation.
    min_coverage : int or "auto", default="auto"
        Smallest number of uncovered training rows a rule must cover when it is added
        (their total weight, for a weighted fit).
        ``"auto"`` (``auto_min_coverage``): :math:`\\max(2, \\lceil n / 50 \\rceil)` for
        ``n`` training rows, so every rule covers at least 2 % of the training rows (two
        rows up to 100 rows) and the list has at most 50 rules; the integer used is
        ``min_coverage_``.  The paper names no such bound: its reading is
        ``min_coverage=1`` (a conjunction covering a single row is eligible) with a fixed
        ``max_degree``, e.g. ``DecisionListClassifier(max_degree=3, min_coverage=1)``.
        ``"auto"`` (an integer ``min_coverage=2`` before it) is ours, chosen by
        measurement over the bundled data sets: its lists are about the size of those
        :class:`~optirules.learners.DecisionListCV` chooses, at a fraction of the cost
        (``benchmarks/results/decision_list_defaults.md``, and the page *Decision lists
        with Minimum OSR* of the documentation).
    fallback : {"min_osr", "default"}, default="min_osr"
        How points no rule covers are classified: Minimum OSR (the paper's method) or the
        default rule.
    confidence : float, default=0.95
        Confidence of Minimum OSR's significance test (0 < confidence < 1).
    n_bins : int, default=5
        Number of quantile bins for numeric features (2 to ``MAX_N_BINS`` = 10000).
    categorical_features : None, "all" or list of int/str, default=None
        Columns to treat as categorical in addition to those inferred from the data
        (``"all"``: every column).
    max_rules : int or None, default=None
        Largest number of rules in the list.
    osr_rows : {"uncovered", "all"}, default="uncovered"
        Training rows Minimum OSR grows its path on.  ``"all"`` is the paper's reading: its
        information measure is computed "over the training data set".  ``"uncovered"``
        (the default, a departure from the paper earned by measurement, see the page
        *Decision lists with Minimum OSR* of the documentation) uses the training rows no
        rule covers (all training rows if every row is covered).  Only prediction uses it,
        so it can be changed after ``fit``.
    verbose : bool, default=False
        Log each rule as it is found (its tests, coverage, Laplace accuracy, candidates
        and seconds) and why the search stopped, through :mod:`logging` (logger
        ``optirules.learners.decision_list``, level INFO; printed to stderr when the
        application configured no logging).
    time_limit : float or None, default=None
        Wall-clock seconds for the fit (opt-in), counted with :func:`time.perf_counter` from
        the start of ``fit``, encoding included: once it has passed, no further rule is
        searched (the rule in progress is kept), the default rule is formed from the rows
        left uncovered as usual and ``status_`` says so.  The rules kept are the first rules
        of the list found without a limit; how many depends on the machine's speed.
    class_weight : None, "balanced" or dict {label: weight}, default=None
        Keyword only.  Weights of the classes, multiplying ``sample_weight`` of
        :meth:`fit` (scikit-learn's meaning): ``"balanced"`` weighs class ``c``
        ``n_samples / (n_classes * count(c))``, a dict names the weight of some classes
        (others weigh 1).  Weights count as repeated rows (see *Row weights*); ``"balanced"``
        lets a minority class win rules and the default rule it would lose by counts.

    Attributes
    ----------
    classes_ : ndarray
        Class labels.
    rules_ : list of DecisionRule
        The decision list, in order.
    default_counts_ : ndarray of shape (k,)
        Class counts behind the default rule (integers; weight sums, floats, for a
        weighted fit).
    default_class_ : object
        The default rule's class.
    min_coverage_ : int
        The ``min_coverage`` of the fit: the parameter itself when it is an integer, else
        ``auto_min_coverage`` of the number of training rows.
    stop_reason_ : str
        Why rule search stopped: ``"all_covered"``, ``"min_coverage"``,
        ``"not_better_than_default"``, ``"max_rules"`` or ``"time_limit"``.
    status_ : str
        ``"completed"``, or ``"time_limit: stopped after k rules (time_limit=...,
        wall-clock: ...)"`` when ``time_limit`` stopped the rule search.
    history_ : list of dict
        Per rule: Laplace accuracy, coverage, candidates evaluated, seconds.
    n_candidates_ : int
        Conjunctions evaluated in total.
    features_ : list
        Per column: kind (categorical/numeric), categories or interval labels, cut points.
    train_codes_, train_y_ : ndarray
        Encoded training data (Minimum OSR works on it); after :meth:`from_json`, only the
        rows the JSON file holds (see ``training_rows_``).
    train_weights_ : ndarray of float or None
        The positive weight of each row of ``train_codes_`` (``sample_weight`` times the
        class weights, rows of weight 0 dropped; a row of weight ``w`` counts as ``w``
        repeated rows), or None for an unweighted fit (no weights, or every weight 1).
        :meth:`to_json` stores the weights of the training rows it stores.
    uncovered_rows_ : ndarray of int
        Training rows no rule covers (indices into ``train_codes_``).
    training_rows_ : {"all", "uncovered", "none"}
        Which training rows the estimator holds: ``"all"`` after ``fit``; after
        :meth:`from_json`, what :meth:`to_json` stored.  Minimum OSR with
        ``osr_rows="all"`` needs ``"all"``; with ``osr_rows="uncovered"``, ``"all"`` or
        ``"uncovered"``; ``fallback="default"`` needs none.
    n_features_in_, feature_names_in_ :
        As in scikit-learn.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"color": ["red", "red", "blue", "blue"],
    ...                   "size": ["big", "small", "big", "small"]})
    >>> clf = DecisionListClassifier(min_coverage=1).fit(X, [1, 0, 0, 0])
    >>> print(clf)  # doctest: +SKIP
    IF color = red AND size = big THEN 1
    ...
    """

    _table_builder = staticmethod(decision_list_table)

    _parameter_constraints: dict = {
        "max_degree": [Number(numbers.Integral, 1, None, closed="left")],
        "min_coverage": [StrOptions({"auto"}), Number(numbers.Integral, 1, None, closed="left")],
        "fallback": [StrOptions({"min_osr", "default"})],
        "confidence": [Number(numbers.Real, 0, 1, closed="neither")],
        "n_bins": [Number(numbers.Integral, 2, MAX_N_BINS, closed="both")],
        # the columns named must exist: checked when X is read
        "categorical_features": [None, StrOptions({"all"}), Collection()],
        "max_rules": [None, Number(numbers.Integral, 1, None, closed="left")],
        "osr_rows": [StrOptions({"all", "uncovered"})],
        "verbose": VERBOSE,
        "time_limit": TIME_LIMIT,
        "class_weight": CLASS_WEIGHT,
    }

    def __init__(
        self,
        max_degree: int = 2,
        min_coverage: int | str = "auto",
        fallback: str = "min_osr",
        confidence: float = 0.95,
        n_bins: int = 5,
        categorical_features: Any = None,
        max_rules: int | None = None,
        osr_rows: str = "uncovered",
        verbose: bool = False,
        time_limit: float | None = None,
        *,
        class_weight: Any = None,
    ):
        self.max_degree = max_degree
        self.min_coverage = min_coverage
        self.fallback = fallback
        self.confidence = confidence
        self.n_bins = n_bins
        self.categorical_features = categorical_features
        self.max_rules = max_rules
        self.osr_rows = osr_rows
        self.verbose = verbose
        self.time_limit = time_limit
        self.class_weight = class_weight

    # ------------------------------------------------------------------ tags
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.string = True
        tags.input_tags.allow_nan = True  # the value "?" of a column with NaN at fit
        return tags

    # ------------------------------------------------------------------ checks
    def _check_params(self) -> None:
        validate_params(self)

    def _validate(self, X: Any, y: Any = None, reset: bool = True) -> tuple[list, list, Any]:
        """Check X (and y) and return the columns as 1-D arrays plus their inferred kinds."""
        return read_columns(self, X, y, reset)

    def _encode(self, cols: list) -> tuple[np.ndarray, np.ndarray]:
        """Value codes (-1: not seen in training) and the missing mask, shape (n, p)."""
        return encode_columns(self.features_, cols)

    # ------------------------------------------------------------------ fit
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> DecisionListClassifier:
        """Build the decision list from training data.

        Parameters
        ----------
        X : array-like or DataFrame, shape (n_samples, n_features)
            Categorical and/or numeric features (see the class docstring).
        y : array-like, shape (n_samples,)
            Class labels (at least two distinct classes).
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative finite row weights, multiplied by the class weights of
            ``class_weight``.  A row of weight ``w`` counts as ``w`` repeated rows (see
            *Row weights* in the class docstring); rows of weight 0 are dropped before
            anything else (they shape neither the bins, nor the categories, nor the
            counts).  Negative, non-finite or all-zero weights, or a length other than
            ``n_samples``, raise :class:`~optirules.errors.InputError`.

        Returns
        -------
        self
        """
        t0 = time.perf_counter()
        codes, y_enc, weights = self._prepare_fit(X, y, sample_weight, t0)
        self._build_list(codes, y_enc, weights)
        self.fit_time_ = time.perf_counter() - t0
        return self

    def _prepare_fit(self, X: Any, y: Any, sample_weight: Any, t0: float
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """What :meth:`fit` does before the search: the checks, the row weights, the
        classes, the encoding (``features_``, ``train_codes_`` ...) and ``min_coverage_``;
        the encoded rows, their classes and weights (None: unweighted)."""
        self._check_params()
        self._deadline = None if self.time_limit is None else t0 + float(self.time_limit)
        if y is None:
            raise InputError("DecisionListClassifier requires y to be passed, but the target y is "
                             "None; pass the class labels of the training rows.")
        cols, kinds, (names, y) = self._validate(X, y, reset=True)
        try:
            check_classification_targets(y)
        except ValueError as exc:
            raise InputError(f"{exc} DecisionListClassifier needs discrete class labels.") from exc
        weights = self._row_weights(y, sample_weight)
        if weights is not None:
            keep = weights > 0  # rows of weight 0 are dropped before anything else
            if not keep.all():
                cols = [c[keep] for c in cols]
                y = np.asarray(y)[keep]
                weights = weights[keep]
            if (weights == 1.0).all():
                weights = None  # unit weights: the unweighted fit
        self.classes_, y_enc = np.unique(y, return_inverse=True)
        y_enc = y_enc.ravel().astype(np.int64)
        if self.classes_.size < 2:
            raise InputError(f"y holds one class only ({self.classes_[0]!r})"
                             + ("" if sample_weight is None and self.class_weight is None
                                else " among the rows of positive weight")
                             + "; a classifier needs at least two classes in the training "
                             "data.")
        self.features_ = fit_features(cols, kinds, names, self.n_bins,
                                      self.categorical_features, weights)
        codes, _ = self._encode(cols)
        self.train_codes_ = codes
        self.train_y_ = y_enc
        self.train_weights_ = weights
        self.training_rows_ = "all"
        self.min_coverage_ = self._min_coverage_for(
            codes.shape[0] if weights is None else float(weights.sum()))
        return codes, y_enc, weights

    def _row_weights(self, y: np.ndarray, sample_weight: Any) -> np.ndarray | None:
        """``sample_weight`` times the class weights, checked (one non-negative finite weight
        per row, not all zero), or None when neither is given."""
        w = class_sample_weight(self.class_weight, y, sample_weight)
        if w is None:
            return None
        n = np.asarray(y).shape[0]
        try:
            w = _check_sample_weight(w, np.empty((n, 0)), dtype=np.float64,
                                     ensure_non_negative=True, copy=True)
        except ValueError as exc:
            raise InputError(f"{exc} Pass one non-negative finite weight per row "
                             "(sample_weight).") from None
        if not w.sum() > 0:
            raise InputError("sample_weight is zero on every row (after class_weight); give "
                             "some rows a positive weight.")
        return w

    def _min_coverage_for(self, n_rows: int | float) -> int:
        """The integer ``min_coverage`` of a fit on ``n_rows`` training rows (the total
        weight of a weighted fit)."""
        if isinstance(self.min_coverage, str):  # "auto" (checked by _check_params)
            return auto_min_coverage(n_rows)
        return int(self.min_coverage)

    def _build_list(self, codes: np.ndarray, y: np.ndarray,
                    weights: np.ndarray | None = None, found: tuple | None = None,
                    tests: dict | None = None) -> None:
        """Search the list (or take the search's result ``found``) and set it
        (``optirules.learners._decision_list._build``)."""
        build_list(self, codes, y, weights, found, tests)

    def _set_status(self) -> None:
        """``status_`` from ``stop_reason_``: whether ``time_limit`` cut the search short."""
        if self.stop_reason_ == "time_limit":
            k = len(self.rules_)
            self.status_ = (f"time_limit: stopped after {k} rule{'s' * (k != 1)} "
                            f"(time_limit={self.time_limit}, wall-clock: the result depends "
                            "on the machine's speed)")
        else:
            self.status_ = "completed"

    # ------------------------------------------------------------------ predict
    def _classify(self, X: Any) -> tuple[np.ndarray, np.ndarray, list[Any]]:
        """Per row: class-count vector, rule index (-1 none) and OSR result or None."""
        check_fitted(self, "rules_")
        self._check_params()
        self._check_training_rows()
        cols, _, _ = self._validate(X, reset=False)
        return self._classify_codes(*self._encode(cols))

    def _classify_codes(self, codes: np.ndarray, missing: np.ndarray
                        ) -> tuple[np.ndarray, np.ndarray, list[Any]]:
        """:meth:`_classify` of rows encoded by :meth:`_encode` (value codes and missing
        mask)."""
        n = codes.shape[0]
        k = self.classes_.size
        rule_idx = np.full(n, -1, dtype=np.int64)
        open_rows = np.ones(n, dtype=bool)
        counts = np.empty((n, k), dtype=np.asarray(self.default_counts_).dtype)
        for r, rule in enumerate(self.rules_):
            hit = open_rows & rule.evaluate(codes)
            rule_idx[hit] = r
            counts[hit] = rule.class_counts
            open_rows &= ~hit
        osr: list[Any] = [None] * n
        rows = np.flatnonzero(open_rows)
        if rows.size and self.fallback == "min_osr":
            train_codes, train_y = self.train_codes_, self.train_y_
            train_w = getattr(self, "train_weights_", None)
            if self.osr_rows == "uncovered" and self.uncovered_rows_.size:
                train_codes = train_codes[self.uncovered_rows_]
                train_y = train_y[self.uncovered_rows_]
                if train_w is not None:
                    train_w = train_w[self.uncovered_rows_]
            n_values = np.array([len(f.categories) for f in self.features_], dtype=np.int64)
            missing_codes = np.array([f.missing_code for f in self.features_], dtype=np.int64)
            key = np.column_stack([codes[rows], missing[rows]])
            _, first, inverse = np.unique(key, axis=0, return_index=True, return_inverse=True)
            results = minimum_osr_rows(train_codes, train_y, n_values, codes[rows[first]],
                                       missing[rows[first]], k, float(self.confidence),
                                       missing_codes, weights=train_w)
            inverse = np.ravel(inverse)
            for pos, row in enumerate(rows):
                res = results[int(inverse[pos])]
                osr[row] = res
                counts[row] = self.default_counts_ if res.used_default else res.class_counts
        else:
            counts[rows] = self.default_counts_
        return counts, rule_idx, osr

    def predict_proba(self, X: Any) -> np.ndarray:
        """Class distribution behind each decision smoothed toward the training class
        shares, ``(n_c + m prior_c) / (n + m)``, ``m = PRIOR_STRENGTH`` (the rule set's
        m-estimate), its largest entry the prediction; chosen over Laplace by the suite's
        Brier scores (``benchmarks/results/suite_decision_list.md``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the layout of the training data (same columns).

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Class probabilities, columns in the order of ``classes_``.
        """
        return self._smoothed(self._classify(X)[0])

    def _smoothed(self, counts: np.ndarray) -> np.ndarray:
        total = np.asarray(self.default_counts_, dtype=float) + sum(
            (np.asarray(r.class_counts, dtype=float) for r in self.rules_),
            np.zeros(self.classes_.size))
        return smoothed_distribution(counts, total / total.sum())

    def predict(self, X: Any) -> np.ndarray:
        """Class of the first rule that covers each row, else of the fallback.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the layout of the training data (same columns).

        Returns
        -------
        ndarray of shape (n_samples,)
            The predicted class of each row.
        """
        counts, _, _ = self._classify(X)
        return self.classes_[np.argmax(counts, axis=1)]

    def explain(self, X: Any) -> pd.DataFrame:
        """Which rule, OSR path or default rule classified each row.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the layout of the training data (same columns).

        Returns
        -------
        DataFrame with one row per input row and the columns every learner's ``explain``
        starts with (``optirules.learners._explain``)

        - ``prediction``: the predicted class;
        - ``score``: :meth:`predict_proba` of it (the smoothed class share behind the
          decision);
        - ``rules``: ``[text]``, the one rule that decided;
        - ``fired``: ``{prediction: [text]}`` when a rule or an OSR path decided, ``{}``
          for the default rule;
        - ``text``: the rule that decided, e.g. ``IF odor = n THEN 0`` (an OSR rule is
          written the same way; the default rule as ``DEFAULT <class>``);

        then its own

        - ``method``: ``"rule"``, ``"min_osr"`` or ``"default"``;
        - ``rule``: index into ``rules_`` of the rule that fired, -1 if none;
        - ``fallback``: True when no rule covered the row;
        - ``osr_path``: tuple of ``(feature name, value)`` pairs of the OSR rule (empty
          otherwise);
        - ``osr_stop``: why the OSR path stopped (see ``OSRResult``), ``""`` otherwise.
        """
        counts, rule_idx, osr = self._classify(X)
        preds = self.classes_[np.argmax(counts, axis=1)]
        rows = []
        for i in range(counts.shape[0]):
            r = int(rule_idx[i])
            res = osr[i]
            if r >= 0:
                rows.append((preds[i], "rule", r, False, str(self.rules_[r]), (), ""))
            elif res is None or res.used_default:
                rows.append((preds[i], "default", -1, True, f"DEFAULT {preds[i]}", (),
                             "" if res is None else res.stop))
            else:
                conds = [self._condition(j, v) for j, v in res.path]
                body = " AND ".join(str(c) for c in conds) if conds else "TRUE"
                text = f"IF {body} THEN {preds[i]}"
                rows.append((preds[i], "min_osr", -1, True, text,
                             tuple((c.name, c.label) for c in conds), res.stop))
        frame = pd.DataFrame(rows, columns=["prediction", "method", "rule", "fallback", "text",
                                            "osr_path", "osr_stop"])
        proba = self._smoothed(counts)
        return explain_frame(
            preds, proba[np.arange(len(preds)), np.argmax(counts, axis=1)],
            [[t] for t in frame["text"]],
            [{} if m == "default" else {json_scalar(p): [t]}
             for p, m, t in zip(preds, frame["method"], frame["text"])],
            list(frame["text"]),
            extra={c: frame[c] for c in ("method", "rule", "fallback", "osr_path", "osr_stop")})

    def rules_table(self, X: Any = None, y: Any = None) -> pd.DataFrame:
        """A DataFrame, one row per entry in list order and a last row for the default
        entry: ``class`` (the entry's prediction), ``rule``, ``n_literals``, ``support`` (the
        rows the entry classifies: covered by it and by no earlier entry; for the default,
        the rows no entry covers), ``precision``, ``recall``.

        Without ``X`` and ``y``: the training class counts each entry stored (weight sums
        for a weighted fit); with them, row counts on that data
        (``optirules.learners._rules_table``).

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
            One row per entry in list order, then the default entry.
        """
        return self._table_builder(self, X, y)

    def _condition(self, j: int, v: int) -> AttributeTest:
        feat = self.features_[j]
        return AttributeTest(j, feat.name, int(v), feat.label(int(v)), feat.condition(int(v)))

    # ------------------------------------------------------------------ printing
    # (str: RuleModelMixin; to_text takes stats, explain adds columns: both the list's own)
    _fitted_attribute = "rules_"
    _model_kind = "decision_list"

    def to_text(self, stats: bool = False) -> str:
        """The list as text, one rule a line; ``stats`` appends coverage and Laplace accuracy
        (for a weighted fit, the weighted coverage: the weight sum of the rows covered).

        Parameters
        ----------
        stats : bool, default False
            Append each rule's coverage and Laplace accuracy.

        Returns
        -------
        str
            One rule a line, the default entry last.
        """
        self._check_fitted()
        lines = []
        for r, rule in enumerate(self.rules_):
            line = ("ELSE " if r else "") + str(rule)
            if stats:
                line += (f"    [covers {count_text(rule.coverage)}, "
                         f"Laplace {rule.laplace:.4f}]")
            lines.append(line)
        prefix = "ELSE " if self.rules_ else ""
        lines.append(f"{prefix}DEFAULT {self.default_class_}    {fallback_note(self)}")
        return "\n".join(lines)

    # ------------------------------------------------------------------ JSON
    # (to_json writes through RuleModelMixin._write_json, with its own document)
    _json_format = JSON_FORMAT
    _json_version = JSON_VERSION
    _json_versions = JSON_VERSIONS
    _json_allow_nan = False

    def _osr_rows_needed(self) -> str:
        """The training rows the current ``fallback`` / ``osr_rows`` need at prediction."""
        if self.fallback != "min_osr":
            return "none"
        if self.osr_rows == "uncovered" and self.uncovered_rows_.size:
            return "uncovered"
        return "all"

    def _check_training_rows(self) -> None:
        """Refuse Minimum OSR over training rows this (loaded) estimator does not hold."""
        held = getattr(self, "training_rows_", "all")
        need = self._osr_rows_needed()
        if need == "none" or held == "all" or (held == "uncovered" and need == "uncovered"):
            return
        what = "no training rows" if held == "none" else "only the uncovered training rows"
        raise InputError(
            f"this decision list was loaded with {what} (to_json(training_rows={held!r})), "
            f"but fallback='min_osr' with osr_rows={self.osr_rows!r} grows Minimum OSR on "
            f"{'all training rows' if need == 'all' else 'the uncovered training rows'}; set "
            "fallback='default'"
            + (", or osr_rows='uncovered'" if held == "uncovered" else "")
            + ", or export the fitted model with to_json(training_rows='all').")

    def to_json(self, path: str | os.PathLike | None = None, *, indent: int | None = None,
                training_rows: str = "auto") -> str:
        """Serialize the fitted list as JSON (plus the training rows Minimum OSR needs).

        Minimum OSR grows a rule for each uncovered test point from training rows, so a
        model that uses it must carry them; the rules and the default rule need none.

        Parameters
        ----------
        path : str or path-like, optional
            Also write the JSON text to this file.
        indent : int, optional
            Indentation of the JSON text.
        training_rows : {"auto", "all", "uncovered", "none"}, default "auto"
            Encoded training rows to store.  ``"auto"``: what the current parameters
            need - none with ``fallback="default"``, the rows no rule covers with
            ``osr_rows="uncovered"`` (all rows if every row is covered), all rows with
            ``osr_rows="all"``.  ``"all"`` keeps every choice of ``fallback`` and
            ``osr_rows`` open after loading; a loaded model asked for Minimum OSR over rows
            it does not hold raises :class:`~optirules.errors.InputError`.  The rows are
            stored packed (value codes as base64 bytes, one byte per value when every
            attribute has at most 256 values), not as the original data.

        Returns
        -------
        str
            The JSON text; :meth:`from_json` restores a classifier with identical
            predictions.
        """
        return self._write_json(path, indent, training_rows=training_rows)

    def _json_document(self, training_rows: str = "auto") -> dict[str, Any]:
        """The whole document, header included: the decision list keeps its own header
        (``params`` as ``get_params`` gives them, ``classes`` with their ``classes_dtype``;
        ``optirules.learners._decision_list._json``), then the features, rules, default
        counts and the ``training`` rows ``training_rows`` asks for."""
        if training_rows not in TRAINING_ROWS:
            raise InputError(f"training_rows must be one of {TRAINING_ROWS}, got "
                             f"{training_rows!r}.")
        return decision_list_to_doc(self, training_rows)

    @classmethod
    def from_json(cls, source: str | os.PathLike) -> DecisionListClassifier:
        """Restore a classifier written by :meth:`to_json` (JSON text or a file path).

        Only JSON is parsed (no pickle, no code), and every part is checked - parameters,
        classes, features, rule tests and counts, the stored training rows - so a damaged
        or foreign file raises :class:`~optirules.errors.InputError` instead of a model
        that fails later.  Files of format version 1 (the whole training matrix as lists),
        2 (``max_depth`` for ``max_degree``) and 3 (no row weights: integer counts) are read
        too; version 4 adds real (weighted) class counts and ``train_weights_``.

        Parameters
        ----------
        source : str or path-like
            JSON text or the path of a JSON file.

        Returns
        -------
        DecisionListClassifier
            The fitted classifier.
        """
        return decision_list_from_text(cls, source)
