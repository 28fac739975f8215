"""The master IP by branch and bound over its dual LP, against brute force and HiGHS's MILP."""

from __future__ import annotations

import numpy as np
import pytest

from optirules.errors import InputError
from optirules.models import (
    HighsRuleMaster,
    RuleSetProblem,
    branch_and_bound_master,
    column_generation,
    master_objective,
    options,
)
from optirules.solvers import available_solvers
from tests.helpers import cg_data
from tests.internals import models_pool_ip_module as cg_module
from tests.internals import normalize_clause

from .test_rule_master import brute_force, make_instance

FORMS = {"budget": {"complexity": 9.0}, "tight budget": {"complexity": 5.0},
         "penalty": {"lambda0": 0.01, "lambda1": 0.005},
         "both": {"complexity": 12.0, "lambda0": 0.002}}


def _kw(form):
    kw = dict(FORMS[form])
    return kw, {"budget": kw.get("complexity"), "lambda0": kw.get("lambda0", 0.0),
                "lambda1": kw.get("lambda1", 0.0)}


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("form", list(FORMS))
def test_branch_and_bound_reaches_the_brute_force_optimum(seed, form):
    A, y, P, pool = make_instance(seed, n_rows=60, n_features=5, n_clauses=12)
    kw, bf = _kw(form)
    expected, _ = brute_force(A, y, P, pool, **bf)
    ip = branch_and_bound_master(RuleSetProblem(A, y == 1, P, **kw), pool, mip_gap=0.0)
    assert ip.status == "optimal" and ip.route == "branch_and_bound"
    assert ip.objective == pytest.approx(expected, abs=1e-10)
    # the objective is the rule set's own, within the budget; the bound holds
    assert master_objective(A.astype(bool), y == 1, P, ip.selected, kw.get("lambda0", 0.0),
                            kw.get("lambda1", 0.0)) == pytest.approx(ip.objective, abs=1e-12)
    if "complexity" in kw:
        assert sum(1 + len(c) for c in ip.selected) <= kw["complexity"] + 1e-9
    assert ip.bound <= expected + 1e-10
    assert ip.bound >= expected - 1e-9  # closed
    assert ip.info["nodes"] >= 1


@pytest.mark.parametrize("seed", range(4))
def test_a_gap_bounds_the_distance_to_the_optimum(seed):
    A, y, P, pool = make_instance(seed + 10, n_rows=80, n_features=6, n_clauses=14)
    expected, _ = brute_force(A, y, P, pool, budget=12.0)
    ip = branch_and_bound_master(RuleSetProblem(A, y == 1, P, complexity=12.0), pool,
                                 mip_gap=0.05)
    assert ip.bound <= expected + 1e-10 <= ip.objective + 2e-10
    assert ip.objective - ip.bound <= 0.05 * ip.objective + 1e-12


