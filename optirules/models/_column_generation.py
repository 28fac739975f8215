r"""Column generation for the weighted Boolean rule master, then the master IP over the pool.

The DRO paper (*Obtaining Explainable Classification Models using Distributionally Robust Optimization*, Section 3, "Column Generation for (4)") learns a
rule set under a pmf :math:`P` over the training rows by the master IP (eqs 6-8)

.. math::

    \min\ & \sum_{i \in P^+} \xi_i + \sum_{k \in K}
        \Big(\sum_{i \in Z_k} P_i + \lambda_0 + \lambda_1 |k|\Big) w_k \\
    \text{s.t. } & \xi_i + P_i \sum_{k \in K_i} w_k \ge P_i \quad (i \in P^+), \qquad
        \sum_{k \in K} c_k w_k \le C, \qquad \xi \ge 0,\ w_k \in \{0, 1\},

over the exponentially many clauses :math:`K` (conjunctions of at most ``max_degree``
literals, cost :math:`c_k = 1 + |k|`), solved by column generation as in Dash, Günlük
and Wei (2018, NeurIPS): the LP relaxation over a growing pool (the restricted master,
:func:`restricted_master`: the warm highspy model
:class:`~optirules.models.HighsRuleMaster`, a Pyomo persistent solver, or the
LP rebuilt for any solver that returns duals) alternates with pricing, the
search for a clause of negative reduced cost

.. math::

    r(k) = \lambda c_k + \lambda_0 + \lambda_1 |k| + \sum_{i \in Z,\ k \ni i} P_i
           - \sum_{i \in P^+,\ k \ni i} \mu_i P_i

(:math:`\mu, \lambda` the duals of the cover and budget rows).  When pricing proves that no
clause has :math:`r(k) < 0` the restricted LP equals the LP over all clauses; the master
IP over the generated pool (:class:`~optirules.models.RuleMasterModel`) then
gives the rule set, and the LP value bounds every rule set from below.

**Certified lower bound.**  For any restricted-master duals :math:`(\mu, \lambda)` and any
feasible :math:`(w, \xi)` of the *full* LP, Lagrangian duality gives

.. math::

    \text{obj}(w, \xi) \ge z_{RMP} + \Big(\min_k r(k)\Big) \sum_k w_k ,

and :math:`\sum_k w_k \le \kappa` with :math:`\kappa = C/2` (budget row, every clause
costs at least 2) or :math:`\kappa = z_{RMP} / (\lambda_0 + \lambda_1)` (penalty form: an
optimal solution cannot pay more penalty than the restricted optimum).  So
:math:`z_{RMP} + \kappa \min(0, r_{lb})` is a lower bound on the optimum of the full
master (LP and IP) for any proven lower bound :math:`r_{lb} \le \min_k r(k)`; exact pricing
provides :math:`r_{lb}` (the true minimum, or a bound when stopped by its time limit).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InputError, OptirulesError
from ._clauses import (
    Clause,
    PricingDuals,
    clause_coverage,
    clause_degrees,
    complexity_costs,
    row_prices,
)
from ._enumeration import RC_TOL, EnumerationPricer
from ._pool_ip import (
    PoolIP,
    master_objective,
    prune_redundant,
)
from ._problem import ColumnGenerationOptions, RuleSetProblem, options_fields, problem_fields
from ._pseudo_rows import pseudo_prices, pseudo_rows
from .masters import FairnessRows, restricted_master

__all__ = [
    "ColumnGenerationResult",
    "column_generation",
    "resolve_max_degree",
    "solve_column_generation",
    "split_solver",
]

#: an absolute gap at most this (relative to the objective, at least 1) is rounding noise:
#: the rule set is then certified optimal (``ColumnGenerationResult.status``)
GAP_TOL = 1e-9


#: column_generation(tol > 0) with beam search first: exact pricing for a bound every this
#: many iterations in which the beam found clauses
EXACT_EVERY = 5


#: after this many mispricings (a smoothed point whose clauses do not improve the LP, so
#: that pricing runs again at the LP duals) the pricing that follows a failed beam search
#: is done at the LP duals alone; the periodic pricing for the bound stays smoothed
MAX_MISPRICINGS = 2


def _milp_pricing(problem: RuleSetProblem, duals: dict[str, Any], solver: str,
                  time_limit: float | None, pool: set[Clause]
                  ) -> tuple[list[tuple[Clause, float]], float, bool]:
    """Exact pricing by the MILP of :class:`~optirules.models.RulePricingModel`.

    Returns the optimal clause if it is new and negative, the MILP's bound (a proven lower
    bound on the minimum reduced cost, capped at 0), and whether it was solved to optimality.
    """
    from ..solvers import Status
    from ._pricing import RulePricingModel

    pb = problem
    model = RulePricingModel(pb, PricingDuals(duals["mu"], duals["lam"], duals["lambda0"],
                                              duals["lambda1"],
                                              required_duals=duals.get("required_duals")))
    options = _exact_gap(solver)
    try:
        result = model.solve(solver, time_limit=time_limit, **options)
    except OptirulesError:
        result = model.result_
        if result is None:
            raise
        bound = result.bound if math.isfinite(result.bound) else -math.inf
        return [], min(0.0, bound), False
    bound = float(result.bound) if math.isfinite(result.bound) else -math.inf
    complete = result.status == Status.OPTIMAL
    cols = []
    if model.reduced_cost_ < -RC_TOL and model.clause_ not in pool:
        cols = [(model.clause_, model.reduced_cost_)]
    return cols, min(0.0, bound, model.reduced_cost_), complete


def _exact_gap(solver: str) -> dict[str, float]:
    """The solver's absolute-gap option at 1e-10 where its default is coarser (HiGHS's),
    so that a clause of reduced cost just below 0 is not missed; else no option."""
    from ..solvers import adapter

    found = adapter(solver)
    coarse = found.default_abs_gap is not None and found.default_abs_gap > 1e-10
    return {found.abs_gap_option: 1e-10} if coarse and found.abs_gap_option else {}


# ====================================================================== restricted master
def split_solver(solver: Any) -> tuple[str, str]:
    """``(lp, milp)`` solver names from one name (both parts) or a mapping
    ``{"lp": ..., "milp": ...}`` (a missing part is ``"highs"``).

    Parameters
    ----------
    solver : str or mapping
        One solver name for both parts, or ``{"lp": ..., "milp": ...}``.

    Returns
    -------
    tuple of (str, str)
        The LP solver's and the MILP solver's names.
    """
    if isinstance(solver, str):
        return solver.strip().lower(), solver.strip().lower()
    if isinstance(solver, Mapping):
        extra = set(solver) - {"lp", "milp"}
        if extra:
            raise InputError(f"the solver mapping takes the keys 'lp' and 'milp', got "
                             f"{sorted(map(str, extra))}.")
        names = {k: solver.get(k, "highs") for k in ("lp", "milp")}
        for k, v in names.items():
            if not isinstance(v, str):
                raise InputError(f"solver[{k!r}] must be a solver name, got {v!r}.")
        return names["lp"].strip().lower(), names["milp"].strip().lower()
    raise InputError(f"solver must be a solver name such as 'highs' or a mapping "
                     f"{{'lp': ..., 'milp': ...}}, got {solver!r}.")


# ====================================================================== column generation
@dataclass
class ColumnGenerationResult:
    """Everything one column-generation run produced (see :func:`column_generation`).

    Parameters
    ----------
    clauses : list of Clause
        The rule set: the master IP's clauses, redundant ones pruned.
    pool : list of Clause
        Every clause generated (the restricted master's columns), in column order.
    history : list of dict
        One record per iteration (objective, bound, columns added, times).
    lp_objective : float
        Optimum of the final restricted master LP.
    lp_bound : float
        Certified lower bound on the master's optimum over all clauses (NaN when no exact
        pricing finished).
    ip_objective : float
        Master objective of ``clauses``.
    ip_status : str
        Status of the master IP's solve.
    ip_bound : float
        The MILP solver's bound on the IP over the pool.
    gap : float
        Relative gap of ``ip_objective`` to ``lp_bound`` (NaN when not certified).
    certified : bool
        Whether ``lp_bound`` is a proven bound over all clauses.
    converged : bool
        Whether pricing proved that no clause has a negative reduced cost.
    absolute_gap : float
        ``ip_objective - lp_bound`` (NaN when not certified).
    stop_reason : str
        Why the iterations stopped (e.g. ``"converged"``, ``"max_iter"``, ``"time_limit"``).
    pricing_lower_bound : float
        The last exact pricing's lower bound on the least reduced cost.
    fit_time : float
        Seconds of the whole run.
    info : dict
        Further figures of the run (see :func:`column_generation`).
    """

    clauses: list[Clause]
    pool: list[Clause]
    history: list[dict[str, Any]]
    lp_objective: float
    lp_bound: float
    ip_objective: float
    ip_status: str
    ip_bound: float
    gap: float
    certified: bool
    converged: bool
    absolute_gap: float
    stop_reason: str
    pricing_lower_bound: float
    fit_time: float
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def status(self) -> str:
        """What the run proved, in words: why the iterations stopped, then the IP's status
        over the pool, which is "optimal over the generated clauses" when the IP solver
        proved it, and adds "certified optimal over all clauses" only when the certified
        gap is closed (its absolute value at most ``GAP_TOL`` of the objective)."""
        ip = self.ip_status
        if ip.startswith("optimal"):
            ip = "optimal over the generated clauses" + ip[len("optimal"):]
        if self.certified and self.absolute_gap <= GAP_TOL * max(1.0, abs(self.ip_objective)):
            ip += "; certified optimal over all clauses"
        return f"{self.stop_reason}; IP {ip}"


def _kappa(budget: float | None, lambda0: float, lambda1: float, z: float,
           max_rules: int | None = None, max_literals: int | None = None,
           min_literal: float = 1.0) -> float:
    """An upper bound on sum_k w_k at an optimum of the full master LP (module docstring;
    ``max_rules`` and ``max_literals`` bound it too; every clause has a literal, whose cost
    is at least ``min_literal``)."""
    kappa = math.inf
    if budget is not None:
        kappa = budget / (1.0 + min_literal)
    if max_rules is not None:
        kappa = min(kappa, float(max_rules))
    if max_literals is not None:
        kappa = min(kappa, max_literals / min_literal)
    if lambda0 + lambda1 * min_literal > 0:
        kappa = min(kappa, z / (lambda0 + lambda1 * min_literal))
    return kappa


def solve_column_generation(problem: RuleSetProblem,
                            options: ColumnGenerationOptions | None = None, *,
                            initial_clauses: Sequence[Clause] = (),
                            progress: Callable[[dict[str, Any]], None] | None = None,
                            pricer: EnumerationPricer | None = None) -> ColumnGenerationResult:
    """Column generation for ``problem``, then the master IP over the pool.

    The problem (data, penalties, every side constraint) and the options (how to solve it)
    are the two values of :mod:`optirules.models` (:class:`RuleSetProblem`,
    :class:`ColumnGenerationOptions`); :func:`column_generation` is the same run with their
    fields as keywords, where every parameter is described.

    Parameters
    ----------
    problem : RuleSetProblem
        What to solve; the certificate is over its clauses.
    options : ColumnGenerationOptions, optional
        How; default ``ColumnGenerationOptions()``.
    initial_clauses : sequence of clauses
        Columns to start the pool with (e.g. the previous members', in the DRO loop; a
        clause of conflicting literals is left out).
    progress : callable, optional
        Called with each history record.
    pricer : EnumerationPricer, optional
        A pricer prepared for ``problem.A`` and its conflicts, shared between runs.

    Returns
    -------
    ColumnGenerationResult
    """
    return _ColumnGeneration(problem, ColumnGenerationOptions() if options is None
                             else options, initial_clauses, progress, pricer).run()


def column_generation(A: np.ndarray, y: np.ndarray, P: np.ndarray,
                      **settings: Any) -> ColumnGenerationResult:
    r"""Column generation for the weighted rule master, then the master IP over the pool.

    Parameters
    ----------
    A : bool array of shape (N, L)
        Literal matrix.
    y : bool array of shape (N,)
        Labels (True = positive).
    P : array of shape (N,)
        Row weights (a pmf in the DRO paper).
    **settings
        The fields of :class:`RuleSetProblem` (``complexity``, ``lambda0``, ``lambda1``,
        ``max_degree``, ``max_rules``, ``max_literals``, ``literal_costs``, ``required``,
        ``conflicts``, ``groups``, ``fairness``, ``fairness_tolerance``) and of
        :class:`ColumnGenerationOptions` (``pricing``, ``exact_method``, ``beam_width``,
        ``n_columns``, ``max_iter``, ``tol``, ``smoothing``, ``time_limit``,
        ``pricing_time_limit``, ``solver``, ``master``, ``mip_gap``, ``random_seed``,
        ``master_ip``, ``skip_ip``, ``ip_time_limit``, ``backend``), each described there,
        and the run's ``initial_clauses``, ``progress`` and ``pricer``
        (:func:`solve_column_generation`).  An unknown name raises
        :class:`~optirules.errors.InputError`.

    Returns
    -------
    ColumnGenerationResult
        ``info`` holds, among others, ``ip_route`` (how the master IP was solved),
        ``ip_nodes`` (branch-and-bound nodes), ``incumbent_source``, ``lp_support`` (the
        clauses with :math:`w_k > 0` in the final restricted LP), ``cg_time`` and
        ``ip_time``.
    """
    run = {k: settings.pop(k) for k in ("initial_clauses", "progress", "pricer")
           if k in settings}
    fixed = {"literals", "labels", "sample_weight"}
    unknown = set(settings) - (problem_fields() - fixed) - options_fields()
    if unknown:
        raise InputError(f"column_generation got unknown settings {sorted(unknown)}; the "
                         f"problem takes {sorted(problem_fields() - fixed)} and the "
                         f"options {sorted(options_fields())}.")
    problem = RuleSetProblem(A, y, P, **{k: v for k, v in settings.items()
                                         if k in problem_fields()})
    options = ColumnGenerationOptions(**{k: v for k, v in settings.items()
                                         if k in options_fields()})
    return solve_column_generation(problem, options, **run)


def _copy_duals(d: dict[str, Any]) -> dict[str, Any]:
    return {k: (np.array(v, copy=True) if isinstance(v, np.ndarray) else v)
            for k, v in d.items()}


class _ColumnGeneration:
    """One run of :func:`column_generation`: the restricted master, the pool, the best
    Lagrangian bound and its duals, and the steps -- iterate (solve the LP, price, add
    columns), certify (the bound at the final duals), then the master IP over the pool."""

    def __init__(self, problem: RuleSetProblem, options: ColumnGenerationOptions,
                 initial_clauses: Sequence[Clause] = (),
                 progress: Callable[[dict[str, Any]], None] | None = None,
                 pricer: EnumerationPricer | None = None) -> None:
        self.t_start = time.perf_counter()
        self.problem, self.options = problem, options
        pb, op = problem, options
        if op.master_ip == "branch_and_bound" and (
                (pb.max_rules, pb.max_literals) != (None, None) or pb.fairness is not None
                or pb.literal_costs is not None or pb.required):
            raise InputError("master_ip='branch_and_bound' has no max_rules, max_literals, "
                             "fairness or required rows and no literal costs; use "
                             "master_ip='milp' or 'auto'.")
        # the problem's parts and the options, read by the steps below and by PoolIP
        self.A, self.y, self.P = pb.A, pb.y, pb.P
        self.y_int = self.y.astype(np.int64)
        self.complexity, self.lambda0, self.lambda1 = pb.complexity, pb.lambda0, pb.lambda1
        self.max_rules, self.max_literals = pb.max_rules, pb.max_literals
        self.max_degree, self.fairness = pb.max_degree, pb.fairness
        self.literal_costs = pb.literal_costs
        self.required = [list(g) for g in pb.required]
        self.conflicts = pb.conflict_index
        self.deadline = None if op.time_limit is None else self.t_start + float(op.time_limit)
        self.pricing, self.beam_width = op.pricing, op.beam_width
        self.n_columns, self.max_iter = op.n_columns, op.max_iter
        self.pricing_time_limit, self.mip_gap = op.pricing_time_limit, op.mip_gap
        self.random_seed, self.master_ip, self.progress = op.random_seed, op.master_ip, progress
        self.skip_ip, self.ip_time_limit = op.skip_ip, op.ip_time_limit
        self.backend, self.tol, self.smoothing = op.backend, op.tol, op.smoothing
        max_degree, fairness = pb.max_degree, pb.fairness
        exact_method, pricing = op.exact_method, op.pricing
        self.use_milp = exact_method == "milp" or (exact_method == "auto" and max_degree > 3)
        # literal costs and required groups as rows of the enumeration (_pseudo_rows)
        self.costly = np.zeros(0, dtype=np.int64) if self.literal_costs is None else \
            np.flatnonzero(self.literal_costs != 1.0)
        n_pseudo = self.costly.size + len(self.required)
        if self.required:  # each group's single literals: clauses that meet its row
            initial_clauses = [*initial_clauses, *((j,) for g in self.required for j in g)]
        if self.use_milp and fairness is not None:
            raise InputError(f"fairness={fairness!r} needs exact pricing by enumeration "
                             "(the pricing MILP would return clauses of the pool, whose pair "
                             "rows it does not see); use max_degree <= 3 with "
                             "exact_method='auto' or 'enumerate'.")
        if fairness is not None or self.required:  # smoothed points would need their duals
            self.smoothing = 0.0
        # pricing="auto": beam search first only where exact pricing is costly (degree 3,
        # or the MILP); up to degree 2 the enumeration is one matrix product per row
        # block, and it returns the n_columns best clauses, of which beam search scores a
        # subset
        self.beam_first = self.use_milp or max_degree >= 3
        # smoothing where exact pricing is an occasional step after beam search (degree 3,
        # the MILP); where it is the pricer of every iteration, a mispriced smoothed point
        # costs a second enumeration per iteration
        self.smooth_pricing = pricing == "auto" and self.beam_first
        self.lp_solver, self.solver = split_solver(op.solver)
        # a clause of conflicting literals is no clause of the problem
        initial_clauses = [c for c in initial_clauses
                           if not self.conflicts.conflicting(tuple(c))]
        self.master = restricted_master(pb, initial_clauses, lp_solver=self.lp_solver,
                                        master=op.master)
        # the fairness rows' rates, to check the heuristic rule sets before the master IP
        self.fair = None if fairness is None else FairnessRows(
            self.y, np.asarray(self.P, dtype=float), pb.groups, fairness,
            pb.fairness_tolerance)
        if n_pseudo and pricer is not None:  # its rows lack the pseudo rows: one of our own
            pricer = None
        self.own_pricer = pricer is None
        self.stats0 = {} if pricer is None else dict(pricer.stats)  # a shared pricer's so far
        if pricer is not None and (pricer.n_rows, pricer.n_lit) != self.A.shape:
            raise InputError(f"pricer was prepared for a {pricer.n_rows} x {pricer.n_lit} "
                             f"literal matrix, not this {self.A.shape[0]} x "
                             f"{self.A.shape[1]} one.")
        if pricer is not None and not np.array_equal(pricer.conflicts.pairs, pb.conflicts):
            raise InputError("pricer was prepared with other conflicting literals than the "
                             "problem's; prepare it with conflicts=problem.conflicts.")
        self.pricer = pricer
        self.pool: set[Clause] = set(self.master.clauses_)
        self.pos_weight = np.asarray(self.P, dtype=float)[self.y]
        self.history: list[dict[str, Any]] = []
        self.best_bound = -math.inf
        self.center: dict[str, Any] | None = None  # the duals of the best bound so far
        self.last_lower = math.nan
        self.converged = False
        self.stop = "max_iter"
        self.n_exact_incomplete = 0
        self.n_mispriced = 0  # smoothed points whose clauses did not improve the LP
        self.z = math.nan
        self.unsolved: list[float] = []  # reduced costs of columns added after the last LP

    # ------------------------------------------------------------------ pricing
    def remaining(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())

    def kappa(self, z: float) -> float:
        lc = self.literal_costs
        return _kappa(self.complexity, self.lambda0, self.lambda1, z, self.max_rules,
                      self.max_literals, 1.0 if lc is None else float(lc.min()))

    def exact(self, duals: dict[str, Any], need_proof: bool):
        """Exact pricing at ``duals``: the pricing MILP or the enumeration."""
        if self.use_milp:
            tl = self.pricing_time_limit
            rem = self.remaining()
            if rem is not None:
                tl = rem if tl is None else min(tl, rem)
            return _milp_pricing(self.problem, duals, self.solver, tl, self.pool)
        comp = [0.0] + [float(complexity_costs(d, duals["lam"], duals["lambda0"],
                                               duals["lambda1"])) for d in range(1, 4)]
        dl = (None if self.pricing_time_limit is None
              else time.perf_counter() + self.pricing_time_limit)
        if self.deadline is not None:
            dl = self.deadline if dl is None else min(dl, self.deadline)
        if self.pricer is None:  # prepared once per run (row blocks, float copy, pairs)
            A = self.A if not self.pseudo_count() else np.vstack(
                [self.A, pseudo_rows(self.A.shape[1], self.costly, self.required)])
            self.pricer = EnumerationPricer(A, backend=self.backend,
                                            conflicts=self.problem.conflicts)
        v = row_prices(self.y, self.P, duals["mu"], duals.get("sigma"))
        if self.pseudo_count():  # literal costs and required groups as rows (_pseudo_rows)
            extra = np.zeros(0) if self.literal_costs is None else \
                self.literal_costs[self.costly] - 1.0
            prices, shift = pseudo_prices(duals, extra, len(self.required))
            v = np.concatenate([v, prices])
            comp = [0.0] + [c + shift for c in comp[1:]]
        found, lower, complete = self.pricer.price(v, comp, self.max_degree, k=self.n_columns,
                                                   pool=self.pool, deadline=dl,
                                                   need_proof=need_proof)
        if self.fairness is not None and complete:
            # a pool clause's reduced cost here leaves out the duals of its own pair rows
            # (it can be negative while HiGHS's is not): the bound is over the new clauses,
            # the best of which the enumeration returns first
            lower = min([0.0] + [r for _, r in found])
        return found, lower, complete

    def degree_words(self) -> str:
        """The clauses exact pricing searches, in words: "at most 2 literals", "1 literal"."""
        d = int(self.max_degree)
        return "1 literal" if d == 1 else f"at most {d} literals"

    def pseudo_count(self) -> int:
        return self.costly.size + len(self.required)

    def dual_value(self, d: dict[str, Any]) -> float:
        """The restricted master's dual objective at duals ``d`` (any ``0 <= mu <= 1``,
        ``lam >= 0`` are dual feasible for the row bounds; the columns enter by pricing)."""
        budget = 0.0 if self.complexity is None else float(self.complexity) * float(d["lam"])
        # a limit row's dual is what it adds to lambda0 (max_rules) or lambda1 (max_literals)
        if self.max_rules is not None:
            budget += self.max_rules * (float(d["lambda0"]) - self.lambda0)
        if self.max_literals is not None:
            budget += self.max_literals * (float(d["lambda1"]) - self.lambda1)
        return float(self.pos_weight @ d["mu"]) - budget

    def record_bound(self, d: dict[str, Any], lower: float, value: float,
                     kappa: float) -> None:
        """The Lagrangian bound ``value + kappa * lower`` of duals ``d`` (module docstring);
        the best so far, and its duals, are kept."""
        if math.isnan(lower):
            return
        bound = value if lower >= 0 else value + kappa * lower
        if bound > self.best_bound:
            self.best_bound = bound
            self.center = _copy_duals(d)

    def improving_at(self, cand: list[tuple[Clause, float]], d: dict[str, Any]
                     ) -> list[tuple[Clause, float]]:
        """The clauses of ``cand`` with a negative reduced cost at the LP duals ``d``."""
        if not cand:
            return []
        cs = [c for c, _ in cand]
        comp = complexity_costs(clause_degrees(cs, self.literal_costs), d["lam"],
                                d["lambda0"], d["lambda1"])
        r = comp + row_prices(self.y, self.P, d["mu"], d.get("sigma")) @ \
            clause_coverage(self.A, cs)
        return [(c, float(rk)) for c, rk in zip(cs, r) if rk < -RC_TOL]

    def exact_priced(self, duals: dict[str, Any], z: float, kappa: float, need_proof: bool,
                     fallback: bool) -> tuple[list[tuple[Clause, float]], float, bool, bool]:
        """Exact pricing with Wentges smoothing: first at ``smoothing * center + (1 -
        smoothing) * duals``, whose Lagrangian bound is as valid as the LP duals' own; the
        clauses it finds enter when they improve the LP at its own duals.  Otherwise (a
        mispricing, when ``fallback``) pricing at the LP duals.  Returns the columns, the
        lower bound on the reduced cost, whether the search completed, and whether those
        two are at the LP duals."""
        a = self.smoothing
        if a > 0 and self.center is not None and self.smooth_pricing and \
                (not fallback or self.n_mispriced < MAX_MISPRICINGS):
            c = self.center
            s = {"mu": a * c["mu"] + (1.0 - a) * duals["mu"],
                 "lam": a * float(c["lam"]) + (1.0 - a) * float(duals["lam"]),
                 "lambda0": duals["lambda0"], "lambda1": duals["lambda1"]}
            if (self.max_rules, self.max_literals) != (None, None):
                # the limit rows' duals are in the penalties, which are smoothed with them
                for key in ("lambda0", "lambda1"):
                    s[key] = a * float(c[key]) + (1.0 - a) * float(duals[key])
            found, low, done = self.exact(s, need_proof=False)
            self.record_bound(s, low, self.dual_value(s), kappa)
            good = self.improving_at(found, duals)
            if good or not fallback or (self.tol > 0
                                        and z - self.best_bound <= self.tol * z):
                return good, low, done, False
            self.n_mispriced += 1
        found, low, done = self.exact(duals, need_proof=need_proof)
        self.record_bound(duals, low, z, kappa)
        return found, low, done, True

    def price(self, it: int, duals: dict[str, Any], z: float, kappa: float
              ) -> tuple[list[tuple[Clause, float]], float, bool, str]:
        """One iteration's pricing: beam search first where it comes first, exact pricing
        when it found nothing (and, with ``tol``, every ``EXACT_EVERY`` iterations for a
        bound).  Returns the new columns, the lower bound on the reduced cost (NaN when no
        exact pricing ran), whether that bound is at the LP duals, and what ran."""
        from ._pricing import beam_search_pricing

        cols: list[tuple[Clause, float]] = []
        lower, at_lp, used = math.nan, True, ""
        if self.pricing == "beam" or (self.pricing == "auto" and self.beam_first):
            used = "beam"
            cand = beam_search_pricing(self.problem, PricingDuals.of(duals),
                                       beam_width=self.beam_width, k=self.n_columns,
                                       exclude=sorted(self.pool))
            cols = [(c, r) for c, r in cand if r < -RC_TOL and c not in self.pool]
        if not cols and self.pricing in ("exact", "auto"):
            used = "exact" if not used else "beam+exact"
            cols, lower, complete, at_lp = self.exact_priced(
                duals, z, kappa, self.pricing == "exact", fallback=True)
            if not complete and not cols:
                self.n_exact_incomplete += 1
        elif (cols and self.tol > 0 and self.pricing == "auto" and not self.use_milp
              and it % EXACT_EVERY == 0):
            # the beam found clauses: exact pricing (no proof needed) for a bound
            used = "beam+exact"
            more, lower, _, at_lp = self.exact_priced(duals, z, kappa, False, fallback=False)
            seen = {c for c, _ in cols}
            cols += [(c, r) for c, r in more if c not in seen]
        return cols, lower, at_lp, used

    # ------------------------------------------------------------------ the loop
    def add(self, cols: list[tuple[Clause, float]]) -> None:
        self.master.add_clauses([c for c, _ in cols])
        self.pool.update(c for c, _ in cols)

    def iterate(self) -> None:
        """Solve the restricted LP, price, add columns, until a stopping rule holds."""
        for it in range(1, self.max_iter + 1):
            z = self.z = self.master.solve()
            duals = self.master.duals_for_pricing_
            kappa = self.kappa(z)
            if it > 1 and self.deadline is not None and time.perf_counter() > self.deadline:
                self.stop = "time_limit"  # the LP over the pool is solved: no time to price
                return
            cols, lower, at_lp, used = self.price(it, duals, z, kappa)
            if not math.isnan(lower) and at_lp:
                self.last_lower = lower
            best_r = min((r for _, r in cols),
                         default=lower if not math.isnan(lower) else 0.0)
            record = {"iteration": it, "lp_objective": z, "best_reduced_cost": float(best_r),
                      "reduced_cost_lower_bound": float(lower), "columns_added": len(cols),
                      "pool_size": len(self.pool) + len(cols), "pricing": used,
                      "lp_bound": float(self.best_bound),
                      "time": time.perf_counter() - self.t_start}
            self.history.append(record)
            if self.progress is not None:
                self.progress(record)
            proved = not cols and at_lp and not math.isnan(lower) and lower >= -RC_TOL
            if (not proved and self.tol > 0 and math.isfinite(self.best_bound)
                    and z - self.best_bound <= self.tol * z):
                self.add(cols)  # kept for the IP; the LP is re-solved
                self.stop = (f"gap (the certified bound over clauses of "
                             f"{self.degree_words()} is within tol of the restricted LP)")
                return
            if not cols:
                if self.pricing == "beam":
                    self.stop = "beam search found no improving clause (no proof)"
                elif proved:
                    # a proven bound >= 0 is a proof, even from an interrupted search
                    self.converged = True
                    self.stop = (f"converged (exact pricing proved no improving clause of "
                                 f"{self.degree_words()})")
                else:
                    self.stop = "exact pricing stopped by its time limit (no proof)"
                return
            self.add(cols)
            if self.deadline is not None and time.perf_counter() > self.deadline:
                # no LP solve for the new columns (time_limit leaves none): they join the
                # IP's pool with their reduced costs at the last duals
                self.unsolved = [min(r, 0.0) for _, r in cols]
                self.stop = "time_limit"
                return

    def certify(self) -> None:
        """Solve the LP over the last columns and, after ``max_iter``, price once more at
        the final duals for a certified bound."""
        if self.converged or self.stop == "time_limit":
            return
        z = self.z = self.master.solve()  # columns added by the last iteration
        if self.pricing != "beam" and self.stop == "max_iter":
            duals = self.master.duals_for_pricing_
            _, lower, _ = self.exact(duals, need_proof=True)
            self.last_lower = lower
            self.record_bound(duals, lower, z, self.kappa(z))

    # ------------------------------------------------------------------ the master IP
    def run(self) -> ColumnGenerationResult:
        try:
            return self.solve()
        finally:
            self.close()

    def solve(self) -> ColumnGenerationResult:
        """Column generation from the current pool, then the master IP over it."""
        self.iterate()
        self.certify()
        t_ip = time.perf_counter()
        ip = PoolIP(self).solve()
        return self.result(ip, t_ip)

    def close(self) -> None:
        """Release the pricer when the run prepared it."""
        if self.pricer is not None and self.own_pricer:
            self.pricer.close()

    def restart(self, lambda0: float, lambda1: float) -> None:
        """The next penalty of a path: the problem with these penalties, the master's
        column costs changed in place where the master can (else rebuilt over the pool),
        and the run's record (history, bound, stop) started afresh; the pool, the LP's
        basis and the pricer's sums carry over."""
        self.problem = self.problem.replace(lambda0=lambda0, lambda1=lambda1)
        self.lambda0, self.lambda1 = self.problem.lambda0, self.problem.lambda1
        if hasattr(self.master, "set_penalties"):
            self.master.set_penalties(self.lambda0, self.lambda1)
        else:
            self.master = restricted_master(self.problem, self.master.clauses_,
                                            lp_solver=self.lp_solver,
                                            master=self.options.master)
        self.t_start = time.perf_counter()
        self.stats0 = {} if self.pricer is None else dict(self.pricer.stats)
        self.history = []
        self.best_bound = -math.inf
        self.center = None
        self.last_lower = math.nan
        self.converged = False
        self.stop = "max_iter"
        self.n_exact_incomplete = 0
        self.n_mispriced = 0
        self.z = math.nan
        self.unsolved = []

    def result(self, ip: dict[str, Any], t_ip: float) -> ColumnGenerationResult:
        """The result record: the gap of the IP's rule set to the certified bound."""
        A, y, P = self.A, self.y, self.P
        chosen, lc = ip["chosen"], self.literal_costs
        if self.fairness is None and not self.required:  # dropping one may break them
            chosen = prune_redundant(A, y, P, chosen, self.lambda0, self.lambda1, lc)
        ip_obj = master_objective(A, y, P, chosen, self.lambda0, self.lambda1, lc)
        certified = math.isfinite(self.best_bound)
        if certified:
            # every master objective is a sum of non-negative terms, so 0 bounds it too (a
            # Lagrangian bound below 0, from a large kappa, says nothing more)
            lp_bound = min(max(self.best_bound, 0.0), ip_obj)
            gap = 0.0 if ip_obj <= 0 else max(0.0, (ip_obj - lp_bound) / ip_obj)
            abs_gap = max(0.0, ip_obj - lp_bound)
        else:
            # no exact pricing finished (beam only, or stopped by a time limit): the
            # restricted LP bounds nothing over all clauses, so the gap is unknown, not 0
            lp_bound = gap = abs_gap = math.nan
        pricer = self.pricer
        info = {"n_exact_incomplete": self.n_exact_incomplete,
                "pricing_stats": None if pricer is None else {
                    k: v - self.stats0.get(k, 0) for k, v in pricer.stats.items()},
                "kappa": self.kappa(self.z), "ip_columns": ip["n_columns"],
                "greedy_objective": ip["incumbent_objective"],
                "cg_time": t_ip - self.t_start, "ip_time": time.perf_counter() - t_ip,
                "lp_support": ip["lp_support"], "duals": ip["duals"],
                "master": type(self.master).__name__, "lp_solver": self.lp_solver,
                "milp_solver": self.solver, "ip_route": ip["route"],
                "incumbent_source": ip["source"], "ip_nodes": ip["nodes"]}
        return ColumnGenerationResult(
            clauses=chosen, pool=self.master.clauses_, history=self.history,
            lp_objective=float(self.z), lp_bound=float(lp_bound), ip_objective=float(ip_obj),
            ip_status=ip["status"], ip_bound=ip["bound"], gap=float(gap),
            certified=certified, converged=self.converged, absolute_gap=float(abs_gap),
            stop_reason=self.stop, pricing_lower_bound=float(self.last_lower),
            fit_time=time.perf_counter() - self.t_start, info=info)


