r"""QMM ensemble pruning: the quadratic program of the QMM paper after QR with column pivoting.

The paper "Ensemble Pruning via Margin Maximization" (the QMM paper here) re-weights a
voting ensemble :math:`f(\mathbf x) = \operatorname{sign}\sum_t \alpha_t h_t(\mathbf x)` by the
quadratic program it calls QMM (its eq. 19)

.. math::

    \min_{\mathbf w} \ \mathbf w^\top \hat{\boldsymbol\Sigma} \mathbf w
    \quad \text{s.t.} \quad \boldsymbol\Lambda_\upsilon \mathbf w \ge \boldsymbol\varphi_\upsilon,
    \quad \textstyle\sum_t w_t = 1, \quad \mathbf w \ge 0,

with :math:`\mathbf E = \mathbf H \bullet \mathbf y` the error matrix,
:math:`\hat{\boldsymbol\Sigma} = \operatorname{cov}(\mathbf E)`,
:math:`\boldsymbol\varphi_\upsilon = (m_{(1)}, \dots, m_{(\lceil n\upsilon\rceil)})` the
:math:`\lceil n\upsilon \rceil` smallest margins of :math:`\mathbf m = \mathbf E\boldsymbol\alpha`
and :math:`\boldsymbol\Lambda_\upsilon` the rows of :math:`\mathbf E` they come from.  The
constraint keeps the lower-:math:`\upsilon` margins at least as large as the ensemble's;
the objective is the sample variance of the new margins :math:`\mathbf E\mathbf w`.  Weights
driven to zero prune members.  Before the QP, a QR decomposition with column pivoting of
:math:`\mathbf H` (the QMM paper, the paragraph on rank deficiency) keeps a basis
:math:`\mathbf H'` of :math:`r` pivot columns; the QP runs on :math:`\mathbf H'` with
:math:`\hat{\boldsymbol\Sigma}' = \operatorname{cov}(\mathbf H' \bullet \mathbf y)`,
:math:`\boldsymbol\Lambda'_\upsilon`, :math:`\boldsymbol\varphi'_\upsilon` and the merged
weights :math:`\boldsymbol\alpha'`.  When the QP has no solution or
:math:`\hat{\boldsymbol\Sigma}'` is not positive definite (its :math:`n < T` case), the
seed keeps the QR-reduced vote (:math:`\mathbf w = \boldsymbol\alpha'`); see
``singular_covariance``.  Non-identical dependent members stay in the QP by default
(``dependent="keep"``), which departs from the paper's drop.
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError, SolverError, SolverStatusError
from ._base import OptModel
from ._margins import EMarginResult, check_ensemble, emargin
from ._qmm_generated import _MarginRowGenerationMixin
from ._qmm_linalg import (
    PickledResult,
    check_choice,
    check_positive,
    check_upsilon,
    covariance_rank,
    distinct_margin_rows,
    group_identical_columns,
    pivoted_qr_basis,
    simplex_lstsq,
)

__all__ = ["QMMModel", "QMMFallbackWarning", "QMMSolveOptions"]

_DEPENDENT = ("keep", "drop", "lstsq")
#: older name of ``"drop"`` (drop, then renormalise alpha' to the simplex), still accepted
_DEPENDENT_ALIASES = {"proportional": "drop"}
_REFERENCES = ("basis", "original")
_SINGULAR = ("fallback", "solve")
_FORMULATIONS = ("covariance", "least_squares")
_MARGIN_CONSTRAINTS = ("auto", "all", "generated")
_INTERFACES = ("auto", "direct", "cvxpy")
#: margin_constraints="auto" generates margin rows when there are at least as many distinct
#: margin rows k as weight variables r and k * r^2 exceeds this: below it one QP with every
#: row is cheaper than the rounds of generation, above it generation wins (chosen on the
#: runs in benchmarks/results/qmm.md, through cvxpy and on the direct path; the figures
#: are in docs/papers/qmm_pruning.md).  OSQP is the exception (generated whenever k >= r).
GENERATE_ABOVE_WORK = 1e7
#: HiGHS's active-set QP solver is refused above this many weight variables: beyond it the
#: solver slows down sharply and returns points that violate margin rows (the runs are in
#: benchmarks/results/qmm.md; the figures in docs/papers/qmm_pruning.md)
HIGHS_MAX_MEMBERS = 100
#: SCIP (a global nonlinear solver, through cvxpy) is refused above this many weight
#: variables: it is already slow at this size and gives no usable weights well above it
#: (the figures are in docs/papers/qmm_pruning.md)
SCIP_MAX_MEMBERS = 100

#: Tighter-than-default tolerances per backend, applied unless the caller passes the option:
#: with Clarabel's defaults (1e-8) weights that are zero at the optimum come back as large
#: as 3e-6 (AdaBoost stumps, n = 200), which blurs which members are pruned; at 1e-10 they
#: are below 5e-9 at no measurable extra time.  OSQP's defaults (1e-5 in cvxpy) violate the
#: margin rows by ~1e-6.
_SOLVER_DEFAULTS: dict[str, dict[str, Any]] = {
    "clarabel": {"tol_gap_abs": 1e-10, "tol_gap_rel": 1e-10, "tol_feas": 1e-10},
    "osqp": {"eps_abs": 1e-8, "eps_rel": 1e-8, "polishing": True, "max_iter": 200_000},
    # SCS's defaults (1e-4) leave weights 1e-4 off; at 1e-9 they agree with Clarabel to 1e-9
    "scs": {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iters": 200_000},
}
#: Further defaults of the direct path (``interface="direct"``), on top of the above
_DIRECT_DEFAULTS: dict[str, dict[str, Any]] = {
    # faer's supernodal LDL: faster than the default QDLDL on the dense covariance (figures
    # in docs/papers/qmm_pruning.md); one thread as every optirules default
    "clarabel": {"direct_solve_method": "faer", "max_threads": 1},
    # the barrier's default 1e-8 leaves weights 1.5e-6 (Gurobi) and 7e-6 (CPLEX) off
    "gurobi": {"BarConvTol": 1e-10, "Threads": 1},
    # CPLEX's dual simplex for QP: faster than its barrier and its primal simplex, which
    # kept one member less (figures in docs/papers/qmm_pruning.md)
    "cplex": {"qpmethod": 2, "barrier.convergetol": 1e-10, "threads": 1},
}


class QMMFallbackWarning(UserWarning):
    """Warned when :class:`QMMModel` falls back to its reference weights."""


@dataclass(frozen=True)
class QMMSolveOptions:
    r"""How :class:`QMMModel` poses and solves its QP; none of these changes the problem.

    Parameters
    ----------
    formulation : {"covariance", "least_squares"}, default "covariance"
        ``"covariance"`` is the paper's eq. 19, :math:`\mathbf w^\top\hat{\boldsymbol\Sigma}'
        \mathbf w` with the dense :math:`r \times r` covariance.  ``"least_squares"``
        minimises :math:`\|\mathbf u\|_2^2` with :math:`\mathbf u = \mathbf R\mathbf w`,
        :math:`\mathbf R` (``min(n, r)`` x ``r``, ``factor_``) the triangular factor of the
        centred :math:`\mathbf E'/\sqrt{n-1}`, so :math:`\|\mathbf R\mathbf w\|^2 =
        \mathbf w^\top\hat{\boldsymbol\Sigma}'\mathbf w`: the same QP, optimum and
        weights, without forming :math:`\hat{\boldsymbol\Sigma}'` (``covariance_`` is then
        ``None``).  The default is the faster one on the runs in
        ``benchmarks/results/qmm.md``.
    margin_constraints : {"auto", "generated", "all"}, default "auto"
        ``"all"`` hands every distinct protected row to the solver at once.
        ``"generated"`` solves over a working set of margin rows and adds the violated ones
        until none is (see :meth:`QMMModel.solve`): the same optimum, a smaller QP per round (at
        T = 500, n = 1,000 about 50 of the 500 margin rows are active at the optimum).
        ``"auto"`` generates when the distinct margin rows :math:`k` are at least
        :math:`r` and :math:`k r^2` exceeds ``GENERATE_ABOVE_WORK`` = 1e7, where it ran
        faster, and takes all rows otherwise (``benchmarks/results/qmm.md``); with OSQP it
        generates whenever :math:`k \ge r` (faster there, see :meth:`QMMModel.solve`); the choice
        made is ``margin_constraints_``.  Identical protected rows are one
        constraint in every case (the largest :math:`\varphi_i` binds).
    interface : {"auto", "direct", "cvxpy"}, default "auto"
        ``"direct"`` hands the QP to the solver's own API with prebuilt matrices
        (``optirules.models._qmm_direct``: Clarabel, OSQP, SCS, HiGHS, Gurobi, CPLEX in the
        covariance form), the margin rows in their complemented 0/1 form (equal on the
        simplex); ``"cvxpy"`` solves the declarative cvxpy model (``model``); ``"auto"``
        takes the direct path where there is one, since it hands the solver prebuilt
        matrices instead of compiling the cvxpy model (``benchmarks/results/qmm.md``), but
        keeps HiGHS on cvxpy.  The result's ``info["interface"]`` says which ran.
    rank_tol : float, optional
        Relative tolerance on :math:`|R_{kk}|/|R_{00}|` for the rank of the QR step
        (default ``max(n, T) * machine epsilon``).
    psd_tol : float, default 1e-8
        Relative tolerance of the positive-semidefiniteness check.
    weight_tol : float, default 1e-7
        Solved weights at or below this are set to zero (the member is pruned) before the
        weights are renormalised to sum to one.

    Examples
    --------
    >>> QMMSolveOptions(formulation="least_squares").interface
    'auto'
    """

    formulation: str = "covariance"
    margin_constraints: str = "auto"
    interface: str = "auto"
    rank_tol: float | None = None
    psd_tol: float = 1e-8
    weight_tol: float = 1e-7


class QMMModel(_MarginRowGenerationMixin, OptModel):
    r"""QMM pruning QP of the QMM paper (its eq. 19) with QR pivoting, EMargin and a recorded fallback.

    The model solved, on the QR basis :math:`\mathbf H'` (:math:`r` members), is

    .. math::

        \min_{\mathbf w \in \mathbb R^r} \ \mathbf w^\top \hat{\boldsymbol\Sigma}' \mathbf w
        \quad \text{s.t.} \quad
        \boldsymbol\Lambda'_\upsilon \mathbf w \ge \boldsymbol\varphi'_\upsilon, \quad
        \mathbf 1^\top \mathbf w = 1, \quad \mathbf w \ge 0,

    where :math:`\mathbf E' = \mathbf H' \bullet \mathbf y`,
    :math:`\hat{\boldsymbol\Sigma}' = \frac{1}{n-1}(\mathbf E' - \bar{\mathbf E}')^\top
    (\mathbf E' - \bar{\mathbf E}')` is the **sample covariance of the columns of**
    :math:`\mathbf E'` **with divisor** :math:`n - 1` (``numpy.cov``; the divisor only scales
    the objective, which equals the sample variance of the margins :math:`\mathbf E'\mathbf w`),
    the :math:`k = \lceil n\upsilon \rceil` rows of smallest reference margin
    :math:`\mathbf m^{\mathrm{ref}}` give :math:`\boldsymbol\Lambda'_\upsilon` (those rows of
    :math:`\mathbf E'`) and :math:`\boldsymbol\varphi'_\upsilon` (those margins), ties broken
    by row order.  The QP is built with ``cvxpy.quad_form(w, cvxpy.psd_wrap(Sigma))``.

    **Preprocessing (the QMM paper, rank deficiency of H).**  Identical members are merged
    into the one with the lowest index, which receives the sum of their :math:`\alpha` (the
    paper's :math:`\alpha'`; ``merged_weight_``); QR with column pivoting
    (``scipy.linalg.qr(..., pivoting=True)``) on the distinct columns gives the rank
    :math:`r` and the basis :math:`\mathbf H'`.  Linearly dependent members that are not
    identical (a stump :math:`h` and its negation :math:`-h`) are handled as ``dependent``
    says: ``"keep"`` (default, a departure: the paper's Algorithm 2 drops them) keeps them
    in the QP as variables; ``"drop"`` (the paper's) drops their weight and renormalises
    :math:`\boldsymbol\alpha'` (``"proportional"`` is an older name of it); ``"lstsq"``
    gives their vote :math:`\mathbf v = \mathbf E_G\boldsymbol\alpha_G`, of weight
    :math:`A_G = \mathbf 1^\top\boldsymbol\alpha_G`, to the basis,
    :math:`\boldsymbol\delta = \arg\min\{\|\mathbf E'\boldsymbol\delta - \mathbf v\|_2 :
    \boldsymbol\delta \ge 0, \mathbf 1^\top\boldsymbol\delta = A_G\}`.  The weight moved is
    ``moved_weight_`` and the largest margin change it causes ``margin_shift_``.

    **Reference margins, singular covariance, fallback.**  ``margin_reference="basis"``
    (default, the paper's) takes :math:`\boldsymbol\varphi'_\upsilon` from
    :math:`\mathbf E'\boldsymbol\alpha'` (the QP is then always feasible); ``"original"``
    from :math:`\mathbf E\boldsymbol\alpha` (it can then be infeasible).  When the
    covariance of the QR basis is singular (its rank, from singular values above
    ``max(n, r) * eps * s_max`` or ``rank_tol``, is below :math:`r`: the paper's
    :math:`n < T` case), ``singular_covariance="fallback"`` (default, the paper's rule)
    returns the reference weights without calling a solver and ``"solve"`` solves anyway.
    When :math:`\hat{\boldsymbol\Sigma}'` is not positive semidefinite (smallest eigenvalue
    below :math:`-\text{psd\_tol}\cdot\max(1, \lambda_{\max})`) or the solver returns no
    usable solution, the reference weights are returned, ``fallback_used_`` and
    ``fallback_reason_`` say so, and :class:`QMMFallbackWarning` is warned.  The reasons
    for each default, with the measurements, are on the documentation's *QMM ensemble
    pruning* page.

    Parameters
    ----------
    predictions : array-like of shape (n_samples, n_members)
        :math:`\mathbf H`: member predictions :math:`h_{it} \in \{-1, +1\}` on the
        training rows.
    labels : array-like of shape (n_samples,)
        :math:`\mathbf y`: labels in {-1, +1}.
    member_weights : array-like of shape (n_members,), optional
        :math:`\boldsymbol\alpha`: original non-negative member weights, normalised to the
        simplex (default uniform).
    upsilon : float in (0, 1] or "emargin", default 0.5
        Fraction of smallest margins to protect.  The paper uses 0.5 for AdaBoost and 0.25
        for random forests.  ``"emargin"`` sets
        :math:`\upsilon = \hat P[m^{\mathrm{ref}} \le \hat\theta(q^*)]` from the Equilibrium
        margin (see ``optirules.models._margins.emargin``), which needs
        ``hypothesis_space_size``.
    hypothesis_space_size : int or float, optional
        :math:`|\mathscr H|` for ``upsilon="emargin"``, e.g.
        ``tree_hypothesis_space_size(n_features, 100, depth)`` (the QMM paper: trees on 100
        fixed thresholds per feature) or a documented estimate.
    confidence : float, default 0.95
        Confidence level of the EMargin bound: the paper's :math:`\delta` is
        ``1 - confidence`` (0.95 is its :math:`\delta = 0.05`).
    dependent : {"keep", "drop", "lstsq"}, default "keep"
        How linearly dependent, non-identical members are handled (above).
    margin_reference : {"basis", "original"}, default "basis"
        Whose lower margins the QP protects (above).
    singular_covariance : {"fallback", "solve"}, default "fallback"
        Whether a singular covariance of the QR basis means "no QP, reference weights" (the
        paper's rule) or the QP is solved anyway (above).
    options : QMMSolveOptions, optional
        How the QP is posed and solved (formulation, margin rows, interface, tolerances;
        none of them changes the optimum beyond its tolerances): :class:`QMMSolveOptions`,
        ``None`` its defaults.

    Attributes
    ----------
    rank_ : int
        Numerical rank of :math:`\mathbf H` (number of QR pivot columns).
    basis_covariance_rank_ : int
        Numerical rank of the covariance of the QR basis.
    singular_covariance_ : bool
        Whether that covariance is singular (``basis_covariance_rank_ < rank_``).
    basis_ : ndarray of int
        Member indices of the QP's variables (the pivot columns; with ``dependent="keep"``
        every distinct column), in the order of ``w``.
    dependent_members_ : ndarray of int
        Distinct members that are linear combinations of the basis without being identical
        to a member of it.
    merged_weight_, moved_weight_, margin_shift_ : float
        Weight carried by identical merges, weight moved off dependent members, and the
        largest margin change that move causes (see above).
    reference_weights_ : ndarray of shape (n_members,)
        Weights whose margins define :math:`\boldsymbol\varphi` (the fallback weights).
    reference_margins_ : ndarray of shape (n_samples,)
        Their margins.
    upsilon_ : float
        The percentile used.
    emargin_ : EMarginResult or None
        The EMargin computation when ``upsilon="emargin"``.
    lower_rows_ : ndarray of int
        The :math:`\lceil n\upsilon\rceil` protected rows.
    phi_ : ndarray
        :math:`\boldsymbol\varphi_\upsilon`, their reference margins.
    covariance_ : ndarray of shape (r, r)
        :math:`\hat{\boldsymbol\Sigma}'`.
    min_eigenvalue_ : float
        Its smallest eigenvalue.
    baseline_objective_ : float
        Sample variance (divisor :math:`n-1`) of the reference margins.
    factor_ : ndarray or None
        :math:`\mathbf R` of ``formulation="least_squares"``.

    After :meth:`solve`: ``weights_`` (length ``n_members``, on the simplex, zero for
    pruned members), ``kept_`` (members with positive weight), ``pruning_rate_``
    (:math:`1 - |\text{kept}|/T`), ``objective_`` (:math:`\mathbf w^\top\hat{\boldsymbol\Sigma}'
    \mathbf w` of the returned weights, computed as the sample variance, divisor
    :math:`n-1`, of their margins), ``margins_`` (their margins),
    ``constraint_violation_`` (:math:`\max(\boldsymbol\varphi - \boldsymbol\Lambda\mathbf w)^+`),
    ``status_`` (the solver's :class:`~optirules.solvers.Status`), ``n_margin_rows_`` and
    ``generation_rounds_`` (margin rows in the last QP solved, rounds), ``fallback_used_``,
    ``fallback_reason_`` (``""`` when not used) and ``result_``.
    """

    #: SCS: fastest where it matters, never far behind the fastest elsewhere and never
    #: refused, with the same weights as Clarabel on the cvxpy model (chosen on the runs in
    #: benchmarks/results/qmm.md, direct path, default margin rows).
    default_solver = "scs"

    def __init__(
        self,
        predictions: Any,
        labels: Any,
        member_weights: Any = None,
        *,
        upsilon: float | str = 0.5,
        hypothesis_space_size: Any = None,
        confidence: float = 0.95,
        dependent: str = "keep",
        margin_reference: str = "basis",
        singular_covariance: str = "fallback",
        options: QMMSolveOptions | None = None,
    ) -> None:
        options = QMMSolveOptions() if options is None else options
        formulation, margin_constraints = options.formulation, options.margin_constraints
        interface, rank_tol = options.interface, options.rank_tol
        psd_tol, weight_tol = options.psd_tol, options.weight_tol
        self.predictions, self.labels, self.member_weights = check_ensemble(
            predictions, labels, member_weights)
        self.upsilon = check_upsilon(upsilon)
        self.hypothesis_space_size = hypothesis_space_size
        if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real) or not (
                0.0 < float(confidence) < 1.0):
            raise InputError(f"confidence must be a number in (0, 1) (e.g. 0.95, the paper's "
                             f"delta = 0.05), got {confidence!r}.")
        self.confidence = float(confidence)
        if isinstance(dependent, str) and dependent.lower() in _DEPENDENT_ALIASES:
            dependent = _DEPENDENT_ALIASES[dependent.lower()]
        self.dependent = check_choice("dependent", dependent, _DEPENDENT)
        self.margin_reference = check_choice("margin_reference", margin_reference, _REFERENCES)
        self.singular_covariance = check_choice("singular_covariance", singular_covariance,
                                                 _SINGULAR)
        self.formulation = check_choice("formulation", formulation, _FORMULATIONS)
        self.margin_constraints = check_choice("margin_constraints", margin_constraints,
                                                _MARGIN_CONSTRAINTS)
        self.interface = check_choice("interface", interface, _INTERFACES)
        self.rank_tol = check_positive("rank_tol", rank_tol, allow_none=True)
        self.psd_tol = check_positive("psd_tol", psd_tol)
        self.weight_tol = check_positive("weight_tol", weight_tol)
        if self.upsilon == "emargin" and hypothesis_space_size is None:
            raise InputError(
                "upsilon='emargin' needs hypothesis_space_size (|H| of the base classifiers): "
                "pass e.g. tree_hypothesis_space_size(n_features, n_thresholds=100, depth=1) "
                "for stumps on 100 fixed thresholds, or give a number for upsilon."
            )
        self.emargin_: EMarginResult | None = None
        self._w_var = None
        self._prepare()

    # ----------------------------------------------------------------------- preprocessing
    # ------------------------------------------------------------------ pickling
    def __getstate__(self) -> dict[str, Any]:
        """The state without the read-only mappings of ``result_`` (a ``SolveResult`` holds
        ``types.MappingProxyType`` views, which pickle refuses): the result is kept as its
        fields with plain dicts and rebuilt by :meth:`__setstate__`."""
        import dataclasses

        state = self.__dict__.copy()
        result = state.get("result_")
        if result is not None and dataclasses.is_dataclass(result):
            fields = {f.name: getattr(result, f.name) for f in dataclasses.fields(result)}
            for name in ("values", "duals", "info"):
                if fields.get(name) is not None:
                    fields[name] = dict(fields[name])
            state["result_"] = PickledResult(fields)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        result = state.get("result_")
        if isinstance(result, PickledResult):
            from ..solvers import SolveResult

            state = dict(state, result_=SolveResult(**result.fields))
        self.__dict__.update(state)

    def _prepare(self) -> None:
        H, y, alpha = self.predictions, self.labels, self.member_weights
        n, T = H.shape
        E = H * y[:, None]
        self.n_samples_, self.n_members_ = n, T
        original_margins = E @ alpha
        self.original_margins_ = original_margins

        # 1. identical members
        rep, group = group_identical_columns(H)
        alpha_u = np.bincount(group, weights=alpha, minlength=rep.size)
        self.merged_weight_ = float(alpha.sum() - alpha[rep].sum())
        merged_full = np.zeros(T)
        merged_full[rep] = alpha_u
        self.group_ = group
        self.representatives_ = rep

        # 2. QR with column pivoting on the distinct columns
        piv, rank = pivoted_qr_basis(H[:, rep], self.rank_tol)
        self.rank_ = rank
        pivots = np.sort(piv[:rank])  # positions among distinct columns, kept in member order
        non_pivots = np.sort(piv[rank:])
        self.dependent_members_ = rep[non_pivots]

        # the paper's singular case: the covariance of the QR basis H' (pivot columns only),
        # decided below (_basis_covariance_rank) once the covariance's eigenvalues are known
        pivot_members = rep[pivots]

        # 3. weight of dependent, non-identical members
        a_basis = alpha_u[pivots].copy()
        a_dep = alpha_u[non_pivots]
        moved = float(a_dep.sum()) if self.dependent != "keep" else 0.0
        if self.dependent == "keep":
            cols = np.arange(rep.size)
            a_basis = alpha_u.copy()
        else:
            cols = pivots
            if moved > 0:
                E_basis = E[:, rep[cols]]
                if self.dependent == "lstsq":
                    target = E[:, rep[non_pivots]] @ a_dep / moved
                    a_basis += moved * simplex_lstsq(E_basis, target)
                else:  # drop (the paper's H'), then renormalise alpha' to the simplex
                    base = a_basis.sum()
                    share = a_basis / base if base > 0 else np.full(cols.size, 1.0 / cols.size)
                    a_basis += moved * share
        a_basis /= a_basis.sum()
        self.moved_weight_ = moved
        self.basis_ = rep[cols]
        E_b = E[:, self.basis_]
        basis_margins = E_b @ a_basis
        self.margin_shift_ = float(np.max(np.abs(basis_margins - original_margins)))
        basis_full = np.zeros(T)
        basis_full[self.basis_] = a_basis
        self.basis_weights_ = basis_full

        # reference ensemble whose lower margins are protected (and the fallback weights)
        if self.margin_reference == "basis":
            self.reference_weights_ = basis_full
            ref_margins = basis_margins
        else:
            self.reference_weights_ = merged_full
            ref_margins = original_margins
        self.reference_margins_ = ref_margins
        self.baseline_objective_ = float(np.var(ref_margins, ddof=1)) if n > 1 else 0.0

        # upsilon, Lambda, phi
        if self.upsilon == "emargin":
            self.emargin_ = emargin(ref_margins, self.hypothesis_space_size, self.confidence)
            self.upsilon_ = self.emargin_.upsilon
        else:
            self.upsilon_ = float(self.upsilon)
        k = max(1, min(n, math.ceil(n * self.upsilon_ - 1e-9)))  # guard 0.35 * 200 = 70.000..1
        order = np.argsort(ref_margins, kind="stable")
        self.lower_rows_ = np.sort(order[:k])
        self.phi_ = ref_margins[self.lower_rows_]
        self._Lambda = E_b[self.lower_rows_]
        # identical rows of Lambda' are one constraint, with the largest of their phi
        self._margin_A, self._margin_b = distinct_margin_rows(self._Lambda, self.phi_)
        self.margin_constraints_ = self.margin_constraints
        if self.margin_constraints == "auto":
            k, r = self._margin_b.size, self.basis_.size
            large = k >= r and k * float(r) ** 2 > GENERATE_ABOVE_WORK
            self.margin_constraints_ = "generated" if large else "all"

        # the objective's data: Sigma' and its PSD check, or the factor R with R'R = Sigma'
        if self.formulation == "covariance":
            S = self._covariance(E_b)
            self.covariance_ = S
            self.factor_ = None
            eig = np.linalg.eigvalsh(S)
            self.min_eigenvalue_ = float(eig[0])
            self.is_psd_ = bool(eig[0] >= -self.psd_tol * max(1.0, float(abs(eig[-1]))))
        else:  # R'R is positive semidefinite by construction
            self.covariance_ = None
            self.factor_ = self._factor(E_b)
            self.min_eigenvalue_ = math.nan
            self.is_psd_ = True
        self.basis_covariance_rank_, self.singular_covariance_ = self._basis_covariance_rank(
            E, pivot_members, eig if self.formulation == "covariance" else None)

    def _basis_covariance_rank(self, E: np.ndarray, pivot_members: np.ndarray,
                               eig: np.ndarray | None) -> tuple[int, bool]:
        """:func:`covariance_rank` of the pivot columns, without its SVD when it is sure.

        When the QP's variables are the pivot columns and the covariance's eigenvalues
        (``numpy.linalg.eigvalsh``, absolute error about ``r * eps * lambda_max``) have
        ``lambda_min > max(1e-8, 4 tol^2) lambda_max``, every singular value of the centred
        matrix exceeds ``tol * s_max`` (``lambda = s^2 / (n - 1)``): full rank, the answer of
        the SVD, which is the costly part of the check on large ensembles.
        """
        n, r = E.shape[0], pivot_members.size
        rel = self.rank_tol if self.rank_tol is not None else max(n, r) * np.finfo(float).eps
        if (eig is not None and n >= 2 and r > 0 and eig.size == r
                and np.array_equal(self.basis_, pivot_members) and rel < 1e-4
                and eig[-1] > 0 and eig[0] > max(1e-8, 4.0 * rel * rel) * eig[-1]):
            return r, False
        return covariance_rank(E[:, pivot_members], self.rank_tol)

    @staticmethod
    def _covariance(E_basis: np.ndarray) -> np.ndarray:
        r"""Sample covariance (divisor :math:`n-1`) of the columns of :math:`\mathbf E'`, symmetrised."""
        n, r = E_basis.shape
        if n < 2:
            return np.zeros((r, r))
        S = np.atleast_2d(np.cov(E_basis, rowvar=False, ddof=1))
        return 0.5 * (S + S.T)

    @staticmethod
    def _factor(E_basis: np.ndarray) -> np.ndarray:
        r"""Triangular :math:`\mathbf R` (``min(n, r)`` x ``r``) with :math:`\mathbf R^\top\mathbf R = \hat{\boldsymbol\Sigma}'`.

        The R of a QR decomposition of the centred member matrix divided by
        :math:`\sqrt{n-1}`; the covariance itself is never formed.
        """
        n, r = E_basis.shape
        if n < 2:
            return np.zeros((1, r))
        C = (E_basis - E_basis.mean(axis=0, keepdims=True)) / math.sqrt(n - 1)
        return np.triu(np.linalg.qr(C, mode="r"))

    # ----------------------------------------------------------------------- model
    def _problem(self, rows: np.ndarray | None = None):
        """The QP as a cvxpy problem over the distinct margin rows ``rows`` (all by default)."""
        import cvxpy as cp

        r = self.basis_.size
        w = cp.Variable(r, nonneg=True, name="w")
        A, b = self._margin_A, self._margin_b
        if rows is not None:
            A, b = A[rows], b[rows]
        constraints = [A @ w >= b] if b.size else []
        if self.formulation == "covariance":
            objective = cp.Minimize(cp.quad_form(w, cp.psd_wrap(self.covariance_)))
        else:  # ||R w||^2 with the auxiliary u = R w: no dense quadratic term is formed
            u = cp.Variable(self.factor_.shape[0], name="u")
            objective = cp.Minimize(cp.sum_squares(u))
            constraints.append(u == self.factor_ @ w)
        constraints.append(cp.sum(w) == 1)
        return w, cp.Problem(objective, constraints)

    def _build(self):
        self._w_var, problem = self._problem()
        return problem

    def solve(self, solver: str | None = None, *, time_limit: float | None = None,
              mip_gap: float | None = None, verbose: bool = False, **options):
        """Solve the QMM QP (or fall back) and store the pruned weights.

        Parameters
        ----------
        solver : str, optional
            Any QP-capable backend of :func:`optirules.solvers.solve`: ``"scs"``
            (default, the fastest in ``benchmarks/results/qmm.md``, tolerances 1e-9),
            ``"clarabel"``, ``"osqp"``,
            ``"highs"`` ...  A time-limited SCS solve comes back as ``feasible``, not
            ``time_limit``.  HiGHS's active-set QP
            solver is fast on small instances but, on dense instances with hundreds of
            members, we saw it stop with a solve error (then the fallback applies) or run
            for minutes, so it is refused (SolverError, before solving) when the QP has more
            than ``HIGHS_MAX_MEMBERS`` = 100 weight variables; SCIP likewise above
            ``SCIP_MAX_MEMBERS`` = 100.  On the direct path (``interface``) a size-limited
            Gurobi licence's refusal is a SolverError quoting it, not a fallback.
        time_limit, verbose, **options
            Passed to the solver (its own settings on the direct path, the solver layer
            through cvxpy); when margin rows are generated the time limit bounds all rounds
            together, and a round that stops early with violated margin rows, or time
            running out between rounds, gives the fallback.  Tighter tolerances than the
            solvers' defaults are used unless given here (``_SOLVER_DEFAULTS``, and
            ``_DIRECT_DEFAULTS`` on the direct path).
        mip_gap : None
            Accepted for the common signature; the QP is continuous.

        Returns
        -------
        SolveResult
            Also kept as ``result_``.  When the covariance fails the PSD check no solver is
            called and the result has status ``numerical_error``.  A missing solution does
            not raise: it triggers the documented fallback.
        """
        name = (solver or self.default_solver).lower()
        if self.singular_covariance_ and self.singular_covariance == "fallback":
            r = int(self.rank_)
            reason = (
                f"the covariance of the QR basis is singular (rank {self.basis_covariance_rank_} "
                f"< {r} basis members, n = {self.n_samples_} training rows); as in the paper "
                "the QP is not solved and the QR-reduced ensemble keeps its reference weights "
                "(singular_covariance='solve' solves the QP anyway)"
            )
            return self._not_solved(name, "covariance of the QR basis singular", reason)
        if not self.is_psd_:
            reason = (
                f"the covariance matrix Sigma' is not positive semidefinite (smallest "
                f"eigenvalue {self.min_eigenvalue_:.3g} < -psd_tol * max(1, lambda_max)); the "
                "QP was not solved"
            )
            return self._not_solved(name, "covariance not positive semidefinite", reason)
        from ..solvers import adapter

        found = adapter(name)
        method, title = found.qp_algorithm, found.title
        if method == "active_set" and self.formulation == "least_squares":
            raise SolverError(
                f"{title} is refused for the QMM QP with formulation='least_squares': its "
                "active-set QP solver stopped with a solve error on it (240 rows, 30 members) "
                f"where the covariance form solves; use formulation='covariance' with {title}, "
                "or 'clarabel' / 'osqp'.")
        if method == "active_set" and self.basis_.size > HIGHS_MAX_MEMBERS:
            raise SolverError(
                f"{title} is refused for this QMM QP: it has {self.basis_.size} weight "
                f"variables, more than {HIGHS_MAX_MEMBERS}. Above that size {title}'s "
                "active-set QP solver slows down and ends in solve errors or 'optimal' points "
                "that violate margin rows (docs/papers/qmm_pruning.md); use 'scs' (default), "
                "'clarabel' or 'osqp'.")
        if method == "spatial_branch_and_bound" and self.basis_.size > SCIP_MAX_MEMBERS:
            raise SolverError(
                f"{title} is refused for this QMM QP: it has {self.basis_.size} weight "
                f"variables, more than {SCIP_MAX_MEMBERS}. {title}, a global nonlinear "
                "solver, is already slow at that size and gives no usable weights well above "
                "it (docs/papers/qmm_pruning.md); use 'scs' (default), 'clarabel' or 'osqp'.")
        direct = self._direct(name)
        if (method == "admm" and self.margin_constraints == "auto"
                and self._margin_b.size >= self.basis_.size):
            # OSQP (ADMM on the QP) is faster with generated rows whenever k >= r, whatever k r^2,
            # but not with k < r, so the first condition stays (the runs are in
            # benchmarks/results/qmm.md; the figures in docs/papers/qmm_pruning.md)
            self.margin_constraints_ = "generated"
        opts = {**_SOLVER_DEFAULTS.get(name, {}),
                **(_DIRECT_DEFAULTS.get(name, {}) if direct else {}), **options}
        if self.margin_constraints_ == "generated" or direct:
            return self._solve_generated(name, time_limit, verbose, opts, direct=direct,
                                         generate=self.margin_constraints_ == "generated")
        self.n_margin_rows_ = int(self._margin_b.size)
        self.generation_rounds_ = 1
        try:
            result = super().solve(name, time_limit=time_limit, mip_gap=mip_gap,
                                   verbose=verbose, **opts)
        except SolverStatusError as exc:
            result = exc.result if exc.result is not None else self.result_
            self.result_ = result
            status = getattr(result, "status", None)
            label = status.value if status is not None else "unknown"
            self._fallback(result, f"the solver {name!r} returned no solution "
                                   f"(status {label!r}): {exc}")
        return result

    def _direct(self, name: str) -> bool:
        """Whether ``solve(name)`` goes to the solver's own API (``interface``)."""
        from ..solvers import adapter
        from ._qmm_direct import DIRECT_PATHS, DIRECT_SOLVERS

        if self.interface == "cvxpy":
            return False
        if adapter(name).qp_algorithm == "active_set" and self.interface == "auto":
            # HiGHS's active-set solver is erratic on both paths (200 rows x 100 members:
            # "solve error" on the direct model, optimal through cvxpy; 600 x 90 generated:
            # errors on both), so "auto" keeps it on cvxpy, the path it was tested on
            return False
        # the direct CPLEX path takes the covariance form only
        served = self.formulation in DIRECT_PATHS.get(name, ())
        if not served and self.interface == "direct":
            raise SolverError(f"interface='direct' has no path for solver {name!r} with "
                              f"formulation={self.formulation!r} (direct paths: "
                              f"{DIRECT_SOLVERS}, CPLEX in the covariance form only): use "
                              "interface='cvxpy'.")
        return served

    def _read_solution(self, result) -> None:
        from ..solvers import Status

        raw = None if self._w_var is None else self._w_var.value
        if raw is None and result.values:
            raw = result.values.get("w")
        w = None if raw is None else np.asarray(raw, dtype=float).reshape(-1)
        if w is None or w.size != self.basis_.size or not np.all(np.isfinite(w)):
            self._fallback(result, f"the solver returned status {result.status.value!r} "
                                   "without usable weights")
            return
        w = np.clip(w, 0.0, None)
        w[w <= self.weight_tol] = 0.0
        total = w.sum()
        if total <= 0:
            self._fallback(result, "every solved weight was at or below weight_tol")
            return
        w /= total
        violation = float(np.max(self.phi_ - self._Lambda @ w, initial=0.0))
        if result.status is not Status.OPTIMAL and violation > 1e-6:
            self._fallback(
                result,
                f"the solver stopped with status {result.status.value!r} and its weights "
                f"violate the margin constraints by {violation:.3g}",
            )
            return
        full = np.zeros(self.n_members_)
        full[self.basis_] = w
        self._store(full, result, fallback_reason="")

    # ----------------------------------------------------------------------- results
    def _store(self, weights: np.ndarray, result, fallback_reason: str) -> None:
        self.weights_ = weights
        self.kept_ = np.flatnonzero(weights > 0)
        self.pruning_rate_ = 1.0 - self.kept_.size / self.n_members_
        self.margins_ = self.predictions @ weights * self.labels
        # w' Sigma w is the sample variance of the margins E w; this form also covers fallback
        # weights on members outside the basis
        self.objective_ = float(np.var(self.margins_, ddof=1)) if self.n_samples_ > 1 else 0.0
        self.constraint_violation_ = float(
            np.max(self.phi_ - self.margins_[self.lower_rows_], initial=0.0))
        self.status_ = None if result is None else result.status
        self.fallback_used_ = bool(fallback_reason)
        self.fallback_reason_ = fallback_reason

    def _not_solved(self, solver: str, raw_status: str, reason: str):
        """Record that the QP was not handed to ``solver`` and fall back (see ``_fallback``)."""
        from ..solvers import SolveResult, Status

        result = SolveResult(status=Status.NUMERICAL_ERROR, solver=solver, raw_status=raw_status)
        self.result_ = result
        self._fallback(result, reason)
        return result

    def _fallback(self, result, reason: str) -> None:
        message = (
            f"QMMModel: {reason}; falling back to the reference weights "
            f"(margin_reference={self.margin_reference!r}: "
            + ("alpha' on the QR basis" if self.margin_reference == "basis"
               else "alpha with identical members merged")
            + f"), which keep {np.count_nonzero(self.reference_weights_)} of "
            f"{self.n_members_} members."
        )
        if not self.singular_covariance_ or self.singular_covariance == "solve":
            message += (
                " To prune further try another solver"
                + (", margin_reference='basis' (always feasible)"
                   if self.margin_reference == "original" else "")
                + " or a smaller upsilon.")
        warnings.warn(message, QMMFallbackWarning, stacklevel=3)
        self._store(self.reference_weights_.copy(), result, fallback_reason=reason)

    def summary(self) -> dict[str, Any]:
        """The solve's figures as a plain dict (members, kept, pruning rate, status, weights moved).

        Returns
        -------
        dict
            The figures, by name.
        """
        self._check_solved()
        return {
            "n_samples": self.n_samples_,
            "n_members": self.n_members_,
            "rank": self.rank_,
            "n_basis": int(self.basis_.size),
            "n_kept": int(self.kept_.size),
            "pruning_rate": self.pruning_rate_,
            "upsilon": self.upsilon_,
            "objective": self.objective_,
            "baseline_objective": self.baseline_objective_,
            "status": None if self.status_ is None else self.status_.value,
            "fallback_used": self.fallback_used_,
            "fallback_reason": self.fallback_reason_,
            "singular_covariance": self.singular_covariance_,
            "basis_covariance_rank": self.basis_covariance_rank_,
            "merged_weight": self.merged_weight_,
            "moved_weight": self.moved_weight_,
            "margin_shift": self.margin_shift_,
            "constraint_violation": self.constraint_violation_,
            "formulation": self.formulation,
            "margin_constraints": self.margin_constraints,
            "n_margin_rows": getattr(self, "n_margin_rows_", None),
            "generation_rounds": getattr(self, "generation_rounds_", None),
        }

