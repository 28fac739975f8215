"""The weighted Hamming-loss rule master (the DRO paper eqs 6-8) against brute force and HiGHS."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from optirules.errors import InputError, ModelFormatError
from optirules.models import HighsRuleMaster, PricingDuals, RuleMasterModel
from tests.helpers import literal_instance
from tests.internals import (
    clause_coverage,
    negative_loss,
    normalize_clause,
    reduced_costs,
    ruleset_covers,
    weighted_hamming_loss,
)

TOL = 1e-7


def make_instance(seed: int, n_rows: int = 24, n_features: int = 4, n_clauses: int = 10,
                  uniform: bool = False):
    """Random literal matrix (features and their negations), labels, a pmf and clauses."""
    A, y, P, rng = literal_instance(seed, n_rows, n_features, uniform=uniform)
    n_lit = A.shape[1]
    pool: list[tuple[int, ...]] = []
    while len(pool) < n_clauses:
        k = normalize_clause(rng.choice(n_lit, size=rng.integers(1, 4), replace=False), n_lit)
        if k not in pool:
            pool.append(k)
    return A, y, P, pool


def brute_force(A, y, P, pool, budget=None, lambda0=0.0, lambda1=0.0):
    """Best objective of eqs 6-8 (or the penalty form) over every subset of the pool."""
    y = np.asarray(y, dtype=bool)
    cov = clause_coverage(A.astype(bool), pool)  # N x K
    K = len(pool)
    S = np.array(list(itertools.product([0, 1], repeat=K)), dtype=float)  # 2^K x K
    covered = (S @ cov.T.astype(float)) > 0.5  # 2^K x N
    missed_pos = (~covered & y) @ P
    neg = S @ negative_loss(cov, y, P)
    deg = np.array([len(k) for k in pool], dtype=float)
    pen = S @ (lambda0 + lambda1 * deg)
    objective = missed_pos + neg + pen
    if budget is not None:
        objective = np.where(S @ (1.0 + deg) <= budget + 1e-9, objective, np.inf)
    best = int(np.argmin(objective))
    return float(objective[best]), [pool[k] for k in np.flatnonzero(S[best])]


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("budget", [3.0, 6.0, 11.0])
def test_budget_ip_equals_brute_force_and_lp_is_a_bound(seed, budget):
    A, y, P, pool = make_instance(seed)
    expected, _ = brute_force(A, y, P, pool, budget=budget)
    ip = RuleMasterModel(A, y, pool, sample_weight=P, complexity=budget)
    ip.solve(mip_gap=1e-9)
    assert ip.form == "budget"
    assert ip.objective_ == pytest.approx(expected, abs=TOL)
    # the chosen rule set is feasible and its weighted Hamming loss is the objective
    assert sum(1 + len(k) for k in ip.selected_) <= budget + 1e-9
    assert weighted_hamming_loss(A.astype(bool), y == 1, ip.selected_, P) == pytest.approx(
        ip.objective_, abs=TOL)
    lp = RuleMasterModel(A, y, pool, sample_weight=P, complexity=budget, relax=True)
    lp.solve()
    assert lp.objective_ <= ip.objective_ + TOL


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("lambdas", [(0.01, 0.005), (0.05, 0.0), (0.0, 0.03)])
def test_penalty_ip_equals_brute_force_and_lp_is_a_bound(seed, lambdas):
    A, y, P, pool = make_instance(seed + 100)
    lambda0, lambda1 = lambdas
    expected, _ = brute_force(A, y, P, pool, lambda0=lambda0, lambda1=lambda1)
    ip = RuleMasterModel(A, y, pool, sample_weight=P, lambda0=lambda0, lambda1=lambda1)
    ip.solve(mip_gap=1e-9)
    assert ip.form == "penalty"
    assert ip.objective_ == pytest.approx(expected, abs=TOL)
    penalty = sum(lambda0 + lambda1 * len(k) for k in ip.selected_)
    loss = weighted_hamming_loss(A.astype(bool), y == 1, ip.selected_, P)
    assert loss + penalty == pytest.approx(ip.objective_, abs=TOL)
    lp = RuleMasterModel(A, y, pool, sample_weight=P, lambda0=lambda0, lambda1=lambda1,
                         relax=True)
    lp.solve()
    assert lp.objective_ <= ip.objective_ + TOL


def test_budget_and_penalty_combined_equals_brute_force():
    A, y, P, pool = make_instance(7)
    expected, _ = brute_force(A, y, P, pool, budget=7.0, lambda0=0.01, lambda1=0.01)
    ip = RuleMasterModel(A, y, pool, sample_weight=P, complexity=7.0, lambda0=0.01,
                         lambda1=0.01)
    ip.solve(mip_gap=1e-9)
    assert ip.form == "budget+penalty"
    assert ip.objective_ == pytest.approx(expected, abs=TOL)


def test_uniform_weights_count_errors_like_dash_et_al():
    # with P_i = 1/N, N * objective = missed positives + (negatives covered, per clause)
    A, y, P, pool = make_instance(3, uniform=True)
    ip = RuleMasterModel(A, y, pool, complexity=8.0)  # default weights: 1/N
    ip.solve(mip_gap=1e-9)
    Ab = A.astype(bool)
    missed = int((~ruleset_covers(Ab, ip.selected_) & (y == 1)).sum())
    neg_hits = int(sum(clause_coverage(Ab, [k])[y == 0].sum() for k in ip.selected_))
    assert len(y) * ip.objective_ == pytest.approx(missed + neg_hits, abs=1e-6)


def test_empty_pool_misses_every_positive():
    A, y, P, _ = make_instance(1)
    lp = RuleMasterModel(A, y, [], sample_weight=P, complexity=5.0, relax=True)
    lp.solve()
    assert lp.objective_ == pytest.approx(P[y == 1].sum(), abs=1e-12)
    # every cover row is tight with xi_i = P_i, so mu_i = 1 (the cost of xi_i)
    np.testing.assert_allclose(lp.cover_duals_, 1.0, atol=1e-9)
    assert lp.complexity_dual_ == pytest.approx(0.0, abs=1e-12)


def lp_duals_certificate(A, y, P, pool, mu, lam, objective, budget, lambda0=0.0, lambda1=0.0):
    """Check (mu, lam) is an optimal dual of the master LP: feasible and strong duality."""
    assert np.all(mu >= -1e-9) and np.all(mu <= 1 + 1e-9)
    assert lam >= -1e-9
    r = reduced_costs(A, y, pool, PricingDuals(mu, max(lam, 0.0), lambda0, lambda1),
                      sample_weight=P)
    assert np.all(r >= -1e-9), r.min()
    dual_objective = P[y == 1] @ mu - (budget * lam if budget is not None else 0.0)
    assert dual_objective == pytest.approx(objective, abs=1e-9)
    return r


def dual_ranges(A, y, P, pool, objective, budget, lambda0=0.0, lambda1=0.0):
    """Min and max of each dual (mu..., lam) over the optimal dual face (via highspy LPs)."""
    import highspy

    yb = y == 1
    cov = clause_coverage(A.astype(bool), pool)
    pos = np.flatnonzero(yb)
    n = len(pos) + 1
    inf = highspy.kHighsInf
    deg = np.array([len(k) for k in pool], dtype=float)
    rhs = negative_loss(cov, yb, P) + lambda0 + lambda1 * deg
    rows = [np.append(P[pos] * cov[pos, k], -(1.0 + deg[k])) for k in range(len(pool))]
    rows.append(np.append(P[pos], -(budget if budget is not None else 0.0)))  # dual objective
    lo = np.append(np.full(len(pool), -inf), objective - 1e-12)
    hi = np.append(rhs, inf)
    M = np.array(rows)
    ranges = np.zeros((n, 2))
    for t in range(n):
        for s, sense in enumerate((1.0, -1.0)):
            h = highspy.Highs()
            h.setOptionValue("output_flag", False)
            lp = highspy.HighsLp()
            lp.num_col_, lp.num_row_ = n, M.shape[0]
            cost = np.zeros(n)
            cost[t] = sense
            lp.col_cost_ = cost
            lp.col_lower_ = np.zeros(n)
            upper = np.ones(n)
            upper[-1] = inf if budget is not None else 0.0
            lp.col_upper_ = upper
            lp.row_lower_, lp.row_upper_ = lo, hi
            csc = M.T  # column-wise storage
            lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
            lp.a_matrix_.start_ = np.concatenate([[0], np.cumsum((csc != 0).sum(axis=1))])
            lp.a_matrix_.index_ = np.concatenate([np.flatnonzero(c) for c in csc])
            lp.a_matrix_.value_ = np.concatenate([c[c != 0] for c in csc])
            h.passModel(lp)
            h.run()
            assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
            ranges[t, s] = sense * h.getInfo().objective_function_value
    return ranges


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("form", ["budget", "penalty"])
def test_highspy_fast_path_matches_pyomo_relaxation(seed, form):
    A, y, P, pool = make_instance(seed + 10, n_rows=30, n_clauses=12)
    kw = ({"complexity": 5.0} if form == "budget"
          else {"lambda0": 0.004, "lambda1": 0.002})
    budget = kw.get("complexity")
    fast = HighsRuleMaster(A, y, pool[:3], sample_weight=P, **kw)
    fast.solve()
    for batch in (pool[3:4], pool[4:9], pool[9:] + pool[:2]):  # the last batch repeats two
        fast.add_clauses(batch)
        fast.solve()
    assert fast.clauses_ == pool
    ref = RuleMasterModel(A, y, pool, sample_weight=P, relax=True, **kw)
    ref.solve()
    assert fast.objective_ == pytest.approx(ref.objective_, abs=1e-10)
    lam0, lam1 = kw.get("lambda0", 0.0), kw.get("lambda1", 0.0)
    # both dual vectors are optimal duals of the same LP (sign of lambda included) ...
    for master in (fast, ref):
        lp_duals_certificate(A, y, P, pool, master.cover_duals_, master.complexity_dual_,
                             master.objective_, budget, lam0, lam1)
    # ... and they agree on every dual the LP determines uniquely
    ranges = dual_ranges(A, y, P, pool, ref.objective_, budget, lam0, lam1)
    unique = ranges[:, 1] - ranges[:, 0] < 1e-7
    fast_d = np.append(fast.cover_duals_, fast.complexity_dual_)
    ref_d = np.append(ref.cover_duals_, ref.complexity_dual_)
    assert np.all(fast_d >= ranges[:, 0] - 1e-7) and np.all(fast_d <= ranges[:, 1] + 1e-7)
    np.testing.assert_allclose(fast_d[unique], ref_d[unique], atol=1e-7)
    np.testing.assert_allclose(fast_d[unique], ranges[unique, 0], atol=1e-7)
    assert unique.sum() >= 1


def test_highspy_duals_equal_pyomo_when_the_dual_is_unique():
    # one clause per positive row, budget 3 = 1.5 clauses: a fractional knapsack whose LP
    # optimum is non-degenerate (w = 1 on the best clause, 1/2 on the second), so the
    # dual is unique: lambda = 0.15 / 2, mu = (0.25/0.3, 1, 1, 1); both routes must give it
    A = np.eye(4, dtype=int)[[0, 1, 2, 3, 0, 1]]
    A = np.vstack([A, np.zeros((1, 4), dtype=int)])
    y = np.array([1, 1, 1, 1, 0, 0, 0])
    P = np.array([0.3, 0.2, 0.1, 0.1, 0.1, 0.05, 0.15])
    pool = [(0,), (1,), (2,), (3,)]
    fast = HighsRuleMaster(A, y, pool[:1], sample_weight=P, complexity=3.0)
    fast.solve()
    fast.add_clauses(pool[1:])
    fast.solve()
    ref = RuleMasterModel(A, y, pool, sample_weight=P, complexity=3.0, relax=True)
    ref.solve()
    assert fast.objective_ == pytest.approx(ref.objective_, abs=1e-12)
    ranges = dual_ranges(A, y, P, pool, ref.objective_, 3.0)
    assert np.all(ranges[:, 1] - ranges[:, 0] < 1e-9)  # the dual is unique here
    np.testing.assert_allclose(fast.cover_duals_, ref.cover_duals_, atol=1e-9)
    assert fast.complexity_dual_ == pytest.approx(ref.complexity_dual_, abs=1e-9)
    assert ref.complexity_dual_ == pytest.approx(0.075, abs=1e-12)
    np.testing.assert_allclose(ref.cover_duals_, [0.25 / 0.3, 1, 1, 1], atol=1e-12)
    # xi = (0, 0.2/2, 0.1, 0.1); negatives covered: 0.1 * 1 + 0.05 * 1/2
    assert ref.objective_ == pytest.approx(0.1 + 0.1 + 0.1 + 0.1 + 0.025, abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("form", ["budget", "penalty"])
def test_highspy_reduced_costs_equal_the_shared_formula(seed, form):
    A, y, P, pool = make_instance(seed + 20, n_rows=30, n_clauses=12)
    kw = ({"complexity": 6.0} if form == "budget"
          else {"lambda0": 0.003, "lambda1": 0.003})
    fast = HighsRuleMaster(A, y, pool[:4], sample_weight=P, **kw)
    fast.solve()
    for start in (4, 8):
        fast.add_clauses(pool[start:start + 4])
        fast.solve()
        r = reduced_costs(A, y, fast.clauses_, PricingDuals(
            fast.cover_duals_, fast.complexity_dual_, kw.get("lambda0", 0.0),
            kw.get("lambda1", 0.0)), sample_weight=P)
        np.testing.assert_allclose(fast.reduced_costs_, r, atol=1e-12)
        assert np.all(r >= -1e-9)  # LP optimal with w >= 0: no pool column prices out


def test_pyomo_relaxation_exposes_duals_for_pricing():
    A, y, P, pool = make_instance(5)
    lp = RuleMasterModel(A, y, pool, sample_weight=P, complexity=4.0, relax=True)
    lp.solve()
    d = lp.duals_for_pricing_
    assert set(d) == {"mu", "lam", "lambda0", "lambda1"}
    assert d["mu"].shape == ((y == 1).sum(),)
    r = lp_duals_certificate(A, y, P, pool, lp.cover_duals_, lp.complexity_dual_,
                             lp.objective_, 4.0)
    np.testing.assert_allclose(lp.reduced_costs_, r, atol=1e-12)
    # LP relaxation: w >= 0 and xi matches the cover rows at the optimum
    assert np.all(lp.w_ >= -1e-9)
    assert lp.xi_.shape == ((y == 1).sum(),)


def test_model_is_declarative_with_readable_names():
    import pyomo.environ as pyo

    A, y, P, pool = make_instance(2)
    m = RuleMasterModel(A, y, pool[:3], sample_weight=P, complexity=4.0)
    model = m.model
    first_pos = int(np.flatnonzero(y == 1)[0])
    assert model.cover[f"i_{first_pos}"].name == f"cover[i_{first_pos}]"
    assert model.complexity.name == "complexity"
    assert [str(k) for k in model.clauses] == ["clause_0", "clause_1", "clause_2"]
    assert model.w["clause_1"].is_binary()
    # the cover row is eq 7 with P_i as the coefficients
    body = model.cover[f"i_{first_pos}"].body
    assert pyo.value(model.cover[f"i_{first_pos}"].lower) == pytest.approx(P[first_pos])
    assert str(model.xi[f"i_{first_pos}"].name) in str(body)
    assert model.w["clause_0"] is not None


def test_add_clauses_extends_the_pool_and_rebuilds():
    A, y, P, pool = make_instance(4)
    m = RuleMasterModel(A, y, pool[:2], sample_weight=P, complexity=6.0)
    m.solve(mip_gap=1e-9)
    first = m.objective_
    labels = m.add_clauses([pool[1], pool[2], (pool[3][0], pool[3][0]) + pool[3][1:]])
    assert labels == ["clause_2", "clause_3"]  # the repeated clause is skipped
    assert m.result_ is None and not hasattr(m, "objective_")
    assert len(list(m.model.clauses)) == 4
    m.solve(mip_gap=1e-9)
    assert m.objective_ <= first + TOL
    expected, _ = brute_force(A, y, P, pool[:4], budget=6.0)
    assert m.objective_ == pytest.approx(expected, abs=TOL)


def test_to_model_round_trip_from_the_fast_path():
    A, y, P, pool = make_instance(6)
    fast = HighsRuleMaster(A, y, pool, sample_weight=P, complexity=5.0)
    lp_value = fast.solve()
    ip = fast.to_model()
    ip.solve(mip_gap=1e-9)
    expected, _ = brute_force(A, y, P, pool, budget=5.0)
    assert ip.objective_ == pytest.approx(expected, abs=TOL)
    assert lp_value <= ip.objective_ + TOL


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"A": [[0, 2], [1, 0]]}, "only 0 and 1"),
        ({"A": [[0, np.nan], [1, 0]]}, "NaN"),
        ({"A": [0, 1]}, "2-D"),
        ({"y": [0, 0]}, "no label-1 row"),
        ({"y": [0, 1, 1]}, "one label per row"),
        ({"y": [0, 3]}, "only the labels 0 and 1"),
        ({"sample_weight": [-0.5, 1.5]}, "non-negative"),
        ({"sample_weight": [0.5]}, "one weight per row"),
        ({"clauses": [(0, 5)]}, "refers to literal 5"),
        ({"clauses": [("a",)]}, "integers"),
        ({"complexity": -1.0}, "complexity"),
        ({"lambda0": -0.1}, "lambda0"),
        ({"lambda1": float("nan")}, "lambda1"),
    ],
)
def test_bad_input_raises_input_error(kwargs, match):
    args = {"A": [[0, 1], [1, 0]], "y": [0, 1], "clauses": [(0,)], "sample_weight": None,
            "complexity": 3.0, "lambda0": 0.0, "lambda1": 0.0}
    args.update(kwargs)
    for cls in (RuleMasterModel, HighsRuleMaster):
        with pytest.raises(InputError, match=match):
            cls(args["A"], args["y"], args["clauses"], sample_weight=args["sample_weight"],
                complexity=args["complexity"], lambda0=args["lambda0"],
                lambda1=args["lambda1"])


@pytest.mark.parametrize("suffix", [".lp", ".mps"])
def test_fast_path_writes_a_file_highs_reads_back(tmp_path, suffix):
    import highspy

    A, y, P, pool = make_instance(8)
    fast = HighsRuleMaster(A, y, pool, sample_weight=P, complexity=5.0)
    fast.solve()
    path = tmp_path / f"master{suffix}"
    fast.write(path)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(str(path))
    h.run()
    assert h.getInfo().objective_function_value == pytest.approx(fast.objective_, abs=1e-10)
    text = path.read_text()
    first_pos = int(np.flatnonzero(y == 1)[0])
    assert f"cover(i_{first_pos})" in text and "complexity" in text and "w(clause_3)" in text
    with pytest.raises(ModelFormatError, match=r"\.lp or \.mps"):
        fast.write(tmp_path / "master.txt")


@pytest.mark.parametrize("suffix", [".lp", ".mps"])
@pytest.mark.parametrize("relax", [False, True])
def test_declarative_model_file_reads_back_with_the_same_optimum(tmp_path, suffix, relax):
    import highspy

    A, y, P, pool = make_instance(9)
    m = RuleMasterModel(A, y, pool, sample_weight=P, complexity=6.0, lambda0=0.001,
                        relax=relax)
    m.solve(mip_gap=1e-9)
    path = tmp_path / f"master{suffix}"
    m.write(path)
    text = path.read_text()
    first_pos = int(np.flatnonzero(y == 1)[0])
    assert f"cover(i_{first_pos})" in text and "complexity" in text
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("mip_rel_gap", 1e-9)
    h.readModel(str(path))
    h.run()
    assert h.getInfo().objective_function_value == pytest.approx(m.objective_, abs=1e-9)


# ---------------------------------------------------------------- row aggregation (master IP)
def _repeated_instance(seed: int, n_unique: int = 14, copies: int = 3):
    """make_instance's rows each repeated 1-``copies`` times (shuffled), weights per row
    drawn anew: rows merge both when they repeat and when they differ only outside the
    pool's coverage."""
    A, y, _, pool = make_instance(seed, n_rows=n_unique, n_clauses=9)
    rng = np.random.default_rng(100 + seed)
    idx = np.repeat(np.arange(n_unique), rng.integers(1, copies + 1, size=n_unique))
    rng.shuffle(idx)
    return A[idx], y[idx], rng.uniform(0.2, 1.0, idx.size), pool