#: max_degree="auto" is 3 when the literals give at most this many triples (L <= 288)
_AUTO_DEGREE_TRIPLES = 4e6

#: max_degree="auto" is 2 (when not 3) when the literals give at most this many pairs
#: (L <= 20,000), else 1: the pairs of a wide table's literals are too many to enumerate
_AUTO_DEGREE_PAIRS = 2e8


def resolve_max_degree(max_degree: int | str, shape: tuple[int, int]) -> int:
    """``max_degree``, with ``"auto"`` resolved to 3, 2 or 1 by the number of literals ``L``:
    3 when :math:`L^3/6 \\le 4 \\cdot 10^6` (``L <= 288``), whatever the number of rows (exact
    pricing enumerates triples over row blocks with bound pruning; a pricing time-out still
    leaves a certified bound over degree 3); else 2 when :math:`L^2/2 \\le 2 \\cdot 10^8`
    (``L <= 20,000``); else 1 (a wide table, such as a few hundred rows of tens of
    thousands of numeric columns, whose pairs of literals exact pricing cannot enumerate in
    every iteration: each literal is priced alone, and the certificate is over single-literal
    rules).  The degree the certificate covers is in the fit's ``status_``.

    Parameters
    ----------
    max_degree : int or "auto"
        The requested degree.
    shape : tuple of (int, int)
        Shape ``(N, L)`` of the literal matrix.

    Returns
    -------
    int
        The clause degree to use.

    Examples
    --------
    >>> resolve_max_degree("auto", (1000, 200)), resolve_max_degree("auto", (60, 18000))
    (3, 2)
    >>> resolve_max_degree("auto", (60, 180000)), resolve_max_degree(2, (60, 180000))
    (1, 2)
    """
    if max_degree != "auto":
        return int(max_degree)
    _, n_lit = shape
    if n_lit ** 3 / 6.0 <= _AUTO_DEGREE_TRIPLES:
        return 3
    return 2 if n_lit ** 2 / 2.0 <= _AUTO_DEGREE_PAIRS else 1
