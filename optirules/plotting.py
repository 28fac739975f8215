r"""Plots of fitted models: one function per picture, each returning a matplotlib ``Axes``.

Every function reads the fitted attributes of the model it is given (duck typing: it needs
the attributes named in its docstring, not a class), draws into ``ax`` when one is passed
or into a new figure otherwise, and returns the axes.  The data drawn are the model's own
numbers, so a plot can be checked against the attributes (``ax.lines[0].get_ydata()`` is
``[h["lp_objective"] for h in model.history_]``, for example).

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
========================================  ==============================================

The module imports matplotlib's ``pyplot`` only when no ``ax`` is given (then a new figure
is made with ``plt.subplots``, which a notebook shows inline); it imports no other part of
optirules than its errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .errors import InputError

__all__ = [
    "plot_column_generation",
    "plot_worst_case_pmf",
    "plot_dro_ensemble",
    "plot_rule_coverage",
    "plot_boosting",
]


def _axes(ax: Any, figsize: tuple[float, float] = (6.4, 4.0)) -> Any:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize)
    return ax


def _need(model: Any, *names: str) -> None:
    missing = [n for n in names if not hasattr(model, n)]
    if missing:
        raise InputError(
            f"{type(model).__name__} has no {', '.join(missing)}: pass a fitted model that "
            f"has them (fit it first)."
        )


def _finite(values: Any) -> np.ndarray:
    """Floats, with infinities (an unknown bound) shown as gaps (NaN)."""
    a = np.asarray(values, dtype=float).reshape(-1)
    return np.where(np.isfinite(a), a, np.nan)


# ============================================================================ column generation
def plot_column_generation(model: Any, ax: Any = None) -> Any:
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
        clauses is drawn as a horizontal line.
    ax : matplotlib Axes, optional
        Axes to draw into; a new figure by default.

    Returns
    -------
    matplotlib.axes.Axes
        Line 0 is the LP objective, line 1 the bound (both against ``iteration``), line 2
        (when drawn) the IP objective.  The view starts at 0 (the objective is never
        negative), so a vacuous negative bound of the first iterations lies below it.

    Raises
    ------
    InputError
        The model has no history, or its history is empty (loaded from JSON, for example).
    """
    history = getattr(model, "history_", getattr(model, "history", None))
    if history is None:
        raise InputError(f"{type(model).__name__} has no history_: pass a fitted rule set "
                         "(BooleanRuleSetClassifier) or a ColumnGenerationResult.")
    history = list(history)
    if not history or "lp_objective" not in history[0]:
        raise InputError("the model's history_ holds no column-generation iteration (a model "
                         "loaded from JSON keeps none): fit it to plot its trace.")
    it = np.array([h.get("iteration", k) for k, h in enumerate(history)], dtype=float)
    lp = _finite([h["lp_objective"] for h in history])
    bound = _finite([h.get("lp_bound", np.nan) for h in history])
    ax = _axes(ax)
    ax.plot(it, lp, "o-", ms=3, label="restricted master LP objective")
    ax.plot(it, bound, "s--", ms=3, label="certified lower bound")
    ip = getattr(model, "ip_objective_", getattr(model, "ip_objective", None))
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
    ax.set_title("column generation")
    ax.legend(fontsize="small")
    return ax


