r"""All of optirules' plots: one function per picture, each returning matplotlib ``Axes``
(:func:`plot_margin_distribution` returns its ``Figure``).

The first five read the fitted attributes of the model they are given (duck typing: they
need the attributes named in their docstrings, not a class).  Every function draws into
``ax`` when one is passed or into a new figure otherwise, and returns the axes.  The data
drawn are the model's own numbers, so a plot can be checked against the attributes
(``ax.lines[0].get_ydata()`` is ``[h["lp_objective"] for h in model.history_]``, for
example).

========================================  ==============================================
function                                  reads
========================================  ==============================================
:func:`plot_column_generation`            ``history_`` (``lp_objective``, ``lp_bound``),
                                          ``ip_objective_``
:func:`plot_worst_case_pmf`               ``pmf_history_`` of a DRO ensemble, ``pmf_`` of
                                          a worst-case model, or a pmf array
:func:`plot_dro_ensemble`                 ``weights_``, ``robust_loss_history_``
:func:`plot_rule_coverage`                ``rules_`` (a rule set or a decision list) or
                                          ``members_`` (a DRO ensemble)
:func:`plot_boosting`                     ``weighted_errors_``/``alphas_`` (optirules) or
                                          ``estimator_errors_``/``estimator_weights_``
                                          (scikit-learn's AdaBoost)
:func:`plot_margin_distribution`          margin vectors (of
                                          :func:`~optirules.learners.ensemble_margins`)
:func:`plot_grid`                         the per-fold table of
                                          :func:`~optirules.experiments.run_grid`
========================================  ==============================================

They also take the models that wrap those:

* a cross-validated learner (:class:`~optirules.learners.BooleanRuleSetCV`,
  :class:`~optirules.learners.DecisionListCV`, anything with ``best_estimator_``): the
  chosen estimator ``best_estimator_`` is drawn, and the title says so (with the chosen
  parameters, ``best_params_`` or ``penalty_``);
* a one-vs-rest model (more than two classes: ``estimators_[k]`` is the binary model of
  ``classes_[k]`` against the rest): one panel per class, in ``classes_`` order, each
  titled with its class, in a new figure (a grid of subplots) or in the ``axes=`` given
  (a sequence of ``K`` Axes; ``ax=`` is refused, one Axes cannot hold ``K`` panels).  The
  function then returns a numpy array of the ``K`` Axes (``axes[k]`` is the panel of
  ``classes_[k]``, drawn from ``estimators_[k]``'s numbers) instead of one Axes.

A model that lacks what a plot needs gets an :class:`~optirules.errors.InputError` that
says what the plot needs and which learners provide it.

The last two draw numbers rather than a model (margin vectors; a grid's table), in one
panel.

The module imports matplotlib only inside the functions, and ``pyplot`` only when no ``ax``
is given (then a new figure is made with ``plt.subplots``, which a notebook shows inline;
:func:`plot_margin_distribution` makes its figure on the Agg canvas without ``pyplot``); it
imports no other part of optirules than its errors and its atomic file writes, so every
layer may use it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from .errors import InputError

__all__ = [
    "plot_column_generation",
    "plot_worst_case_pmf",
    "plot_dro_ensemble",
    "plot_rule_coverage",
    "plot_boosting",
    "plot_margin_distribution",
    "plot_grid",
]

# what each plot needs, and which models have it (for the messages of a model without it)
_NEEDS = {
    "plot_column_generation": (
        "a column-generation trace (history_: lp_objective and lp_bound per iteration)",
        "BooleanRuleSetClassifier and BooleanRuleSetCV (binary or one-vs-rest) and a "
        "ColumnGenerationResult have one"),
    "plot_worst_case_pmf": (
        "a worst-case pmf (pmf_history_ or pmf_) or an array of row weights",
        "DRORuleEnsembleClassifier (binary or one-vs-rest, as fitted: a model loaded from "
        "JSON keeps no pmf_history_) and a solved WorstCasePmfModel (pmf_) have one"),
    "plot_dro_ensemble": (
        "the member weights_ and robust_loss_history_ of a DRO rule ensemble",
        "DRORuleEnsembleClassifier (binary or one-vs-rest) has them"),
    "plot_rule_coverage": (
        "rules (rules_ of a rule set or a decision list, members_ of a DRO ensemble)",
        "BooleanRuleSetClassifier, BooleanRuleSetCV, DecisionListClassifier, DecisionListCV "
        "and DRORuleEnsembleClassifier have them"),
    "plot_boosting": (
        "boosting rounds (weighted_errors_ and alphas_, or estimator_errors_ and "
        "estimator_weights_)",
        "BoostingClassifier (binary or one-vs-rest), ResampledAdaBoostClassifier and "
        "scikit-learn's AdaBoostClassifier have them"),
}


def _axes(ax: Any, figsize: tuple[float, float] = (6.4, 4.0)) -> Any:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize)
    return ax


def _unfitted(model: Any) -> bool:
    """An estimator (``get_params``) with no fitted attribute (scikit-learn's test: no
    attribute of its own ending in ``_``)."""
    if not hasattr(model, "get_params"):
        return False
    try:
        own = vars(model)
    except TypeError:
        return False
    return not any(k.endswith("_") and not k.startswith("__") for k in own)


def _lacks(func: str, who: str, model: Any, detail: str = "") -> InputError:
    """The error of a model without what ``func`` draws: what it needs, who has it."""
    what, providers = _NEEDS[func]
    if _unfitted(model):
        return InputError(f"{who} is not fitted: fit it first ({func} needs {what}; "
                          f"{providers}).")
    return InputError(f"{func} needs {what}, and {who} has none{detail}: {providers}.")


def _is_one_vs_rest(model: Any) -> bool:
    """``estimators_[k]`` is the binary model of ``classes_[k]`` against the rest."""
    check = getattr(model, "_is_one_vs_rest", None)
    if callable(check):
        return bool(check())
    # scikit-learn's OneVsRestClassifier (label_binarizer_; with two classes it has one model)
    return (hasattr(model, "label_binarizer_") and hasattr(model, "estimators_")
            and len(getattr(model, "classes_", ())) > 2
            and len(model.estimators_) == len(model.classes_))


def _chosen_note(model: Any) -> str:
    """The title line of a cross-validated learner's chosen estimator."""
    params = getattr(model, "best_params_", None)
    if isinstance(params, dict) and params:
        chosen = ", ".join(f"{k}={v}" for k, v in params.items())
    elif getattr(model, "penalty_", None) is not None:
        chosen = "lambda0={:g}, lambda1={:g}".format(*model.penalty_)
    else:
        chosen = ""
    note = f"best_estimator_ of {type(model).__name__}"
    return f"{note} ({chosen})" if chosen else note


