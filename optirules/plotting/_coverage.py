"""The plot of which rules cover which rows (a rule set, a decision list, a DRO ensemble)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InputError
from ._panels import _lacks, _Panels


# ============================================================================ rule coverage
def _coverage(model: Any, X: Any, who: str) -> tuple[np.ndarray, list[str], list[Any]]:
    """Boolean (n_rules, n_rows) coverage, the rules' texts and the class each rule predicts."""
    rules = getattr(model, "rules_", None)
    members = getattr(model, "members_", None)
    if not hasattr(model, "classes_") or (rules is None and members is None):
        raise _lacks("plot_rule_coverage", who, model)
    classes = np.asarray(model.classes_)
    if rules is not None and hasattr(rules, "fired"):            # a RuleSet
        return (np.asarray(rules.fired(X), dtype=bool).T, [str(r) for r in rules],
                [classes[-1]] * len(rules))
    if rules is not None and hasattr(model, "explain"):           # a decision list
        fired = np.asarray(model.explain(X)["rule"], dtype=int)
        cover = np.array([fired == k for k in range(len(rules))], dtype=bool)
        return (cover.reshape(len(rules), fired.size), [str(r) for r in rules],
                [r.prediction for r in rules])
    if members is not None:                                         # a DRO ensemble
        weights = np.asarray(getattr(model, "weights_", np.ones(len(members))), float)
        blocks, names = [], []
        for k, member in enumerate(members):
            if weights[k] <= 0:
                continue
            blocks.append(np.asarray(member.fired(X), dtype=bool).T)
            names += [f"member {k + 1}: {r}" for r in member]  # members_[k], as printed
        cover = np.vstack(blocks) if blocks else np.zeros((0, len(X)), dtype=bool)
        return cover, names, [classes[-1]] * len(names)
    raise _lacks("plot_rule_coverage", who, model)


def _coverage_data(model: Any, X: Any, y: np.ndarray, who: str,
                   label_names: dict[Any, str] | None = None) -> dict[str, Any]:
    cover, names, predicted = _coverage(model, X, who)
    if cover.shape[1] != y.size:
        raise InputError(f"X has {cover.shape[1]} rows and y {y.size}: pass one label per row.")
    classes = list(np.asarray(model.classes_))
    rank = np.array([classes.index(v) if v in classes else -1 for v in y.tolist()])
    order = np.argsort(-rank, kind="stable")
    own = np.array([y == c for c in predicted], dtype=bool).reshape(cover.shape)
    image = np.where(cover, np.where(own, 1, -1), 0)[:, order]
    labels = []
    for k, name in enumerate(names):
        p = int((cover[k] & own[k]).sum())
        q = int((cover[k] & ~own[k]).sum())
        text = name if len(name) <= 60 else name[:57] + "..."
        labels.append(f"{text}  (+{p} / -{q})")
    label_names = label_names or {}
    counts = ", ".join(f"{label_names.get(c, c)}: {int((y == c).sum())}"
                       for c in reversed(classes))
    return {"image": image, "rank": rank[order], "order": order, "labels": labels,
            "xlabel": f"rows by label ({counts})"}


def _coverage_draw(ax: Any, d: dict[str, Any]) -> None:
    ax.imshow(d["image"], aspect="auto", cmap="coolwarm_r", vmin=-1, vmax=1,
              interpolation="nearest")
    for b in np.flatnonzero(np.diff(d["rank"])):
        ax.axvline(b + 0.5, color="white", lw=2)
    ax.set_yticks(np.arange(len(d["labels"])))
    ax.set_yticklabels(d["labels"], fontsize="small")
    ax.set_xlabel(d["xlabel"])
    ax.coverage_order = d["order"]


def plot_rule_coverage(model: Any, X: Any, y: Any, ax: Any = None, *,
                       axes: Any = None) -> Any:
    """Which rows each rule covers, rows of the rule's class against the others.

    An image with one line per rule and one column per row of ``X``.  The columns are the
    rows sorted by label, the positive class first (``classes_`` in reverse order), with a
    white line between two labels.  A cell is +1 (blue) where the rule covers a row of the
    class it predicts (``classes_[1]`` for a rule set or a DRO ensemble, the rule's
    ``prediction`` in a decision list), -1 (red) where it covers a row of another class, 0
    where it does not cover the row.  The y labels give each rule with its counts
    ``(+p / -n)``.

    Parameters
    ----------
    model : fitted rule model
        A :class:`~optirules.learners.BooleanRuleSetClassifier` (``rules_.fired``), a
        :class:`~optirules.learners.DecisionListClassifier` (a row is covered by the
        first rule that fires, as ``explain`` says), or a
        :class:`~optirules.learners.DRORuleEnsembleClassifier` (the rules of the members
        with positive weight, named ``member k: ...`` for ``members_[k - 1]``, as
        ``print`` and ``rules_table`` number them); a cross-validated learner
        (:class:`~optirules.learners.BooleanRuleSetCV`,
        :class:`~optirules.learners.DecisionListCV`) draws its ``best_estimator_``.  A
        one-vs-rest model (rule set or DRO ensemble over ``K > 2`` classes) draws one panel
        per class: panel ``k`` is ``estimators_[k]``'s rules against the labels
        ``y == classes_[k]`` (the class's rows against the rest).
    X : array-like or DataFrame of shape (n_samples, n_features)
        Rows in the model's input format.
    y : array-like of shape (n_samples,)
        Their labels (the ``K``-class labels for a one-vs-rest model).
    ax : matplotlib Axes, optional
    axes : sequence of matplotlib Axes, optional
        One Axes per class, for a one-vs-rest model.

    Returns
    -------
    matplotlib.axes.Axes or numpy.ndarray of Axes
        The Axes for one model; for a one-vs-rest model, a 1-D numpy array of ``K`` Axes,
        ``axes[k]`` drawn from ``estimators_[k]`` (the model of ``classes_[k]``).
        ``ax.images[0].get_array()`` is the (n_rules, n_samples) matrix described above;
        ``ax.coverage_order`` the row order of its columns.

    Raises
    ------
    InputError
        A model without rules (the message names the learners that have them), ``X`` and
        ``y`` of different lengths; ``ax=`` with a one-vs-rest model.
    """
    panels = _Panels(model)
    y = np.asarray(y).reshape(-1)
    data = []
    for k, m in enumerate(panels.models):
        if panels.classes is None:
            data.append(_coverage_data(m, X, y, panels.who(k)))
        else:
            c = panels.classes[k]
            data.append(_coverage_data(m, X, (y == c).astype(np.int64), panels.who(k),
                                       {1: str(c), 0: "rest"}))
    n_rules = max(len(d["labels"]) for d in data)
    # one panel per row of a new grid: the images are wide (one column per row of X)
    return panels.draw(ax, axes, (8.0, 0.45 * max(n_rules, 2) + 1.5), data, _coverage_draw,
                       "rule coverage (blue: a row of the rule's class, red: another class)",
                       max_cols=1)
