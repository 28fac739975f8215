"""The Boolean rule-set estimator: a DNF (or CNF) learnt by column generation.

:class:`BooleanRuleSetClassifier` binarizes the features, runs
:func:`~optirules.models.column_generation` on the weighted rule master (the master IP of
*Obtaining Explainable Classification Models using Distributionally Robust Optimization*,
Section 3, eqs 6-8, after Dash, Günlük and Wei, 2018) and keeps the chosen clauses as rules.
The master always learns a DNF of its label-1 class; a CNF of a class is, as in Dash,
Günlük and Wei, the negation (De Morgan) of the DNF learnt for the other class.

The estimator's parts live beside it: ``_input`` (the input handling the rule
learners share), ``_text`` (its text and explanations), ``_json`` (the
JSON form), ``_scores`` (its predictions and scores) and ``_export`` (the
master written as ``.lp`` or ``.mps``).
"""

from __future__ import annotations

import math
import numbers
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import HasMethods, StrOptions

from ...data import Literal
from ...errors import InputError
from ...models import (
    ColumnGenerationResult,
    options,
    solve_column_generation,
)
from .._checks import (
    CLASS_WEIGHT,
    TIME_LIMIT,
    VERBOSE,
    Collection,
    Number,
    check_fitted,
    is_int,
    progress_logger,
    validate_params,
)
from .._json import json_scalar
from .._multiclass import OneVsRestMixin, one_vs_rest
from .._rule_model import RuleModelMixin
from .._rules import FORMS, Rule, RuleSet, negate_rule
from .._rules_table import rule_set_table
from ._distributed import fit_distributed, is_dask_collection
from ._export import export_master
from ._fairness import _RuleSetFairnessMixin
from ._fit import finish_fit, penalty_path, prepare_fit
from ._input import (
    PENALTY_SCALE,
    _label_index,
    _RuleInputMixin,
    auto_penalty,
    default_target,
)
from ._json import _RuleSetJSONMixin
from ._scores import _RuleSetScoresMixin
from ._text import rule_set_text

__all__ = ["BooleanRuleSetClassifier"]



