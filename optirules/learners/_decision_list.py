"""BruteDL decision lists with the Minimum OSR fallback (the Minimum OSR paper).

The learner searches every conjunction of at most ``max_depth`` tests ``attribute = value``
exhaustively (BruteDL, after Segal and Etzioni 1994), builds an ordered decision list by
Laplace accuracy, and classifies the test points that no rule covers either by the default
rule or by *Minimum OSR*, a greedy one-path decision tree grown along the test point's own
attribute values (the paper on BruteDL decision lists with the Minimum OSR fallback,
section "The Minimum OSR").

The paper's formulas were lost in extraction; the standard forms used here are

* **Laplace accuracy** of a set of rows with class counts :math:`n_1, \\dots, n_k`
  (:math:`n = \\sum_c n_c`, predicted class the majority class):

  .. math:: \\mathrm{LA} = \\frac{\\max_c n_c + 1}{n + k}

* **Information measure** of an attribute :math:`A` at a node (ID3's expected class
  entropy; :math:`P(v)` the share of the node's rows with :math:`A = v`, :math:`P(c \\mid v)`
  the share of class :math:`c` among them, logarithms base 2):

  .. math:: \\mathrm{IM}(A) = -\\sum_{v} P(v) \\sum_{c} P(c \\mid v) \\log_2 P(c \\mid v)

* **Significance test** of a child node against its parent (the paper's statistic S, a
  :math:`\\chi^2` goodness-of-fit test with one degree of freedom): with :math:`O_c` / :math:`O_i`
  the child's rows that its majority class predicts correctly / incorrectly and
  :math:`E_c = n\\,\\mathrm{LA}_{\\text{parent}}`, :math:`E_i = n\\,(1 - \\mathrm{LA}_{\\text{parent}})`,

  .. math:: S = \\frac{(O_c - E_c)^2}{E_c} + \\frac{(O_i - E_i)^2}{E_i},

  significant when :math:`S > \\chi^2_{1}(\\text{confidence})` (3.841 at 0.95).

Coverage sets are packed ``uint64`` bitsets (:mod:`optirules.learners._bitset`): one per
attribute-value and one per class, restricted to the training rows not yet covered, so a
conjunction's class counts are popcounts of word-wise ANDs.
"""

from __future__ import annotations

import base64
import json
import math
import numbers
import os
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets

from ..errors import InputError
from ._bitset import _HAS_BITWISE_COUNT, pack_rows, popcount
from ._checks import check_fitted

try:  # scikit-learn >= 1.6
    from sklearn.utils.validation import validate_data as _sk_validate_data
except ImportError:  # pragma: no cover - scikit-learn 1.5

    def _sk_validate_data(est, X, y="no_validation", reset=True, **kw):
        kw["force_all_finite"] = kw.pop("ensure_all_finite", True)
        return est._validate_data(X, y, reset=reset, **kw)


__all__ = [
    "DecisionListClassifier",
    "AttributeTest",
    "DecisionRule",
    "OSRResult",
    "laplace_accuracy",
    "class_entropy",
    "information_measure",
    "significance_statistic",
    "best_conjunction",
    "grow_decision_list",
    "minimum_osr",
]

MISSING = "?"
_JSON_FORMAT = "optirules.DecisionListClassifier"
_JSON_VERSION = 2
_JSON_READS = (1, 2)
TRAINING_ROWS = ("auto", "all", "uncovered", "none")


# --------------------------------------------------------------------------- formulas
def laplace_accuracy(counts: np.ndarray, n_classes: int | None = None) -> np.ndarray | float:
    """Laplace accuracy of the majority class: ``(max_c n_c + 1) / (n + k)``.

    Parameters
    ----------
    counts : array-like, shape (k,) or (m, k)
        Class counts of one set of rows, or of ``m`` sets (one per row of the array).
    n_classes : int, optional
        ``k``; defaults to the length of the last axis of ``counts``.

    Returns
    -------
    float or ndarray of shape (m,)

    Notes
    -----
    .. math:: \\mathrm{LA} = \\frac{\\max_c n_c + 1}{n + k}, \\qquad n = \\sum_c n_c

    (the Minimum OSR paper, "Laplace accuracy"; the form of Segal and Etzioni's BruteDL).
    """
    counts = np.asarray(counts)
    k = counts.shape[-1] if n_classes is None else int(n_classes)
    value = (counts.max(axis=-1) + 1.0) / (counts.sum(axis=-1) + k)
    return float(value) if np.ndim(value) == 0 else value


def class_entropy(counts: np.ndarray) -> np.ndarray | float:
    """Class entropy in bits, ``-sum_c p_c log2 p_c``, of class counts (last axis)."""
    counts = np.asarray(counts, dtype=float)
    n = counts.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(n > 0, counts / np.where(n > 0, n, 1.0), 0.0)
        terms = np.where(p > 0, -p * np.log2(np.where(p > 0, p, 1.0)), 0.0)
    value = terms.sum(axis=-1)
    return float(value) if np.ndim(value) == 0 else value


def information_measure(table: np.ndarray) -> float:
    """Information measure IM of one attribute at a node (the Minimum OSR paper, "The Minimum OSR").

    Parameters
    ----------
    table : array-like, shape (V, k)
        ``table[v, c]`` = number of the node's training rows with attribute value ``v`` and
        class ``c``.

    Returns
    -------
    float
        The expected class entropy after splitting the node on the attribute (bits).

    Notes
    -----
    .. math:: \\mathrm{IM}(A) = -\\sum_{v} P(v) \\sum_{c} P(c \\mid v) \\log_2 P(c \\mid v)

    :math:`P(v)` is the share of the node's rows with :math:`A = v` and :math:`P(c \\mid v)`
    the share of class :math:`c` among them (ID3's expected entropy, Quinlan 1986).
    """
    table = np.asarray(table, dtype=float)
    n_v = table.sum(axis=1)
    n = n_v.sum()
    if n <= 0:
        return 0.0
    return float(np.dot(n_v / n, class_entropy(table)))


def significance_statistic(counts: np.ndarray, parent_laplace: float) -> float:
    """The paper's statistic S: a child's correct/incorrect counts against the parent's LA.

    Parameters
    ----------
    counts : array-like, shape (k,)
        Class counts of the child node (its rule predicts the majority class).
    parent_laplace : float
        Laplace accuracy of the parent node, strictly between 0 and 1.

    Returns
    -------
    float

    Notes
    -----
    With :math:`n = \\sum_c n_c`, :math:`O_c = \\max_c n_c`, :math:`O_i = n - O_c`,
    :math:`E_c = n\\,\\mathrm{LA}_p`, :math:`E_i = n\\,(1 - \\mathrm{LA}_p)`:

    .. math:: S = \\frac{(O_c - E_c)^2}{E_c} + \\frac{(O_i - E_i)^2}{E_i}

    compared with the :math:`\\chi^2` quantile with one degree of freedom at the chosen
    confidence (the Minimum OSR paper: "If S exceeds the critical value, the Laplace accuracy at the
    current node is considered significantly different from that of its parent node").
    """
    counts = np.asarray(counts, dtype=float)
    n = counts.sum()
    if n <= 0:
        return 0.0
    o_c = counts.max()
    o_i = n - o_c
    e_c = n * parent_laplace
    e_i = n * (1.0 - parent_laplace)
    return float((o_c - e_c) ** 2 / e_c + (o_i - e_i) ** 2 / e_i)


# --------------------------------------------------------------------------- typed rules
@dataclass(frozen=True)
class AttributeTest:
    """One BruteDL test ``attribute = value``: a category, or an interval bin of a numeric feature.

    It reads the decision list's value codes (one code per attribute), not raw data; an
    interval bin is one test here where :class:`optirules.data.Literal` would need two
    (``x > c_i`` and ``x <= c_{i+1}``).
    """

    feature: int
    name: str
    value: int
    label: str

    def __str__(self) -> str:
        return f"{self.name} = {self.label}"

    def evaluate(self, codes: np.ndarray) -> np.ndarray:
        """Boolean mask of the rows of an encoded matrix that satisfy the test."""
        return np.asarray(codes)[:, self.feature] == self.value


