"""How a decision list turns input columns into value codes (one code per attribute).

BruteDL's tests are ``attribute = value`` on distinct attributes and Minimum OSR splits a node
on every value of one attribute, so the decision list needs a discretization (one code per
column), which :class:`optirules.data.FeatureBinarizer` (binary threshold literals, one
column per literal) does not give.

Missing values follow the rule set's binarizer: a missing categorical value is the value
``"?"``; a numeric column with NaN at fit gets the extra value ``"?"`` after its interval
bins (its ``is missing`` test, ``x = ?``), so a NaN satisfies no interval test, only that
one.  A numeric column without NaN at fit has no such value, and a NaN in it is refused at
prediction.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from sklearn.utils.validation import validate_data

from ...errors import InputError

MISSING = "?"


@dataclass
class _Feature:
    """How one input column becomes value codes."""

    name: str
    kind: str  # "categorical" or "numeric"
    categories: list[str]
    cuts: list[float] | None = None

    @property
    def missing_code(self) -> int:
        """The code of the missing value ``"?"``, -1 when the column had none at fit."""
        if MISSING in self.categories:
            return self.categories.index(MISSING)
        return -1

    def label(self, code: int) -> str:
        return self.categories[code]

    def condition(self, code: int) -> str:
        """How the test ``name = label(code)`` prints: a category as it is (empty: the
        test's default ``name = value``); an interval bin as the rule set prints thresholds,
        with the cut values in full (``x <= c_1``, ``c_1 < x <= c_2``, ``x > c_k``), the
        missing value as ``x is missing`` and the one bin of a column without cuts as
        ``x is not missing``."""
        if self.kind != "numeric":
            return ""
        name = self.name
        if self.categories[code] == MISSING:
            return f"{name} is missing"
        cuts = [] if self.cuts is None else self.cuts
        if not cuts:
            return f"{name} is not missing"
        if code == 0:
            return f"{name} <= {_number(cuts[0])}"
        if code == len(cuts):
            return f"{name} > {_number(cuts[-1])}"
        return f"{_number(cuts[code - 1])} < {name} <= {_number(cuts[code])}"

    def to_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "categories": list(self.categories),
                "cuts": None if self.cuts is None else [float(c) for c in self.cuts]}

    @classmethod
    def from_dict(cls, d: dict) -> _Feature:
        return cls(str(d["name"]), str(d["kind"]), [str(c) for c in d["categories"]],
                   None if d.get("cuts") is None else [float(c) for c in d["cuts"]])


def _number(v: float) -> str:
    """A cut value as the rule set's literals write thresholds (the shortest decimal that
    reads back as the same number)."""
    from ...data import Literal

    return Literal("x", "<=", float(v)).to_string()[len("x <= "):]


def _fmt_num(v: float) -> str:
    return f"{v:.6g}"


def _interval_labels(cuts: np.ndarray) -> list[str]:
    if cuts.size == 0:
        return ["(-inf, inf)"]
    edges = ["-inf"] + [_fmt_num(c) for c in cuts] + ["inf"]
    labels = [f"({edges[i]}, {edges[i + 1]}]" for i in range(len(edges) - 1)]
    labels[-1] = labels[-1][:-1] + ")"
    return labels


def _norm_category(v: Any) -> str:
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, numbers.Real):
        fv = float(v)
        return str(int(fv)) if fv.is_integer() else repr(fv)
    return str(v)


def _category_strings(col: np.ndarray) -> np.ndarray:
    """Column values as category strings; missing (None, NaN, NA, '') becomes ``'?'``."""
    col = np.asarray(col, dtype=object)
    try:
        codes, uniques = pd.factorize(col, use_na_sentinel=True)
        names = np.array([_norm_category(v) for v in uniques] + [MISSING], dtype=object)
        out = names[codes]  # code -1 (missing) picks the trailing "?"
    except TypeError:  # unhashable values: one by one
        missing = np.asarray(pd.isna(col), dtype=bool)
        out = np.array([MISSING if missing[i] else _norm_category(v)
                        for i, v in enumerate(col)], dtype=object)
    out[out == ""] = MISSING
    return out


def _is_real_number(v: Any) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))


def read_columns(est: Any, X: Any, y: Any, reset: bool) -> tuple[list, list, Any]:
    """Check X (and y) with scikit-learn's ``validate_data`` on ``est`` and return the columns
    as 1-D arrays, their inferred kinds and ``(names, y)``."""
    is_frame = isinstance(X, pd.DataFrame)
    try:
        if y is None:
            arr = validate_data(est, X, reset=reset, dtype=None,
                                ensure_all_finite=False)
        else:
            arr, y = validate_data(est, X, y, reset=reset, dtype=None,
                                   ensure_all_finite=False)
    except InputError:
        raise
    except TypeError as exc:
        raise InputError(f"{exc} Pass a 2-D array or a pandas DataFrame.") from exc
    except ValueError as exc:
        raise InputError(f"{exc} Check the shape of X (and y) and pass a dense 2-D "
                         "array or DataFrame.") from exc
    if is_frame:
        cols = [X.iloc[:, j].to_numpy() for j in range(X.shape[1])]
        kinds = []
        for j in range(X.shape[1]):
            dt = X.dtypes.iloc[j]
            numeric = (pd.api.types.is_numeric_dtype(dt)
                       and not pd.api.types.is_bool_dtype(dt)
                       and not isinstance(dt, pd.CategoricalDtype))
            kinds.append("numeric" if numeric else "categorical")
        names = [str(c) for c in X.columns]
    else:
        arr = np.asarray(arr)
        cols = [arr[:, j] for j in range(arr.shape[1])]
        if arr.dtype.kind in "iuf":
            kinds = ["numeric"] * arr.shape[1]
        elif arr.dtype.kind == "O":
            kinds = ["numeric" if all(_is_real_number(v) for v in c) else "categorical"
                     for c in cols]
        else:
            kinds = ["categorical"] * arr.shape[1]
        names = [f"x{j}" for j in range(arr.shape[1])]
    return cols, kinds, (names, y)


def weighted_inverted_cdf(x: np.ndarray, weights: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """The weighted ``inverted_cdf`` quantiles of ``x`` at ``levels``: for each level ``q``,
    the first sorted value whose cumulative weight reaches ``q`` times the total weight.

    A row of integer weight ``w`` counts as ``w`` repeated rows, so integer weights give
    :func:`numpy.quantile` (``method="inverted_cdf"``) of the repeated values exactly.
    """
    order = np.argsort(x, kind="stable")
    xs = x[order]
    cw = np.cumsum(np.asarray(weights, dtype=np.float64)[order])
    idx = np.searchsorted(cw, np.asarray(levels, dtype=np.float64) * cw[-1], side="left")
    return xs[np.minimum(idx, xs.size - 1)]


def fit_features(cols: list, kinds: list, names: list, n_bins: int,
                 categorical_features: Any, weights: np.ndarray | None = None
                 ) -> list[_Feature]:
    """How each column becomes value codes: its categories, or its ``n_bins`` quantile bins
    (weighted quantiles, :func:`weighted_inverted_cdf`, with positive row ``weights``)."""
    p = len(cols)
    cf = categorical_features
    forced = np.zeros(p, dtype=bool)
    if isinstance(cf, str) and cf == "all":
        forced[:] = True
    elif cf is not None:
        for item in cf:
            if isinstance(item, numbers.Integral) and not isinstance(item, bool):
                if not -p <= int(item) < p:
                    raise InputError(f"categorical_features index {item} is out of range "
                                     f"for {p} columns.")
                forced[int(item)] = True
            elif isinstance(item, str) and item in names:
                forced[names.index(item)] = True
            else:
                raise InputError(f"categorical_features entry {item!r} is neither a column "
                                 f"index nor a column name ({names[:5]}...).")
    features = []
    for j, col in enumerate(cols):
        if forced[j] or kinds[j] == "categorical":
            cats = sorted(set(_category_strings(col).tolist()))
            features.append(_Feature(names[j], "categorical", cats))
        else:
            x = numeric_column(col, names[j])
            nan = np.isnan(x)
            x = x[~nan]  # the bins are cut on the known values
            if x.size:
                levels = np.arange(1, n_bins) / n_bins
                if weights is None:
                    q = np.quantile(x, levels, method="inverted_cdf")
                else:
                    q = weighted_inverted_cdf(x, np.asarray(weights)[~nan], levels)
                cuts = np.unique(q)
                cuts = cuts[cuts < x.max()]
            else:
                cuts = np.zeros(0)
            labels = _interval_labels(cuts) + ([MISSING] if nan.any() else [])
            features.append(_Feature(names[j], "numeric", labels, cuts.tolist()))
    return features


def numeric_column(col: np.ndarray, name: str) -> np.ndarray:
    """A numeric column as floats, finite or NaN (a missing value), or an InputError naming
    the column."""
    try:
        x = np.asarray(col, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InputError(f"column {name!r} was fitted as numeric but holds non-numeric "
                         "values; pass it as categorical (categorical_features).") from exc
    nan = np.isnan(x)
    if not np.isfinite(x[~nan]).all():
        raise InputError(f"column {name!r} holds inf values; numeric features must be "
                         "finite.")
    return x


def encode_columns(features: list[_Feature], cols: list) -> tuple[np.ndarray, np.ndarray]:
    """Value codes (-1: not seen in training) and the missing mask, shape (n, p)."""
    n = cols[0].shape[0] if cols else 0
    p = len(features)
    codes = np.empty((n, p), dtype=np.int32)
    missing = np.zeros((n, p), dtype=bool)
    for j, (feat, col) in enumerate(zip(features, cols)):
        if feat.kind == "categorical":
            s = _category_strings(col)
            missing[:, j] = s == MISSING
            codes[:, j] = pd.Index(feat.categories).get_indexer(s)
        else:
            code = feat.missing_code
            x = numeric_column(col, feat.name)
            codes[:, j] = np.searchsorted(np.asarray(feat.cuts, dtype=float), x, side="left")
            nan = np.isnan(x)
            if nan.any():  # only the 'is missing' value (-1, no value, where the training
                # rows had none there): no interval test matches a missing value
                codes[nan, j] = code if code >= 0 else -1
                missing[:, j] = nan
    return codes, missing