# ============================================================================ worst-case pmf
def plot_worst_case_pmf(pmf: Any, empirical: Any = None, losses: Any = None, *,
                        iteration: int = -1, ax: Any = None) -> Any:
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
        :math:`P`), a solved :class:`~optirules.models.WorstCasePmfModel` (``pmf_``;
        its losses are used when ``losses`` is None), or the pmf itself.
    empirical : array-like of shape (n_samples,), optional
        :math:`P`; uniform when neither given nor read from the model.
    losses : array-like of shape (n_samples,), optional
        Per-row losses :math:`z_i` that order the rows.
    iteration : int, default -1
        Which pmf of ``pmf_history_`` a DRO ensemble shows (-1: the last).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        Line 0 is :math:`N Q` and line 1 :math:`N P`, both in the plotted row order.

    Raises
    ------
    InputError
        Arrays of different lengths, or a pmf that is not non-negative and finite.
    """
    if hasattr(pmf, "pmf_history_"):
        history = np.asarray(pmf.pmf_history_, dtype=float)
        q = history[iteration]
        if empirical is None:
            empirical = history[0]
    elif hasattr(pmf, "pmf_"):
        q = np.asarray(pmf.pmf_, dtype=float)
        if losses is None and hasattr(pmf, "losses"):
            losses = pmf.losses
    else:
        q = pmf
    try:
        q = np.asarray(q, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise InputError(
            f"{type(pmf).__name__} is not a pmf: pass a fitted DRO ensemble (pmf_history_; "
            "a model loaded from JSON keeps none), a solved WorstCasePmfModel (pmf_) or an "
            "array of row weights."
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
    ax = _axes(ax)
    x = np.arange(n)
    ax.plot(x, n * q[order], ".-", ms=3, label="worst case  N·Q")
    ax.plot(x, n * p[order], "--", color="black", lw=1, label="empirical  N·P")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("weight × N  (1 = uniform)")
    ax.set_title("worst-case pmf")
    ax.legend(fontsize="small")
    return ax


# ============================================================================ DRO ensemble
def plot_dro_ensemble(model: Any, ax: Any = None) -> Any:
    """Member weights of a DRO rule ensemble (bars) and its robust loss per iteration (line).

    Parameters
    ----------
    model : fitted DRO ensemble
        Needs ``weights_`` (one weight per member, on the simplex) and
        ``robust_loss_history_`` (one value per iteration), as
        :class:`~optirules.learners.DRORuleEnsembleClassifier` has.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        The axes of the bars (member :math:`k = 1, 2, \\dots` at x = k, height
        ``weights_[k-1]``); the robust loss is line 0 of its twin axes
        (``ax.right_axis``), at x = 1, 2, ....
    """
    _need(model, "weights_", "robust_loss_history_")
    w = np.asarray(model.weights_, dtype=float).reshape(-1)
    r = _finite(model.robust_loss_history_)
    ax = _axes(ax)
    ax.bar(np.arange(1, w.size + 1), w, color="tab:blue", alpha=0.7, label="member weight")
    ax.set_xlabel("member / iteration")
    ax.set_ylabel("member weight", color="tab:blue")
    right = ax.twinx()
    right.plot(np.arange(1, r.size + 1), r, "o-", color="tab:red", ms=3, label="robust loss")
    right.set_ylabel("robust loss", color="tab:red")
    ax.right_axis = right
    ax.set_title("DRO ensemble")
    handles = ax.get_legend_handles_labels()
    extra = right.get_legend_handles_labels()
    ax.legend(handles[0] + extra[0], handles[1] + extra[1], fontsize="small")
    return ax


# ============================================================================ rule coverage
def _coverage(model: Any, X: Any) -> tuple[np.ndarray, list[str], list[Any]]:
    """Boolean (n_rules, n_rows) coverage, the rules' texts and the class each rule predicts."""
    classes = np.asarray(model.classes_)
    rules = getattr(model, "rules_", None)
    if rules is not None and hasattr(rules, "fired"):            # a RuleSet
        return (np.asarray(rules.fired(X), dtype=bool).T, [str(r) for r in rules],
                [classes[-1]] * len(rules))
    if rules is not None and hasattr(model, "explain"):           # a decision list
        fired = np.asarray(model.explain(X)["rule"], dtype=int)
        cover = np.array([fired == k for k in range(len(rules))], dtype=bool)
        return (cover.reshape(len(rules), fired.size), [str(r) for r in rules],
                [r.prediction for r in rules])
    if hasattr(model, "members_"):                                  # a DRO ensemble
        weights = np.asarray(getattr(model, "weights_", np.ones(len(model.members_))), float)
        blocks, names = [], []
        for k, member in enumerate(model.members_):
            if weights[k] <= 0:
                continue
            blocks.append(np.asarray(member.fired(X), dtype=bool).T)
            names += [f"h{k + 1}: {r}" for r in member]
        cover = np.vstack(blocks) if blocks else np.zeros((0, len(X)), dtype=bool)
        return cover, names, [classes[-1]] * len(names)
    raise InputError(f"{type(model).__name__} has no rules_ or members_: pass a fitted rule "
                     "set, decision list or DRO rule ensemble.")


