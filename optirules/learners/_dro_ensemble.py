r"""Distributionally robust ensembles of rule sets (the DRO paper, Sections 3.1-3.3 and 4.1).

The DRO paper (*Obtaining Explainable Classification Models using Distributionally Robust Optimization*) grows a collection of DNF rule sets
:math:`F_n = \frac1n \sum_{m \le n} h_m` greedily against a worst-case pmf: with
:math:`P^0` the empirical pmf (uniform; the normalized ``sample_weight`` when given) and
:math:`F_0 = 0`, for :math:`n = 1, 2, \dots`

1. :math:`h_n = \arg\min_{h \in \mathcal{H}(\mathfrak{C}')} \mathbb{E}_{P^{n-1}} |h(x) - y|`
   (eq 4; the weighted rule master, eqs 6-8, by column generation:
   :func:`~optirules.models.column_generation`);
2. :math:`F_n = \frac{n-1}{n} F_{n-1} + \frac1n h_n`;
3. :math:`P^n = \arg\max_{P \in \mathcal{P}} \mathbb{E}_P\, l(F_n(x), y)` (eq 5, solved as
   eq 9 by :func:`~optirules.models.worst_case_pmf`) with the margin loss
   (eq 2) :math:`l(F(x), y) = |F(x) - \tfrac12| \cdot \mathbb{I}(\hat y \ne y)`,
   :math:`\hat y = \mathbb{I}(F(x) \ge \tfrac12)`, and :math:`\mathcal{P}` the
   :math:`\phi`-divergence ball of radius :math:`\rho` around :math:`P^0`
   (modified :math:`\chi^2` or KL).

After each iteration the sparse convex combination IP (eqs 10-14,
:class:`~optirules.models.SparseCombinationModel`) picks weights
:math:`v` over the members so far with total cost :math:`\sum_{v_k > 0} c(h_k) \le
\mathfrak{C}`.

**The member budget and the returned ensemble (our design; the paper's Section 4, which
sets :math:`\mathfrak{C}'` and :math:`\mathfrak{C}` "adaptively", is missing from our
copy).**  After iteration :math:`n` the IP is solved twice, with the pmf :math:`p = P^n` and
with :math:`p = P^0` (the paper reports that both work), giving two candidate ensembles; every
candidate satisfies the same overall budget :math:`\mathfrak{C}`.

* ``member_complexity=None`` (default) tries the member budgets
  :math:`\mathfrak{C}' \in \{\mathfrak{C}/3, \mathfrak{C}\}`
  (:data:`MEMBER_FRACTIONS`); a number fixes :math:`\mathfrak{C}'`, a sequence of numbers
  tries each (``(10, 15, 30)`` is the grid :math:`\{\mathfrak{C}/3, \mathfrak{C}/2,
  \mathfrak{C}\}` of earlier versions at :math:`\mathfrak{C} = 30`; the middle budget was
  seldom the one returned and cost a third of the fit,
  ``benchmarks/results/dro_small.md``).  With
  :math:`\mathfrak{C}' = \mathfrak{C}` a candidate holds one member (or several small ones):
  the grid includes the plain budget-form rule set, so a concept that needs the whole
  budget (tic-tac-toe's eight lines of three literals cost 32) stays reachable, which
  :math:`\mathfrak{C}' = \mathfrak{C}/3` alone is not (a vote of rule sets of cost
  :math:`\le \mathfrak{C}/3` is not their OR).
* ``selection="robust_loss"`` (default; the paper's reading) returns the candidate, over all
  :math:`\mathfrak{C}'` of the grid and all iterations, of least *training robust loss*

  .. math::

      R(F_v) = \max_{P \in \mathcal{P}} \sum_i P_i \, \big|F_v(x_i) - \tfrac12\big|
          \mathbb{I}(\hat y_i \ne y_i), \qquad F_v = \sum_k v_k h_k ,

  i.e. the paper's objective (3) with loss (2) evaluated on the candidate itself (ties: the
  smaller cost, then the earlier candidate); the rationale is the paper's Proposition 2:
  all candidates share the complexity budget, so their generalization penalties are alike,
  and the paper's remark that the robust loss "does not require extensive fine tuning via
  heuristics like cross-validation".
* ``selection="validation"`` holds out a stratified ``validation_fraction`` of the rows,
  runs the loop on the rest for every :math:`\mathfrak{C}'` of the grid and picks the
  (:math:`\mathfrak{C}'`, iteration, pmf) candidate of best held-out accuracy (ties: the
  smaller cost, the smaller :math:`\mathfrak{C}'`, the earlier iteration).  With
  ``refit=True`` (default) the loop is then rerun on all rows with that
  :math:`\mathfrak{C}'` up to that iteration and the candidate of that pmf is returned (the
  loop is deterministic, so this is the fit a user would get by fixing those values);
  ``refit=False`` returns the inner-split ensemble itself (members fitted on
  ``1 - validation_fraction`` of the rows; ``pmf_history_`` is then on those rows).  It is
  cheaper (the grid runs on 75 % of the rows, the refit stops at the chosen iteration); in
  the rules benchmark (``benchmarks/results/rules_dro.md``, 8 data sets, 5 folds, C = 32)
  it was not more accurate than the robust loss over the same grid (the figures are in
  docs/papers/dro_rule_ensembles.md), so it is not the default.
* ``selection="last"`` returns the last iteration's :math:`P^n` candidate (with
  ``member_complexity=None``: :math:`\mathfrak{C}' = \mathfrak{C}/3`).

**Fit time (our choices, benchmarked).**  The paper fixes neither the number of iterations nor
how exactly each member's IP is solved.  ``n_iter_no_change`` (default 1) stops the loop of
one :math:`\mathfrak{C}'` once its best candidate (least robust loss, then cost) has not
improved for that many members; since the loop is deterministic, the stopped run is the
first members of the full one, and the returned candidate is the least robust loss among
the members grown (``n_iter_no_change=None``: the paper's fixed number of iterations).
Each member is the master IP (eqs 6-8) over the pool its column generation ended with,
solved by HiGHS within ``member_ip_max_nodes`` branch-and-bound nodes (default 1: the
root, with HiGHS's cuts and heuristics) and ``mip_gap`` (default 0.01), or the
local-search incumbent when that is better; each member is one greedy step, and its gap
to the certified LP bound over all clauses is reported (``member_results_``).
``member_ip_max_nodes=None`` solves each member's IP to ``mip_gap`` (the paper's exact
member, to that gap).  The bound counts nodes, not seconds, so the fit does not depend on
the machine's speed or load.  A member repeated from an earlier iteration leaves the
combination IP under :math:`P^0` unchanged, and its solution is reused.  The defaults
against those of earlier versions, on every bundled data set of up to 5,000 rows:
``benchmarks/results/dro_small.md``; larger data: ``benchmarks/results/dro.md``.

**Probabilities.**  :meth:`~DRORuleEnsembleClassifier.predict_proba` is the vote
:math:`F` calibrated on the training rows: the Beta-smoothed share of ``classes_[1]`` at
each vote level, made non-decreasing in :math:`F` (the method's docstring).

**Time limit.** ``time_limit`` bounds the whole fit: the members of every
:math:`\mathfrak{C}'`, the pmf steps, the combination IPs and the refit share one deadline.
Each member's column generation gets the remaining time divided by the members still
planned; when the deadline passes the loop stops after the current member (and its
combination IP), the best ensemble found so far is returned and ``status_`` starts with
``"time_limit"``.  A member's final master IP and one combination IP may each take up to
one second past the deadline.  A wall-clock limit makes the result depend on the machine's
speed and load, and ``status_`` says so; without one (the default) the fit does not.

**The combination IP's bound.**  Each combination IP is bounded in branch-and-bound nodes
(``combination_max_nodes``, HiGHS's ``mip_max_nodes`` or the MILP solver's own node limit),
not in seconds, so the same data, parameters and ``random_state`` give the same ensemble on
any machine.  When the node bound stops an IP, the candidate is its best incumbent: the
candidate's ``status`` says which bound stopped it and its ``gap`` is the IP's relative gap,
and ``status_`` counts such IPs.  Only the fit's ``time_limit`` (opt-in) bounds them in
seconds.

**Binary-loss variant** (``loss="binary"``, the DRO paper §2.3 and §4.1): steps 2 and 3 are
replaced by :math:`P^n = \arg\max_{P \in \mathcal{P}} \mathbb{E}_P |h_n(x) - y|` for the
current iterate alone.  The worst case then only separates misclassified from correct rows,
and the alternation cycles; since :math:`h_{n+1}` depends on :math:`h_n` only, the first
repeat :math:`h_n = h_m` (:math:`m < n`) proves a cycle of length :math:`n - m`
(``cycle_detected_``, ``cycle_start_``, ``cycle_length_``).  The returned model is the
iterate of least robust loss :math:`R(h)`.
"""

from __future__ import annotations

import functools
import logging
import math
import os
import re
import time
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.validation import validate_data

from .._workers import parallel
from ..errors import InputError, NotFittedError, OptirulesError, SolverError
from ..models import (
    Clause,
    EnumerationPricer,
    aggregate_rows,
    clause_coverage,
    column_generation,
    resolve_max_degree,
    split_solver,
)
from ._checks import (
    check_fitted,
    class_sample_weight,
    n_rows,
    weighted_rows,
)
from ._explain import binary_explain, text_or_repr
from ._json import (
    Field,
    check_rule_columns,
    check_rule_labels,
    damaged_as_input_error,
    dump_json,
    json_header,
    json_scalar,
    load_json,
    load_json_header,
    restore_params,
)
from ._multiclass import OneVsRestMixin, one_vs_rest
from ._rule_set import (
    _is_int,
    _is_number,
    _RuleInputMixin,
)
from ._rules import RuleSet, read_rule_set
from ._rules_table import RulesTableMixin, dro_table
from ._scores import PRIOR_STRENGTH, VOTE_CUT, consistent_with_prediction, smoothed_share
from ._sql import SQLMixin

__all__ = ["DRORuleEnsembleClassifier", "dro_max_degree", "margin_loss"]

_LOG = logging.getLogger("optirules.learners.dro_ensemble")

LOSSES = ("margin", "binary")
SELECTIONS = ("robust_loss", "validation", "last")
#: member budgets tried when ``member_complexity=None``, as fractions of ``complexity``
MEMBER_FRACTIONS = (1.0 / 3.0, 1.0)
DIVERGENCES = ("chi2", "kl")
#: what each member's column generation starts from (``member_warm_start``)
WARM_STARTS = ("support", "members", "pool", "none")


def margin_loss(F: np.ndarray, y: np.ndarray) -> np.ndarray:
    r"""The DRO paper's loss (2): :math:`|F(x) - \tfrac12| \cdot \mathbb{I}(\hat y \ne y)`,
    :math:`\hat y = \mathbb{I}(F(x) \ge \tfrac12)` (with a 1e-12 allowance for round-off in
    sums of weights).

    Parameters
    ----------
    F : array of shape (N,)
        Combination values in [0, 1].
    y : bool array of shape (N,)
        Labels.
    """
    F = np.asarray(F, dtype=float)
    wrong = (F >= VOTE_CUT) != np.asarray(y, dtype=bool)
    return np.abs(F - 0.5) * wrong


