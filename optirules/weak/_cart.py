"""CART trees with a bounded number of leaves as weak learners (seed 002, "CART trees").

Seed 002 compares against "CART trees pruned to 16 nodes"; we grow scikit-learn's
``DecisionTreeClassifier`` (Gini criterion, best-first growth) with
``max_leaf_nodes=16`` on the weighted sample.  The fitted tree is kept as plain arrays
(children, feature, threshold, leaf label), so the hypothesis is JSON-able and predicts
without scikit-learn; its predictions equal the scikit-learn tree's (rows are compared
in float32, as scikit-learn does).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import InputError
from ._base import WeakHypothesis, WeakLearner, check_weak_fit_input, feature_label

__all__ = ["TreeHypothesis", "CartLearner"]


class TreeHypothesis(WeakHypothesis):
    """A binary decision tree with +-1 leaves; node 0 is the root, ``-1`` marks no child."""

    kind = "tree"

    def __init__(self, children_left: Sequence[int], children_right: Sequence[int],
                 feature: Sequence[int], threshold: Sequence[float], label: Sequence[int],
                 feature_names: Sequence[str] | None = None):
        self.children_left = np.asarray(children_left, dtype=np.int64)
        self.children_right = np.asarray(children_right, dtype=np.int64)
        self.feature = np.asarray(feature, dtype=np.int64)
        self.threshold = np.asarray(threshold, dtype=np.float64)
        self.label = np.asarray(label, dtype=np.int8)
        sizes = {a.shape for a in (self.children_left, self.children_right, self.feature,
                                   self.threshold, self.label)}
        if len(sizes) != 1:
            raise InputError("TreeHypothesis arrays must all have the same length.")
        self.feature_names = None if feature_names is None else tuple(feature_names)

    @property
    def n_leaves(self) -> int:
        return int(np.sum(self.children_left < 0))

    def predict(self, X: Any) -> np.ndarray:
        X = np.asarray(X, dtype=np.float32)
        node = np.zeros(X.shape[0], dtype=np.int64)
        rows = np.arange(X.shape[0])
        while True:
            inner = self.children_left[node] >= 0
            if not inner.any():
                break
            r, nd = rows[inner], node[inner]
            go_left = X[r, self.feature[nd]] <= self.threshold[nd]
            node[inner] = np.where(go_left, self.children_left[nd], self.children_right[nd])
        return self.label[node].copy()

    def describe(self, feature_names: Sequence[str] | None = None) -> str:
        used = sorted({int(f) for f, c in zip(self.feature, self.children_left) if c >= 0})
        names = ", ".join(feature_label(j, feature_names) for j in used)
        return f"tree({self.n_leaves} leaves on {names or 'no feature'})"

    def to_text(self, feature_names: Sequence[str] | None = None) -> str:
        """The whole tree as indented if/else lines."""
        names = feature_names if feature_names is not None else self.feature_names
        lines: list[str] = []

        def walk(nd: int, depth: int) -> None:
            pad = "  " * depth
            if self.children_left[nd] < 0:
                lines.append(f"{pad}predict {'+1' if self.label[nd] > 0 else '-1'}")
                return
            name = feature_label(int(self.feature[nd]), names)
            lines.append(f"{pad}if {name} <= {self.threshold[nd]:g}:")
            walk(int(self.children_left[nd]), depth + 1)
            lines.append(f"{pad}else:")
            walk(int(self.children_right[nd]), depth + 1)

        walk(0, 0)
        return "\n".join(lines)

    def _payload(self) -> dict[str, Any]:
        return {"children_left": self.children_left.tolist(),
                "children_right": self.children_right.tolist(),
                "feature": self.feature.tolist(), "threshold": self.threshold.tolist(),
                "label": self.label.tolist()}


class CartLearner(WeakLearner):
    """scikit-learn's CART (Gini) with at most ``max_leaf_nodes`` leaves, on weighted data.

    Parameters
    ----------
    max_leaf_nodes : int, default=16
        Seed 002 uses trees "pruned to 16 nodes".
    random_state : int, default=0
        Seed of scikit-learn's random feature order (it only breaks ties between splits).
    """

    def __init__(self, max_leaf_nodes: int = 16, random_state: int = 0):
        self.max_leaf_nodes = max_leaf_nodes
        self.random_state = random_state

    def fit(self, X: Any, y: Any, sample_weight: Any = None, *,
            feature_names: Sequence[str] | None = None) -> WeakHypothesis:
        from sklearn.tree import DecisionTreeClassifier

        if not isinstance(self.max_leaf_nodes, (int, np.integer)) or self.max_leaf_nodes < 2:
            raise InputError(f"max_leaf_nodes must be an int >= 2, got {self.max_leaf_nodes!r}.")
        data, y, w = check_weak_fit_input(X, y, sample_weight, "CartLearner")
        tree = DecisionTreeClassifier(max_leaf_nodes=int(self.max_leaf_nodes),
                                      random_state=self.random_state)
        X32 = data._get("f32", lambda: np.asarray(data.float64, dtype=np.float32))
        tree.fit(X32, y, sample_weight=w)
        t = tree.tree_
        classes = tree.classes_
        label = classes[np.argmax(t.value[:, 0, :], axis=1)].astype(np.int8)
        return TreeHypothesis(t.children_left, t.children_right, t.feature, t.threshold,
                              label, feature_names=feature_names)
