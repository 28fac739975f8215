"""What every plot of :mod:`optirules.plotting` shares: the message of a model without what a
plot draws (``_NEEDS``, ``_lacks``), the panels of one call (``_Panels``: one model, a
cross-validated learner's chosen estimator, or one panel per class of a one-vs-rest
model) and the conversion of unknown values to gaps (``_finite``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import InputError

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


def _axes(ax: Any, figsize: tuple[float, float] = (6.4, 4.0), layout: str | None = None) -> Any:
    """``ax``, or the Axes of a new figure of ``figsize`` (``layout="constrained"``: the
    figure makes room for every label when it is drawn or saved)."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize, layout=layout)
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

    def axes(self, ax: Any, axes: Any, figsize: tuple[float, float], max_cols: int = 3,
             layout: str | None = None) -> Any:
        """One Axes (one model) or a 1-D object array of ``K`` Axes (one-vs-rest; a new
        grid is always laid out constrained)."""
        if ax is not None and axes is not None:
            raise InputError("pass ax= (one model) or axes= (a one-vs-rest model: one Axes "
                             "per class), not both.")
        given = None if axes is None else np.asarray(axes, dtype=object).reshape(-1)
        if self.classes is None:
            if given is None:
                return _axes(ax, figsize, layout)
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
             draw: Callable[[Any, Any], None], base: str, max_cols: int = 3,
             layout: str | None = None) -> Any:
        """``draw(panel, data[k])`` on each panel, titled; the Axes or array of Axes (a
        new grid has at most ``max_cols`` columns; a new single figure gets ``layout``)."""
        panels = self.axes(ax, axes, figsize, max_cols, layout)
        for k, d in enumerate(data):
            a = panels if self.classes is None else panels[k]
            draw(a, d)
            a.set_title(self.title(base, k))
        return panels


def _finite(values: Any) -> np.ndarray:
    """Floats, with infinities (an unknown bound) shown as gaps (NaN)."""
    a = np.asarray(values, dtype=float).reshape(-1)
    return np.where(np.isfinite(a), a, np.nan)
