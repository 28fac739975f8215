"""LP/MPS export: written files read back by highspy give the same optimum and names."""

from __future__ import annotations

import highspy
import numpy as np
import pytest

from optirules.errors import InputError, ModelFormatError
from optirules.solvers import Status, read_model, solve, write_model

from .instances import (
    LP_OPT,
    QP_OPT,
    cvxpy_knapsack,
    cvxpy_lp,
    cvxpy_qp,
    knapsack_optimum,
    pyomo_knapsack,
    pyomo_lp,
)


def _read(path):
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    assert h.readModel(str(path)) != highspy.HighsStatus.kError
    return h


@pytest.mark.parametrize("suffix", [".lp", ".mps"])
def test_pyomo_round_trip_keeps_optimum_and_names(tmp_path, suffix):
    m = pyomo_lp()
    ref = solve(m)
    path = write_model(m, tmp_path / f"lp{suffix}")
    h = _read(path)
    assert sorted(h.getLp().col_names_) == ["x(a)", "x(b)"]
    assert any("cover" in r for r in h.getLp().row_names_)
    res = read_model(path)
    assert res.objective == pytest.approx(ref.objective, abs=1e-9)
    assert res.values["x(a)"] == pytest.approx(ref.values["x[a]"], abs=1e-9)
    # duals survive the trip (names gain Pyomo's row-type prefixes)
    by_stem = {k: v for k, v in res.duals.items()}
    cover = next(v for k, v in by_stem.items() if "cover" in k)
    assert cover == pytest.approx(ref.duals["cover"], abs=1e-9)


@pytest.mark.parametrize("suffix", [".lp", ".mps"])
def test_pyomo_milp_round_trip_keeps_integrality(tmp_path, suffix):
    best, _ = knapsack_optimum()
    path = write_model(pyomo_knapsack(), tmp_path / f"knap{suffix}")
    h = _read(path)
    assert all(int(t) == 1 for t in h.getLp().integrality_)
    res = read_model(path)
    assert res.status is Status.OPTIMAL and res.objective == pytest.approx(best)
    assert res.duals is None


@pytest.mark.parametrize("suffix", [".lp", ".mps"])
def test_cvxpy_round_trip(tmp_path, suffix):
    prob, _ = cvxpy_lp()
    path = write_model(prob, tmp_path / f"c{suffix}")
    assert sorted(_read(path).getLp().col_names_) == ["a", "b"]
    assert read_model(path).objective == pytest.approx(LP_OPT, abs=1e-9)
    qp, _ = cvxpy_qp()
    path = write_model(qp, tmp_path / f"q{suffix}")
    assert read_model(path).objective == pytest.approx(QP_OPT, abs=1e-7)
    best, best_x = knapsack_optimum()
    kp, x = cvxpy_knapsack()
    path = write_model(kp, tmp_path / f"k{suffix}")
    res = read_model(path)
    assert res.objective == pytest.approx(best)
    got = np.array([res.values[f"x({j})"] for j in range(len(best_x))])
    np.testing.assert_allclose(got, best_x, atol=1e-6)


def test_cones_have_no_lp_form(tmp_path):
    import cvxpy as cp

    x = cp.Variable(3)
    prob = cp.Problem(cp.Maximize(cp.sum(cp.entr(x))), [cp.sum(x) == 1])
    with pytest.raises(ModelFormatError, match="cone"):
        write_model(prob, tmp_path / "e.lp")
    prob = cp.Problem(cp.Minimize(cp.norm(x, 2)), [cp.sum(x) == 1])
    with pytest.raises(ModelFormatError, match="cone"):
        write_model(prob, tmp_path / "s.mps")


def test_bad_suffix_and_missing_file(tmp_path):
    with pytest.raises(ModelFormatError, match=r"\.lp or \.mps"):
        write_model(pyomo_lp(), tmp_path / "m.txt")
    with pytest.raises(InputError, match="no model file"):
        read_model(tmp_path / "absent.lp")


def _check_optimal_duals(A, cost, y, objective):
    """y (cover-row duals) is optimal for the dual of min c'w, Aw >= 1, 0 <= w <= 1:
    max 1'y - 1'z, A'y - z <= c, y, z >= 0 (z = the best bound multipliers)."""
    assert np.all(y >= -1e-9)
    z = np.maximum(A.T @ y - cost, 0.0)
    assert y.sum() - z.sum() == pytest.approx(objective, rel=1e-8)


def test_pyomo_and_direct_highspy_routes_agree(tmp_path):
    """A random covering LP: Pyomo's HiGHS route and the direct highspy route on the
    written file give the same objective and primal values, and each route's duals are
    optimal for the dual LP (the dual of a covering LP need not be unique, so the two
    vectors are checked by strong duality rather than entry by entry)."""
    import pyomo.environ as pyo

    rng = np.random.default_rng(7)
    n_rows, n_cols = 30, 20
    A = (rng.random((n_rows, n_cols)) < 0.3).astype(float)
    A[np.arange(n_rows), rng.integers(0, n_cols, n_rows)] = 1.0
    cost = rng.uniform(1, 5, n_cols)
    m = pyo.ConcreteModel()
    m.J = pyo.Set(initialize=[f"j{j}" for j in range(n_cols)])
    m.I = pyo.Set(initialize=[f"i{i}" for i in range(n_rows)])
    m.w = pyo.Var(m.J, bounds=(0, 1))
    m.cover = pyo.Constraint(
        m.I, rule=lambda m, i: sum(A[int(i[1:]), int(j[1:])] * m.w[j] for j in m.J) >= 1
    )
    m.obj = pyo.Objective(expr=sum(cost[int(j[1:])] * m.w[j] for j in m.J))
    ref = solve(m)
    path = write_model(m, tmp_path / "cover.mps")
    direct = read_model(path)
    assert direct.objective == pytest.approx(ref.objective, rel=1e-9)
    w_ref = np.array([ref.values[f"w[j{j}]"] for j in range(n_cols)])
    w_dir = np.array([direct.values[f"w(j{j})"] for j in range(n_cols)])
    assert cost @ w_dir == pytest.approx(cost @ w_ref, rel=1e-9)
    y_ref = np.array([ref.duals[f"cover[i{i}]"] for i in range(n_rows)])
    y_dir = np.array([direct.duals[next(k for k in direct.duals if k.endswith(f"cover(i{i})_"))]
                      for i in range(n_rows)])
    _check_optimal_duals(A, cost, y_ref, ref.objective)
    _check_optimal_duals(A, cost, y_dir, direct.objective)


@pytest.mark.parametrize("text, match", [
    ("", "holds no variables"),
    ("\\ a comment and nothing else\n", "holds no variables"),
    ("Minimize\n obj: \nSubject To\n c1: x >= 1\nEnd\n", "has no objective"),
])
def test_read_model_refuses_a_file_without_a_model(tmp_path, text, match):
    """An empty or objective-less file parses in HiGHS and 'solves' to optimal with objective
    NaN or 0; read_model says what is missing instead."""
    from optirules.errors import ModelFormatError

    path = tmp_path / "m.lp"
    path.write_text(text)
    with pytest.raises(ModelFormatError, match=match):
        read_model(path)
