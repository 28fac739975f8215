"""The rule set's fairness: the protected attribute checked before any work, the
master's fairness rows for the chosen form, the training gap reached, and the report of
the fitted model on any data."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import InputError
from .._checks import n_rows, normalized_weights
from .._fairness import FairnessReport, fairness_report, group_labels
from .._multiclass import multiclass_labels
from .._rules_table import known_labels

#: the master's rates for each fairness of the target class: a DNF's master describes the
#: target class; a CNF's master describes the other class, so the target's true-positive
#: rates are the master's label-0 cover rates and the two one-sided notions swap
_MASTER_RATES = {
    True: {"equal_opportunity": "equal_opportunity", "equalized_odds": "equalized_odds",
           "predictive_equality": "predictive_equality"},
    False: {"equal_opportunity": "predictive_equality", "equalized_odds": "equalized_odds",
            "predictive_equality": "equal_opportunity"},
}


class _RuleSetFairnessMixin:
    """``fairness`` and ``sensitive_features`` of :class:`BooleanRuleSetClassifier`."""

    def _check_fairness(self, X: Any, y: Any, sensitive_features: Any) -> np.ndarray | None:
        """The protected attribute, one label per row, or None without ``fairness``;
        refused before any work when it is missing, unasked for or of the wrong length,
        or with more than two classes."""
        if self.fairness is None:
            if sensitive_features is not None:
                raise InputError("sensitive_features was given but fairness is None; set "
                                 "fairness='equal_opportunity' (or 'equalized_odds', "
                                 "'predictive_equality'), or leave sensitive_features out.")
            return None
        if sensitive_features is None:
            raise InputError(f"fairness={self.fairness!r} needs the protected attribute: "
                             "fit(X, y, sensitive_features=...), one value per row of X.")
        labels = multiclass_labels(y)
        if labels is not None:
            raise InputError(f"fairness={self.fairness!r} is for two classes, but y has "
                             f"{len(labels)}; fit one class against the rest yourself "
                             "(y == label) to constrain its rule set.")
        if self.max_degree != "auto" and int(self.max_degree) > 3:
            raise InputError("fairness needs exact pricing by enumeration, max_degree <= 3; "
                             f"got max_degree={self.max_degree}.")
        return group_labels(sensitive_features, len(np.asarray(y).reshape(-1)))

    def _fairness_arguments(self, groups: np.ndarray | None, keep: np.ndarray,
                            master_is_target: bool) -> dict[str, Any]:
        """``column_generation``'s fairness arguments for the kept rows."""
        if groups is None:
            return {}
        return {"groups": groups[keep],
                "fairness": _MASTER_RATES[master_is_target][self.fairness],
                "fairness_tolerance": float(self.fairness_tolerance)}

    @staticmethod
    def _training_gap(covered: np.ndarray, y: np.ndarray, P: np.ndarray,
                      fair: dict[str, Any]) -> float:
        """The largest between-group difference of the constrained rates on the training
        rows (weighted), as the master counts them (:class:`~optirules.models.FairnessRows`)."""
        from ...models import FairnessRows

        hit = covered.any(axis=1) if covered.size else np.zeros(len(y), bool)
        rows = FairnessRows(y, P, fair["groups"], fair["fairness"],
                            fair["fairness_tolerance"])
        return max(rows.gaps(hit).values())

    def fairness_report(self, X: Any, y: Any, sensitive_features: Any, *,
                        sample_weight: Any = None) -> FairnessReport:
        """Rates per group of the fitted model's predictions on ``X`` and their
        differences (fairlearn's definitions; :func:`~optirules.learners.fairness_report`),
        the positive class being the one the rules describe (``target_class_``).

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            The rows to predict.
        y : array-like of shape (n_samples,)
            Their true labels.
        sensitive_features : array-like of shape (n_samples,) or (n_samples, k)
            Their protected attribute.
        sample_weight : array-like of shape (n_samples,), optional
            Row weights of the rates.

        Returns
        -------
        FairnessReport
            ``by_group`` (true- and false-positive, selection rates, accuracy per group)
            and ``equal_opportunity_difference``, ``equalized_odds_difference``,
            ``demographic_parity_difference``.

        Raises
        ------
        InputError
            Before any prediction: a model of more than two classes (report on each of
            ``estimators_``), no rows, a label that is not one of ``classes_`` (of their
            type: ``"1"`` is not ``1``), a protected attribute of the wrong length or with
            missing values, a negative, NaN or infinite weight, or weights summing to zero.
        """
        if self._is_one_vs_rest():
            raise InputError(
                f"fairness_report compares the rates of two classes, and this model has "
                f"{len(self.classes_)}: estimators_[k] is the rule set of classes_[k] against "
                "the rest. Call estimators_[k].fairness_report(X, y == classes_[k], "
                "sensitive_features) for the class you want.")
        self._check_fitted()
        n = n_rows(X)
        if n == 0:
            raise InputError("X has no rows; pass at least one row to report on.")
        y = known_labels(y, self.classes_, n)
        group_labels(sensitive_features, n)
        normalized_weights(sample_weight, n)
        pos = getattr(self, "target_class_", self.classes_[-1])
        return fairness_report(y, self.predict(X), sensitive_features, pos_label=pos,
                               sample_weight=sample_weight)
