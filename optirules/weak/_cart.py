"""CART trees of bounded size as weak learners (Reyzin's paper, "CART trees").

Reyzin, "On Boosting Sparse Parities" (AAAI 2014) compares against "CART trees pruned to
16 nodes" (its Table 3, column "CART-16") without saying whether the 16 counts leaves or
all nodes.  :class:`CartLearner` offers both readings through ``count``:

* ``count="leaves"`` (default): at most ``size`` leaves, i.e. scikit-learn's
  ``max_leaf_nodes=size``; ``size=16`` gives up to 16 leaves and 31 nodes.
* ``count="nodes"``: at most ``size`` nodes in all (internal nodes and leaves).  A binary
  tree with ``L`` leaves has ``2L - 1`` nodes, so this is ``max_leaf_nodes =
  (size + 1) // 2``; ``size=16`` gives up to 8 leaves and 15 nodes.

Both grow scikit-learn's ``DecisionTreeClassifier`` (Gini criterion, best-first growth
up to the leaf bound) on the weighted sample; neither runs cost-complexity pruning.
The fitted tree is kept as plain arrays (children, feature, threshold, leaf label), so
the hypothesis is JSON-able and predicts without scikit-learn; its predictions equal the
scikit-learn tree's (rows are compared in float32, as scikit-learn does).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import InputError
from ._base import WeakHypothesis, WeakLearner, check_weak_fit_input, feature_label

__all__ = ["TreeHypothesis", "CartLearner", "CART_COUNTS", "check_tree_input",
           "TREE_FEATURE_THRESHOLD"]

#: scikit-learn's trees read X as float32 and take two values of a column at most this far
#: apart for one value (``FEATURE_THRESHOLD`` of ``sklearn/tree/_splitter.pyx``): they never
#: split between them, and a column whose values all lie this close is a constant to them
TREE_FEATURE_THRESHOLD = 1e-7
#: the largest magnitude a float32 holds (about 3.4e38); beyond it the float32 copy is
#: infinite and scikit-learn refuses X
_FLOAT32_MAX = float(np.finfo(np.float32).max)


def check_tree_input(X: np.ndarray, who: str,
                     feature_names: Sequence[str] | None = None) -> None:
    """Refuse, before a scikit-learn tree is fitted on it, a finite float matrix the tree
    would fail on or read wrongly: a value beyond the float32 range (the tree's copy of X
    is float32; scikit-learn raises on the infinity) or a column that varies but in steps
    the tree cannot split (more than half of the steps between its adjacent distinct
    values at most 1e-7, scikit-learn's ``FEATURE_THRESHOLD``: X scaled by 1e-300, say,
    which the tree would take for a constant column without a word).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The finite float matrix the tree is to be fitted on.
    who : str
        Who asks (the messages start with it).
    feature_names : sequence of str, optional
        Names of the columns, for the messages (``x[j]`` without them).

    Returns
    -------
    None
        Raises :class:`~optirules.errors.InputError` on such a column.
    """
    X = np.asarray(X, dtype=np.float64)
    big = np.abs(X) > _FLOAT32_MAX
    if big.any():
        j = int(np.flatnonzero(big.any(axis=0))[0])
        v = float(X[np.flatnonzero(big[:, j])[0], j])
        raise InputError(
            f"{who}: column {feature_label(j, feature_names)!r} holds {v:.3g}, beyond "
            f"+-{_FLOAT32_MAX:.3g}, the largest magnitude scikit-learn's trees hold (they "
            "read X as float32). Rescale the column (divide it by a power of ten) or clip "
            "it.")
    for j in range(X.shape[1]):
        steps = np.diff(np.unique(X[:, j]))
        if steps.size and np.count_nonzero(steps <= TREE_FEATURE_THRESHOLD) * 2 > steps.size:
            lo, hi = float(X[:, j].min()), float(X[:, j].max())
            raise InputError(
                f"{who}: column {feature_label(j, feature_names)!r} varies (from {lo:.3g} "
                f"to {hi:.3g}) mostly in steps of at most {TREE_FEATURE_THRESHOLD:g}, which "
                "scikit-learn's trees take for equal values and never split apart. Rescale "
                "the column (multiply it by a power of ten, or standardize X).")


class TreeHypothesis(WeakHypothesis):
    """A binary decision tree with +-1 leaves; node 0 is the root, ``-1`` marks no child.

    Parameters
    ----------
    children_left, children_right : sequence of int
        Per node, the index of its left (``x <= threshold``) and right child; ``-1`` at
        a leaf.
    feature : sequence of int
        Per node, the column it tests (ignored at a leaf).
    threshold : sequence of float
        Per node, the threshold of its test.
    label : sequence of int
        Per node, its +-1 label (the prediction at a leaf).
    feature_names : sequence of str, optional
        Names of the columns, used by :meth:`describe` (``x[j]`` without them).
    """

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
        if len(sizes) != 1 or self.children_left.ndim != 1 or self.children_left.size == 0:
            raise InputError("TreeHypothesis arrays must all have the same length (one "
                             "entry per node, at least the root).")
        # every child comes after its parent and both children are set or neither: the
        # walk from the root then always ends at a leaf
        idx = np.arange(self.children_left.size)
        left, right = self.children_left, self.children_right
        inner = left >= 0
        if (np.any((left >= 0) != (right >= 0)) or np.any(left < -1) or np.any(right < -1)
                or np.any(left[inner] <= idx[inner]) or np.any(right[inner] <= idx[inner])
                or np.any(left >= idx.size) or np.any(right >= idx.size)
                or not np.all(np.isin(self.label[~inner], (-1, 1)))):
            raise InputError("TreeHypothesis: children must be -1 (a leaf, labelled -1 or +1) "
                             "or later nodes of the tree.")
        self._keep_names(feature_names)

    def columns(self) -> np.ndarray:
        return self.feature[self.children_left >= 0]

    @property
    def n_leaves(self) -> int:
        return int(np.sum(self.children_left < 0))

    @property
    def n_nodes(self) -> int:
        """All nodes, internal and leaves (``2 * n_leaves - 1``)."""
        return int(self.children_left.size)

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
        """The whole tree as indented if/else lines.

        Parameters
        ----------
        feature_names : sequence of str, optional
            Names of the columns; ``None`` uses the tree's own, else ``x[j]``.

        Returns
        -------
        str
            One line per node.
        """
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


#: the two readings of Reyzin's "CART trees pruned to 16 nodes"
CART_COUNTS = ("leaves", "nodes")


class CartLearner(WeakLearner):
    """scikit-learn's CART (Gini) of at most ``size`` leaves or nodes, on weighted data.

    Parameters
    ----------
    size : int, default=16
        The size bound: the "16" of Reyzin's "CART trees pruned to 16 nodes".
    count : {"leaves", "nodes"}, default="leaves"
        What ``size`` counts.  ``"leaves"``: at most ``size`` leaves (16 leaves, up to 31
        nodes).  ``"nodes"``: at most ``size`` nodes in all, i.e. at most
        ``(size + 1) // 2`` leaves (16 -> 8 leaves, 15 nodes), the literal reading of
        "16 nodes".  The paper does not say which it means; its Table 3 is reproduced
        with both (``benchmarks/results/parity_tables.md``).  The default ``"leaves"``
        is the closer: AdaBoost for 250 rounds with 16 leaves is nearer the paper's
        CART-16 errors on cancer, ecoli, heart, census and splice than with 15 nodes (the
        figures are in docs/papers/boosting_parities.md).
    random_state : int, default=0
        Seed of scikit-learn's random feature order (it only breaks ties between splits).

    Attributes
    ----------
    max_leaf_nodes : int
        The leaf bound passed to scikit-learn (read-only): ``size`` or ``(size + 1) // 2``.
    """

    def __init__(self, size: int = 16, count: str = "leaves", random_state: int = 0):
        self.size = size
        self.count = count
        self.random_state = random_state

    def _check(self) -> None:
        if self.count not in CART_COUNTS:
            raise InputError(f"count must be one of {list(CART_COUNTS)}, got {self.count!r}.")
        low = 3 if self.count == "nodes" else 2
        if (isinstance(self.size, bool) or not isinstance(self.size, (int, np.integer))
                or self.size < low):
            raise InputError(f"size must be an int >= {low} when count={self.count!r}, "
                             f"got {self.size!r}.")
        rs = self.random_state
        if not (rs is None or isinstance(rs, np.random.RandomState)
                or (isinstance(rs, (int, np.integer)) and not isinstance(rs, (bool, np.bool_))
                    and 0 <= rs <= 2**32 - 1)):
            raise InputError(f"random_state must be None, an int in [0, 2**32 - 1] or a "
                             f"numpy.random.RandomState, got {rs!r}; pass e.g. "
                             "random_state=0.")

    @property
    def max_leaf_nodes(self) -> int:
        """The leaf bound of the tree: ``size`` leaves, or ``(size + 1) // 2`` for nodes."""
        self._check()
        return int(self.size) if self.count == "leaves" else (int(self.size) + 1) // 2

    def fit(self, X: Any, y: Any, sample_weight: Any = None, *,
            feature_names: Sequence[str] | None = None) -> WeakHypothesis:
        from sklearn.tree import DecisionTreeClassifier

        leaves = self.max_leaf_nodes
        data, y, w = check_weak_fit_input(X, y, sample_weight, "CartLearner")
        # once per matrix: boosting fits on the same PreparedData every round
        data._get("tree_input", lambda: check_tree_input(data.float64, "CartLearner",
                                                         feature_names))
        tree = DecisionTreeClassifier(max_leaf_nodes=leaves, random_state=self.random_state)
        X32 = data._get("f32", lambda: np.asarray(data.float64, dtype=np.float32))
        tree.fit(X32, y, sample_weight=w)
        t = tree.tree_
        classes = tree.classes_
        label = classes[np.argmax(t.value[:, 0, :], axis=1)].astype(np.int8)
        return TreeHypothesis(t.children_left, t.children_right, t.feature, t.threshold,
                              label, feature_names=feature_names)
