"""The text forms of a fitted :class:`~optirules.learners.BoostingClassifier`: a weak
hypothesis as a rule (``hypothesis_text``), the weighted vote (``to_text``), the hypotheses
behind each prediction (``explain``) and the JSON-able summary (``to_dict``).

The functions take the fitted booster (``est``); the class (:mod:`optirules.learners._boosting._estimator`)
calls them.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ...weak import WeakHypothesis
from .._checks import check_fitted
from .._explain import label_text, vote_text

__all__ = ["hypothesis_text", "condition_side"]


def hypothesis_text(h: WeakHypothesis, feature_names: Any = None,
                    literal_names: bool = False) -> str:
    """A weak hypothesis as a rule: ``x3 > 0.788 -> +1 else -1``, ``c0 == a -> +1 else -1``,
    ``x0 <= 0.3885 XOR c0 == a -> -1 else +1``.

    ``feature_names`` name the columns (``x<j>`` when None); with ``literal_names`` every
    column is a 0/1 literal whose name is its condition (a binarizer's), otherwise a 0/1
    column ``x`` reads ``x == 1``.  A tree reads as ``tree(...)``.

    Parameters
    ----------
    h : WeakHypothesis
        A fitted weak hypothesis (constant, stump, literal, parity or tree).
    feature_names : sequence of str, optional
        The names of the columns the hypothesis reads; ``x<j>`` when None.
    literal_names : bool, default=False
        Whether every column is a 0/1 literal named by its condition.

    Returns
    -------
    str
        The hypothesis as one rule.
    """
    def name(j: int) -> str:
        if feature_names is not None and 0 <= j < len(feature_names):
            return str(feature_names[j])
        return f"x{j}"

    def literal(j: int) -> str:
        return name(j) if literal_names else f"{name(j)} == 1"

    def sides(condition: str, plus_when_true: bool) -> str:
        return f"{condition} -> {'+1 else -1' if plus_when_true else '-1 else +1'}"

    kind = getattr(h, "kind", "")
    if kind == "constant":
        return f"always {'+1' if h.sign > 0 else '-1'}"
    if kind == "stump":
        if literal_names and h.threshold == 0.5:
            return sides(name(h.feature), h.right > 0)
        if h.right > 0:
            return f"{name(h.feature)} > {h.threshold:g} -> +1 else -1"
        return f"{name(h.feature)} <= {h.threshold:g} -> +1 else -1"
    if kind == "literal":
        return sides(literal(h.feature), not h.negated)
    if kind == "parity":
        if not h.features:
            return f"always {'-1' if h.negated else '+1'}"
        # chi_J = +1 on an even number of true literals, i.e. when their XOR is false
        return sides(" XOR ".join(literal(j) for j in h.features), h.negated)
    return h.describe(None if feature_names is None else list(feature_names))


def condition_side(h: WeakHypothesis, literal_names: bool = False) -> int:
    """The vote, +1 or -1, that ``h`` casts where the condition of its text
    (:func:`hypothesis_text`) holds: ``x > t -> +1 else -1`` gives +1,
    ``c0 == a -> -1 else +1`` -1, ``always -1`` -1 (everywhere); a tree, or a hypothesis
    without a condition, +1 (the rows where it votes +1)."""
    kind = getattr(h, "kind", "")
    if kind == "constant":
        return int(h.sign)
    if kind == "stump":
        return int(h.right) if literal_names and h.threshold == 0.5 else 1
    if kind == "literal":
        return -1 if h.negated else 1
    if kind == "parity":  # +1 on an even number of true literals: where the XOR fails
        if not h.features:
            return -1 if h.negated else 1
        return 1 if h.negated else -1
    return 1


def _orientation(h: WeakHypothesis) -> tuple[str, int]:
    """``(key, s)`` with ``h = s * g``, ``g`` the hypothesis ``key`` names: a stump and its
    negation (the same split, opposite signs), a literal or a parity and its negation, and
    the two constants share a key; any other hypothesis is its own (``s = 1``)."""
    d = {k: v for k, v in h.to_dict().items() if k != "feature_names"}
    kind, s = getattr(h, "kind", ""), 1
    if kind == "stump" and h.left == -h.right:
        s, d["left"], d["right"] = int(h.right), -1, 1
    elif kind in ("literal", "parity"):
        s, d["negated"] = (-1 if h.negated else 1), False
    elif kind == "constant":
        s, d["sign"] = int(h.sign), 1
    return json.dumps(d, sort_keys=True, default=str), s


def distinct_votes(est: Any) -> list[tuple[float, str, int, WeakHypothesis]]:
    """The distinct hypotheses as ``(net vote, text, first round, hypothesis)``, largest
    vote first.  A hypothesis chosen in several rounds votes with the sum of its votes, and
    a hypothesis and its negation (``x > t -> +1 else -1`` and ``x <= t -> +1 else -1``)
    are one vote: their votes are netted, ``a h + b (-h) = (a - b) h``, and the line is
    written in the orientation its net vote favours (a round's hypothesis), so the net vote
    is positive when every round's is.  ``sum(vote * hypothesis.predict(X))`` is
    ``decision_function``'s ``F`` up to rounding."""
    check_fitted(est, "hypotheses_")
    names = est.feature_names_
    literal_names = est.binarizer_ is not None and names is not None
    groups: dict[str, list] = {}
    for t, (a, h) in enumerate(zip(est.alphas_, est.hypotheses_)):
        key, s = _orientation(h)
        group = groups.setdefault(key, [0.0, t, {}])
        group[0] += s * float(a)  # the vote of the key's hypothesis g (h = s g)
        group[2].setdefault(s, h)
    out = []
    for net, first, seen in groups.values():
        s = (1 if net >= 0 else -1) if len(seen) == 2 else next(iter(seen))
        h = seen[s]
        out.append((s * net, hypothesis_text(h, names, literal_names), first, h))
    return sorted(out, key=lambda v: (-v[0], v[2]))


def boosting_text(est: Any) -> str:
    """The weighted vote as text: one line per distinct hypothesis (a hypothesis and its
    negation are one, :func:`distinct_votes`) with its net vote, largest first, e.g. ``+0.6931  x3 > 0.788 -> +1 else -1``, ``c0 == a -> +1 else -1`` or
    ``x0 <= 0.3885 XOR c0 == a -> -1 else +1`` (a parity is +1 on an even number of true
    literals)."""
    votes = distinct_votes(est)
    pos, neg = label_text(est.classes_[1]), label_text(est.classes_[0])
    r, k = est.n_estimators_, len(votes)
    lines = [f"{est.booster}: predict {pos} if F(x) = sum of vote * h(x) > 0, else {neg} "
             f"({r} round{'s' * (r != 1)}, {k} distinct hypothes{'es' if k != 1 else 'is'})",
             "  vote     h(x)"]
    lines.extend("  " + vote_text(a, text) for a, text, _, _ in votes)
    summary = getattr(est, "input_summary_", "")
    return "\n".join(lines + ([summary] if summary else []))


def decision_support(est: Any, X: Any) -> tuple[list[list[str]], list[list[str]]]:
    """Per row, the hypotheses voting -1 and +1, with their votes, largest first."""
    votes = distinct_votes(est)
    Xb = est._raw_scores(X)
    H = np.column_stack([h.predict(Xb) for _, _, _, h in votes]) \
        if votes else np.zeros((Xb.shape[0], 0), np.int8)
    items = [vote_text(a, text) for a, text, _, _ in votes]
    neg = [[items[j] for j in np.flatnonzero(row < 0)] for row in H]
    pos = [[items[j] for j in np.flatnonzero(row > 0)] for row in H]
    return neg, pos


def boosting_dict(est: Any) -> dict[str, Any]:
    """A JSON-able summary: booster, classes, votes and hypotheses."""
    check_fitted(est, "hypotheses_")
    return {
        "booster": est.booster,
        "classes": [c.item() if isinstance(c, np.generic) else c for c in est.classes_],
        "feature_names": est.feature_names_,
        "alphas": est.alphas_.tolist(),
        "edges": est.edges_.tolist(),
        "hypotheses": [h.to_dict() for h in est.hypotheses_],
        "smoothness": est.smoothness_,
        "stop_reason": est.stop_reason_,
        "input_summary": getattr(est, "input_summary_", None),
    }
