"""max_rules and max_literals: rows of the rule master whose duals shift the penalties in
pricing.  Checked against full enumeration of every rule set over all clauses of degree at
most 2 on 8 literals (36 clauses), for the LP bound and the IP optimum."""

import itertools

import numpy as np
import pytest

from optirules.errors import InputError
from optirules.models import (
    RuleMasterModel,
    RuleSetProblem,
    column_generation,
    master_objective,
)

L = 8
CLAUSES = [(i,) for i in range(L)] + list(itertools.combinations(range(L), 2))


def _data(seed=3, n=60):
    rng = np.random.default_rng(seed)
    A = rng.random((n, L)) < 0.5
    y = ((A[:, 0] & A[:, 1]) | (A[:, 2] & ~A[:, 3]) | (A[:, 5] & A[:, 6])) \
        ^ (rng.random(n) < 0.1)
    return A, y, np.full(n, 1.0 / n)


def _brute(A, y, P, max_rules, max_literals, lambda0, lambda1):
    """The best rule set over all subsets of CLAUSES within the limits."""
    best = np.inf
    top = max_rules if max_rules is not None else max_literals
    for r in range(top + 1):
        for subset in itertools.combinations(CLAUSES, r):
            if max_literals is not None and sum(map(len, subset)) > max_literals:
                continue
            best = min(best, master_objective(A, y, P, list(subset), lambda0, lambda1))
    return best


CASES = [(1, None, 0.0, 0.0), (2, None, 0.0, 0.0), (None, 3, 0.0, 0.0),
         (2, 3, 0.01, 0.005), (3, 4, 0.0, 0.0)]


@pytest.mark.parametrize("seed", [3, 11])
@pytest.mark.parametrize("max_rules,max_literals,lambda0,lambda1", CASES)
def test_limits_equal_full_enumeration(seed, max_rules, max_literals, lambda0, lambda1):
    A, y, P = _data(seed)
    problem = RuleSetProblem(A, y, P, lambda0=lambda0, lambda1=lambda1, max_rules=max_rules,
                             max_literals=max_literals)
    full_lp = RuleMasterModel.from_problem(problem, CLAUSES, relax=True)
    full_lp.solve("highs")
    full_ip = RuleMasterModel.from_problem(problem, CLAUSES)
    full_ip.solve("highs")
    brute = _brute(A, y, P, max_rules, max_literals, lambda0, lambda1)
    # the declarative IP over every clause is the enumerated optimum
    assert full_ip.objective_ == pytest.approx(brute, abs=1e-9)
    res = column_generation(A, y, P, max_degree=2, lambda0=lambda0, lambda1=lambda1,
                            max_rules=max_rules, max_literals=max_literals)
    # column generation proves the LP over all clauses and certifies its bound
    assert res.converged
    assert res.lp_objective == pytest.approx(full_lp.objective_, abs=1e-9)
    assert res.lp_bound <= brute + 1e-9
    assert res.ip_objective >= brute - 1e-9
    # the rule set keeps the limits
    assert max_rules is None or len(res.clauses) <= max_rules
    assert max_literals is None or sum(map(len, res.clauses)) <= max_literals
    # the limits bind: without them the LP is lower
    free = column_generation(A, y, P, max_degree=2, lambda0=lambda0, lambda1=lambda1)
    assert free.lp_objective <= res.lp_objective + 1e-12


@pytest.mark.parametrize("kw", [dict(master="rebuild"), dict(exact_method="milp"),
                                dict(pricing="exact", smoothing=0.5),
                                dict(max_degree=3, tol=0.0)])
def test_limits_on_every_route(kw):
    """The rebuilt master (Pyomo), the pricing MILP, smoothed pricing and beam search at
    degree 3 reach the same constrained LP optimum as the direct master."""
    A, y, P = _data(5)
    ref = column_generation(A, y, P, max_degree=kw.get("max_degree", 2), max_rules=2,
                            max_literals=3, lambda0=0.01, lambda1=0.005)
    kw = {"max_degree": 2, **kw}
    res = column_generation(A, y, P, max_rules=2, max_literals=3, lambda0=0.01,
                            lambda1=0.005, **kw)
    assert res.converged
    assert res.lp_objective == pytest.approx(ref.lp_objective, abs=1e-8)
    assert len(res.clauses) <= 2 and sum(map(len, res.clauses)) <= 3


def test_limit_duals_enter_pricing():
    """At the LP optimum a binding max_rules row has a positive dual, and every pool
    column's reduced cost, computed with lambda0 + that dual, is non-negative."""
    A, y, P = _data(3)
    lp = RuleMasterModel.from_problem(RuleSetProblem(A, y, P, max_rules=1), CLAUSES,
                                      relax=True)
    lp.solve("highs")
    assert lp.limit_duals_["max_rules"] > 1e-6
    d = lp.duals_for_pricing_
    assert d["lambda0"] == pytest.approx(lp.limit_duals_["max_rules"])
    assert lp.reduced_costs_.min() >= -1e-9


def test_limits_written_in_the_model(tmp_path):
    A, y, P = _data(3)
    m = RuleMasterModel.from_problem(RuleSetProblem(A, y, P, max_rules=2, max_literals=3),
                                     CLAUSES[:5])
    path = tmp_path / "m.lp"
    m.write(path)
    text = path.read_text()
    assert "max_rules" in text and "max_literals" in text


@pytest.mark.parametrize("master", ["merged", "dual", "persistent"])
def test_limits_refused_by_masters_without_rows(master):
    A, y, P = _data(3)
    with pytest.raises(InputError, match="no max_rules, max_literals, fairness or required rows"):
        column_generation(A, y, P, max_degree=1, max_rules=2, master=master)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True])
