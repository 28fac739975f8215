"""The plots of a fit's course: the column-generation trace, the worst-case pmf and the DRO
ensemble's member weights and robust loss.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InputError
from ._panels import _NEEDS, _finite, _lacks, _Panels


# ============================================================================ column generation
def _cg_data(model: Any, who: str) -> dict[str, Any]:
    history = getattr(model, "history_", getattr(model, "history", None))
    if history is None:
        raise _lacks("plot_column_generation", who, model)
    history = list(history)
    if not history:
        raise InputError(f"{who} has an empty history_ (a model loaded from JSON keeps none): "
                         "refit it to plot its column-generation trace.")
    if not isinstance(history[0], dict) or "lp_objective" not in history[0]:
        raise _lacks("plot_column_generation", who, model,
                     " (its history_ is not a column-generation trace: no lp_objective)")
    return {
        "it": np.array([h.get("iteration", k) for k, h in enumerate(history)], dtype=float),
        "lp": _finite([h["lp_objective"] for h in history]),
        "bound": _finite([h.get("lp_bound", np.nan) for h in history]),
        "ip": getattr(model, "ip_objective_", getattr(model, "ip_objective", None)),
    }


def _cg_draw(ax: Any, d: dict[str, Any]) -> None:
    it, lp, bound, ip = d["it"], d["lp"], d["bound"], d["ip"]
    ax.plot(it, lp, "o-", ms=3, label="restricted master LP objective")
    ax.plot(it, bound, "s--", ms=3, label="certified lower bound")
    shown = [v for v in (lp, bound) for v in v[np.isfinite(v)]]
    if ip is not None and np.isfinite(ip):
        ax.axhline(float(ip), color="tab:red", ls=":", label="master IP over generated clauses")
        shown.append(float(ip))
    # the objective is a weighted loss plus penalties, never negative: an early bound below
    # zero says nothing and would squash the picture, so the view starts at zero
    if shown and min(lp[np.isfinite(lp)], default=0.0) >= 0:
        top = max(shown)
        ax.set_ylim(-0.05 * top, 1.05 * top if top > 0 else 1.0)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("iteration")
    ax.set_ylabel("master objective")
    ax.legend(fontsize="small")


def plot_column_generation(model: Any, ax: Any = None, *, axes: Any = None) -> Any:
    """The column-generation trace: restricted LP objective and certified bound per iteration.

    Parameters
    ----------
    model : fitted estimator or column-generation result
        Anything with ``history_`` (or ``history``): a list of dicts with ``iteration``,
        ``lp_objective`` and ``lp_bound`` (the best certified lower bound so far; an
        infinite or NaN value is drawn as a gap), e.g. a fitted
        :class:`~optirules.learners.BooleanRuleSetClassifier` or an
        :class:`~optirules.models.ColumnGenerationResult`.  When the model also has
        ``ip_objective_`` (or ``ip_objective``), the master IP's value over the generated
        clauses is drawn as a horizontal line.  A
        :class:`~optirules.learners.BooleanRuleSetCV` draws its chosen rule set; a
        one-vs-rest rule set one panel per class (module docstring).
    ax : matplotlib Axes, optional
        Axes to draw into (one model); a new figure by default.
    axes : sequence of matplotlib Axes, optional
        One Axes per class, for a one-vs-rest model.

    Returns
    -------
    matplotlib.axes.Axes or numpy.ndarray of Axes
        The Axes for one model (a cross-validated learner: its ``best_estimator_``); for a
        one-vs-rest model, a 1-D numpy array of ``K`` Axes, ``axes[k]`` drawn from
        ``estimators_[k]`` (the model of ``classes_[k]``) as below.
        Line 0 is the LP objective, line 1 the bound (both against ``iteration``), line 2
        (when drawn) the IP objective.  The view starts at 0 (the objective is never
        negative), so a vacuous negative bound of the first iterations lies below it.

    Raises
    ------
    InputError
        The model has no column-generation history (the message names the learners that
        have one), or its history is empty (loaded from JSON, for example); ``ax=`` with a
        one-vs-rest model.
    """
    panels = _Panels(model)
    data = [_cg_data(m, panels.who(k)) for k, m in enumerate(panels.models)]
    return panels.draw(ax, axes, (6.4, 4.0), data, _cg_draw, "column generation")



# ============================================================================ worst-case pmf
def _pmf_data(pmf: Any, who: str, empirical: Any, losses: Any,
              iteration: int) -> dict[str, Any]:
    if hasattr(pmf, "pmf_history_"):
        history = np.asarray(pmf.pmf_history_, dtype=float)
        q = history[iteration]
        if empirical is None:
            empirical = history[0]
    elif hasattr(pmf, "pmf_"):
        q = np.asarray(pmf.pmf_, dtype=float)
        if losses is None and hasattr(pmf, "losses"):
            losses = pmf.losses
    elif hasattr(pmf, "get_params") or hasattr(pmf, "fit"):     # a model without a pmf
        raise _lacks("plot_worst_case_pmf", who, pmf)
    else:
        q = pmf
    try:
        q = np.asarray(q, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise InputError(
            f"{who} is not a pmf: plot_worst_case_pmf needs "
            f"{_NEEDS['plot_worst_case_pmf'][0]}; {_NEEDS['plot_worst_case_pmf'][1]}."
        ) from None
    n = q.size
    if n == 0 or not np.all(np.isfinite(q)) or (q < 0).any():
        raise InputError("the pmf must be a non-empty array of non-negative finite values.")
    p = np.full(n, 1.0 / n) if empirical is None else np.asarray(empirical, float).reshape(-1)
    if p.size != n:
        raise InputError(f"empirical has {p.size} values, the pmf {n}: pass one per row.")
    if losses is None:
        order = np.argsort(q, kind="stable")
        xlabel = "rows in order of increasing worst-case weight"
    else:
        z = np.asarray(losses, dtype=float).reshape(-1)
        if z.size != n:
            raise InputError(f"losses has {z.size} values, the pmf {n}: pass one per row.")
        order = np.argsort(z, kind="stable")
        xlabel = "rows in order of increasing loss"
    return {"q": q, "p": p, "order": order, "xlabel": xlabel}


def _pmf_draw(ax: Any, d: dict[str, Any]) -> None:
    q, p, order = d["q"], d["p"], d["order"]
    n = q.size
    x = np.arange(n)
    ax.plot(x, n * q[order], ".-", ms=3, label="worst case  N·Q")
    ax.plot(x, n * p[order], "--", color="black", lw=1, label="empirical  N·P")
    ax.set_xlabel(d["xlabel"])
    ax.set_ylabel("weight × N  (1 = uniform)")
    ax.legend(fontsize="small")


def plot_worst_case_pmf(pmf: Any, empirical: Any = None, losses: Any = None, *,
                        iteration: int = -1, ax: Any = None, axes: Any = None) -> Any:
    r"""The worst-case pmf :math:`Q` beside the empirical weights :math:`P`, row by row.

    The DRO paper's worst case puts more weight on the rows with larger loss: rows are
    drawn in order of increasing ``losses`` when they are given (else of increasing
    :math:`Q_i`), with
    :math:`N \cdot Q_i` and :math:`N \cdot P_i` on the y axis (1 is the uniform weight).

    Parameters
    ----------
    pmf : fitted DRO ensemble, worst-case model or array-like of shape (n_samples,)
        A :class:`~optirules.learners.DRORuleEnsembleClassifier` (its
        ``pmf_history_[iteration]`` is :math:`Q`, ``pmf_history_[0]`` the empirical
        :math:`P`; a one-vs-rest ensemble draws one panel per class, module docstring),
        a solved :class:`~optirules.models.WorstCasePmfModel` (``pmf_``; its losses are
        used when ``losses`` is None), or the pmf itself.
    empirical : array-like of shape (n_samples,), optional
        :math:`P`; uniform when neither given nor read from the model.
    losses : array-like of shape (n_samples,), optional
        Per-row losses :math:`z_i` that order the rows (one model: each class of a
        one-vs-rest model has its own losses).
    iteration : int, default -1
        Which pmf of ``pmf_history_`` a DRO ensemble shows (-1: the last).
    ax : matplotlib Axes, optional
    axes : sequence of matplotlib Axes, optional
        One Axes per class, for a one-vs-rest model.

    Returns
    -------
    matplotlib.axes.Axes or numpy.ndarray of Axes
        The Axes for one model or pmf; for a one-vs-rest model, a 1-D numpy array of
        ``K`` Axes, ``axes[k]`` drawn from ``estimators_[k]`` (the model of
        ``classes_[k]``).  Line 0 is :math:`N Q` and line 1 :math:`N P`, both in the
        plotted row order.

    Raises
    ------
    InputError
        A model without a pmf (the message names the models that have one), arrays of
        different lengths, or a pmf that is not non-negative and finite; ``losses`` or
        ``ax=`` with a one-vs-rest model.
    """
    panels = _Panels(pmf)
    if panels.classes is not None and losses is not None:
        raise InputError(
            f"{type(pmf).__name__} is one-vs-rest over {len(panels.classes)} classes, each "
            "with its own losses: pass losses=None, or plot one class's model "
            "(estimators_[k]) with its losses.")
    data = [_pmf_data(m, panels.who(k), empirical, losses, iteration)
            for k, m in enumerate(panels.models)]
    return panels.draw(ax, axes, (6.4, 4.0), data, _pmf_draw, "worst-case pmf")


# ============================================================================ DRO ensemble
def _dro_data(model: Any, who: str) -> tuple[np.ndarray, np.ndarray]:
    if not (hasattr(model, "weights_") and hasattr(model, "robust_loss_history_")):
        raise _lacks("plot_dro_ensemble", who, model)
    return (np.asarray(model.weights_, dtype=float).reshape(-1),
            _finite(model.robust_loss_history_))


def _dro_draw(ax: Any, d: tuple[np.ndarray, np.ndarray]) -> None:
    w, r = d
    ax.bar(np.arange(1, w.size + 1), w, color="tab:blue", alpha=0.7, label="member weight")
    ax.set_xlabel("member / iteration")
    ax.set_ylabel("member weight", color="tab:blue")
    right = ax.twinx()
    right.plot(np.arange(1, r.size + 1), r, "o-", color="tab:red", ms=3, label="robust loss")
    right.set_ylabel("robust loss", color="tab:red")
    ax.right_axis = right
    handles = ax.get_legend_handles_labels()
    extra = right.get_legend_handles_labels()
    ax.legend(handles[0] + extra[0], handles[1] + extra[1], fontsize="small")


def plot_dro_ensemble(model: Any, ax: Any = None, *, axes: Any = None) -> Any:
    """Member weights of a DRO rule ensemble (bars) and its robust loss per iteration (line).

    Parameters
    ----------
    model : fitted DRO ensemble
        Needs ``weights_`` (one weight per member, on the simplex) and
        ``robust_loss_history_`` (one value per iteration), as
        :class:`~optirules.learners.DRORuleEnsembleClassifier` has; a one-vs-rest ensemble
        draws one panel per class (module docstring).
    ax : matplotlib Axes, optional
    axes : sequence of matplotlib Axes, optional
        One Axes per class, for a one-vs-rest model.

    Returns
    -------
    matplotlib.axes.Axes or numpy.ndarray of Axes
        The Axes for one model; for a one-vs-rest model, a 1-D numpy array of ``K`` Axes,
        ``axes[k]`` drawn from ``estimators_[k]`` (the model of ``classes_[k]``).  Each
        holds the bars (member :math:`k = 1, 2, \\dots` at x = k, height
        ``weights_[k-1]``); the robust loss is line 0 of its twin axes
        (``ax.right_axis``), at x = 1, 2, ....

    Raises
    ------
    InputError
        A model without ``weights_`` and ``robust_loss_history_`` (the message names the
        learner that has them); ``ax=`` with a one-vs-rest model.
    """
    panels = _Panels(model)
    data = [_dro_data(m, panels.who(k)) for k, m in enumerate(panels.models)]
    return panels.draw(ax, axes, (6.4, 4.0), data, _dro_draw, "DRO ensemble")
