"""One way to read every learner: ``explain(X)`` (a DataFrame) and ``to_text()``.

Every learner of :mod:`optirules.learners` answers ``explain(X)`` with a
:class:`pandas.DataFrame` of one row per input row and these columns first, in this
order (a learner may append columns of its own after them):

``prediction``
    The predicted class (what ``predict`` returns).
``score``
    The model's score of that class: ``predict_proba(X)[i, k]`` for the predicted
    class ``k`` (for a rule set, the training precision of the rule that decided; for the
    DRO ensemble, the weighted vote; for boosting, the logistic link of the vote; for a
    decision list, the class share smoothed toward the class prior; for a pruner, the vote
    share).
``rules``
    List of str: what decided the prediction.  A rule set: the rules that fired (for
    the predicted class), or ``default: no rule holds`` when none did (a CNF rule set,
    ``form="cnf"``: the clauses that failed, ``clause 2 fails: ...``, for a row predicted
    the other class, or every clause, ``clause 1 holds: ...``, for a row predicted its
    target class; ``default: the CNF has no clause`` when it has none); the DRO ensemble and
    the pruners: the members that voted for the predicted class, with their weights;
    boosting: the weak hypotheses that voted for the predicted class, with their votes,
    largest first; a decision list: the rule that fired, the Minimum OSR rule or the
    default rule.
``fired``
    Dict ``{class: list of str}``: for every class, the rules (members, hypotheses) that
    spoke for it on this row, classes that got none left out.  For a multiclass model
    (one-vs-rest inside the estimator, :mod:`optirules.learners._multiclass`) it says
    which classes' rules fired, not only the winner's.
``text``
    One line: the prediction and why, e.g. ``1: rule 2: odor == n (precision 0.98)``.

``to_text()`` gives the whole fitted model as text, and ``str(model)`` (so ``print``)
is that text once fitted and scikit-learn's parameter repr before; ``repr(model)`` is
always scikit-learn's parameter repr.  This holds for every learner: ``str``, ``to_text``
and the two-class ``explain`` are written once, in
:class:`~optirules.learners._text.TextMixin`, from each learner's hooks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ._json import json_scalar

__all__ = ["EXPLAIN_COLUMNS", "explain_frame", "binary_explain", "label_text",
           "text_or_repr", "vote_text"]

#: The columns every ``explain`` starts with, in this order.
EXPLAIN_COLUMNS = ("prediction", "score", "rules", "fired", "text")


def label_text(value: Any) -> str:
    """A class label as it reads in text: strings quoted, numbers bare."""
    value = json_scalar(value)
    return repr(value) if isinstance(value, str) else str(value)


def text_or_repr(est: Any, fitted_attribute: str) -> str:
    """``est.to_text()`` when ``est`` has ``fitted_attribute``, else scikit-learn's repr."""
    if getattr(est, fitted_attribute, None) is not None:
        return est.to_text()
    return repr(est)


def vote_text(weight: float, what: str) -> str:
    """``+0.6931  x3 > 0.788 -> +1 else -1``: a vote and what casts it."""
    return f"{weight:+.4f}  {what}"


def vote_block(header: str, weights: Sequence[float], texts: Sequence[str],
               order: Sequence[int]) -> str:
    """``header`` then one indented :func:`vote_text` line per member in ``order``."""
    return "\n".join([header, *("  " + vote_text(weights[t], texts[t]) for t in order)])


def explain_frame(prediction: Sequence[Any], score: Sequence[float],
                  rules: Sequence[list[str]], fired: Sequence[dict[Any, list[str]]],
                  text: Sequence[str] | None = None,
                  extra: dict[str, Sequence[Any]] | None = None) -> pd.DataFrame:
    """The explain DataFrame: :data:`EXPLAIN_COLUMNS` then the ``extra`` columns.

    ``text`` defaults to ``"<prediction>: <rules joined by '; '>"``.
    """
    prediction = [json_scalar(p) for p in prediction]
    if text is None:
        text = [f"{label_text(p)}: {'; '.join(r)}" for p, r in zip(prediction, rules)]
    data: dict[str, Any] = {
        "prediction": prediction,
        "score": np.asarray(score, dtype=float),
        "rules": [list(r) for r in rules],
        "fired": [dict(f) for f in fired],
        "text": list(text),
    }
    for key, values in (extra or {}).items():
        data[key] = list(values)
    return pd.DataFrame(data)


def binary_explain(est: Any, X: Any, extra: dict[str, Sequence[Any]] | None = None
                   ) -> pd.DataFrame:
    """The explain DataFrame of a two-class learner.

    ``est`` supplies ``predict``, ``predict_proba`` and ``_decision_support(X)``, which
    returns ``(negative, positive)``: per row, the list of str that spoke for
    ``classes_[0]`` and for ``classes_[1]``.
    """
    pred = est.predict(X)
    proba = est.predict_proba(X)
    neg, pos = est._decision_support(X)
    classes = est.classes_
    k = (pred == classes[1]).astype(int)
    score = proba[np.arange(len(pred)), k]
    rules = [pos[i] if k[i] else neg[i] for i in range(len(pred))]
    c0, c1 = json_scalar(classes[0]), json_scalar(classes[1])
    fired = []
    for i in range(len(pred)):
        f: dict[Any, list[str]] = {}
        if neg[i] and not _is_default(neg[i]):
            f[c0] = list(neg[i])
        if pos[i] and not _is_default(pos[i]):
            f[c1] = list(pos[i])
        fired.append(f)
    return explain_frame(pred, score, rules, fired, extra=extra)


#: How a learner names the default (nothing fired) in ``rules``.
DEFAULT_PREFIX = "default: "


def _is_default(items: list[str]) -> bool:
    return len(items) == 1 and items[0].startswith(DEFAULT_PREFIX)
