"""Conflicting literals: pairs no clause holds together (one contradicts or implies the
other).  Their meaning is checked against the literals' values on a grid, every pricer
(enumeration, beam search, the pricing MILP) against brute force over the clauses without a
conflicting pair (the learners' side: tests/learners/test_conflicts.py)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from optirules.data import FeatureBinarizer, Literal, literal_conflicts, literals_conflict
from optirules.models import (
    EnumerationPricer,
    PricingDuals,
    RulePricingModel,
    RuleSetProblem,
    beam_search_pricing,
    enumerate_pricing,
    reduced_costs,
)
from tests.helpers import prices


def _grid_values(literals):
    """Values of one column that tell every literal of it apart: each threshold, a point
    between and beyond them, every category, and a missing value."""
    nums = sorted({float(lit.value) for lit in literals if lit.op in ("<=", ">")})
    cats = sorted({lit.value for lit in literals if lit.op in ("==", "!=")}, key=str)
    points = [*nums, *[(a + b) / 2 for a, b in zip(nums, nums[1:])]]
    if nums:
        points += [nums[0] - 1, nums[-1] + 1]
    return points + cats + ["__other__", None]


def test_the_conflicts_are_what_the_literals_mean():
    """On a table with a numeric column (missing values included) and a categorical one,
    a pair conflicts exactly when, over every value the column can take, the two never
    hold together or one implies the other."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"x": np.where(rng.random(300) < 0.1, np.nan, rng.normal(size=300)),
                      "c": rng.choice(["a", "b", "c"], 300)})
    lits = FeatureBinarizer(n_thresholds=4).fit(X).literals_
    got = {tuple(p) for p in literal_conflicts(lits).tolist()}
    for i, j in itertools.combinations(range(len(lits)), 2):
        a, b = lits[i], lits[j]
        if a.feature != b.feature:
            assert (i, j) not in got
            continue
        vals = pd.DataFrame({a.feature: pd.Series(_grid_values(
            [lit for lit in lits if lit.feature == a.feature]), dtype=object)})
        if a.feature == "x":  # numbers, and a missing value
            vals = vals.apply(pd.to_numeric, errors="coerce")
        ea, eb = a.evaluate(vals), b.evaluate(vals)
        useless = not (ea & eb).any() or not (ea & ~eb).any() or not (eb & ~ea).any()
        assert ((i, j) in got) == useless, (str(a), str(b))
    assert got  # the table has conflicts of every kind
    assert literals_conflict(Literal("x", ">", 2.0), Literal("x", "<=", 5.0)) is False


def _instance(seed, n=60, f=5):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, f)).astype(bool)
    A = np.hstack([X, ~X])
    conflicts = [(j, j + f) for j in range(f)] + [(0, 1), (2, 2 * f - 1)]  # and two more
    return rng, A, np.array(conflicts)


def _brute(A, v, comp, degree, conflicts):
    bad = {tuple(sorted(p)) for p in np.asarray(conflicts).tolist()}
    clauses = [c for d in range(1, degree + 1)
               for c in itertools.combinations(range(A.shape[1]), d)
               if not any(p in bad for p in itertools.combinations(c, 2))]
    r = np.array([comp[len(c)] + v[np.logical_and.reduce(A[:, list(c)], axis=1)].sum()
                  for c in clauses])
    return clauses, r


