"""Conformance instances with known primal, dual and objective values.

Each builder returns a fresh problem; the expected values were derived by hand
(KKT conditions) and are written next to each instance.
"""

from __future__ import annotations

import itertools

import numpy as np

# ---------------------------------------------------------------- the instances

# LP:  min 2a + 3b  s.t.  a + b >= 1 (dual 2.5),  a - b <= 0.5 (dual -0.5),  a, b >= 0
#      optimum 2.25 at a = 0.75, b = 0.25  (d objective / d rhs)
LP_OPT = 2.25
LP_X = {"a": 0.75, "b": 0.25}
LP_DUALS = {"cover": 2.5, "balance": -0.5}

# QP:  min (x - 1)^2 + (y - 2)^2  s.t.  x + y <= 2
#      optimum 0.5 at x = 0.5, y = 1.5; the row's d objective / d rhs = -1
QP_OPT = 0.5
QP_X = {"x": 0.5, "y": 1.5}
QP_DUAL = -1.0

# MILP: a 0/1 knapsack with two rows; its optimum comes from enumeration below
KNAP_VALUE = np.array([10.0, 13.0, 7.0, 8.0, 4.0, 9.0])
KNAP_W = np.array([[5.0, 7.0, 4.0, 3.0, 1.0, 6.0], [2.0, 6.0, 3.0, 5.0, 2.0, 4.0]])
KNAP_CAP = np.array([14.0, 12.0])


def knapsack_optimum() -> tuple[float, np.ndarray]:
    best, best_x = -np.inf, None
    for bits in itertools.product([0, 1], repeat=len(KNAP_VALUE)):
        x = np.array(bits, dtype=float)
        if np.all(KNAP_W @ x <= KNAP_CAP + 1e-12) and KNAP_VALUE @ x > best:
            best, best_x = float(KNAP_VALUE @ x), x
    return best, best_x


def pyomo_lp():
    import pyomo.environ as pyo

    m = pyo.ConcreteModel()
    m.x = pyo.Var(["a", "b"], within=pyo.NonNegativeReals)
    m.cover = pyo.Constraint(expr=m.x["a"] + m.x["b"] >= 1)
    m.balance = pyo.Constraint(expr=m.x["a"] - m.x["b"] <= 0.5)
    m.obj = pyo.Objective(expr=2 * m.x["a"] + 3 * m.x["b"])
    return m


def pyomo_qp():
    import pyomo.environ as pyo

    m = pyo.ConcreteModel()
    m.x = pyo.Var(["x", "y"])
    m.cap = pyo.Constraint(expr=m.x["x"] + m.x["y"] <= 2)
    m.obj = pyo.Objective(expr=(m.x["x"] - 1) ** 2 + (m.x["y"] - 2) ** 2)
    return m


def pyomo_knapsack():
    import pyomo.environ as pyo

    m = pyo.ConcreteModel()
    m.J = pyo.Set(initialize=range(len(KNAP_VALUE)))
    m.R = pyo.Set(initialize=range(len(KNAP_CAP)))
    m.x = pyo.Var(m.J, within=pyo.Binary)
    m.cap = pyo.Constraint(m.R, rule=lambda m, r: sum(KNAP_W[r, j] * m.x[j] for j in m.J) <= KNAP_CAP[r])
    m.obj = pyo.Objective(expr=sum(KNAP_VALUE[j] * m.x[j] for j in m.J), sense=pyo.maximize)
    return m


def pyomo_infeasible():
    import pyomo.environ as pyo

    m = pyo.ConcreteModel()
    m.x = pyo.Var(within=pyo.NonNegativeReals)
    m.lo = pyo.Constraint(expr=m.x >= 2)
    m.hi = pyo.Constraint(expr=m.x <= 1)
    m.obj = pyo.Objective(expr=m.x)
    return m


def pyomo_unbounded():
    import pyomo.environ as pyo

    m = pyo.ConcreteModel()
    m.x = pyo.Var(within=pyo.NonNegativeReals)
    m.y = pyo.Var(within=pyo.NonNegativeReals)
    m.c = pyo.Constraint(expr=m.x - m.y <= 1)
    m.obj = pyo.Objective(expr=-m.x - m.y)
    return m


def pyomo_hard_milp(n: int = 40, k: int = 4, seed: int = 0):
    """A market-split instance (Cornuéjols-Dawande style): hard for branch and bound."""
    import pyomo.environ as pyo

    rng = np.random.default_rng(seed)
    A = rng.integers(0, 100, (k, n))
    b = A.sum(axis=1) // 2
    m = pyo.ConcreteModel()
    m.x = pyo.Var(range(n), within=pyo.Binary)
    m.s = pyo.Var(range(k), bounds=(-1000, 1000))
    m.t = pyo.Var(range(k), within=pyo.NonNegativeReals)
    m.split = pyo.Constraint(
        range(k), rule=lambda m, i: sum(int(A[i, j]) * m.x[j] for j in range(n)) + m.s[i] == int(b[i])
    )
    m.pos = pyo.Constraint(range(k), rule=lambda m, i: m.t[i] >= m.s[i])
    m.neg = pyo.Constraint(range(k), rule=lambda m, i: m.t[i] >= -m.s[i])
    m.obj = pyo.Objective(expr=sum(m.t[i] for i in range(k)) + 0.001 * sum(j * m.x[j] for j in range(n)))
    return m


def cvxpy_lp():
    import cvxpy as cp

    a, b = cp.Variable(name="a"), cp.Variable(name="b")
    cons = [a + b >= 1, a - b <= 0.5, a >= 0, b >= 0]
    return cp.Problem(cp.Minimize(2 * a + 3 * b), cons), (a, b)


def cvxpy_qp():
    import cvxpy as cp

    x, y = cp.Variable(name="x"), cp.Variable(name="y")
    return cp.Problem(cp.Minimize(cp.square(x - 1) + cp.square(y - 2)), [x + y <= 2]), (x, y)


def cvxpy_knapsack():
    import cvxpy as cp

    x = cp.Variable(len(KNAP_VALUE), boolean=True, name="x")
    return cp.Problem(cp.Maximize(KNAP_VALUE @ x), [KNAP_W @ x <= KNAP_CAP]), x


def cvxpy_infeasible():
    import cvxpy as cp

    x = cp.Variable(name="x")
    return cp.Problem(cp.Minimize(x), [x >= 2, x <= 1])


def cvxpy_unbounded():
    import cvxpy as cp

    x = cp.Variable(2, name="x")
    return cp.Problem(cp.Minimize(-cp.sum(x)), [x >= 0, x[0] - x[1] <= 1])