class _Panels:
    """What one call draws: the model of each panel, its class (one-vs-rest) and the
    title note of a cross-validated learner."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.note = ""
        shown = model
        best = getattr(model, "best_estimator_", None)
        if best is not None:
            self.note = _chosen_note(model)
            shown = best
        self.shown = shown
        if _is_one_vs_rest(shown):
            self.models = list(shown.estimators_)
            self.classes: list[Any] | None = list(np.asarray(shown.classes_))
        else:
            self.models = [shown]
            self.classes = None

    def who(self, k: int = 0) -> str:
        """The model of panel ``k`` as the messages name it."""
        name = type(self.model).__name__
        inner = self.shown is not self.model
        if self.classes is None:
            if inner:
                return f"{name} (its best_estimator_, a {type(self.shown).__name__})"
            return name
        where = "best_estimator_.estimators_" if inner else "estimators_"
        return (f"{name} (one-vs-rest: {where}[{k}], the model of class "
                f"{self.classes[k]!s} against the rest)")

    def title(self, base: str, k: int) -> str:
        lines = [base]
        if self.classes is not None:
            lines.append(f"class {self.classes[k]!s} vs rest")
        if self.note:
            lines.append(self.note)
        return "\n".join(lines)

    def axes(self, ax: Any, axes: Any, figsize: tuple[float, float], max_cols: int = 3) -> Any:
        """One Axes (one model) or a 1-D object array of ``K`` Axes (one-vs-rest)."""
        if ax is not None and axes is not None:
            raise InputError("pass ax= (one model) or axes= (a one-vs-rest model: one Axes "
                             "per class), not both.")
        given = None if axes is None else np.asarray(axes, dtype=object).reshape(-1)
        if self.classes is None:
            if given is None:
                return _axes(ax, figsize)
            if given.size != 1:
                raise InputError(
                    f"{self.who()} is one model, drawn in one panel: pass ax= (one Axes) or "
                    f"nothing; axes= ({given.size} given) is for a one-vs-rest model, one "
                    "Axes per class.")
            return given[0]
        K = len(self.classes)
        if ax is not None:
            raise InputError(
                f"{type(self.model).__name__} is one-vs-rest over {K} classes and draws one "
                f"panel per class: pass axes= (a sequence of {K} matplotlib Axes, one per "
                "class in classes_ order) or nothing (a new figure with a grid of "
                f"{K} panels), not ax=.")
        if given is not None:
            if given.size != K:
                raise InputError(f"axes= has {given.size} Axes and the model {K} classes: "
                                 "pass one Axes per class (classes_ order).")
            return given
        import matplotlib.pyplot as plt

        ncols = min(K, max_cols)
        nrows = math.ceil(K / ncols)
        _, grid = plt.subplots(nrows, ncols, squeeze=False, layout="constrained",
                               figsize=(figsize[0] * ncols, figsize[1] * nrows))
        flat = grid.reshape(-1)
        for extra in flat[K:]:
            extra.remove()
        out = np.empty(K, dtype=object)
        out[:] = list(flat[:K])
        return out

    def draw(self, ax: Any, axes: Any, figsize: tuple[float, float], data: list[Any],
             draw: Callable[[Any, Any], None], base: str, max_cols: int = 3) -> Any:
        """``draw(panel, data[k])`` on each panel, titled; the Axes or array of Axes (a
        new grid has at most ``max_cols`` columns)."""
        panels = self.axes(ax, axes, figsize, max_cols)
        for k, d in enumerate(data):
            a = panels if self.classes is None else panels[k]
            draw(a, d)
            a.set_title(self.title(base, k))
        return panels


def _finite(values: Any) -> np.ndarray:
    """Floats, with infinities (an unknown bound) shown as gaps (NaN)."""
    a = np.asarray(values, dtype=float).reshape(-1)
    return np.where(np.isfinite(a), a, np.nan)


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
            names += [f"h{k + 1}: {r}" for r in member]
        cover = np.vstack(blocks) if blocks else np.zeros((0, len(X)), dtype=bool)
        return cover, names, [classes[-1]] * len(names)
    raise _lacks("plot_rule_coverage", who, model)


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
        text = name if len(name) <= 60 else name[:57] + "..."
        labels.append(f"{text}  (+{p} / -{q})")
    label_names = label_names or {}
    counts = ", ".join(f"{label_names.get(c, c)}: {int((y == c).sum())}"
                       for c in reversed(classes))
    return {"image": image, "rank": rank[order], "order": order, "labels": labels,
            "xlabel": f"rows by label ({counts})"}


def _coverage_draw(ax: Any, d: dict[str, Any]) -> None:
    ax.imshow(d["image"], aspect="auto", cmap="coolwarm_r", vmin=-1, vmax=1,
              interpolation="nearest")
    for b in np.flatnonzero(np.diff(d["rank"])):
        ax.axvline(b + 0.5, color="white", lw=2)
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
    where it does not cover the row.  The y labels give each rule with its counts
    ``(+p / -n)``.

    Parameters
    ----------
    model : fitted rule model
        A :class:`~optirules.learners.BooleanRuleSetClassifier` (``rules_.fired``), a
        :class:`~optirules.learners.DecisionListClassifier` (a row is covered by the
        first rule that fires, as ``explain`` says), or a
        :class:`~optirules.learners.DRORuleEnsembleClassifier` (the rules of the members
        with positive weight, named ``h<k>: ...``); a cross-validated learner
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
    # one panel per row of a new grid: the images are wide (one column per row of X)
    return panels.draw(ax, axes, (8.0, 0.45 * max(n_rules, 2) + 1.5), data, _coverage_draw,
                       "rule coverage (blue: a row of the rule's class, red: another class)",
                       max_cols=1)


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
        from ._atomic import atomic_path

        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=os.path.splitext(str(path))[1][1:] or "png", dpi=120,
                        bbox_inches="tight")
    return fig


# ----------------------------------------------------------------------------- grids
def plot_grid(frame: Any, metric: str = "accuracy", ax: Any = None) -> Any:
    """Bar chart of mean ``metric`` (error bars: sd) per dataset and configuration.

    Parameters
    ----------
    frame : pandas.DataFrame
        The per-fold table of a grid (``GridResult.frame`` of
        :func:`~optirules.experiments.run_grid`): columns ``dataset``, ``learner``,
        ``params``, ``solver`` and ``metric``.
    metric : str, default="accuracy"
        The column drawn.
    ax : matplotlib Axes, optional
        Draw into these axes; by default a new figure is made (with the Agg backend when
        no backend is chosen yet).

    Returns
    -------
    matplotlib.axes.Axes
        One group of bars per dataset, one bar per configuration (``learner params``): the
        means of :func:`~optirules.experiments.summarize` (over the solvers of the
        configuration, if several), with their sd as error bars.
    """
    import matplotlib

    if ax is None:
        matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(8, 4))
    # the mean and sd of experiments.summarize (the cells' folds), one row per cell
    cells = frame.groupby(["dataset", "learner", "params", "solver"], sort=False)[metric]
    s = cells.agg(["mean", "std"]).rename(columns={"std": "sd"}).reset_index()
    s["sd"] = s["sd"].fillna(0.0)
    s["config"] = s["learner"] + " " + s["params"]
    mean = s.pivot_table(index="dataset", columns="config", values="mean")
    sd = s.pivot_table(index="dataset", columns="config", values="sd")
    mean.plot.bar(yerr=sd, ax=ax, rot=0)
    ax.set_ylabel(metric)
    ax.legend(fontsize="small")
    return ax
