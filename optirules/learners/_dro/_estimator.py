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

**The members and the returned ensemble (our design: the paper leaves how
:math:`\mathfrak{C}'` and :math:`\mathfrak{C}` are set to an adaptive procedure of its
Section 4, which is not reproduced here).**  After iteration :math:`n` the IP is solved
twice, with the pmf :math:`p = P^n` and with :math:`p = P^0` (the paper reports that both
work), giving two candidate ensembles; every candidate satisfies the same overall budget
:math:`\mathfrak{C}`.

* The members are, by default, the project's default rule set
  (``BooleanRuleSetClassifier()``: the penalty :math:`0.1/\sqrt{n}` per rule and per
  literal added to eq 6, column generation to a 1 % certified gap), so the first member,
  fitted under the uniform pmf, is that rule set, and each later one is the rule set of a
  worst-case reweighting.  The penalty bounds every member, so the member budget is the
  overall one (:math:`\mathfrak{C}' = \mathfrak{C}`), and :math:`\mathfrak{C} = 300` lets
  the combination hold what the penalised members need.  The paper's members are budget
  rule sets without a penalty (``member=BooleanRuleSetClassifier(lambda0=0.0,
  lambda1=0.0, tol=0.0)``, ``complexity=30``): each fills its budget, which on the bundled
  data overfits, and that ensemble was less accurate than the default rule set it is built
  from; with penalised members it is more accurate on average (docs: the DRO paper's page).
* ``member_complexity=None`` (default): :math:`\mathfrak{C}` for penalised members; for
  members without a penalty the member budgets
  :math:`\mathfrak{C}' \in \{\mathfrak{C}/3, \mathfrak{C}\}`
  (:data:`MEMBER_FRACTIONS`) are tried.  A number fixes :math:`\mathfrak{C}'`, a sequence of
  numbers tries each (``(10, 15, 30)`` is the grid :math:`\{\mathfrak{C}/3,
  \mathfrak{C}/2, \mathfrak{C}\}` of earlier versions at :math:`\mathfrak{C} = 30`).  With
  :math:`\mathfrak{C}' = \mathfrak{C}` a candidate holds one member (or several small ones):
  a concept that needs the whole budget (tic-tac-toe's eight lines of three literals cost
  32) stays reachable, which :math:`\mathfrak{C}' = \mathfrak{C}/3` alone is not (a vote
  of rule sets of cost :math:`\le \mathfrak{C}/3` is not their OR).
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

The estimator is put together from the modules of one job each: :mod:`._math` (the
margin loss, the worst-case pmf step, the ``max_degree`` rule, the vote levels' scores),
:mod:`._params` (the parameters' checks), :mod:`._loop` (the DRO loop and the
selection), :mod:`._steps` (a member's column generation and master IP, the
combination IPs, ``export_model``), :mod:`._json` (JSON persistence) and
:mod:`._text` (text and explanations); this module holds the estimator itself: its
parameters, ``fit``, the fitted attributes and prediction.
"""

from __future__ import annotations

import functools
import logging
import time
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import validate_data

from ...data import literal_conflicts
from ...errors import InputError, OptirulesError
from ...models import clause_coverage, split_solver
from .._checks import (
    check_fitted,
    class_sample_weight,
    n_rows,
    weighted_rows,
)
from .._multiclass import OneVsRestMixin, one_vs_rest
from .._rule_model import RuleModelMixin
from .._rule_set._estimator import _RuleInputMixin
from .._rules_table import dro_table
from .._scores import VOTE_CUT, consistent_with_prediction
from ._export import export_model
from ._fitted import set_vote_scores, store_run
from ._json import (
    JSON_FORMAT,
    json_fields,
    load_json_fields,
    upgrade_params,
)
from ._loop import DROFit
from ._math import (
    _empirical,
    dro_max_degree,
    margin_loss,
)
from ._params import PARAMETER_CONSTRAINTS, check_params, fit_seed, member_budgets
from ._text import dro_decision_support, dro_text

__all__ = ["DRORuleEnsembleClassifier", "dro_max_degree", "margin_loss"]

_LOG = logging.getLogger("optirules.learners.dro_ensemble")


@one_vs_rest
class DRORuleEnsembleClassifier(OneVsRestMixin, _RuleInputMixin, RuleModelMixin,
                                ClassifierMixin, BaseEstimator):
    r"""A sparse convex combination of DNF rule sets trained by DRO (the DRO paper §3).

    See the module docstring for the algorithm (eqs 2, 4, 5, 9, 10-14) and for the
    adaptive selection of the returned ensemble.  Members are fitted by column generation
    (:func:`~optirules.models.column_generation`, the same engine as
    :class:`~optirules.learners.BooleanRuleSetClassifier`) in the budget form of the DRO paper
    (eq 8 with :math:`C = \mathfrak{C}'`).

    Parameters
    ----------
    complexity : float, default 300
        Overall budget :math:`\mathfrak{C}` of the returned combination (rules plus
        literals of the members with :math:`v_k > 0`).
    member_complexity : float, sequence of float or None, default None
        Budget :math:`\mathfrak{C}'` of each member; ``None``: :math:`\mathfrak{C}` when the
        member has a penalty (the default member), else chosen from
        :math:`\{\mathfrak{C}/3, \mathfrak{C}\}` by ``selection`` (module docstring;
        :math:`\mathfrak{C}/3` for ``selection="last"`` and ``loss="binary"``); a sequence
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
        ``solver``, ``binarizer`` and ``backend``.  ``None``: ``BooleanRuleSetClassifier()``,
        the default rule set (penalty ``"auto"``, module docstring);
        ``BooleanRuleSetClassifier(lambda0=0.0, lambda1=0.0, tol=0.0)`` is the DRO paper's
        budget-form member (eq 8 with :math:`C = \mathfrak{C}'`) whose column generation
        runs until pricing proves the restricted LP optimal.  What the ensemble decides
        itself -- the member's budget (``member_complexity``), the time limit, the class
        weights, the seed and the log -- is refused on the member (its ``complexity``,
        ``time_limit``, ``class_weight``, ``random_state``, ``verbose``, ``warm_start``,
        ``form``, ``target_class`` must keep their defaults).  ``max_degree="auto"`` is
        resolved by ``dro_max_degree``: 3 when :math:`N L^3 / 6 \le 10^8` (``N`` rows,
        ``L`` literals; ``AUTO_DEGREE_WORK``), else 2 (1 on a table of more than 20,000
        literals, as for the rule set) -- a smaller degree than the rule
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
        classes the one-vs-rest ensembles share it (``optirules.learners._multiclass``).
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
        than ``optirules.models.options.BRANCH_AND_BOUND_ROWS``); larger IPs go to branch and
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
        skipped.  The loops' log records stay in the worker processes.  Running the
        budgets' loops side by side shortens the wall time of a fit on a machine with idle
        cores (``benchmarks/results/dro_n_jobs.md`` against ``dro.md``).
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
        rest (``estimators_``, ``optirules.learners._multiclass``), each with the
        attributes below.
    estimators_ : list of DRORuleEnsembleClassifier
        Only with more than two classes: the ensemble of ``classes_[k]`` (coded 1) against
        the rest (0).  The one-vs-rest fit's ``status_`` names the classes that
        ``time_limit`` cut short (``cut_classes_``, ``class_status_``,
        ``class_time_limits_``: ``optirules.learners._multiclass``).
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
    _parameter_constraints = PARAMETER_CONSTRAINTS
    _fitted_attribute = "weights_"
    _model_kind = "dro"
    _json_format = JSON_FORMAT

    def __init__(self, complexity: float = 300.0, *, member_complexity: float | None = None,
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
        from .._rule_set._estimator import BooleanRuleSetClassifier

        if self.member is None:
            return BooleanRuleSetClassifier()
        if not isinstance(self.member, BooleanRuleSetClassifier):
            raise InputError(f"member must be a BooleanRuleSetClassifier (or None), got "
                             f"{type(self.member).__name__}.")
        if self.member.fairness is not None:
            raise InputError("the DRO ensemble does not take a member with fairness: each "
                             "member is fitted under its own reweighting of the rows, so "
                             "its fairness rows would not bound the ensemble's vote; use "
                             "BooleanRuleSetClassifier(fairness=...) on its own.")
        return self.member

    def _member_setting(self, name: str) -> Any:
        return self._member_estimator().get_params(deep=False)[name]

    def _rule_setting(self, name: str) -> Any:
        """The members' setting ``name``, which the shared rule-set input code reads."""
        return self._member_setting(name)

    def _solver(self) -> Any:
        """``solver``, or the member's."""
        return self._member_setting("solver") if self.solver is None else self.solver

    def _milp_solver(self) -> str:
        """The solver named for the MILP part (the member IPs and the combination IPs)."""
        return split_solver(self._solver())[1]

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
        self._check_forbidden(X_fit)
        # the members' penalties ("auto" resolved for the rows' total weight)
        self.lambda0_, self.lambda1_ = self._penalties(self._total_weight)
        A = self._forbid(self._literal_matrix(X_fit, reset=True, sample_weight=sw))
        self._conflicts = literal_conflicts(self.literals_)  # pairs no member rule holds
        self.classes_ = classes
        self.max_degree_ = dro_max_degree(self._member_setting("max_degree"), A.shape)
        seed = fit_seed(self)
        budgets = member_budgets(self)
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
                tr, va = train_test_split(np.arange(n), test_size=float(self.validation_fraction),
                                          stratify=ypos, random_state=seed)
                split = (tr, va, _empirical(q[tr]), _empirical(q[va]))
            except ValueError as exc:
                selection = f"robust_loss (no stratified validation split: {exc})"
        self.selection_ = selection if self.loss == "margin" else self.selection
        results: list[dict[str, Any]] = []
        every: list[dict[str, Any]] = []  # the candidates of every loop, for status_
        deadline = None if self.time_limit is None else t0 + float(self.time_limit)
        run_state = DROFit(self, deadline, members_left=len(budgets) * n_iter)
        if split is not None:
            budget, run, chosen, timed_out, refitted = run_state._select_on_validation(
                A, ypos, n_iter, seed, budgets, split, q, results, every)
        else:
            budget, run, chosen, timed_out = run_state._select_on_robust_loss(
                A, ypos, n_iter, seed, budgets, q, results, every)
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
        self.status_ += run_state._combination_summary(every, run.candidates[chosen])
        store_run(self, run, chosen)
        set_vote_scores(self, A, ypos, q)
        self.history_ = run_state._history
        self.fit_time_ = time.perf_counter() - t0
        _LOG.info("fit done in %.2f s: %s; C'=%g, candidate %d of %d (iteration %d, %s pmf), "
                  "cost %d, %d members grown", self.fit_time_, self.status_,
                  self.member_complexity_, self.selected_ + 1, len(self.candidates_),
                  self.candidates_[self.selected_]["iteration"],
                  self.candidates_[self.selected_]["pmf"], self.complexity_,
                  len(self.history_))
        return self

    def _ovr_predict_proba(self, X: Any) -> np.ndarray:
        """With more than two classes: ``predict`` is the class of the largest vote
        :math:`F_k` (``optirules.learners._multiclass``) and the probabilities each
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
        if "vote_level_scores_" not in vars(self):
            raise InputError("this DRO ensemble was saved without its vote-level scores (an "
                             "older to_json); refit it and save it again for probabilities.")
        s = np.interp(F, self.vote_levels_, self.vote_level_scores_)
        return consistent_with_prediction(s, F >= VOTE_CUT)

    # ------------------------------------------------------------------ prediction
    def decision_function(self, X: Any) -> np.ndarray:
        r""":math:`F(x) = \sum_k v_k h_k(x)` in [0, 1].

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the layout of the training data (same columns).

        Returns
        -------
        ndarray of shape (n_samples,)
            The weighted vote of the members on each row.
        """
        check_fitted(self, "weights_")
        if self._restored:  # restored from JSON: evaluate the typed rules
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
        (``optirules.learners._scores``),

        .. math:: s_j = \frac{k_j + m \pi}{n_j + m},

        made non-decreasing in :math:`f_j` by isotonic regression (pool adjacent
        violators, weights :math:`n_j`): ``vote_level_scores_``.  A row's score is that of
        its level, linearly interpolated between levels for a vote no training row had (the
        end levels' scores beyond them), then moved to the side of :meth:`predict` (above
        1/2 where :math:`F(x) \ge 1/2`, at most 1/2 elsewhere), so that ``argmax`` of the
        probabilities is the prediction.  A probability is 0 or 1 only when the training
        data hold a single class.  :meth:`decision_function` is the vote :math:`F` itself.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the layout of the training data (same columns).

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Class probabilities, columns in the order of ``classes_``.
        """
        s = self._vote_scores(self.decision_function(X))
        return np.column_stack([1.0 - s, s])

    def predict(self, X: Any) -> np.ndarray:
        r"""``classes_[1]`` where :math:`F(x) \ge 1/2` (the DRO paper, Section 2.4).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows in the layout of the training data (same columns).

        Returns
        -------
        ndarray of shape (n_samples,)
            The predicted class of each row.
        """
        F = self.decision_function(X)
        return self.classes_[(F >= VOTE_CUT).astype(int)]

    # ------------------------------------------------------------------ export
    # (a function of ._export, in the class's own namespace so that the API pages, which
    # leave out inherited members, show it)
    export_model = export_model

    # ------------------------------------------------------------------ text and JSON
    # (str, to_text, explain, to_json, from_json and to_sql: RuleModelMixin, from these
    # hooks)
    def _text(self) -> str:
        return dro_text(self)

    def _decision_support(self, X: Any) -> tuple[list[list[str]], list[list[str]]]:
        return dro_decision_support(self, X)

    def _json_fields(self) -> dict[str, Any]:
        return json_fields(self)

    def _load_json_fields(self, doc: Any) -> None:
        load_json_fields(self, doc)

    @classmethod
    def _upgrade_params(cls, params: dict[str, Any]) -> dict[str, Any]:
        return upgrade_params(params)

    # ------------------------------------------------------------------ checks
    def _check_params(self) -> None:
        check_params(self)

    # ------------------------------------------------------------------ rules table
    def rules_table(self, X: Any = None, y: Any = None):
        """A DataFrame, one row per rule of every member with a positive weight (one-vs-rest:
        one block per class): ``class``, ``member`` (the member's number ``k``:
        ``members_[k - 1]``, as ``print``, ``explain`` and the plots number it; members of
        weight 0 have no row), ``weight``,
        ``rule``, ``n_literals``, ``support``, ``precision``, ``recall``.

        Without ``X`` and ``y``: on the training rows the fitted ensemble holds; an ensemble
        loaded from JSON holds none and needs ``X`` and ``y``
        (``optirules.learners._rules_table``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), optional
            Rows to count support, precision and recall on; ``None`` uses the training
            rows.
        y : array-like of shape (n_samples,), optional
            Their labels, given with ``X``.

        Returns
        -------
        pandas.DataFrame
            One row per rule of every member with a positive weight.
        """
        return self._table_builder(self, X, y)


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

