"""The typed values of a decision list: an attribute test and a decision rule."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._stats import laplace_accuracy

__all__ = ["AttributeTest", "DecisionRule", "fallback_note"]


@dataclass(frozen=True)
class AttributeTest:
    """One BruteDL test ``attribute = value``: a category, or an interval bin of a numeric feature.

    It reads the decision list's value codes (one code per attribute), not raw data; an
    interval bin is one test here where :class:`optirules.data.Literal` would need two
    (``x > c_i`` and ``x <= c_{i+1}``).  ``label`` is the value as the encoding stores it
    (``(c_i, c_{i+1}]`` for a bin); ``text``, when given, is how the test prints, as the
    rule set prints thresholds (``c_i < x <= c_{i+1}``, ``x <= c_1``, ``x is missing``).
    """

    feature: int
    name: str
    value: int
    label: str
    text: str = ""

    def __str__(self) -> str:
        return self.text or f"{self.name} = {self.label}"

    def evaluate(self, codes: np.ndarray) -> np.ndarray:
        """Boolean mask of the rows of an encoded matrix that satisfy the test."""
        return np.asarray(codes)[:, self.feature] == self.value


@dataclass(frozen=True)
class DecisionRule:
    """One entry of a decision list: a conjunction of attribute tests, the class it predicts
    and its training statistics.

    It differs from :class:`optirules.learners._rules.Rule` (a conjunction of literals inside
    a DNF rule set, which predicts by the rule set's positive class): a decision rule carries
    its own class and is read in list order.

    ``class_counts`` are the class counts of the training rows the rule covered when it was
    added to the list (rows not covered by an earlier rule): integers, or, for a list fitted
    with row weights, the classes' weight sums (floats; a row of weight ``w`` counts as
    ``w`` rows).
    """

    conditions: tuple[AttributeTest, ...]
    prediction: Any
    class_counts: tuple[int, ...] | tuple[float, ...]

    @property
    def coverage(self) -> int | float:
        """Number of (still uncovered) training rows the rule covered when it was added
        (their weight sum, a float, for a weighted fit)."""
        total = sum(self.class_counts)
        return total if isinstance(total, float) else int(total)

    @property
    def laplace(self) -> float:
        """Laplace accuracy of the rule on those rows."""
        return laplace_accuracy(np.asarray(self.class_counts))

    def __str__(self) -> str:
        body = " AND ".join(str(c) for c in self.conditions)
        return f"IF {body} THEN {self.prediction}"

    def evaluate(self, codes: np.ndarray) -> np.ndarray:
        """Boolean mask of the rows of an encoded matrix that the rule covers."""
        codes = np.asarray(codes)
        mask = np.ones(codes.shape[0], dtype=bool)
        for cond in self.conditions:
            mask &= cond.evaluate(codes)
        return mask


def fallback_note(est: Any) -> str:
    """What the printed list says, after its default entry, happens to a row no rule covers
    (``fallback`` and ``osr_rows`` of the fitted list ``est``)."""
    if est.fallback != "min_osr":
        return "(a row no rule covers gets this default)"
    rows = ("the training rows no rule covers" if est.osr_rows == "uncovered"
            and np.asarray(est.uncovered_rows_).size else "all training rows")
    return (f"(a row no rule covers gets a rule of its own, grown by Minimum OSR on {rows}; "
            "this default only when its values are all missing or none of them occurs in "
            "those rows)")
