"""What a fitted :class:`~optirules.learners.DRORuleEnsembleClassifier` says of itself: its
text (``to_text``, ``str``) and the explanation of its predictions (``explain``, and the
members behind each row's vote): the bodies of the estimator's hooks ``_text`` and
``_decision_support`` (of :class:`~optirules.learners._text.TextMixin`); ``explain``'s
``score`` is the calibrated probability of the prediction (``predict_proba``), its ``rules``
the members that voted for it, largest weight first, with the rules that fired.  The
one-vs-rest routing of these methods is the estimator's
(:func:`~optirules.learners._multiclass.one_vs_rest`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._checks import n_rows
from .._json import json_scalar

__all__ = ["dro_decision_support", "dro_text"]


def dro_decision_support(est: Any, X: Any) -> tuple[list[list[str]], list[list[str]]]:
    """Per row, the members (weight > 0) voting ``classes_[0]`` and ``classes_[1]``: the
    rules of the member that fired, or that none did."""
    est.decision_function(X)  # checks X as prediction does
    n = n_rows(X)
    neg: list[list[str]] = [[] for _ in range(n)]
    pos: list[list[str]] = [[] for _ in range(n)]
    order = sorted(np.flatnonzero(est.weights_), key=lambda k: (-est.weights_[k], k))
    for k in order:
        member = est.members_[k]
        fired = member.fired(X)
        head = f"member {k + 1} (v = {est.weights_[k]:.4f})"
        for i in range(n):
            idx = np.flatnonzero(fired[i])
            if idx.size:
                pos[i].append(f"{head}: " + " OR ".join(
                    f"rule {m + 1}: {member.rules[m]}" for m in idx))
            else:
                neg[i].append(f"{head}: no rule holds")
    return neg, pos

def dro_text(est: Any) -> str:
    """``to_text``: the ensemble, a header line, then the members with positive weight,
    one a line, with its weight and rule, then how many members of weight 0 are left
    out (when some are), then the input summary.  Member ``k`` is ``members_[k - 1]``,
    as in ``explain``, ``rules_table`` and the plots."""
    pos = json_scalar(est.classes_[1])
    lines = [f"predict {pos!r} if the weighted vote F(x) >= 1/2 "
             f"(cost {est.complexity_} of budget {est.complexity}):"]
    for k in np.flatnonzero(est.weights_):
        lines.append(f"  v = {est.weights_[k]:.4f}  member {k + 1}: {est.members_[k]}")
    hidden = np.flatnonzero(np.asarray(est.weights_) == 0)
    if hidden.size:
        many = hidden.size != 1
        lines.append(f"  ({hidden.size} of the {len(est.members_)} members "
                     f"ha{'ve' if many else 's'} weight 0 and {'are' if many else 'is'} "
                     f"not shown: member{'s' * many} "
                     f"{', '.join(str(k + 1) for k in hidden)}; "
                     "member k is members_[k - 1])")
    summary = getattr(est, "input_summary_", "")
    return "\n".join(lines + ([summary] if summary else []))