def _all_objectives(A, y, P, pool, budget=None, lambda0=0.0, lambda1=0.0):
    """The objective of every subset of the pool (rows of S), unaggregated, by brute force."""
    y = np.asarray(y, dtype=bool)
    cov = clause_coverage(A.astype(bool), pool)
    S = np.array(list(itertools.product([0, 1], repeat=len(pool))), dtype=float)
    covered = (S @ cov.T.astype(float)) > 0.5
    deg = np.array([len(k) for k in pool], dtype=float)
    obj = (~covered & y) @ P + S @ negative_loss(cov, y, P) + S @ (lambda0 + lambda1 * deg)
    if budget is not None:
        obj = np.where(S @ (1.0 + deg) <= budget + 1e-9, obj, np.inf)
    return S, obj


def test_aggregate_rows_merges_exactly_the_rows_of_equal_label_and_coverage():
    from optirules.models import aggregate_rows

    A, y, P, pool = _repeated_instance(0)
    cov = clause_coverage(A.astype(bool), pool)
    first, weights, group = aggregate_rows(cov, y == 1, P)
    assert first.size < y.size and weights.sum() == pytest.approx(P.sum(), abs=1e-12)
    assert np.array_equal(group[first], np.arange(first.size))  # first row of each group
    assert list(first) == sorted(first)
    for g, i in enumerate(first):
        members = np.flatnonzero(group == g)
        assert members[0] == i and weights[g] == pytest.approx(P[members].sum(), abs=1e-15)
        assert (y[members] == y[i]).all() and (cov[members] == cov[i]).all()
    keys = {(int(y[i]), cov[i].tobytes()) for i in first}
    assert len(keys) == first.size  # different groups differ


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("form", ["budget", "penalty", "both"])
def test_aggregated_master_ip_equals_the_unaggregated_model_and_brute_force(seed, form):
    """Weighted, repeated rows: the master IP over the merged rows (highspy, and the Pyomo
    model route) has the objective of RuleMasterModel over every row and of brute force,
    and the brute-force rule set where that optimum is unique."""
    from optirules.models import RebuildRuleMaster

    A, y, P, pool = _repeated_instance(seed)
    kw = {"budget": {"complexity": 7.0}, "penalty": {"lambda0": 0.4, "lambda1": 0.2},
          "both": {"complexity": 9.0, "lambda0": 0.1}}[form]
    S, obj = _all_objectives(A, y, P, pool, kw.get("complexity"), kw.get("lambda0", 0.0),
                             kw.get("lambda1", 0.0))
    order = np.argsort(obj)
    best = float(obj[order[0]])
    unique = obj[order[1]] > best + 1e-9
    expected = sorted(pool[k] for k in np.flatnonzero(S[order[0]]))
    ref = RuleMasterModel(A, y, pool, sample_weight=P, **kw)  # every row, no merging
    ref.solve("highs", mip_gap=1e-9)
    assert ref.objective_ == pytest.approx(best, abs=1e-9)
    master = HighsRuleMaster(A, y, pool, sample_weight=P, **kw)
    master.solve()
    runs = [master.solve_ip(aggregate=True), master.solve_ip(aggregate=False),
            RebuildRuleMaster(A, y, pool, sample_weight=P, **kw).solve_ip(solver="highs")]
    for ip in runs:
        assert ip.status == "optimal"
        assert ip.objective == pytest.approx(best, abs=1e-9)
        if unique:
            assert sorted(ip.selected) == expected


