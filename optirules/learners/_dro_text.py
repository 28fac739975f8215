"""What a fitted :class:`~optirules.learners.DRORuleEnsembleClassifier` says of itself: its
text (``to_text``, ``str``) and the explanation of its predictions (``explain``, and the
members behind each row's vote), through the hooks of
:class:`~optirules.learners._text.TextMixin`.

:class:`_DROTextMixin` is a base of the estimator; the one-vs-rest routing of these methods
is the estimator's (:func:`~optirules.learners._multiclass.one_vs_rest`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._checks import n_rows
from ._json import json_scalar
from ._text import TextMixin


class _DROTextMixin(TextMixin):
    """The hooks of ``to_text``, ``__str__`` and ``explain``: ``_text`` and
    ``_decision_support`` (``explain``'s ``score`` is the calibrated probability of the
    prediction, :meth:`predict_proba`; its ``rules`` the members that voted for it, largest
    weight first, with the rules that fired)."""

    _fitted_attribute = "weights_"

    def _decision_support(self, X: Any) -> tuple[list[list[str]], list[list[str]]]:
        """Per row, the members (weight > 0) voting ``classes_[0]`` and ``classes_[1]``: the
        rules of the member that fired, or that none did."""
        self.decision_function(X)  # checks X as prediction does
        n = n_rows(X)
        neg: list[list[str]] = [[] for _ in range(n)]
        pos: list[list[str]] = [[] for _ in range(n)]
        order = sorted(np.flatnonzero(self.weights_), key=lambda k: (-self.weights_[k], k))
        for k in order:
            member = self.members_[k]
            fired = member.fired(X)
            head = f"member {k + 1} (v = {self.weights_[k]:.4f})"
            for i in range(n):
                idx = np.flatnonzero(fired[i])
                if idx.size:
                    pos[i].append(f"{head}: " + " OR ".join(
                        f"rule {m + 1}: {member.rules[m]}" for m in idx))
                else:
                    neg[i].append(f"{head}: no rule holds")
        return neg, pos

    def _text(self) -> str:
        """``to_text``: the ensemble, a header line, then the members with positive weight,
        one a line, with its weight and rule, then how many members of weight 0 are left
        out (when some are), then the input summary.  Member ``k`` is ``members_[k - 1]``,
        as in ``explain``, ``rules_table`` and the plots."""
        pos = json_scalar(self.classes_[1])
        lines = [f"predict {pos!r} if the weighted vote F(x) >= 1/2 "
                 f"(cost {self.complexity_} of budget {self.complexity}):"]
        for k in np.flatnonzero(self.weights_):
            lines.append(f"  v = {self.weights_[k]:.4f}  member {k + 1}: {self.members_[k]}")
        hidden = np.flatnonzero(np.asarray(self.weights_) == 0)
        if hidden.size:
            many = hidden.size != 1
            lines.append(f"  ({hidden.size} of the {len(self.members_)} members "
                         f"ha{'ve' if many else 's'} weight 0 and {'are' if many else 'is'} "
                         f"not shown: member{'s' * many} "
                         f"{', '.join(str(k + 1) for k in hidden)}; "
                         "member k is members_[k - 1])")
        summary = getattr(self, "input_summary_", "")
        return "\n".join(lines + ([summary] if summary else []))