#: ``max_degree="auto"`` of the ensemble is 3 while the triples' work N L^3 / 6 stays below this
AUTO_DEGREE_WORK = 1e8


def dro_max_degree(max_degree: int | str, shape: tuple[int, int]) -> int:
    """The ensemble's ``max_degree``: ``"auto"`` is 3 when :math:`N L^3 / 6 \\le 10^8`
    for ``shape = (N, L)``, else 2 (:class:`DRORuleEnsembleClassifier`, ``max_degree``); a
    number is returned as it is."""
    if max_degree != "auto":
        return resolve_max_degree(max_degree, shape)
    n, n_lit = shape
    return 3 if n * n_lit ** 3 / 6.0 <= AUTO_DEGREE_WORK else 2


#: under time_limit, the seconds a member's master IP and a combination IP get at least
#: (a solver given less returns no solution at all)
MIN_IP_SECONDS = 1.0


def _uniform(q: np.ndarray) -> bool:
    """Whether the empirical pmf ``q`` is uniform (no ``sample_weight``, or equal weights)."""
    return bool(np.all(q == q[0]))


def _empirical(w: np.ndarray) -> np.ndarray:
    """The weights ``w`` (all > 0) as a pmf: exactly ``1/N`` each when they are equal, so
    equal weights give the fit of no weights."""
    w = np.asarray(w, dtype=float)
    if _uniform(w):
        return np.full(w.size, 1.0 / w.size)
    return w / w.sum()


def _share(correct: np.ndarray, q: np.ndarray) -> float:
    """The weight ``q`` of the rows where ``correct`` holds, as a share of ``q``'s sum."""
    if _uniform(q):
        return float(np.mean(correct))
    return float(q @ np.asarray(correct, dtype=float) / q.sum())


def _divergence(p: np.ndarray, q: np.ndarray, divergence: str) -> float:
    r""":math:`D_\phi(P, Q)` of ``p`` from the empirical pmf ``q``
    (:func:`~optirules.models.phi_divergence` with ``reference=q``)."""
    from ..models import phi_divergence

    return phi_divergence(p, divergence, reference=None if _uniform(q) else q)


def _robust(z: np.ndarray, rho: float, divergence: str,
            q: np.ndarray | None = None) -> tuple[float, np.ndarray]:
    r"""The robust loss :math:`R = \max_P P z` over the ball around the empirical pmf ``q``
    (uniform when None) and its maximizer."""
    from ..models import worst_case_pmf

    p = worst_case_pmf(z, rho, divergence,
                       reference=None if q is None or _uniform(q) else q)
    return float(p @ z), p


