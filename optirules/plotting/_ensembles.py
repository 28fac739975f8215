"""The plots of voting ensembles: the boosting rounds and the cumulative margin distribution."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from ..errors import InputError
from ._panels import _lacks, _Panels


# ============================================================================ boosting
def _staged_scores(model: Any, X: Any) -> tuple[list[np.ndarray], np.ndarray]:
    """:math:`F_t(x)` for t = 1, 2, ... and :math:`\\sum_{s \\le t} |\\alpha_s|`."""
    if hasattr(model, "alphas_"):
        staged = [np.asarray(F, dtype=float).reshape(-1)
                  for F in model.staged_decision_function(X)]
        return staged, np.cumsum(np.abs(np.asarray(model.alphas_, dtype=float)))
    # scikit-learn's AdaBoost: its staged_decision_function codes the classes by version;
    # F_t is summed here from the members' +-1 votes and estimator_weights_
    classes = np.asarray(model.classes_)
    weights = np.asarray(model.estimator_weights_, dtype=float)[: len(model.estimators_)]
    X = np.asarray(X)              # AdaBoost hands its members arrays (fitted without names)
    F = 0.0
    staged = []
    for w, est in zip(weights, model.estimators_):
        vote = np.where(np.asarray(est.predict(X)) == classes[1], 1.0, -1.0)
        F = F + w * vote
        staged.append(np.asarray(F, dtype=float))
    return staged, np.cumsum(np.abs(weights))


def _boosting_data(model: Any, who: str, X: Any, y: Any) -> dict[str, Any]:
    if hasattr(model, "weighted_errors_"):
        errors = np.asarray(model.weighted_errors_, dtype=float)
    elif hasattr(model, "estimator_errors_") and hasattr(model, "estimator_weights_"):
        errors = np.asarray(model.estimator_errors_, dtype=float)
        errors = errors[: len(getattr(model, "estimators_", errors))]
    else:
        raise _lacks("plot_boosting", who, model)
    d: dict[str, Any] = {"errors": errors}
    if X is not None:
        classes = np.asarray(model.classes_)
        if classes.size != 2:
            raise InputError(f"the ensemble curves need a binary classifier, and {who} has "
                             f"{classes.size} classes_: pass no X and y (the weak errors "
                             "only).")
        ypm = np.where(np.asarray(y).reshape(-1) == classes[1], 1.0, -1.0)
        staged, scale = _staged_scores(model, X)
        err, margin = [], []
        for t, F in enumerate(staged):
            err.append(float(np.mean(np.where(F > 0, 1.0, -1.0) != ypm)))
            s = scale[t] if scale[t] > 0 else 1.0
            margin.append(float((ypm * F).min() / s))
        d["err"], d["margin"] = err, margin
    return d


def _boosting_draw(ax: Any, d: dict[str, Any]) -> None:
    errors = d["errors"]
    ax.plot(np.arange(1, errors.size + 1), errors, "-", color="tab:grey",
            label="weak hypothesis: weighted error")
    if "err" in d:
        t = np.arange(1, len(d["err"]) + 1)
        ax.plot(t, d["err"], "-", color="tab:blue", label="ensemble: error on (X, y)")
        ax.plot(t, d["margin"], "-", color="tab:green",
                label="ensemble: least normalized margin")
        ax.axhline(0.0, color="black", lw=0.6)
    ax.set_xlabel("round t")
    ax.set_ylabel("error / margin")
    ax.legend(fontsize="small")


def plot_boosting(model: Any, X: Any = None, y: Any = None, ax: Any = None, *,
                  axes: Any = None) -> Any:
    r"""Boosting curves per round: weak error, and with data the ensemble's error and margin.

    Always drawn: the weighted training error :math:`\epsilon_t` of the round's weak
    hypothesis under the booster's distribution.  With ``X`` and ``y``: the error of the
    combined classifier :math:`F_t = \sum_{s \le t} \alpha_s h_s` on them, and its least
    normalized margin :math:`\min_i y_i F_t(x_i) / \sum_{s \le t} |\alpha_s|` (the quantity
    the boosting margin bounds are about; in :math:`[-1, 1]`).

    Parameters
    ----------
    model : fitted boosting classifier
        A :class:`~optirules.learners.BoostingClassifier` (``weighted_errors_``,
        ``alphas_``, ``staged_decision_function``; one-vs-rest over ``K > 2`` classes:
        one panel per class, module docstring, panel ``k`` with the labels
        ``y == classes_[k]``) or scikit-learn's ``AdaBoostClassifier`` (``estimator_errors_``,
        ``estimator_weights_``, ``estimators_``: :math:`F_t` is summed from the members'
        votes; the ensemble curves need two classes).
    X, y : array-like, optional
        Rows and labels for the ensemble curves (both or neither).
    ax : matplotlib Axes, optional
    axes : sequence of matplotlib Axes, optional
        One Axes per class, for a one-vs-rest model.

    Returns
    -------
    matplotlib.axes.Axes or numpy.ndarray of Axes
        The Axes for one model; for a one-vs-rest model, a 1-D numpy array of ``K`` Axes,
        ``axes[k]`` drawn from ``estimators_[k]`` (the model of ``classes_[k]``).  Line 0:
        the weak errors against rounds 1, 2, ...; with data, line 1 the ensemble's error
        and line 2 its least normalized margin.

    Raises
    ------
    InputError
        A model without boosting rounds (the message names the learners that have them),
        only one of ``X`` and ``y``; ``ax=`` with a one-vs-rest model.
    """
    if (X is None) != (y is None):
        raise InputError("pass both X and y (for the ensemble's error and margin) or neither.")
    panels = _Panels(model)
    data = []
    for k, m in enumerate(panels.models):
        yk = y
        if panels.classes is not None and y is not None:
            yk = (np.asarray(y).reshape(-1) == panels.classes[k]).astype(np.int64)
        data.append(_boosting_data(m, panels.who(k), X, yk))
    return panels.draw(ax, axes, (6.4, 4.0), data, _boosting_draw, "boosting")


# ----------------------------------------------------------------------------- margins
def _cumulative_margin_distribution(margins: Any) -> tuple[np.ndarray, np.ndarray]:
    r"""The empirical CMD :math:`F(\theta) = \hat P[m \le \theta]` as a step function.

    Returns ``theta``, the distinct margins in increasing order, and ``fraction[k]``, the
    fraction of margins at or below ``theta[k]`` (so ``fraction[-1] == 1``).
    """
    m = np.asarray(margins, dtype=float).reshape(-1)
    if m.size == 0 or not np.all(np.isfinite(m)):
        raise InputError("margins must be a non-empty array of finite values in [-1, 1].")
    theta, counts = np.unique(m, return_counts=True)
    return theta, np.cumsum(counts) / m.size


def plot_margin_distribution(margin_sets: Any, *, ax: Any = None,
                             path: str | os.PathLike | None = None,
                             title: str | None = None) -> Any:
    r"""Plot cumulative margin distributions (the QMM paper Figures 1 and 4).

    The cumulative margin distribution (CMD) of margins :math:`m_i \in [-1, 1]` (see
    :func:`~optirules.learners.ensemble_margins`) is
    :math:`F(\theta) = \hat P[m \le \theta]`, drawn as a step curve from
    :math:`(-1, 0)` to :math:`(1, 1)`.

    Uses matplotlib's object API with the Agg canvas, so it never opens a window and does
    not change the global backend.

    Parameters
    ----------
    margin_sets : array-like or mapping of str to array-like
        One margin vector, or ``{label: margins}`` for several curves.
    ax : matplotlib Axes, optional
        Draw into these axes; by default a new figure is made.
    path : str or Path, optional
        Save the figure there (format from the suffix, e.g. ``.png``; PNG without one),
        atomically: a failed write leaves nothing behind.
    title : str, optional
        Axes title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding the plot (line ``k`` of its Axes is the curve of the ``k``-th
        margin vector).

    Raises
    ------
    InputError
        No margin vector, or an empty one or one with a non-finite value.
    OutputError
        The figure cannot be written to ``path``.
    """
    from collections.abc import Mapping

    if isinstance(margin_sets, Mapping):
        sets = {str(k): v for k, v in margin_sets.items()}
    else:
        sets = {"margins": margin_sets}
    if not sets:
        raise InputError("margin_sets is empty: pass at least one margin vector.")
    if ax is None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        fig = Figure(figsize=(5.5, 4.0))
        FigureCanvasAgg(fig)
        ax = fig.add_subplot(1, 1, 1)
    else:
        fig = ax.figure
    for label, m in sets.items():
        theta, frac = _cumulative_margin_distribution(m)
        xs = np.concatenate([[-1.0], theta, [1.0]])
        ys = np.concatenate([[0.0], frac, [1.0]])
        ax.step(xs, ys, where="post", label=label)
    ax.axvline(0.0, color="0.6", lw=0.8, ls=":")
    ax.set_xlim(-1.0, 1.0)
    ax.set_ylim(0.0, 1.02)
    ax.set_xlabel("margin θ")
    ax.set_ylabel("fraction of margins ≤ θ")
    if title:
        ax.set_title(title)
    ax.legend(loc="upper left", fontsize="small")
    if path is not None:
        from .._atomic import atomic_path

        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=os.path.splitext(str(path))[1][1:] or "png", dpi=120,
                        bbox_inches="tight")
    return fig
