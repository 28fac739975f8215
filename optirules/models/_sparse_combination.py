r"""The sparse convex combination of rule sets of the DRO paper, eqs 11-14, as a Pyomo MILP.

Given the predictions :math:`h_k(x_i) \in \{0, 1\}` of :math:`K` members (rule sets) on
:math:`N` training rows, their costs :math:`c(h_k)`, an overall budget
:math:`\mathfrak{C}` and sample weights :math:`p` (a pmf), the model chooses a sparse
convex combination :math:`F = \sum_k v_k h_k` that minimizes the weighted margin of
misclassification (*Obtaining Explainable Classification Models using Distributionally Robust Optimization*, eq 10 written as the IP 11-14).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..errors import InputError, SolverError
from ._base import OptModel

__all__ = ["SparseCombinationModel"]

#: how :meth:`SparseCombinationModel.solve` reaches the solver
ROUTES = ("auto", "highspy", "pyomo")


def _as_binary_matrix(h: Any) -> np.ndarray:
    try:
        arr = np.asarray(h, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InputError(f"predictions must be a numeric 0/1 matrix: {exc}.") from None
    if arr.ndim != 2:
        raise InputError(
            f"predictions must be 2-D (rows x members), got shape {arr.shape}; "
            "reshape a single member's predictions to (N, 1)."
        )
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise InputError(f"predictions has shape {arr.shape}: it needs at least one row and one "
                         "member.")
    if not np.all(np.isfinite(arr)):
        raise InputError("predictions has NaN or inf entries: member predictions must be 0 or 1.")
    if not np.all((arr == 0) | (arr == 1)):
        raise InputError(
            "predictions must hold 0/1 member predictions (h_k(x_i) in {0, 1}); "
            "threshold or binarize the members' outputs first."
        )
    return arr.astype(np.int8)


class SparseCombinationModel(OptModel):
    r"""Sparse convex combination of members under a complexity budget (the DRO paper, eqs 11-14).

    .. math::

        \min_{v, w, \xi} \quad & \sum_{i \in \mathcal{S}^0} p_i \xi_i
            + \sum_{i \in \mathcal{S}^1} p_i \xi_i && (11) \\
        \text{s.t.} \quad & \sum_{k \in \mathcal{K}_i} v_k \le \tfrac{1}{2} - \Delta + \xi_i,
            \quad i \in \mathcal{S}^0 && (12) \\
        & \xi_i + \sum_{k \in \mathcal{K}_i} v_k \ge \tfrac{1}{2} + \Delta,
            \quad i \in \mathcal{S}^1 && (13) \\
        & v_k \in [0, 1], \quad \sum_k v_k = 1, \quad \xi_i \ge 0, \\
        & v_k \le w_k, \quad w_k \in \{0, 1\}, \quad
            \sum_k w_k\, c(h_k) \le \mathfrak{C} && (14)

    (*Obtaining Explainable Classification Models using Distributionally Robust Optimization*, eqs 11-14), where
    :math:`\mathcal{K}_i = \{k : h_k(x_i) = 1\}` (``predictions[i, k] == 1``),
    :math:`\mathcal{S}^0, \mathcal{S}^1` are the rows with label 0 and 1, and ``p`` is a
    pmf over the rows (the DRO paper uses the worst-case pmf :math:`P^n` or :math:`P^0`).
    The combination predicts :math:`\hat y = \mathbb{I}(F(x) \ge 1/2)` with
    :math:`F = \sum_k v_k h_k`.

    **The margin** :math:`\Delta`.  The paper prints
    :math:`\Delta = \mathfrak{C} / (2 \min_k c(h_k))` as "a small separation parameter".
    That value is :math:`\ge 1/2` whenever :math:`\mathfrak{C} \ge \min_k c(h_k)` (i.e.
    whenever any member fits the budget), and then (12) charges every vote on a negative
    row and makes (13) unreachable without slack -- not a small separation.  The evident
    intent is the reciprocal, so the default here is

    .. math:: \Delta = \min\Bigl(\frac{\min_k c(h_k)}{2 \mathfrak{C}}, \frac{1}{4}\Bigr).

    The cap at 1/4 acts only when :math:`\mathfrak{C} < 2 \min_k c(h_k)`; then at most
    one member fits the budget, :math:`v` is a unit vector, and :math:`\Delta` only
    scales the objective (by :math:`1/2 + \Delta`) without changing the chosen member.
    Pass ``margin=`` to use another value in :math:`[0, 1/2)`.

    Parameters
    ----------
    predictions : array-like of shape (N, K)
        The paper's :math:`H`: 0/1 member predictions, ``predictions[i, k] = h_k(x_i)``.
    labels : array-like of shape (N,)
        The paper's :math:`y`: 0/1 labels.
    costs : array-like of shape (K,)
        Member costs :math:`c(h_k) > 0` (the DRO paper: clauses plus literals).
    complexity : float
        Overall complexity budget :math:`\mathfrak{C}`; must be at least the smallest
        cost, or no combination is feasible.
    margin : float or None, default None
        The paper's :math:`\Delta \in [0, 1/2)`; ``None`` gives the default above.
    sample_weight : array-like of shape (N,) or None, default None
        The pmf :math:`p` (non-negative, summing to 1); ``None`` means uniform.

    Attributes
    ----------
    model : pyomo.environ.ConcreteModel
        Variables ``v[member_k]``, ``w[member_k]``, ``xi[i_j]``; constraints
        ``margin[i_j]`` (12 or 13 by label), ``simplex``, ``link[member_k]`` and
        ``budget``; objective ``weighted_margin_loss``.
    v_ : numpy.ndarray of shape (K,)
        Combination weights (round-off below ``1e-9`` set to 0, renormalized).
    w_ : numpy.ndarray of shape (K,)
        The binary selection variables as solved (0/1 integers).
    chosen_ : numpy.ndarray of int
        Indices of the members that vote, ``v_ > 1e-9``.  (A member with ``w = 1`` but
        ``v = 0`` spends budget without effect; it is not listed.)
    xi_ : numpy.ndarray of shape (N,)
        Margin slacks.
    objective_ : float
        :math:`\sum_i p_i \xi_i`.
    status_ : Status
        The solve status (``optimal``, or ``time_limit`` with an incumbent).
    result_ : SolveResult
    """

    default_solver = "highs"

    #: weights below this are treated as zero when reading the solution
    tol: float = 1e-9

    def __init__(self, predictions: Any, labels: Any, costs: Any, complexity: float,
                 margin: float | None = None, sample_weight: Any = None) -> None:
        self.predictions = _as_binary_matrix(predictions)
        n, k = self.predictions.shape
        try:
            y_arr = np.asarray(labels, dtype=float).ravel()
        except (TypeError, ValueError) as exc:
            raise InputError(f"labels must hold 0/1 labels: {exc}.") from None
        if y_arr.shape != (n,):
            raise InputError(f"labels has {y_arr.size} entries but predictions has {n} rows: "
                             "pass one per row.")
        if not np.all((y_arr == 0) | (y_arr == 1)):
            raise InputError("labels must hold 0/1 labels (1 = positive class); recode them "
                             "first.")
        self.labels = y_arr.astype(np.int8)

        try:
            c = np.asarray(costs, dtype=float).ravel()
        except (TypeError, ValueError) as exc:
            raise InputError(f"costs must be positive numbers: {exc}.") from None
        if c.shape != (k,):
            raise InputError(f"costs has {c.size} entries but predictions has {k} members: one "
                             "per member.")
        if not np.all(np.isfinite(c)) or np.any(c <= 0):
            raise InputError("costs must be finite and positive (c(h_k) >= 1 in the DRO paper).")
        self.costs = c

        try:
            budget_f = float(complexity)
        except (TypeError, ValueError):
            raise InputError(f"complexity must be a number, got {complexity!r}.") from None
        if not math.isfinite(budget_f) or budget_f <= 0:
            raise InputError(f"complexity must be finite and positive, got {complexity!r}.")
        if budget_f < c.min():
            raise InputError(
                f"complexity {budget_f:g} is below the cheapest member's cost {c.min():g}: no "
                "combination fits (sum v = 1 needs one chosen member). Raise the budget."
            )
        self.complexity = budget_f

        if margin is None:
            delta_f = min(c.min() / (2.0 * budget_f), 0.25)
        else:
            try:
                delta_f = float(margin)
            except (TypeError, ValueError):
                raise InputError(f"margin must be a number in [0, 1/2), got {margin!r}."
                                 ) from None
            if not (0.0 <= delta_f < 0.5):
                raise InputError(
                    f"margin must lie in [0, 1/2), got {margin!r}: at 1/2 or more, eq 12 "
                    "charges every vote on a negative row. Use a small margin such as "
                    "min(costs) / (2 * complexity)."
                )
        self.margin = delta_f

        if sample_weight is None:
            p = np.full(n, 1.0 / n)
        else:
            try:
                p = np.asarray(sample_weight, dtype=float).ravel()
            except (TypeError, ValueError) as exc:
                raise InputError(f"sample_weight must be a pmf: {exc}.") from None
            if p.shape != (n,):
                raise InputError(
                    f"sample_weight has {p.size} entries but predictions has {n} rows: one per row."
                )
            if not np.all(np.isfinite(p)) or np.any(p < 0):
                raise InputError("sample_weight must be finite and non-negative.")
            if abs(p.sum() - 1.0) > 1e-6:
                raise InputError(
                    f"sample_weight must be a pmf (sum 1), its sum is {p.sum():.6g}: "
                    "divide it by its sum."
                )
        self.sample_weight = p

    @property
    def n_members(self) -> int:
        return self.predictions.shape[1]

    def _build(self):
        import pyomo.environ as pyo

        n, k = self.predictions.shape
        rows = [f"i_{i}" for i in range(n)]
        members = [f"member_{j}" for j in range(k)]
        half = 0.5
        m = pyo.ConcreteModel(name="sparse_combination")
        m.I = pyo.Set(initialize=rows, ordered=True)
        m.K = pyo.Set(initialize=members, ordered=True)
        m.v = pyo.Var(m.K, bounds=(0.0, 1.0), within=pyo.NonNegativeReals)
        m.w = pyo.Var(m.K, within=pyo.Binary)
        m.xi = pyo.Var(m.I, within=pyo.NonNegativeReals)

        weight = dict(zip(rows, self.sample_weight.tolist(), strict=True))
        m.weighted_margin_loss = pyo.Objective(
            expr=sum(weight[r] * m.xi[r] for r in rows if weight[r] != 0.0),
            sense=pyo.minimize,
        )
        covering = {rows[i]: [members[j] for j in np.flatnonzero(self.predictions[i])] for i in range(n)}
        label = dict(zip(rows, self.labels.tolist(), strict=True))
        delta = self.margin

        def margin_rule(mdl, r):
            votes = sum(mdl.v[q] for q in covering[r])
            if label[r] == 0:  # eq 12
                return votes - mdl.xi[r] <= half - delta
            return mdl.xi[r] + votes >= half + delta  # eq 13

        m.margin = pyo.Constraint(m.I, rule=margin_rule)
        m.simplex = pyo.Constraint(expr=sum(m.v[q] for q in members) == 1)
        m.link = pyo.Constraint(m.K, rule=lambda mdl, q: mdl.v[q] <= mdl.w[q])
        cost = dict(zip(members, self.costs.tolist(), strict=True))
        m.budget = pyo.Constraint(expr=sum(cost[q] * m.w[q] for q in members) <= self.complexity)
        return m

    # ------------------------------------------------------------------ direct HiGHS
    def highs_model(self) -> Any:
        """The same IP (eqs 11-14) built directly as a ``highspy.Highs`` model.

        Columns ``v(member_k)``, ``w(member_k)``, ``xi(i_j)`` and rows ``margin(i_j)``,
        ``simplex``, ``link(member_k)``, ``budget`` in that order, named as in the Pyomo
        model's ``.lp`` file.  The constraint matrix is assembled as one sparse array, so
        building takes milliseconds where the Pyomo model's construction and translation
        take most of a small solve.  A new object on every call.

        Returns
        -------
        highspy.Highs
            The model, ready to run.
        """
        import highspy
        from scipy import sparse

        from ..solvers import new_highs

        n, k = self.predictions.shape
        half, delta = 0.5, self.margin
        label1 = self.labels == 1
        inf = highspy.kHighsInf
        # rows: margin (n), simplex (1), link (k), budget (1); columns: v (k), w (k), xi (n)
        ri, ci = np.nonzero(self.predictions)
        rows = [ri, np.arange(n), np.full(k, n), n + 1 + np.arange(k), n + 1 + np.arange(k),
                np.full(k, n + 1 + k)]
        cols = [ci, 2 * k + np.arange(n), np.arange(k), np.arange(k), k + np.arange(k),
                k + np.arange(k)]
        vals = [np.ones(ri.size), np.where(label1, 1.0, -1.0), np.ones(k), np.ones(k),
                -np.ones(k), self.costs]
        n_row, n_col = n + k + 2, 2 * k + n
        mat = sparse.csc_matrix((np.concatenate(vals), (np.concatenate(rows),
                                                        np.concatenate(cols))),
                                shape=(n_row, n_col))
        mat.sort_indices()
        row_lower = np.concatenate([np.where(label1, half + delta, -inf), [1.0],
                                    np.full(k, -inf), [-inf]])
        row_upper = np.concatenate([np.where(label1, inf, half - delta), [1.0],
                                    np.zeros(k), [self.complexity]])
        lp = highspy.HighsLp()
        lp.num_col_, lp.num_row_ = n_col, n_row
        lp.col_cost_ = np.concatenate([np.zeros(2 * k), self.sample_weight])
        lp.col_lower_ = np.zeros(n_col)
        lp.col_upper_ = np.concatenate([np.ones(2 * k), np.full(n, inf)])
        lp.row_lower_, lp.row_upper_ = row_lower, row_upper
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_ = mat.indptr.astype(np.int32)
        lp.a_matrix_.index_ = mat.indices.astype(np.int32)
        lp.a_matrix_.value_ = mat.data.astype(float)
        lp.integrality_ = ([highspy.HighsVarType.kContinuous] * k
                           + [highspy.HighsVarType.kInteger] * k
                           + [highspy.HighsVarType.kContinuous] * n)
        lp.col_names_ = ([f"v(member_{q})" for q in range(k)]
                         + [f"w(member_{q})" for q in range(k)]
                         + [f"xi(i_{i})" for i in range(n)])
        lp.row_names_ = ([f"margin(i_{i})" for i in range(n)] + ["simplex"]
                         + [f"link(member_{q})" for q in range(k)] + ["budget"])
        h = new_highs()
        if h.passModel(lp) != highspy.HighsStatus.kOk:
            raise SolverError("HiGHS refused the sparse combination IP built for it.")
        return h

    def solve(self, solver: str | None = None, *, time_limit: float | None = None,
              mip_gap: float | None = None, verbose: bool = False, route: str = "auto",
              max_nodes: int | None = None, **options: Any):
        """Solve the IP and read the solution back (see ``OptModel.solve``).

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
        max_nodes : int or None, default None
            Most branch-and-bound nodes, passed as the solver's own option
            (its adapter's ``node_limit_option``: HiGHS ``mip_max_nodes``, SCIP
            ``limits/nodes`` ...).
            A bound in nodes, unlike ``time_limit``, does not depend on the machine's speed.
            When it stops the solver the best incumbent is returned with status
            ``iteration_limit`` and its gap (``result_.gap``); without any incumbent
            :class:`~optirules.errors.SolverStatusError` is raised.
        route : {"auto", "highspy", "pyomo"}, default "auto"
            ``"highspy"``: the model of :meth:`highs_model` solved by HiGHS (only with
            ``solver="highs"``); ``"pyomo"``: the declarative Pyomo model ``model``
            through the solvers layer (any MILP solver); ``"auto"``: ``"highspy"`` for
            HiGHS, ``"pyomo"`` otherwise.  Both routes reach the same optimum (tested).
        **options
            Solver-specific options, passed on unchanged.

        Returns
        -------
        SolveResult
            Status, objective, bound, gap and values of the solve (also ``result_``).
        """
        from ..solvers import adapter, adapters, capable, solve

        name = str(solver or self.default_solver).lower()
        if max_nodes is not None:
            if isinstance(max_nodes, bool) or not isinstance(max_nodes, (int, np.integer)) \
                    or max_nodes < 1:
                raise InputError(f"max_nodes must be None or an int >= 1, got {max_nodes!r}.")
            node_option = adapter(name).node_limit_option
            if node_option is None:
                knows = [a.name for a in adapters(installed=False, others=False)
                         if a.node_limit_option]
                raise InputError(
                    f"optirules does not know solver {solver!r}'s node-limit option (it knows "
                    f"{', '.join(knows)}'s): pass max_nodes=None and the "
                    "solver's own option by name.")
            options.setdefault(node_option, int(max_nodes))
        if route not in ROUTES:
            raise InputError(f"route must be one of {ROUTES}, got {route!r}.")
        highspy = capable(name, "milp", "highspy")  # HiGHS takes the model of highs_model
        if route == "highspy" and not highspy:
            raise InputError(f"route='highspy' solves with HiGHS only, not {solver!r}; use "
                             "route='pyomo' for another solver.")
        if route == "pyomo" or (route == "auto" and not highspy):
            return super().solve(solver, time_limit=time_limit, mip_gap=mip_gap,
                                 verbose=verbose, **options)
        h = self.highs_model()
        # the margin rows compare votes with 1/2 - Delta: HiGHS's default MIP feasibility
        # tolerance (1e-6) lets a vote miss a margin of a few 1e-6 and the objective drift
        # by as much (hypothesis found Delta = 4e-6 off the brute force by 1.3e-6)
        options.setdefault("mip_feasibility_tolerance", 1e-9)
        options.setdefault("primal_feasibility_tolerance", 1e-9)
        result = solve(h, "highs", time_limit=time_limit, mip_gap=mip_gap, verbose=verbose,
                       **options)
        self.result_ = result
        if not result.has_solution:
            result.raise_for_status()
        x = np.asarray(h.getSolution().col_value, dtype=float)
        n, k = self.predictions.shape
        self._store_solution(x[:k], x[k:2 * k], x[2 * k:], result)
        return result

    def _read_solution(self, result) -> None:
        import pyomo.environ as pyo

        m = self.model
        members = list(m.K)
        self._store_solution(np.array([pyo.value(m.v[q]) for q in members], dtype=float),
                             np.array([pyo.value(m.w[q]) for q in members], dtype=float),
                             np.array([pyo.value(m.xi[r]) for r in m.I], dtype=float), result)

    def _store_solution(self, v: np.ndarray, w: np.ndarray, xi: np.ndarray, result) -> None:
        v = np.array(v, dtype=float)
        v[v < self.tol] = 0.0
        v = v / v.sum()
        self.v_ = v
        self.w_ = np.round(w).astype(int)
        self.chosen_ = np.flatnonzero(v > 0.0)
        self.xi_ = np.asarray(xi, dtype=float)
        self.objective_ = float(result.objective)
        self.status_ = result.status

    # ------------------------------------------------------------------ predictions
    def decision_function(self, predictions: Any = None) -> np.ndarray:
        r"""The combination :math:`F(x_i) = \sum_k v_k h_k(x_i)` on member ``predictions``.

        Parameters
        ----------
        predictions : array-like of shape (M, K) or None
            0/1 predictions of the same K members on M rows; ``None`` uses the
            training matrix.

        Returns
        -------
        ndarray of shape (M,)
            The combination on each row, in [0, 1].
        """
        self._check_solved()
        h = self.predictions if predictions is None else _as_binary_matrix(predictions)
        if h.shape[1] != self.n_members:
            raise InputError(
                f"predictions has {h.shape[1]} members, the model was built with "
                f"{self.n_members}."
            )
        return (h * self.v_[None, :]).sum(axis=1)

    def predict(self, predictions: Any = None) -> np.ndarray:
        r""":math:`\hat y = \mathbb{I}(F(x) \ge 1/2)` (the DRO paper, Section 1), as 0/1 integers.

        A tolerance of ``1e-9`` absorbs round-off in ``v_`` at the threshold.

        Parameters
        ----------
        predictions : array-like of shape (M, K) or None
            0/1 predictions of the same K members on M rows; ``None`` uses the
            training matrix.

        Returns
        -------
        ndarray of int, shape (M,)
            The 0/1 prediction of each row.
        """
        return (self.decision_function(predictions) >= 0.5 - self.tol).astype(int)