@dataclass(frozen=True)
class DecisionRule:
    """One entry of a decision list: a conjunction of attribute tests, the class it predicts
    and its training statistics.

    It differs from :class:`optirules.learners._rules.Rule` (a conjunction of literals inside
    a DNF rule set, which predicts by the rule set's positive class): a decision rule carries
    its own class and is read in list order.

    ``class_counts`` are the class counts of the training rows the rule covered when it was
    added to the list (rows not covered by an earlier rule).
    """

    conditions: tuple[AttributeTest, ...]
    prediction: Any
    class_counts: tuple[int, ...]

    @property
    def coverage(self) -> int:
        """Number of (still uncovered) training rows the rule covered when it was added."""
        return int(sum(self.class_counts))

    @property
    def laplace(self) -> float:
        """Laplace accuracy of the rule on those rows."""
        return laplace_accuracy(np.asarray(self.class_counts))

    def __str__(self) -> str:
        body = " AND ".join(str(c) for c in self.conditions)
        return f"IF {body} THEN {self.prediction}"

    def evaluate(self, codes: np.ndarray) -> np.ndarray:
        """Boolean mask of the rows of an encoded matrix that the rule covers."""
        codes = np.asarray(codes)
        mask = np.ones(codes.shape[0], dtype=bool)
        for cond in self.conditions:
            mask &= cond.evaluate(codes)
        return mask


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


# --------------------------------------------------------------------------- search
def _row_sum(a: np.ndarray) -> np.ndarray:
    """Row sums of a narrow 2-D array (a column loop: far faster than ``sum(axis=1)``)."""
    out = a[:, 0].astype(np.int64)
    for c in range(1, a.shape[1]):
        out += a[:, c]
    return out


def _row_max(a: np.ndarray) -> np.ndarray:
    """Row maxima of a narrow 2-D array (a column loop)."""
    out = a[:, 0].copy()
    for c in range(1, a.shape[1]):
        np.maximum(out, a[:, c], out=out)
    return out


