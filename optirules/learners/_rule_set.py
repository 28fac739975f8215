"""The Boolean rule-set estimator: a DNF (or CNF) learnt by column generation.

:class:`BooleanRuleSetClassifier` binarizes the features, runs
:func:`~optirules.models.column_generation` on the weighted rule master (the master IP of
*Obtaining Explainable Classification Models using Distributionally Robust Optimization*,
Section 3, eqs 6-8, after Dash, Günlük and Wei, 2018) and keeps the chosen clauses as rules.
The master always learns a DNF of its label-1 class; a CNF of a class is, as in Dash,
Günlük and Wei, the negation (De Morgan) of the DNF learnt for the other class.
"""

from __future__ import annotations

import copy
import math
import numbers
import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils._param_validation import HasMethods, StrOptions
from sklearn.utils.validation import validate_data

from ..data import Literal
from ..errors import InputError, OptirulesError
from ..models import (
    EXACT_METHODS,
    PRICING,
    ColumnGenerationResult,
    clause_coverage,
    column_generation,
    resolve_max_degree,
    split_solver,
)
from ._checks import (
    CLASS_WEIGHT,
    TIME_LIMIT,
    VERBOSE,
    Number,
    binarized_input_summary,
    binary_input_summary,
    check_2d,
    check_binarized_input,
    check_fitted,
    class_sample_weight,
    fit_binarizer,
    n_rows,
    normalized_weights,
    progress_logger,
    table_kind,
    validate_params,
    weighted_rows,
)
from ._explain import DEFAULT_PREFIX, binary_explain, text_or_repr
from ._json import (
    Field,
    check_rule_columns,
    check_rule_labels,
    damaged_as_input_error,
    dump_json,
    json_header,
    json_scalar,
    label_kind,
    load_json,
    load_json_header,
    restore_params,
)
from ._multiclass import OneVsRestMixin, multiclass_labels, one_vs_rest
from ._rules import FORMS, Rule, RuleSet, negate_rule, read_rule_set
from ._rules_table import RulesTableMixin, rule_set_table
from ._scores import consistent_with_prediction, smoothed_share
from ._sql import SQLMixin

__all__ = ["BooleanRuleSetClassifier"]

# =============================================================================== inputs
def _is_int(value: Any, low: int = 1) -> bool:
    return (isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
            and value >= low)


def _is_number(value: Any, low: float = 0.0, strict: bool = False) -> bool:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        return False
    v = float(value)
    return math.isfinite(v) and (v > low if strict else v >= low)


#: ``lambda0 = lambda1 = "auto"`` is ``PENALTY_SCALE / sqrt(n)`` for ``n`` training rows
PENALTY_SCALE = 0.1

#: Wentges' smoothing weight of the exact pricing (``column_generation(smoothing=...)``):
#: prices at ``0.5 * best-bound duals + 0.5 * LP duals``
DUAL_SMOOTHING = 0.5


def auto_penalty(n: float) -> float:
    r"""The penalty ``"auto"`` stands for: :math:`\lambda = 0.1 / \sqrt{n}`
    (``PENALTY_SCALE``) per rule and per literal, for ``n`` training rows (the sum of
    ``sample_weight``)."""
    if not (math.isfinite(n) and n > 0):
        raise InputError(f"the penalty 'auto' needs a positive number of training rows (the "
                         f"sum of sample_weight), got {n!r}.")
    return PENALTY_SCALE / math.sqrt(n)


