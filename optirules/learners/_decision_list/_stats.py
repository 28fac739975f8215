"""The statistics of BruteDL decision lists and Minimum OSR (the Minimum OSR paper).

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
"""

from __future__ import annotations

import numpy as np

__all__ = ["laplace_accuracy", "class_entropy", "information_measure", "significance_statistic"]


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
