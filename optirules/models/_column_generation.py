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
    check_literal_costs,
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
from ._pseudo_rows import pseudo_prices, pseudo_rows
from .masters import FairnessRows, restricted_master
from .options import MASTER_IPS

__all__ = [
    "ColumnGenerationResult",
    "column_generation",
    "resolve_max_degree",
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


def _milp_pricing(A: np.ndarray, y: np.ndarray, P: np.ndarray, duals: dict[str, Any],
                  max_degree: int, solver: str, time_limit: float | None,
                  pool: set[Clause], literal_costs: Any = None, required: Any = None
                  ) -> tuple[list[tuple[Clause, float]], float, bool]:
    """Exact pricing by the MILP of :class:`~optirules.models.RulePricingModel`.

    Returns the optimal clause if it is new and negative, the MILP's bound (a proven lower
    bound on the minimum reduced cost, capped at 0), and whether it was solved to optimality.
    """
    from ..solvers import Status
    from ._pricing import RulePricingModel

    model = RulePricingModel(A, y, P, duals["mu"], duals["lam"], max_degree,
                             lambda0=duals["lambda0"], lambda1=duals["lambda1"],
                             literal_costs=literal_costs, required=required,
                             required_duals=duals.get("required_duals"))
    options = {"mip_abs_gap": 1e-10} if solver == "highs" else {}
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


def column_generation(A: np.ndarray, y: np.ndarray, P: np.ndarray, *,
                      complexity: float | None = None, lambda0: float = 0.0,
                      lambda1: float = 0.0, max_degree: int = 3, pricing: str = "auto",
                      exact_method: str = "auto", beam_width: int = 10, n_columns: int = 10,
                      max_iter: int = 100, time_limit: float | None = None,
                      pricing_time_limit: float | None = None,
                      solver: str | Mapping[str, str] = "highs", master: str = "auto",
                      mip_gap: float | None = 1e-6, random_seed: int | None = None,
                      initial_clauses: Sequence[Clause] = (), master_ip: str = "milp",
                      progress: Callable[[dict[str, Any]], None] | None = None,
                      skip_ip: bool = False, ip_time_limit: float | None = None,
                      backend: Any = "local", pricer: EnumerationPricer | None = None,
                      tol: float = 0.0, smoothing: float = 0.0, max_rules: int | None = None,
                      max_literals: int | None = None, groups: Any = None,
                      fairness: str | None = None, fairness_tolerance: float = 0.0,
                      literal_costs: Any = None, required: Any = None
                      ) -> ColumnGenerationResult:
    r"""Column generation for the weighted rule master, then the master IP over the pool.

    Parameters
    ----------
    A : bool array of shape (N, L)
        Literal matrix.
    y : bool array of shape (N,)
        Labels (True = positive).
    P : array of shape (N,)
        Row weights (a pmf in the DRO paper).
    complexity, lambda0, lambda1
        Budget :math:`C` (``None``: no budget row) and penalty costs.
    max_degree, pricing, exact_method, beam_width, n_columns, max_iter, time_limit
        As for :class:`~optirules.learners.BooleanRuleSetClassifier` (``pricing="auto"``: exact enumeration
        alone up to ``max_degree=2``; beam search first, then exact pricing when it finds
        nothing, at degree 3 or with the pricing MILP).
    pricing_time_limit, mip_gap, random_seed
        As for :class:`~optirules.learners.BooleanRuleSetClassifier`.
    solver : str or mapping, default "highs"
        One name for every part, or ``{"lp": ..., "milp": ...}``: the LP solver of the
        restricted master (it must return duals) and the MILP solver of the pricing MILP
        and the master IP.
    master : {"auto", "direct", "merged", "dual", "persistent", "rebuild"}, default "auto"
        How the restricted master LP is held (:func:`restricted_master`).
    initial_clauses : sequence of clauses
        Columns to start the pool with (e.g. the previous members', in the DRO loop).
    master_ip : {"milp", "auto", "branch_and_bound"}, default "milp"
        ``"milp"``: the final master IP is :class:`RuleMasterModel` solved by ``solver``
        (on HiGHS through ``highspy``); ``"branch_and_bound"``:
        :func:`~optirules.models.branch_and_bound_master` (LP-based branch and bound over
        the IP's dual LP in HiGHS); ``"auto"``: :func:`enumerate_master` when the budget
        admits at most 3 clauses (``complexity < 8``), else branch and bound when the MILP
        solver is HiGHS and the IP has at least ``BRANCH_AND_BOUND_ROWS`` merged label-1
        rows, else the MILP.
    progress : callable, optional
        Called with each history record.
    skip_ip : bool, default False
        ``True``: no master IP when the incumbent (the local-search rule set, or the
        restricted LP's solution rounded) is within ``mip_gap`` of the restricted LP's
        optimum, which bounds the IP from below: the rule set is that incumbent, within
        ``mip_gap`` of the optimum as the IP solver's would be (``ip_status`` "optimal
        (incumbent within mip_gap of the LP bound)", ``info["ip_route"]`` "incumbent").
        Among rule sets of equal objective it may differ from the solver's choice.  On a
        master IP of at least ``RESTRICTED_IP_ROWS`` merged label-1 rows, the incumbent is
        also sought by the IP over the restricted LP's 10 and 20 largest columns, each
        followed by local search (``info["incumbent_source"]`` names the winner).
    ip_time_limit : float, optional
        Seconds for the master IP alone (within ``time_limit``).  When it stops the IP,
        the rule set is the better of the IP solver's best solution and the incumbent
        (the local-search rule set), with its gap to the certified bound reported.
    backend : {"local", "dask"} or dask.distributed.Client, default "local"
        Where exact enumeration pricing maps its row blocks
        (:class:`~optirules.models.EnumerationPricer`); the same columns either way.
    pricer : EnumerationPricer, optional
        A pricer prepared for ``A`` (its row blocks, float copy, complement pairs), to share
        between runs on the same literal matrix (the DRO loop's members); the caller closes
        it.  Default: one prepared for this run.
    tol : float, default 0.0
        Stop column generation once the restricted LP value :math:`z` is within ``tol`` of
        the certified bound :math:`\underline{z}` (module docstring):
        :math:`z - \underline{z} \le \mathrm{tol} \cdot z`.  No clause can then lower the LP
        by more than ``tol`` (relative), so the final gap stays certified
        (``stop_reason`` "gap ...", ``converged`` False).  With beam search first at degree
        3, exact enumeration also runs every ``EXACT_EVERY`` iterations in which the beam
        found clauses, for a bound.  ``0``: column generation runs until pricing proves
        that no improving clause exists (or ``max_iter``).
    smoothing : float in [0, 1), default 0.0
        Wentges' dual smoothing (Wentges 1997, "Weighted Dantzig-Wolfe decomposition for
        linear mixed-integer programming", Int. Trans. Oper. Res. 4(2)): exact pricing runs
        at :math:`\alpha \pi_c + (1 - \alpha) \pi` for the LP duals :math:`\pi` and the
        duals :math:`\pi_c` of the best Lagrangian bound so far, :math:`\alpha` =
        ``smoothing``, with ``pricing="auto"`` where beam search comes first (degree 3, or
        the pricing MILP; exact pricing is then an occasional step for the bound).  Every
        dual point in the box gives a valid bound, so the certificate is unchanged; the
        bound rises faster where the LP duals oscillate (degenerate restricted masters).  A clause found there enters when it improves the LP at
        :math:`\pi`; when none does (a mispricing), pricing runs again at :math:`\pi` (so
        the proof of convergence is always at the LP's own duals), and after
        ``MAX_MISPRICINGS`` of them the pricing after a failed beam search is done at
        :math:`\pi` alone (near the optimum the smoothed points misprice; each costs a
        second enumeration).  ``0``: plain column generation.
    max_rules, max_literals : int, optional
        At most this many clauses, at most this many literals in all: rows of the master
        LP and IP (:class:`~optirules.models.RuleMasterModel`), whose duals
        :math:`\nu \ge 0` pricing adds to :math:`\lambda_0` and :math:`\lambda_1`, so
        exact pricing still proves the LP optimal and the bound stays certified
        (:math:`\kappa` is at most the limit).  The master is then the direct or the
        rebuilt one and the master IP the MILP (``master_ip="branch_and_bound"`` is
        refused).
    groups : array-like of shape (N,), optional
        The protected attribute, one value per row (for ``fairness``).
    fairness : {None, "equal_opportunity", "predictive_equality", "equalized_odds"}
        Fairness rows of Lawless, Dash, Günlük and Wei ("Interpretable and Fair Boolean
        Rule Sets via Column Generation", JMLR 24, 2023) in the master LP and IP: the
        groups' miss rates of the label-1 rows (equal opportunity), their rates of covered
        label-0 rows (predictive equality), or both (equalized odds) within
        ``fairness_tolerance`` of each other.  The miss and cover indicators are exact by
        one row per pair of a row and a clause covering it, added with the clause; a new
        clause's pair rows have dual 0, so pricing is that of the plain master with the
        label-0 rows priced :math:`P_i (1 - \sigma_i)` (:func:`row_prices`) and exact
        pricing still proves the LP optimal.  The IP's rule set meets the rows exactly on
        these rows; it is not pruned afterwards, the incumbent before the IP is the empty
        rule set (always fair), smoothing is off, and the master is the direct or the
        rebuilt one with the MILP master IP.
    fairness_tolerance : float, default 0.0
        The largest difference allowed between two groups' rates.
    required : sequence of sequences of int, optional
        Groups of literals (a required feature's literals), each of which the rule set
        must use: a row :math:`\sum_{k \text{ uses } f} w_k \ge 1` of the master per group
        (in the LP with an artificial column of cost ``big_m``; in the IP without), whose
        dual is a bonus in pricing (the pricing MILP, with one binary per group, or the
        enumeration, with one row per group; see ``literal_costs``).  The pool starts with
        each group's single literals.  A master IP without a rule set
        that meets every row (limits too tight) raises an error naming them.
    literal_costs : array of shape (L,), optional
        A cost > 0 per literal (:class:`~optirules.models.RuleMasterModel`): every term
        that counts a clause's literals counts their costs, and :math:`\kappa` uses the
        least cost.  Exact pricing stays exact: the pricing MILP
        (:class:`~optirules.models.RulePricingModel`) takes the costs in its objective,
        and the enumeration prices them as rows appended to the literal matrix -- one per
        literal of cost :math:`c_j \ne 1`, all ones but at :math:`j`, priced
        :math:`-(\lambda + \lambda_1)(c_j - 1)`, covered exactly by the clauses without
        :math:`j` -- with the complexity part shifted by
        :math:`(\lambda + \lambda_1) \sum_j (c_j - 1)`; a required group is one more
        such row, all ones but at its literals, priced at its dual (the same for
        ``required``).

    Returns
    -------
    ColumnGenerationResult
        ``info`` holds, among others, ``ip_route`` (how the master IP was solved),
        ``ip_nodes`` (branch-and-bound nodes), ``incumbent_source``, ``lp_support`` (the
        clauses with :math:`w_k > 0` in the final restricted LP), ``cg_time`` and
        ``ip_time``.
    """
    return _ColumnGeneration(
        A, y, P, complexity=complexity, lambda0=lambda0, lambda1=lambda1,
        max_degree=max_degree, pricing=pricing, exact_method=exact_method,
        beam_width=beam_width, n_columns=n_columns, max_iter=max_iter, time_limit=time_limit,
        pricing_time_limit=pricing_time_limit, solver=solver, master=master, mip_gap=mip_gap,
        random_seed=random_seed, initial_clauses=initial_clauses, master_ip=master_ip,
        progress=progress, skip_ip=skip_ip, ip_time_limit=ip_time_limit, backend=backend,
        pricer=pricer, tol=tol, smoothing=smoothing, max_rules=max_rules,
        max_literals=max_literals, groups=groups, fairness=fairness,
        fairness_tolerance=fairness_tolerance, literal_costs=literal_costs,
        required=required).run()


def _copy_duals(d: dict[str, Any]) -> dict[str, Any]:
    return {k: (np.array(v, copy=True) if isinstance(v, np.ndarray) else v)
            for k, v in d.items()}


class _ColumnGeneration:
    """One run of :func:`column_generation`: the restricted master, the pool, the best
    Lagrangian bound and its duals, and the steps -- iterate (solve the LP, price, add
    columns), certify (the bound at the final duals), then the master IP over the pool."""

    def __init__(self, A: np.ndarray, y: np.ndarray, P: np.ndarray, *,
                 complexity: float | None, lambda0: float, lambda1: float,
                 max_degree: int, pricing: str, exact_method: str, beam_width: int,
                 n_columns: int, max_iter: int, time_limit: float | None,
                 pricing_time_limit: float | None, solver: str | Mapping[str, str],
                 master: str, mip_gap: float | None, random_seed: int | None,
                 initial_clauses: Sequence[Clause], master_ip: str,
                 progress: Callable[[dict[str, Any]], None] | None, skip_ip: bool,
                 ip_time_limit: float | None, backend: Any,
                 pricer: EnumerationPricer | None, tol: float, smoothing: float,
                 max_rules: int | None = None, max_literals: int | None = None,
                 groups: Any = None, fairness: str | None = None,
                 fairness_tolerance: float = 0.0, literal_costs: Any = None,
                 required: Any = None) -> None:
        self.t_start = time.perf_counter()
        if master_ip not in MASTER_IPS:
            raise InputError(f"master_ip must be one of {MASTER_IPS}, got {master_ip!r}.")
        self.max_rules, self.max_literals = max_rules, max_literals
        self.fairness = fairness
        if master_ip == "branch_and_bound" and (
                (max_rules, max_literals) != (None, None) or fairness is not None):
            raise InputError("master_ip='branch_and_bound' has no max_rules, max_literals or "
                             "fairness rows; use master_ip='milp' or 'auto'.")
        if not (isinstance(tol, (int, float)) and math.isfinite(tol) and tol >= 0):
            raise InputError(f"tol must be a finite number >= 0, got {tol!r}.")
        if not (isinstance(smoothing, (int, float)) and 0 <= smoothing < 1):
            raise InputError(f"smoothing must be a number in [0, 1), got {smoothing!r}.")
        self.deadline = None if time_limit is None else self.t_start + float(time_limit)
        self.y = np.asarray(y, dtype=bool)
        self.A = np.ascontiguousarray(A, dtype=bool)
        self.y_int = self.y.astype(np.int64)
        self.P = P
        self.complexity, self.lambda0, self.lambda1 = complexity, lambda0, lambda1
        self.max_degree, self.pricing, self.beam_width = max_degree, pricing, beam_width
        self.n_columns, self.max_iter = n_columns, max_iter
        self.pricing_time_limit, self.mip_gap = pricing_time_limit, mip_gap
        self.random_seed, self.master_ip, self.progress = random_seed, master_ip, progress
        self.skip_ip, self.ip_time_limit = skip_ip, ip_time_limit
        self.backend, self.tol, self.smoothing = backend, tol, smoothing
        self.literal_costs = check_literal_costs(literal_costs, np.shape(A)[1])
        self.required = [sorted({int(j) for j in g}) for g in required or ()]
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
        self.lp_solver, self.solver = split_solver(solver)
        self.master = restricted_master(self.A, self.y_int, P, initial_clauses,
                                        complexity=complexity, lambda0=lambda0,
                                        lambda1=lambda1, lp_solver=self.lp_solver,
                                        master=master, max_rules=max_rules,
                                        max_literals=max_literals, groups=groups,
                                        fairness=fairness,
                                        fairness_tolerance=fairness_tolerance,
                                        literal_costs=literal_costs,
                                        required=self.required or None)
        # the fairness rows' rates, to check the heuristic rule sets before the master IP
        self.fair = None if fairness is None else FairnessRows(
            self.y, np.asarray(P, dtype=float), groups, fairness, fairness_tolerance)
        if n_pseudo and pricer is not None:  # its rows lack the pseudo rows: one of our own
            pricer = None
        self.own_pricer = pricer is None
        self.stats0 = {} if pricer is None else dict(pricer.stats)  # a shared pricer's so far
        if pricer is not None and (pricer.n_rows, pricer.n_lit) != self.A.shape:
            raise InputError(f"pricer was prepared for a {pricer.n_rows} x {pricer.n_lit} "
                             f"literal matrix, not this {self.A.shape[0]} x "
                             f"{self.A.shape[1]} one.")
        self.pricer = pricer
        self.pool: set[Clause] = set(self.master.clauses_)
        self.pos_weight = np.asarray(P, dtype=float)[self.y]
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
            return _milp_pricing(self.A, self.y_int, self.P, duals, self.max_degree,
                                 self.solver, tl, self.pool, self.literal_costs,
                                 self.required)
        comp = [0.0] + [float(complexity_costs(d, duals["lam"], duals["lambda0"],
                                               duals["lambda1"])) for d in range(1, 4)]
        dl = (None if self.pricing_time_limit is None
              else time.perf_counter() + self.pricing_time_limit)
        if self.deadline is not None:
            dl = self.deadline if dl is None else min(dl, self.deadline)
        if self.pricer is None:  # prepared once per run (row blocks, float copy, pairs)
            A = self.A if not self.pseudo_count() else np.vstack(
                [self.A, pseudo_rows(self.A.shape[1], self.costly, self.required)])
            self.pricer = EnumerationPricer(A, backend=self.backend)
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
            cand = beam_search_pricing(self.A, self.y_int, self.P, duals["mu"], duals["lam"],
                                       self.max_degree, lambda0=duals["lambda0"],
                                       lambda1=duals["lambda1"], beam_width=self.beam_width,
                                       k=self.n_columns, exclude=sorted(self.pool),
                                       sigma=duals.get("sigma"),
                                       literal_costs=self.literal_costs,
                                       required=self.required,
                                       required_duals=duals.get("required_duals"))
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
                self.stop = "gap (the certified bound is within tol of the restricted LP)"
                return
            if not cols:
                if self.pricing == "beam":
                    self.stop = "beam search found no improving clause (no proof)"
                elif proved:
                    # a proven bound >= 0 is a proof, even from an interrupted search
                    self.converged = True
                    self.stop = "converged (exact pricing proved no improving clause)"
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
        self.iterate()
        self.certify()
        t_ip = time.perf_counter()
        ip = PoolIP(self).solve()
        if self.pricer is not None and self.own_pricer:
            self.pricer.close()
        return self.result(ip, t_ip)

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


def resolve_max_degree(max_degree: int | str, shape: tuple[int, int]) -> int:
    """``max_degree``, with ``"auto"`` resolved to 3 or 2 by the number of literals ``L``:
    3 when :math:`L^3/6 \\le 4 \\cdot 10^6` (``L <= 288``), whatever the number of rows (exact
    pricing enumerates triples over row blocks with bound pruning; a pricing time-out still
    leaves a certified bound over degree 3), else 2.

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
    """
    if max_degree != "auto":
        return int(max_degree)
    _, n_lit = shape
    return 3 if n_lit ** 3 / 6.0 <= _AUTO_DEGREE_TRIPLES else 2
