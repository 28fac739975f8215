r"""The weighted rule master as one value, and column generation's settings as another.

:class:`RuleSetProblem` holds everything that defines the problem a rule set solves: the
literal matrix, the labels and the row weights, the penalties or the budget, the clause
degree, every side constraint (``max_rules``, ``max_literals``, literal costs, required
groups, conflicting literals) and the fairness rows.  A learner builds and validates it
once and passes it whole to :func:`~optirules.models.solve_column_generation`, which hands
it to pricing, the masters and the master IP, so a constraint cannot be dropped on one
path.  :class:`ColumnGenerationOptions` holds how the problem is solved (pricing, beam,
iterations, tolerance, smoothing, time limits, solver, master); changing an option never
changes the problem, so the certificate is always for the problem.

Both are frozen: :meth:`RuleSetProblem.replace` (or :func:`dataclasses.replace`) gives a
new value, e.g. another pmf for a DRO member or another penalty on a penalty path.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError
from ._clauses import (
    check_labels,
    check_literal_costs,
    check_literal_matrix,
    check_nonnegative,
    check_sample_weight,
)
from ._conflicts import ConflictIndex, check_conflicts
from .options import EXACT_METHODS, FAIRNESS, MASTER_IPS, MASTERS, PRICING

__all__ = ["ColumnGenerationOptions", "RuleSetProblem", "options_fields", "problem_fields"]

#: the largest float64 copy of the literal matrix a problem holds for beam search
FLOAT_COPY_BYTES = 1 << 27


def _frozen_array(a: np.ndarray) -> np.ndarray:
    """A read-only view of ``a`` (the caller's array keeps its own flags)."""
    view = a.view()
    view.flags.writeable = False
    return view


@dataclass(frozen=True, eq=False)
class RuleSetProblem:
    r"""The weighted rule master over all clauses of at most ``max_degree`` literals.

    .. math::

        \min\ \sum_{i \in P^+} \xi_i + \sum_k \Big(\sum_{i \in Z_k} P_i + \lambda_0
            + \lambda_1 |k|\Big) w_k
        \quad\text{s.t. } \xi_i + P_i \sum_{k \ni i} w_k \ge P_i \ (i \in P^+),\
        \sum_k c_k w_k \le C,\ w_k \in \{0, 1\}

    (the DRO paper, Section 3, eqs 6-8), with the side constraints below.

    Parameters
    ----------
    literals : bool array of shape (N, L)
        Literal matrix :math:`A` (stored read-only).
    labels : bool array of shape (N,)
        Labels :math:`y` (True: the class the rules describe).
    sample_weight : array of shape (N,) or None
        Row weights :math:`P` (a pmf in the DRO paper; None: uniform).
    complexity : float or None, default None
        Budget :math:`C` (rules plus literals); ``None``: no budget row.
    lambda0, lambda1 : float, default 0.0
        Penalty per clause and per literal.
    max_degree : int, default 3
        Most literals in one clause.
    max_rules, max_literals : int, optional
        At most this many clauses, at most this many literals in all: rows of the master
        LP and IP (:class:`~optirules.models.RuleMasterModel`), whose duals
        :math:`\nu \ge 0` pricing adds to :math:`\lambda_0` and :math:`\lambda_1`, so
        exact pricing still proves the LP optimal and the bound stays certified
        (:math:`\kappa` is at most the limit).  The master is then the direct or the
        rebuilt one and the master IP the MILP (``master_ip="branch_and_bound"`` is
        refused).
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
    required : sequence of sequences of int, optional
        Groups of literals (a required feature's literals), each of which the rule set
        must use: a row :math:`\sum_{k \text{ uses } f} w_k \ge 1` of the master per group
        (in the LP with an artificial column of cost ``big_m``; in the IP without), whose
        dual is a bonus in pricing (the pricing MILP, with one binary per group, or the
        enumeration, with one row per group; see ``literal_costs``).  The pool starts with
        each group's single literals.  A master IP without a rule set
        that meets every row (limits too tight) raises an error naming them.
    conflicts : array of shape (m, 2)
        Pairs of literals no clause holds together: one contradicts the other (``x <= 2``
        and ``x > 5``) or implies it (``x > 4`` and ``x > 2``), so the clause can never
        fire or equals a shorter one (:func:`~optirules.data.literal_conflicts`).  Pricing
        never generates such a clause, and the certificate is over the other clauses.
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
        label-0 rows priced :math:`P_i (1 - \sigma_i)` (:func:`~optirules.models.row_prices`) and exact
        pricing still proves the LP optimal.  The IP's rule set meets the rows exactly on
        these rows; it is not pruned afterwards, the incumbent before the IP is the empty
        rule set (always fair), smoothing is off, and the master is the direct or the
        rebuilt one with the MILP master IP.
    fairness_tolerance : float, default 0.0
        The largest difference allowed between two groups' rates.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[1, 0], [0, 1], [1, 1]], dtype=bool)
    >>> p = RuleSetProblem(A, np.array([1, 0, 1], bool), np.full(3, 1 / 3), lambda0=0.01)
    >>> p.n_rows, p.n_literals, p.replace(lambda0=0.02).lambda0
    (3, 2, 0.02)
    """

    literals: np.ndarray
    labels: np.ndarray
    sample_weight: np.ndarray | None
    complexity: float | None = None
    lambda0: float = 0.0
    lambda1: float = 0.0
    max_degree: int = 3
    max_rules: int | None = None
    max_literals: int | None = None
    literal_costs: np.ndarray | None = None
    required: tuple[tuple[int, ...], ...] = ()
    conflicts: np.ndarray | None = None
    groups: np.ndarray | None = None
    fairness: str | None = None
    fairness_tolerance: float = 0.0

    def __post_init__(self) -> None:
        put = object.__setattr__
        A = check_literal_matrix(self.literals)
        n_rows, n_lit = A.shape
        put(self, "literals", _frozen_array(A))
        put(self, "labels", _frozen_array(check_labels(self.labels, n_rows)))
        put(self, "sample_weight", _frozen_array(np.array(
            check_sample_weight(self.sample_weight, n_rows), dtype=float)))
        if self.complexity is not None:
            put(self, "complexity", check_nonnegative(self.complexity, "complexity"))
        put(self, "lambda0", check_nonnegative(self.lambda0, "lambda0"))
        put(self, "lambda1", check_nonnegative(self.lambda1, "lambda1"))
        if isinstance(self.max_degree, bool) or not isinstance(
                self.max_degree, (int, np.integer)) or self.max_degree < 1:
            raise InputError(f"max_degree must be an integer >= 1, got {self.max_degree!r}.")
        put(self, "max_degree", int(self.max_degree))
        for name in ("max_rules", "max_literals"):
            v = getattr(self, name)
            if v is not None:
                if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                    raise InputError(f"{name} must be None or a whole number >= 1, got {v!r}.")
                put(self, name, int(v))
        lc = check_literal_costs(self.literal_costs, n_lit)
        put(self, "literal_costs", None if lc is None else _frozen_array(lc))
        groups = []
        for g in self.required or ():
            gg = tuple(sorted({int(j) for j in g}))
            if not gg or gg[0] < 0 or gg[-1] >= n_lit:
                raise InputError(f"a required group must hold literal indices in 0 .. "
                                 f"{n_lit - 1}, got {list(gg)}.")
            groups.append(gg)
        put(self, "required", tuple(groups))
        put(self, "conflicts", _frozen_array(check_conflicts(self.conflicts, n_lit)))
        if self.fairness is not None:
            if self.fairness not in FAIRNESS:
                raise InputError(f"fairness must be one of {FAIRNESS} or None, got "
                                 f"{self.fairness!r}.")
            if self.groups is None:
                raise InputError(f"fairness={self.fairness!r} needs the protected attribute "
                                 "(groups, one value per row).")
        if self.groups is not None:
            g = np.asarray(self.groups)
            if g.shape[0] != n_rows:
                raise InputError(f"groups must give one value per row ({n_rows}), got "
                                 f"{g.shape[0]}.")
            put(self, "groups", _frozen_array(np.array(g, copy=True)))
        tol = self.fairness_tolerance
        if not (isinstance(tol, (int, float, np.floating)) and 0 <= float(tol) <= 1):
            raise InputError(f"fairness_tolerance must be a number in [0, 1], got {tol!r}.")
        put(self, "fairness_tolerance", float(tol))

    # ------------------------------------------------------------------ views
    @property
    def A(self) -> np.ndarray:
        """The literal matrix (``literals``), in the papers' letter."""
        return self.literals

    @property
    def y(self) -> np.ndarray:
        """The labels (``labels``), in the papers' letter."""
        return self.labels

    @property
    def P(self) -> np.ndarray:
        """The row weights (``sample_weight``, validated), in the DRO paper's letter."""
        return self.sample_weight

    @property
    def n_rows(self) -> int:
        return int(self.literals.shape[0])

    @property
    def n_literals(self) -> int:
        return int(self.literals.shape[1])

    @property
    def limited(self) -> bool:
        """Whether a side constraint beyond the budget row is set (the master is then the
        direct or rebuilt one, and the master IP the MILP)."""
        return ((self.max_rules, self.max_literals) != (None, None)
                or self.fairness is not None or self.literal_costs is not None
                or bool(self.required))

    def replace(self, **changes: Any) -> RuleSetProblem:
        """A copy with ``changes`` (validated as a new problem).

        Parameters
        ----------
        **changes
            Fields and their new values, e.g. ``lambda0=0.01`` or ``P=...``.

        Returns
        -------
        RuleSetProblem
            With the same literal matrix, the float64 copy of it made for this problem
            (``float_literals``) is shared, not made again.
        """
        new = dataclasses.replace(self, **changes)
        if "literals" not in changes and "_float_literals" in self.__dict__:
            object.__setattr__(new, "_float_literals", self.__dict__["_float_literals"])
        return new

    @property
    def float_literals(self) -> np.ndarray | None:
        """A float64 copy of the literal matrix, made once, when it takes at most
        ``FLOAT_COPY_BYTES`` (beam search's products then skip the conversion each call
        would make); None above."""
        if "_float_literals" not in self.__dict__:
            A = self.literals
            held = A.astype(np.float64) if 8 * A.size <= FLOAT_COPY_BYTES else None
            object.__setattr__(self, "_float_literals", held)
        return self.__dict__["_float_literals"]

    @property
    def conflict_index(self) -> ConflictIndex:
        """The conflicting pairs indexed for pricing (built once)."""
        held = self.__dict__.get("_conflict_index")
        if held is None:
            held = ConflictIndex(self.conflicts, self.n_literals)
            object.__setattr__(self, "_conflict_index", held)
        return held


@dataclass(frozen=True)
class ColumnGenerationOptions:
    r"""How column generation solves a :class:`RuleSetProblem`; nothing here changes the
    problem or what its certificate is over.

    Parameters
    ----------
    pricing, exact_method, beam_width, n_columns, max_iter, time_limit
        As for :class:`~optirules.learners.BooleanRuleSetClassifier` (``pricing="auto"``:
        exact enumeration alone up to ``max_degree=2``; beam search first, then exact
        pricing when it finds nothing, at degree 3 or with the pricing MILP).
    pricing_time_limit, mip_gap, random_seed
        As for :class:`~optirules.learners.BooleanRuleSetClassifier`.
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
    solver : str or mapping, default "highs"
        One name for every part, or ``{"lp": ..., "milp": ...}``: the LP solver of the
        restricted master (it must return duals) and the MILP solver of the pricing MILP
        and the master IP.
    master : {"auto", "direct", "merged", "dual", "persistent", "rebuild"}, default "auto"
        How the restricted master LP is held (:func:`~optirules.models.restricted_master`).
    master_ip : {"milp", "auto", "branch_and_bound"}, default "milp"
        ``"milp"``: the final master IP is :class:`~optirules.models.RuleMasterModel` solved by ``solver``
        (on HiGHS through ``highspy``); ``"branch_and_bound"``:
        :func:`~optirules.models.branch_and_bound_master` (LP-based branch and bound over
        the IP's dual LP in HiGHS); ``"auto"``: :func:`~optirules.models.enumerate_master` when the budget
        admits at most 3 clauses (``complexity < 8``), else branch and bound when the MILP
        solver is HiGHS and the IP has at least ``BRANCH_AND_BOUND_ROWS`` merged label-1
        rows, else the MILP.
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

    Examples
    --------
    >>> ColumnGenerationOptions(tol=0.01).replace(max_iter=5).max_iter
    5
    """

    pricing: str = "auto"
    exact_method: str = "auto"
    beam_width: int = 10
    n_columns: int = 10
    max_iter: int = 100
    tol: float = 0.0
    smoothing: float = 0.0
    time_limit: float | None = None
    pricing_time_limit: float | None = None
    solver: str | Mapping[str, str] = "highs"
    master: str = "auto"
    mip_gap: float | None = 1e-6
    random_seed: int | None = None
    master_ip: str = "milp"
    skip_ip: bool = False
    ip_time_limit: float | None = None
    backend: Any = "local"

    def __post_init__(self) -> None:
        for name, allowed in (("pricing", PRICING), ("exact_method", EXACT_METHODS),
                              ("master", MASTERS), ("master_ip", MASTER_IPS)):
            if getattr(self, name) not in allowed:
                raise InputError(f"{name} must be one of {allowed}, got "
                                 f"{getattr(self, name)!r}.")
        for name in ("beam_width", "n_columns", "max_iter"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise InputError(f"{name} must be an integer >= 1, got {v!r}.")
            object.__setattr__(self, name, int(v))
        if not (isinstance(self.tol, (int, float)) and math.isfinite(self.tol)
                and self.tol >= 0):
            raise InputError(f"tol must be a finite number >= 0, got {self.tol!r}.")
        if not (isinstance(self.smoothing, (int, float)) and 0 <= self.smoothing < 1):
            raise InputError(f"smoothing must be a number in [0, 1), got {self.smoothing!r}.")

    def replace(self, **changes: Any) -> ColumnGenerationOptions:
        """A copy with ``changes``.

        Parameters
        ----------
        **changes
            Fields and their new values, e.g. ``max_iter=5``.

        Returns
        -------
        ColumnGenerationOptions
        """
        return dataclasses.replace(self, **changes)


def problem_fields() -> frozenset[str]:
    """The names of :class:`RuleSetProblem`'s fields."""
    return frozenset(f.name for f in dataclasses.fields(RuleSetProblem))


def options_fields() -> frozenset[str]:
    """The names of :class:`ColumnGenerationOptions`'s fields."""
    return frozenset(f.name for f in dataclasses.fields(ColumnGenerationOptions))

