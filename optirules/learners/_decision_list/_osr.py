"""Minimum OSR: one greedy rule grown for one test point no rule covers (the Minimum OSR
paper, section "The Minimum OSR")."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ._stats import (
    class_entropy,
    laplace_accuracy,
    significance_statistic,
)

__all__ = ["OSRResult", "minimum_osr", "minimum_osr_rows"]


@lru_cache(maxsize=32)
def _critical(confidence: float) -> float:
    """The critical value of the S statistic: the chi-square quantile (one degree of
    freedom) at ``confidence``."""
    from scipy.stats import chi2

    return float(chi2.ppf(confidence, df=1))


@dataclass(frozen=True)
class OSRResult:
    """The outcome of Minimum OSR for one test point.

    Attributes
    ----------
    path : tuple of (feature, value code)
        The tests on the path from the root to the leaf (empty when the default rule was used).
    class_counts : ndarray of shape (k,)
        Training class counts at the leaf (the whole training set for the default rule).
    stop : str
        Why the path stopped: ``"pure"``, ``"not_significant"``, ``"no_im_decrease"``,
        ``"no_tests"`` (every known attribute is on the path), or, when the default rule
        was used, ``"all_missing"`` / ``"no_common_value"`` (the paper's two cases).
    used_default : bool
        True in the paper's two cases, where no informative rule can be built.
    steps : tuple of dict
        Per accepted or rejected step: feature, IM, node entropy, S statistic.
    """

    path: tuple[tuple[int, int], ...]
    class_counts: np.ndarray
    stop: str
    used_default: bool
    steps: tuple[dict, ...] = field(default=())


def minimum_osr(
    train_codes: np.ndarray,
    train_y: np.ndarray,
    n_values: np.ndarray,
    x: np.ndarray,
    x_missing: np.ndarray,
    n_classes: int,
    confidence: float = 0.95,
    missing_codes: np.ndarray | None = None,
    weights: np.ndarray | None = None,
) -> OSRResult:
    """Minimum OSR: one greedy rule for one test point (the Minimum OSR paper, "The Minimum OSR").

    Parameters
    ----------
    train_codes : ndarray of int, shape (n, p)
        Encoded training data (value index per attribute).
    train_y : ndarray of int, shape (n,)
        Encoded training classes ``0..k-1``.
    n_values : ndarray of int, shape (p,)
        Number of values of each attribute.
    x : ndarray of int, shape (p,)
        Encoded test point; ``-1`` marks a value never seen in training.
    x_missing : ndarray of bool, shape (p,)
        True where the test point's value is missing (unknown).
    n_classes : int
        ``k``.
    confidence : float
        Confidence of the significance test.
    missing_codes : ndarray of int, shape (p,), optional
        Code of the missing value ``"?"`` of each attribute in training (-1 if none).
    weights : ndarray of float, shape (n,), optional
        Positive weight of each training row: every count below (class counts, the shares
        :math:`P(v)` and :math:`P(c \\mid v)`, the S statistic's counts, the leaf counts)
        is then a weight sum, a row of weight ``w`` counting as ``w`` repeated rows.

    Returns
    -------
    OSRResult

    Notes
    -----
    From the root (all training rows), each step computes for every attribute still
    available - not yet on the path, known in the test point, and with at least one
    training row at the node sharing the test point's value - the information measure

    .. math:: \\mathrm{IM}(A) = -\\sum_{v} P(v) \\sum_{c} P(c \\mid v) \\log_2 P(c \\mid v)

    over the node's rows, picks the attribute of minimum IM (ties: lowest index) and follows
    the branch of the test point's value.  The root test is always taken (the paper:
    "The test that returns the minimum value of IM is selected as the root of the tree").
    At every later node the path stops, and the current node becomes the leaf, when

    1. the node is pure (``"pure"``);
    2. the best IM is not below the node's class entropy (``"no_im_decrease"``: IM cannot
       be improved by expanding the node; this generalizes 1);
    3. the child's S statistic (:func:`significance_statistic`, against the node's Laplace
       accuracy) does not exceed :math:`\\chi^2_1(\\text{confidence})`
       (``"not_significant"``; the child is not added);

    or when no attribute is available (``"no_tests"``).  The leaf predicts its majority
    class.  The default rule is used only in the paper's two cases: every attribute of the
    test point is missing (``"all_missing"``), or none of its known values occurs in the
    given training rows (``"no_common_value"``).  If the root itself is pure (possible when
    only a subset of the training rows is given) the path is empty and the leaf is the
    root.
    """
    k = int(n_classes)
    n, p = train_codes.shape
    x = np.asarray(x)
    x_missing = np.asarray(x_missing, dtype=bool)
    total_counts = np.bincount(train_y, weights=weights, minlength=k)
    if x_missing.all():
        return OSRResult((), total_counts, "all_missing", True)
    known = ~x_missing & (x >= 0)
    if missing_codes is not None:
        known &= x != np.asarray(missing_codes)
    if not known.any():
        return OSRResult((), total_counts, "no_common_value", True)

    critical = _critical(float(confidence))
    offsets = np.concatenate([[0], np.cumsum(n_values)[:-1]]).astype(np.int64)
    n_av = int(np.sum(n_values))
    av_attr = np.repeat(np.arange(p), n_values)
    x_av = np.where(known, offsets + np.maximum(x, 0), -1)

    node = np.arange(n)
    node_counts = total_counts
    used = np.zeros(p, dtype=bool)
    path: list[tuple[int, int]] = []
    steps: list[dict] = []
    stop = "no_tests"
    while True:
        if np.count_nonzero(node_counts) <= 1:
            stop = "pure"
            break
        yy = train_y[node]
        g = (train_codes[node] + offsets).ravel() * k + np.repeat(yy, p)
        table = np.bincount(g, weights=None if weights is None else np.repeat(weights[node], p),
                            minlength=n_av * k).reshape(n_av, k)
        n_v = table.sum(axis=1)
        cand = known & ~used
        cand[cand] = n_v[x_av[cand]] > 0
        if not cand.any():
            if not path:  # none of the given training rows shares a known value
                return OSRResult((), total_counts, "no_common_value", True)
            stop = "no_tests"
            break
        weighted = np.bincount(av_attr, weights=n_v * class_entropy(table), minlength=p)
        im = weighted / (node.size if weights is None else node_counts.sum())
        cand_idx = np.flatnonzero(cand)
        j = int(cand_idx[np.argmin(im[cand_idx])])
        h_node = class_entropy(node_counts)
        child = node[train_codes[node, j] == x[j]]
        child_counts = np.bincount(train_y[child],
                                   weights=None if weights is None else weights[child],
                                   minlength=k)
        step = {"feature": j, "im": float(im[j]), "node_entropy": float(h_node)}
        if path:
            if im[j] >= h_node - 1e-12:
                steps.append({**step, "accepted": False})
                stop = "no_im_decrease"
                break
            s = significance_statistic(child_counts, laplace_accuracy(node_counts, k))
            step["s"] = s
            step["critical"] = critical
            if s <= critical:
                steps.append({**step, "accepted": False})
                stop = "not_significant"
                break
        steps.append({**step, "accepted": True})
        path.append((j, int(x[j])))
        used[j] = True
        node, node_counts = child, child_counts
    return OSRResult(tuple(path), node_counts, stop, False, tuple(steps))


def minimum_osr_rows(
    train_codes: np.ndarray,
    train_y: np.ndarray,
    n_values: np.ndarray,
    X: np.ndarray,
    X_missing: np.ndarray,
    n_classes: int,
    confidence: float = 0.95,
    missing_codes: np.ndarray | None = None,
    weights: np.ndarray | None = None,
) -> list[OSRResult]:
    """:func:`minimum_osr` of every row of ``X`` (shape ``(m, p)``), the same results,
    with the work of the test points whose paths coincide done once: the points at a node
    share its counts, and those that choose the same attribute and value share the
    child."""
    k = int(n_classes)
    n, p = train_codes.shape
    X = np.asarray(X)
    X_missing = np.asarray(X_missing, dtype=bool)
    total_counts = np.bincount(train_y, weights=weights, minlength=k)
    known = ~X_missing & (X >= 0)
    if missing_codes is not None:
        known &= X != np.asarray(missing_codes)[None, :]
    out: list = [None] * X.shape[0]
    live = []
    for i in range(X.shape[0]):
        if X_missing[i].all():
            out[i] = OSRResult((), total_counts, "all_missing", True)
        elif not known[i].any():
            out[i] = OSRResult((), total_counts, "no_common_value", True)
        else:
            live.append(i)
    if not live:
        return out
    critical = _critical(float(confidence))
    offsets = np.concatenate([[0], np.cumsum(n_values)[:-1]]).astype(np.int64)
    n_av = int(np.sum(n_values))
    av_attr = np.repeat(np.arange(p), n_values)
    x_av = np.where(known, offsets[None, :] + np.maximum(X, 0), -1)
    # a node: (its rows, their class counts, the tests used, path, steps, the points there)
    stack = [(np.arange(n), total_counts, np.zeros(p, dtype=bool), [], [], np.array(live))]
    while stack:
        node, node_counts, used, path, steps, pts = stack.pop()
        if np.count_nonzero(node_counts) <= 1:
            for i in pts:
                out[i] = OSRResult(tuple(path), node_counts, "pure", False, tuple(steps))
            continue
        yy = train_y[node]
        g = (train_codes[node] + offsets).ravel() * k + np.repeat(yy, p)
        table = np.bincount(g, weights=None if weights is None else np.repeat(weights[node], p),
                            minlength=n_av * k).reshape(n_av, k)
        n_v = table.sum(axis=1)
        cand = known[pts] & ~used[None, :]
        cand &= n_v[np.maximum(x_av[pts], 0)] > 0
        weighted = np.bincount(av_attr, weights=n_v * class_entropy(table), minlength=p)
        im = weighted / (node.size if weights is None else node_counts.sum())
        h_node = class_entropy(node_counts)
        choice = np.argmin(np.where(cand, im[None, :], np.inf), axis=1)
        groups: dict = {}
        for pos, i in enumerate(pts):
            if not cand[pos].any():
                out[i] = (OSRResult((), total_counts, "no_common_value", True) if not path
                          else OSRResult(tuple(path), node_counts, "no_tests", False,
                                         tuple(steps)))
                continue
            j = int(choice[pos])
            groups.setdefault((j, int(X[i, j])), []).append(i)
        for (j, v), members in groups.items():
            child = node[train_codes[node, j] == v]
            child_counts = np.bincount(train_y[child],
                                       weights=None if weights is None else weights[child],
                                       minlength=k)
            step = {"feature": j, "im": float(im[j]), "node_entropy": float(h_node)}
            stop = None
            if path:
                if im[j] >= h_node - 1e-12:
                    stop = "no_im_decrease"
                else:
                    s = significance_statistic(child_counts, laplace_accuracy(node_counts, k))
                    step["s"] = s
                    step["critical"] = critical
                    if s <= critical:
                        stop = "not_significant"
            if stop is not None:
                done = tuple(steps) + ({**step, "accepted": False},)
                for i in members:
                    out[i] = OSRResult(tuple(path), node_counts, stop, False, done)
                continue
            child_used = used.copy()
            child_used[j] = True
            stack.append((child, child_counts, child_used, path + [(j, v)],
                          steps + [{**step, "accepted": True}], np.array(members)))
    return out
