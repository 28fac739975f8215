"""Turn a table of numeric, categorical and missing values into binary literals.

Rule learners (the DRO paper's DNF rule sets, the Minimum OSR paper's decision lists, Long and Servedio's
best-single-literal booster) work on binary features ``X ∈ {0,1}^{N×d}`` whose
columns are *literals*: readable conditions such as ``age > 52.5``,
``color == red`` or ``ca is missing``.  :class:`FeatureBinarizer` builds these
literals from training data; :class:`Literal` is the typed description of one
of them, so that a learner can print a rule in the caller's terms and evaluate
it on raw data again.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils._param_validation import Interval, InvalidParameterError
from sklearn.utils.validation import _check_feature_names_in, validate_data

from ..errors import InputError, NotFittedError

__all__ = ["FeatureBinarizer", "Literal", "OPS"]

#: The comparison operators a :class:`Literal` may carry.
OPS: tuple[str, ...] = ("<=", ">", "==", "!=", "is missing", "is not missing")

_NEGATION = {
    "<=": ">",
    ">": "<=",
    "==": "!=",
    "!=": "==",
    "is missing": "is not missing",
    "is not missing": "is missing",
}
_NUMERIC_OPS = ("<=", ">")
_EQUALITY_OPS = ("==", "!=")
_MISSING_OPS = ("is missing", "is not missing")


# ----------------------------------------------------------------------------------------------
# value formatting and conversion helpers
# ----------------------------------------------------------------------------------------------


def _python_scalar(value: Any) -> Any:
    """Turn numpy scalars into the equivalent Python scalars (for readable reprs and JSON)."""
    if isinstance(value, np.generic):
        return value.item()
    return value


def _looks_numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def format_value(value: Any) -> str:
    """Format a threshold or category the way literal names show it.

    Floats use the shortest decimal that reads back as the same number
    (``52.5``, ``0.15``, integral floats without ``.0``); very large or very
    small magnitudes use scientific notation.  Strings are shown bare
    (``color == red``) unless they could be mistaken for a number, a boolean
    or would hide whitespace, in which case they are quoted (``code == '1'``).
    """
    value = _python_scalar(value)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        v = float(value)
        if not math.isfinite(v):
            return repr(v)
        if v == 0.0:
            return "0"
        if 1e-6 <= abs(v) < 1e16:
            return np.format_float_positional(v, trim="-")
        return repr(v)
    if isinstance(value, str):
        if (
            value == ""
            or value != value.strip()
            or _looks_numeric(value)
            or value in ("True", "False")
        ):
            return repr(value)
        return value
    return str(value)


def _short_between(a: float, b: float) -> float:
    """A short decimal ``t`` with ``a < t < b`` (``a <= t < b`` when no float lies between).

    The midpoint ``(a + b) / 2`` is rounded to the fewest decimals that keep it strictly
    inside the gap, so that thresholds read ``52.5`` or ``0.15`` rather than
    ``0.15000000000000002``.
    """
    mid = a / 2.0 + b / 2.0
    for decimals in range(0, 18):
        t = float(round(mid, decimals))
        if a < t < b:
            return t
    if a < mid < b:
        return float(mid)
    return float(a)


def _is_real_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def _as_object(values: Any) -> tuple[np.ndarray, np.ndarray]:
    """Values as a 1-D object array with missing entries replaced by ``None``, and the mask."""
    arr = np.asarray(pd.Series(values).to_numpy(dtype=object), dtype=object).copy()
    missing = np.asarray(pd.isna(arr), dtype=bool)
    arr[missing] = None
    return arr, missing


def _as_float(values: Any, feature: str) -> np.ndarray:
    """Values as a float array (NaN for missing); a non-numeric entry raises InputError."""
    s = values if isinstance(values, pd.Series) else pd.Series(values)
    if pd.api.types.is_bool_dtype(s.dtype):
        return s.to_numpy(dtype=float, na_value=np.nan)
    if pd.api.types.is_complex_dtype(s.dtype):
        raise InputError(f"Complex data not supported: column {feature!r} holds complex numbers; "
                         "pass real-valued columns.")
    if not pd.api.types.is_numeric_dtype(s.dtype):
        try:
            s = pd.to_numeric(s.astype(object), errors="raise")
        except (ValueError, TypeError) as exc:
            bad = next((v for v in s.astype(object) if not pd.isna(v) and not _is_real_number(v)
                        and not _looks_numeric(str(v))), "?")
            raise InputError(
                f"column {feature!r} must hold numbers (it was numeric in the training data), but "
                f"it holds the non-numeric value {bad!r}; pass numbers (or NaN for a missing "
                "value) in this column, or refit with the column listed in categorical_features."
            ) from exc
    return s.to_numpy(dtype=float, na_value=np.nan)


def _evaluate(op: str, value: Any, values: np.ndarray, missing: np.ndarray) -> np.ndarray:
    """Evaluate one condition on prepared values (floats for <=/>, objects for ==/!=)."""
    if op == "is missing":
        return missing.copy()
    if op == "is not missing":
        return ~missing
    if op in _NUMERIC_OPS:
        with np.errstate(invalid="ignore"):
            out = values <= value if op == "<=" else values > value
        return np.asarray(out, dtype=bool) & ~missing
    equal = np.asarray(values == value, dtype=bool)
    out = equal if op == "==" else ~equal
    return out & ~missing


# ----------------------------------------------------------------------------------------------
# Literal
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Literal:
    """One binary feature made from one input column: ``feature op value``.

    Parameters
    ----------
    feature : str
        Name of the input column (a DataFrame column name, or ``x0, x1, ...`` for arrays).
    op : {'<=', '>', '==', '!=', 'is missing', 'is not missing'}
        The comparison.  ``<=`` and ``>`` compare numbers with a threshold, ``==`` and ``!=``
        compare categories, the last two test for a missing value (``None``, NaN, ``pd.NA``).
    value : float, int, str, bool or None
        The threshold or category; ``None`` for the two missing-value operators.
    column : int or None
        Position of ``feature`` among the binarizer's input columns, used when
        :meth:`evaluate` receives a numpy array without column names.

    Notes
    -----
    A missing value satisfies only ``is missing``: every comparison (``<=``, ``>``, ``==``
    and also ``!=``) is False on it.  Hence a literal and its :meth:`negation` are exact
    complements on the rows where the value is present, and both are False where it is
    missing.

    Examples
    --------
    >>> lit = Literal("age", ">", 52.5)
    >>> str(lit)
    'age > 52.5'
    >>> lit.evaluate(pd.DataFrame({"age": [40, 60, None]})).tolist()
    [False, True, False]
    """

    feature: str
    op: str
    value: float | int | str | bool | None = None
    column: int | None = None

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise InputError(f"unknown literal operator {self.op!r}; use one of {list(OPS)}.")
        value = _python_scalar(self.value)
        if self.op in _MISSING_OPS:
            if value is not None:
                raise InputError(f"the operator {self.op!r} takes no value (got {value!r}); "
                                 "pass value=None.")
        elif self.op in _NUMERIC_OPS:
            if not _is_real_number(value) or not math.isfinite(float(value)):
                raise InputError(f"the operator {self.op!r} needs a finite number as value "
                                 f"(got {value!r}); use '==' / '!=' for categories.")
            value = float(value)
        elif value is None:
            raise InputError(f"the operator {self.op!r} needs a value (a category); "
                             "use 'is missing' to test for missing values.")
        object.__setattr__(self, "value", value)
        if self.column is not None:
            object.__setattr__(self, "column", int(self.column))

    def __str__(self) -> str:
        return self.to_string()

    def to_string(self, feature: str | None = None) -> str:
        """The readable condition, e.g. ``age > 52.5``; ``feature`` overrides the column name.

        Parameters
        ----------
        feature : str, optional
            Name written for the column; ``None`` writes the literal's own column name.

        Returns
        -------
        str
            The condition as text.
        """
        name = self.feature if feature is None else feature
        if self.op in _MISSING_OPS:
            return f"{name} {self.op}"
        return f"{name} {self.op} {format_value(self.value)}"

    def negation(self) -> Literal:
        """The complementary literal (``<=`` ↔ ``>``, ``==`` ↔ ``!=``, missing ↔ not missing).

        The two are complements on rows where the value is present (see Notes of the class).

        Returns
        -------
        Literal
            The literal true exactly where this one is false (values present).
        """
        return Literal(self.feature, _NEGATION[self.op], self.value, self.column)

    def evaluate(self, X: Any) -> np.ndarray:
        """Evaluate the condition on raw data, with exactly the binarizer's semantics.

        Parameters
        ----------
        X : DataFrame, Series, 1-D or 2-D array-like
            A DataFrame is read by column name; a 2-D array by ``column``; a Series or
            1-D array is taken to be the column itself.

        Returns
        -------
        numpy.ndarray of bool, shape (n_samples,)
        """
        values = self._column_values(X)
        if self.op in _NUMERIC_OPS:
            x = _as_float(values, self.feature)
            return _evaluate(self.op, self.value, x, np.isnan(x))
        obj, missing = _as_object(values)
        return _evaluate(self.op, self.value, obj, missing)

    def _column_values(self, X: Any) -> Any:
        if isinstance(X, pd.DataFrame):
            if self.feature in X.columns:
                return X[self.feature]
            raise InputError(f"the data has no column {self.feature!r} for the literal "
                             f"'{self}'; its columns are {list(map(str, X.columns))[:20]}.")
        if isinstance(X, pd.Series):
            return X
        arr = np.asarray(X, dtype=object) if not hasattr(X, "dtype") else np.asarray(X)
        if arr.ndim == 1:
            return arr
        if arr.ndim == 2:
            if self.column is None:
                raise InputError(f"the literal '{self}' has no column position; pass a DataFrame "
                                 f"with a column {self.feature!r} or a 1-D array of its values.")
            if not 0 <= self.column < arr.shape[1]:
                raise InputError(f"the literal '{self}' reads column {self.column}, but the data "
                                 f"has only {arr.shape[1]} columns.")
            return arr[:, self.column]
        raise InputError(f"expected 1-D or 2-D data, got an array of shape {arr.shape}.")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary; :meth:`from_dict` reads it back.

        Returns
        -------
        dict
            The literal's fields, of JSON types only.
        """
        return {"feature": self.feature, "op": self.op, "value": self.value,
                "column": self.column}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Literal:
        """Build a literal from :meth:`to_dict` output.

        Parameters
        ----------
        data : dict
            A dictionary written by :meth:`to_dict` (e.g. read back from JSON).

        Returns
        -------
        Literal
            The literal it describes.
        """
        try:
            return cls(data["feature"], data["op"], data.get("value"), data.get("column"))
        except KeyError as exc:
            raise InputError(f"a literal needs the keys 'feature' and 'op'; {exc} is missing."
                             ) from None


