"""Checks of the labels, sample weights and row counts the binary learners share, and the
progress log of their ``verbose`` parameter."""

from __future__ import annotations

import logging
import math
import numbers
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.utils._param_validation import (
    HasMethods,
    Interval,
    InvalidParameterError,
    StrOptions,
)
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, _num_samples, column_or_1d

from ..errors import InputError

__all__ = ["input_names", "model_kind", "check_binary_targets", "normalized_weights", "n_rows", "fit_binarizer", "check_fitted",
           "FittedMixin", "check_2d", "check_n_jobs", "check_random_state", "check_binarized_input",
           "progress_logger", "class_sample_weight", "weighted_rows", "table_kind",
           "binary_input_summary", "binarized_input_summary", "validate_params", "Number",
           "CaseInsensitiveStrOptions", "Collection", "RANDOM_STATE", "N_JOBS", "VERBOSE",
           "TIME_LIMIT", "CLASS_WEIGHT", "CV", "SCORING", "is_int", "is_number"]


def is_int(value: Any, low: int = 1) -> bool:
    """Whether ``value`` is an integer (numpy's included, a bool not) of at least ``low``."""
    return (isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
            and value >= low)


def is_number(value: Any, low: float = 0.0, strict: bool = False) -> bool:
    """Whether ``value`` is a finite number (a bool not) of at least ``low`` (above it when
    ``strict``)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        return False
    v = float(value)
    return math.isfinite(v) and (v > low if strict else v >= low)


# ==================================================================== parameter constraints
class Number(Interval):
    """scikit-learn's :class:`~sklearn.utils._param_validation.Interval` that refuses what
    the learners always refused: booleans (``True`` is an int to Python) and, over the reals,
    NaN and the infinities (a closed bound at None still means "no bound", not ``inf``)."""

    def is_satisfied_by(self, val: Any) -> bool:
        if isinstance(val, (bool, np.bool_)):
            return False
        if isinstance(val, numbers.Real) and not isinstance(val, numbers.Integral) \
                and not math.isfinite(float(val)):
            return False
        return super().is_satisfied_by(val)

    def __str__(self) -> str:
        text = super().__str__()
        return text if self.type is numbers.Integral else \
            text.replace("a float in", "a finite number in", 1)


class CaseInsensitiveStrOptions(StrOptions):
    """:class:`~sklearn.utils._param_validation.StrOptions` compared in lower case."""

    def is_satisfied_by(self, val: Any) -> bool:
        return isinstance(val, str) and val.lower() in self.options


class Collection(HasMethods):
    """An iterable that is not a string (a list, tuple, array, set ...); ``exclude`` names
    further iterable types that are refused (e.g. ``dict``)."""

    def __init__(self, exclude: tuple[type, ...] = ()) -> None:
        super().__init__(["__iter__"])
        self.exclude = (str, bytes) + tuple(exclude)

    def is_satisfied_by(self, val: Any) -> bool:
        return isinstance(val, Iterable) and not isinstance(val, self.exclude)

    def __str__(self) -> str:
        return "a sequence (list, tuple or array)"


#: ``random_state`` as :func:`check_random_state` takes it
RANDOM_STATE: list = [None, Number(numbers.Integral, 0, 2**32 - 1, closed="both"),
                      np.random.RandomState]
#: ``n_jobs`` as joblib takes it: None or a nonzero int (-1: every core)
N_JOBS: list = [None, Number(numbers.Integral, None, -1, closed="right"),
                Number(numbers.Integral, 1, None, closed="left")]
#: ``verbose``: a flag or a level (scikit-learn's "verbose")
VERBOSE: list = ["verbose"]
#: ``time_limit``: None or a positive finite number of seconds
TIME_LIMIT: list = [None, Number(numbers.Real, 0, None, closed="neither")]
#: ``class_weight`` (:func:`class_sample_weight` checks the labels and weights of a dict)
CLASS_WEIGHT: list = [None, StrOptions({"balanced"}), Mapping]
#: ``cv`` of the cross-validated learners (:func:`~._cv.cv_splits` reads it)
CV: list = [Number(numbers.Integral, 2, None, closed="left"), HasMethods(["split"]),
            Collection(exclude=(dict,))]
#: ``scoring``: None, a scorer name (checked by scikit-learn's ``get_scorer``) or a callable
SCORING: list = [None, str, callable]


def validate_params(estimator: Any) -> None:
    """Check ``estimator``'s parameters against its ``_parameter_constraints`` (scikit-learn's
    declarative validation), before any work; a bad value raises :class:`InputError` with
    scikit-learn's message (naming the parameter, the accepted values and the value given)."""
    try:
        estimator._validate_params()
    except InvalidParameterError as exc:
        raise InputError(f"{exc} Fix this {type(estimator).__name__} parameter and fit "
                         "again.") from None


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
    try:
        y = column_or_1d(y, warn=True)
    except ValueError as exc:  # several columns, a single value, rows of other lengths
        raise InputError(f"{exc} Pass one label per row, a 1-D array (for one-hot or "
                         "indicator columns, y.argmax(axis=1)).") from None
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