class _RuleInputMixin:
    """Input handling shared by the rule-set learners: labels, weights, literals and the
    column-generation parameters."""

    binarizer: Any
    lambda0: float | str
    lambda1: float | str
    max_degree: int | str
    pricing: str
    solver: str | Mapping[str, str]

    def _check_search_params(self, counts: Sequence[str], seconds: Sequence[str]) -> None:
        """The column-generation parameters both rule learners take: penalties, degree,
        pricing, the integer ``counts``, the time limits ``seconds``, solver, binarizer."""
        for name in ("lambda0", "lambda1"):
            value = getattr(self, name)
            if not (_is_number(value) or (isinstance(value, str) and value == "auto")):
                raise InputError(f"{name} must be 'auto' or a finite number >= 0, got "
                                 f"{value!r}.")
        if not (_is_int(self.max_degree) or self.max_degree == "auto"):
            raise InputError(f"max_degree must be an integer >= 1 or 'auto', got "
                             f"{self.max_degree!r}.")
        if self.pricing not in PRICING:
            raise InputError(f"pricing must be one of {PRICING}, got {self.pricing!r}.")
        for name in counts:
            if not _is_int(getattr(self, name)):
                raise InputError(f"{name} must be an integer >= 1, got "
                                 f"{getattr(self, name)!r}.")
        for name in seconds:
            value = getattr(self, name)
            if value is not None and not _is_number(value, 0.0, strict=True):
                raise InputError(f"{name} must be None or a positive number of seconds, got "
                                 f"{value!r}.")
        if not isinstance(self.solver, (str, Mapping)):
            raise InputError(f"solver must be a solver name such as 'highs' or a mapping "
                             f"{{'lp': ..., 'milp': ...}}, got {self.solver!r}.")
        from ..solvers import require_support

        # the master LP needs duals, the pricing MILP and the master IP a Pyomo MILP solver:
        # refuse a solver that cannot take its part now, not after column generation
        require_support(self.solver, type(self).__name__)
        self._check_binarizer_param()

    def _penalties(self, n: float) -> tuple[float, float]:
        """``(lambda0, lambda1)`` with ``"auto"`` resolved for ``n`` training rows."""
        return tuple(auto_penalty(n) if isinstance(v, str) else float(v)
                     for v in (self.lambda0, self.lambda1))

    def _milp_solver(self) -> str:
        """The solver named for the MILP part (``solver``, or ``solver["milp"]``)."""
        return split_solver(self.solver)[1]

    def __sklearn_tags__(self):
        """Binary labels only; raw (NaN, string, categorical) input when a binarizer is used."""
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.allow_nan = self.binarizer is not None
        tags.input_tags.string = self.binarizer is not None
        tags.input_tags.categorical = self.binarizer is not None
        return tags

    def _make_binarizer(self) -> Any:
        if self.binarizer is None:
            return None
        if isinstance(self.binarizer, str):
            from ..data import FeatureBinarizer

            return FeatureBinarizer()
        if isinstance(self.binarizer, BaseEstimator):
            return clone(self.binarizer)
        return copy.deepcopy(self.binarizer)

    def _check_binarizer_param(self) -> None:
        b = self.binarizer
        if not (b is None or (isinstance(b, str) and b == "auto")
                or (callable(getattr(b, "fit", None)) and hasattr(b, "transform"))):
            raise InputError(
                f"binarizer must be None (X is already 0/1), 'auto' or a FeatureBinarizer, "
                f"got {b!r}."
            )

    def _binary_literals(self, names: list[str]) -> list[Literal]:
        lits = [Literal(n, "==", 1, j) for j, n in enumerate(names)]
        return lits + [Literal(n, "==", 0, j) for j, n in enumerate(names)]

    def _reads_binary(self, X: Any) -> bool:
        """Whether ``fit`` takes the columns of ``X`` as they are: ``binarizer=None``, or
        ``"auto"`` on a table of 0/1 values."""
        b = self.binarizer
        return b is None or (isinstance(b, str) and b == "auto" and table_kind(X) == "binary")

    def _literal_matrix(self, X: Any, *, reset: bool, sample_weight: Any = None) -> np.ndarray:
        """Validate ``X`` and return its literal matrix (binarized, or ``[X, 1 - X]``); a
        binarizer is fitted with ``sample_weight`` (weighted quantile thresholds)."""
        if reset:
            self.binarizer_ = None if self._reads_binary(X) else self._make_binarizer()
        if self.binarizer_ is None:
            why = ("binarizer=None" if self.binarizer is None
                   else "this model was fitted on 0/1 columns taken as they are, so")
            try:
                Xa = validate_data(self, X, reset=reset, dtype=None,
                                   ensure_all_finite=True)
            except OptirulesError:
                raise
            except (ValueError, TypeError) as exc:
                raise InputError(f"{str(exc).splitlines()[0].rstrip('.')}; with {why} X must "
                                 "be a 0/1 matrix; pass binarizer='auto' for raw numeric or "
                                 "categorical data.") from None
            if Xa.dtype == bool:
                Xb = Xa
            else:
                if Xa.dtype.kind not in "biuf":
                    raise InputError(
                        f"X has dtype {Xa.dtype}; with {why} X must hold 0/1 values. "
                        "Pass binarizer='auto' to binarize numeric and categorical columns."
                    )
                ok = (Xa == 0) | (Xa == 1)
                if not ok.all():
                    bad = Xa[~ok].ravel()[0]
                    raise InputError(
                        f"X holds the non-binary value {bad!r}, but with {why} X must hold "
                        "0/1 features; pass binarizer='auto' (a FeatureBinarizer) to learn "
                        "thresholds, or binarize X yourself."
                    )
                Xb = Xa == 1
            if reset:
                names = ([str(c) for c in self.feature_names_in_]
                         if hasattr(self, "feature_names_in_")
                         else [f"x{j}" for j in range(Xb.shape[1])])
                self.literals_ = self._binary_literals(names)
                self.input_summary_ = binary_input_summary(Xb.shape[1])
            return np.ascontiguousarray(np.hstack([Xb, ~Xb]))
        check_2d(X)
        try:
            validate_data(self, X, reset=reset, skip_check_array=True)
        except OptirulesError:
            raise
        except (ValueError, TypeError) as exc:
            raise InputError(f"{exc} Pass the columns the model was fitted on.") from None
        if reset:
            fit_binarizer(self.binarizer_, X, sample_weight)
            self.literals_ = list(getattr(self.binarizer_, "literals_", []))
        else:  # what fit refuses (inf, NaN in a column without NaN at fit)
            check_binarized_input(self.binarizer_, X)
        Xb = np.asarray(self.binarizer_.transform(X))
        if Xb.ndim != 2 or Xb.shape[0] != n_rows(X):
            raise InputError("the binarizer returned an array of unexpected shape "
                             f"{Xb.shape}; it must return one row per input row.")
        if Xb.dtype != bool:
            if Xb.dtype.kind not in "biuf" or not np.all((Xb == 0) | (Xb == 1)):
                raise InputError("the binarizer must return 0/1 values.")
            Xb = Xb == 1
        if reset:
            if len(self.literals_) != Xb.shape[1]:
                names = [str(s) for s in self.binarizer_.get_feature_names_out()] \
                    if hasattr(self.binarizer_, "get_feature_names_out") \
                    else [f"b{j}" for j in range(Xb.shape[1])]
                self.literals_ = [Literal(n, "==", 1, None) for n in names]
            self.input_summary_ = binarized_input_summary(self.binarizer_, Xb.shape[1])
            if Xb.shape[1] == 0:
                raise InputError("the binarizer produced no literal (every column is constant); "
                                 "a rule set needs at least one varying feature.")
        return np.ascontiguousarray(Xb)


