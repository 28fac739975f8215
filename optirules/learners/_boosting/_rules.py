"""The boosters of :class:`~optirules.learners.BoostingClassifier`: their weight-update rules,
their votes and the round loop they share (:mod:`optirules.learners._boosting._estimator` states them).

Every round normalizes the non-negative example weights into ``D_t``, asks the weak learner
for ``h_t``, gives it the vote ``alpha_t`` of its booster and updates the weights; the loop
stops early on the conditions listed under ``stop_reason_``.
"""

from __future__ import annotations

import inspect
import math
import time
from typing import Any

import numpy as np

from ...weak import PreparedData, WeakHypothesis, WeakLearner
from .._checks import progress_logger
from ._text import hypothesis_text

__all__ = ["madaboost_weights", "smoothboost_measure", "gavinsky_measure"]

BOOSTERS = ("adaboost", "madaboost", "smoothboost", "gavinsky")
WEAK_LEARNERS = ("stump", "literal", "parity", "cart")

#: the weighted error below which a hypothesis counts as perfect (AdaBoost/MadaBoost stop)
_PERFECT = 1e-10


def madaboost_weights(F: np.ndarray, y: np.ndarray, d1: np.ndarray) -> np.ndarray:
    """MadaBoost's weights ``D_1(i) min{1, exp(-y_i F(x_i))}`` (AdaBoost's, capped at ``D_1``).

    Domingo & Watanabe (2000): ``w_t(x) = D_1(x) beta_{[0,t)}^{cons}`` when that product is
    below 1 and ``D_1(x)`` otherwise, with ``beta_s^{cons(h_s, x)} = exp(-alpha_s y h_s(x))``.

    Parameters
    ----------
    F : ndarray of shape (n_samples,)
        The combined vote ``F(x_i) = sum_s alpha_s h_s(x_i)`` of the rounds so far.
    y : ndarray of shape (n_samples,)
        Labels coded -1/+1.
    d1 : ndarray of shape (n_samples,)
        The initial distribution ``D_1``.

    Returns
    -------
    ndarray of shape (n_samples,)
        The unnormalized weights of the next round.
    """
    return d1 * np.exp(-np.maximum(y * F, 0.0))


def smoothboost_measure(N: np.ndarray, gamma: float) -> np.ndarray:
    """SmoothBoost's ``M(N) = 1`` for ``N < 0`` and ``(1 - gamma)^{N/2}`` for ``N >= 0``.

    Parameters
    ----------
    N : ndarray of shape (n_samples,)
        The accumulated ``N_t(i) = sum_s (y_i h_s(x_i) - theta)``.
    gamma : float
        The assumed advantage, in ``(0, 1)``.

    Returns
    -------
    ndarray of shape (n_samples,)
        The measure ``M``, in ``(0, 1]``.
    """
    return np.where(N < 0, 1.0, (1.0 - gamma) ** (np.maximum(N, 0.0) / 2.0))


def gavinsky_measure(N: np.ndarray, epsilon: float) -> np.ndarray:
    """Gavinsky's flat measure: 1 for ``N <= 0``, ``1 - epsilon N`` up to ``N = 1/epsilon``,
    then 0.

    Parameters
    ----------
    N : ndarray of shape (n_samples,)
        The accumulated advantage ``N_t(i) = sum_s a_s y_i h_s(x_i)``.
    epsilon : float
        The accuracy parameter, > 0 (the slope of the measure).

    Returns
    -------
    ndarray of shape (n_samples,)
        The measure ``mu``, in ``[0, 1]``.
    """
    return np.clip(1.0 - epsilon * N, 0.0, 1.0)


def _unnormalized_weights(est: Any, F: np.ndarray, y: np.ndarray, d1: np.ndarray,
                          logw: np.ndarray, N: np.ndarray) -> np.ndarray:
    """The weights whose normalization is ``D_t``, by the booster's rule."""
    booster = est.booster
    if booster == "adaboost":
        pos = d1 > 0
        w = np.zeros(len(d1))
        w[pos] = np.exp(logw[pos] - logw[pos].max())
        return w
    if booster == "madaboost":
        return madaboost_weights(F, y, d1)
    if booster == "smoothboost":
        return d1 * smoothboost_measure(N, est.gamma)
    return d1 * gavinsky_measure(N, est.epsilon)