def test_bad_limits_refused(bad):
    A, y, P = _data(3)
    with pytest.raises(InputError, match="max_rules"):
        column_generation(A, y, P, max_degree=1, max_rules=bad)
    with pytest.raises(InputError, match="branch_and_bound"):
        column_generation(A, y, P, max_degree=1, max_rules=2, master_ip="branch_and_bound")


COSTS = np.array([1.0, 3.0, 1.0, 2.0, 1.0, 1.0, 2.5, 1.0])


@pytest.mark.parametrize("max_literals,lambda1", [(None, 0.01), (3, 0.0), (4, 0.004)])
def test_literal_costs_equal_full_enumeration(max_literals, lambda1):
    """A literal of cost c counts as c literals in the penalty and the max_literals row:
    the declarative IP over every clause is the enumerated optimum, and column generation
    proves the LP over every clause, priced by the enumeration (costs as rows) and by the
    pricing MILP (costs in its objective)."""
    A, y, P = _data(7)
    problem = RuleSetProblem(A, y, P, lambda0=0.002, lambda1=lambda1, max_rules=3,
                             max_literals=max_literals, literal_costs=COSTS)
    full_lp = RuleMasterModel.from_problem(problem, CLAUSES, relax=True)
    full_lp.solve("highs")
    full_ip = RuleMasterModel.from_problem(problem, CLAUSES)
    full_ip.solve("highs")
    best = np.inf
    for r in range(4):
        for subset in itertools.combinations(CLAUSES, r):
            weight = sum(COSTS[list(c)].sum() for c in subset)
            if max_literals is None or weight <= max_literals + 1e-9:
                best = min(best, master_objective(A, y, P, list(subset), 0.002, lambda1,
                                                  COSTS))
    assert full_ip.objective_ == pytest.approx(best, abs=1e-9)
    for method in ("enumerate", "milp"):
        res = column_generation(A, y, P, max_degree=2, lambda0=0.002, lambda1=lambda1,
                                max_rules=3, max_literals=max_literals, literal_costs=COSTS,
                                exact_method=method)
        assert res.converged, method
        assert res.lp_objective == pytest.approx(full_lp.objective_, abs=1e-8)
        assert res.lp_bound <= best + 1e-9 <= res.ip_objective + 2e-9
        if max_literals is not None:
            assert sum(COSTS[list(c)].sum() for c in res.clauses) <= max_literals + 1e-9


def test_costly_literals_are_avoided():
    """A literal that the best rule needs, made expensive, is replaced when a cheaper rule
    is almost as good."""
    A, y, P = _data(3)
    free = column_generation(A, y, P, max_degree=2, lambda0=0.001, lambda1=0.001,
                             literal_costs=np.ones(L))
    used = {j for c in free.clauses for j in c}
    costly = np.ones(L)
    costly[list(used)] = 50.0
    res = column_generation(A, y, P, max_degree=2, lambda0=0.001, lambda1=0.001,
                            literal_costs=costly)
    assert res.converged
    assert {j for c in res.clauses for j in c} != used


def test_bad_literal_costs_refused():
    A, y, P = _data(3)
    for bad in (np.zeros(L), np.ones(L - 1), np.full(L, np.nan)):
        with pytest.raises(InputError, match="literal_costs"):
            column_generation(A, y, P, max_degree=1, literal_costs=bad)


def _uses(clauses, group):
    return any(set(c) & set(group) for c in clauses)


@pytest.mark.parametrize("required,max_rules", [([[4]], 2), ([[4], [6]], 2), ([[1, 6]], 1),
                                                ([[4], [7]], 3)])
def test_required_features_equal_full_enumeration(required, max_rules):
    """Every rule set must use a literal of each required group: the declarative IP over
    every clause is the enumerated optimum, column generation (priced by the MILP with one
    binary per group) proves the LP over every clause and its rule set uses every group."""
    A, y, P = _data(3)
    problem = RuleSetProblem(A, y, P, lambda0=0.001, lambda1=0.001, max_rules=max_rules,
                             required=required)
    full_lp = RuleMasterModel.from_problem(problem, CLAUSES, relax=True)
    full_lp.solve("highs")
    full_ip = RuleMasterModel.from_problem(problem, CLAUSES)
    full_ip.solve("highs")
    best = min(master_objective(A, y, P, list(s), 0.001, 0.001)
               for r in range(max_rules + 1) for s in itertools.combinations(CLAUSES, r)
               if all(_uses(s, g) for g in required))
    assert full_ip.objective_ == pytest.approx(best, abs=1e-9)
    for method in ("enumerate", "milp"):
        res = column_generation(A, y, P, max_degree=2, lambda0=0.001, lambda1=0.001,
                                max_rules=max_rules, required=required, exact_method=method)
        assert res.converged, method
        assert res.lp_objective == pytest.approx(full_lp.objective_, abs=1e-8)
        assert res.lp_bound <= best + 1e-9 <= res.ip_objective + 2e-9
        assert all(_uses(res.clauses, g) for g in required)


def test_required_rows_on_the_rebuilt_master_and_an_impossible_combination():
    A, y, P = _data(3)
    ref = column_generation(A, y, P, max_degree=2, lambda0=0.001, lambda1=0.001,
                            required=[[4], [6]])
    res = column_generation(A, y, P, max_degree=2, lambda0=0.001, lambda1=0.001,
                            required=[[4], [6]], master="rebuild")
    assert res.lp_objective == pytest.approx(ref.lp_objective, abs=1e-8)
    # three groups, one rule of at most two literals: no rule set exists
    with pytest.raises(InputError, match="required feature"):
        column_generation(A, y, P, max_degree=2, max_rules=1,
                          required=[[4], [6], [7]])