class _Counter:
    """Class counts of packed coverage sets, with preallocated buffers.

    The total is one popcount; classes ``0..k-2`` are popcounts of ``cover & class``;
    the last class is the total minus the others.
    """

    def __init__(self, class_bits: np.ndarray, n_words: int, buffer_words: int):
        self.class_bits = class_bits
        self.k = class_bits.shape[0]
        rows = max(1, buffer_words // max(1, n_words))
        self.tmp = np.empty((rows, n_words), dtype=np.uint64)
        self.bytes = np.empty((rows, n_words), dtype=np.uint8)
        self.sum_dtype = np.uint16 if 64 * n_words < 65536 else np.int64  # bits per set

    def _popcount(self, words: np.ndarray) -> np.ndarray:
        if _HAS_BITWISE_COUNT:
            out = self.bytes[: words.shape[0]]
            np.bitwise_count(words, out=out)
            if out.shape[1] > 64:
                return np.add.reduce(out, axis=1, dtype=np.int64)
            total = out[:, 0].astype(self.sum_dtype)
            for w in range(1, out.shape[1]):
                total += out[:, w]
            return total
        return popcount(words)  # pragma: no cover - numpy < 2

    def counts(self, covers: np.ndarray) -> np.ndarray:
        m = covers.shape[0]
        out = np.empty((m, self.k), dtype=np.int64)
        rows = self.tmp.shape[0]
        for s in range(0, m, rows):
            e = min(m, s + rows)
            cov = covers[s:e]
            rest = self._popcount(cov).astype(np.int64)
            for cls in range(self.k - 1):
                tmp = self.tmp[: e - s]
                np.bitwise_and(cov, self.class_bits[cls], out=tmp)
                out[s:e, cls] = self._popcount(tmp)
                rest -= out[s:e, cls]
            out[s:e, self.k - 1] = rest
        return out


class _Best:
    """Running best conjunction under the order (LA desc, coverage desc, depth asc, lex asc).

    Levels are offered in increasing depth, so a full tie with an earlier (shorter)
    conjunction never replaces it; within one level the lexicographically smallest tuple of
    attribute-value indices wins.
    """

    def __init__(self, n_classes: int):
        self.k = n_classes
        self.laplace = -1.0
        self.coverage = -1
        self.conj: tuple[int, ...] | None = None
        self.counts: np.ndarray | None = None

    def update(self, counts: np.ndarray, ok: np.ndarray, conj_of) -> None:
        """Offer candidates; ``conj_of(indices)`` returns their conjunctions (rows)."""
        if not ok.any():
            return
        tot = _row_sum(counts)
        lap = np.where(ok, (_row_max(counts) + 1.0) / (tot + self.k), -1.0)
        top = lap.max()
        if top < self.laplace:
            return
        ties = np.flatnonzero(lap == top)
        cov = tot[ties].max()
        if top == self.laplace and cov < self.coverage:
            return
        ties = ties[tot[ties] == cov]
        conj = np.asarray(conj_of(ties))
        i = int(np.lexsort(conj.T[::-1])[0])
        cand = tuple(int(a) for a in conj[i])
        if (top > self.laplace or cov > self.coverage
                or (len(cand) == len(self.conj) and cand < self.conj)):
            self.laplace = float(top)
            self.coverage = int(cov)
            self.conj = cand
            self.counts = counts[ties[i]].copy()


def _walk_levels(
    av_bits: np.ndarray,
    counter: _Counter,
    av_attr: np.ndarray,
    max_depth: int,
    min_coverage: int,
    visit,
    extendable,
    buffer_words: int,
) -> int:
    """Enumerate conjunctions level by level with packed bitsets.

    ``visit(depth, counts, ok, conj_of)`` sees every batch of candidates (``ok``: covers
    ``min_coverage`` rows; ``conj_of(indices)`` builds their attribute-value tuples) and
    ``extendable(counts, ok)`` says which of them are extended to the next level.  Each
    frontier conjunction (grouped by its last attribute) is intersected with every test of
    a later attribute by broadcasting a block of frontier bitsets against the block of
    tests.  Returns the number of candidates evaluated.
    """
    n_av, n_w = av_bits.shape
    counts1 = counter.counts(av_bits)
    n_candidates = n_av
    ok1 = _row_sum(counts1) >= min_coverage
    visit(1, counts1, ok1, lambda idx: np.asarray(idx)[:, None])
    valid = np.flatnonzero(ok1)
    if max_depth <= 1 or valid.size == 0:
        return n_candidates
    keep = extendable(counts1[valid], np.ones(valid.size, dtype=bool))
    f_conj, f_cov = valid[keep][:, None], av_bits[valid[keep]]
    valid_attr = av_attr[valid]
    buf = np.empty(max(buffer_words, n_w * n_av), dtype=np.uint64)
    for depth in range(2, max_depth + 1):
        if f_conj.shape[0] == 0:
            break
        extend = depth < max_depth
        last_attr = av_attr[f_conj[:, -1]]
        order = np.argsort(last_attr, kind="stable")
        bounds = np.flatnonzero(np.diff(last_attr[order])) + 1
        new_conj: list[np.ndarray] = []
        new_cov: list[np.ndarray] = []
        new_counts: list[np.ndarray] = []
        for group in np.split(order, bounds):
            right_ids = valid[np.searchsorted(valid_attr, last_attr[group[0]], side="right"):]
            n_r = right_ids.size
            if n_r == 0:
                continue
            right = av_bits[right_ids]
            step = max(1, buf.size // (n_r * n_w))
            for g0 in range(0, group.size, step):
                parents = group[g0:g0 + step]
                n_p = parents.size
                cov3 = buf[: n_p * n_r * n_w].reshape(n_p, n_r, n_w)
                np.bitwise_and(f_cov[parents][:, None, :], right[None, :, :], out=cov3)
                cov = cov3.reshape(n_p * n_r, n_w)
                counts = counter.counts(cov)
                n_candidates += n_p * n_r
                ok = _row_sum(counts) >= min_coverage

                def conj_of(idx, parents=parents, right_ids=right_ids, n_r=n_r, f_conj=f_conj):
                    idx = np.asarray(idx)
                    return np.column_stack([f_conj[parents[idx // n_r]], right_ids[idx % n_r]])

                visit(depth, counts, ok, conj_of)
                if extend:
                    sv = np.flatnonzero(extendable(counts, ok))
                    if sv.size:
                        new_conj.append(conj_of(sv))
                        new_cov.append(cov[sv].copy())
                        new_counts.append(counts[sv])
        if not extend or not new_conj:
            break
        f_conj = np.concatenate(new_conj)
        f_cov = np.concatenate(new_cov)
        keep = extendable(np.concatenate(new_counts), np.ones(f_conj.shape[0], dtype=bool))
        f_conj, f_cov = f_conj[keep], f_cov[keep]
    return n_candidates


def best_conjunction(
    av_bits: np.ndarray,
    class_bits: np.ndarray,
    av_attr: np.ndarray,
    max_depth: int,
    min_coverage: int = 1,
    *,
    buffer_words: int = 1 << 18,
    prune: bool = True,
) -> tuple[tuple[int, ...] | None, np.ndarray | None, float, int]:
    """Exhaustive depth-bounded search for the conjunction of best Laplace accuracy.

    Parameters
    ----------
    av_bits : ndarray of uint64, shape (n_av, W)
        Packed coverage set of every attribute-value test over the candidate rows;
        attribute-values are numbered attribute by attribute (``av_attr`` non-decreasing).
    class_bits : ndarray of uint64, shape (k, W)
        Packed set of the rows of each class.
    av_attr : ndarray of int, shape (n_av,)
        The attribute of each attribute-value test.
    max_depth : int
        Largest number of tests in a conjunction (tests on distinct attributes).
    min_coverage : int
        Smallest number of rows a conjunction must cover.
    buffer_words : int
        Size of the work buffer (uint64 words) for one batch of intersections.
    prune : bool
        Skip extensions that cannot beat the best conjunction found so far (see Notes);
        False evaluates every conjunction (for timing and tests).

    Returns
    -------
    conj : tuple of int or None
        Attribute-value indices of the best conjunction, increasing (None when none covers
        ``min_coverage`` rows).
    counts : ndarray of shape (k,) or None
        Its class counts.
    laplace : float
        Its Laplace accuracy ``(max_c n_c + 1) / (n + k)``.
    n_candidates : int
        Number of conjunctions whose counts were evaluated.

    Notes
    -----
    Ties are broken by larger coverage, then fewer tests, then the lexicographically
    smallest tuple of attribute-value indices.  A conjunction is extended only if it covers
    ``min_coverage`` rows, is not pure (no specialization of a pure conjunction can beat
    it), and its optimistic bound :math:`(n_{c^*} + 1)/(n_{c^*} + k)` (the best Laplace
    accuracy any specialization can reach, :math:`n_{c^*}` its largest class count) is at
    least the best Laplace accuracy found so far; extensions use only tests that cover
    ``min_coverage`` rows themselves.  This pruning never changes the result.
    """
    k = class_bits.shape[0]
    min_coverage = max(1, int(min_coverage))
    best = _Best(k)
    counter = _Counter(class_bits, av_bits.shape[1], buffer_words)

    def visit(depth, counts, ok, conj_of):
        best.update(counts, ok, conj_of)

    def extendable(counts: np.ndarray, ok: np.ndarray) -> np.ndarray:
        if not prune:
            return ok
        top = _row_max(counts)
        bound = (top + 1.0) / (top + k)
        return ok & (top < _row_sum(counts)) & (bound >= best.laplace)

    n_candidates = _walk_levels(av_bits, counter, av_attr, max_depth, min_coverage, visit,
                                extendable, buffer_words)
    return best.conj, best.counts, best.laplace, n_candidates


def grow_decision_list(
    onehot: np.ndarray,
    y: np.ndarray,
    n_classes: int,
    av_attr: np.ndarray,
    max_depth: int,
    min_coverage: int = 1,
    max_rules: int | None = None,
    *,
    buffer_words: int = 1 << 18,
) -> tuple[list[dict], np.ndarray, str]:
    """BruteDL: grow the ordered list of best-Laplace conjunctions on the uncovered rows.

    Parameters
    ----------
    onehot : ndarray of bool, shape (n_av, n)
        ``onehot[a, i]``: training row ``i`` passes attribute-value test ``a`` (tests
        numbered attribute by attribute, see ``av_attr``).
    y : ndarray of int, shape (n,)
        Classes ``0..k-1``.
    n_classes : int
        ``k``.
    av_attr : ndarray of int, shape (n_av,)
        Attribute of each test (non-decreasing).
    max_depth, min_coverage, max_rules :
        As in :class:`DecisionListClassifier`.
    buffer_words : int
        Work buffer size of :func:`best_conjunction`.

    Returns
    -------
    steps : list of dict
        Per rule: ``conj`` (attribute-value indices), ``counts``, ``laplace``,
        ``coverage``, ``candidates`` and ``seconds``.
    remaining : ndarray of int
        Training rows no rule covers.
    stop : str
        ``"all_covered"``, ``"min_coverage"``, ``"not_better_than_default"`` or
        ``"max_rules"``.
    """
    k = int(n_classes)
    n_av, n = onehot.shape
    min_coverage = max(1, int(min_coverage))
    remaining = np.arange(n)
    steps: list[dict] = []
    stop = "all_covered"
    while True:
        if remaining.size == 0:
            stop = "all_covered"
            break
        if max_rules is not None and len(steps) >= max_rules:
            stop = "max_rules"
            break
        t0 = time.perf_counter()
        yr = y[remaining]
        av_bits = pack_rows(onehot[:, remaining])
        class_bits = pack_rows(yr[None, :] == np.arange(k)[:, None])
        conj, counts, lap, n_eval = best_conjunction(
            av_bits, class_bits, av_attr, max_depth, min_coverage, buffer_words=buffer_words)
        if conj is None:
            stop = "min_coverage"
            break
        if lap <= laplace_accuracy(np.bincount(yr, minlength=k), k):
            stop = "not_better_than_default"
            break
        covered = np.all(onehot[np.asarray(conj)][:, remaining], axis=0)
        steps.append({"conj": conj, "counts": counts, "laplace": float(lap),
                      "coverage": int(covered.sum()), "candidates": int(n_eval),
                      "seconds": time.perf_counter() - t0})
        remaining = remaining[~covered]
    return steps, remaining, stop


# --------------------------------------------------------------------------- Minimum OSR
def minimum_osr(
    train_codes: np.ndarray,
    train_y: np.ndarray,
    n_values: np.ndarray,
    x: np.ndarray,
    x_missing: np.ndarray,
    n_classes: int,
    confidence: float = 0.95,
    missing_codes: np.ndarray | None = None,
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
    from scipy.stats import chi2

    k = int(n_classes)
    n, p = train_codes.shape
    x = np.asarray(x)
    x_missing = np.asarray(x_missing, dtype=bool)
    total_counts = np.bincount(train_y, minlength=k)
    if x_missing.all():
        return OSRResult((), total_counts, "all_missing", True)
    known = ~x_missing & (x >= 0)
    if missing_codes is not None:
        known &= x != np.asarray(missing_codes)
    if not known.any():
        return OSRResult((), total_counts, "no_common_value", True)

    critical = float(chi2.ppf(confidence, df=1))
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
        table = np.bincount(g, minlength=n_av * k).reshape(n_av, k)
        n_v = table.sum(axis=1)
        cand = known & ~used
        cand[cand] = n_v[x_av[cand]] > 0
        if not cand.any():
            if not path:  # none of the given training rows shares a known value
                return OSRResult((), total_counts, "no_common_value", True)
            stop = "no_tests"
            break
        weighted = np.bincount(av_attr, weights=n_v * class_entropy(table), minlength=p)
        im = weighted / node.size
        cand_idx = np.flatnonzero(cand)
        j = int(cand_idx[np.argmin(im[cand_idx])])
        h_node = class_entropy(node_counts)
        child = node[train_codes[node, j] == x[j]]
        child_counts = np.bincount(train_y[child], minlength=k)
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


# --------------------------------------------------------------------------- encoding
@dataclass
class _Feature:
    """How one input column becomes value codes."""

    name: str
    kind: str  # "categorical" or "numeric"
    categories: list[str]
    cuts: list[float] | None = None

    @property
    def missing_code(self) -> int:
        if self.kind == "categorical" and MISSING in self.categories:
            return self.categories.index(MISSING)
        return -1

    def label(self, code: int) -> str:
        return self.categories[code]

    def to_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "categories": list(self.categories),
                "cuts": None if self.cuts is None else [float(c) for c in self.cuts]}

    @classmethod
    def from_dict(cls, d: dict) -> _Feature:
        return cls(str(d["name"]), str(d["kind"]), [str(c) for c in d["categories"]],
                   None if d.get("cuts") is None else [float(c) for c in d["cuts"]])


def _fmt_num(v: float) -> str:
    return f"{v:.6g}"


def _interval_labels(cuts: np.ndarray) -> list[str]:
    if cuts.size == 0:
        return ["(-inf, inf)"]
    edges = ["-inf"] + [_fmt_num(c) for c in cuts] + ["inf"]
    labels = [f"({edges[i]}, {edges[i + 1]}]" for i in range(len(edges) - 1)]
    labels[-1] = labels[-1][:-1] + ")"
    return labels


def _norm_category(v: Any) -> str:
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, numbers.Real):
        fv = float(v)
        return str(int(fv)) if fv.is_integer() else repr(fv)
    return str(v)


def _category_strings(col: np.ndarray) -> np.ndarray:
    """Column values as category strings; missing (None, NaN, NA, '') becomes ``'?'``."""
    col = np.asarray(col, dtype=object)
    try:
        codes, uniques = pd.factorize(col, use_na_sentinel=True)
        names = np.array([_norm_category(v) for v in uniques] + [MISSING], dtype=object)
        out = names[codes]  # code -1 (missing) picks the trailing "?"
    except TypeError:  # unhashable values: one by one
        missing = np.asarray(pd.isna(col), dtype=bool)
        out = np.array([MISSING if missing[i] else _norm_category(v)
                        for i, v in enumerate(col)], dtype=object)
    out[out == ""] = MISSING
    return out


def _is_real_number(v: Any) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))


# --------------------------------------------------------------------------- estimator
class DecisionListClassifier(ClassifierMixin, BaseEstimator):
    """BruteDL decision list with the Minimum OSR fallback (the Minimum OSR paper).

    **How the list is built.**  Every training row starts uncovered.  Repeatedly, among all
    conjunctions of ``1..max_depth`` tests ``attribute = value`` on distinct attributes that
    cover at least ``min_coverage`` uncovered rows, the one of best Laplace accuracy
    :math:`(\\max_c n_c + 1)/(n + k)` on the uncovered rows is found by exhaustive search
    (ties: larger coverage, then fewer tests, then the first in attribute/value order); it
    predicts its majority class among those rows (ties: the first class in ``classes_``),
    is appended to the list, and its rows become covered.  The search stops when no row is
    uncovered, when no conjunction covers ``min_coverage`` uncovered rows, when the best
    conjunction's Laplace accuracy does not exceed that of the default rule on the uncovered
    rows, or after ``max_rules`` rules.  The default rule predicts the majority class of the
    rows left uncovered (of all training rows if none is left).

    **Prediction.**  The first rule that covers a point classifies it.  A point that no rule
    covers goes to the fallback: ``"default"`` uses the default rule; ``"min_osr"`` runs
    Minimum OSR (:func:`minimum_osr`) over the training rows chosen by ``osr_rows`` - the
    whole training set (the paper: rules "evaluated based on statistics computed over the
    training data"), or the rows no rule covers (those behind the default rule) - and uses
    the default rule only when every attribute of the point is missing or none of its
    known values occurs in those rows.  ``predict_proba`` is the Laplace-smoothed class distribution
    :math:`(n_c + 1)/(n + k)` of the training rows behind the rule, OSR leaf or default rule
    that classified the point, so ``predict`` is its argmax.

    **Features.**  Categorical columns (strings, booleans, pandas ``category``/``object``
    columns, object arrays holding anything but plain numbers, or those named in
    ``categorical_features``) are used natively: each distinct value (compared as a
    string, integral numbers written without ``.0``) is a test; missing values (None, NaN,
    empty string) form their own value ``"?"``.  Rules may test ``= ?``; Minimum OSR treats a
    missing test value as unknown.  Numeric columns are cut into at most ``n_bins`` quantile
    bins: the cut points are the training quantiles at ``1/n_bins, ..., (n_bins-1)/n_bins``
    (``inverted_cdf``, i.e. observed values), deduplicated, without the maximum, and bin
    ``i`` is the interval :math:`(c_i, c_{i+1}]` - every bin holds training rows.  Numeric
    columns must be finite.  A category never seen in training matches no rule and is
    unknown to Minimum OSR.

    Parameters
    ----------
    max_depth : int, default=2
        Largest number of tests in one rule.  BruteDL fixes the depth beforehand (the
        paper's extracted text does not give its value); a deeper search costs about ten
        times more per level on data with many attributes and can overfit (splice, 10-fold
        CV: 88.4 % at depth 3 with ``min_coverage=2``, CART 94.6 %).
        :class:`~optirules.learners.DecisionListCV` chooses it, and ``min_coverage``, by
        cross-validation.
    min_coverage : int, default=2
        Smallest number of uncovered training rows a rule must cover when it is added (ours:
        the paper names no such bound; 1 admits rules for single rows).
    fallback : {"min_osr", "default"}, default="min_osr"
        How points no rule covers are classified: Minimum OSR (the paper's method) or the
        default rule.
    confidence : float, default=0.95
        Confidence of Minimum OSR's significance test (0 < confidence < 1).
    n_bins : int, default=5
        Number of quantile bins for numeric features (>= 2).
    categorical_features : None, "all" or list of int/str, default=None
        Columns to treat as categorical in addition to those inferred from the data
        (``"all"``: every column).
    max_rules : int or None, default=None
        Largest number of rules in the list.
    osr_rows : {"uncovered", "all"}, default="uncovered"
        Training rows Minimum OSR grows its path on.  ``"all"`` is the paper's reading: its
        information measure is computed "over the training data set", and its default
        rule is needed only when "no training example has a value in common" with the
        point.  ``"uncovered"`` (the default, a departure from the paper) uses the training
        rows no rule covers - the rows behind the default rule, i.e. the part of the data
        the list leaves unexplained, which is where an uncovered test point comes from
        (all training rows if every row is covered).  The default is earned by
        measurement: over the eight data sets of ``benchmarks/results/decision_list.md``
        (depth-3 lists, 10-fold CV or the MONK's own splits) ``"uncovered"`` is better on
        tic-tac-toe (100.0 % vs 94.7 %: every uncovered test point is negative, and the
        positives the list already explains lure the all-rows path), monks-2 (+0.2
        points), mushroom (+0.06) and splice (+0.03), worse on monks-3 (91.2 % vs 92.1 %)
        and equal on the other three (mean +0.59 points).  Only prediction uses it, so it
        can be changed after ``fit``.

    Attributes
    ----------
    classes_ : ndarray
        Class labels.
    rules_ : list of DecisionRule
        The decision list, in order.
    default_counts_ : ndarray of shape (k,)
        Class counts behind the default rule.
    default_class_ : object
        The default rule's class.
    stop_reason_ : str
        Why rule search stopped: ``"all_covered"``, ``"min_coverage"``,
        ``"not_better_than_default"`` or ``"max_rules"``.
    history_ : list of dict
        Per rule: Laplace accuracy, coverage, candidates evaluated, seconds.
    n_candidates_ : int
        Conjunctions evaluated in total.
    features_ : list
        Per column: kind (categorical/numeric), categories or interval labels, cut points.
    train_codes_, train_y_ : ndarray
        Encoded training data (Minimum OSR works on it); after :meth:`from_json`, only the
        rows the JSON file holds (see ``training_rows_``).
    uncovered_rows_ : ndarray of int
        Training rows no rule covers (indices into ``train_codes_``).
    training_rows_ : {"all", "uncovered", "none"}
        Which training rows the estimator holds: ``"all"`` after ``fit``; after
        :meth:`from_json`, what :meth:`to_json` stored.  Minimum OSR with
        ``osr_rows="all"`` needs ``"all"``; with ``osr_rows="uncovered"``, ``"all"`` or
        ``"uncovered"``; ``fallback="default"`` needs none.
    n_features_in_, feature_names_in_ :
        As in scikit-learn.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"color": ["red", "red", "blue", "blue"],
    ...                   "size": ["big", "small", "big", "small"]})
    >>> clf = DecisionListClassifier(min_coverage=1).fit(X, [1, 0, 0, 0])
    >>> print(clf)  # doctest: +SKIP
    IF color = red AND size = big THEN 1
    ...
    """

    def __init__(
        self,
        max_depth: int = 2,
        min_coverage: int = 2,
        fallback: str = "min_osr",
        confidence: float = 0.95,
        n_bins: int = 5,
        categorical_features: Any = None,
        max_rules: int | None = None,
        osr_rows: str = "uncovered",
    ):
        self.max_depth = max_depth
        self.min_coverage = min_coverage
        self.fallback = fallback
        self.confidence = confidence
        self.n_bins = n_bins
        self.categorical_features = categorical_features
        self.max_rules = max_rules
        self.osr_rows = osr_rows

    # ------------------------------------------------------------------ tags
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.string = True
        return tags

    # ------------------------------------------------------------------ checks
    def _check_params(self) -> None:
        def is_int(v: Any) -> bool:
            return isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_))

        if not is_int(self.max_depth) or self.max_depth < 1:
            raise InputError(f"max_depth must be an integer >= 1, got {self.max_depth!r}; "
                             "use 1-3 (the search is exhaustive).")
        if not is_int(self.min_coverage) or self.min_coverage < 1:
            raise InputError(f"min_coverage must be an integer >= 1, got {self.min_coverage!r}.")
        if self.osr_rows not in ("all", "uncovered"):
            raise InputError(f"osr_rows must be 'all' or 'uncovered', got {self.osr_rows!r}.")
        if self.fallback not in ("min_osr", "default"):
            raise InputError(f"fallback must be 'min_osr' or 'default', got {self.fallback!r}.")
        if (not isinstance(self.confidence, numbers.Real) or isinstance(self.confidence, bool)
                or not 0.0 < float(self.confidence) < 1.0):
            raise InputError(f"confidence must be a number in (0, 1), got {self.confidence!r}; "
                             "0.95 is the paper's choice.")
        if not is_int(self.n_bins) or self.n_bins < 2:
            raise InputError(f"n_bins must be an integer >= 2, got {self.n_bins!r}.")
        if self.max_rules is not None and (not is_int(self.max_rules) or self.max_rules < 1):
            raise InputError(f"max_rules must be None or an integer >= 1, got {self.max_rules!r}.")
        cf = self.categorical_features
        if cf is not None and not (isinstance(cf, str) and cf == "all"):
            if isinstance(cf, str) or not hasattr(cf, "__iter__"):
                raise InputError("categorical_features must be None, 'all' or a list of column "
                                 f"indices or names, got {cf!r}.")

    def _validate(self, X: Any, y: Any = None, reset: bool = True) -> tuple[list, list, Any]:
        """Check X (and y) and return the columns as 1-D arrays plus their inferred kinds."""
        is_frame = isinstance(X, pd.DataFrame)
        try:
            if y is None:
                arr = _sk_validate_data(self, X, reset=reset, dtype=None,
                                        ensure_all_finite=False)
            else:
                arr, y = _sk_validate_data(self, X, y, reset=reset, dtype=None,
                                           ensure_all_finite=False)
        except InputError:
            raise
        except TypeError as exc:
            raise InputError(f"{exc} Pass a 2-D array or a pandas DataFrame.") from exc
        except ValueError as exc:
            raise InputError(f"{exc} Check the shape of X (and y) and pass a dense 2-D "
                             "array or DataFrame.") from exc
        if is_frame:
            cols = [X.iloc[:, j].to_numpy() for j in range(X.shape[1])]
            kinds = []
            for j in range(X.shape[1]):
                dt = X.dtypes.iloc[j]
                numeric = (pd.api.types.is_numeric_dtype(dt)
                           and not pd.api.types.is_bool_dtype(dt)
                           and not isinstance(dt, pd.CategoricalDtype))
                kinds.append("numeric" if numeric else "categorical")
            names = [str(c) for c in X.columns]
        else:
            arr = np.asarray(arr)
            cols = [arr[:, j] for j in range(arr.shape[1])]
            if arr.dtype.kind in "iuf":
                kinds = ["numeric"] * arr.shape[1]
            elif arr.dtype.kind == "O":
                kinds = ["numeric" if all(_is_real_number(v) for v in c) else "categorical"
                         for c in cols]
            else:
                kinds = ["categorical"] * arr.shape[1]
            names = [f"x{j}" for j in range(arr.shape[1])]
        return cols, kinds, (names, y)

    # ------------------------------------------------------------------ encoding
    def _fit_features(self, cols: list, kinds: list, names: list) -> list[_Feature]:
        p = len(cols)
        cf = self.categorical_features
        forced = np.zeros(p, dtype=bool)
        if isinstance(cf, str) and cf == "all":
            forced[:] = True
        elif cf is not None:
            for item in cf:
                if isinstance(item, numbers.Integral) and not isinstance(item, bool):
                    if not -p <= int(item) < p:
                        raise InputError(f"categorical_features index {item} is out of range "
                                         f"for {p} columns.")
                    forced[int(item)] = True
                elif isinstance(item, str) and item in names:
                    forced[names.index(item)] = True
                else:
                    raise InputError(f"categorical_features entry {item!r} is neither a column "
                                     f"index nor a column name ({names[:5]}...).")
        features = []
        for j, col in enumerate(cols):
            if forced[j] or kinds[j] == "categorical":
                cats = sorted(set(_category_strings(col).tolist()))
                features.append(_Feature(names[j], "categorical", cats))
            else:
                x = self._numeric_column(col, names[j])
                levels = np.arange(1, self.n_bins) / self.n_bins
                cuts = np.unique(np.quantile(x, levels, method="inverted_cdf"))
                cuts = cuts[cuts < x.max()]
                features.append(_Feature(names[j], "numeric", _interval_labels(cuts),
                                         cuts.tolist()))
        return features

    @staticmethod
    def _numeric_column(col: np.ndarray, name: str) -> np.ndarray:
        try:
            x = np.asarray(col, dtype=float)
        except (TypeError, ValueError) as exc:
            raise InputError(f"column {name!r} was fitted as numeric but holds non-numeric "
                             "values; pass it as categorical (categorical_features).") from exc
        if np.isnan(x).any():
            raise InputError(f"column {name!r} holds NaN (missing) values; impute them, or list "
                             "the column in categorical_features so that missing becomes the "
                             "value '?'.")
        if not np.isfinite(x).all():
            raise InputError(f"column {name!r} holds inf values; numeric features must be "
                             "finite.")
        return x

    def _encode(self, cols: list) -> tuple[np.ndarray, np.ndarray]:
        """Value codes (-1: not seen in training) and the missing mask, shape (n, p)."""
        n = cols[0].shape[0] if cols else 0
        p = len(self.features_)
        codes = np.empty((n, p), dtype=np.int32)
        missing = np.zeros((n, p), dtype=bool)
        for j, (feat, col) in enumerate(zip(self.features_, cols)):
            if feat.kind == "categorical":
                s = _category_strings(col)
                missing[:, j] = s == MISSING
                codes[:, j] = pd.Index(feat.categories).get_indexer(s)
            else:
                x = self._numeric_column(col, feat.name)
                codes[:, j] = np.searchsorted(np.asarray(feat.cuts, dtype=float), x, side="left")
        return codes, missing

    # ------------------------------------------------------------------ fit
    def fit(self, X: Any, y: Any) -> DecisionListClassifier:
        """Build the decision list from training data.

        Parameters
        ----------
        X : array-like or DataFrame, shape (n_samples, n_features)
            Categorical and/or numeric features (see the class docstring).
        y : array-like, shape (n_samples,)
            Class labels (at least two distinct classes).

        Returns
        -------
        self
        """
        self._check_params()
        t0 = time.perf_counter()
        if y is None:
            raise InputError("DecisionListClassifier requires y to be passed, but the target y is "
                             "None; pass the class labels of the training rows.")
        cols, kinds, (names, y) = self._validate(X, y, reset=True)
        try:
            check_classification_targets(y)
        except ValueError as exc:
            raise InputError(f"{exc} DecisionListClassifier needs discrete class labels.") from exc
        self.classes_, y_enc = np.unique(y, return_inverse=True)
        y_enc = y_enc.ravel().astype(np.int64)
        if self.classes_.size < 2:
            raise InputError(f"y holds one class only ({self.classes_[0]!r}); a classifier needs "
                             "at least two classes in the training data.")
        self.features_ = self._fit_features(cols, kinds, names)
        codes, _ = self._encode(cols)
        self.train_codes_ = codes
        self.train_y_ = y_enc
        self.training_rows_ = "all"
        self._build_list(codes, y_enc)
        self.fit_time_ = time.perf_counter() - t0
        return self

    def _build_list(self, codes: np.ndarray, y: np.ndarray) -> None:
        k = self.classes_.size
        n, p = codes.shape
        n_values = np.array([len(f.categories) for f in self.features_], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(n_values)[:-1]]).astype(np.int64)
        n_av = int(n_values.sum())
        av_attr = np.repeat(np.arange(p), n_values)
        av_value = np.arange(n_av) - offsets[av_attr]
        onehot = np.zeros((n_av, n), dtype=bool)
        for j in range(p):
            onehot[offsets[j] + codes[:, j], np.arange(n)] = True
        steps, remaining, stop = grow_decision_list(
            onehot, y, k, av_attr, self.max_depth, self.min_coverage, self.max_rules)
        rules: list[DecisionRule] = []
        history: list[dict] = []
        for step in steps:
            conds = tuple(self._condition(int(av_attr[a]), int(av_value[a]))
                          for a in step["conj"])
            pred = int(np.argmax(step["counts"]))
            rules.append(DecisionRule(conds, self.classes_[pred],
                              tuple(int(c) for c in step["counts"])))
            history.append({"rule": len(rules) - 1, "laplace": step["laplace"],
                            "coverage": step["coverage"], "candidates": step["candidates"],
                            "seconds": step["seconds"]})
        n_candidates = int(sum(h["candidates"] for h in history))
        self.rules_ = rules
        self.history_ = history
        self.n_candidates_ = n_candidates
        self.stop_reason_ = stop
        self.uncovered_rows_ = np.asarray(remaining, dtype=np.int64)
        rest = y[remaining] if remaining.size else y
        self.default_counts_ = np.bincount(rest, minlength=k)
        self.default_class_ = self.classes_[int(np.argmax(self.default_counts_))]

    # ------------------------------------------------------------------ predict
    def _classify(self, X: Any) -> tuple[np.ndarray, np.ndarray, list[Any]]:
        """Per row: class-count vector, rule index (-1 none) and OSR result or None."""
        check_fitted(self, "rules_")
        self._check_params()
        self._check_training_rows()
        cols, _, _ = self._validate(X, reset=False)
        codes, missing = self._encode(cols)
        n = codes.shape[0]
        k = self.classes_.size
        rule_idx = np.full(n, -1, dtype=np.int64)
        open_rows = np.ones(n, dtype=bool)
        counts = np.empty((n, k), dtype=np.int64)
        for r, rule in enumerate(self.rules_):
            hit = open_rows & rule.evaluate(codes)
            rule_idx[hit] = r
            counts[hit] = rule.class_counts
            open_rows &= ~hit
        osr: list[Any] = [None] * n
        rows = np.flatnonzero(open_rows)
        if rows.size and self.fallback == "min_osr":
            train_codes, train_y = self.train_codes_, self.train_y_
            if self.osr_rows == "uncovered" and self.uncovered_rows_.size:
                train_codes = train_codes[self.uncovered_rows_]
                train_y = train_y[self.uncovered_rows_]
            n_values = np.array([len(f.categories) for f in self.features_], dtype=np.int64)
            missing_codes = np.array([f.missing_code for f in self.features_], dtype=np.int64)
            key = np.column_stack([codes[rows], missing[rows]])
            _, first, inverse = np.unique(key, axis=0, return_index=True, return_inverse=True)
            results = [minimum_osr(train_codes, train_y, n_values, codes[rows[i]],
                                   missing[rows[i]], k, float(self.confidence), missing_codes)
                       for i in first]
            inverse = np.ravel(inverse)
            for pos, row in enumerate(rows):
                res = results[int(inverse[pos])]
                osr[row] = res
                counts[row] = self.default_counts_ if res.used_default else res.class_counts
        else:
            counts[rows] = self.default_counts_
        return counts, rule_idx, osr

    def predict_proba(self, X: Any) -> np.ndarray:
        """Laplace-smoothed class distribution ``(n_c + 1)/(n + k)`` behind each decision."""
        counts, _, _ = self._classify(X)
        k = self.classes_.size
        return (counts + 1.0) / (counts.sum(axis=1, keepdims=True) + k)

    def predict(self, X: Any) -> np.ndarray:
        """Class of the first rule that covers each row, else of the fallback."""
        counts, _, _ = self._classify(X)
        return self.classes_[np.argmax(counts, axis=1)]

    def explain(self, X: Any) -> pd.DataFrame:
        """Which rule, OSR path or default rule classified each row.

        Returns
        -------
        DataFrame with one row per input row and columns

        - ``prediction``: the predicted class;
        - ``method``: ``"rule"``, ``"min_osr"`` or ``"default"``;
        - ``rule``: index into ``rules_`` of the rule that fired, -1 if none;
        - ``fallback``: True when no rule covered the row;
        - ``text``: the rule that decided, e.g. ``IF odor = n THEN 0`` (an OSR rule is
          written the same way; the default rule as ``DEFAULT <class>``);
        - ``osr_path``: tuple of ``(feature name, value)`` pairs of the OSR rule (empty
          otherwise);
        - ``osr_stop``: why the OSR path stopped (see :class:`OSRResult`), ``""`` otherwise.
        """
        counts, rule_idx, osr = self._classify(X)
        preds = self.classes_[np.argmax(counts, axis=1)]
        rows = []
        for i in range(counts.shape[0]):
            r = int(rule_idx[i])
            res = osr[i]
            if r >= 0:
                rows.append((preds[i], "rule", r, False, str(self.rules_[r]), (), ""))
            elif res is None or res.used_default:
                rows.append((preds[i], "default", -1, True, f"DEFAULT {preds[i]}", (),
                             "" if res is None else res.stop))
            else:
                conds = [self._condition(j, v) for j, v in res.path]
                body = " AND ".join(str(c) for c in conds) if conds else "TRUE"
                text = f"IF {body} THEN {preds[i]}"
                rows.append((preds[i], "min_osr", -1, True, text,
                             tuple((c.name, c.label) for c in conds), res.stop))
        return pd.DataFrame(rows, columns=["prediction", "method", "rule", "fallback", "text",
                                           "osr_path", "osr_stop"])

    def _condition(self, j: int, v: int) -> AttributeTest:
        feat = self.features_[j]
        return AttributeTest(j, feat.name, int(v), feat.label(int(v)))

    # ------------------------------------------------------------------ printing
    def to_text(self, stats: bool = False) -> str:
        """The list as text, one rule a line; ``stats`` appends coverage and Laplace accuracy."""
        check_fitted(self, "rules_")
        lines = []
        for r, rule in enumerate(self.rules_):
            line = ("ELSE " if r else "") + str(rule)
            if stats:
                line += f"    [covers {rule.coverage}, Laplace {rule.laplace:.4f}]"
            lines.append(line)
        tail = "uncovered points: Minimum OSR, default rule in its two cases" \
            if self.fallback == "min_osr" else "uncovered points: default rule"
        prefix = "ELSE " if self.rules_ else ""
        lines.append(f"{prefix}DEFAULT {self.default_class_}    ({tail})")
        return "\n".join(lines)

    def __str__(self) -> str:
        if not hasattr(self, "rules_"):
            return self.__repr__()
        return self.to_text()

    # ------------------------------------------------------------------ JSON
    def _osr_rows_needed(self) -> str:
        """The training rows the current ``fallback`` / ``osr_rows`` need at prediction."""
        if self.fallback != "min_osr":
            return "none"
        if self.osr_rows == "uncovered" and self.uncovered_rows_.size:
            return "uncovered"
        return "all"

    def _check_training_rows(self) -> None:
        """Refuse Minimum OSR over training rows this (loaded) estimator does not hold."""
        held = getattr(self, "training_rows_", "all")
        need = self._osr_rows_needed()
        if need == "none" or held == "all" or (held == "uncovered" and need == "uncovered"):
            return
        what = "no training rows" if held == "none" else "only the uncovered training rows"
        raise InputError(
            f"this decision list was loaded with {what} (to_json(training_rows={held!r})), "
            f"but fallback='min_osr' with osr_rows={self.osr_rows!r} grows Minimum OSR on "
            f"{'all training rows' if need == 'all' else 'the uncovered training rows'}; set "
            "fallback='default'"
            + (", or osr_rows='uncovered'" if held == "uncovered" else "")
            + ", or export the fitted model with to_json(training_rows='all').")

    def to_json(self, path: str | os.PathLike | None = None, *, indent: int | None = None,
                training_rows: str = "auto") -> str:
        """Serialize the fitted list as JSON (plus the training rows Minimum OSR needs).

        Minimum OSR grows a rule for each uncovered test point from training rows, so a
        model that uses it must carry them; the rules and the default rule need none.

        Parameters
        ----------
        path : str or path-like, optional
            Also write the JSON text to this file.
        indent : int, optional
            Indentation of the JSON text.
        training_rows : {"auto", "all", "uncovered", "none"}, default "auto"
            Encoded training rows to store.  ``"auto"``: what the current parameters
            need - none with ``fallback="default"``, the rows no rule covers with
            ``osr_rows="uncovered"`` (all rows if every row is covered), all rows with
            ``osr_rows="all"``.  ``"all"`` keeps every choice of ``fallback`` and
            ``osr_rows`` open after loading; a loaded model asked for Minimum OSR over rows
            it does not hold raises :class:`~optirules.errors.InputError`.  The rows are
            stored packed (value codes as base64 bytes, one byte per value when every
            attribute has at most 256 values), not as the original data.

        Returns
        -------
        str
            The JSON text; :meth:`from_json` restores a classifier with identical
            predictions.
        """
        check_fitted(self, "rules_")
        if training_rows not in TRAINING_ROWS:
            raise InputError(f"training_rows must be one of {TRAINING_ROWS}, got "
                             f"{training_rows!r}.")
        held = getattr(self, "training_rows_", "all")
        rows = self._osr_rows_needed() if training_rows == "auto" else training_rows
        if rows == "uncovered" and not self.uncovered_rows_.size:
            rows = "all"  # Minimum OSR over the uncovered rows then uses all of them
        if rows != "none" and held != "all" and rows != held:
            raise InputError(f"this decision list holds training rows {held!r} only (it was "
                             f"loaded from JSON), so it cannot store {rows!r}.")
        params = self.get_params()
        cf = params["categorical_features"]
        if cf is not None and not isinstance(cf, str):
            params["categorical_features"] = [c if isinstance(c, str) else int(c) for c in cf]
        training: dict[str, Any] = {"rows": rows}
        if rows != "none":
            idx = self.uncovered_rows_ if rows == "uncovered" and held == "all" else None
            codes = self.train_codes_ if idx is None else self.train_codes_[idx]
            y = self.train_y_ if idx is None else self.train_y_[idx]
            training["codes"] = _pack_ints(codes)
            training["y"] = _pack_ints(y[:, None])
            if rows == "all":
                training["uncovered_rows"] = self.uncovered_rows_.tolist()
        doc = {
            "format": _JSON_FORMAT,
            "version": _JSON_VERSION,
            "params": params,
            "classes": self.classes_.tolist(),
            "classes_dtype": self.classes_.dtype.str if self.classes_.dtype != object
            else "object",
            "n_features_in": int(self.n_features_in_),
            "feature_names_in": (self.feature_names_in_.tolist()
                                 if hasattr(self, "feature_names_in_") else None),
            "features": [f.to_dict() for f in self.features_],
            "rules": [{"conditions": [[c.feature, c.value] for c in r.conditions],
                       "prediction": int(np.flatnonzero(self.classes_ == r.prediction)[0]),
                       "class_counts": list(r.class_counts)} for r in self.rules_],
            "default_counts": self.default_counts_.tolist(),
            "stop_reason": self.stop_reason_,
            "training": training,
        }
        text = json.dumps(doc, indent=indent, allow_nan=False)
        if path is not None:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
        return text

    @classmethod
    def from_json(cls, source: str | os.PathLike) -> DecisionListClassifier:
        """Restore a classifier written by :meth:`to_json` (JSON text or a file path).

        Only JSON is parsed (no pickle, no code), and every part is checked - parameters,
        classes, features, rule tests and counts, the stored training rows - so a damaged
        or foreign file raises :class:`~optirules.errors.InputError` instead of a model
        that fails later.  Files of format version 1 (the whole training matrix as lists)
        are read too.
        """
        text = source
        if isinstance(source, os.PathLike) or (isinstance(source, str)
                                               and not source.lstrip().startswith("{")):
            with open(source, encoding="utf-8") as fh:
                text = fh.read()
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"not valid JSON ({exc}); pass the text written by to_json().") \
                from exc
        except RecursionError:
            raise InputError("the JSON is nested too deeply to be a decision list written by "
                             "to_json(); re-export the model.") from None
        if not isinstance(doc, dict) or doc.get("format") != _JSON_FORMAT:
            raise InputError("this JSON was not written by DecisionListClassifier.to_json(); "
                             "re-export the model with to_json().")
        if doc.get("version") not in _JSON_READS:
            raise InputError(f"unsupported decision-list JSON version {doc.get('version')!r}; "
                             f"this optirules reads versions {_JSON_READS}.")
        try:
            return cls._from_doc(doc)
        except InputError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise InputError(f"malformed decision-list JSON ({type(exc).__name__}: {exc}); "
                             "re-export the model with to_json().") from None

    @classmethod
    def _from_doc(cls, doc: dict) -> DecisionListClassifier:
        def bad(what: str) -> InputError:
            return InputError(f"malformed decision-list JSON: {what}; re-export the model "
                              "with to_json().")

        params = doc["params"]
        if not isinstance(params, dict) or not set(params) <= set(cls().get_params()):
            raise bad(f"unknown parameters {sorted(set(params) - set(cls().get_params()))}"
                      if isinstance(params, dict) else "'params' is not an object")
        est = cls(**params)
        est._check_params()
        dtype = doc["classes_dtype"]
        if dtype == "object":
            est.classes_ = np.array(doc["classes"], dtype=object)
        else:
            dt = np.dtype(str(dtype))
            if dt.kind not in "biufU":
                raise bad(f"class dtype {dtype!r}")
            est.classes_ = np.array(doc["classes"], dtype=dt)
        if est.classes_.ndim != 1 or est.classes_.size < 2 \
                or np.unique(est.classes_).size != est.classes_.size:
            raise bad("'classes' must list at least two distinct labels")
        k = est.classes_.size
        est.features_ = [_Feature.from_dict(d) for d in doc["features"]]
        for f in est.features_:
            _check_feature(f, bad)
        p = len(est.features_)
        est.n_features_in_ = int(doc["n_features_in"])
        if est.n_features_in_ != p or p == 0:
            raise bad(f"n_features_in {est.n_features_in_} for {p} features")
        names = doc.get("feature_names_in")
        if names is not None:
            if not isinstance(names, list) or len(names) != p:
                raise bad("'feature_names_in' does not match the features")
            est.feature_names_in_ = np.array([str(v) for v in names], dtype=object)
        n_values = [len(f.categories) for f in est.features_]

        def counts_of(v: Any, what: str) -> tuple[int, ...]:
            if not isinstance(v, list) or len(v) != k or not all(_is_count(c) for c in v):
                raise bad(f"{what} must be {k} non-negative integers")
            return tuple(int(c) for c in v)

        rules = []
        for r in doc["rules"]:
            pairs = r["conditions"]
            if not isinstance(pairs, list) or not pairs:
                raise bad("a rule without conditions")
            for pair in pairs:
                if (not isinstance(pair, list) or len(pair) != 2
                        or not all(_is_count(v) for v in pair)
                        or pair[0] >= p or pair[1] >= n_values[pair[0]]):
                    raise bad(f"rule test {pair!r} names no attribute value")
            if len({j for j, _ in pairs}) != len(pairs):
                raise bad("a rule tests one attribute twice")
            pred = r["prediction"]
            if not _is_count(pred) or pred >= k:
                raise bad(f"rule prediction {pred!r}")
            conds = tuple(est._condition(int(j), int(v)) for j, v in pairs)
            rules.append(DecisionRule(conds, est.classes_[int(pred)],
                              counts_of(r["class_counts"], "a rule's class counts")))
        est.rules_ = rules
        est.default_counts_ = np.asarray(counts_of(doc["default_counts"], "default_counts"),
                                         dtype=np.int64)
        est.default_class_ = est.classes_[int(np.argmax(est.default_counts_))]
        est.stop_reason_ = str(doc.get("stop_reason", ""))
        est.history_ = []
        est.n_candidates_ = 0
        training = doc["training"]
        if doc["version"] == 1:
            codes = np.asarray(training["codes"], dtype=np.int64).reshape(p, -1).T
            y = np.asarray(training["y"], dtype=np.int64)
            rows = "all"
        else:
            rows = training["rows"]
            if rows not in ("all", "uncovered", "none"):
                raise bad(f"training rows {rows!r}")
            if rows == "none":
                codes, y = np.zeros((0, p), dtype=np.int64), np.zeros(0, dtype=np.int64)
            else:
                codes = _unpack_ints(training["codes"], p, bad)
                y = _unpack_ints(training["y"], 1, bad)[:, 0]
        if y.shape != (codes.shape[0],) or (y.size and not 0 <= y.min() <= y.max() < k):
            raise bad("the training labels do not match the rows or the classes")
        if codes.size and ((codes < 0).any() or (codes >= np.asarray(n_values)).any()):
            raise bad("a training value code is out of its attribute's range")
        m = codes.shape[0]
        if rows == "all":
            unc = np.asarray(training["uncovered_rows"], dtype=np.int64).reshape(-1)
            if unc.size and (unc.min() < 0 or unc.max() >= m or np.unique(unc).size != unc.size):
                raise bad("'uncovered_rows' are not distinct row indices")
        elif rows == "uncovered":
            unc = np.arange(m, dtype=np.int64)
        else:
            unc = np.zeros(0, dtype=np.int64)
        est.train_codes_ = np.ascontiguousarray(codes, dtype=np.int32)
        est.train_y_ = y
        est.uncovered_rows_ = unc
        est.training_rows_ = rows
        return est