def _vote(booster: str, edge: float, err: float) -> float | None:
    """The vote ``alpha_t`` of a hypothesis with this edge and weighted error; None when it
    has no edge and the booster stops (SmoothBoost votes 1 whatever the edge)."""
    if booster == "smoothboost":
        return 1.0
    if edge <= 0:
        return None
    if booster in ("adaboost", "madaboost"):
        eps = max(err, _PERFECT)
        return 0.5 * math.log((1.0 - eps) / eps)
    return edge / 2.0


def boost_rounds(est: Any, X: np.ndarray, y: np.ndarray, d1: np.ndarray) -> None:
    """Run up to ``est.n_estimators`` rounds of ``est.booster`` with ``est.weak_learner_`` on
    ``X`` (labels ``y`` in -1/+1, initial distribution ``d1``, all positive) and set the
    fitted attributes (``hypotheses_``, ``alphas_``, ..., ``training_margins_``) on ``est``."""
    booster = est.booster
    m = X.shape[0]
    pos = d1 > 0
    F = np.zeros(m)                    # sum_s alpha_s h_s(x_i)
    logw = np.log(np.where(pos, d1, 1.0))   # AdaBoost: log of unnormalized weights
    N = np.zeros(m)                    # SmoothBoost / Gavinsky state
    theta = est.gamma / (2.0 + est.gamma)
    learner = est.weak_learner_
    takes_names = "feature_names" in inspect.signature(learner.fit).parameters
    # validate X once and share per-matrix work (sorting, +-1 form) across rounds
    Xw = PreparedData(X) if isinstance(learner, WeakLearner) else X
    log = progress_logger("learners.boosting", est.verbose)
    hyps: list[WeakHypothesis] = []
    alphas: list[float] = []
    edges: list[float] = []
    errors: list[float] = []
    ratios: list[float] = []
    stop = "n_estimators"
    deadline = getattr(est, "_deadline", None)
    for t in range(int(est.n_estimators)):
        if deadline is not None and t > 0 and time.perf_counter() > deadline:
            stop = "time_limit"
            break
        w = _unnormalized_weights(est, F, y, d1, logw, N)
        if (booster == "smoothboost" and est.target_error is not None
                and w.sum() < est.target_error):
            stop = "target_error reached"
            break
        total = w.sum()
        if total <= 0:
            stop = "all weights vanished"
            break
        D = w / total
        # ---- weak hypothesis, its edge and its vote
        h = (learner.fit(Xw, y, D, feature_names=est.feature_names_)
             if takes_names else learner.fit(Xw, y, D))
        yh = y * np.asarray(h.predict(X), dtype=np.float64)
        edge = float(np.dot(D, yh))
        err = float(np.dot(D, yh < 0))
        alpha = _vote(booster, edge, err)
        if alpha is None:
            stop = "no edge"
            break
        hyps.append(h)
        alphas.append(alpha)
        edges.append(edge)
        errors.append(err)
        ratios.append(float((D[pos] / d1[pos]).max()))
        F += alpha * y * yh                      # y*yh = h(x) since y in {-1, 1}
        if booster == "adaboost":
            logw = logw - alpha * yh
        elif booster == "smoothboost":
            N = N + yh - theta
        elif booster == "gavinsky":
            N = N + alpha * yh
        if log is not None:
            log.info("%s round %d: edge %.4f, error %.4f, vote %.4f, max D/D1 %.2f, h: %s",
                     booster, t + 1, edge, err, alpha, ratios[-1],
                     hypothesis_text(h, est.feature_names_, est.binarizer_ is not None
                                     and est.feature_names_ is not None))
        if booster in ("adaboost", "madaboost") and err < _PERFECT:
            stop = "perfect hypothesis"
            break
    if log is not None:
        log.info("%s stopped after %d rounds: %s", booster, len(hyps), stop)
    est.hypotheses_ = hyps
    est.alphas_ = np.asarray(alphas, dtype=np.float64)
    est.edges_ = np.asarray(edges, dtype=np.float64)
    est.weighted_errors_ = np.asarray(errors, dtype=np.float64)
    est.max_weight_ratios_ = np.asarray(ratios, dtype=np.float64)
    est._set_smoothness()
    est.n_estimators_ = len(hyps)
    est.stop_reason_ = stop
    scale = float(np.abs(est.alphas_).sum())
    est.training_margins_ = y * F / scale if scale > 0 else np.zeros(m)