def weighted_rows(X: Any, y: Any, sample_weight: Any, what: str
                  ) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rows a weighted binary fit uses: ``(X_fit, classes, ypos, P, keep)`` with ``P``
    the weights as a pmf over all rows, ``keep`` the rows of positive weight and ``X_fit``
    those rows of ``X``; ``ypos`` (all rows) from :func:`check_binary_targets`.  No rows,
    or one class left after dropping zero-weight rows, raise :class:`InputError`."""
    n = n_rows(X)
    if n == 0:
        raise InputError("X has no rows; pass at least one example of each class.")
    classes, ypos = check_binary_targets(y, n, what)
    P = normalized_weights(sample_weight, n)
    keep = P > 0
    X_fit = X
    if not keep.all():
        from sklearn.utils import _safe_indexing

        X_fit = _safe_indexing(X, np.flatnonzero(keep))
        if not (ypos[keep].any() and (~ypos[keep]).any()):
            raise InputError("after dropping zero-weight rows only one class is left; give "
                             "rows of both classes a positive weight.")
    return X_fit, classes, ypos, P, keep


def class_sample_weight(class_weight: Any, y: Any, sample_weight: Any = None) -> Any:
    """``sample_weight`` multiplied by the weight of each row's class (scikit-learn's
    ``class_weight``); ``sample_weight`` itself, untouched, when ``class_weight`` is None.

    ``class_weight`` is None, ``"balanced"`` (class ``c`` weighs
    ``n_samples / (n_classes * count(c))``, the counts taken on ``y``) or a dict
    ``{label: weight}`` (a class it does not name weighs 1).  An unknown string, a dict
    naming a label that is not in ``y``, or a negative or non-finite weight raises an
    :class:`InputError`, before any work.  ``y`` holds the labels the weights are computed
    on (all ``K`` classes of a one-vs-rest fit).
    """
    if class_weight is None:
        return sample_weight
    if isinstance(class_weight, str):
        if class_weight != "balanced":
            raise InputError(f"class_weight must be None, 'balanced' or a dict "
                             f"{{label: weight}}, got {class_weight!r}.")
    elif not isinstance(class_weight, Mapping):
        raise InputError(f"class_weight must be None, 'balanced' or a dict {{label: weight}}, "
                         f"got {type(class_weight).__name__} {class_weight!r}.")
    if y is None:
        raise InputError("class_weight needs the class labels y; pass y to fit.")
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim != 1 or y.shape[0] == 0:
        raise InputError("class_weight needs a non-empty 1-D array of class labels y.")
    try:
        classes, y_idx = np.unique(y, return_inverse=True)
    except TypeError as exc:
        raise InputError(f"y holds labels that cannot be sorted ({exc}); pass labels of one "
                         "type.") from None
    y_idx = np.ravel(y_idx)
    if isinstance(class_weight, str):
        counts = np.bincount(y_idx, minlength=classes.size).astype(np.float64)
        per_class = y.shape[0] / (classes.size * counts)
    else:
        per_class = np.ones(classes.size, dtype=np.float64)
        known = {c.item() if isinstance(c, np.generic) else c: i for i, c in enumerate(classes)}
        for label, weight in class_weight.items():
            key = label.item() if isinstance(label, np.generic) else label
            try:
                i = known.get(key)
            except TypeError:  # an unhashable label
                i = None
            if i is None:
                raise InputError(f"class_weight names the label {label!r}, which is not in y "
                                 f"(the classes are {classes.tolist()}); name only labels of "
                                 "y.")
            if isinstance(weight, (bool, np.bool_)) or not isinstance(weight, numbers.Real) \
                    or not np.isfinite(float(weight)) or float(weight) < 0:
                raise InputError(f"class_weight[{label!r}] must be a finite number >= 0, got "
                                 f"{weight!r}.")
            per_class[i] = float(weight)
    w = per_class[y_idx]
    if sample_weight is not None:
        try:
            sw = _check_sample_weight(sample_weight, np.empty((y.shape[0], 0)),
                                      dtype=np.float64, ensure_non_negative=True)
        except ValueError as exc:
            raise InputError(f"{exc} Pass one non-negative finite weight per row.") from None
        w = w * sw
    return w


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


def check_random_state(random_state: Any, name: str = "random_state") -> np.random.RandomState:
    """scikit-learn's ``check_random_state`` after an :class:`InputError` for a value numpy
    would refuse: ``random_state`` must be None, an int in ``[0, 2**32 - 1]`` or a
    ``numpy.random.RandomState``."""
    from sklearn.utils import check_random_state as sklearn_check_random_state

    ok = (random_state is None or isinstance(random_state, np.random.RandomState)
          or (isinstance(random_state, (int, np.integer))
              and not isinstance(random_state, (bool, np.bool_))
              and 0 <= random_state <= 2**32 - 1))
    if not ok:
        raise InputError(f"{name} must be None, an int in [0, 2**32 - 1] or a "
                         f"numpy.random.RandomState, got {random_state!r}; pass e.g. "
                         f"{name}=0 for a reproducible fit.")
    return sklearn_check_random_state(random_state)


def check_binarized_input(binarizer: Any, X: Any) -> None:
    """Refuse at prediction time what fitting a FeatureBinarizer refuses.

    ``binarizer`` is the fitted binarizer of a learner; ``X`` the raw rows to predict.  A
    numeric column with infinite values is refused (``fit`` refuses them too).  A missing
    value (NaN, None) is accepted in every column, as ``fit`` accepts it: it satisfies no
    comparison or category literal of its column (negations included), and the column's
    ``is missing`` literal where the training rows had missing values there; so a row
    whose only missing values fall in columns that had none at fit is decided by its other
    columns (a cross-validation fold or a test set may hold the only NaN of a column).  A
    binarizer without FeatureBinarizer's fitted attributes (``literals_``,
    ``categorical_``) is left to its own ``transform``.
    """
    literals = getattr(binarizer, "literals_", None)
    categorical = getattr(binarizer, "categorical_", None)
    if literals is None or categorical is None:
        return
    import pandas as pd

    names: dict[int, str] = {}
    for lit in literals:
        j = getattr(lit, "column", None)
        if j is None:
            continue
        names.setdefault(int(j), str(lit.feature))
    if not names:
        return
    if isinstance(X, pd.DataFrame):
        frame = X
    else:
        arr = None if sp.issparse(X) else np.asarray(X)
        if arr is None or arr.ndim != 2:
            return  # the binarizer's transform gives the message
        frame = pd.DataFrame(arr)
    n_columns = frame.shape[1]
    for j, name in sorted(names.items()):
        if j >= n_columns:
            return  # a column count mismatch: the binarizer's transform gives the message
        col = frame.iloc[:, j]
        missing = np.asarray(pd.isna(col), dtype=bool)
        if not categorical[j]:
            values = pd.to_numeric(col[~missing], errors="coerce").to_numpy(dtype=float)
            if np.isinf(values).any():
                raise InputError(
                    f"column {name!r} holds infinite values, which fitting refuses; replace "
                    "them by finite numbers.")


def table_kind(X: Any) -> str:
    """What ``binarizer="auto"`` sees in ``X``: ``"binary"`` when every entry is 0 or 1
    (numbers or booleans, nothing missing), ``"numeric"`` when every entry is a finite
    number, else ``"raw"`` (strings, categories, missing or infinite values, sparse input
    or anything numpy cannot read as a 2-D table of numbers)."""
    import pandas as pd

    if sp.issparse(X):
        return "raw"
    if isinstance(X, pd.DataFrame):
        if not all(pd.api.types.is_bool_dtype(t) or (pd.api.types.is_numeric_dtype(t)
                                                     and not isinstance(t, pd.CategoricalDtype))
                   for t in X.dtypes):
            return "raw"
        try:
            A = X.to_numpy(dtype=float, na_value=np.nan)
        except (TypeError, ValueError):
            return "raw"
    else:
        try:
            A = np.asarray(X)
        except (TypeError, ValueError):
            return "raw"
        if A.dtype.kind not in "biuf":
            return "raw"
    if A.ndim != 2 or A.size == 0:
        return "raw"
    if A.dtype.kind == "b":
        return "binary"
    if A.dtype.kind == "f" and not np.isfinite(A).all():
        return "raw"
    return "binary" if np.all((A == 0) | (A == 1)) else "numeric"


def binary_input_summary(n_columns: int) -> str:
    """``input_summary_`` of a learner that took X's 0/1 columns as they are."""
    return f"input: {n_columns} 0/1 columns taken as they are (literals x == 1 and x == 0)"