def _large_instance(seed, n=3000, f=10, K=40):
    """Distinct rows of continuous-like features: few rows merge over the clauses."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, f)) < 0.5
    y = (X[:, 0] & X[:, 1]) | (X[:, 2] & ~X[:, 3]) | (X[:, 4] & X[:, 5] & X[:, 6])
    y ^= rng.random(n) < 0.15
    A = np.hstack([X, ~X])
    P = rng.dirichlet(np.ones(n))
    pool = []
    while len(pool) < K:
        k = normalize_clause(rng.choice(2 * f, size=rng.integers(1, 3), replace=False), 2 * f)
        if k not in pool and (k[-1] - k[0] != f if len(k) == 2 else True):
            pool.append(k)
    return A, y, P, pool


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("budget", [10.0, 20.0])
def test_branch_and_bound_equals_highs_milp_on_a_larger_ip(seed, budget):
    A, y, P, pool = _large_instance(seed)
    milp = HighsRuleMaster(A, y.astype(int), pool, sample_weight=P, complexity=budget
                           ).solve_ip(mip_gap=1e-9, random_seed=0)
    ip = branch_and_bound_master(RuleSetProblem(A, y, P, complexity=budget), pool,
                                 mip_gap=1e-9, random_seed=0)
    assert ip.status == "optimal"
    assert ip.objective == pytest.approx(milp.objective, rel=1e-8, abs=1e-10)
    assert ip.bound <= milp.objective + 1e-10


def test_incumbent_and_time_limit():
    """At time_limit=0 the root alone is solved: the result is feasible, no worse than the
    incumbent given, and above its own bound, which lies below the optimum."""
    A, y, P, pool = _large_instance(3)
    problem = RuleSetProblem(A, y, P, complexity=20.0)
    exact = branch_and_bound_master(problem, pool, mip_gap=0.0)
    start = pool[:2]
    start_obj = master_objective(A, y, P, start, 0.0, 0.0)
    quick = branch_and_bound_master(problem, pool, mip_gap=0.0, time_limit=0.0,
                                    incumbent=start)
    assert quick.status in ("time_limit", "optimal")
    assert quick.objective <= start_obj + 1e-15
    assert sum(1 + len(c) for c in quick.selected) <= 20.0
    assert quick.bound <= exact.objective + 1e-10 <= quick.objective + 2e-10
    assert quick.info["nodes"] == 1
    # the optimum as incumbent: nothing better exists, so it comes back
    again = branch_and_bound_master(problem, pool, mip_gap=0.0, incumbent=exact.selected)
    assert again.objective == pytest.approx(exact.objective, abs=1e-12)


def test_no_clauses_gives_the_empty_rule_set_and_bad_input_is_refused():
    A, y, P, pool = make_instance(0)
    ip = branch_and_bound_master(RuleSetProblem(A, y == 1, P, complexity=10.0), [])
    assert ip.selected == [] and ip.objective == pytest.approx(P[y == 1].sum())
    with pytest.raises(InputError, match="y"):
        branch_and_bound_master(RuleSetProblem(A, y[:-1], P, complexity=10.0), pool)
    with pytest.raises(InputError):
        branch_and_bound_master(RuleSetProblem(A * 2, y, P, complexity=10.0), pool)
    with pytest.raises(InputError):
        branch_and_bound_master(RuleSetProblem(A, y, -P, complexity=10.0), pool)


@pytest.mark.parametrize("seed", range(3))
def test_column_generation_routes_and_the_routes_agree(seed, monkeypatch):
    A, y, P = cg_data(seed, n=1500, f=8, noise=0.2, uniform=False)
    kw = dict(max_degree=2, complexity=12.0, random_seed=0, mip_gap=1e-9)
    milp = column_generation(A, y, P, master_ip="milp", **kw)
    bb = column_generation(A, y, P, master_ip="branch_and_bound", **kw)
    assert milp.info["ip_route"] == "highspy" and bb.info["ip_route"] == "branch_and_bound"
    assert bb.pool == milp.pool
    assert bb.ip_objective == pytest.approx(milp.ip_objective, rel=1e-8, abs=1e-12)
    assert bb.info["ip_nodes"] >= 1 and milp.info["ip_nodes"] is None
    # "auto": branch and bound from BRANCH_AND_BOUND_ROWS merged label-1 rows on HiGHS
    auto = column_generation(A, y, P, master_ip="auto", **kw)
    assert auto.info["ip_route"] != "branch_and_bound"  # these IPs are below the threshold
    assert options.BRANCH_AND_BOUND_ROWS > int(y.sum())
    monkeypatch.setattr(cg_module, "BRANCH_AND_BOUND_ROWS", 10)
    auto = column_generation(A, y, P, master_ip="auto", **kw)
    assert auto.info["ip_route"] == "branch_and_bound"
    assert auto.ip_objective == pytest.approx(milp.ip_objective, rel=1e-8, abs=1e-12)
    # another MILP solver keeps its MILP under "auto"
    if "scip" in {s.name for s in available_solvers()}:
        other = column_generation(A, y, P, master_ip="auto",
                                  solver={"lp": "highs", "milp": "scip"}, **kw)
        assert other.info["ip_route"] == "model"
        assert other.ip_objective == pytest.approx(milp.ip_objective, rel=1e-6, abs=1e-9)


def test_master_ip_is_checked():
    A, y, P = cg_data(0, n=100, f=8, noise=0.2, uniform=False)
    with pytest.raises(InputError, match="master_ip must be one of"):
        column_generation(A, y, P, max_degree=1, complexity=6.0, master_ip="cplex")


@pytest.mark.parametrize("side", [dict(literal_costs="double the first"),
                                  dict(required=[[0, 1]])])
def test_branch_and_bound_refuses_the_rows_it_does_not_hold(side):
    """Branch and bound prices a clause by its literal count and has no required rows: asked
    for explicitly with literal costs or required groups, it would return a rule set of
    another problem; it is refused before any work instead."""
    A, y, P = cg_data(0, n=100, f=8, noise=0.2, uniform=False)
    if "literal_costs" in side:
        costs = np.ones(A.shape[1])
        costs[0] = 2.0
        side = dict(literal_costs=costs)
    with pytest.raises(InputError, match="master_ip='branch_and_bound' has no"):
        column_generation(A, y, P, max_degree=1, complexity=6.0,
                          master_ip="branch_and_bound", **side)
