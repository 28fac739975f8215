"""The text of a fitted :class:`~optirules.learners.BooleanRuleSetClassifier`: its rules
with their complexity and gap (``to_text``), and per row what spoke for each class (the
lines of ``explain``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._explain import DEFAULT_PREFIX
from .._json import json_scalar, label_kind

__all__ = ["rule_set_text", "decision_support"]

#: an absolute gap no larger is floating-point noise in the difference of the IP objective
#: and the bound (both sums of row weights): the text prints it as 0, so that the same model
#: reads the same under another BLAS kernel (``absolute_gap_`` keeps the computed value)
GAP_NOISE = 1e-9


def rule_set_text(est: Any) -> str:
    """The rule set, one numbered rule (or clause) a line, its complexity and gap, and the
    input summary (``BooleanRuleSetClassifier.to_text``)."""
    est._check_fitted()
    head = est.rules_.to_string(multiline=True)
    comp = f"complexity {est.rules_.complexity} (rules + literals)"
    if est.rules_.form == "cnf":
        dnf = sum(1 + len(c) for c in est.clauses_)
        comp = (f"complexity {est.rules_.complexity} (clauses + literals; the master's "
                f"DNF of the other class: {dnf})")
    if est.gap_certified_:
        deg = getattr(est, "max_degree_", None)
        over = "" if deg is None else (" over all rules of 1 literal" if deg == 1 else
                                       f" over all rules of at most {deg} literals")
        tail = (f"{comp}; master objective "
                f"{est.ip_objective_:.6g}, certified gap {est.gap_:.2%}{over} "
                f"(absolute {_shown_gap(est.absolute_gap_):.4g})")
    else:
        tail = (f"{comp}; master objective "
                f"{est.ip_objective_:.6g}, gap unknown (not certified)")
    summary = getattr(est, "input_summary_", "")
    if getattr(est, "target_class", None) is None and \
            label_kind(json_scalar(est.classes_[0])) == "str":
        chosen = json_scalar(est.target_class_)
        note = (f"the rules describe {chosen!r}, the class with fewer training rows "
                "(target_class=None with labels that are not numbers; pass target_class "
                "to choose)")
        summary = f"{summary}\n{note}" if summary else note
    return f"{head}\n{tail}" + (f"\n{summary}" if summary else "")


def _shown_gap(gap: float) -> float:
    return 0.0 if abs(gap) <= GAP_NOISE else gap


def decision_support(est: Any, X: Any) -> tuple[list[list[str]], list[list[str]]]:
    """Per row of ``X``, what spoke for ``classes_[0]`` and for ``classes_[1]``
    (``BooleanRuleSetClassifier._decision_support``)."""
    fired = est._dnf_fired(X)
    d = est._dnf_index()
    cnf = est.rules_.form == "cnf"
    rules = est.rules_.rules
    other = json_scalar(est.classes_[1 - d])
    own: list[list[str]] = []  # for the class of the master's DNF
    rest: list[list[str]] = []
    for row in fired:
        idx = np.flatnonzero(row)
        if idx.size:
            own.append([f"clause {m + 1} fails: {rules[m]} (precision "
                        f"{est.rule_precision_[m]:.3f})" if cnf else
                        f"rule {m + 1}: {rules[m]} (precision "
                        f"{est.rule_precision_[m]:.3f})" for m in idx])
            rest.append([])
        elif cnf and rules:
            own.append([])
            rest.append([f"clause {m + 1} holds: {c}" for m, c in enumerate(rules)])
        else:
            own.append([])
            what = ("the CNF has no clause" if cnf else "no rule holds")
            where = "training" if cnf else "uncovered training"
            rest.append([f"{DEFAULT_PREFIX}{what} ({1 - est.default_precision_:.3f} "
                         f"of the {where} rows are {other!r})"])
    return (rest, own) if d == 1 else (own, rest)
