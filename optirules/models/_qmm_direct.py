r"""The QMM QP handed to each solver's own API with prebuilt matrices (no cvxpy).

The problem is the one :class:`~optirules.models.QMMModel` builds in cvxpy (the QMM paper,
eq. 19, on the QR basis): over :math:`\mathbf w \in \mathbb R^r`

.. math::

    \min \ \mathbf w^\top \hat{\boldsymbol\Sigma}' \mathbf w \quad \text{s.t.} \quad
    \mathbf A \mathbf w \ge \mathbf b, \quad \mathbf 1^\top \mathbf w = 1, \quad
    \mathbf w \ge 0,

with :math:`\mathbf A, \mathbf b` the (distinct, possibly generated) margin rows.  With
``formulation="covariance"`` the solvers get :math:`\mathbf P = 2\hat{\boldsymbol\Sigma}'`
(their objective is :math:`\frac12\mathbf x^\top\mathbf P\mathbf x`); with
``"least_squares"`` the variables are :math:`(\mathbf w, \mathbf u)`, :math:`\mathbf P =
\operatorname{diag}(\mathbf 0, 2\mathbf I)` and :math:`\mathbf R\mathbf w - \mathbf u = 0`
(:math:`\mathbf R^\top\mathbf R = \hat{\boldsymbol\Sigma}'`).  Each function returns
``(SolveResult, w or None, warm)`` where ``warm`` is what the next generation round can
start from (OSQP and SCS take a primal warm start; the interior-point solvers none).
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from ..errors import SolverError, SolverOptionError

__all__ = ["DIRECT_PATHS", "DIRECT_SOLVERS", "solve_direct"]

#: the solvers with a direct path (the QP written in the solver's own API below) and the
#: formulations each path takes; the others go through cvxpy
_BOTH = ("covariance", "least_squares")
DIRECT_PATHS: dict[str, tuple[str, ...]] = {
    "clarabel": _BOTH, "osqp": _BOTH, "scs": _BOTH, "highs": _BOTH, "gurobi": _BOTH,
    "cplex": ("covariance",)}
DIRECT_SOLVERS = tuple(DIRECT_PATHS)


def _result(name: str, status, raw: str, w, objective: float, wall: float, info: dict):
    from ..solvers import SolveResult, Status

    has = w is not None and status in (Status.OPTIMAL, Status.FEASIBLE, Status.TIME_LIMIT,
                                       Status.ITERATION_LIMIT)
    obj = float(objective) if has else math.nan
    optimal = status is Status.OPTIMAL
    return SolveResult(
        status=status, objective=obj, bound=obj if optimal else math.nan,
        gap=0.0 if optimal else (math.inf if not has else math.nan), wall_time=wall,
        solver=name, solver_version=_version(name), raw_status=raw,
        values={"w": np.asarray(w, dtype=float)} if has else {}, has_solution=has,
        info={"interface": "direct", **info})


def _version(name: str) -> str:
    from ..solvers import adapter

    return adapter(name).version()


def _set(settings, name: str, key: str, value: Any) -> None:
    if not hasattr(settings, key):
        raise SolverOptionError(f"{name} has no setting {key!r} (its direct QMM path passes "
                                "options to the solver's own settings).")
    try:
        setattr(settings, key, type(getattr(settings, key))(value)
                if not isinstance(getattr(settings, key), str) else value)
    except (TypeError, ValueError) as exc:
        raise SolverOptionError(f"{name} rejected {key}={value!r}: {exc}") from None


def _stacked(A: np.ndarray, r: int, R: np.ndarray | None):
    """Sparse rows ``eq`` ([sum] or [sum; (R, -I)]) and ``margin`` over the variables, and
    their number (``r``, or ``r + p`` with the least-squares ``u``)."""
    import scipy.sparse as sp

    k = A.shape[0]
    if R is None:
        return sp.csr_matrix(np.ones((1, r))), sp.csr_matrix(A), r
    p = R.shape[0]
    eq = sp.vstack([sp.hstack([sp.csr_matrix(np.ones((1, r))), sp.csr_matrix((1, p))]),
                    sp.hstack([sp.csr_matrix(R), -sp.eye(p)])]).tocsr()
    margin = sp.hstack([sp.csr_matrix(A), sp.csr_matrix((k, p))]).tocsr()
    return eq, margin, r + p


def _P(S: np.ndarray | None, R: np.ndarray | None, r: int):
    import scipy.sparse as sp

    if R is not None:
        p = R.shape[0]
        return sp.diags(np.r_[np.zeros(r), np.full(p, 2.0)]).tocsc()
    return sp.csc_matrix(np.triu(2.0 * S))


def solve_direct(name: str, S: np.ndarray | None, R: np.ndarray | None, A: np.ndarray,
                 b: np.ndarray, *, time_limit: float | None, verbose: bool,
                 options: dict[str, Any], warm: Any = None):
    """Solve the QMM QP with solver ``name`` through its own API (see the module docstring)."""
    fn = {"clarabel": _clarabel, "osqp": _osqp, "scs": _scs, "highs": _highs,
          "gurobi": _gurobi, "cplex": _cplex}[name]
    r = A.shape[1] if A.size else (S.shape[0] if S is not None else R.shape[1])
    start = time.perf_counter()
    status, raw, x, warm_out, info = fn(S, R, np.asarray(A, dtype=float), np.asarray(b, float),
                                        r, time_limit, verbose, dict(options), warm)
    wall = time.perf_counter() - start
    w = None if x is None else np.asarray(x, dtype=float)[:r]
    objective = math.nan
    if w is not None and np.all(np.isfinite(w)):
        objective = float(w @ S @ w) if S is not None else float(np.sum((R @ w) ** 2))
    else:
        w = None
    return _result(name, status, raw, w, objective, wall, info), w, warm_out


# --------------------------------------------------------------------------- Clarabel
def _clarabel(S, R, A, b, r, time_limit, verbose, options, warm):
    import clarabel
    import scipy.sparse as sp

    from ..solvers import Status

    eq, margin, nx = _stacked(A, r, R)
    k = A.shape[0]
    Acon = sp.vstack([eq, -margin, -sp.eye(r, nx)]).tocsc()
    bcon = np.r_[1.0, np.zeros(eq.shape[0] - 1), -b, np.zeros(r)]
    cones = [clarabel.ZeroConeT(eq.shape[0]), clarabel.NonnegativeConeT(k + r)]
    st = clarabel.DefaultSettings()
    st.verbose = bool(verbose)
    if time_limit is not None:
        st.time_limit = float(time_limit)
    for key, value in options.items():
        _set(st, "clarabel", key, value)
    try:
        sol = clarabel.DefaultSolver(_P(S, R, r), np.zeros(nx), Acon, bcon, cones, st).solve()
    except Exception as exc:  # noqa: BLE001 - Clarabel raises plain exceptions on bad data
        return Status.ERROR, f"error: {exc}", None, None, {}
    raw = str(sol.status)
    status = {"Solved": Status.OPTIMAL, "AlmostSolved": Status.FEASIBLE,
              "MaxTime": Status.TIME_LIMIT, "MaxIterations": Status.ITERATION_LIMIT,
              "PrimalInfeasible": Status.INFEASIBLE, "AlmostPrimalInfeasible": Status.INFEASIBLE,
              "DualInfeasible": Status.UNBOUNDED}.get(raw, Status.NUMERICAL_ERROR)
    x = np.asarray(sol.x) if status in (Status.OPTIMAL, Status.FEASIBLE, Status.TIME_LIMIT,
                                        Status.ITERATION_LIMIT) else None
    return status, raw, x, None, {"iterations": int(sol.iterations)}


# --------------------------------------------------------------------------- OSQP
def _osqp(S, R, A, b, r, time_limit, verbose, options, warm):
    import osqp
    import scipy.sparse as sp


    eq, margin, nx = _stacked(A, r, R)
    k = A.shape[0]
    Acon = sp.vstack([margin, eq, sp.eye(r, nx)]).tocsc()
    n_eq = eq.shape[0]
    lo = np.r_[b, 1.0, np.zeros(n_eq - 1), np.zeros(r)]
    up = np.r_[np.full(k, np.inf), 1.0, np.zeros(n_eq - 1), np.full(r, np.inf)]
    settings = {"verbose": bool(verbose), **options}
    if time_limit is not None:
        settings["time_limit"] = float(time_limit)
    solver = osqp.OSQP()
    try:
        solver.setup(_P(S, R, r), np.zeros(nx), Acon, lo, up, **settings)
    except (TypeError, ValueError) as exc:
        raise SolverOptionError(f"osqp rejected the options {sorted(options)}: {exc}") from None
    if warm is not None and warm.size == nx:
        solver.warm_start(x=warm)
    res = solver.solve(raise_error=False)
    raw = str(res.info.status)
    status = _first_order_status(raw)
    x = None if res.x is None or not np.all(np.isfinite(res.x)) else np.asarray(res.x)
    return status, raw, x, x, {"iterations": int(res.info.iter),
                               "polish": int(res.info.status_polish)}


def _first_order_status(raw: str) -> Any:
    """OSQP's or SCS's status text as a :class:`~optirules.solvers.Status`."""
    from ..solvers import Status

    low = raw.lower()
    if low == "solved":
        return Status.OPTIMAL
    if "inaccurate" in low and "infeasible" not in low and "unbounded" not in low:
        return Status.FEASIBLE
    if "time limit" in low:
        return Status.TIME_LIMIT
    if "maximum iterations" in low:
        return Status.ITERATION_LIMIT
    if "unbounded" in low or "dual infeasible" in low:
        return Status.UNBOUNDED
    if "infeasible" in low:
        return Status.INFEASIBLE
    return Status.NUMERICAL_ERROR


# --------------------------------------------------------------------------- SCS
def _scs(S, R, A, b, r, time_limit, verbose, options, warm):
    import scipy.sparse as sp
    import scs


    eq, margin, nx = _stacked(A, r, R)
    k = A.shape[0]
    Acon = sp.vstack([eq, -margin, -sp.eye(r, nx)]).tocsc()
    bcon = np.r_[1.0, np.zeros(eq.shape[0] - 1), -b, np.zeros(r)]
    settings = {"verbose": bool(verbose), **options}
    if time_limit is not None:
        settings["time_limit_secs"] = float(time_limit)
    data = {"P": _P(S, R, r), "A": Acon, "b": bcon, "c": np.zeros(nx)}
    try:
        solver = scs.SCS(data, {"z": eq.shape[0], "l": k + r}, **settings)
    except (TypeError, ValueError) as exc:
        raise SolverOptionError(f"scs rejected the options {sorted(options)}: {exc}") from None
    if warm is not None and warm.size == nx:
        sol = solver.solve(warm_start=True, x=warm, y=None, s=None)
    else:
        sol = solver.solve()
    info = sol["info"]
    raw = str(info["status"])
    status = _first_order_status(raw)
    x = np.asarray(sol["x"])
    if not np.all(np.isfinite(x)):
        x = None
    return status, raw, x, x, {"iterations": int(info["iter"])}


# --------------------------------------------------------------------------- HiGHS
def _highs(S, R, A, b, r, time_limit, verbose, options, warm):
    import highspy
    import scipy.sparse as sp

    from ..solvers import new_highs, solve

    if R is not None:
        raise SolverError("HiGHS takes the QMM QP in its covariance form only.")
    k = A.shape[0]
    h = new_highs()
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = r, k + 1
    lp.col_cost_ = np.zeros(r)
    lp.col_lower_ = np.zeros(r)
    lp.col_upper_ = np.full(r, highspy.kHighsInf)
    lp.row_lower_ = np.r_[b, 1.0]
    lp.row_upper_ = np.r_[np.full(k, highspy.kHighsInf), 1.0]
    M = sp.csc_matrix(np.vstack([A, np.ones((1, r))]))
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = M.indptr, M.indices, M.data
    lp.col_names_ = [f"w[{j}]" for j in range(r)]
    hess = highspy.HighsHessian()
    L = sp.csc_matrix(np.triu(2.0 * S))  # the upper triangle, as cvxpy passes it
    hess.dim_, hess.format_ = r, highspy.HessianFormat.kTriangular
    hess.start_, hess.index_, hess.value_ = L.indptr, L.indices, L.data
    model = highspy.HighsModel()
    model.lp_, model.hessian_ = lp, hess
    h.passModel(model)
    result = solve(h, "highs", time_limit=time_limit, verbose=verbose, **options)
    x = None
    if result.has_solution:
        x = np.array([result.values[f"w[{j}]"] for j in range(r)])
    return result.status, result.raw_status, x, None, {"log": result.log[-2000:]}


# --------------------------------------------------------------------------- Gurobi
def _gurobi(S, R, A, b, r, time_limit, verbose, options, warm):
    import gurobipy as gp

    from ..solvers import Status

    env = gp.Env(empty=True)
    env.setParam("OutputFlag", int(bool(verbose)))
    env.start()
    m = gp.Model(env=env)
    try:
        for key, value in options.items():
            try:
                m.setParam(key, value)
            except gp.GurobiError as exc:
                raise SolverOptionError(f"gurobi rejected {key}={value!r}: {exc}") from None
        if time_limit is not None:
            m.setParam("TimeLimit", float(time_limit))
        w = m.addMVar(r, lb=0.0, name="w")
        m.addConstr(w.sum() == 1.0)
        if A.shape[0]:
            m.addMConstr(A, w, ">", b)
        if R is None:
            m.setMObjective(S, None, 0.0, xQ_L=w, xQ_R=w)
        else:
            u = m.addMVar(R.shape[0], lb=-gp.GRB.INFINITY, name="u")
            m.addConstr(R @ w - u == 0)
            m.setObjective(u @ u)
        try:
            m.optimize()
        except gp.GurobiError as exc:
            if exc.errno == 10010:
                raise SolverError(
                    f"Gurobi refused the QMM QP ({r} weights, a dense {r} x {r} quadratic "
                    f"objective, {A.shape[0]} margin rows): '{exc}'. The gurobipy wheel from "
                    "PyPI carries a size-limited licence; use an unrestricted licence, a "
                    "smaller ensemble, or 'clarabel'.") from None
            return Status.ERROR, f"error {exc.errno}: {exc}", None, None, {}
        code = m.Status
        status = {gp.GRB.OPTIMAL: Status.OPTIMAL, gp.GRB.SUBOPTIMAL: Status.FEASIBLE,
                  gp.GRB.TIME_LIMIT: Status.TIME_LIMIT,
                  gp.GRB.ITERATION_LIMIT: Status.ITERATION_LIMIT,
                  gp.GRB.INFEASIBLE: Status.INFEASIBLE,
                  gp.GRB.NUMERIC: Status.NUMERICAL_ERROR}.get(code, Status.ERROR)
        x = np.asarray(w.X) if m.SolCount > 0 else None
        return status, f"status {code}", x, None, {"iterations": int(m.BarIterCount)}
    finally:
        m.dispose()
        env.dispose()


# --------------------------------------------------------------------------- CPLEX
def _cplex(S, R, A, b, r, time_limit, verbose, options, warm):
    import cplex

    from ..solvers import Status

    if R is not None:
        raise SolverError("the direct CPLEX path takes the covariance form only: use "
                          "formulation='covariance' or interface='cvxpy'.")
    c = cplex.Cplex()
    try:
        if not verbose:
            for stream in (c.set_results_stream, c.set_log_stream, c.set_warning_stream,
                           c.set_error_stream):
                stream(None)
        if time_limit is not None:
            c.parameters.timelimit.set(float(time_limit))
        for key, value in options.items():
            target = c.parameters
            try:
                for part in key.split("."):
                    target = getattr(target, part)
                target.set(value)
            except (AttributeError, cplex.exceptions.CplexError) as exc:
                raise SolverOptionError(f"cplex rejected {key}={value!r}: {exc}") from None
        c.variables.add(lb=[0.0] * r)
        cols = list(range(r))
        rows = [cplex.SparsePair(cols, [1.0] * r)] + [
            cplex.SparsePair(cols, A[i].tolist()) for i in range(A.shape[0])]
        c.linear_constraints.add(lin_expr=rows, senses="E" + "G" * A.shape[0],
                                 rhs=[1.0] + b.tolist())
        P = 2.0 * S
        c.objective.set_quadratic([cplex.SparsePair(cols, P[j].tolist()) for j in range(r)])
        try:
            c.solve()
        except cplex.exceptions.CplexError as exc:
            text = str(exc)
            if "1016" in text or "ommunity" in text or "size" in text.lower():
                raise SolverError(
                    f"CPLEX refused the QMM QP ({r} weights, {A.shape[0] + 1} rows): "
                    f"'{text}'. The cplex wheel from PyPI is the size-limited Community "
                    "Edition (1,000 variables and 1,000 constraints); use a full "
                    "installation, fewer members or margin rows, or 'clarabel'.") from None
            return Status.ERROR, f"error: {text}", None, None, {}
        sol = c.solution
        code = sol.get_status()
        raw = sol.get_status_string()
        status = {1: Status.OPTIMAL, 101: Status.OPTIMAL, 102: Status.OPTIMAL,
                  3: Status.INFEASIBLE, 103: Status.INFEASIBLE,
                  11: Status.TIME_LIMIT, 107: Status.TIME_LIMIT,
                  10: Status.ITERATION_LIMIT, 5: Status.FEASIBLE,
                  6: Status.FEASIBLE}.get(code, Status.ERROR)
        x = None
        try:
            x = np.asarray(sol.get_values())
        except cplex.exceptions.CplexError:
            pass
        return status, raw, x, None, {"iterations": int(sol.progress.get_num_barrier_iterations())}
    finally:
        c.end()