# ============================================================================ estimator
@one_vs_rest
class BooleanRuleSetClassifier(_RuleSetScoresMixin, OneVsRestMixin, _RuleInputMixin,
                               _RuleSetJSONMixin, _RuleSetFairnessMixin, RuleModelMixin,
                               ClassifierMixin, BaseEstimator):
    r"""A DNF rule set learned by column generation (weighted BRCG, the DRO paper §3, eqs 6-8).

    Fits the master of the module docstring by column generation over clauses of at most
    ``max_degree`` literals, then solves the master IP over the generated clauses.
    ``sample_weight`` is the pmf :math:`P` of the DRO paper (normalized to sum 1; the uniform
    :math:`P_i = 1/N` gives Dash, Günlük and Wei 2018).  By default the rule set predicts
    ``classes_[1]`` where any rule holds; ``target_class`` chooses the class the rules
    describe and ``form="cnf"`` learns a CNF (an AND of OR-clauses) instead.

    Parameters
    ----------
    complexity : float or None, default None
        Complexity budget :math:`C` (rules plus literals, eq 8).  ``None`` drops the budget
        row (penalty form).
    lambda0, lambda1 : float or "auto", default "auto"
        Penalty per rule and per literal, added to the objective (the form of BRCG
        implementations; same units as the weighted error, which lies in [0, 1]).
        ``"auto"``: :math:`0.1 / \sqrt{n}` for ``n`` training rows (the sum of
        ``sample_weight``; integer weights count as repeated rows, so scale a pmf to sum
        to the row count): a literal must correct :math:`0.1 \sqrt{n}` rows, 1 of 100
        or 10 of 10,000, the scale of the sampling error of a rule's error count.  The
        values used are in ``lambda0_`` and ``lambda1_``.  AIX360's BRCG uses 0.001 for both, which lets an
        exact solver buy rules that fit single rows of small data; the default was chosen
        on the bundled data sets (``benchmarks/suite.py``, docs: "Choosing the
        defaults").  Set both to 0 with a ``complexity`` budget for the pure budget form
        of the DRO paper.
    max_degree : int or "auto", default "auto"
        Most literals in one rule.  ``"auto"``: 3 when the ``L`` literals give at most
        :math:`4 \cdot 10^6` triples (:math:`L^3/6`, ``L <= 288``), whatever the number of
        rows, else 2 when they give at most :math:`2 \cdot 10^8` pairs (:math:`L^2/2`,
        ``L <= 20,000``), else 1: a wide table (many more columns than rows) gets
        single-literal rules, certified over them
        (:func:`~optirules.models.resolve_max_degree`).  The choice is in ``max_degree_``,
        and ``status_`` names the degree the certificate covers.
    pricing : {"auto", "exact", "beam"}, default "auto"
        ``"beam"``: beam search only (fast, no proof, ``gap_`` not certified);
        ``"exact"``: exact pricing every iteration; ``"auto"``: at ``max_degree=3`` (or
        with the pricing MILP) beam search, and when it finds no improving clause, exact
        pricing, which either finds one (the loop goes on) or proves that none exists; up
        to ``max_degree=2`` exact enumeration alone (all pairs in one matrix product per
        row block, summed over the rows whose price changed since the previous iteration:
        it returns the ``n_columns`` best clauses, of which beam search scores a subset;
        the documentation's page *Choosing the defaults* gives the run that chose this).
    exact_method : {"auto", "enumerate", "milp"}, default "auto"
        How exact pricing is done: ``"enumerate"`` (pruned enumeration with matrix
        products, :func:`~optirules.models.enumerate_pricing`; ``max_degree <= 3``), ``"milp"`` (the
        pricing MILP :class:`~optirules.models.RulePricingModel` with
        ``solver``), ``"auto"``: enumeration up to degree 3, the MILP beyond (the
        enumeration proves optimality far sooner at degree 3: *Choosing the defaults*).
    beam_width : int, default 10
        Beam width of :func:`~optirules.models.beam_search_pricing`.
    n_columns : int, default 10
        Most clauses added per iteration.
    max_iter : int, default 100
        Most column-generation iterations (a safety net: default fits stop on ``tol``).
    tol : float, default 0.01
        Column generation stops once the restricted LP value :math:`z` is within ``tol``
        of the certified Lagrangian bound :math:`\underline{z}` over every clause,
        :math:`z - \underline{z} \le \mathrm{tol} \cdot z` (``status_`` "gap ..."),
        or when exact pricing proves that no clause improves the LP.  Exact pricing uses
        Wentges' dual smoothing with weight ``DUAL_SMOOTHING`` (the bound is as certified
        as at the LP's own duals, and rises faster on degenerate masters); ``tol=0`` runs
        to the proof, as the seed's column generation does.
    time_limit : float or None, default None
        Wall-clock seconds for the whole fit: column generation, then the master IP
        within what is left (none left: the local-search incumbent over the generated
        clauses, with its gap).  At the limit the best rule set so far is kept, and the
        result depends on the machine's speed (``status_`` says ``time_limit``).
    pricing_time_limit : float or None, default None
        Wall-clock seconds for one exact pricing call; ``None``: no limit, so the fit does
        not depend on the machine's speed or load.  When a limit stops the pricing early
        the proof is incomplete, but its bound still gives a certified (weaker)
        ``lp_bound_``; ``pricing_complete_`` says so, and the result then depends on the
        machine.
    solver : str or dict, default "highs"
        One name for every part, or ``{"lp": ..., "milp": ...}`` (a part left out is
        ``"highs"``).  The LP part is the restricted master LP, which must return duals:
        HiGHS holds it in a warm ``highspy`` model (columns appended, the fastest path),
        Gurobi and CPLEX in Pyomo's persistent interfaces, any other LP solver with duals
        (CBC's CLP, SCIP through cvxpy, Clarabel ...) rebuilds it each iteration.  The
        MILP part is the pricing MILP and the master IP (HiGHS solves the IP in the LP's
        own model; other solvers get the Pyomo model).  Checked before any work
        (:func:`optirules.solvers.require_support`); ``optirules solvers`` lists who can
        take which part.
    mip_gap : float, default 0.01
        Relative gap at which the master IP may stop.
    binarizer : None, "auto" or FeatureBinarizer, default "auto"
        ``"auto"``: a table whose every entry is 0 or 1 (numbers or booleans, nothing
        missing) is taken as it is (literals ``x == 1`` and ``x == 0``); any other table is
        binarized by a :class:`~optirules.data.FeatureBinarizer` with its defaults
        (deciles, negations, categorical and missing values).  ``input_summary_`` and
        ``str(model)`` say which was done.  ``None``: ``X`` must be 0/1 and is taken as it
        is; an instance is cloned and fitted.
    random_state : int or None, default None
        Passed to HiGHS as ``random_seed`` for the master IP.  Everything else is
        deterministic, so equal ``random_state`` gives equal fits.
    verbose : bool, default False
        Show a progress bar (tqdm) over the iterations, and log each iteration and the stop
        through :mod:`logging` (logger ``optirules.learners.rule_set``, level INFO; printed to
        stderr when the application configured no logging).
    backend : {"local", "dask"} or dask.distributed.Client, default "local"
        Where exact enumeration pricing runs: in this process, or mapped over row blocks
        on the current (or given) ``dask.distributed`` client and reduced here in block
        order (:class:`~optirules.models.EnumerationPricer`); the fitted model is the same.
    warm_start : bool, default False
        Start column generation from the previous fit's clauses (``pool_``), mapped onto
        this fit's literals by equality (a clause with a literal this fit lacks is dropped),
        as :class:`BooleanRuleSetCV` does along a penalty path.  The LP optimum and the
        certificate do not depend on it; the master IP then runs over a larger pool, so its
        optimum can only be lower, and where several rule sets tie it may pick another.
    form : {"dnf", "cnf"}, default "dnf"
        ``"dnf"``: predict ``target_class`` where some rule (an AND of literals) holds; the
        master learns the DNF with label 1 the rows of ``target_class``.  ``"cnf"``: the
        CNF of the BRCG paper (Dash, Günlük and Wei, NeurIPS 2018), an AND of clauses, each
        an OR of literals: predict ``target_class`` where every clause holds.  It is
        learnt as the DNF of the other class (the same master, label 1 the rows *not* of
        ``target_class``) and negated by De Morgan, clause :math:`i` being NOT rule
        :math:`i`, so its predictions are that DNF's.  A negated literal is printed and
        evaluated exactly, missing values included: a missing value satisfies no
        comparison, so NOT ``x <= 5`` is ``x > 5 OR x is missing`` (the missing case is
        left out only for 0/1 columns taken as they are, which cannot be missing, where
        NOT ``x == 1`` is ``x == 0``).  With more than two classes each one-vs-rest model
        is of this form.
    target_class : label or None, default None
        The class the rules describe (predicted where the DNF holds, or where every clause
        of the CNF holds).  ``None``: ``classes_[1]`` when the labels are numbers or
        booleans (1, or True, is the positive class by convention), and the class with
        fewer training rows when they are strings or other labels, whose sorted order means
        nothing (ties: ``classes_[1]``); the text of the model names the class and says
        why.  A label not in ``y`` raises :class:`~optirules.errors.InputError` before any
        work.  With more than two classes it must be ``None`` (each one-vs-rest model
        describes its own class).
    forbidden_features : sequence of str or int, or None, default None
        Input columns no rule may test, by name (DataFrame input) or position.  Exact in
        the master and in pricing: their literals cover no row, so no clause that uses
        one is ever priced or chosen, and ``gap_`` is certified over the clauses of the
        other literals (a constraint that costs accuracy shows in the objective, not in a
        weaker certificate).  An entry naming no column raises
        :class:`~optirules.errors.InputError` before any work.
    max_rules : int or None, default None
        At most this many rules (for ``form="cnf"``: clauses).  A row
        :math:`\sum_k w_k \le R` of the master LP and IP; its dual adds to
        :math:`\lambda_0` in pricing, so exact pricing still proves the LP optimal and
        ``gap_`` is certified for the constrained problem.
    max_literals : int or None, default None
        At most this many literals over all rules: the row
        :math:`\sum_k |k| w_k \le M`, whose dual adds to :math:`\lambda_1` in pricing.
        With either limit the restricted master is HiGHS's direct one (or, for another LP
        solver, the one rebuilt each iteration) and the master IP the MILP.
    feature_costs : dict {column: cost} or None, default None
        A cost > 0 per input column (by name or position; unlisted columns cost 1): a
        literal on the column counts as that many literals in every term that counts
        literals -- the penalty :math:`\lambda_1 |k|`, ``max_literals`` and the complexity
        :math:`c_k = 1 + |k|` -- so a test that is expensive to measure is used only where
        it pays.  Exact in the master and in pricing (the enumeration prices a costly
        literal as one more row, :func:`~optirules.models.column_generation`; the pricing
        MILP takes the cost in its objective), so the certificate holds.  An entry naming
        no column, a cost that is not a finite number > 0, or a forbidden column given a
        cost is refused before any work.
    required_features : sequence of str or int, or None, default None
        Input columns the rule set must test, by name or position: for each, a row
        :math:`\sum_{k \text{ uses it}} w_k \ge 1` of the master (in the LP with an
        artificial column of large cost, in the IP without), whose dual is a bonus in
        pricing (one more row of the enumeration, or a binary of the pricing MILP).  The
        pool starts with the columns' single literals.  A column that is also forbidden, gives
        no literal, or more required columns than ``max_rules`` rules (or
        ``max_literals``) can hold, is refused before column generation.  For a CNF the
        clauses test them.
    fairness : {None, "equal_opportunity", "equalized_odds", "predictive_equality"}, default None
        Group fairness on the training rows across the groups of ``sensitive_features``
        (given to :meth:`fit`), for the class the rules describe (``target_class_``):
        equal true-positive rates (equal opportunity), equal true- and false-positive rates
        (equalized odds), or equal false-positive rates (predictive equality), within
        ``fairness_tolerance`` of each other, by the fairness rows of Lawless, Dash, Günlük
        and Wei ("Interpretable and Fair Boolean Rule Sets via Column Generation", JMLR 24,
        2023) in the master LP and IP (:func:`~optirules.models.column_generation`).  The
        miss and cover indicators are exact in the IP, so the fitted rule set meets the
        bound on the training rows (``fairness_gap_``); their duals change the rows'
        prices in pricing, so exact pricing still proves the LP optimal and ``gap_`` is
        certified for the constrained problem.  A CNF constrains the same rates of its
        target class (the complement DNF's miss rates become false-negative rates of the
        CNF's class).  Two classes only; ``max_degree`` at most 3.
    fairness_tolerance : float in [0, 1], default 0.05
        The largest difference allowed between two groups' rates.
    class_weight : None, "balanced" or dict {label: weight}, default None
        Multiplies ``sample_weight`` by the weight of each row's class, as in scikit-learn
        (``"balanced"``: ``n_samples / (n_classes * count(class))``).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        With more than two classes the estimator fits one rule set per class against the
        rest (``estimators_``); the attributes below
        are then those of each of ``estimators_``.
    estimators_ : list of BooleanRuleSetClassifier
        Only with more than two classes: the rule set of ``classes_[k]`` (coded 1) against
        the rest (0).
    lambda0_, lambda1_ : float
        The penalties used (``"auto"`` resolved).
    target_class_ : label
        The class the rules describe (``target_class``, ``None`` resolved).  The class the
        master's DNF describes, below "the DNF's class", is ``target_class_`` for
        ``form="dnf"`` and the other class for ``form="cnf"``; the statistics below are
        those of the master's rules (for a CNF: of the rows where clause :math:`m` fails).
    rule_precision_ : ndarray of shape (n_rules,)
        Per rule, the weighted share of the DNF's class (``classes_[1]`` by default) among
        the training rows it covers (smoothed into the score of :meth:`predict_proba`).
    default_precision_ : float
        The weighted share of the DNF's class among the training rows no rule covers (the
        share over all rows if every row is covered).
    rule_support_ : ndarray of shape (n_rules,)
        Per rule, the effective number of training rows it covers: the sum of their
        ``sample_weight`` (their count without weights).
    default_support_ : float
        The effective number of training rows no rule covers.
    class_prior_ : float
        The weighted share of the DNF's class among the training rows: the prior mean of
        the smoothed rule scores.
    pattern_scores_ : dict
        The probability of the DNF's class for each pattern of the training rows
        (:meth:`predict_proba`): the key ``(1, f_1, ..., f_M)`` for rows some rule fires on
        (``f_m`` 1 where rule ``m`` fires), ``(0, u_1, ..., u_M)`` for the others (``u_m``
        the literals of rule ``m`` the row fails).
    side_scores_ : tuple of float
        The probabilities of a pattern absent from ``pattern_scores_``: a row some rule
        fires on, and one that none does.
    score_strengths_ : tuple of float
        The estimated strengths (pseudo-rows) of the two shrinkages behind the scores: the
        sides toward the class share, the patterns toward their side.
    dnf_rules_ : RuleSet
        The master's DNF (for ``form="cnf"``: of the other class, before negation).
    rules_ : RuleSet
        The learned DNF (``form="cnf"``: the CNF, ``rules_.form == "cnf"``, its clauses
        ``Clause`` objects, ORs of literals); its conditions read like
        ``age > 52.5``; its ``positive_class`` is ``target_class_``.
    literals_ : list of optirules.data.Literal
        The literals (columns of the literal matrix).
    forbidden_literals_ : list of str
        With ``forbidden_features``: the literals they gave, which no rule may use.
    binarizer_ : FeatureBinarizer or None
        The fitted binarizer; None when ``X`` was taken as it is (0/1 columns).
    input_summary_ : str
        One line on what ``fit`` did with ``X`` (taken as 0/1 columns, or binarized into
        how many literals); the last line of ``str(model)``.
    clauses_ : list of tuple of int
        The master's rules as literal indices (``form="cnf"``: the rules of the other
        class's DNF, clause :math:`m` of ``rules_`` being NOT rule :math:`m`).
    history_ : list of dict
        Per iteration: ``iteration``, ``lp_objective``, ``best_reduced_cost``,
        ``reduced_cost_lower_bound`` (NaN when only the beam ran), ``columns_added``,
        ``pool_size``, ``pricing``, ``lp_bound`` (best certified bound so far), ``time``.
    lp_objective_ : float
        The final restricted master LP value.
    lp_bound_ : float
        Certified lower bound on the master optimum over *all* clauses of at most
        ``max_degree`` literals over ``literals_`` (module docstring); NaN when no exact
        pricing ran (``pricing="beam"``).
    ip_objective_ : float
        Master objective of ``rules_`` (weighted Hamming loss plus penalties).
    gap_ : float
        ``(ip_objective_ - lp_bound_) / ip_objective_``.  When ``gap_certified_``: no rule
        set made of clauses of at most ``max_degree`` literals over ``literals_`` (and
        within the budget) has a master objective below ``(1 - gap_) * ip_objective_``.
        NaN (unknown) when not certified: no exact pricing finished (``pricing="beam"``, or
        stopped by ``time_limit``), so nothing bounds the optimum.
    absolute_gap_ : float
        ``ip_objective_ - lp_bound_`` (NaN when not certified).  In the budget form
        (``lambda0 = lambda1 = 0``) the LP relaxation can spread the budget over fractional
        clauses and reach a bound of 0, where the relative gap is 100 % whatever the IP;
        the absolute gap still says how far the IP can be from the optimum.
    gap_certified_ : bool
    pricing_complete_ : bool
        Whether column generation ended with a complete proof (``converged``).
    status_ : str
        Why column generation stopped (``"converged (...)"``, ``"gap (...)"``,
        ``"max_iter"``, ``"time_limit"``, ...) and the IP status, e.g.
        ``"converged (exact pricing proved no improving clause of at most 3 literals); IP
        optimal over the generated clauses"`` (the proof and the ``gap`` stop name the
        clauses exact pricing searched: those of at most ``max_degree_`` literals);
        ``"; certified optimal over all clauses"`` (of at most ``max_degree_`` literals)
        follows when the certified gap is closed (``absolute_gap_`` at most ``1e-9`` of
        the objective).  The IP is solved over the clauses column generation generated
        (``pool_``): only the certified gap says how far any rule set over all clauses can
        be below it.
    ip_status_ : str
    max_degree_ : int
        The degree bound used (``max_degree`` with ``"auto"`` resolved).
    pool_ : list of tuple of int
        Every generated clause (the columns of the final master).
    duals_ : dict
        Duals of the final restricted master LP: ``mu`` (cover rows, over the label-1
        rows with positive weight, in row order), ``lam`` (budget row), ``lambda0``,
        ``lambda1`` (as :func:`~optirules.models.reduced_costs` takes them).
    fit_info_ : dict
        Timings (``cg_time``, ``ip_time``), the number of IP columns after reduced-cost
        fixing, the objective of the incumbent that fixing used (``greedy_objective``: the
        greedy rule set improved by single add/drop/swap moves), :math:`\kappa`, the
        solvers used (``lp_solver``, ``milp_solver``), the restricted master's class
        (``master``: ``HighsRuleMaster``, ``MergedHighsRuleMaster`` (many rows),
        ``PersistentRuleMaster`` or ``RebuildRuleMaster``) and how the IP was solved
        (``ip_route``: ``"highspy"`` over the rows merged by their coverage of the IP's
        columns, ``"model"`` through Pyomo, or branch and bound over the IP's dual LP from
        ``BRANCH_AND_BOUND_ROWS`` merged label-1 rows on HiGHS: ``column_generation``'s
        ``master_ip="auto"``).
    n_iter_ : int
        Column-generation iterations run (with more than two classes: an array, one
        count per class).
    fit_time_ : float

    Notes
    -----
    Rows with zero weight are dropped before fitting (also from the binarizer's fit), so
    zero weights are equivalent to removing rows.
    """

    _table_builder = staticmethod(rule_set_table)

    _parameter_constraints: dict = {
        "complexity": [None, Number(numbers.Real, 2, None, closed="left")],
        "lambda0": [StrOptions({"auto"}), Number(numbers.Real, 0, None, closed="left")],
        "lambda1": [StrOptions({"auto"}), Number(numbers.Real, 0, None, closed="left")],
        "max_degree": [StrOptions({"auto"}), Number(numbers.Integral, 1, None, closed="left")],
        "pricing": [StrOptions(set(options.PRICING))],
        "exact_method": [StrOptions(set(options.EXACT_METHODS))],
        "beam_width": [Number(numbers.Integral, 1, None, closed="left")],
        "n_columns": [Number(numbers.Integral, 1, None, closed="left")],
        "max_iter": [Number(numbers.Integral, 1, None, closed="left")],
        "tol": [Number(numbers.Real, 0, None, closed="left")],
        "time_limit": TIME_LIMIT,
        "pricing_time_limit": TIME_LIMIT,
        # the name (or part -> name mapping) is checked against the installed solvers by
        # require_support in _check_params
        "solver": [str, Mapping],
        "mip_gap": [Number(numbers.Real, 0, 1, closed="left")],
        "binarizer": [None, StrOptions({"auto"}), HasMethods(["fit", "transform"])],
        "random_state": [None, Number(numbers.Integral, 0, None, closed="left"),
                         np.random.RandomState],
        "verbose": VERBOSE,
        # "dask" also needs dask installed: check_backend in _check_params
        "backend": [StrOptions({"local", "dask"}), None, HasMethods(["submit", "scatter"])],
        "warm_start": ["boolean"],
        "form": [StrOptions(set(FORMS))],
        "target_class": "no_validation",  # a label of y: checked at fit (_target_index)
        "forbidden_features": [None, Collection()],  # names or positions: checked at fit
        "max_rules": [None, Number(numbers.Integral, 1, None, closed="left")],
        "max_literals": [None, Number(numbers.Integral, 1, None, closed="left")],
        "feature_costs": [None, Mapping],  # names or positions, costs > 0: checked at fit
        "required_features": [None, Collection()],  # names or positions: checked at fit
        "fairness": [None, StrOptions({"equal_opportunity", "equalized_odds",
                                       "predictive_equality"})],
        "fairness_tolerance": [Number(numbers.Real, 0, 1, closed="both")],
        "class_weight": CLASS_WEIGHT,
    }

    def __init__(self, complexity: float | None = None, *, lambda0: float | str = "auto",
                 lambda1: float | str = "auto", max_degree: int | str = "auto", pricing: str = "auto",
                 exact_method: str = "auto", beam_width: int = 10, n_columns: int = 10,
                 max_iter: int = 100, tol: float = 0.01, time_limit: float | None = None,
                 pricing_time_limit: float | None = None,
                 solver: str | Mapping[str, str] = "highs",
                 mip_gap: float = 0.01, binarizer: Any = "auto", random_state: Any = None,
                 verbose: bool = False, backend: Any = "local",
                 warm_start: bool = False, form: str = "dnf", target_class: Any = None,
                 forbidden_features: Any = None, max_rules: int | None = None,
                 max_literals: int | None = None, feature_costs: Any = None,
                 required_features: Any = None, fairness: str | None = None,
                 fairness_tolerance: float = 0.05, class_weight: Any = None) -> None:
        self.feature_costs = feature_costs
        self.required_features = required_features
        self.fairness = fairness
        self.fairness_tolerance = fairness_tolerance
        self.forbidden_features = forbidden_features
        self.max_rules = max_rules
        self.max_literals = max_literals
        self.form = form
        self.target_class = target_class
        self.class_weight = class_weight
        self.backend = backend
        self.warm_start = warm_start
        self.complexity = complexity
        self.lambda0 = lambda0
        self.lambda1 = lambda1
        self.max_degree = max_degree
        self.pricing = pricing
        self.exact_method = exact_method
        self.beam_width = beam_width
        self.n_columns = n_columns
        self.max_iter = max_iter
        self.tol = tol
        self.time_limit = time_limit
        self.pricing_time_limit = pricing_time_limit
        self.solver = solver
        self.mip_gap = mip_gap
        self.binarizer = binarizer
        self.random_state = random_state
        self.verbose = verbose

    # ------------------------------------------------------------------ validation
    def _check_params(self) -> None:
        from ...models import check_backend
        from .._solver_needs import require_solver

        validate_params(self)
        check_backend(self.backend)  # "dask" needs dask installed
        if self.exact_method == "enumerate" and self.max_degree != "auto" and \
                self.max_degree > 3:
            raise InputError("exact_method='enumerate' handles max_degree <= 3; use 'milp' "
                             "or exact_method='auto'.")
        # the master LP needs duals, the pricing MILP and the master IP a Pyomo MILP solver:
        # refuse a solver that cannot take its part now, not after column generation
        require_solver(self)

    def _seed(self) -> int | None:
        rs = self.random_state
        if rs is None:
            return None
        if is_int(rs, 0):
            return int(rs) % (2**31 - 1)
        return int(rs.randint(2**31 - 1))  # a RandomState (validate_params)

    def _target_index(self, classes: Any, y: Any = None, weight: Any = None) -> int:
        """The position in ``classes`` of the class the rules describe (``target_class``;
        ``None``: :func:`default_target` of the training labels ``y`` and their weights, or
        the fitted ``target_class_`` without them), or an InputError naming the classes."""
        if self.target_class is None:
            if y is not None:
                return default_target(classes, y, weight)
            t = _label_index(classes, getattr(self, "target_class_", classes[1]))
            return 1 if t is None else t
        t = _label_index(classes, self.target_class)
        if t is None:
            raise InputError(f"target_class={self.target_class!r} is not one of the classes "
                             f"of y {[json_scalar(c) for c in classes]}; pass one of them, or "
                             "None for the second.")
        return t

    def _dnf_index(self) -> int:
        """The position in ``classes_`` of the class the master's DNF describes: the
        target class for ``form="dnf"``, the other one for ``form="cnf"``."""
        t = _label_index(self.classes_, getattr(self, "target_class_", self.classes_[1]))
        t = 1 if t is None else t
        return t if self.rules_.form == "dnf" else 1 - t

    def _literal_can_be_missing(self, literal: Literal) -> bool:
        """Whether the column of a literal can hold a missing value at prediction: always
        with a binarizer (it accepts NaN in every column, ``check_binarized_input``), never
        for 0/1 columns taken as they are (``binarizer_`` None: NaN is refused) or the 0/1
        output columns of a binarizer without readable literals."""
        return getattr(self, "binarizer_", None) is not None and literal.column is not None

    # ------------------------------------------------------------------ fitting
    def fit(self, X: Any, y: Any, sample_weight: Any = None, *,
            sensitive_features: Any = None) -> BooleanRuleSetClassifier:
        """Learn the rule set.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Raw features (numeric, categorical, missing) with ``binarizer="auto"``; 0/1
            features with ``binarizer=None``; anything the binarizer takes otherwise.  A
            dask array or DataFrame keeps its rows on the workers of the current (or
            ``backend``'s) client: binarized and priced (exact enumeration) there, the
            master on the driver (two classes, no weights or side constraints; see
            docs/user_guide/cluster.md).
        y : array-like of shape (n_samples,)
            Class labels: two, or more (one rule set per class against the rest); with a
            dask ``X``, a dask array or Series of the same partitions.
        sample_weight : array-like of shape (n_samples,), optional
            The pmf :math:`P` (normalized to sum 1); uniform by default.  Multiplied by
            the class weights of ``class_weight``.
        sensitive_features : array-like of shape (n_samples,) or (n_samples, k), optional
            The protected attribute of ``fairness`` (several columns: their intersectional
            groups), one value per row; needed with ``fairness`` and refused without it.

        Returns
        -------
        self
        """
        t_fit = time.perf_counter()  # time_limit bounds the whole call, binarizing included
        if is_dask_collection(X):  # the rows stay on the workers
            return fit_distributed(self, X, y, sample_weight, sensitive_features)
        prepared = self._prepare_fit(X, y, sample_weight, sensitive_features, t_fit)
        if prepared is None:  # K > 2 classes: K binary copies fitted
            return self
        problem, options, initial, train = prepared
        bar = None
        progress = None
        log = progress_logger("learners.rule_set", self.verbose)
        if self.verbose:
            from tqdm.auto import tqdm

            bar = tqdm(total=self.max_iter, desc="column generation", unit="it")

            def progress(rec: dict[str, Any]) -> None:
                bar.update(1)
                bar.set_postfix(lp=f"{rec['lp_objective']:.5f}",
                                r=f"{rec['best_reduced_cost']:.2e}", pool=rec["pool_size"])
                log.info("iteration %d: LP %.6g, best reduced cost %.3g, pool %d, %.2f s",
                         rec["iteration"], rec["lp_objective"], rec["best_reduced_cost"],
                         rec["pool_size"], rec["time"])
        try:
            res = solve_column_generation(problem, options, initial_clauses=initial,
                                          progress=progress)
        finally:
            if bar is not None:
                bar.close()
        if log is not None:
            log.info("stopped: %s; %d rules, master IP %s, objective %.6g, gap %s, %.2f s",
                     res.stop_reason, len(res.clauses), res.ip_status, res.ip_objective,
                     "unknown" if math.isnan(res.gap) else f"{100 * res.gap:.2f} %",
                     res.fit_time)
        self._finish_fit(res, train)
        return self

    def penalty_path(self, X: Any, y: Any, penalties: Any, sample_weight: Any = None, *,
                     sensitive_features: Any = None) -> list[BooleanRuleSetClassifier]:
        """The rule sets of several penalties from one column generation: fitted copies of
        this estimator, one per ``(lambda0, lambda1)`` of ``penalties``, in their order.

        ``X`` is binarized once; column generation runs at the first penalty, then the
        same restricted master, pool and pricer go on to the next
        (:func:`~optirules.models.solve_penalty_path`), so a path from the largest penalty
        down costs far less than fitting each point.  Each copy is what :meth:`fit` with
        that penalty would give from the pool of the points before it, certified on its
        own (``gap_``, ``lp_bound_``); ``time_limit`` bounds the whole path.  Two classes
        only.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            As for :meth:`fit`.
        y : array-like of shape (n_samples,)
            Two class labels.
        penalties : sequence of float or of (float, float)
            A number ``p`` means ``lambda0 = lambda1 = p``.
        sample_weight : array-like of shape (n_samples,), optional
            As for :meth:`fit`.
        sensitive_features : array-like, optional
            As for :meth:`fit`.

        Returns
        -------
        list of BooleanRuleSetClassifier
            Fitted copies, ``lambda0`` and ``lambda1`` set to each point.

        Examples
        --------
        >>> from optirules.data import load_dataset
        >>> X, y = load_dataset("monks1_train")
        >>> path = BooleanRuleSetClassifier(random_state=0).penalty_path(X, y, [0.05, 0.01])
        >>> [len(m.rules_.rules) for m in path]
        [1, 4]
        """
        return penalty_path(self, X, y, penalties, sample_weight, sensitive_features)

    def _prepare_fit(self, X: Any, y: Any, sample_weight: Any, sensitive_features: Any,
                     t_fit: float) -> tuple | None:
        """Everything before column generation (:func:`._fit.prepare_fit`)."""
        return prepare_fit(self, X, y, sample_weight, sensitive_features, t_fit)

    def _finish_fit(self, res: ColumnGenerationResult, train: tuple) -> None:
        """The fitted attributes (:func:`._fit.finish_fit`)."""
        finish_fit(self, res, train)

    def _set_scores(self, covered: np.ndarray, y: np.ndarray, P: np.ndarray,
                    total: float) -> None:
        """``rule_precision_``, ``default_precision_``, their effective training-row counts
        ``rule_support_`` and ``default_support_``, and ``class_prior_`` (weights P; the
        rows weigh ``total`` in all, the sum of ``sample_weight``)."""
        n_eff = total / P.sum()  # row i counts as total * P_i rows (its sample weight)
        base = float(P[y].sum() / P.sum())
        prec, support = [], []
        for m in range(covered.shape[1]):
            w = float(P[covered[:, m]].sum())
            prec.append(float(P[covered[:, m] & y].sum()) / w if w > 0 else base)
            support.append(w * n_eff)
        self.class_prior_ = base
        self.rule_precision_ = np.asarray(prec, dtype=float)
        self.rule_support_ = np.asarray(support, dtype=float)
        none = ~covered.any(axis=1) if covered.shape[1] else np.ones(len(y), bool)
        w = float(P[none].sum())
        self.default_precision_ = float(P[none & y].sum()) / w if w > 0 else base
        self.default_support_ = w * n_eff

    def _set_result(self, res: ColumnGenerationResult) -> None:
        self.clauses_ = [tuple(int(j) for j in c) for c in res.clauses]
        t = self._target_index(self.classes_)
        pos, neg = json_scalar(self.classes_[t]), json_scalar(self.classes_[1 - t])
        dnf = RuleSet.from_clauses(self.clauses_, self.literals_, pos, neg)
        self.dnf_rules_ = dnf
        if self.form == "cnf":  # clause m = NOT (the other class's rule m), exactly
            exact = self._literal_can_be_missing
            dnf = RuleSet(tuple(negate_rule(r, exact) for r in dnf.rules), pos, neg,
                          form="cnf")
        self.rules_ = dnf
        self.pool_ = [tuple(int(j) for j in c) for c in res.pool]
        self.history_ = res.history
        self.lp_objective_ = res.lp_objective
        self.lp_bound_ = res.lp_bound
        self.ip_objective_ = res.ip_objective
        self.ip_status_ = res.ip_status
        self.gap_ = res.gap
        self.absolute_gap_ = res.absolute_gap
        self.gap_certified_ = res.certified
        self.pricing_complete_ = res.converged
        self.status_ = res.status
        self.n_iter_ = len(res.history)
        self.fit_time_ = res.fit_time
        self.fit_info_ = {k: v for k, v in res.info.items() if k != "duals"}
        self.duals_ = res.info["duals"]

    # ------------------------------------------------------------------ prediction
    def _check_fitted(self) -> None:
        check_fitted(self, "rules_")

    def decision_rules(self, X: Any) -> np.ndarray:
        """Boolean matrix ``(n_samples, n_rules)``: which rules fire on which rows
        (``form="cnf"``: which clauses of ``rules_`` hold).

        On a model of more than two classes, call it on ``estimators_[k]`` (the rule set of
        ``classes_[k]`` against the rest); the model itself refuses with that advice.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Rows with the columns the model was fitted on.

        Returns
        -------
        ndarray of bool, shape (n_samples, n_rules)
        """
        self._refuse_one_vs_rest("decision_rules")
        fired = self._dnf_fired(X)
        return ~fired if self.rules_.form == "cnf" else fired

    def rules_table(self, X: Any = None, y: Any = None):
        """A DataFrame, one row per rule (one-vs-rest: one block per class): ``class``,
        ``rule``, ``n_literals``, ``support``, ``precision``, ``recall`` and ``score`` (the
        rule's smoothed training precision, its rank in one-vs-rest ``predict`` and
        ``to_sql``; :meth:`predict_proba` also counts the literals each rule misses).

        Without ``X`` and ``y``: the training statistics (``rule_support_``,
        ``rule_precision_``); with them, row counts on that data.

        ``form="cnf"``: one row per clause, read as the rule "the clause fails", which
        predicts the other class: ``class`` is that other class (not ``target_class_``),
        ``support`` the rows where the clause fails, ``precision`` the share of those of
        that class, ``recall`` the share of that class's rows where the clause fails, and
        ``score`` its smoothed precision.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features), optional
            Rows to count the rules on (with ``y``); ``None``: the training statistics.
        y : array-like of shape (n_samples,), optional
            Their labels.

        Returns
        -------
        pandas.DataFrame
        """
        return self._table_builder(self, X, y)


    # ------------------------------------------------------------------ text, export
    # (str, to_text, explain, to_json, from_json and to_sql: RuleModelMixin, from these hooks
    # and those of _RuleSetJSONMixin)
    _fitted_attribute = "rules_"
    _model_kind = "rule_set"

    def _text(self) -> str:
        """``to_text``: the rule set, one numbered rule a line, with its complexity and gap
        (``form="cnf"``: ``predict 'yes' if every clause holds, else 'no':`` then one
        numbered clause a line; the master's objective and gap are those of the other
        class's DNF), then the input summary."""
        return rule_set_text(self)

    def export_model(self, path: str | os.PathLike, *, X: Any = None, y: Any = None,
                     sample_weight: Any = None, iterations: bool = False,
                     relax: bool = False) -> list[Path]:
        """Write the master over the generated clauses as ``.lp`` or ``.mps``.

        The master is that of the DNF the model learnt: label 1 are the rows of
        ``target_class_`` (``form="dnf"``), or with ``form="cnf"`` the rows *not* of
        ``target_class_``: a CNF's master is that of the complement DNF, whose columns are
        the negations of the clauses (``clauses_``; for a model restored from JSON, one
        column ``NOT (clause)`` per clause).

        Each ``w`` column is named after its clause within LP-format limits
        (``lp_name``: ``w(x1_le_0p19_and_c0_eq_a)``),
        and a comment line per column gives the clause as the rules print it.

        Parameters
        ----------
        path : str or path
            File name ending in ``.lp`` or ``.mps``.
        X, y : array-like, optional
            The training data again.  Needed by a model restored with :meth:`from_json`
            (which keeps the rules, not the data): its master is then written over the
            rules' clauses, its literals being the rules' conditions.  A model fitted in
            this session uses its own training data and the whole generated pool when
            they are not given; given, they replace the training data.
        sample_weight : array-like, optional
            Row weights with ``X`` (normalized to sum 1; uniform by default), multiplied
            by the class weights of ``class_weight`` as in :meth:`fit`.
        iterations : bool, default False
            Also write each iteration's restricted master LP, as ``<stem>_iter<t><suffix>``
            next to ``path`` (the LP over the columns present at iteration ``t``; needs
            this session's fit).
        relax : bool, default False
            Write the LP relaxation instead of the IP.

        Returns
        -------
        list of Path
            The files written.
        """
        return export_master(self, path, X=X, y=y, sample_weight=sample_weight,
                             iterations=iterations, relax=relax)


# keep Rule importable from here for users who read the rules of a fitted model, and the
# input helpers of _input for the rule learners that import them from here
_ = Rule, PENALTY_SCALE, auto_penalty