@one_vs_rest
class DRORuleEnsembleClassifier(RulesTableMixin, OneVsRestMixin, _RuleInputMixin, ClassifierMixin,
                                SQLMixin, BaseEstimator):
    r"""A sparse convex combination of DNF rule sets trained by DRO (the DRO paper §3).

    See the module docstring for the algorithm (eqs 2, 4, 5, 9, 10-14) and for the
    adaptive selection of the returned ensemble.  Members are fitted by column generation
    (:func:`~optirules.models.column_generation`, the same engine as
    :class:`~optirules.learners.BooleanRuleSetClassifier`) in the budget form of the DRO paper
    (eq 8 with :math:`C = \mathfrak{C}'`).

    Parameters
    ----------
    complexity : float, default 30
        Overall budget :math:`\mathfrak{C}` of the returned combination (rules plus
        literals of the members with :math:`v_k > 0`).
    member_complexity : float, sequence of float or None, default None
        Budget :math:`\mathfrak{C}'` of each member; ``None`` chooses it from
        :math:`\{\mathfrak{C}/3, \mathfrak{C}\}` by ``selection`` (module docstring;
        :math:`\mathfrak{C}/3` for ``selection="last"`` and ``loss="binary"``), a sequence
        from its values (``(10, 15, 30)``: the grid of earlier versions at
        :math:`\mathfrak{C} = 30`).  Each must be ``<= complexity``.
    rho : float, default 0.1
        Radius of the divergence ball.
    divergence : {"chi2", "kl"}, default "chi2"
    n_estimators : int, default 10
        Most members grown for each member budget (the DRO paper's iterations
        :math:`n = 1, \dots`, one member :math:`h_n` each); ``n_iter_no_change`` may stop
        a budget's loop earlier.
    loss : {"margin", "binary"}, default "margin"
        ``"margin"``: the DRO paper §3 (loss 2 on the running average).  ``"binary"``: the
        single-rule-set variant of §4.1 that cycles.
    selection : {"robust_loss", "validation", "last"}, default "robust_loss"
        How :math:`\mathfrak{C}'` (when ``None``) and the returned ensemble are chosen among
        the per-iteration candidates: training robust loss (the paper's reading), held-out
        accuracy, or the last iteration (module docstring).
    validation_fraction : float, default 0.25
        Held-out share for ``selection="validation"`` (a stratified split).  When a class
        has too few rows to split, the choice falls back to ``"robust_loss"``
        (``selection_`` says so).
    refit : bool, default True
        ``selection="validation"``: rerun the loop on all rows with the chosen
        :math:`\mathfrak{C}'` up to the chosen iteration (True), or return the ensemble
        fitted on the inner split (False).
    margin : float or None, default None
        The paper's margin :math:`\Delta` of the combination IP (None: the model's default
        :math:`\min(\min_k c(h_k) / (2\mathfrak{C}), 1/4)`).
    member : BooleanRuleSetClassifier or None, default None
        The rule set whose column-generation settings every member uses: ``lambda0``,
        ``lambda1`` (penalties added to each member's master; 0: the pure budget form of
        the DRO paper), ``max_degree``, ``pricing``, ``exact_method``, ``beam_width``,
        ``n_columns``, ``max_iter``, ``tol``, ``pricing_time_limit``, ``mip_gap``,
        ``solver``, ``binarizer`` and ``backend``.  ``None``:
        ``BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0)``, the DRO paper's
        budget-form member (eq 8 with :math:`C = \mathfrak{C}'`) whose column generation
        runs until pricing proves the restricted LP optimal.  What the ensemble decides
        itself -- the member's budget (``member_complexity``), the time limit, the class
        weights, the seed and the log -- is refused on the member (its ``complexity``,
        ``time_limit``, ``class_weight``, ``random_state``, ``verbose``, ``warm_start``,
        ``form``, ``target_class`` must keep their defaults).  ``max_degree="auto"`` is
        resolved by :func:`dro_max_degree`: 3 when :math:`N L^3 / 6 \le 10^8` (``N`` rows,
        ``L`` literals; :data:`AUTO_DEGREE_WORK`), else 2 -- a smaller degree than the rule
        set's own ``"auto"``, because the ensemble prices clauses for every member
        (``benchmarks/results/dro_small.md``, ``benchmarks/results/dro.md``); the paper
        fixes no degree.  ``mip_gap`` is the relative gap at which each member's master IP
        (eqs 6-8 over the member's pool) stops (each member's gap against the LP bound
        over all clauses is in ``member_results_``); a member whose incumbent is already
        within it of the restricted LP's optimum solves no IP
        (:func:`~optirules.models.column_generation` with ``skip_ip=True``).
    n_iter_no_change : int or None, default 1
        Stop growing members for one :math:`\mathfrak{C}'` once this many members in a row
        have not improved its best candidate (least training robust loss, then cost, the
        key of ``selection="robust_loss"``, in every selection mode); ``None`` grows
        ``n_estimators`` members, the paper's fixed number of iterations.  The loop is
        deterministic, so a stopped run is the first members of the full one.  The default
        was chosen by the runs of ``benchmarks/results/dro_defaults.md`` and
        ``benchmarks/results/dro_small.md``.
    time_limit : float or None, default None
        Wall-clock seconds for the whole fit (members, pmfs, combination IPs, refit), the
        one limit in seconds of the ensemble (its node bounds are
        ``combination_max_nodes`` and ``member_ip_max_nodes``); when
        it is hit the best ensemble so far is returned and ``status_`` says so, and the
        result depends on the machine's speed (module docstring).  With more than two
        classes the one-vs-rest ensembles share it (:mod:`optirules.learners._multiclass`).
    combination_max_nodes : int or None, default 1000
        Branch-and-bound nodes of each combination IP (eqs 11-14; HiGHS's
        ``mip_max_nodes``, or the node limit of the MILP solver named by ``solver``).  When
        it stops an IP the candidate is its best incumbent, with its gap (``candidates_``:
        ``status``, ``gap``, ``limit``; ``status_`` counts them).  A bound in nodes does not
        depend on the machine's speed or load.  The IP has one binary variable per
        distinct member of the loop (at most ``n_estimators``), so the bound binds mostly
        with many members.  ``None``: no node bound.
    member_ip_max_nodes : int or None, default 1
        Branch-and-bound nodes of each member's master IP (HiGHS's ``mip_max_nodes``;
        1: the root with its cuts and heuristics); the member is the better of the IP's
        best rule set and column generation's incumbent (local search, or the restricted
        LP rounded), after the columns whose LP reduced cost rules them out are dropped.
        ``None``: each member's IP runs to ``mip_gap`` -- the paper's exact member (to that
        gap), and the default of earlier versions.  The bound applies where the IP goes to
        HiGHS's MILP (``solver`` HiGHS, :math:`\mathfrak{C}' \ge 8` and fewer label-1 rows
        than :data:`~optirules.models.BRANCH_AND_BOUND_ROWS`); larger IPs go to branch and
        bound over the dual LP, smaller budgets to enumeration, both exact to ``mip_gap``.
        The default was chosen by the runs of ``benchmarks/results/dro_small.md``.
    member_warm_start : {"support", "members", "pool", "none"}, default "support"
        The clauses each member's column generation starts from (margin loss only; the
        binary loss always starts empty, so a repeat proves a cycle; the first member of
        each :math:`\mathfrak{C}'` starts empty).  ``"support"``: the clauses of the
        members so far and of the previous member's final restricted LP with
        :math:`w_k > 0` (the columns that carry that LP's optimum;
        :func:`~optirules.models.column_generation` ``info["lp_support"]``);
        ``"members"``: the members' clauses alone; ``"pool"``: the whole pool generated
        for the previous member, which holds every earlier pool; ``"none"``: the empty
        pool.  The pmf :math:`P^n` changes the master's weights, not its columns, so
        columns priced before are valid starting columns, and the starting pool changes
        the path of column generation, not what it solves: each member is the master IP
        (eqs 6-8) over its final pool.  ``"support"`` is the default on a benchmark result
        (``benchmarks/results/dro_warm_start.md``: 10 data sets, 5 folds, against
        ``"members"``: higher mean held-out accuracy and less CPU time per fold).
        ``"pool"`` needs fewer column-generation iterations still, but hands the master
        IP the largest pool, which made the whole fit slower on the largest data set.
    solver : str, mapping or None, default None
        The solver of the members (as the rule set's ``solver``) and of the combination
        IPs; ``None``: the member's ``solver``.
    random_state : int or None, default None
        Seeds the validation split and HiGHS.  The fit is deterministic given it.
    n_jobs : int or None, default None
        Member budgets :math:`\mathfrak{C}'` whose loops run at the same time (joblib, its
        default process backend; ``-1``: every core).  The loops are independent (each
        has its own pricer), so the model does not depend on ``n_jobs``; with
        ``time_limit`` every loop runs to the deadline instead of the later ones being
        skipped.  The loops' log records stay in the worker processes.  On magic_gamma
        ``n_jobs=2`` nearly halves the fit time, with the same model
        (``benchmarks/results/dro_n_jobs.md`` against ``dro.md``).
    verbose : bool, default False
        Show a progress bar (tqdm) over the members of each :math:`\mathfrak{C}'`, its
        postfix updated at every column-generation iteration inside the member (LP
        objective, pool size) and after each member (robust loss), so the first update
        comes after one restricted-master solve and one pricing round.  Independently of
        ``verbose``, the fit logs through :mod:`logging` under the logger
        ``"optirules.learners.dro_ensemble"``: one INFO record at the start, per member and
        at the end, one DEBUG record per column-generation iteration.
    class_weight : None, "balanced" or dict {label: weight}, default None
        Multiplies ``sample_weight`` by the weight of each row's class (scikit-learn's).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        With more than two classes the estimator fits one ensemble per class against the
        rest (``estimators_``, :mod:`optirules.learners._multiclass`), each with the
        attributes below.
    estimators_ : list of DRORuleEnsembleClassifier
        Only with more than two classes: the ensemble of ``classes_[k]`` (coded 1) against
        the rest (0).  The one-vs-rest fit's ``status_`` names the classes that
        ``time_limit`` cut short (``cut_classes_``, ``class_status_``,
        ``class_time_limits_``: :mod:`optirules.learners._multiclass`).
    members_ : list of RuleSet
        :math:`h_1, \dots, h_n` in the order generated (a member may repeat).
    weights_ : ndarray of shape (n_members,)
        The returned combination :math:`v` (on the simplex; zero for unused members).
    member_costs_ : ndarray
        :math:`c(h_k)`.
    complexity_ : int
        Cost of the returned combination, :math:`\sum_{v_k > 0} c(h_k)`.
    pmf_history_ : ndarray of shape ``(n_estimators_ + 1, n_samples)``
        :math:`P^0, P^1, \dots` (on the rows the loop ran on).
    robust_loss_history_ : ndarray of shape ``(n_estimators_,)``
        :math:`R(F_n)` (margin loss) or :math:`R(h_n)` (binary loss).
    divergence_history_ : ndarray
        :math:`D_\phi(P^n, P^0)` of each pmf (all :math:`\le \rho`).
    candidates_ : list of dict
        Per candidate: ``iteration``, ``pmf`` ("worst_case"/"empirical"), ``weights``,
        ``cost``, ``robust_loss``, ``train_accuracy``, ``objective``, ``status``
        (``"optimal"``, or which bound stopped the combination IP), ``gap`` (the IP's
        relative gap: 0 when optimal, NaN without an IP), ``limit`` (the parameter whose
        bound stopped the IP, or None) (and ``validation_accuracy`` with
        ``selection="validation"``).
    selected_ : int
        Index into ``candidates_`` of the returned ensemble.
    member_results_ : list of dict
        Per member: ``gap``, ``gap_certified``, ``lp_bound``, ``ip_objective``,
        ``status``, ``fit_time``, ``cg_iterations``, ``pool_size``.
    history_ : list of dict
        One record per member grown, in order, over every loop of the fit (each
        :math:`\mathfrak{C}'` tried, the validation runs and the refit): ``member_complexity``,
        ``iteration``, ``rows`` (rows the loop ran on), the seconds of each step --
        ``member_time`` (the member's column generation, ``member_cg_time``, plus its master
        IP, ``member_ip_time``), ``pmf_time`` (eq 9) and ``combination_time`` (the
        combination IPs of that iteration) -- and ``cg_iterations``, ``initial_pool``,
        ``pool_size``, ``robust_loss``.
    cycle_detected_, cycle_start_, cycle_length_
        Binary loss only: whether (and where, 1-based) the iterates started to repeat.
    member_complexity_ : float
        The member budget :math:`\mathfrak{C}'` of the returned ensemble.
    member_complexity_results_ : list of dict
        Per :math:`\mathfrak{C}'` tried: ``member_complexity``, ``score`` (best held-out
        accuracy, or least robust loss), ``iteration``, ``pmf``, ``n_estimators`` (members
        grown), ``stopped_early`` (``n_iter_no_change`` ended the loop), ``fit_time``.
    selection_ : str
        The selection used (``"robust_loss"`` after a fallback from ``"validation"``, with
        the reason).
    refitted_ : bool
        Whether the returned ensemble was refitted on all rows.
    status_ : str
        ``"completed"``, or ``"time_limit: ..."`` when ``time_limit`` stopped the fit; when
        a bound stopped combination IPs, followed by ``"; combination IPs: ..."`` naming
        the bound (``combination_max_nodes`` or ``time_limit``), how many IPs it stopped, the largest gap among them and the gap of
        the returned candidate's IP; a wall-clock bound adds that the result depends on
        the machine's speed.
    n_estimators_ : int
        Members grown in the loop of the returned ensemble (fewer than ``n_estimators``
        when ``time_limit`` or ``n_iter_no_change`` stopped it).
    class_prior_ : float
        The training share of ``classes_[1]`` (under :math:`P^0`): the prior mean of the
        vote levels' scores.
    vote_levels_ : ndarray
        The distinct votes :math:`F(x_i)` of the training rows, increasing.
    vote_level_support_, vote_level_positives_ : ndarray
        Per level, the training rows :math:`n_j` on it (the row count; with
        ``sample_weight`` the sum of the rows' weights) and those of ``classes_[1]``
        :math:`k_j`.
    vote_level_scores_ : ndarray
        Per level, the smoothed share :math:`(k_j + m\pi)/(n_j + m)` made non-decreasing
        in the vote (:meth:`predict_proba`).
    n_iter_ : ndarray of int, shape ``(n_estimators_,)``
        Column-generation iterations of each member of that loop (each ``<= max_iter``);
        one-vs-rest: shape (n_classes,), the most any member of each class's ensemble took.
    binarizer_ : FeatureBinarizer or None
        The fitted binarizer; None when ``X`` was taken as it is (0/1 columns).
    input_summary_ : str
        One line on what ``fit`` did with ``X``; the last line of ``str(model)``.
    fit_time_ : float
    """

    _table_builder = staticmethod(dro_table)

    def __init__(self, complexity: float = 30.0, *, member_complexity: float | None = None,
                 rho: float = 0.1, divergence: str = "chi2", n_estimators: int = 10,
                 loss: str = "margin", selection: str = "robust_loss",
                 validation_fraction: float = 0.25, refit: bool = True,
                 margin: float | None = None, member: Any = None,
                 n_iter_no_change: int | None = 1, time_limit: float | None = None,
                 combination_max_nodes: int | None = 1000,
                 member_ip_max_nodes: int | None = 1, solver: Any = None,
                 member_warm_start: str = "support",
                 random_state: Any = None, n_jobs: int | None = None,
                 verbose: bool = False, class_weight: Any = None) -> None:
        self.complexity = complexity
        self.member_complexity = member_complexity
        self.rho = rho
        self.divergence = divergence
        self.n_estimators = n_estimators
        self.loss = loss
        self.selection = selection
        self.validation_fraction = validation_fraction
        self.refit = refit
        self.margin = margin
        self.member = member
        self.n_iter_no_change = n_iter_no_change
        self.time_limit = time_limit
        self.combination_max_nodes = combination_max_nodes
        self.member_ip_max_nodes = member_ip_max_nodes
        self.solver = solver
        self.member_warm_start = member_warm_start
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.class_weight = class_weight

    # ------------------------------------------------------------------ the member
    def _member_estimator(self) -> Any:
        """The rule set whose settings the members use (``member``, or the default)."""
        from ._rule_set import BooleanRuleSetClassifier

        if self.member is None:
            return BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0)
        if not isinstance(self.member, BooleanRuleSetClassifier):
            raise InputError(f"member must be a BooleanRuleSetClassifier (or None), got "
                             f"{type(self.member).__name__}.")
        return self.member

    def _member_setting(self, name: str) -> Any:
        return self._member_estimator().get_params(deep=False)[name]

    # the members' column-generation settings (read by the shared rule-set input code)
    lambda0 = property(lambda self: self._member_setting("lambda0"))
    lambda1 = property(lambda self: self._member_setting("lambda1"))
    binarizer = property(lambda self: self._member_setting("binarizer"))

    def _solver(self) -> Any:
        """``solver``, or the member's."""
        return self._member_setting("solver") if self.solver is None else self.solver

    def _milp_solver(self) -> str:
        """The solver named for the MILP part (the member IPs and the combination IPs)."""
        return split_solver(self._solver())[1]

    #: member parameters the ensemble decides itself (they must keep their defaults)
    _ENSEMBLE_OWNS = ("complexity", "time_limit", "class_weight", "random_state", "verbose",
                      "warm_start", "form", "target_class")

    def _check_member(self) -> None:
        """The member is a rule set whose own checks pass, with the ensemble's parts at
        their defaults."""
        member = self._member_estimator()
        defaults = type(member)().get_params(deep=False)
        own = member.get_params(deep=False)
        for name in self._ENSEMBLE_OWNS:
            if own[name] is not defaults[name] and own[name] != defaults[name]:
                raise InputError(
                    f"member={member!r} sets {name}={own[name]!r}, which the ensemble "
                    f"decides itself; leave it at its default and set the ensemble's "
                    f"{'member_complexity' if name == 'complexity' else name} instead.")
        if self.solver is not None:
            member = clone(member).set_params(solver=self.solver)
        member._check_params()

    #: the members' settings that were the ensemble's own parameters before ``member``
    _MEMBER_SETTINGS = ("lambda0", "lambda1", "max_degree", "pricing", "beam_width",
                        "n_columns", "max_iter", "mip_gap", "binarizer")

    @classmethod
    def _upgrade_params(cls, params: dict[str, Any]) -> dict[str, Any]:
        """Saved parameters of the layout before ``member`` (the members' settings among
        the ensemble's own, two time limits in seconds) in today's: the settings become
        the member's, the per-IP time limits are dropped (the fit's ``time_limit`` is the
        one limit; they only shaped the fit, not the saved model)."""
        moved = {k: params.pop(k) for k in cls._MEMBER_SETTINGS if k in params}
        params.pop("combination_time_limit", None)
        params.pop("member_ip_time_limit", None)
        if moved and "member" not in params:
            member = {"lambda0": 0.0, "lambda1": 0.0, "tol": 0.0, **moved}
            params["member"] = {"__estimator__": "BooleanRuleSetClassifier",
                                "params": member}
        return params

    # ------------------------------------------------------------------ validation
    def _check_params(self) -> None:
        self._check_member()
        if not _is_number(self.complexity, 2.0):
            raise InputError(f"complexity must be a number >= 2 (the overall budget C), got "
                             f"{self.complexity!r}.")
        mc = self.member_complexity
        if mc is not None:
            many = isinstance(mc, (list, tuple, np.ndarray))
            values = list(mc) if many else [mc]
            if not values or not all(_is_number(v, 2.0) for v in values):
                raise InputError(f"member_complexity must be None, a number >= 2 or a "
                                 f"non-empty sequence of them, got {mc!r}.")
            if max(float(v) for v in values) > float(self.complexity):
                raise InputError(
                    f"member_complexity ({mc}) exceeds complexity "
                    f"({self.complexity}); a member must fit the overall budget."
                )
            if many and len(values) > 1 and (self.loss == "binary"
                                              or self.selection == "last"):
                raise InputError(f"member_complexity={mc!r}: loss='binary' and "
                                 "selection='last' take one member budget.")
        if not _is_number(self.rho):
            raise InputError(f"rho must be a finite number >= 0, got {self.rho!r}.")
        if self.divergence not in DIVERGENCES:
            raise InputError(f"divergence must be one of {DIVERGENCES}, got "
                             f"{self.divergence!r}.")
        if self.member_warm_start not in WARM_STARTS:
            raise InputError(f"member_warm_start must be one of {WARM_STARTS}, got "
                             f"{self.member_warm_start!r}.")
        if self.loss not in LOSSES:
            raise InputError(f"loss must be one of {LOSSES}, got {self.loss!r}.")
        if self.selection not in SELECTIONS:
            raise InputError(f"selection must be one of {SELECTIONS}, got {self.selection!r}.")
        if not (_is_number(self.validation_fraction, 0.0, strict=True)
                and self.validation_fraction < 1):
            raise InputError(f"validation_fraction must be in (0, 1), got "
                             f"{self.validation_fraction!r}.")
        if not isinstance(self.refit, (bool, np.bool_)):
            raise InputError(f"refit must be True or False, got {self.refit!r}.")
        if self.margin is not None and not (_is_number(self.margin) and self.margin < 0.5):
            raise InputError(f"margin must be None or in [0, 1/2), got {self.margin!r}.")
        if self.n_jobs is not None and (not _is_int(self.n_jobs, -(2**31)) or self.n_jobs == 0):
            raise InputError(f"n_jobs must be None or a nonzero int (joblib's: -1 for every "
                             f"core), got {self.n_jobs!r}.")
        if self.member_ip_max_nodes is not None and not _is_int(self.member_ip_max_nodes, 1):
            raise InputError(f"member_ip_max_nodes must be None or an int >= 1, got "
                             f"{self.member_ip_max_nodes!r}.")
        if self.combination_max_nodes is not None and not _is_int(self.combination_max_nodes,
                                                                  1):
            raise InputError(f"combination_max_nodes must be None or an int >= 1, got "
                             f"{self.combination_max_nodes!r}.")
        if self.n_iter_no_change is not None and not _is_int(self.n_iter_no_change, 1):
            raise InputError(f"n_iter_no_change must be None or an int >= 1, got "
                             f"{self.n_iter_no_change!r}.")
        for name, value in (("n_estimators", self.n_estimators),
                            ("time_limit", self.time_limit)):
            ok = (_is_int(value) if name == "n_estimators"
                  else value is None or _is_number(value, 0.0, strict=True))
            if not ok:
                raise InputError(f"{name} must be "
                                 f"{'an integer >= 1' if name == 'n_estimators' else 'None or a positive number of seconds'}"
                                 f", got {value!r}.")

    def _seed(self) -> int:
        rs = self.random_state
        if rs is None:
            return 0
        if _is_int(rs, 0):
            return int(rs) % (2**31 - 1)
        if isinstance(rs, np.random.RandomState):
            return int(rs.randint(2**31 - 1))
        raise InputError(f"random_state must be None or an int >= 0, got {rs!r}.")

    def _budgets(self) -> list[float]:
        """The member budgets C' to try (one when fixed, or for "last" / the binary loss)."""
        mc = self.member_complexity
        C = float(self.complexity)
        if mc is not None:
            grid = [float(v) for v in (mc if isinstance(mc, (list, tuple, np.ndarray))
                                       else [mc])]
        elif self.loss == "binary" or self.selection == "last":
            return [max(2.0, C / 3.0)]
        else:
            grid = [max(2.0, C * f) for f in MEMBER_FRACTIONS]
        out: list[float] = []
        for b in grid:
            if all(abs(b - o) > 1e-9 for o in out):
                out.append(b)
        return out

    # ------------------------------------------------------------------ time
    def _remaining(self) -> float | None:
        if self._deadline is None:
            return None
        return max(0.0, self._deadline - time.perf_counter())

    def _expired(self) -> bool:
        return self._deadline is not None and time.perf_counter() >= self._deadline

    # ------------------------------------------------------------------ fitting
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> DRORuleEnsembleClassifier:
        """Grow the collections, solve the combination IPs and select the ensemble.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Raw features (numeric, categorical, missing) with ``binarizer="auto"``; 0/1
            features with ``binarizer=None``.
        y : array-like of shape (n_samples,)
            Class labels: two, or more (one ensemble per class against the rest).
        sample_weight : array-like of shape (n_samples,), optional
            The empirical pmf :math:`P^0` (normalized to sum 1; rows of weight 0 are
            dropped), the centre of the divergence ball; uniform by default (the DRO
            paper).  Multiplied by the class weights of ``class_weight``.  An integer
            weight counts as that many copies of the row.

        Returns
        -------
        self
        """
        t0 = time.perf_counter()
        self._check_params()
        sample_weight = class_sample_weight(self.class_weight, y, sample_weight)
        if self._fit_one_vs_rest(X, y, sample_weight):  # K > 2 classes: K binary ensembles
            self.n_iter_ = np.array([int(e.n_iter_.max()) for e in self.estimators_])
            return self
        X_fit, classes, ypos, q, keep = weighted_rows(X, y, sample_weight, "a rule ensemble")
        sw = None if sample_weight is None else \
            np.asarray(sample_weight, dtype=float).reshape(-1)[keep]
        ypos = ypos[keep]
        n = int(keep.sum())
        q = _empirical(q[keep])
        # the rows weigh this many rows in all (the sum of sample_weight): vote levels' counts
        self._total_weight = float(n) if sw is None else float(sw.sum())
        self._deadline = None if self.time_limit is None else t0 + float(self.time_limit)
        self._history: list[dict[str, Any]] = []
        A = self._literal_matrix(X_fit, reset=True, sample_weight=sw)
        # the members' penalties ("auto" resolved for the rows' total weight)
        self.lambda0_, self.lambda1_ = self._penalties(self._total_weight)
        self.classes_ = classes
        self.max_degree_ = dro_max_degree(self._member_setting("max_degree"), A.shape)
        seed = self._seed()
        budgets = self._budgets()
        n_iter = int(self.n_estimators)
        _LOG.info("fit on %d rows, %d literals (max_degree %d): member budgets C' %s, %d "
                  "members each, loss %s, selection %s", A.shape[0], A.shape[1],
                  self.max_degree_, [f"{b:g}" for b in budgets], n_iter, self.loss,
                  self.selection)
        selection = self.selection if self.loss == "margin" else "robust_loss"
        split = None
        if selection == "validation":
            from sklearn.model_selection import train_test_split

            try:
                split = train_test_split(np.arange(n), test_size=float(self.validation_fraction),
                                         stratify=ypos, random_state=seed)
                q_tr, q_va = _empirical(q[split[0]]), _empirical(q[split[1]])
            except ValueError as exc:
                selection = f"robust_loss (no stratified validation split: {exc})"
        self.selection_ = selection if self.loss == "margin" else self.selection
        results: list[dict[str, Any]] = []
        every: list[dict[str, Any]] = []  # the candidates of every loop, for status_
        self._members_left = len(budgets) * n_iter
        refitted = False
        if split is not None:
            tr, va = split
            if self.refit:
                self._members_left += n_iter
            best = None
            runs = {}
            for bi, run in enumerate(self._loops(A[tr], ypos[tr], n_iter, seed,
                                                 budgets, q_tr)):
                b = run["budget"]
                runs[b] = run
                every.extend(run["candidates"])
                top = None
                for ci, c in enumerate(run["candidates"]):
                    F = np.zeros(len(va))
                    for k in np.flatnonzero(c["weights"]):
                        F += c["weights"][k] * clause_coverage(A[va], run["members"][k]).any(
                            axis=1)
                    acc = _share((F >= VOTE_CUT) == ypos[va], q_va)
                    c["validation_accuracy"] = acc
                    key = (-acc, c["cost"], bi, c["iteration"])
                    if top is None or key < top[0]:
                        top = (key, ci)
                c = run["candidates"][top[1]]
                results.append({"member_complexity": b, "score": c["validation_accuracy"],
                                "iteration": c["iteration"], "pmf": c["pmf"],
                                "n_estimators": len(run["members"]),
                                "stopped_early": run["stopped_early"] is not None,
                                "fit_time": run["fit_time"]})
                if best is None or top[0] < best[0]:
                    best = (top[0], b, top[1])
            _, b, ci = best
            pick = runs[b]["candidates"][ci]
            self.validation_candidates_ = runs[b]["candidates"]
            self.validation_choice_ = {"member_complexity": b, "iteration": pick["iteration"],
                                       "pmf": pick["pmf"]}
            timed_out = any(r["timed_out"] for r in runs.values())
            if self.refit and not timed_out:
                self._members_left = pick["iteration"]
                run = self._run(A, ypos, pick["iteration"], seed, b, early_stop=False,
                                q=q)
                self._history.extend(run["history"])
                every.extend(run["candidates"])
                timed_out = run["timed_out"]
                last = max(c["iteration"] for c in run["candidates"])
                chosen = next(i for i, c in enumerate(run["candidates"])
                              if c["iteration"] == last and c["pmf"] == pick["pmf"])
                refitted = True
            else:
                run, chosen = runs[b], ci
            run["candidates"][chosen]["validation_selected"] = True
            budget = b
        else:
            best = None
            for r in self._loops(A, ypos, n_iter, seed, budgets, q):
                b = r["budget"]
                every.extend(r["candidates"])
                ci = self._choose(r["candidates"])
                c = r["candidates"][ci]
                results.append({"member_complexity": b, "score": c["robust_loss"],
                                "iteration": c["iteration"], "pmf": c["pmf"],
                                "n_estimators": len(r["members"]),
                                "stopped_early": r["stopped_early"] is not None,
                                "fit_time": r["fit_time"]})
                key = (round(c["robust_loss"], 12), c["cost"], len(results))
                if best is None or key < best[0]:
                    best = (key, b, r, ci)
            _, budget, run, chosen = best
            timed_out = run["timed_out"] or any(
                res["n_estimators"] < n_iter and not res["stopped_early"] for res in results)
            refitted = True
        self.member_complexity_ = float(budget)
        self.member_complexity_results_ = results
        self.refitted_ = refitted
        if timed_out:
            done = sum(res["n_estimators"] for res in results)
            self.status_ = (f"time_limit: stopped after {time.perf_counter() - t0:.1f} s "
                            f"(time_limit={self.time_limit}, wall-clock: the result depends "
                            f"on the machine's speed); {done} members grown over "
                            f"{len(results)} of {len(budgets)} member budgets; returned the "
                            "best ensemble found" + ("" if refitted or split is None else
                                                     " on the inner split (no refit)"))
        else:
            self.status_ = "completed"
        self.status_ += self._combination_summary(every, run["candidates"][chosen])
        self._store(run, chosen)
        self._set_vote_scores(A, ypos, q)
        self.history_ = self._history
        self.fit_time_ = time.perf_counter() - t0
        _LOG.info("fit done in %.2f s: %s; C'=%g, candidate %d of %d (iteration %d, %s pmf), "
                  "cost %d, %d members grown", self.fit_time_, self.status_,
                  self.member_complexity_, self.selected_ + 1, len(self.candidates_),
                  self.candidates_[self.selected_]["iteration"],
                  self.candidates_[self.selected_]["pmf"], self.complexity_,
                  len(self._history))
        return self

    def _loops(self, A: np.ndarray, y: np.ndarray, n_iter: int, seed: int,
               budgets: list[float], q: np.ndarray | None = None) -> list[dict[str, Any]]:
        """The DRO loop of each member budget (:meth:`_run`), in the order of ``budgets``:
        one after the other, stopping after a loop the deadline ended, or ``n_jobs`` at a
        time (joblib); each loop's ``history`` joins ``self._history`` in that order."""
        n_jobs = 1 if self.n_jobs is None else int(self.n_jobs)
        if n_jobs != 1 and len(budgets) > 1:
            from joblib import delayed

            runs = parallel(n_jobs=n_jobs)(
                delayed(self._run)(A, y, n_iter, seed, b, q=q) for b in budgets)
        else:
            runs = []
            for b in budgets:
                runs.append(self._run(A, y, n_iter, seed, b, q=q))
                if runs[-1]["timed_out"]:
                    break
        for run in runs:
            self._history.extend(run["history"])
        return runs

    def _member(self, A: np.ndarray, y: np.ndarray, P: np.ndarray, seed: int,
                start: list[Clause], budget: float, pricer: Any, progress: Any = None,
                ) -> tuple[list[Clause], dict[str, Any], Any]:
        """One member's column generation and master IP: (clauses, info, result)."""
        tl = None
        rem = self._remaining()
        if rem is not None:  # a fair share of what is left for the members still planned
            tl = rem / max(1, self._members_left)
        self._members_left = max(0, self._members_left - 1)
        own_ip = self._node_bounded_ip(y, budget)
        t_cg = time.perf_counter()
        res = column_generation(
            A, y, P, complexity=budget, lambda0=self.lambda0_, lambda1=self.lambda1_,
            max_degree=self.max_degree_, pricing=self._member_setting("pricing"),
            exact_method=self._member_setting("exact_method"),
            beam_width=int(self._member_setting("beam_width")), n_columns=int(self._member_setting("n_columns")),
            max_iter=int(self._member_setting("max_iter")), time_limit=tl, tol=float(self._member_setting("tol")),
            pricing_time_limit=self._member_setting("pricing_time_limit"),
            backend=self._member_setting("backend"),
            # own_ip: column generation stops at its incumbent (any gap is "within"), and
            # the node-bounded master IP below decides the member
            mip_gap=1.0 if own_ip else float(self._member_setting("mip_gap")),
            solver=self._solver(), random_seed=seed, initial_clauses=start, master_ip="auto",
            progress=progress, pricer=pricer, skip_ip=True,
        )
        if own_ip:
            # the IP's seconds as column generation gives them: what is left of the
            # member's share (with a floor of MIN_IP_SECONDS)
            ip_tl = None if tl is None else max(tl - (time.perf_counter() - t_cg), MIN_IP_SECONDS)
            res = self._member_ip(A, y, P, res, budget, seed, ip_tl)
        info = {"cg_iterations": len(res.history), "lp_objective": res.lp_objective,
                "converged": res.converged, "gap": res.gap, "absolute_gap": res.absolute_gap,
                "gap_certified": res.certified, "lp_bound": res.lp_bound,
                "ip_objective": res.ip_objective, "status": f"{res.stop_reason}; IP "
                f"{res.ip_status}", "fit_time": res.fit_time,
                "cg_time": res.info.get("cg_time"), "ip_time": res.info.get("ip_time"),
                "ip_columns": res.info.get("ip_columns"), "pool_size": len(res.pool)}
        return res.clauses, info, res

    def _node_bounded_ip(self, y: np.ndarray, budget: float) -> bool:
        """Whether a member's master IP goes through :meth:`_member_ip` (a node bound is set,
        HiGHS is the MILP solver, and column generation would have used the MILP route:
        a budget of at least 8 and fewer label-1 rows than ``BRANCH_AND_BOUND_ROWS``)."""
        from ..models import BRANCH_AND_BOUND_ROWS

        return (self.member_ip_max_nodes is not None and self._milp_solver() == "highs"
                and budget >= 8 and int(np.count_nonzero(y)) < BRANCH_AND_BOUND_ROWS)

    def _member_ip(self, A: np.ndarray, y: np.ndarray, P: np.ndarray, res: Any,
                   budget: float, seed: int, time_limit: float | None = None) -> Any:
        """The member's master IP (eqs 6-8 over the pool column generation ended with) by
        HiGHS within ``member_ip_max_nodes`` branch-and-bound nodes and ``mip_gap`` (and
        ``time_limit`` seconds, when given).

        ``res`` is column generation's result with its incumbent (local search, or the
        restricted LP rounded) as the rule set.  Columns whose LP reduced cost puts every
        IP solution using them above the incumbent are dropped first (reduced-cost fixing,
        as column generation does); the member is the better of the IP's best rule set and
        the incumbent; the gap is against the certified LP bound over all clauses."""
        import dataclasses

        from ..models import HighsRuleMaster, complexity_costs, master_objective, row_prices

        t0 = time.perf_counter()
        l0, l1 = self.lambda0_, self.lambda1_
        pool = list(res.pool)
        incumbent = list(res.clauses)
        ub = master_objective(A, y, P, incumbent, l0, l1)
        z = float(res.lp_objective)
        duals = res.info.get("duals") or {}
        keep = pool
        if pool and "mu" in duals and math.isfinite(z):
            cov = clause_coverage(A, pool)
            rc = (row_prices(y, P, np.asarray(duals["mu"], dtype=float)) @ cov
                  + complexity_costs([len(c) for c in pool], float(duals.get("lam", 0.0)),
                                     l0, l1))
            keep = [c for c, r in zip(pool, rc) if z + max(float(r), 0.0) <= ub + 1e-12]
        chosen, status = incumbent, "incumbent (no column can improve it)"
        gap_rel = float(self._member_setting("mip_gap"))
        if keep and not ub - z <= gap_rel * ub:
            master = HighsRuleMaster(A, y.astype(int), pool, sample_weight=P,
                                     complexity=float(budget), lambda0=l0, lambda1=l1,
                                     options={"mip_max_nodes": int(self.member_ip_max_nodes)})
            try:
                ip = master.solve_ip(keep, mip_gap=gap_rel, random_seed=seed,
                                     time_limit=time_limit)
            except OptirulesError as exc:  # no IP solution within the node or time bound
                found = getattr(getattr(exc, "result", None), "status", None)
                why = str(getattr(found, "value", found) or "no solution")
                status = (f"{why} within member_ip_max_nodes={self.member_ip_max_nodes} "
                          "(no IP solution: the incumbent)")
            else:
                status = f"{ip.status} within member_ip_max_nodes={self.member_ip_max_nodes}"
                if master_objective(A, y, P, ip.selected, l0, l1) <= ub:
                    chosen = list(ip.selected)
                else:
                    status += "; the incumbent was better"
        elif keep:
            status = "incumbent within mip_gap of the LP bound"
        from ..models import prune_redundant

        chosen = prune_redundant(A, y, P, sorted(chosen), l0, l1)
        obj = master_objective(A, y, P, chosen, l0, l1)
        if res.certified:
            bound = min(float(res.lp_bound), obj)
            gap = 0.0 if obj <= 0 else max(0.0, (obj - bound) / obj)
            abs_gap = max(0.0, obj - bound)
        else:
            bound = gap = abs_gap = math.nan
        ip_time = time.perf_counter() - t0
        info = dict(res.info, ip_time=float(res.info.get("ip_time") or 0.0) + ip_time,
                    ip_columns=len(keep), ip_route="node-bounded MILP", ip_nodes=None)
        return dataclasses.replace(res, clauses=chosen, ip_objective=float(obj),
                                   ip_status=status, lp_bound=float(bound), gap=float(gap),
                                   absolute_gap=float(abs_gap),
                                   fit_time=res.fit_time + ip_time, info=info)

    def _run(self, A: np.ndarray, y: np.ndarray, n_iter: int, seed: int,
             budget: float, early_stop: bool = True,
             q: np.ndarray | None = None) -> dict[str, Any]:
        """The DRO loop on (A, y) with member budget C' = ``budget``: members, pmfs, robust
        losses and candidates; stops after the member in progress when the deadline passes.
        ``q``: the empirical pmf :math:`P^0` of the rows (uniform when None)."""
        N = A.shape[0]
        rho, div = float(self.rho), self.divergence
        P = np.full(N, 1.0 / N) if q is None else np.asarray(q, dtype=float).copy()
        P0 = P.copy()
        F = np.zeros(N)
        members: list[list[Clause]] = []
        preds: list[np.ndarray] = []
        infos: list[dict[str, Any]] = []
        pmfs = [P.copy()]
        robust: list[float] = []
        candidates: list[dict[str, Any]] = []
        pool: list[Clause] = []
        support: list[Clause] = []
        pools: list[list[Clause]] = []
        cycle: tuple[int, int] | None = None
        timed_out = False
        patience = (None if self.n_iter_no_change is None or self.loss != "margin"
                    or self.selection == "last" or not early_stop
                    else int(self.n_iter_no_change))
        best_key: tuple[float, int] | None = None
        since = 0
        stopped: int | None = None
        empirical_ips: dict[tuple[int, ...], tuple] = {}
        bar = None
        if self.verbose:
            from tqdm.auto import tqdm

            bar = tqdm(total=n_iter, desc=f"DRO rule ensemble, C'={budget:g}", unit="member")
        # one exact pricer for the members of this loop: its float copy and complement
        # pairs are prepared once, and its sums carry over from member to member
        # (EnumerationPricer, incremental); each loop has its own, so a loop's members do
        # not depend on the loops run before it (or beside it, n_jobs)
        pricer = (EnumerationPricer(A) if self._member_setting("pricing") != "beam" and self.max_degree_ <= 3
                  else None)
        history: list[dict[str, Any]] = []
        t_run = time.perf_counter()
        try:
            for it in range(1, n_iter + 1):
                if it > 1 and self._expired():
                    timed_out = True
                    break
                # warm start (member_warm_start): the members' clauses so far, or the
                # previous member's whole pool (P^n changes the master's weights, not its
                # columns).  Not for the binary loss, where h_{n+1} must depend on P^n
                # alone for a repeat to prove a cycle.
                if self.loss != "margin" or self.member_warm_start == "none":
                    start: list[Clause] = []
                elif self.member_warm_start == "members":
                    start = sorted({c for m in members for c in m})
                elif self.member_warm_start == "support":
                    start = sorted({c for m in members for c in m} | set(support))
                else:
                    start = pool
                tm = time.perf_counter()
                clauses, info, res = self._member(A, y, P, seed, start, budget, pricer,
                                                  self._cg_progress(bar, budget, it))
                step = {"member_complexity": float(budget), "iteration": it, "rows": N,
                        "member_time": time.perf_counter() - tm,
                        "member_cg_time": info["cg_time"], "member_ip_time": info["ip_time"],
                        "cg_iterations": info["cg_iterations"],
                        "initial_pool": len(start), "pool_size": info["pool_size"]}
                pool, support = list(res.pool), list(res.info.get("lp_support", []))
                pools.append(pool)
                h = clause_coverage(A, clauses).any(axis=1) if clauses else np.zeros(N, bool)
                key = frozenset(clauses)
                if self.loss == "binary":
                    z = (h != y).astype(float)
                    if cycle is None:
                        for m, old in enumerate(members):
                            if frozenset(old) == key:
                                cycle = (m + 1, it - (m + 1))
                                break
                else:
                    F = ((it - 1) * F + h) / it
                    z = margin_loss(F, y)
                members.append(clauses)
                preds.append(h)
                infos.append(info)
                # a member cut short by its share of time_limit: the ensemble is too
                if self.time_limit is not None and re.search(r"(?<!\w)time_limit(?!\w)",
                                                             info["status"]):
                    timed_out = True
                tp = time.perf_counter()
                r, P = _robust(z, rho, div, P0)
                step["pmf_time"] = time.perf_counter() - tp
                robust.append(r)
                pmfs.append(P.copy())
                tc = time.perf_counter()
                if self.loss == "margin":
                    for kind, p in (("worst_case", P), ("empirical", P0)):
                        candidates.append(self._combine(
                            preds, members, y, p, it, kind,
                            empirical_ips if kind == "empirical" else None, P0))
                    step["combination_time"] = time.perf_counter() - tc
                else:
                    step["combination_time"] = 0.0
                    w = np.zeros(len(members))
                    w[-1] = 1.0
                    candidates.append({"iteration": it, "pmf": "binary", "weights": w,
                                       "cost": _cost(clauses), "robust_loss": r / 1.0,
                                       "train_accuracy": _share(h == y, P0),
                                       "objective": r, "status": "single member",
                                       "gap": math.nan, "limit": None})
                step["robust_loss"] = r
                history.append(step)
                if patience is not None:  # n_iter_no_change: the best candidate so far
                    key = min((round(c["robust_loss"], 12), c["cost"])
                              for c in candidates[-2:])
                    if best_key is None or key < best_key:
                        best_key, since = key, 0
                    else:
                        since += 1
                _LOG.info("C'=%g member %d/%d on %d rows: cost %d, %d CG iterations, pool %d "
                          "(started from %d), robust loss %.6f; %.2f s (CG %.2f, IP %.2f), "
                          "pmf %.3f s, combination %.2f s", budget, it, n_iter, N,
                          _cost(clauses), step["cg_iterations"], step["pool_size"],
                          step["initial_pool"], r, step["member_time"], step["member_cg_time"],
                          step["member_ip_time"], step["pmf_time"], step["combination_time"])
                if bar is not None:
                    bar.update(1)
                    bar.set_postfix(robust_loss=f"{r:.4f}")
                if patience is not None and since >= patience and it < n_iter:
                    stopped = it
                    _LOG.info("C'=%g: stopped after member %d, the best candidate's robust "
                              "loss unchanged for %d members (n_iter_no_change)", budget, it,
                              since)
                    break
        finally:
            if bar is not None:
                bar.close()
            if pricer is not None:
                pricer.close()
        divs = np.array([_divergence(p, P0, div) for p in pmfs])
        return {"A": A, "y": y, "q": P0, "pools": pools, "history": history,
                "fit_time": time.perf_counter() - t_run, "budget": float(budget),
                "members": members, "preds": preds, "infos": infos, "pmfs": np.array(pmfs),
                "robust": np.array(robust), "candidates": candidates, "cycle": cycle,
                "divergences": divs, "timed_out": timed_out or self._expired(),
                "stopped_early": stopped}

    @staticmethod
    def _cg_progress(bar: Any, budget: float, it: int) -> Any:
        """The ``progress`` callback of column generation: a DEBUG record and the bar's
        postfix at every iteration."""
        debug = _LOG.isEnabledFor(logging.DEBUG)
        if bar is None and not debug:
            return None

        def progress(record: dict[str, Any]) -> None:
            if debug:
                _LOG.debug("C'=%g member %d: CG iteration %d, LP %.6g, %d columns added, "
                           "pool %d, %.2f s", budget, it, record["iteration"],
                           record["lp_objective"], record["columns_added"],
                           record["pool_size"], record["time"])
            if bar is not None:
                bar.set_postfix(member=it, cg_iter=record["iteration"],
                                lp=f"{record['lp_objective']:.5f}", pool=record["pool_size"])

        return progress

    def _combine(self, preds: list[np.ndarray], members: list[list[Clause]], y: np.ndarray,
                 p: np.ndarray, it: int, kind: str,
                 cache: dict[tuple[int, ...], tuple] | None = None,
                 q: np.ndarray | None = None) -> dict[str, Any]:
        """Solve the sparse combination IP (eqs 11-14) over the distinct non-empty members.

        ``cache`` (the empirical pmf's IPs of one loop, keyed by the distinct members): a
        member that repeats an earlier one leaves the IP under :math:`P^0` unchanged, so its
        solution is reused instead of solving the same IP again."""
        from ..models import SparseCombinationModel

        n_members = len(members)
        first: dict[frozenset, int] = {}
        for k, c in enumerate(members):
            if c and frozenset(c) not in first:
                first[frozenset(c)] = k
        cols = sorted(first.values())
        costs = np.array([_cost(members[k]) for k in cols], dtype=float)
        weights = np.zeros(n_members)
        status = "no non-empty member"
        objective = gap = math.nan
        limit = None
        budget = float(self.complexity)
        hit = None if cache is None else cache.get(tuple(cols))
        if hit is not None:
            v, status, objective, gap, limit = hit
            weights[cols] = v
        elif len(cols) == 1 and costs[0] <= budget:
            weights[cols[0]] = 1.0  # one distinct member: sum v = 1 leaves no choice
            status = "single member"
        elif cols and costs.min() <= budget:
            H = np.column_stack([preds[k] for k in cols])
            # rows with the same member votes and label have identical constraints (12/13):
            # merging them (weights added) gives the same IP with far fewer rows
            first, w, _ = aggregate_rows(H, y, p)
            uniq = np.column_stack([H[first], y[first]]).astype(np.int8)
            model = SparseCombinationModel(uniq[:, :-1], uniq[:, -1].astype(int), costs,
                                           budget, margin=self.margin,
                                           sample_weight=w / w.sum())
            # the node bound (deterministic); seconds only from the fit's time_limit (what
            # is left of it, floor MIN_IP_SECONDS)
            tl, clock = None, None
            rem = self._remaining()
            if rem is not None:
                tl, clock = max(rem, MIN_IP_SECONDS), "time_limit"
            nodes = self.combination_max_nodes
            try:
                result = model.solve(self._milp_solver(), time_limit=tl,
                                     max_nodes=None if nodes is None else int(nodes))
            except InputError:
                raise
            except OptirulesError as exc:
                found = getattr(getattr(exc, "result", None), "status", None)
                limit = self._combination_limit(found, clock)
                if limit is None:
                    raise SolverError(
                        f"the combination IP (the DRO paper eqs 11-14) at iteration {it} was "
                        f"not solved ({exc}); try another solver.") from None
                # a bound stopped the IP before any incumbent: the best affordable member
                result = None
                ok = np.flatnonzero(costs <= budget)
                errs = [float(w @ (uniq[:, j] != uniq[:, -1])) for j in ok]
                weights[cols[int(ok[int(np.argmin(errs))])]] = 1.0
                status = (f"no IP solution within {self._limit_text(limit)}; best single "
                          "member")
            if result is not None:
                weights[cols] = model.v_
                objective = float(model.objective_)
                gap = float(result.gap) if math.isfinite(result.gap) else math.nan
                limit = self._combination_limit(result.status, clock)
                status = str(getattr(result.status, "value", result.status))
                if limit is not None:
                    status = (f"{self._limit_text(limit)} reached: best incumbent, gap "
                              f"{gap:.4g}")
                if cache is not None:
                    cache[tuple(cols)] = (weights[cols].copy(), status, objective, gap, limit)
        elif n_members:
            weights[0] = 1.0  # every member is empty: the empty rule set (always negative)
        F = np.zeros(len(y))
        for k in np.flatnonzero(weights):
            F += weights[k] * preds[k]
        z = margin_loss(F, y)
        r, _ = _robust(z, float(self.rho), self.divergence, q)
        return {"iteration": it, "pmf": kind, "weights": weights,
                "cost": int(sum(_cost(members[k]) for k in np.flatnonzero(weights))),
                "robust_loss": r,
                "train_accuracy": _share((F >= VOTE_CUT) == y, np.full(len(y), 1.0 / len(y))
                                         if q is None else q),
                "objective": objective, "status": status, "gap": gap, "limit": limit}

    def _combination_limit(self, status: Any, clock: str | None) -> str | None:
        """The parameter whose bound stopped a combination IP with solve ``status``
        (``combination_max_nodes``, or ``clock``: the fit's ``time_limit``; None without a
        wall-clock limit), or None."""
        from ..solvers import Status

        if status is Status.ITERATION_LIMIT and self.combination_max_nodes is not None:
            return "combination_max_nodes"
        if status in (Status.TIME_LIMIT, Status.INTERRUPTED) and clock is not None:
            return clock
        return None

    def _limit_text(self, limit: str) -> str:
        """How a combination IP's status names the bound ``limit``."""
        if limit == "combination_max_nodes":
            return f"the node limit combination_max_nodes={self.combination_max_nodes}"
        return (f"the wall-clock limit {limit}={getattr(self, limit)} s (the result depends "
                "on the machine's speed)")

    def _combination_summary(self, candidates: list[dict[str, Any]],
                             chosen: dict[str, Any]) -> str:
        """``"; combination IPs: ..."`` for ``status_`` when a bound stopped combination IPs
        of ``candidates`` (every loop of the fit), else ``""``."""
        parts = []
        for limit in ("combination_max_nodes", "time_limit"):
            hit = [c for c in candidates if c.get("limit") == limit]
            if not hit:
                continue
            none = sum(str(c.get("status", "")).startswith("no IP solution") for c in hit)
            gaps = [c["gap"] for c in hit if c.get("gap") is not None
                    and math.isfinite(c["gap"])]
            found = []
            if len(hit) > none:
                found.append(f"{len(hit) - none} best incumbents"
                             + (f", largest gap {max(gaps):.4g}" if gaps else ""))
            if none:
                found.append(f"{none} without an IP solution: the best single member")
            parts.append(f"{self._limit_text(limit)} stopped the IPs of {len(hit)} of "
                         f"{len(candidates)} candidates ({'; '.join(found)})")
        if not parts:
            return ""
        mine = chosen.get("limit")
        gap = chosen.get("gap")
        gap_text = "" if gap is None or not math.isfinite(gap) else f", gap {gap:.4g}"
        own = ("no bound stopped the returned candidate's IP" if mine is None
               else f"the returned candidate's IP was stopped by {mine}{gap_text}")
        return "; combination IPs: " + "; ".join(parts) + "; " + own

    def _choose(self, candidates: list[dict[str, Any]]) -> int:
        if self.selection == "last" or not candidates:
            last = len(candidates) - 1
            if self.loss == "margin" and last >= 1:
                return last - 1  # the worst-case pmf candidate of the last iteration
            return max(last, 0)
        keys = [(round(c["robust_loss"], 12), c["cost"], i) for i, c in enumerate(candidates)]
        return min(keys)[2]

    def _store(self, run: dict[str, Any], chosen: int) -> None:
        pos, neg = json_scalar(self.classes_[1]), json_scalar(self.classes_[0])
        self._train = (run["A"], run["y"], run["pools"])
        self._train_pmf = run["q"]
        self.member_clauses_ = [[tuple(int(j) for j in c) for c in m] for m in run["members"]]
        self.members_ = [RuleSet.from_clauses(m, self.literals_, pos, neg)
                         for m in self.member_clauses_]
        self.member_costs_ = np.array([_cost(m) for m in run["members"]], dtype=float)
        n_members = len(run["members"])
        for c in run["candidates"]:  # weights over all members (later ones get 0)
            w = np.zeros(n_members)
            w[: len(c["weights"])] = c["weights"]
            c["weights"] = w
        self.candidates_ = run["candidates"]
        self.selected_ = int(chosen)
        self.weights_ = np.asarray(self.candidates_[chosen]["weights"], dtype=float)
        self.complexity_ = int(self.candidates_[chosen]["cost"])
        self.pmf_history_ = run["pmfs"]
        self.robust_loss_history_ = run["robust"]
        self.divergence_history_ = run["divergences"]
        self.member_results_ = [dict(i) for i in run["infos"]]
        self.n_estimators_ = len(run["members"])
        self.n_iter_ = np.array([int(i["cg_iterations"]) for i in run["infos"]], dtype=int)
        if self.loss == "binary":
            cyc = run["cycle"]
            self.cycle_detected_ = cyc is not None
            self.cycle_start_ = None if cyc is None else cyc[0]
            self.cycle_length_ = None if cyc is None else cyc[1]

    def _set_vote_scores(self, A: np.ndarray, y: np.ndarray, q: np.ndarray) -> None:
        """``class_prior_`` and the vote levels of the training rows with their counts,
        positives and scores (:meth:`predict_proba`), under the empirical pmf ``q``."""
        F = np.zeros(A.shape[0])
        for k in np.flatnonzero(self.weights_):
            cl = self.member_clauses_[k]
            if cl:
                F += self.weights_[k] * clause_coverage(A, cl).any(axis=1)
        # sums of the same weights in another order differ by round-off: one level
        levels, group = np.unique(np.round(np.clip(F, 0.0, 1.0), 12), return_inverse=True)
        # the empirical pmf P0: a row counts as total * P0_i rows (its sample weight; 1
        # without weights, total = the row count)
        total = float(getattr(self, "_total_weight", len(y)))
        support = total * np.bincount(group, weights=q, minlength=len(levels))
        positives = total * np.bincount(group, weights=q * y, minlength=len(levels))
        self.class_prior_ = _share(y, q)
        self.vote_levels_ = levels
        self.vote_level_support_ = support
        self.vote_level_positives_ = positives
        self.vote_level_scores_ = _monotone_scores(positives, support, self.class_prior_)

    def _ovr_predict_proba(self, X: Any) -> np.ndarray:
        """With more than two classes: ``predict`` is the class of the largest vote
        :math:`F_k` (:mod:`optirules.learners._multiclass`) and the probabilities each
        copy's calibrated score divided by the row's sum; the copies' calibrations differ,
        so on a row where another class holds the largest score the predicted class gets
        that largest score (a hair above it) before the division: ``argmax`` of the
        probabilities is then ``predict``."""
        S = np.column_stack([e.predict_proba(X)[:, 1] for e in self.estimators_])
        k = np.argmax(self._ovr_decision_function(X), axis=1)  # predict's class
        rows = np.flatnonzero(np.argmax(S, axis=1) != k)
        S[rows, k[rows]] = S[rows].max(axis=1) * (1.0 + 1e-9) + 1e-300
        total = S.sum(axis=1, keepdims=True)
        return np.where(total > 0, S / np.where(total > 0, total, 1.0), 1.0 / S.shape[1])

    def _vote_scores(self, F: np.ndarray) -> np.ndarray:
        """The calibrated score of votes ``F``: the level's score, interpolated between
        levels, then on the side of the prediction."""
        if not hasattr(self, "vote_level_scores_"):
            raise InputError("this DRO ensemble was saved without its vote-level scores (an "
                             "older to_json); refit it and save it again for probabilities.")
        s = np.interp(F, self.vote_levels_, self.vote_level_scores_)
        return consistent_with_prediction(s, F >= VOTE_CUT)

    # ------------------------------------------------------------------ prediction
    def decision_function(self, X: Any) -> np.ndarray:
        r""":math:`F(x) = \sum_k v_k h_k(x)` in [0, 1]."""
        check_fitted(self, "weights_")
        if not hasattr(self, "literals_"):  # restored from JSON: evaluate the typed rules
            try:
                validate_data(self, X, reset=False, skip_check_array=True)
            except OptirulesError:
                raise
            except (ValueError, TypeError) as exc:
                raise InputError(f"{exc} Pass the columns the model was fitted on.") from None
            F = np.zeros(n_rows(X))
            for k in np.flatnonzero(self.weights_):
                F += self.weights_[k] * self.members_[k].evaluate(X)
            return F
        A = self._literal_matrix(X, reset=False)
        F = np.zeros(A.shape[0])
        for k in np.flatnonzero(self.weights_):
            cl = self.member_clauses_[k]
            if cl:
                F += self.weights_[k] * clause_coverage(A, cl).any(axis=1)
        return F

    def predict_proba(self, X: Any) -> np.ndarray:
        r"""``[1 - s(x), s(x)]``: the vote :math:`F(x)` calibrated on the training rows.

        The training rows fall on finitely many vote levels :math:`f_1 < \dots < f_J`
        (``vote_levels_``).  Level :math:`j` holds :math:`n_j = N \sum_{i: F(x_i) = f_j}
        P^0_i` rows (``vote_level_support_``; the row count, :math:`P^0` uniform), of which
        :math:`k_j` are ``classes_[1]`` (``vote_level_positives_``), and scores the mean of
        the Beta posterior with prior mean :math:`\pi` (``class_prior_``, the training share
        of ``classes_[1]``) and :math:`m` = ``PRIOR_STRENGTH`` pseudo-rows
        (:mod:`optirules.learners._scores`),

        .. math:: s_j = \frac{k_j + m \pi}{n_j + m},

        made non-decreasing in :math:`f_j` by isotonic regression (pool adjacent
        violators, weights :math:`n_j`): ``vote_level_scores_``.  A row's score is that of
        its level, linearly interpolated between levels for a vote no training row had (the
        end levels' scores beyond them), then moved to the side of :meth:`predict` (above
        1/2 where :math:`F(x) \ge 1/2`, at most 1/2 elsewhere), so that ``argmax`` of the
        probabilities is the prediction.  A probability is 0 or 1 only when the training
        data hold a single class.  :meth:`decision_function` is the vote :math:`F` itself.
        """
        s = self._vote_scores(self.decision_function(X))
        return np.column_stack([1.0 - s, s])

    def predict(self, X: Any) -> np.ndarray:
        r"""``classes_[1]`` where :math:`F(x) \ge 1/2` (the DRO paper, Section 2.4)."""
        F = self.decision_function(X)
        return self.classes_[(F >= VOTE_CUT).astype(int)]

    # ------------------------------------------------------------------ JSON
    def to_json(self, path: str | os.PathLike | None = None, *, indent: int | None = 2) -> str:
        """The fitted ensemble as JSON text (written to ``path`` if given); no pickle.

        Holds the parameters, the members (typed rules), the weights, the robust losses,
        the candidates' iteration / pmf / cost / robust loss and the cycle facts; not the
        pmfs (one float per training row and iteration).  :meth:`from_json` rebuilds an
        ensemble with identical predictions (it evaluates the members' rules on raw data).
        """
        check_fitted(self, "weights_")
        data = {
            **json_header(self, "optirules.DRORuleEnsembleClassifier"),
            "members": [m.to_dict() for m in self.members_],
            "member_clauses": [[list(c) for c in m] for m in self.member_clauses_],
            "weights": [float(w) for w in self.weights_],
            "complexity": int(self.complexity_),
            "robust_loss_history": [float(r) for r in self.robust_loss_history_],
            "candidates": [{k: (v.tolist() if isinstance(v, np.ndarray) else
                                (None if isinstance(v, float) and math.isnan(v) else v))
                            for k, v in c.items()} for c in self.candidates_],
            "selected": int(self.selected_),
            "member_complexity": float(self.member_complexity_),
            "selection": self.selection_, "refitted": bool(self.refitted_),
            "status": self.status_,
            "n_estimators": int(self.n_estimators_),
            "n_iter": [int(i) for i in self.n_iter_],
            "max_degree": int(self.max_degree_),
            "input_summary": getattr(self, "input_summary_", None),
            "cycle": ([self.cycle_start_, self.cycle_length_]
                      if getattr(self, "cycle_detected_", False) else None),
            "scores": {"class_prior": float(self.class_prior_),
                       "vote_levels": [float(v) for v in self.vote_levels_],
                       "vote_level_support": [float(v) for v in self.vote_level_support_],
                       "vote_level_positives": [float(v) for v in
                                                self.vote_level_positives_],
                       "vote_level_scores": [float(v) for v in self.vote_level_scores_]},
        }
        return dump_json(data, path, indent)

    @classmethod
    def from_json(cls, source: str | os.PathLike) -> DRORuleEnsembleClassifier:
        """Rebuild a fitted ensemble from :meth:`to_json` output (text or a file path).

        Every field is checked; a damaged or foreign file raises one
        :class:`~optirules.errors.InputError` naming the field."""
        name = "DRORuleEnsembleClassifier"
        data = load_json(source, f"optirules.{name}", "to_json")
        doc = Field(name, data)
        with damaged_as_input_error(name):
            est = cls(**restore_params(data["params"]))
            load_json_header(est, data)
            est.members_ = [read_rule_set(m) for m in doc["members"].items(min_length=1)]
            for f, m in zip(doc["members"].items(), est.members_):
                check_rule_labels(f, m, est.classes_)
            n_members = len(est.members_)
            est.member_clauses_ = [[tuple(c.counts()) for c in m.items()]
                                   for m in doc["member_clauses"].items(n_members)]
            w = doc["weights"].reals(n_members, lo=0.0)
            if not w.sum() > 0:
                raise doc["weights"].damaged("must hold one finite, non-negative weight per "
                                             "member, not all zero")
            est.weights_ = w
            est.member_costs_ = np.array([m.complexity for m in est.members_], dtype=float)
            est.complexity_ = doc["complexity"].count()
            est.robust_loss_history_ = np.asarray(
                [f.real(null=math.nan, finite=False)
                 for f in doc["robust_loss_history"].items()], dtype=float)
            est.candidates_ = [_read_candidate(c) for c in doc["candidates"].items(min_length=1)]
            est.selected_ = doc["selected"].count(hi=len(est.candidates_) - 1)
            est.member_complexity_ = doc["member_complexity"].real(
                null=math.nan, default=math.nan, finite=False)
            est.selection_ = doc["selection"].string(default=str(est.selection))
            est.refitted_ = doc["refitted"].boolean(default=True)
            est.status_ = doc["status"].string(null="", default="")
            est.n_estimators_ = doc["n_estimators"].count()
            est.n_iter_ = np.asarray(doc["n_iter"].counts(), dtype=int)
            est.max_degree_ = doc["max_degree"].count()
            summary = doc["input_summary"].string(null=None, default=None)
            if summary is not None:
                est.input_summary_ = summary
            check_rule_columns(est, est.members_, name)
            if not doc["scores"].is_null():  # files saved before the scores were kept
                est._load_vote_scores(doc["scores"])  # predict, but refuse probabilities
            if est.loss == "binary":
                cyc = doc["cycle"]
                est.cycle_detected_ = not cyc.is_null()
                start = length = None
                if not cyc.is_null():
                    start, length = (f.count() for f in cyc.items(2))
                est.cycle_start_, est.cycle_length_ = start, length
        return est

    def _load_vote_scores(self, scores: Any) -> None:
        """The vote levels and their scores of :meth:`to_json`, checked: finite, levels
        increasing in [0, 1], scores and the prior in [0, 1], counts >= 0 with
        positives <= support, one of each per level."""
        if not isinstance(scores, Field):
            scores = Field("DRORuleEnsembleClassifier", scores, "scores")
        prior = scores["class_prior"].probability()
        levels = scores["vote_levels"].reals(lo=0.0, hi=1.0)
        n = levels.size
        if n < 1 or np.any(np.diff(levels) <= 0):
            raise scores["vote_levels"].damaged("must be at least one vote level, increasing "
                                                "in [0, 1]")
        support = scores["vote_level_support"].reals(n, lo=0.0)
        positives = scores["vote_level_positives"].reals(n, lo=0.0)
        values = scores["vote_level_scores"].reals(n, lo=0.0, hi=1.0)
        if np.any(positives > support + 1e-9):
            raise scores["vote_level_positives"].damaged("must not exceed the level's "
                                                         "support (vote_level_support)")
        self.class_prior_ = prior
        self.vote_levels_, self.vote_level_support_ = levels, support
        self.vote_level_positives_, self.vote_level_scores_ = positives, values

    # ------------------------------------------------------------------ export
    def export_model(self, path: str | os.PathLike, *,
                     which: str | tuple[str, int] = "combination") -> list[Path]:
        r"""Write an optimization model of this fit as ``.lp`` or ``.mps`` (by the suffix).

        Parameters
        ----------
        path : str or path
            File name ending in ``.lp`` or ``.mps``.
        which : "combination", "members" or ("member", k), default "combination"
            ``"combination"``: the sparse combination IP (the DRO paper, eqs 11-14;
            :class:`~optirules.models.SparseCombinationModel`) of the returned ensemble --
            the distinct non-empty members up to its iteration, the pmf it was solved with
            (:math:`P^n` or :math:`P^0`), the overall budget :math:`\mathfrak{C}` and the
            margin; one row per training row (the fit solves the same IP with identical
            rows merged, so the optimum is the candidate's ``objective``).
            ``("member", k)``: the master IP (eqs 6-8; :class:`~optirules.models.RuleMasterModel`)
            of ``members_[k]`` (0-based) over the clause pool its column generation ended
            with, under the pmf :math:`P^{k}` it was fitted on (``pmf_history_[k]``) and the
            member budget :math:`\mathfrak{C}'`; its optimum is the member's
            ``ip_objective`` (``member_results_``).  ``"members"``: every member's master,
            written as ``<stem>_member<k><suffix>`` next to ``path``.

        Returns
        -------
        list of Path
            The files written.

        Raises
        ------
        InputError
            A bad suffix or ``which``; ``"combination"`` for the binary loss (no combination
            IP) or when every member is empty; a fit of more than two classes (export each
            of ``estimators_``).
        NotFittedError
            Not fitted, or restored from JSON (the training rows are not kept).
        """
        from ..models import RuleMasterModel, SparseCombinationModel

        self._refuse_one_vs_rest("export_model")
        check_fitted(self, "weights_")
        if not hasattr(self, "_train"):
            raise NotFittedError("export_model needs the training rows of this fit; a model "
                                 "restored from JSON cannot rebuild its IPs. Refit it.")
        path = Path(path)
        if path.suffix.lower() not in (".lp", ".mps"):
            raise InputError(f"cannot write {str(path)!r}: use a .lp or .mps suffix.")
        A, y, pools = self._train
        n_members = len(self.member_clauses_)
        if which == "members":
            out = []
            for k in range(n_members):
                p = path.with_name(f"{path.stem}_member{k}{path.suffix}")
                out += self.export_model(p, which=("member", k))
            return out
        if isinstance(which, tuple) and len(which) == 2 and which[0] == "member":
            k = which[1]
            if not _is_int(k, 0) or int(k) >= n_members:
                raise InputError(f"which=('member', k) needs 0 <= k < {n_members}, got {k!r}.")
            k = int(k)
            model = RuleMasterModel(A, y.astype(int), pools[k],
                                    sample_weight=self.pmf_history_[k],
                                    complexity=float(self.member_complexity_),
                                    lambda0=self.lambda0_, lambda1=self.lambda1_)
            model.write(path)
            return [path]
        if which != "combination":
            raise InputError(f"which must be 'combination', 'members' or ('member', k), got "
                             f"{which!r}.")
        if self.loss == "binary":
            raise InputError("the binary loss returns a single member, not a combination: "
                             "export which=('member', k) instead.")
        c = self.candidates_[self.selected_]
        n = int(c["iteration"])
        first: dict[frozenset, int] = {}
        for k, m in enumerate(self.member_clauses_[:n]):
            if m and frozenset(m) not in first:
                first[frozenset(m)] = k
        cols = sorted(first.values())
        if not cols:
            raise InputError("every member of this ensemble is empty: there is no "
                             "combination IP to export.")
        H = np.column_stack([clause_coverage(A, self.member_clauses_[k]).any(axis=1)
                             for k in cols]).astype(np.int8)
        p = (self.pmf_history_[n] if c["pmf"] == "worst_case"
             else getattr(self, "_train_pmf", np.full(len(y), 1.0 / len(y))))
        SparseCombinationModel(H, y.astype(int), self.member_costs_[cols],
                               float(self.complexity), margin=self.margin,
                               sample_weight=p).write(path)
        return [path]

    def _decision_support(self, X: Any) -> tuple[list[list[str]], list[list[str]]]:
        """Per row, the members (weight > 0) voting ``classes_[0]`` and ``classes_[1]``: the
        rules of the member that fired, or that none did."""
        self.decision_function(X)  # checks X as prediction does
        n = n_rows(X)
        neg: list[list[str]] = [[] for _ in range(n)]
        pos: list[list[str]] = [[] for _ in range(n)]
        order = sorted(np.flatnonzero(self.weights_), key=lambda k: (-self.weights_[k], k))
        for k in order:
            member = self.members_[k]
            fired = member.fired(X)
            head = f"member {k + 1} (v = {self.weights_[k]:.4f})"
            for i in range(n):
                idx = np.flatnonzero(fired[i])
                if idx.size:
                    pos[i].append(f"{head}: " + " OR ".join(
                        f"rule {m + 1}: {member.rules[m]}" for m in idx))
                else:
                    neg[i].append(f"{head}: no rule holds")
        return neg, pos

    def explain(self, X: Any):
        """A DataFrame, one row per row of ``X``: ``prediction``, ``score`` (the calibrated
        probability of it, :meth:`predict_proba`), ``rules`` (the members that voted for it, largest
        weight first, with the rules that fired), ``fired`` and ``text``
        (:mod:`optirules.learners._explain`)."""
        return binary_explain(self, X)

    def rules_table(self, X: Any = None, y: Any = None):
        """A DataFrame, one row per rule of every member with a positive weight (one-vs-rest:
        one block per class): ``class``, ``member`` (index into ``members_``), ``weight``,
        ``rule``, ``n_literals``, ``support``, ``precision``, ``recall``.

        Without ``X`` and ``y``: on the training rows the fitted ensemble holds; an ensemble
        loaded from JSON holds none and needs ``X`` and ``y``
        (:mod:`optirules.learners._rules_table`).
        """
        return self._table_builder(self, X, y)


    def __str__(self) -> str:
        return text_or_repr(self, "weights_")

    def to_text(self) -> str:
        """The ensemble: the members with positive weight, one a line."""
        check_fitted(self, "weights_")
        pos = json_scalar(self.classes_[1])
        lines = [f"predict {pos!r} if the weighted vote F(x) >= 1/2 "
                 f"(cost {self.complexity_} of budget {self.complexity}):"]
        for k in np.flatnonzero(self.weights_):
            lines.append(f"  v = {self.weights_[k]:.4f}  member {k + 1}: {self.members_[k]}")
        summary = getattr(self, "input_summary_", "")
        return "\n".join(lines + ([summary] if summary else []))