def _label_index(classes: Any, label: Any) -> int | None:
    """The position of ``label`` in ``classes`` (same kind of label: a string is not a
    number), or None."""
    want = json_scalar(label)
    kind = label_kind(want)
    if kind is None:
        return None
    for k, c in enumerate(classes):
        c = json_scalar(c)
        if label_kind(c) == kind and c == want:
            return k
    return None


def _carried_pool(prev: Any, literals: list[Any]) -> list[tuple[int, ...]]:
    """The clauses of a previous fit (``(literals, pool)``) over these ``literals``."""
    if prev is None:
        return []
    index = {lit: j for j, lit in enumerate(literals)}
    out: dict[tuple[int, ...], None] = {}
    for clause in prev[1]:
        try:
            out[tuple(sorted(index[prev[0][j]] for j in clause))] = None
        except (KeyError, IndexError, TypeError):
            continue
    return list(out)


# ============================================================================ estimator
@one_vs_rest
class BooleanRuleSetClassifier(RulesTableMixin, OneVsRestMixin, _RuleInputMixin, ClassifierMixin,
                               SQLMixin, BaseEstimator):
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
        rows, else 2 (:func:`~optirules.models.resolve_max_degree`).  The choice is in
        ``max_degree_``.
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
        products, :func:`enumerate_pricing`; ``max_degree <= 3``), ``"milp"`` (the
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
        of the CNF holds); ``None``: ``classes_[1]``.  A label not in ``y`` raises
        :class:`~optirules.errors.InputError` before any work.  With more than two classes
        it must be ``None`` (each one-vs-rest model describes its own class).
    class_weight : None, "balanced" or dict {label: weight}, default None
        Multiplies ``sample_weight`` by the weight of each row's class, as in scikit-learn
        (``"balanced"``: ``n_samples / (n_classes * count(class))``).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        With more than two classes the estimator fits one rule set per class against the
        rest (``estimators_``, :mod:`optirules.learners._multiclass`); the attributes below
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
        the smoothed scores of :meth:`predict_proba`.
    rules_ : RuleSet
        The learned DNF (``form="cnf"``: the CNF, ``rules_.form == "cnf"``, its clauses
        :class:`~optirules.learners._rules.Clause`); its conditions read like
        ``age > 52.5``; its ``positive_class`` is ``target_class_``.
    literals_ : list of optirules.data.Literal
        The literals (columns of the literal matrix).
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
        Why column generation stopped (``"converged (...)"``, ``"max_iter"``,
        ``"time_limit"``, ...) and the IP status, e.g.
        ``"converged (exact pricing proved no improving clause); IP optimal"``.
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
        "pricing": [StrOptions(set(PRICING))],
        "exact_method": [StrOptions(set(EXACT_METHODS))],
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
                 class_weight: Any = None) -> None:
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
        from ..models import check_backend
        from ..solvers import require_support

        validate_params(self)
        check_backend(self.backend)  # "dask" needs dask installed
        if self.exact_method == "enumerate" and self.max_degree != "auto" and \
                self.max_degree > 3:
            raise InputError("exact_method='enumerate' handles max_degree <= 3; use 'milp' "
                             "or exact_method='auto'.")
        # the master LP needs duals, the pricing MILP and the master IP a Pyomo MILP solver:
        # refuse a solver that cannot take its part now, not after column generation
        require_support(self.solver, type(self).__name__)

    def _seed(self) -> int | None:
        rs = self.random_state
        if rs is None:
            return None
        if _is_int(rs, 0):
            return int(rs) % (2**31 - 1)
        return int(rs.randint(2**31 - 1))  # a RandomState (validate_params)

    def _target_index(self, classes: Any) -> int:
        """The position in ``classes`` of the class the rules describe (``target_class``;
        ``None``: 1), or an InputError naming the classes."""
        if self.target_class is None:
            return 1
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
    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> BooleanRuleSetClassifier:
        """Learn the rule set.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Raw features (numeric, categorical, missing) with ``binarizer="auto"``; 0/1
            features with ``binarizer=None``; anything the binarizer takes otherwise.
        y : array-like of shape (n_samples,)
            Class labels: two, or more (one rule set per class against the rest).
        sample_weight : array-like of shape (n_samples,), optional
            The pmf :math:`P` (normalized to sum 1); uniform by default.  Multiplied by
            the class weights of ``class_weight``.

        Returns
        -------
        self
        """
        t_fit = time.perf_counter()  # time_limit bounds the whole call, binarizing included
        self._check_params()
        if self.target_class is not None and multiclass_labels(y) is not None:
            raise InputError(
                f"target_class={self.target_class!r} names the class a two-class rule set "
                f"describes, but y has {len(multiclass_labels(y))} classes: the estimator fits "
                "one rule set per class against the rest, each describing its own class. "
                "Leave target_class=None (form applies to every class's rule set).")
        sample_weight = class_sample_weight(self.class_weight, y, sample_weight)
        if self._fit_one_vs_rest(X, y, sample_weight):  # K > 2 classes: K binary copies
            self.n_iter_ = np.array([e.n_iter_ for e in self.estimators_])
            return self
        X_fit, classes, ypos, P, keep = weighted_rows(X, y, sample_weight, "a rule set")
        target = self._target_index(classes)
        # the master learns a DNF of its label 1: the target (DNF) or the other class (CNF)
        d = target if self.form == "dnf" else 1 - target
        if d == 0:
            ypos = ~ypos
        # the user's weights, not the pmf: integer weights then give exactly the thresholds
        # of the repeated rows (the same floating-point sums)
        prev = ((list(self.literals_), list(self.pool_)) if self.warm_start
                and hasattr(self, "pool_") and hasattr(self, "literals_") else None)
        A = self._literal_matrix(X_fit, reset=True, sample_weight=None if sample_weight is None
                                 else np.asarray(sample_weight, dtype=float).reshape(-1)[keep])
        initial = _carried_pool(prev, self.literals_)
        total = float(keep.sum()) if sample_weight is None else \
            float(np.asarray(sample_weight, dtype=float).reshape(-1)[keep].sum())
        self.lambda0_, self.lambda1_ = self._penalties(total)
        yk, Pk = ypos[keep], P[keep] / P[keep].sum()
        self.classes_ = classes
        self.target_class_ = classes[target]
        self.max_degree_ = resolve_max_degree(self.max_degree, A.shape)
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
            res = column_generation(
                A, yk, Pk, complexity=None if self.complexity is None else float(self.complexity),
                lambda0=self.lambda0_, lambda1=self.lambda1_,
                max_degree=self.max_degree_, pricing=self.pricing,
                exact_method=self.exact_method, beam_width=int(self.beam_width),
                n_columns=int(self.n_columns), max_iter=int(self.max_iter),
                tol=float(self.tol), smoothing=DUAL_SMOOTHING,
                time_limit=None if self.time_limit is None else max(
                    0.0, float(self.time_limit) - (time.perf_counter() - t_fit)),
                pricing_time_limit=self.pricing_time_limit,
                solver=self.solver, mip_gap=float(self.mip_gap), random_seed=self._seed(),
                progress=progress, backend=self.backend, initial_clauses=initial,
                master_ip="auto",
            )
        finally:
            if bar is not None:
                bar.close()
        self._set_result(res)
        if log is not None:
            log.info("stopped: %s; %d rules, master IP %s, objective %.6g, gap %s, %.2f s",
                     res.stop_reason, len(res.clauses), res.ip_status, res.ip_objective,
                     "unknown" if math.isnan(res.gap) else f"{100 * res.gap:.2f} %",
                     res.fit_time)
        self._train = (A, yk, Pk)
        self._set_scores(clause_coverage(A, self.clauses_), yk, Pk, total)
        return self

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
        self.status_ = f"{res.stop_reason}; IP {res.ip_status}"
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
        """
        self._refuse_one_vs_rest("decision_rules")
        fired = self._dnf_fired(X)
        return ~fired if self.rules_.form == "cnf" else fired

    def _dnf_fired(self, X: Any) -> np.ndarray:
        """Which of the master's DNF rules fire (``form="cnf"``: where clause m fails)."""
        self._check_fitted()
        if hasattr(self, "literals_") and hasattr(self, "binarizer_"):
            A = self._literal_matrix(X, reset=False)
            return clause_coverage(A, self.clauses_)
        fired = self._rules_fired_from_json(X)
        return ~fired if self.rules_.form == "cnf" else fired

    def _rules_fired_from_json(self, X: Any) -> np.ndarray:
        try:
            validate_data(self, X, reset=False, skip_check_array=True)
        except OptirulesError:
            raise
        except (ValueError, TypeError) as exc:
            raise InputError(f"{exc} Pass the columns the model was fitted on.") from None
        return self.rules_.fired(X)

    def predict(self, X: Any) -> np.ndarray:
        """``target_class_`` (default ``classes_[1]``) where some rule holds (``form="cnf"``:
        where every clause holds), the other class elsewhere."""
        fired = self._dnf_fired(X)
        hit = fired.any(axis=1) if fired.shape[1] else np.zeros(fired.shape[0], bool)
        d = self._dnf_index()
        return self.classes_[np.where(hit, d, 1 - d)]

    def _scores(self, fired: np.ndarray) -> np.ndarray:
        if not hasattr(self, "rule_support_"):
            raise InputError("this rule set was saved without its training precisions and "
                             "supports (an older to_json); refit it and save it again for "
                             "scores.")
        rule = smoothed_share(self.rule_precision_ * self.rule_support_, self.rule_support_,
                              self.class_prior_)
        default = float(smoothed_share(self.default_precision_ * self.default_support_,
                                       self.default_support_, self.class_prior_))
        s = np.full(fired.shape[0], default)
        hit = fired.any(axis=1) if fired.shape[1] else np.zeros(fired.shape[0], bool)
        if fired.shape[1]:
            s[hit] = np.where(fired, rule, -np.inf).max(axis=1)[hit]
        if self._dnf_index() == 0:
            # the DNF's class is classes_[0], which argmax favours on ties: move the score
            # of classes_[1] instead (above 1/2 where no rule fires), exactly (Sterbenz)
            return 1.0 - consistent_with_prediction(1.0 - s, ~hit)
        return consistent_with_prediction(s, hit)

    def predict_proba(self, X: Any) -> np.ndarray:
        r"""``[1 - s(x), s(x)]``: the smoothed training precision of the rules that fire.

        ``s`` is the score of the class the master's DNF describes (below, ``classes_[1]``,
        the default); when that is ``classes_[0]`` (``target_class=classes_[0]``, or a CNF
        of ``classes_[1]``, learnt as the DNF of ``classes_[0]``) the columns are
        ``[s(x), 1 - s(x)]``, ``s`` then at least 1/2 where a rule fires and below 1/2
        elsewhere (argmax breaks ties towards ``classes_[0]``).  For a CNF a rule is the
        negation of a clause: it fires where the clause fails.

        A rule that covers :math:`n` training rows (effective rows with ``sample_weight``,
        ``rule_support_``) of which a share :math:`p` (``rule_precision_``) is
        ``classes_[1]`` scores :math:`(np + m\,\pi) / (n + m)`, the mean of the Beta
        posterior with prior mean :math:`\pi` (``class_prior_``, the training share of
        ``classes_[1]``) and :math:`m` = ``PRIOR_STRENGTH`` pseudo-rows
        (:mod:`optirules.learners._scores`); rows no rule covers score the same way from
        ``default_precision_`` and ``default_support_``.  ``s(x)`` is the largest score of
        the rules that fire (it ranks a row by its most reliable rule), then moved to the
        side of :meth:`predict` (above 1/2 where a rule fires, at most 1/2 elsewhere), so
        that ``argmax`` of the probabilities is the prediction.  A probability is 0 or 1
        only when the training data hold a single class.
        """
        s = self._scores(self._dnf_fired(X))
        if self._dnf_index() == 0:
            return np.column_stack([s, 1.0 - s])
        return np.column_stack([1.0 - s, s])

    def decision_function(self, X: Any) -> np.ndarray:
        """``2 p(x) - 1`` in [-1, 1], ``p`` the probability of ``classes_[1]`` of
        :meth:`predict_proba` (positive where ``classes_[1]`` is predicted, so its sign is
        the prediction's); by default ``2 s(x) - 1``."""
        s = self._scores(self._dnf_fired(X))
        if self._dnf_index() == 0:
            return 2.0 * (1.0 - s) - 1.0
        return 2.0 * s - 1.0

    def _decision_support(self, X: Any) -> tuple[list[list[str]], list[list[str]]]:
        """Per row, what spoke for ``classes_[0]`` and for ``classes_[1]``: the DNF's rules
        that fired (for its class), else the default (for the other); a CNF's clauses that
        failed (for the other class, with the share of that class where the clause fails),
        else every clause, all holding (for the target class)."""
        fired = self._dnf_fired(X)
        d = self._dnf_index()
        cnf = self.rules_.form == "cnf"
        rules = self.rules_.rules
        other = json_scalar(self.classes_[1 - d])
        own: list[list[str]] = []  # for the class of the master's DNF
        rest: list[list[str]] = []
        for row in fired:
            idx = np.flatnonzero(row)
            if idx.size:
                own.append([f"clause {m + 1} fails: {rules[m]} (precision "
                            f"{self.rule_precision_[m]:.3f})" if cnf else
                            f"rule {m + 1}: {rules[m]} (precision "
                            f"{self.rule_precision_[m]:.3f})" for m in idx])
                rest.append([])
            elif cnf and rules:
                own.append([])
                rest.append([f"clause {m + 1} holds: {c}" for m, c in enumerate(rules)])
            else:
                own.append([])
                what = ("the CNF has no clause" if cnf else "no rule holds")
                where = "training" if cnf else "uncovered training"
                rest.append([f"{DEFAULT_PREFIX}{what} ({1 - self.default_precision_:.3f} "
                             f"of the {where} rows are {other!r})"])
        return (rest, own) if d == 1 else (own, rest)

    def explain(self, X: Any):
        """A DataFrame, one row per row of ``X``: ``prediction``, ``score``, ``rules`` (the
        rules that fired, or the default; ``form="cnf"``: the clauses that failed for a row
        predicted the other class, every clause (all holding) for a row predicted
        ``target_class_``), ``fired`` and ``text`` (:mod:`optirules.learners._explain`)."""
        self._check_fitted()
        self._scores(np.zeros((0, 0), bool))
        return binary_explain(self, X)

    def rules_table(self, X: Any = None, y: Any = None):
        """A DataFrame, one row per rule (one-vs-rest: one block per class): ``class``,
        ``rule``, ``n_literals``, ``support``, ``precision``, ``recall`` and ``score`` (the
        smoothed training precision :meth:`predict_proba` uses).

        Without ``X`` and ``y``: the training statistics (``rule_support_``,
        ``rule_precision_``); with them, row counts on that data
        (:mod:`optirules.learners._rules_table`).

        ``form="cnf"``: one row per clause, read as the rule "the clause fails", which
        predicts the other class: ``class`` is that other class (not ``target_class_``),
        ``support`` the rows where the clause fails, ``precision`` the share of those of
        that class, ``recall`` the share of that class's rows where the clause fails, and
        ``score`` the smoothed precision of :meth:`predict_proba`.
        """
        return self._table_builder(self, X, y)


    # ------------------------------------------------------------------ text, JSON, export
    def __str__(self) -> str:
        return text_or_repr(self, "rules_")

    def to_text(self) -> str:
        """The rule set, one numbered rule a line, with its complexity and gap
        (``form="cnf"``: ``predict 'yes' if every clause holds, else 'no':`` then one
        numbered clause a line; the master's objective and gap are those of the other
        class's DNF)."""
        self._check_fitted()
        head = self.rules_.to_string(multiline=True)
        comp = f"complexity {self.rules_.complexity} (rules + literals)"
        if self.rules_.form == "cnf":
            dnf = sum(1 + len(c) for c in self.clauses_)
            comp = (f"complexity {self.rules_.complexity} (clauses + literals; the master's "
                    f"DNF of the other class: {dnf})")
        if self.gap_certified_:
            deg = getattr(self, "max_degree_", None)
            over = "" if deg is None else f" over all rules of at most {deg} literals"
            tail = (f"{comp}; master objective "
                    f"{self.ip_objective_:.6g}, certified gap {self.gap_:.2%}{over} "
                    f"(absolute {self.absolute_gap_:.4g})")
        else:
            tail = (f"{comp}; master objective "
                    f"{self.ip_objective_:.6g}, gap unknown (not certified)")
        summary = getattr(self, "input_summary_", "")
        return f"{head}\n{tail}" + (f"\n{summary}" if summary else "")

    def to_json(self, path: str | os.PathLike | None = None, *, indent: int | None = 2) -> str:
        """The fitted model as JSON text (and written to ``path`` if given); no pickle.

        :meth:`from_json` rebuilds a classifier whose predictions are identical (it
        evaluates ``rules_`` on the raw data; a CNF's clauses, negated exactly, give the
        DNF's predictions, missing values and unseen categories included).  Files without
        ``form`` and ``target_class`` (older ones) load as a DNF of ``classes_[1]``.
        """
        self._check_fitted()
        data = {
            **json_header(self, "optirules.BooleanRuleSetClassifier"),
            "rules": self.rules_.to_dict(),
            "clauses": [list(c) for c in self.clauses_],
            "fit": {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in {
                "lp_objective": self.lp_objective_, "lp_bound": self.lp_bound_,
                "ip_objective": self.ip_objective_, "gap": self.gap_,
                "absolute_gap": self.absolute_gap_, "gap_certified": self.gap_certified_, "pricing_complete": self.pricing_complete_,
                "status": self.status_, "ip_status": self.ip_status_,
                "n_iter": self.n_iter_, "fit_time": self.fit_time_,
                "max_degree": getattr(self, "max_degree_", None),
                "input_summary": getattr(self, "input_summary_", None),
                "lambda0": self.lambda0_, "lambda1": self.lambda1_}.items()},
            "scores": {"rule_precision": self.rule_precision_.tolist(),
                       "default_precision": self.default_precision_,
                       "rule_support": self.rule_support_.tolist(),
                       "default_support": self.default_support_,
                       "class_prior": self.class_prior_},
        }
        return dump_json(data, path, indent)

    @classmethod
    def from_json(cls, source: str | os.PathLike) -> BooleanRuleSetClassifier:
        """Rebuild a fitted classifier from :meth:`to_json` output (text or a file path).

        Every field is checked; a damaged or foreign file raises one
        :class:`~optirules.errors.InputError` naming the field."""
        name = "BooleanRuleSetClassifier"
        data = load_json(source, f"optirules.{name}", "to_json")
        doc = Field(name, data)
        with damaged_as_input_error(name):
            est = cls(**restore_params(data["params"]))
            est._load_common(data)
            fit = doc["fit"]
            fit.object()
            nan = float("nan")

            def stat(key: str) -> float:  # a fit statistic: NaN (null) and inf allowed
                return fit[key].real(null=nan, default=nan, finite=False)

            est.lp_objective_ = stat("lp_objective")
            est.lp_bound_ = stat("lp_bound")
            est.ip_objective_ = stat("ip_objective")
            est.gap_ = stat("gap")
            est.absolute_gap_ = stat("absolute_gap")
            est.fit_time_ = stat("fit_time")
            est.gap_certified_ = fit["gap_certified"].boolean(default=False)
            est.pricing_complete_ = fit["pricing_complete"].boolean(default=False)
            est.status_ = fit["status"].string(null="", default="")
            est.ip_status_ = fit["ip_status"].string(null="", default="")
            est.n_iter_ = fit["n_iter"].count(null=0, default=0)
            summary = fit["input_summary"].string(null=None, default=None)
            if summary is not None:
                est.input_summary_ = summary
            degree = fit["max_degree"].count(null=None, default=None)
            if degree is not None:  # the degree the certified gap holds over
                est.max_degree_ = degree
            # the penalties used ("auto" resolved)
            est.lambda0_ = fit["lambda0"].real(lo=0.0)
            est.lambda1_ = fit["lambda1"].real(lo=0.0)
            est.history_ = []
            if not doc["scores"].is_null():  # files saved before the scores were kept
                est._load_scores(doc["scores"])  # predict, but refuse probabilities
        return est

    def _load_scores(self, scores: Any) -> None:
        """The training precisions, supports and prior of :meth:`to_json`, checked: shares
        in [0, 1], supports finite and >= 0, one per rule."""
        if not isinstance(scores, Field):
            scores = Field("BooleanRuleSetClassifier", scores, "scores")
        n = self.rules_.n_rules
        prec = scores["rule_precision"].reals(n, lo=0.0, hi=1.0)
        support = scores["rule_support"].reals(n, lo=0.0)
        values = [scores["default_precision"].probability(),
                  scores["default_support"].real(lo=0.0),
                  scores["class_prior"].probability()]
        self.rule_precision_, self.rule_support_ = prec, support
        self.default_precision_, self.default_support_, self.class_prior_ = values

    def _load_common(self, data: dict[str, Any]) -> None:
        name = type(self).__name__
        load_json_header(self, data)
        doc = Field(name, data)
        self.rules_ = read_rule_set(doc["rules"])
        params = doc["params"]
        form = getattr(self, "form", "dnf")
        if not (isinstance(form, str) and form == self.rules_.form):
            raise params["form"].damaged(f"must be the form of the rules, "
                                         f"{self.rules_.form!r}, not {str(form)[:40]!r}")
        t = _label_index(self.classes_, self.target_class) \
            if getattr(self, "target_class", None) is not None else 1
        if t is None:
            raise params["target_class"].damaged(
                f"must be null or one of the classes {[json_scalar(c) for c in self.classes_]}, "
                f"not {str(self.target_class)[:40]!r}")
        self.target_class_ = self.classes_[t]
        # the rules predict the target class where they hold, the other class elsewhere
        check_rule_labels(doc["rules"], self.rules_, self.classes_[[1 - t, t]])
        self.clauses_ = [tuple(c.counts()) for c in doc["clauses"].items(default=[])]
        check_rule_columns(self, [self.rules_], name)

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
        (:func:`~optirules.models.masters.lp_name`: ``w(x1_le_0p19_and_c0_eq_a)``),
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
        self._refuse_one_vs_rest("export_model")
        from ..models import RuleMasterModel

        self._check_fitted()
        path = Path(path)
        if path.suffix.lower() not in (".lp", ".mps"):
            raise InputError(f"cannot write {str(path)!r}: use a .lp or .mps suffix.")
        if (X is None) != (y is None):
            raise InputError("export_model takes X and y together (the training data).")
        if X is not None:  # the weights of fit: sample_weight times the class weights
            sample_weight = class_sample_weight(self.class_weight, y, sample_weight)
        restored = not hasattr(self, "_train")
        if X is None and restored:
            raise InputError("export_model needs the training data to build the master: this "
                             "model was restored from JSON, which keeps the rules only. Pass "
                             "export_model(path, X=X_train, y=y_train).")
        if iterations and restored:
            raise InputError("iterations=True needs the fit of this session (its history); "
                             "a model restored from JSON has none.")
        if X is None:
            A, yk, P = self._train
            pool = self.pool_
            names = [" AND ".join(str(self.literals_[j]) for j in c) for c in pool]
        else:
            A, yk, P, pool, names = self._export_data(X, y, sample_weight, restored)
        l0, l1 = (self.lambda0_, self.lambda1_) if hasattr(self, "lambda0_") else \
            self._penalties(float(len(yk)) if sample_weight is None else
                            float(np.sum(sample_weight)))
        kw = dict(sample_weight=P, lambda0=l0, lambda1=l1,
                  complexity=None if self.complexity is None else float(self.complexity))
        written = []
        RuleMasterModel(A, yk.astype(int), pool, relax=relax, clause_names=names,
                        **kw).write(path)
        written.append(path)
        if iterations:
            for rec in self.history_:
                t = rec["iteration"]
                n_cols = rec["pool_size"] - rec["columns_added"]
                p = path.with_name(f"{path.stem}_iter{t}{path.suffix}")
                RuleMasterModel(A, yk.astype(int), pool[:n_cols], relax=True,
                                clause_names=names[:n_cols], **kw).write(p)
                written.append(p)
        return written

    def _export_data(self, X: Any, y: Any, sample_weight: Any, restored: bool):
        """Literal matrix, labels, pmf, clauses and clause names for :meth:`export_model`."""
        n = n_rows(X)
        y = np.asarray(y).reshape(-1)
        if y.shape[0] != n:
            raise InputError(f"X has {n} rows but y has {y.shape[0]} labels.")
        known = np.isin(y, self.classes_)
        if not known.all():
            raise InputError(f"y holds the label {y[~known][0]!r}, which is not among the "
                             f"classes the model was fitted on {list(self.classes_)}.")
        yk = y == self.classes_[self._dnf_index()]
        P = normalized_weights(sample_weight, n)
        if not restored:
            A = self._literal_matrix(X, reset=False)
            pool = self.pool_
            names = [" AND ".join(str(self.literals_[j]) for j in c) for c in pool]
            return A, yk, P, pool, names
        # from JSON: the literals are the rules' conditions, the pool the rules' clauses
        self._rules_fired_from_json(X)  # checks the columns
        conds: list[Any] = []
        for rule in self.rules_.rules:
            for c in rule.conditions:
                if c not in conds:
                    conds.append(c)
        if not conds:
            raise InputError("the rule set is empty, so its master has no column to write.")
        cnf = self.rules_.form == "cnf"
        # a CNF's master column is NOT clause: the AND of the negated conditions
        A = np.column_stack([np.asarray(c.evaluate(X), dtype=bool) != cnf for c in conds])
        pool = [tuple(sorted(conds.index(c) for c in rule.conditions))
                for rule in self.rules_.rules]
        names = [f"NOT ({rule})" if cnf else str(rule) for rule in self.rules_.rules]
        return A, yk, P, pool, names


# keep Rule importable from here for users who read the rules of a fitted model
_ = Rule