def binarized_input_summary(binarizer: Any, n_literals: int) -> str:
    """``input_summary_`` of a learner that binarized X with ``binarizer``."""
    return f"input: binarized by {type(binarizer).__name__} into {n_literals} literals"


def model_kind(model: Any) -> str | None:
    """What a fitted rule learner is (its class's ``_model_kind``: ``"rule_set"``, ``"dro"``,
    ``"decision_list"``, ``"boosting"``), or None for anything else."""
    return getattr(type(model), "_model_kind", None)


def input_names(model: Any) -> list[str] | None:
    """The input column names a model was fitted on (``feature_names_in_``), or None when it
    was fitted on an array."""
    names = getattr(model, "feature_names_in_", None)
    return None if names is None else [str(c) for c in names]


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


class FittedMixin:
    """``_check_fitted``: :func:`check_fitted` on the class attribute ``_fitted_attribute``
    (the attribute a fitted learner has), shared by the text and JSON mixins; a learner
    with a check of its own defines ``_check_fitted`` in its class."""

    #: the attribute a fitted learner has
    _fitted_attribute: str

    def _check_fitted(self) -> None:
        check_fitted(self, self._fitted_attribute)


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
        from .._progress import TqdmLogHandler

        handler = TqdmLogHandler()  # through tqdm.write: never on the progress bar's line
        handler.setFormatter(logging.Formatter("[%(name)s] %(message)s"))
        package.addHandler(handler)
        if package.level == logging.NOTSET or package.level > logging.INFO:
            package.setLevel(logging.INFO)
    return logger
