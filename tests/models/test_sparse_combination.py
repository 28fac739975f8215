"""Tests of the DRO paper eqs 11-14 sparse convex combination MILP against brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from optirules.errors import InputError
from optirules.models import SparseCombinationModel


def _inner_lp(H, y, p, delta, subset) -> float:
    """Eqs 11-13 with the chosen members fixed (an LP in v_S and xi), solved by scipy."""
    n = H.shape[0]
    s = len(subset)
    cost = np.r_[np.zeros(s), p]
    a_ub = np.zeros((n, s + n))
    b_ub = np.zeros(n)
    for i in range(n):
        sign = 1.0 if y[i] == 0 else -1.0
        a_ub[i, :s] = sign * H[i, subset]  # y=0: sum v - xi <= 1/2 - delta
        a_ub[i, s + i] = -1.0  # y=1: -sum v - xi <= -(1/2 + delta)
        b_ub[i] = 0.5 - delta if y[i] == 0 else -(0.5 + delta)
    a_eq = np.r_[np.ones(s), np.zeros(n)][None, :]
    res = linprog(cost, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0.0, 1.0)] * s + [(0.0, None)] * n, method="highs")
    assert res.status == 0
    return float(res.fun)


def _brute_force(H, y, costs, budget, delta, p) -> float:
    """Minimum over every member subset within budget of the inner LP."""
    k = H.shape[1]
    best = np.inf
    for r in range(1, k + 1):
        for subset in itertools.combinations(range(k), r):
            if costs[list(subset)].sum() <= budget + 1e-12:
                best = min(best, _inner_lp(H, y, p, delta, list(subset)))
    return best


def _margin_loss(H, y, p, delta, v) -> float:
    """Objective 11 at v with the smallest feasible xi (eqs 12-13)."""
    f = H @ v
    xi = np.where(y == 0, np.maximum(0.0, f - (0.5 - delta)), np.maximum(0.0, 0.5 + delta - f))
    return float(p @ xi)


def _random_instance(seed: int, n: int, k: int):
    rng = np.random.default_rng(seed)
    H = (rng.random((n, k)) < rng.uniform(0.2, 0.8)).astype(int)
    y = (rng.random(n) < 0.5).astype(int)
    costs = rng.integers(2, 8, k).astype(float)
    budget = float(rng.integers(int(costs.min()), int(costs.sum()) + 2))
    p = rng.dirichlet(np.ones(n))
    return H, y, costs, budget, p


@example(seed=1, n=6, k=4, weighted=False, delta=3.993511199951185e-06)  # a margin near 1e-6
# HiGHS's default relative MIP gap (1e-4) stopped this one 7e-6 above the optimum: the test
# asks for the exact optimum (mip_gap=0)
@example(seed=99, n=11, k=5, weighted=True, delta=3.0517578125e-05)
@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(4, 30),
    k=st.integers(1, 8),
    weighted=st.booleans(),
    delta=st.one_of(st.none(), st.floats(0.0, 0.45)),
)
def test_milp_equals_brute_force(seed, n, k, weighted, delta):
    H, y, costs, budget, p = _random_instance(seed, n, k)
    model = SparseCombinationModel(H, y, costs, budget, margin=delta,
                                   sample_weight=p if weighted else None)
    weights = model.sample_weight
    model.solve(mip_gap=0.0)  # HiGHS through the direct highspy model, to the optimum
    expected = _brute_force(H, y, costs, budget, model.margin, weights)
    assert model.objective_ == pytest.approx(expected, abs=1e-7)
    assert model.result_.info["interface"] == "highspy"
    # v on the simplex, support inside the chosen set, budget respected
    assert np.all(model.v_ >= 0) and model.v_.sum() == pytest.approx(1.0, abs=1e-12)
    assert set(np.flatnonzero(model.v_)) == set(model.chosen_)
    assert costs[model.chosen_].sum() <= budget + 1e-9
    assert costs[model.w_ == 1].sum() <= budget + 1e-9
    assert np.all(model.w_[model.chosen_] == 1)
    # the reported objective is the margin loss of the returned v
    assert _margin_loss(H, y, weights, model.margin, model.v_) == pytest.approx(
        model.objective_, abs=1e-7)


def test_single_member_budget_picks_least_weighted_error():
    # With budget < 2 min cost only one member fits: v = e_k and every error costs
    # (1/2 + delta) p_i, so the optimum is the affordable member of least weighted error.
    rng = np.random.default_rng(21)
    n, k = 40, 6
    H = (rng.random((n, k)) < 0.5).astype(int)
    y = (rng.random(n) < 0.5).astype(int)
    costs = np.array([3.0, 4.0, 3.0, 9.0, 5.0, 3.0])
    p = rng.dirichlet(np.ones(n))
    model = SparseCombinationModel(H, y, costs, complexity=5.0, sample_weight=p)
    assert model.margin == 0.25  # min(3 / (2 * 5), 1/4)
    model.solve()
    affordable = np.flatnonzero(costs <= 5.0)
    errors = np.array([p @ (H[:, j] != y) for j in affordable])
    assert model.objective_ == pytest.approx(0.75 * errors.min(), abs=1e-9)
    assert len(model.chosen_) == 1
    assert errors[list(affordable).index(model.chosen_[0])] == pytest.approx(errors.min())


def test_combination_beats_members_and_predicts():
    # three members, each wrong on a different third of the positives, none on negatives:
    # alone each errs on 1/3 of the positives; the equal-weight vote 1/3 per member gives
    # F = 2/3 on every positive and 0 on negatives -> zero loss with delta = 1/6
    block = np.repeat(np.eye(3, dtype=int), 2, axis=0)  # rows 0-5: positives
    H = np.vstack([1 - block, np.zeros((4, 3), dtype=int)])
    y = np.r_[np.ones(6, dtype=int), np.zeros(4, dtype=int)]
    costs = np.array([2.0, 2.0, 2.0])
    model = SparseCombinationModel(H, y, costs, complexity=6.0)
    assert model.margin == pytest.approx(1 / 6)
    model.solve()
    assert model.objective_ == pytest.approx(0.0, abs=1e-9)
    np.testing.assert_allclose(model.v_, [1 / 3, 1 / 3, 1 / 3], atol=1e-7)
    np.testing.assert_allclose(model.decision_function(), H @ model.v_)
    np.testing.assert_array_equal(model.predict(), y)
    np.testing.assert_array_equal(model.predict([[1, 0, 0], [1, 1, 0]]), [0, 1])
    # a budget of two members cannot cover every positive twice: loss > 0
    small = SparseCombinationModel(H, y, costs, complexity=4.0)
    small.solve()
    assert small.objective_ > 0.01
    assert len(small.chosen_) <= 2


def test_default_delta_and_seed_printed_formula():
    H = np.array([[1, 0], [0, 1], [1, 1]])
    y = np.array([1, 0, 1])
    costs = np.array([3.0, 5.0])
    assert SparseCombinationModel(H, y, costs, complexity=12.0).margin == pytest.approx(3 / 24)
    assert SparseCombinationModel(H, y, costs, complexity=3.0).margin == 0.25  # capped
    # the paper's printed Delta = C / (2 min c) = 2 >= 1/2 is rejected with advice
    with pytest.raises(InputError, match=r"\[0, 1/2\)"):
        SparseCombinationModel(H, y, costs, complexity=12.0, margin=12.0 / 6.0)
    with pytest.raises(InputError, match=r"\[0, 1/2\)"):
        SparseCombinationModel(H, y, costs, complexity=12.0, margin=0.5)
    with pytest.raises(InputError, match=r"\[0, 1/2\)"):
        SparseCombinationModel(H, y, costs, complexity=12.0, margin=-0.01)


def test_readable_names_and_structure():
    H = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]])
    y = np.array([1, 0, 1, 0])
    model = SparseCombinationModel(H, y, [2.0, 3.0, 4.0], complexity=5.0)
    m = model.model
    assert model.model is m
    assert m.v["member_2"].name == "v[member_2]"
    assert m.w["member_0"].is_binary()
    assert m.margin["i_3"].name == "margin[i_3]"
    assert m.link["member_1"].name == "link[member_1]"
    assert len(m.margin) == 4 and len(m.v) == 3
    # eq 12 on a negative row: v_1 + v_2 - xi <= 1/2 - delta; eq 13 on a positive row
    assert m.margin["i_1"].upper == pytest.approx(0.5 - model.margin)
    assert m.margin["i_0"].lower == pytest.approx(0.5 + model.margin)
    assert m.budget.upper == 5.0


@pytest.mark.parametrize("suffix", [".lp", ".mps"])
def test_export_reads_back_with_highspy(tmp_path, suffix):
    import highspy

    H, y, costs, budget, p = _random_instance(5, 20, 6)
    model = SparseCombinationModel(H, y, costs, budget, sample_weight=p)
    path = tmp_path / f"sparse{suffix}"
    model.write(path)
    text = path.read_text()
    assert "member_3" in text and "i_12" in text
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(str(path))
    h.run()
    model.solve()
    assert h.getInfo().objective_function_value == pytest.approx(model.objective_, abs=1e-8)


def test_time_limit_passes_through():
    H, y, costs, budget, p = _random_instance(9, 30, 8)
    model = SparseCombinationModel(H, y, costs, budget)
    result = model.solve(time_limit=30.0)
    assert result.status.value == "optimal"
    assert model.status_ is result.status
    assert model.result_ is result


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(complexity=1.0), "below the cheapest member"),
        (dict(complexity=float("nan")), "finite and positive"),
        (dict(predictions=[[0, 2], [1, 0], [1, 1]]), "0/1 member predictions"),
        (dict(predictions=[[0, np.nan], [1, 0], [1, 1]]), "NaN"),
        (dict(predictions=[0, 1, 1]), "2-D"),
        (dict(predictions=np.zeros((3, 0))), "at least one row and one member"),
        (dict(labels=[0, 1]), "2 entries but predictions has 3 rows"),
        (dict(labels=[0, 1, 2]), "0/1 labels"),
        (dict(costs=[2.0]), "one per member"),
        (dict(costs=[2.0, -1.0]), "finite and positive"),
        (dict(sample_weight=[0.5, 0.5, 0.5]), "pmf"),
        (dict(sample_weight=[0.5, 0.5]), "one per row"),
        (dict(sample_weight=[1.5, -0.5, 0.0]), "non-negative"),
    ],
)
def test_bad_input_raises(kwargs, match):
    args = dict(predictions=[[0, 1], [1, 0], [1, 1]], labels=[0, 1, 1], costs=[2.0, 3.0],
                complexity=5.0)
    args.update(kwargs)
    with pytest.raises(InputError, match=match):
        SparseCombinationModel(**args)


def test_predict_before_solve_raises():
    from optirules.errors import NotFittedError

    model = SparseCombinationModel([[0, 1], [1, 0]], [0, 1], [2.0, 3.0], complexity=5.0)
    with pytest.raises(NotFittedError):
        model.predict()


@pytest.mark.parametrize("seed", range(6))
def test_direct_highspy_route_reaches_the_pyomo_optimum(seed):
    rng = np.random.default_rng(100 + seed)
    n, k = int(rng.integers(40, 160)), int(rng.integers(3, 12))
    H, y, costs, budget, p = _random_instance(seed, n, k)
    direct = SparseCombinationModel(H, y, costs, budget, sample_weight=p)
    declarative = SparseCombinationModel(H, y, costs, budget, sample_weight=p)
    rd = direct.solve(route="highspy")
    rp = declarative.solve(route="pyomo")
    assert rd.info["interface"] == "highspy" and rp.info.get("interface") != "highspy"
    assert direct.objective_ == pytest.approx(declarative.objective_, abs=1e-8)
    # each solution is the margin loss of its own v, within the budget
    for m in (direct, declarative):
        assert _margin_loss(H, y, p, m.margin, m.v_) == pytest.approx(m.objective_, abs=1e-7)
        assert costs[m.w_ == 1].sum() <= budget + 1e-9


def test_direct_model_has_the_pyomo_names_and_structure(tmp_path):
    import highspy

    H = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]])
    y = np.array([1, 0, 1, 0])
    model = SparseCombinationModel(H, y, [2.0, 3.0, 4.0], complexity=5.0)
    h = model.highs_model()
    lp = h.getLp()
    assert lp.num_col_ == 3 + 3 + 4 and lp.num_row_ == 4 + 1 + 3 + 1
    assert list(lp.col_names_[:4]) == ["v(member_0)", "v(member_1)", "v(member_2)",
                                       "w(member_0)"]
    assert lp.row_names_[1] == "margin(i_1)" and lp.row_names_[-1] == "budget"
    assert [int(t) for t in lp.integrality_][:6] == [0, 0, 0, 1, 1, 1]
    # margin rows: eq 12 on a negative row, eq 13 on a positive row
    assert lp.row_upper_[1] == pytest.approx(0.5 - model.margin)
    assert lp.row_lower_[0] == pytest.approx(0.5 + model.margin)
    assert lp.row_upper_[-1] == 5.0
    # the Pyomo model's file, read back by HiGHS, has the same size and optimum
    path = tmp_path / "pyomo.lp"
    model.write(path)
    g = highspy.Highs()
    g.setOptionValue("output_flag", False)
    g.readModel(str(path))
    assert (g.getNumCol(), g.getNumRow()) == (h.getNumCol(), h.getNumRow())
    g.run()
    model.solve()
    assert g.getInfo().objective_function_value == pytest.approx(model.objective_, abs=1e-9)


def test_route_errors():
    model = SparseCombinationModel([[0, 1], [1, 0]], [0, 1], [2.0, 3.0], complexity=5.0)
    with pytest.raises(InputError, match="route must be one of"):
        model.solve(route="cplex")
    with pytest.raises(InputError, match="HiGHS only"):
        model.solve("scip", route="highspy")