# ----------------------------------------------------------------------------------------------
# FeatureBinarizer
# ----------------------------------------------------------------------------------------------


def _thresholds(values: np.ndarray, n_thresholds: int,
                weights: np.ndarray | None = None) -> np.ndarray:
    """Thresholds of one numeric column (missing values already removed), ascending.

    With ``k`` distinct values there are ``k - 1`` gaps.  If ``k - 1 <= n_thresholds``
    every gap gets a threshold; otherwise, for each level ``q = 1/(n+1), ..., n/(n+1)``,
    the gap whose empirical CDF (fraction of training values ``<=`` its lower end, each
    value counted with its weight when ``weights`` is given) is closest to ``q`` (the lower
    gap on ties), duplicates removed.  Each threshold is a short decimal strictly inside its
    gap.  An integer weight ``w`` on a row gives the thresholds of the row repeated ``w``
    times.
    """
    distinct, inverse = np.unique(values, return_inverse=True)
    counts = np.bincount(inverse, weights=weights, minlength=distinct.size)
    if distinct.size < 2:
        return np.empty(0)
    n_gaps = distinct.size - 1
    if n_gaps <= n_thresholds:
        gaps = np.arange(n_gaps)
    else:
        cdf = np.cumsum(counts)[:-1] / counts.sum()
        levels = np.arange(1, n_thresholds + 1) / (n_thresholds + 1)
        gaps = np.unique(np.argmin(np.abs(cdf[None, :] - levels[:, None]), axis=1))
    return np.array([_short_between(float(distinct[g]), float(distinct[g + 1])) for g in gaps])


