"""Group fairness of a classifier's predictions, with fairlearn's definitions, and the
protected attribute as the rule set's master takes it.

For each group :math:`g` of the protected attribute: the true-positive rate
:math:`P(\\hat y = 1 \\mid y = 1, g)`, the false-positive rate
:math:`P(\\hat y = 1 \\mid y = 0, g)` and the selection rate :math:`P(\\hat y = 1 \\mid g)`
(weighted by ``sample_weight`` when given).  Equal opportunity difference: the largest
minus the smallest true-positive rate; equalized odds difference: the larger of that and
the same for the false-positive rate; demographic parity difference: for the selection
rate (fairlearn's ``equal_opportunity_difference``, ``equalized_odds_difference`` and
``demographic_parity_difference`` with their default ``agg="worst_case"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError
from ._checks import normalized_weights
from ._json import json_scalar

__all__ = ["FairnessReport", "fairness_report", "group_labels"]


def group_labels(sensitive_features: Any, n_rows: int) -> np.ndarray:
    """The protected attribute as one label per row: a 1-D array-like as it is, a frame or
    2-D array of several columns as their values joined (intersectional groups, as
    fairlearn forms them); refused with a message when the length is not ``n_rows``."""
    if sensitive_features is None:
        raise InputError("sensitive_features is missing; pass the protected attribute, one "
                         "value per row of X.")
    if isinstance(sensitive_features, str):
        raise InputError(f"sensitive_features={sensitive_features!r} is a string; pass the "
                         "protected attribute's values (e.g. X['sex']), one per row.")
    frame = pd.DataFrame(sensitive_features) if np.ndim(sensitive_features) == 2 else None
    if frame is not None:
        values = frame.astype(str).agg(",".join, axis=1).to_numpy() \
            if frame.shape[1] > 1 else frame.iloc[:, 0].to_numpy()
    else:
        values = np.asarray(sensitive_features).reshape(-1)
    if values.shape[0] != n_rows:
        raise InputError(f"sensitive_features has {values.shape[0]} values for {n_rows} "
                         "rows; pass one value per row of X.")
    if pd.isna(pd.Series(values, dtype=object)).any():
        raise InputError("sensitive_features has missing values; give every row a group "
                         "(e.g. fill them with a group of their own).")
    return values


@dataclass
class FairnessReport:
    """Rates per group and the differences between groups (fairlearn's definitions).

    Attributes
    ----------
    by_group : pandas.DataFrame
        One row per group: ``count``, ``true_positive_rate``, ``false_positive_rate``,
        ``selection_rate``, ``accuracy``.
    equal_opportunity_difference : float
        Largest minus smallest true-positive rate.
    equalized_odds_difference : float
        The larger of the true- and the false-positive rate differences.
    demographic_parity_difference : float
        Largest minus smallest selection rate.
    accuracy : float
        Over all rows.
    """

    by_group: pd.DataFrame
    equal_opportunity_difference: float
    equalized_odds_difference: float
    demographic_parity_difference: float
    accuracy: float

    def __str__(self) -> str:
        return (f"{self.by_group.to_string(float_format=lambda v: f'{v:.4f}')}\n"
                f"equal opportunity difference {self.equal_opportunity_difference:.4f}, "
                f"equalized odds difference {self.equalized_odds_difference:.4f}, "
                f"demographic parity difference {self.demographic_parity_difference:.4f}, "
                f"accuracy {self.accuracy:.4f}")


def _check_labels(y_true: Any, y_pred: Any, pos_label: Any) -> tuple[np.ndarray, np.ndarray]:
    """``y_true`` and ``y_pred`` as 1-D arrays of one length, at least one row, their labels
    of at most two classes, all text or all numbers, and ``pos_label`` one of them when
    they hold two; refused with a message otherwise (rates over other labels would count
    them as negatives, or be NaN)."""
    yt = np.asarray(y_true).reshape(-1)
    yp = np.asarray(y_pred).reshape(-1)
    if yt.shape != yp.shape:
        raise InputError(f"y_true has {yt.size} labels and y_pred {yp.size}; pass one per "
                         "row.")
    if yt.size == 0:
        raise InputError("y_true and y_pred have no rows; pass at least one row to report "
                         "on.")
    both = pd.concat([pd.Series(yt, dtype=object), pd.Series(yp, dtype=object)])
    labels = [json_scalar(v) for v in pd.unique(both)]
    if any(pd.isna(v) is True or (isinstance(v, float) and not np.isfinite(v))
           for v in labels):
        raise InputError("y_true or y_pred holds a missing, NaN or infinite label; drop or "
                         "label those rows.")
    if len({isinstance(v, str) for v in labels}) > 1:
        raise InputError(f"y_true and y_pred mix text and number labels ({labels[:5]}); "
                         "pass labels of one type, that of pos_label.")
    if len(labels) > 2:
        raise InputError(f"y_true and y_pred hold {len(labels)} labels ({labels[:5]}); the "
                         "rates are of two classes: pass y == label for the class you "
                         "report on (pos_label=True).")
    if len(labels) == 2 and json_scalar(pos_label) not in labels:
        raise InputError(f"pos_label={pos_label!r} is neither of the labels {labels}; pass "
                         "the positive class as pos_label, of the labels' type.")
    return yt, yp


def fairness_report(y_true: Any, y_pred: Any, sensitive_features: Any, *,
                    pos_label: Any = 1, sample_weight: Any = None) -> FairnessReport:
    """Rates per group of the protected attribute and their differences.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    sensitive_features : array-like of shape (n_samples,) or (n_samples, n_columns)
        The protected attribute (several columns: intersectional groups).
    pos_label : label, default 1
        The positive class.
    sample_weight : array-like of shape (n_samples,), optional
        Row weights of the rates.

    Returns
    -------
    FairnessReport
        The rates by group and the differences.

    Raises
    ------
    InputError
        Before any work: no rows, labels of more than two classes, of text and numbers
        mixed, or of two classes neither of which is ``pos_label``; a protected attribute
        of the wrong length or with missing values; a negative, NaN or infinite weight, or
        weights summing to zero.

    Examples
    --------
    >>> from optirules.learners import fairness_report
    >>> r = fairness_report([1, 1, 0, 0], [1, 0, 0, 1], ["a", "b", "a", "b"])
    >>> r.equal_opportunity_difference, r.equalized_odds_difference
    (1.0, 1.0)
    """
    yt, yp = _check_labels(y_true, y_pred, pos_label)
    g = group_labels(sensitive_features, yt.size)
    w = normalized_weights(sample_weight, yt.size)
    pos, hit = yt == pos_label, yp == pos_label
    rows = []
    labels = pd.unique(pd.Series(g, dtype=object))
    for label in sorted(labels, key=str):
        m = g == label

        def rate(mask: np.ndarray, event: np.ndarray) -> float:
            total = w[mask].sum()
            return float(w[mask & event].sum() / total) if total > 0 else np.nan

        rows.append({"group": label, "count": int(m.sum()),
                     "true_positive_rate": rate(m & pos, hit),
                     "false_positive_rate": rate(m & ~pos, hit),
                     "selection_rate": rate(m, hit),
                     "accuracy": rate(m, hit == pos)})
    by_group = pd.DataFrame(rows).set_index("group")

    def spread(col: str) -> float:
        v = by_group[col].dropna()
        return float(v.max() - v.min()) if len(v) else np.nan

    eo = spread("true_positive_rate")
    return FairnessReport(by_group, eo, max(eo, spread("false_positive_rate")),
                          spread("selection_rate"),
                          float(w[hit == pos].sum() / w.sum()))
