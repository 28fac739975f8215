r"""Pricing for the rule master: the clause of minimum reduced cost.

Given the duals of the master LP (:class:`~optirules.models.RuleMasterModel`
with ``relax=True``) — :math:`\mu_i \ge 0` of the cover rows (the DRO paper eq 7) and
:math:`\lambda \ge 0` of the complexity row (eq 8), or the penalty costs
:math:`\lambda_0, \lambda_1` — the reduced cost of clause ``k`` is

.. math::

    r(k) = \lambda c_k + \lambda_0 + \lambda_1 |k|
           + \sum_{i \in Z,\ k \text{ covers } i} P_i
           - \sum_{i \in P^+,\ k \text{ covers } i} \mu_i P_i ,\qquad c_k = 1 + |k|,

the column-generation pricing problem of Dash, Günlük and Wei (2018, "Boolean
Decision Rules via Column Generation", NeurIPS) with the dual terms scaled by the
sample weights :math:`P_i` as the DRO paper (Section 3, after eq 8) prescribes.
Column generation adds clauses while :math:`\min_k r(k) < -\varepsilon`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from ..errors import InputError
from ._base import OptModel
from ._clauses import (
    Clause,
    PricingDuals,
    check_cover_duals,
    check_labels,
    check_literal_costs,
    check_literal_matrix,
    check_nonnegative,
    check_sample_weight,
    complexity_costs,
    literal_label,
    normalize_clauses,
    reduced_costs,
    row_label,
    row_prices,
)
from ._conflicts import ConflictIndex
from ._enumeration import blas_threads
from ._problem import RuleSetProblem
from ._row_blocks import row_block_sum

__all__ = ["RulePricingModel", "beam_search_pricing"]


class _PricingData:
    """Validated pricing inputs shared by the MILP and the beam search."""

    def __init__(self, problem: RuleSetProblem, duals: PricingDuals | Mapping[str, Any],
                 exclude: Any = None) -> None:
        duals = PricingDuals.of(duals)
        A, y, sample_weight = problem.literals, problem.labels, problem.sample_weight
        mu, lam = duals.cover_duals, duals.complexity_dual
        lambda0, lambda1, sigma = duals.lambda0, duals.lambda1, duals.sigma
        max_degree, literal_costs = problem.max_degree, problem.literal_costs
        required = [list(g) for g in problem.required] or None
        required_duals, conflicts = duals.required_duals, problem.conflicts
        self.A = check_literal_matrix(A)
        #: the problem's float64 copy of A (None when too large: converted block by block)
        self.Af = problem.float_literals if self.A is problem.literals else None
        n_rows, n_lit = self.A.shape
        self.y = check_labels(y, n_rows)
        self.P = check_sample_weight(sample_weight, n_rows)
        self.mu = check_cover_duals(mu, int(self.y.sum()))
        self.lam = check_nonnegative(lam, "lam")
        self.lambda0 = check_nonnegative(lambda0, "lambda0")
        self.lambda1 = check_nonnegative(lambda1, "lambda1")
        if isinstance(max_degree, (bool, np.bool_)) or not isinstance(
                max_degree, (int, np.integer)) or max_degree < 1:
            raise InputError(
                f"max_degree must be an integer >= 1 (the most literals a clause may "
                f"have), got {max_degree!r}."
            )
        self.max_degree = int(min(max_degree, n_lit))
        self.exclude = [k for k in normalize_clauses(exclude or (), n_lit) if k]
        self.sigma = sigma
        self.literal_costs = check_literal_costs(literal_costs, n_lit)
        self.required = list(required or ())
        self.required_duals = [] if required_duals is None else [float(r) for r in required_duals]
        self.v = row_prices(self.y, self.P, self.mu, sigma)
        self.conflicts = ConflictIndex(conflicts, n_lit)

    def reduced_costs(self, clauses: list[Clause]) -> np.ndarray:
        duals = PricingDuals(self.mu, self.lam, self.lambda0, self.lambda1, self.sigma,
                             self.required_duals)
        return reduced_costs(self.A, self.y, clauses, duals, sample_weight=self.P,
                             literal_costs=self.literal_costs, required=self.required)


class RulePricingModel(OptModel):
    r"""Exact pricing MILP: the clause with at most ``max_degree`` literals of least reduced cost.

    The MILP of Dash, Günlük and Wei (2018), with the dual terms scaled by the
    sample weights (the DRO paper, Section 3).  With :math:`z_j = 1` iff literal ``j``
    is in the clause, :math:`\delta_i = 1` iff the clause covers row ``i``,
    :math:`S_i = \{j : A_{ij} = 0\}` and the row prices :math:`v_i = P_i`
    (:math:`i \in Z`), :math:`v_i = -\mu_i P_i` (:math:`i \in P^+`):

    .. math::

        \min_{z, \delta}\ & (\lambda + \lambda_0) + (\lambda + \lambda_1) \sum_j z_j
            + \sum_{i \in Z} P_i \delta_i - \sum_{i \in P^+} \mu_i P_i \delta_i \\
        \text{s.t. } & \delta_i + \sum_{j \in S_i} z_j \ge 1
            && i \in Z \quad \texttt{covers\_negative[i\_i]} \\
        & \delta_i + z_j \le 1 && i \in P^+,\ j \in S_i
            \quad \texttt{covers\_positive[i\_i,j\_j]} \\
        & 1 \le \sum_j z_j \le D && \texttt{min\_degree},\ \texttt{max\_degree} \\
        & z \in \{0, 1\}^L,\quad \delta \in [0, 1]^N .

    Since :math:`\lambda c_k = \lambda (1 + |k|)`, the objective is :math:`r(k)`
    (see :func:`~optirules.models.reduced_costs`).  A label-0 row's
    :math:`\delta_i` has a positive price and is pushed down to 1 exactly when the
    clause covers it; a label-1 row's has a non-positive price and is pushed up to
    1 exactly when it is covered; so :math:`\delta` may stay continuous.  Rows
    with a zero price (:math:`P_i = 0`, or :math:`\mu_i = 0` on :math:`P^+`) do not
    change the objective and are left out of the model.

    ``exclude`` adds one no-good cut per listed clause ``E``,
    :math:`\sum_{j \in E} z_j - \sum_{j \notin E} z_j \le |E| - 1`
    (``no_good[cut_e]``), so already generated clauses can be skipped.  By default
    nothing is excluded: at an optimal master LP every pool clause has
    :math:`r(k) \ge 0`, so a negative minimum is always a new clause.

    Parameters
    ----------
    problem : RuleSetProblem
        The literal matrix :math:`A`, labels :math:`y`, weights ``P``, ``max_degree``
        (``D``, the most literals a clause may have), literal costs (:math:`\sum_j z_j` in
        the objective becomes :math:`\sum_j \mathrm{cost}_j z_j`), required groups (a
        binary :math:`u_f \le \sum_{j \in f} z_j` per group and :math:`-\rho_f u_f` in the
        objective, ``uses[f]``) and conflicting pairs (:math:`z_a + z_b \le 1` per pair,
        ``no_conflict[a,b]``).  Its penalties are not read: pricing charges those of
        ``duals``.
    duals : PricingDuals or mapping
        The master's duals (a master's ``duals_for_pricing_`` is taken as it is): the cover
        duals :math:`\mu` (one per label-1 row in row order), the complexity-row dual
        :math:`\lambda \ge 0`, the per-clause and per-literal costs ``lambda0``,
        ``lambda1`` (the penalties plus the limit rows' duals) and the required rows'
        duals :math:`\rho_f \ge 0`.
    exclude : iterable of clauses, optional
        Clauses the MILP must not return (no-good cuts).

    Attributes
    ----------
    clause_ : tuple of int
        The clause found.
    reduced_cost_ : float
        Its reduced cost, computed by :func:`~optirules.models.reduced_costs`.
    objective_, bound_ : float
        The MILP's objective and best bound (equal to ``reduced_cost_`` up to
        solver tolerances when optimal).
    z_ : ndarray of shape (L,)
        Literal choices.

    Notes
    -----
    :meth:`solve` defaults to ``mip_gap=1e-9`` (pricing needs the true minimum;
    HiGHS's absolute gap, 1e-6 by default, still applies: pass
    ``mip_abs_gap=...`` as an option for tighter).
    """

    def __init__(self, problem: RuleSetProblem, duals: PricingDuals | Mapping[str, Any], *,
                 exclude: Iterable[Iterable[Any]] | None = None) -> None:
        self._data = _PricingData(problem, duals, exclude)

    @property
    def max_degree(self) -> int:
        return self._data.max_degree

    def _build(self) -> Any:
        import pyomo.environ as pyo

        d = self._data
        n_lit = d.A.shape[1]
        literals = [literal_label(j) for j in range(n_lit)]
        neg = np.flatnonzero(~d.y & (d.v > 0))
        pos = np.flatnonzero(d.y & (d.v < 0))
        rows = sorted(np.concatenate([neg, pos]).tolist())
        price = {row_label(i): float(d.v[i]) for i in rows}
        zeros = {row_label(i): [literal_label(j) for j in np.flatnonzero(~d.A[i])]
                 for i in rows}
        fixed = float(complexity_costs(0, d.lam, d.lambda0, d.lambda1))
        per_literal = float(complexity_costs(1, d.lam, d.lambda0, d.lambda1)) - fixed

        m = pyo.ConcreteModel(name="rule_pricing")
        m.literals = pyo.Set(initialize=literals, ordered=True, doc="literals (columns of A)")
        m.rows = pyo.Set(initialize=[row_label(i) for i in rows], ordered=True,
                         doc="rows with a non-zero price")
        m.neg_rows = pyo.Set(initialize=[row_label(i) for i in neg], ordered=True,
                             doc="label-0 rows Z with P_i > 0")
        m.pos_rows = pyo.Set(initialize=[row_label(i) for i in pos], ordered=True,
                             doc="label-1 rows P+ with mu_i P_i > 0")
        m.pos_pairs = pyo.Set(
            dimen=2, ordered=True,
            initialize=[(r, j) for r in m.pos_rows for j in zeros[r]],
            doc="(row in P+, literal that is 0 in the row)",
        )
        m.price = pyo.Param(m.rows, initialize=price,
                            doc="P_i on Z, -mu_i P_i on P+")
        m.z = pyo.Var(m.literals, within=pyo.Binary, doc="1 if literal j is in the clause")
        m.delta = pyo.Var(m.rows, bounds=(0, 1), doc="1 if the clause covers row i")
        cost = dict(zip(literals, [1.0] * n_lit if d.literal_costs is None
                        else d.literal_costs.tolist()))
        m.reduced_cost = pyo.Objective(
            expr=fixed + per_literal * pyo.quicksum(cost[j] * m.z[j] for j in m.literals)
            + pyo.quicksum(m.price[r] * m.delta[r] for r in m.rows),
            sense=pyo.minimize,
        )
        m.covers_negative = pyo.Constraint(
            m.neg_rows,
            rule=lambda m, r: m.delta[r] + pyo.quicksum(m.z[j] for j in zeros[r]) >= 1,
            doc="a label-0 row is covered unless a chosen literal is 0 in it",
        )
        m.covers_positive = pyo.Constraint(
            m.pos_pairs, rule=lambda m, r, j: m.delta[r] + m.z[j] <= 1,
            doc="a label-1 row is not covered if a chosen literal is 0 in it",
        )
        groups = [(f, sorted(g), float(r))
                  for f, (g, r) in enumerate(zip(d.required, d.required_duals))
                  if r > 0]
        if groups:
            m.groups = pyo.Set(initialize=[f for f, _, _ in groups], ordered=True,
                               doc="required features with a positive dual")
            m.u = pyo.Var(m.groups, within=pyo.Binary, doc="1 if the clause uses group f")
            members = {f: g for f, g, _ in groups}
            m.uses = pyo.Constraint(
                m.groups, rule=lambda m, f: m.u[f] <= pyo.quicksum(
                    m.z[literals[j]] for j in members[f]),
                doc="a group counts only if one of its literals is chosen")
            m.reduced_cost.expr = m.reduced_cost.expr - pyo.quicksum(
                r * m.u[f] for f, _, r in groups)
        if len(d.conflicts):
            m.conflicts = pyo.Set(dimen=2, ordered=True, initialize=[
                (literals[a], literals[b]) for a, b in d.conflicts.pairs.tolist()],
                doc="pairs of literals no clause holds together")
            m.no_conflict = pyo.Constraint(
                m.conflicts, rule=lambda m, a, b: m.z[a] + m.z[b] <= 1,
                doc="a clause holds at most one literal of a conflicting pair")
        m.max_degree = pyo.Constraint(
            expr=pyo.quicksum(m.z[j] for j in m.literals) <= d.max_degree)
        m.min_degree = pyo.Constraint(expr=pyo.quicksum(m.z[j] for j in m.literals) >= 1)
        if d.exclude:
            cuts = [f"cut_{e}" for e in range(len(d.exclude))]
            members = {c: set(k) for c, k in zip(cuts, d.exclude)}
            m.cuts = pyo.Set(initialize=cuts, ordered=True, doc="excluded clauses")

            def no_good(m, c):
                inside = [literal_label(j) for j in sorted(members[c])]
                outside = [literal_label(j) for j in range(n_lit) if j not in members[c]]
                return (pyo.quicksum(m.z[j] for j in inside)
                        - pyo.quicksum(m.z[j] for j in outside) <= len(inside) - 1)

            m.no_good = pyo.Constraint(m.cuts, rule=no_good, doc="exclude a known clause")
        return m

    def solve(self, solver: str | None = None, *, time_limit: float | None = None,
              mip_gap: float | None = 1e-9, verbose: bool = False, **options: Any):
        """Solve the pricing MILP (``mip_gap`` defaults to 1e-9); see ``OptModel.solve``.

        Parameters
        ----------
        solver : str, optional
            Solver name; ``None`` uses the model's ``default_solver``.
        time_limit : float, optional
            Seconds allowed to the solver.
        mip_gap : float, optional
            Relative MIP gap at which the solver stops.
        verbose : bool, default False
            Show the solver's log.
        **options
            Solver-specific options, passed on unchanged.

        Returns
        -------
        SolveResult
            Status, objective, bound, gap and values of the solve (also ``result_``).
        """
        return super().solve(solver, time_limit=time_limit, mip_gap=mip_gap, verbose=verbose,
                             **options)

    def _read_solution(self, result: Any) -> None:
        import pyomo.environ as pyo

        m = self.model
        d = self._data
        self.z_ = np.array([pyo.value(m.z[j]) for j in m.literals], dtype=float)
        self.clause_: Clause = tuple(int(j) for j in np.flatnonzero(self.z_ > 0.5))
        self.reduced_cost_ = float(d.reduced_costs([self.clause_])[0])
        self.objective_ = float(result.objective)
        self.bound_ = float(result.bound)


def beam_search_pricing(problem: RuleSetProblem, duals: PricingDuals | Mapping[str, Any], *,
                        beam_width: int = 10, k: int = 10,
                        exclude: Iterable[Iterable[Any]] | None = None
                        ) -> list[tuple[Clause, float]]:
    r"""Beam search for clauses of small reduced cost (a fast pricing heuristic).

    Level 1 scores every single literal; level ``d + 1`` extends each of the
    ``beam_width`` best clauses of level ``d`` by every other literal, scoring all
    extensions at once with one matrix product
    (:math:`(C \circ v) A`, ``C`` the beam's coverage, ``v`` the row prices of
    :func:`~optirules.models.row_prices`).  Extensions that cover exactly
    the rows of their parent are dropped (same coverage, one more literal), and a
    clause is expanded only if the bound
    :math:`(\lambda + \lambda_0) + (\lambda + \lambda_1)(|k| + 1) + \sum_{i \text{ covered}} \min(v_i, 0)`
    on its extensions can beat the ``k``-th best clause found.  Reported reduced
    costs are recomputed with :func:`~optirules.models.reduced_costs`,
    the same function the exact :class:`RulePricingModel` uses, so they are exact
    (see the module docstring for :math:`r(k)`); the search may miss the best clause.
    Deterministic: ties are broken by clause order.

    Parameters
    ----------
    problem, duals
        As for :class:`RulePricingModel` (with the label-0 rows' fairness duals
        :math:`\sigma`, :func:`~optirules.models.row_prices`, of ``duals``); literal costs
        and required groups score the clauses returned exactly (the search's own scores
        count literals), and a clause is never extended by a literal that conflicts with
        one of its own.
    beam_width : int, default 10
        Clauses kept for expansion at each level.
    k : int, default 10
        Number of clauses returned.
    exclude : iterable of clauses, optional
        Clauses never returned (e.g. those already in the master); they are still
        expanded.

    Returns
    -------
    list of (tuple of int, float)
        Up to ``k`` distinct clauses with their reduced costs, best (lowest) first.
    """
    for name, value in (("beam_width", beam_width), ("k", k)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(
                value, (int, np.integer)) or value < 1:
            raise InputError(f"{name} must be an integer >= 1, got {value!r}.")
    d = _PricingData(problem, duals, exclude)
    with blas_threads(1):  # skinny products: one BLAS thread (see blas_threads)
        return _beam_search(d, beam_width, k)


def _beam_search(d: _PricingData, beam_width: int, k: int) -> list[tuple[Clause, float]]:
    excluded = set(d.exclude)
    A = d.A
    v = d.v
    v_neg = np.minimum(v, 0.0)
    n_rows, n_lit = A.shape
    found: dict[Clause, float] = {}

    def kth_best() -> float:
        if len(found) < k:
            return np.inf
        return float(np.partition(np.fromiter(found.values(), float), k - 1)[k - 1])

    # level 1: every literal
    scores = complexity_costs(1, d.lam, d.lambda0, d.lambda1) + level_one_sums(A, v, d.Af)
    order = np.argsort(scores, kind="stable")
    beam: list[Clause] = []
    for j in order:
        clause = (int(j),)
        if clause not in excluded and len(found) < k:
            found[clause] = float(scores[j])
        if len(beam) < beam_width:
            beam.append(clause)
        if len(beam) >= beam_width and len(found) >= k:
            break
    for degree in range(1, d.max_degree):
        cov = np.stack([np.logical_and.reduce(A[:, list(c)], axis=1) for c in beam])
        bound = complexity_costs(degree + 1, d.lam, d.lambda0, d.lambda1) + row_block_sum(
            lambda s, cov=cov: cov[:, s] @ v_neg[s], n_rows, len(beam))
        keep = bound < kth_best() - 1e-15
        if not keep.any():
            break
        beam = [c for c, kept in zip(beam, keep) if kept]
        cov = cov[keep]
        sums, counts = extension_sums(A, cov, v, d.Af)
        scores = complexity_costs(degree + 1, d.lam, d.lambda0, d.lambda1) + sums
        valid = counts < cov.sum(axis=1, keepdims=True) - 0.5  # coverage must shrink
        for b, c in enumerate(beam):
            valid[b, list(c)] = False
            for j in c:  # no literal that conflicts with one of the clause's own
                valid[b, d.conflicts.partners(j)] = False
        flat = np.flatnonzero(valid.ravel())
        if flat.size == 0:
            break
        flat = flat[np.argsort(scores.ravel()[flat], kind="stable")]
        new_beam: list[Clause] = []
        seen: set[Clause] = set()
        for f in flat:
            b, j = divmod(int(f), n_lit)
            clause = tuple(sorted(beam[b] + (j,)))
            if clause in seen:
                continue
            seen.add(clause)
            score = float(scores.flat[f])
            if clause not in excluded and clause not in found:
                found[clause] = score
            if len(new_beam) < beam_width:
                new_beam.append(clause)
            if len(new_beam) >= beam_width and len(seen) >= k + len(excluded):
                break
        if len(found) > k:  # keep the k best so far
            best = sorted(found.items(), key=lambda kv: (kv[1], len(kv[0]), kv[0]))[:k]
            found = dict(best)
        beam = new_beam
    clauses = list(found)
    if not clauses:
        return []
    exact = d.reduced_costs(clauses)
    ranked = sorted(zip(clauses, exact.tolist()), key=lambda kv: (kv[1], len(kv[0]), kv[0]))
    return [(c, float(r)) for c, r in ranked[:k]]


def level_one_sums(A: np.ndarray, v: np.ndarray, Af: np.ndarray | None = None) -> np.ndarray:
    r""":math:`v^\top A` for the boolean literal matrix ``A``, by row blocks
    (:func:`~optirules.models._row_blocks.row_block_sum`: no float64 copy of ``A``), or
    from ``Af``, a float64 copy of it, when given (the same products)."""
    M = A if Af is None else Af
    return row_block_sum(lambda s: v[s] @ M[s], A.shape[0], A.shape[1])


def extension_sums(A: np.ndarray, cov: np.ndarray, v: np.ndarray,
                   Af: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    r"""The beam's extension sums :math:`(C \circ v) A` and counts :math:`C A` (``C`` the
    ``(m, N)`` boolean coverage of ``m`` clauses, ``A`` the boolean literal matrix), by row
    blocks with one block's float64 copy of ``A`` at a time (or the blocks of ``Af``, a
    float64 copy of ``A``, when given: the same products).  The counts are exact (sums of
    integers below :math:`2^{53}` in float64, whatever the blocks)."""
    def part(s: slice) -> tuple[np.ndarray, np.ndarray]:
        Ab = A[s].astype(float) if Af is None else Af[s]
        cb = cov[:, s]
        return (cb * v[s]) @ Ab, cb.astype(float) @ Ab

    return row_block_sum(part, A.shape[0], A.shape[1] + 2 * cov.shape[0])