def _sorted_categories(values: np.ndarray, dtype: Any) -> list[Any]:
    """Distinct non-missing values in a deterministic order."""
    if isinstance(dtype, pd.CategoricalDtype) and dtype.ordered:
        present = set(pd.unique(values).tolist())
        return [_python_scalar(c) for c in dtype.categories if c in present]
    try:
        uniques = pd.unique(values)
    except TypeError as exc:
        raise InputError(f"a categorical column holds unhashable values ({exc}); pass strings, "
                         "numbers or booleans.") from None
    uniques = [_python_scalar(u) for u in uniques]
    try:
        return sorted(uniques)
    except TypeError:
        return sorted(uniques, key=lambda u: (type(u).__name__, str(u)))


def _is_number_object_column(values: np.ndarray) -> bool:
    present = values[~np.asarray(pd.isna(values), dtype=bool)]
    return present.size > 0 and all(_is_real_number(v) for v in present)


class FeatureBinarizer(TransformerMixin, BaseEstimator):
    """Binarize numeric and categorical columns into readable literals.

    Each output column is a :class:`Literal` (``age <= 52.5``, ``color == red``,
    ``ca is missing``); ``literals_`` lists them and :meth:`get_feature_names_out`
    returns their names.

    Parameters
    ----------
    n_thresholds : int, default=9
        Number of quantile levels ``q = 1/(n+1), ..., n/(n+1)`` per numeric column
        (the default gives deciles).  A numeric column with at most ``n_thresholds + 1``
        distinct training values gets a threshold between every pair of adjacent values;
        a 0/1 column therefore gets the single threshold ``0.5``.  Otherwise each level
        picks the gap between adjacent distinct training values whose empirical CDF is
        closest to it; thresholds that coincide are kept once, so a column may get fewer
        than ``n_thresholds``.  A threshold is the midpoint of the two training values it
        separates, rounded to the fewest decimals that keep it strictly between them
        (``52.5`` between 52 and 53, ``36`` between 33 and 40, ``0.15`` between 0.1 and
        0.2), so no literal is constant on the training data and names stay readable.
    negations : bool, default=True
        Also emit the complement of each literal, right after it: ``x > t`` after
        ``x <= t``, ``c != v`` after ``c == v`` and ``c is not missing`` after
        ``c is missing``.  A categorical column with exactly two training categories
        ``a < b`` gets ``c == a`` and, with negations, ``c == b`` (which reads better than
        ``c != a`` and equals it on every row holding ``a`` or ``b``).  With
        ``negations=False`` numeric columns give only ``<=`` literals, categorical
        columns only ``==`` literals (one literal for a two-category column).
    categorical_features : list of str or int, array of bool, or None, default=None
        Columns to treat as categorical, by name, position or boolean mask, *in addition*
        to the automatic choice.  Automatically categorical are columns whose dtype is not
        numeric: strings, ``object`` (unless every present entry is a real number),
        ``category`` and ``bool``.  Numeric codes of categories (e.g. the MONK's
        attributes ``a1..a6``) stay numeric unless listed here.
    missing_indicator : bool, default=True
        Add ``c is missing`` (and with negations ``c is not missing``) for each column
        that has missing values in the training data.

    Attributes
    ----------
    literals_ : list of Literal
        One per output column, grouped by input column in input order.
    categorical_ : numpy.ndarray of bool, shape ``(n_features_in_,)``
        Which input columns were treated as categorical.
    thresholds_ : dict
        Numeric column name -> ascending array of thresholds.
    categories_ : dict
        Categorical column name -> list of training categories (sorted; the category
        order of an ordered pandas ``Categorical``).
    n_features_in_ : int
        Number of input columns.
    feature_names_in_ : numpy.ndarray of str
        Input column names, when fitted on a DataFrame with string column names.

    Notes
    -----
    Semantics at transform time (the same as :meth:`Literal.evaluate`):

    * a missing value (``None``, NaN, ``pd.NA``) satisfies only ``is missing``; every
      comparison, ``!=`` included, is 0 on it.  A column that had no missing values in
      training has no indicator, so its missing rows are 0 in all of its literals;
    * a category not seen in training is 0 in every ``==`` literal and 1 in every ``!=``
      literal of its column;
    * numeric values outside the training range (and ``±inf``) are compared with the
      thresholds as usual.

    ``fit`` accepts and ignores ``y`` (so the binarizer can sit in a Pipeline).  Output
    is a ``numpy.uint8`` array of 0/1, or a DataFrame after ``set_output(transform="pandas")``.
    The transformation is deterministic.  Constant columns give no literals; if no column
    gives one, the output has zero columns and a warning says so.

    Examples
    --------
    >>> X = pd.DataFrame({"age": [25, 40, 52, 53, 70], "color": ["red", "blue", "red",
    ...                   "green", None]})
    >>> fb = FeatureBinarizer(n_thresholds=1).fit(X)
    >>> [str(lit) for lit in fb.literals_]  # doctest: +NORMALIZE_WHITESPACE
    ['age <= 46', 'age > 46', 'color == blue', 'color != blue', 'color == green',
     'color != green', 'color == red', 'color != red', 'color is missing',
     'color is not missing']
    """

    _parameter_constraints: dict = {
        "n_thresholds": [Interval(numbers.Integral, 1, None, closed="left")],
        "negations": ["boolean"],
        "categorical_features": [None, "array-like"],
        "missing_indicator": ["boolean"],
    }

    def __init__(self, n_thresholds: int = 9, *, negations: bool = True,
                 categorical_features: Sequence[str | int] | None = None,
                 missing_indicator: bool = True) -> None:
        self.n_thresholds = n_thresholds
        self.negations = negations
        self.categorical_features = categorical_features
        self.missing_indicator = missing_indicator

    # -- sklearn plumbing ----------------------------------------------------------------------

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.transformer_tags.preserves_dtype = []
        return tags

    def _check_params(self) -> None:
        try:
            self._validate_params()
        except InvalidParameterError as exc:
            raise InputError(f"{exc} Fix the FeatureBinarizer argument and fit again.") from None

    @staticmethod
    def _frame(X: Any) -> pd.DataFrame:
        """The input as a DataFrame with positional column labels 0..d-1."""
        if isinstance(X, pd.DataFrame):
            frame = X.copy(deep=False)
        else:
            if hasattr(X, "toarray") or hasattr(X, "tocsr"):
                raise InputError("sparse input is not supported by FeatureBinarizer; pass a dense "
                                 "array or a DataFrame (e.g. X.toarray()).")
            if hasattr(X, "__dataframe__") and not hasattr(X, "__array__"):
                raise InputError("pass a pandas DataFrame or a numpy array.")
            arr = np.asarray(X)
            if arr.ndim == 1:
                raise InputError(
                    f"Expected 2D array, got 1D array instead (shape {arr.shape}). Reshape your "
                    "data with X.reshape(-1, 1) for one feature or X.reshape(1, -1) for one row."
                )
            if arr.ndim != 2:
                raise InputError(f"Expected 2D data, got an array of shape {arr.shape}; pass a "
                                 "table with one row per sample and one column per feature.")
            if np.iscomplexobj(arr):
                raise InputError("Complex data not supported; pass real-valued features.")
            frame = pd.DataFrame(arr)
        n_samples, n_features = frame.shape
        if n_features == 0:
            raise InputError(
                f"Found array with 0 feature(s) (shape=({n_samples}, 0)) while a minimum of 1 is "
                "required by FeatureBinarizer; pass at least one column."
            )
        frame.columns = range(n_features)
        return frame

    def _validate_names(self, X: Any, *, reset: bool) -> None:
        try:
            validate_data(self, X, skip_check_array=True, reset=reset)
        except (ValueError, TypeError) as exc:
            if reset:
                advice = "Give every column a distinct string name, or pass a numpy array."
            else:
                advice = "Pass the same columns, in the same order, as when fitting the binarizer."
            raise InputError(f"{exc}\n{advice}") from None

    def _display_names(self) -> list[str]:
        if hasattr(self, "feature_names_in_"):
            return [str(c) for c in self.feature_names_in_]
        return [f"x{j}" for j in range(self.n_features_in_)]

    def _categorical_mask(self, frame: pd.DataFrame, names: list[str]) -> np.ndarray:
        n_features = frame.shape[1]
        mask = np.zeros(n_features, dtype=bool)
        for j in range(n_features):
            col = frame[j]
            dtype = col.dtype
            if pd.api.types.is_bool_dtype(dtype) or isinstance(dtype, pd.CategoricalDtype):
                mask[j] = True
            elif pd.api.types.is_complex_dtype(dtype):
                raise InputError(f"Complex data not supported: column {names[j]!r} holds complex "
                                 "numbers; pass real-valued features.")
            elif pd.api.types.is_numeric_dtype(dtype):
                mask[j] = False
            elif pd.api.types.is_object_dtype(dtype):
                mask[j] = not _is_number_object_column(col.to_numpy(dtype=object))
            else:
                mask[j] = True
        chosen = self.categorical_features
        if chosen is None:
            return mask
        chosen = np.asarray(chosen)
        if chosen.dtype == bool:
            if chosen.shape != (n_features,):
                raise InputError(f"categorical_features as a boolean mask needs {n_features} "
                                 f"entries (one per column), got shape {chosen.shape}.")
            return mask | chosen
        for item in chosen.tolist():
            if isinstance(item, str):
                if item not in names:
                    raise InputError(f"categorical_features names the column {item!r}, which the "
                                     f"data does not have; its columns are {names[:20]}.")
                mask[names.index(item)] = True
            elif isinstance(item, numbers.Integral) and not isinstance(item, bool):
                if not -n_features <= item < n_features:
                    raise InputError(f"categorical_features holds the position {item}, but the "
                                     f"data has {n_features} columns.")
                mask[item] = True
            else:
                raise InputError(f"categorical_features entries must be column names or "
                                 f"positions, got {item!r}.")
        return mask

    # -- fit / transform -------------------------------------------------------------------------

    def fit(self, X: Any, y: Any = None, sample_weight: Any = None) -> FeatureBinarizer:
        """Learn thresholds, categories and missing indicators from ``X``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Training data; numeric, categorical and missing values are all allowed
            (infinite values are not: replace them by NaN or a finite number).
        y : ignored
            Accepted for Pipeline compatibility; if given its length must be n_samples.
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative row weights: the quantile thresholds use the weighted empirical CDF
            and rows of weight 0 are left out entirely, so an integer weight ``w`` on a row
            gives the same binarizer as the row repeated ``w`` times.

        Returns
        -------
        self
        """
        self._check_params()
        frame = self._frame(X)
        n_samples = frame.shape[0]
        if n_samples == 0:
            raise InputError(
                f"Found array with 0 sample(s) (shape=(0, {frame.shape[1]})) while a minimum of 1 "
                "is required by FeatureBinarizer; pass at least one row."
            )
        if y is not None:
            y_arr = np.asarray(y)
            if y_arr.ndim == 0 or y_arr.ndim > 2 or y_arr.shape[0] != n_samples:
                raise InputError(f"y has shape {y_arr.shape} but X has {n_samples} rows; pass one "
                                 "label per row (or no y: the binarizer ignores it).")
        weights = None
        if sample_weight is not None:
            weights = np.asarray(sample_weight, dtype=float)
            if weights.shape != (n_samples,) or not np.isfinite(weights).all() or (
                    weights < 0).any() or not weights.any():
                raise InputError(f"sample_weight must hold {n_samples} finite non-negative "
                                 "numbers, not all zero (one per row of X).")
            keep = weights > 0
            frame = frame.loc[keep].reset_index(drop=True)
            weights = weights[keep]
        self._validate_names(X, reset=True)
        names = self._display_names()
        if len(set(names)) != len(names):
            dupes = sorted({n for n in names if names.count(n) > 1})
            raise InputError(f"the columns {dupes} appear more than once; give every column a "
                             "distinct name so that literals can name it.")
        categorical = self._categorical_mask(frame, names)

        literals: list[Literal] = []
        thresholds: dict[str, np.ndarray] = {}
        categories: dict[str, list[Any]] = {}
        for j, name in enumerate(names):
            col = frame[j]
            if categorical[j]:
                obj, missing = _as_object(col)
                cats = _sorted_categories(obj[~missing], col.dtype)
                categories[name] = cats
                literals.extend(self._categorical_literals(name, j, cats))
            else:
                x = _as_float(col, name)
                if np.isinf(x).any():
                    raise InputError(f"column {name!r} holds infinite values; replace them by NaN "
                                     "(treated as missing) or by a finite number before fitting.")
                missing = np.isnan(x)
                cuts = _thresholds(x[~missing], self.n_thresholds,
                                   None if weights is None else weights[~missing])
                thresholds[name] = cuts
                for t in cuts:
                    literals.append(Literal(name, "<=", t, j))
                    if self.negations:
                        literals.append(Literal(name, ">", t, j))
            if self.missing_indicator and missing.any() and not missing.all():
                literals.append(Literal(name, "is missing", None, j))
                if self.negations:
                    literals.append(Literal(name, "is not missing", None, j))

        self.literals_ = literals
        self.categorical_ = categorical
        self.thresholds_ = thresholds
        self.categories_ = categories
        if not literals:
            warnings.warn("FeatureBinarizer found no literal: every column is constant on the "
                          "training data, so transform will return zero columns.", UserWarning,
                          stacklevel=2)
        return self

    def _categorical_literals(self, name: str, j: int, cats: list[Any]) -> list[Literal]:
        out: list[Literal] = []
        if len(cats) == 2:
            out.append(Literal(name, "==", cats[0], j))
            if self.negations:
                out.append(Literal(name, "==", cats[1], j))
        elif len(cats) > 2:
            for v in cats:
                out.append(Literal(name, "==", v, j))
                if self.negations:
                    out.append(Literal(name, "!=", v, j))
        return out

    def _check_fitted(self) -> None:
        if not hasattr(self, "literals_"):
            raise NotFittedError("This FeatureBinarizer instance is not fitted yet; call fit(X) "
                                 "before transform or get_feature_names_out.")

    def transform(self, X: Any) -> np.ndarray:
        """Evaluate every literal on ``X``.

        Parameters
        ----------
        X : DataFrame or array-like of shape ``(n_samples, n_features_in_)``
            Same columns, in the same order, as in :meth:`fit`.

        Returns
        -------
        numpy.ndarray of uint8, shape ``(n_samples, len(literals_))``
        """
        self._check_fitted()
        frame = self._frame(X)
        self._validate_names(X, reset=False)
        names = self._display_names()
        out = np.zeros((frame.shape[0], len(self.literals_)), dtype=np.uint8)
        prepared: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for k, lit in enumerate(self.literals_):
            j = lit.column
            if j not in prepared:
                if self.categorical_[j]:
                    # Category codes by hashing (-1: unseen or missing): the same answers as
                    # comparing each value with ``==``, in one vectorized pass per column.
                    obj, missing = _as_object(frame[j])
                    cats = pd.Index(self.categories_[names[j]], dtype=object)
                    prepared[j] = (cats.get_indexer(obj), missing)
                else:
                    x = _as_float(frame[j], names[j])
                    prepared[j] = (x, np.isnan(x))
            values, missing = prepared[j]
            if self.categorical_[j] and lit.op in _EQUALITY_OPS:
                code = self.categories_[names[j]].index(lit.value)
                equal = values == code
                out[:, k] = equal if lit.op == "==" else ~equal & ~missing
            else:
                out[:, k] = _evaluate(lit.op, lit.value, values, missing)
        return out

    def get_feature_names_out(self, input_features: Any = None) -> np.ndarray:
        """Names of the output columns: the literals as text, e.g. ``age > 52.5``.

        Parameters
        ----------
        input_features : array-like of str or None
            Column names to use instead of the fitted ones (same length).

        Returns
        -------
        numpy.ndarray of str (object dtype)
        """
        self._check_fitted()
        try:
            names = _check_feature_names_in(self, input_features)
        except ValueError as exc:
            raise InputError(f"{exc} Pass one name per input column.") from None
        return np.asarray([lit.to_string(str(names[lit.column])) for lit in self.literals_],
                          dtype=object)