def test_master_ip_of_another_solver_keeps_rows_below_its_feasibility_tolerance():
    """The Pyomo route (SCIP, CBC, Gurobi, CPLEX, HiGHS): two positive rows of weight 1e-9
    that only a clause costing 0.5 + its negatives would cover cost 2e-9 in the IP.  With
    the solvers' default feasibility tolerance (1e-6) the unscaled model let xi = 0 'meet'
    their cover rows (measured: objective 0.5 for SCIP, CPLEX and HiGHS, 0.5 + 1e-9 for
    CBC)."""
    from optirules.models import RebuildRuleMaster
    from optirules.solvers import available_solvers

    have = {s.name for s in available_solvers() if "milp" in s.capabilities}
    A = np.zeros((12, 3), dtype=bool)
    A[:8, 0] = True
    A[8:10, 1] = True
    A[8:11, 2] = True
    y = np.array([1] * 9 + [0, 0, 1])
    w = np.ones(12)
    w[[8, 11]] = 1e-9
    pool = [(0,), (1,), (2,)]
    best, chosen = brute_force(A, y, w, pool, lambda0=0.5)
    assert chosen == [(0,)] and best - 0.5 == pytest.approx(2e-9, rel=1e-9)
    solvers = [s for s in ("scip", "cbc", "highs", "gurobi", "cplex") if s in have]
    assert "highs" in solvers  # a core dependency; SCIP/CBC come with the solvers extra
    for s in solvers:
        ip = RebuildRuleMaster(A, y, pool, sample_weight=w, lambda0=0.5).solve_ip(solver=s)
        assert ip.route == "model" and ip.selected == [(0,)]
        assert ip.objective - 0.5 == pytest.approx(2e-9, rel=1e-6), s


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("form", ["budget", "penalty"])
def test_merged_master_rebuilt_from_the_last_basis_keeps_the_lp_optimum(seed, form):
    """MergedHighsRuleMaster rebuilds its LP whenever new columns split its row groups; the
    rebuilt LP starts from the last basis carried over to the split rows (warm_start=True,
    the default) or cold.  Both give the LP optimum of HighsRuleMaster over every row after
    each batch (budget rows at their bound included), also past the switch to every row
    (the LP then held as its dual, solved cold), and the warm one had its carried-over
    basis accepted by HiGHS before the switch."""
    from optirules.models import MergedHighsRuleMaster

    rng = np.random.default_rng(seed)
    n, f = 240, 8
    X = rng.integers(0, 2, size=(n, f))
    A = np.hstack([X, 1 - X])
    y = ((X[:, 0] & X[:, 1]) | (X[:, 2] & (1 - X[:, 3])) ^ (rng.random(n) < 0.1)).astype(int)
    P = rng.uniform(0.5, 1.5, n)
    P /= P.sum()
    kw = {"complexity": 5.0} if form == "budget" else {"lambda0": 0.01, "lambda1": 0.005}
    n_lit = A.shape[1]
    batches = [[tuple(sorted(rng.choice(n_lit, size=rng.integers(1, 3), replace=False)))
                for _ in range(3)] for _ in range(6)]
    full = HighsRuleMaster(A, y, sample_weight=P, **kw)
    warm = MergedHighsRuleMaster(A, y, sample_weight=P, max_share=0.5, **kw)
    cold = MergedHighsRuleMaster(A, y, sample_weight=P, max_share=0.5, warm_start=False, **kw)
    for batch in batches:
        for m in (full, warm, cold):
            m.add_clauses(batch)
        z = full.solve()
        assert warm.solve() == pytest.approx(z, abs=1e-12)
        assert cold.solve() == pytest.approx(z, abs=1e-12)
        assert warm.reduced_costs_.min() >= -1e-10
    assert not warm.merged_  # the switch to every row happened
    assert type(warm._inner).__name__ == "DualHighsRuleMaster"
    assert warm.warm_started_ >= 1 and cold.warm_started_ == 0