@pytest.mark.parametrize("block_rows", [None, 7])
@pytest.mark.parametrize("seed", range(4))
def test_enumeration_equals_brute_force_over_the_clauses_without_a_conflict(seed, block_rows):
    rng, A, conflicts = _instance(seed)
    pricer = EnumerationPricer(A, block_rows=block_rows, conflicts=conflicts)
    comp = [0.0, 0.002, 0.003, 0.004]
    for _ in range(3):
        v = prices(rng, A.shape[0])
        clauses, r = _brute(A, v, comp, 3, conflicts)
        cols, lower, complete = pricer.price(v, comp, 3, k=6)
        assert complete and lower == pytest.approx(min(0.0, r.min()), abs=1e-12)
        want = sorted(x for x in r if x < -1e-9)[:6]
        np.testing.assert_allclose([x for _, x in cols], want, atol=1e-12)
        assert all(c in clauses for c, _ in cols)
        quick = pricer.price(v, comp, 3, k=6, need_proof=False)
        assert all(c in clauses for c, _ in quick[0]) and quick[1] <= r.min() + 1e-12
    one = enumerate_pricing(A, v, comp, 2, k=4, conflicts=conflicts)
    c2, r2 = _brute(A, v, comp, 2, conflicts)
    assert one[1] == pytest.approx(min(0.0, r2.min()), abs=1e-12)


def test_a_contradiction_is_never_priced_even_with_a_required_bonus():
    """A required group's bonus (its dual off every clause's cost, given back by a pseudo
    row that the clauses without the group cover) makes the clause that uses the group and
    covers nothing the best one: without conflicts that is ``x4 AND NOT x4``; with them it
    is never returned."""
    rng, A, conflicts = _instance(3)
    n, f = A.shape[0], A.shape[1] // 2
    v = np.abs(prices(rng, n))  # no real row is worth covering
    extra = np.ones((1, A.shape[1]), bool)
    extra[0, [4, 4 + f]] = False  # covered by the clauses that do not use column 4
    Ap, vp = np.vstack([A, extra]), np.concatenate([v, [1.0]])
    comp = [0.0, 0.01 - 1.0, 0.02 - 1.0, 0.03 - 1.0]
    free, _, _ = enumerate_pricing(Ap, vp, comp, 2, k=5)
    assert free[0][0] == (4, 4 + f)  # without conflicts the contradiction is best
    cols, _, _ = enumerate_pricing(Ap, vp, comp, 2, k=50, conflicts=conflicts)
    assert cols and all(not {4, 4 + f} <= set(c) for c, _ in cols)
    assert {4, 4 + f} & set(cols[0][0])  # the best clause still uses the group


@pytest.mark.parametrize("seed", range(3))
def test_beam_search_and_the_milp_never_return_a_conflicting_clause(seed):
    rng, A, conflicts = _instance(seed, n=40, f=4)
    y = rng.integers(0, 2, size=40).astype(bool)
    P = np.full(40, 1 / 40)
    mu = rng.uniform(0, 1.5, size=int(y.sum()))
    bad = {tuple(p) for p in conflicts.tolist()}
    problem = RuleSetProblem(A, y, P, max_degree=3, conflicts=conflicts)
    duals = PricingDuals(mu, 0.0, 0.001, 0.001)
    found = beam_search_pricing(problem, duals, beam_width=20, k=30)
    assert found
    for c, _ in found:
        assert not any(p in bad for p in itertools.combinations(c, 2))
    milp = RulePricingModel(problem, duals)
    milp.solve("highs")
    c = milp.clause_
    assert not any(p in bad for p in itertools.combinations(c, 2))
    clauses = [c for d in (1, 2, 3) for c in itertools.combinations(range(A.shape[1]), d)
               if not any(p in bad for p in itertools.combinations(c, 2))]
    r = reduced_costs(A, y, clauses, PricingDuals(mu, 0.0, 0.001, 0.001), sample_weight=P)
    assert milp.reduced_cost_ == pytest.approx(r.min(), abs=1e-7)


def test_the_problem_keeps_its_conflicts_sorted_and_read_only():
    A = np.eye(4, dtype=bool)
    p = RuleSetProblem(A, [1, 0, 1, 0], None, conflicts=[(3, 0), (0, 3), (1, 2)])
    assert p.conflicts.tolist() == [[0, 3], [1, 2]]
    assert p.conflict_index.partners(0).tolist() == [3]
    with pytest.raises(ValueError):
        p.conflicts[0, 0] = 1
    with pytest.raises(ValueError, match="two different literals"):
        RuleSetProblem(A, [1, 0, 1, 0], None, conflicts=[(1, 1)])