def _monotone_scores(positives: np.ndarray, support: np.ndarray, prior: float) -> np.ndarray:
    """The levels' smoothed shares (:func:`~optirules.learners._scores.smoothed_share`),
    made non-decreasing in the vote by isotonic regression weighted by the levels' counts."""
    from sklearn.isotonic import isotonic_regression

    raw = smoothed_share(positives, support, prior, PRIOR_STRENGTH)
    if raw.size < 2:
        return raw
    return np.clip(isotonic_regression(raw, sample_weight=np.maximum(support, 1e-12),
                                       increasing=True), 0.0, 1.0)


def _cost(clauses: list[Clause]) -> int:
    return int(sum(1 + len(c) for c in clauses))


def _one_vs_rest_proba_follows_predict(cls: type) -> type:
    """Route ``predict_proba`` of a one-vs-rest fit to ``cls._ovr_predict_proba`` (the
    class's own, which :meth:`~OneVsRestMixin._ovr_explain` also calls) instead of the
    mixin's; two classes: unchanged."""
    routed = cls.predict_proba

    @functools.wraps(routed)
    def predict_proba(self: Any, X: Any) -> np.ndarray:
        if self._is_one_vs_rest():
            return self._ovr_predict_proba(X)
        return routed(self, X)

    cls.predict_proba = predict_proba
    return cls


_one_vs_rest_proba_follows_predict(DRORuleEnsembleClassifier)


def _read_candidate(field: Any) -> dict[str, Any]:
    """One entry of ``candidates_`` as :meth:`DRORuleEnsembleClassifier.to_json` wrote it,
    checked: its weights finite and >= 0, its iteration and cost counts, its other facts
    numbers or text."""
    out: dict[str, Any] = {}
    for key in field.object():
        f = field[key]
        if key == "weights":
            out[key] = f.reals(lo=0.0)
        elif key == "iteration" or (key == "cost" and not isinstance(f.value, float)):
            out[key] = f.count()
        elif key == "cost":
            out[key] = f.real(lo=0.0)
        elif key in ("pmf", "status", "limit"):
            out[key] = f.string(null=None)
        else:
            out[key] = f.real(null=math.nan, finite=False)
    return out