@pytest.mark.parametrize("seed", range(6))
def test_column_generation_skips_the_ip_only_for_an_incumbent_within_mip_gap(seed):
    """column_generation(skip_ip=True) solves no master IP when its incumbent (local
    search, or the restricted LP's solution rounded) is within mip_gap of the LP optimum, so the rule set
    is within mip_gap of the brute-force optimum over the pool; at mip_gap=1e-9 it is that
    optimum.  (Random labels: fractional LPs; seeds 0, 2 and 4 skip the IP at 0.1.)"""
    from optirules.models import column_generation

    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(60, 6))
    A = np.hstack([X, 1 - X]).astype(bool)
    y = rng.random(60) < 0.5
    P = rng.dirichlet(np.ones(60))
    skipped = []
    for gap in (0.1, 1e-9):
        res = column_generation(A, y, P, complexity=7.0, max_degree=2, mip_gap=gap,
                                random_seed=0, skip_ip=True)
        skipped.append("within mip_gap" in res.ip_status)
        if skipped[-1]:
            assert res.ip_objective - res.lp_objective <= gap * res.ip_objective + 1e-12
        if len(res.pool) <= 16:
            best, _ = brute_force(A, y.astype(int), P, res.pool, budget=7.0)
            assert best - 1e-12 <= res.ip_objective <= best / (1 - gap) + 1e-12
    if seed in (0, 2, 4):
        assert skipped[0]


