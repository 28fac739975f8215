r"""The greedy searches of :class:`~optirules.learners.KappaPruner` and
:class:`~optirules.learners.DREPPruner` (:mod:`optirules.learners._pruning._estimator`), on the
member-prediction matrix :math:`\mathbf H \in \{-1, +1\}^{n \times T}`.

The pruners' docstrings state the methods; these functions carry them out.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def kappa_selection(H: np.ndarray, alpha: np.ndarray, fraction: float,
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Kappa pruning: members of the most diverse pairs first, until ``fraction`` are kept.

    Returns the weights (``alpha`` on the kept members, zero elsewhere; uniform on the kept
    members when they all have weight zero), the pairwise kappa matrix, the pairs consumed
    (n_pairs_used, 2) and the members in the order kept.
    """
    from ._diversity import pairwise_kappa

    T = H.shape[1]
    M = min(T, max(1, math.ceil(float(fraction) * T - 1e-9)))
    K = pairwise_kappa(H)
    kept: list[int] = []
    used: list[tuple[int, int]] = []
    if T == 1:
        kept = [0]
    else:
        a, b = np.triu_indices(T, 1)
        # by kappa (rounded to 1e-12 so that round-off does not break exact ties),
        # then a, then b
        order = np.lexsort((b, a, np.round(K[a, b], 12)))
        seen = np.zeros(T, dtype=bool)
        for p in order:
            if len(kept) >= M:
                break
            used.append((int(a[p]), int(b[p])))
            for t in (int(a[p]), int(b[p])):
                if not seen[t] and len(kept) < M:
                    seen[t] = True
                    kept.append(t)
    pair_order = np.asarray(used, dtype=int).reshape(-1, 2)
    selection_order = np.asarray(kept, dtype=int)
    w = np.zeros(T)
    w[kept] = alpha[kept]
    if w.sum() <= 0:  # every kept member had weight 0: vote uniformly among them
        w[kept] = 1.0
    return w, K, pair_order, selection_order


def _vote_error(S: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Training error of votes ``S`` (n,) or (n, k) with ties counted as half an error."""
    yS = S * (y[:, None] if S.ndim == 2 else y)
    scale = np.max(np.abs(S)) if S.size else 1.0
    tol = 1e-12 * max(1.0, float(scale))
    return np.mean(np.where(yS < -tol, 1.0, np.where(yS > tol, 0.0, 0.5)), axis=0)


def drep_selection(H: np.ndarray, y: np.ndarray, alpha: np.ndarray, *,
                   candidate_fraction: float, patience: int, voting: str,
                   log: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                             list[dict[str, Any]]]:
    """DREP's forward selection (Li, Yu and Zhou 2012, Algorithm 1, with ``patience``).

    ``y`` is coded -1/+1.  Returns the weights (zero for pruned members), the members in
    the order added, the training error after each addition and the per-step history
    (``candidates``, ``diff``, ``chosen``, ``error``); ``log`` (a logger or None) gets one
    line per step.
    """
    n, T = H.shape
    Hf = H.astype(float)
    a = alpha.astype(float)
    if voting == "uniform":
        a = np.where(a > 0, 1.0, 0.0)
    member_err = np.mean(Hf * y[:, None] < 0, axis=0)
    eligible = np.flatnonzero(a > 0)
    first = int(eligible[np.argmin(member_err[eligible])])
    order = [first]
    remaining = [int(t) for t in eligible if t != first]
    S = a[first] * Hf[:, first]
    wsum = a[first]
    errors = [float(_vote_error(S, y))]
    history: list[dict[str, Any]] = []
    best_err, best_len, fails = errors[0], 1, 0
    rho = float(candidate_fraction)
    while remaining and fails < int(patience):
        R = np.asarray(remaining)
        agree = Hf[:, R].T @ S  # n * wsum * diff(h, H*); exact for plain voting
        diff = agree / (n * wsum)
        srt = np.lexsort((R, agree))
        k = max(1, math.ceil(rho * R.size - 1e-9))
        gamma = R[srt[:k]]
        cand_err = _vote_error(S[:, None] + Hf[:, gamma] * a[gamma], y)
        j = int(np.argmin(cand_err))  # first minimum = most diverse among ties
        chosen = int(gamma[j])
        S = S + a[chosen] * Hf[:, chosen]
        wsum += a[chosen]
        order.append(chosen)
        remaining.remove(chosen)
        err = float(cand_err[j])
        errors.append(err)
        history.append({"candidates": gamma.copy(), "diff": diff[srt[:k]].copy(),
                        "chosen": chosen, "error": err})
        if log:
            log.info("DREPPruner: step %d: %d candidates, added member %d, training "
                     "error %.4f", len(order) - 1, k, chosen, err)
        if err < best_err - 1e-12:
            best_err, best_len, fails = err, len(order), 0
        else:
            fails += 1
    selection_order = np.asarray(order, dtype=int)
    kept = selection_order[:best_len]
    w = np.zeros(T)
    w[kept] = a[kept]
    return w, selection_order, np.asarray(errors), history