# --------------------------------------------------------------------------- JSON helpers
def _is_count(v: Any) -> bool:
    """A non-negative JSON integer (not a boolean)."""
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _check_feature(f: _Feature, bad) -> None:
    if f.kind not in ("categorical", "numeric") or not f.categories:
        raise bad(f"feature {f.name!r} of kind {f.kind!r} with {len(f.categories)} values")
    if f.kind == "numeric":
        cuts = f.cuts if f.cuts is not None else []
        if (len(cuts) + 1 != len(f.categories) or not all(math.isfinite(c) for c in cuts)
                or any(a >= b for a, b in zip(cuts, cuts[1:]))):
            raise bad(f"numeric feature {f.name!r}: cut points and bins do not match")
    elif f.cuts is not None or len(set(f.categories)) != len(f.categories):
        raise bad(f"categorical feature {f.name!r}: repeated categories or cut points")


def _pack_ints(a: np.ndarray) -> dict:
    """A 2-D array of small non-negative integers as base64 bytes (row-major)."""
    a = np.asarray(a)
    top = int(a.max()) if a.size else 0
    dtype = "|u1" if top < 256 else "<u2" if top < 65536 else "<i4"
    data = np.ascontiguousarray(a, dtype=np.dtype(dtype)).tobytes()
    return {"dtype": dtype, "shape": [int(a.shape[0]), int(a.shape[1])],
            "data": base64.b64encode(data).decode("ascii")}


def _unpack_ints(obj: Any, n_cols: int, bad) -> np.ndarray:
    """Inverse of :func:`_pack_ints`, checking dtype, shape and byte count."""
    if not isinstance(obj, dict) or obj.get("dtype") not in ("|u1", "<u2", "<i4"):
        raise bad("packed training rows need a dtype '|u1', '<u2' or '<i4'")
    shape = obj.get("shape")
    if (not isinstance(shape, list) or len(shape) != 2 or not all(_is_count(v) for v in shape)
            or shape[1] != n_cols):
        raise bad(f"packed training rows of shape {shape!r} for {n_cols} columns")
    dt = np.dtype(obj["dtype"])
    raw = base64.b64decode(str(obj.get("data", "")).encode("ascii"), validate=True)
    if len(raw) != shape[0] * shape[1] * dt.itemsize:
        raise bad("packed training rows hold the wrong number of bytes")
    return np.frombuffer(raw, dtype=dt).reshape(shape).astype(np.int64)