@pytest.mark.parametrize("seed", range(2))
def test_large_master_ip_without_presolve_equals_brute_force(seed, monkeypatch):
    """From options.LARGE_MASTER_IP_ROWS label-1 cover rows on (here lowered to 1,000) the highspy IP
    runs without presolve and the feasibility-jump heuristic (_LARGE_IP_OPTIONS): 2,400
    distinct rows, brute force over every subset of 12 clauses gives the same optimum;
    HiGHS's options are restored."""
    from optirules.models import options

    monkeypatch.setattr(options, "LARGE_MASTER_IP_ROWS", 1000)

    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(2400, 14))
    A = np.hstack([X, 1 - X])
    y = (rng.random(2400) < 0.6).astype(int)
    P = rng.dirichlet(np.ones(2400))
    pool = []
    while len(pool) < 12:
        k = normalize_clause(rng.choice(28, size=rng.integers(1, 3), replace=False), 28)
        if k not in pool:
            pool.append(k)
    assert y.sum() >= options.LARGE_MASTER_IP_ROWS
    best, _ = brute_force(A, y, P, pool, budget=8.0)
    master = HighsRuleMaster(A, y, pool, sample_weight=P, complexity=8.0)
    master.solve()
    for aggregate in (True, False):
        ip = master.solve_ip(mip_gap=1e-9, aggregate=aggregate)
        assert ip.status == "optimal" and ip.objective == pytest.approx(best, abs=1e-9)
    assert master.highs.getOptionValue("presolve")[1] == "choose"


