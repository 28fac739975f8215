"""The plot of which rules cover which rows (a rule set, a decision list, a DRO ensemble)."""

from __future__ import annotations

import functools
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


#: the longest line of a rule's label, in characters: a longer rule is broken between its
#: literals (never inside one), onto lines that start with the connective
LABEL_WIDTH = 60


def _wrap_rule(text: str, width: int = LABEL_WIDTH) -> str:
    """The rule's whole text on lines of at most ``width`` characters, broken before an
    ``AND`` or ``OR`` (a literal longer than ``width`` keeps a line to itself)."""
    import re

    parts = re.split(r" (?=(?:AND|OR) )", text)
    lines = [parts[0]]
    for part in parts[1:]:
        if len(lines[-1]) + 1 + len(part) <= width:
            lines[-1] += " " + part
        else:
            lines.append("  " + part)
    return "\n".join(lines)


def _drawn_columns(A: np.ndarray, blocks: list[tuple[int, int]], n_columns: int) -> np.ndarray:
    """The coverage matrix ``A`` drawn on ``n_columns`` columns: each block of rows of one
    label binned (or repeated) into its share of the columns, a column +1 (or -1) when it
    holds a row covered +1 (-1) and 0 otherwise, and NaN (white) in the gaps between
    blocks (within a block a rule's covered rows are all of its class or all of another:
    one colour)."""
    A = np.asarray(A, dtype=float)
    K = len(blocks)
    gap = GAP_COLUMNS if n_columns >= K * (1 + GAP_COLUMNS) else 0
    room = max(n_columns - gap * (K - 1), K)
    sizes = np.array([b - a for a, b in blocks], dtype=float)
    share = np.maximum(1, np.floor(room * sizes / sizes.sum())).astype(int)
    parts = []
    for k, ((a, b), c) in enumerate(zip(blocks, share)):
        if k:
            parts.append(np.full((A.shape[0], gap), np.nan))
        block, n = A[:, a:b], b - a
        start = (np.arange(c) * n) // c  # the first row of each column
        if c >= n:  # at least as many columns as rows: each row repeated
            pos, neg = block[:, start] > 0, block[:, start] < 0
        else:  # a column shows a covered row of its rows if it holds one
            pos = np.logical_or.reduceat(block > 0, start, axis=1)
            neg = np.logical_or.reduceat(block < 0, start, axis=1)
        parts.append(np.where(pos, 1.0, np.where(neg, -1.0, 0.0)))
    return np.hstack(parts)


@functools.cache
def _image_class() -> type:
    """The coverage image's class (matplotlib is imported only when a plot is drawn)."""
    from matplotlib.image import AxesImage

    class CoverageImage(AxesImage):
        """The coverage image: ``get_array()`` is the whole (n_rules, n_rows) matrix, and it
        is drawn so that no covered row is lost and the label blocks stay apart.

        Resampling to the screen (nearest neighbour) keeps one row in every few when rows
        outnumber pixels, dropping covered rows; this image is drawn on columns at least
        :data:`MIN_COLUMN_PIXELS` wide at the resolution it goes to
        (:func:`_drawn_columns`), with :data:`GAP_COLUMNS` white columns between two
        labels' rows."""

        def __init__(self, ax: Any, image: np.ndarray, rank: np.ndarray,
                     **kwargs: Any) -> None:
            super().__init__(ax, **kwargs)
            self.set_data(image)
            edges = np.flatnonzero(np.diff(rank)) + 1
            self.blocks = list(zip(np.r_[0, edges].tolist(), np.r_[edges, rank.size].tolist()))

        def make_image(self, renderer: Any, magnification: float = 1.0,
                       unsampled: bool = False) -> Any:
            x1, x2, y1, y2 = self.get_extent()
            ends = self.get_transform().transform([(x1, y1), (x2, y2)])
            pixels = abs(ends[1, 0] - ends[0, 0]) * magnification
            n_rows = np.asarray(self.get_array()).shape[1]
            n_columns = (n_rows + GAP_COLUMNS * (len(self.blocks) - 1) if unsampled else
                         max(1, int(pixels // MIN_COLUMN_PIXELS)))
            full = self._A
            self._A = _drawn_columns(full, self.blocks, n_columns)
            try:
                return super().make_image(renderer, magnification, unsampled)
            finally:
                self._A = full

    return CoverageImage


#: the narrowest drawn column, in pixels: any column at least one pixel wide holds a pixel
#: centre, so none is skipped when the image is resampled to the screen
MIN_COLUMN_PIXELS = 1.5
#: the white gap between two label blocks, in drawn columns
GAP_COLUMNS = 2


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
        labels.append(f"{_wrap_rule(name)}  (+{p} / -{q})")
    label_names = label_names or {}
    counts = ", ".join(f"{label_names.get(c, c)}: {int((y == c).sum())}"
                       for c in reversed(classes))
    return {"image": image, "rank": rank[order], "order": order, "labels": labels,
            "xlabel": f"rows by label ({counts})"}


def _coverage_draw(ax: Any, d: dict[str, Any]) -> None:
    import matplotlib
    from matplotlib.colors import Normalize

    n_rules, n_rows = d["image"].shape
    cmap = matplotlib.colormaps["coolwarm_r"].with_extremes(bad="white")
    image = _image_class()(ax, d["image"], d["rank"], cmap=cmap, norm=Normalize(-1, 1),
                           interpolation="nearest", origin="upper",
                           extent=(-0.5, n_rows - 0.5, n_rules - 0.5, -0.5))
    ax.add_image(image)
    ax.set_xlim(-0.5, n_rows - 0.5)
    ax.set_ylim(max(n_rules, 1) - 0.5, -0.5)
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
    where it does not cover the row.  The y labels give each rule, whole (a long rule is
    broken between its literals onto several lines), with its counts ``(+p / -n)``.

    No covered row is lost when the rows outnumber the pixels: the image is drawn, at the
    resolution of the screen or file it goes to, with each label's rows binned into
    columns at least 1.5 pixels wide, a column blue (or red) when it holds a covered row;
    ``get_array()`` stays the whole matrix.  A figure made here is laid out constrained
    and sized for its labels, so ``ax.figure.savefig(path)`` keeps every label, the x
    label and the title inside it (into your own ``ax``, your figure's layout decides).

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
    lines = [line for d in data for label in d["labels"] for line in label.splitlines()]
    # a rule's band holds its label's lines; the figure is wide enough for the longest
    # line beside an image of about 6 inches (constrained layout places them when the
    # figure is drawn or saved, so no label is cut)
    most = max((label.count("\n") + 1 for d in data for label in d["labels"]), default=1)
    band = max(0.45, 0.17 * most + 0.12)
    width = max(8.0, 6.5 + 0.07 * max(len(line) for line in lines)) if lines else 8.0
    # one panel per row of a new grid: the images are wide (one column per row of X)
    return panels.draw(ax, axes, (width, band * max(n_rules, 2) + 1.5), data,
                       _coverage_draw,
                       "rule coverage (blue: a row of the rule's class, red: another class)",
                       max_cols=1, layout="constrained")