def plot_rule_coverage(model: Any, X: Any, y: Any, ax: Any = None) -> Any:
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
        with positive weight, named ``h<k>: ...``).
    X : array-like or DataFrame of shape (n_samples, n_features)
        Rows in the model's input format.
    y : array-like of shape (n_samples,)
        Their labels.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.images[0].get_array()`` is the (n_rules, n_samples) matrix described above;
        ``ax.coverage_order`` the row order of its columns.

    Raises
    ------
    InputError
        Not a fitted rule model, or ``X`` and ``y`` of different lengths.
    """
    _need(model, "classes_")
    y = np.asarray(y).reshape(-1)
    cover, names, predicted = _coverage(model, X)
    if cover.shape[1] != y.size:
        raise InputError(f"X has {cover.shape[1]} rows and y {y.size}: pass one label per row.")
    classes = list(np.asarray(model.classes_))
    rank = np.array([classes.index(v) if v in classes else -1 for v in y.tolist()])
    order = np.argsort(-rank, kind="stable")
    own = np.array([y == c for c in predicted], dtype=bool).reshape(cover.shape)
    image = np.where(cover, np.where(own, 1, -1), 0)[:, order]
    ax = _axes(ax, figsize=(8.0, 0.45 * max(len(names), 2) + 1.5))
    ax.imshow(image, aspect="auto", cmap="coolwarm_r", vmin=-1, vmax=1,
              interpolation="nearest")
    sorted_rank = rank[order]
    for b in np.flatnonzero(np.diff(sorted_rank)):
        ax.axvline(b + 0.5, color="white", lw=2)
    labels = []
    for k, name in enumerate(names):
        p = int((cover[k] & own[k]).sum())
        q = int((cover[k] & ~own[k]).sum())
        text = name if len(name) <= 60 else name[:57] + "..."
        labels.append(f"{text}  (+{p} / -{q})")
    ax.set_yticks(np.arange(len(names)))
    ax.set_yticklabels(labels, fontsize="small")
    counts = ", ".join(f"{c}: {int((y == c).sum())}" for c in reversed(classes))
    ax.set_xlabel(f"rows by label ({counts})")
    ax.set_title("rule coverage (blue: a row of the rule's class, red: another class)")
    ax.coverage_order = order
    return ax


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


def plot_boosting(model: Any, X: Any = None, y: Any = None, ax: Any = None) -> Any:
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
        ``alphas_``, ``staged_decision_function``) or scikit-learn's
        ``AdaBoostClassifier`` for two classes (``estimator_errors_``,
        ``estimator_weights_``, ``estimators_``: :math:`F_t` is summed from the members'
        votes).
    X, y : array-like, optional
        Rows and labels for the ensemble curves (both or neither).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        Line 0: the weak errors against rounds 1, 2, ...; with data, line 1 the ensemble's
        error and line 2 its least normalized margin.
    """
    if (X is None) != (y is None):
        raise InputError("pass both X and y (for the ensemble's error and margin) or neither.")
    if hasattr(model, "weighted_errors_"):
        errors = np.asarray(model.weighted_errors_, dtype=float)
    elif hasattr(model, "estimator_errors_") and hasattr(model, "estimator_weights_"):
        errors = np.asarray(model.estimator_errors_, dtype=float)
        errors = errors[: len(getattr(model, "estimators_", errors))]
    else:
        raise InputError(f"{type(model).__name__} has no weighted_errors_ or "
                         "estimator_errors_: pass a fitted BoostingClassifier or AdaBoost.")
    ax = _axes(ax)
    rounds = np.arange(1, errors.size + 1)
    ax.plot(rounds, errors, "-", color="tab:grey", label="weak hypothesis: weighted error")
    if X is not None:
        classes = np.asarray(model.classes_)
        if classes.size != 2:
            raise InputError("the ensemble curves need a binary classifier (two classes_).")
        ypm = np.where(np.asarray(y).reshape(-1) == classes[1], 1.0, -1.0)
        staged, scale = _staged_scores(model, X)
        err, margin = [], []
        for t, F in enumerate(staged):
            err.append(float(np.mean(np.where(F > 0, 1.0, -1.0) != ypm)))
            s = scale[t] if scale[t] > 0 else 1.0
            margin.append(float((ypm * F).min() / s))
        t = np.arange(1, len(staged) + 1)
        ax.plot(t, err, "-", color="tab:blue", label="ensemble: error on (X, y)")
        ax.plot(t, margin, "-", color="tab:green", label="ensemble: least normalized margin")
        ax.axhline(0.0, color="black", lw=0.6)
    ax.set_xlabel("round t")
    ax.set_ylabel("error / margin")
    ax.set_title("boosting")
    ax.legend(fontsize="small")
    return ax