@pytest.mark.parametrize("seed", range(4))
def test_restricted_ip_is_the_optimum_over_its_columns(seed):
    """_restricted_ip solves the master IP over the given columns alone: brute force over
    every subset of those 10 clauses (2,000 rows, budget 9) gives the same objective, on
    the direct and the dual master."""
    from optirules.models import DualHighsRuleMaster
    from tests.internals import _restricted_ip, master_objective

    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(2000, 10))
    A = np.hstack([X, 1 - X]).astype(bool)
    y = rng.random(2000) < 0.6
    P = rng.dirichlet(np.ones(2000))
    pool = []
    while len(pool) < 16:
        k = normalize_clause(rng.choice(20, size=rng.integers(1, 3), replace=False), 20)
        if k not in pool:
            pool.append(k)
    best, _ = brute_force(A, y, P, pool[:10], budget=9.0)
    for cls in (HighsRuleMaster, DualHighsRuleMaster):
        master = cls(A, y.astype(int), pool, sample_weight=P, complexity=9.0)
        master.solve()
        chosen = _restricted_ip(master, pool[:10], "highs", None, 0)
        assert set(chosen) <= set(pool[:10])
        assert master_objective(A, y, P, chosen, 0.0, 0.0) == pytest.approx(best, abs=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_column_generation_restricted_ip_incumbent_keeps_the_optimum(seed, monkeypatch):
    """With the restricted IPs on (RESTRICTED_IP_ROWS lowered to 0 for these 300 rows), the
    incumbent they give is never worse than the local search's, the final rule set at
    mip_gap=1e-9 is still the brute-force optimum over the pool, and skip_ip at a wide gap
    returns a rule set within that gap of it; the source of the incumbent is reported."""
    from optirules.models import column_generation
    from tests.internals import models_pool_ip_module as cg

    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(300, 7))
    A = np.hstack([X, 1 - X]).astype(bool)
    y = (X[:, 0] & X[:, 1]) | (X[:, 2] & ~X[:, 3].astype(bool)) ^ (rng.random(300) < 0.3)
    y = y.astype(bool)
    P = rng.dirichlet(np.ones(300))
    kw = dict(complexity=9.0, max_degree=2, random_seed=0, n_columns=3, max_iter=4)
    off = column_generation(A, y, P, mip_gap=1e-9, **kw)
    monkeypatch.setattr(cg, "RESTRICTED_IP_COLUMNS", (3, 5))
    monkeypatch.setattr(cg, "RESTRICTED_IP_ROWS", 0)
    on = column_generation(A, y, P, mip_gap=1e-9, **kw)
    assert on.pool == off.pool
    assert on.info["greedy_objective"] <= off.info["greedy_objective"] + 1e-15
    assert on.ip_objective == pytest.approx(off.ip_objective, abs=1e-12)
    if len(on.pool) <= 16:
        best, _ = brute_force(A, y, P, on.pool, budget=9.0)
        assert on.ip_objective == pytest.approx(best, abs=1e-12)
    assert on.info["incumbent_source"] in ("local search", "restricted IP over 3 columns",
                                           "restricted IP over 5 columns")
    if seed == 5:  # there the restricted IP beats the local search
        assert on.info["incumbent_source"].startswith("restricted IP")
        assert on.info["greedy_objective"] < off.info["greedy_objective"] - 1e-6
    wide = column_generation(A, y, P, mip_gap=0.2, skip_ip=True, **kw)
    assert wide.ip_objective <= on.ip_objective / (1 - 0.2) + 1e-12
