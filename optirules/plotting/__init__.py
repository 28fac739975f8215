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

The package imports matplotlib only inside the functions, and ``pyplot`` only when no ``ax``
is given (then a new figure is made with ``plt.subplots``, which a notebook shows inline;
:func:`plot_margin_distribution` makes its figure on the Agg canvas without ``pyplot``); it
imports no other part of optirules than its errors and its atomic file writes.  It sits
above the learners and models, whose fitted attributes it draws, and below the experiments
and the command line, which draw with it (tests/test_layers.py).  Its modules: ``_panels``
(what every plot shares), ``_training`` (column generation, worst-case pmf, DRO ensemble),
``_coverage`` (rule coverage), ``_ensembles`` (boosting, margin distribution) and ``_grid``
(a grid's table).
"""

from __future__ import annotations

from ._coverage import plot_rule_coverage
from ._ensembles import (
    _cumulative_margin_distribution,
    plot_boosting,
    plot_margin_distribution,
)
from ._grid import plot_grid
from ._training import plot_column_generation, plot_dro_ensemble, plot_worst_case_pmf

__all__ = [
    "plot_column_generation",
    "plot_worst_case_pmf",
    "plot_dro_ensemble",
    "plot_rule_coverage",
    "plot_boosting",
    "plot_margin_distribution",
    "plot_grid",
]

# the cumulative margins of plot_margin_distribution, which its tests read from here
_ = _cumulative_margin_distribution
