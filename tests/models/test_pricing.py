"""Pricing for the rule master: exact MILP and beam search against enumeration."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optirules.errors import InputError
from optirules.models import (
    HighsRuleMaster,
    PricingDuals,
    RuleMasterModel,
    RulePricingModel,
    RuleSetProblem,
    beam_search_pricing,
    reduced_costs,
)
from tests.helpers import literal_instance


def milp_kw(kw):
    """The dual keywords under RulePricingModel's names (cover_duals, complexity_dual)."""
    names = {"mu": "cover_duals", "lam": "complexity_dual"}
    return {names.get(k, k): v for k, v in kw.items()}


def r_by_definition(A, y, P, mu, clause, lam=0.0, lambda0=0.0, lambda1=0.0):
    """r(k) written out row by row from the definition (independent of the package)."""
    mu_full = np.zeros(len(y))
    mu_full[np.asarray(y) == 1] = mu
    r = lam * (1 + len(clause)) + lambda0 + lambda1 * len(clause)
    for i in range(len(y)):
        if all(A[i, j] == 1 for j in clause):
            r += P[i] if y[i] == 0 else -mu_full[i] * P[i]
    return r


def all_clauses(n_lit: int, max_degree: int):
    return [c for d in range(1, max_degree + 1) for c in itertools.combinations(range(n_lit), d)]


def random_duals(rng, y, kind):
    n_pos = int((np.asarray(y) == 1).sum())
    mu = rng.uniform(0, 1, n_pos)
    mu[rng.uniform(size=n_pos) < 0.3] = 1.0  # many cover duals sit at their bound 1
    if kind == "budget":
        return mu, {"lam": float(rng.uniform(0, 0.02))}
    return mu, {"lambda0": float(rng.uniform(0, 0.01)), "lambda1": float(rng.uniform(0, 0.01))}


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kind", ["budget", "penalty"])
def test_exact_pricing_equals_enumeration_of_degree_2_clauses(seed, kind):
    A, y, P, rng = literal_instance(seed)
    mu, kw = random_duals(rng, y, kind)
    clauses = all_clauses(A.shape[1], 2)
    r_all = np.array([r_by_definition(A, y, P, mu, c, **kw) for c in clauses])
    shared = reduced_costs(A, y, clauses, PricingDuals(mu, **milp_kw(kw)), sample_weight=P)
    np.testing.assert_allclose(shared, r_all, atol=1e-14)
    pricing = RulePricingModel(RuleSetProblem(A, y, P, max_degree=2), PricingDuals(mu, **milp_kw(kw)))
    pricing.solve(mip_abs_gap=1e-10)
    assert 1 <= len(pricing.clause_) <= 2
    assert pricing.reduced_cost_ == pytest.approx(r_all.min(), abs=1e-9)
    assert pricing.objective_ == pytest.approx(pricing.reduced_cost_, abs=1e-9)
    assert pricing.reduced_cost_ == pytest.approx(
        r_by_definition(A, y, P, mu, pricing.clause_, **kw), abs=1e-14)
    # the beam search never reports a lower reduced cost than the exact minimum
    beam = beam_search_pricing(RuleSetProblem(A, y, P, max_degree=2), PricingDuals(mu, **milp_kw(kw)),
                               beam_width=3, k=5)
    assert beam and min(r for _, r in beam) >= pricing.reduced_cost_ - 1e-12


@pytest.mark.parametrize("seed", range(3))
def test_exact_pricing_degree_3_equals_enumeration(seed):
    A, y, P, rng = literal_instance(seed + 50, n_rows=16, n_features=4)
    mu, kw = random_duals(rng, y, "budget")
    clauses = all_clauses(A.shape[1], 3)
    r_all = reduced_costs(A, y, clauses, PricingDuals(mu, **milp_kw(kw)), sample_weight=P)
    pricing = RulePricingModel(RuleSetProblem(A, y, P, max_degree=3), PricingDuals(mu, **milp_kw(kw)))
    pricing.solve(mip_abs_gap=1e-10)
    assert pricing.reduced_cost_ == pytest.approx(r_all.min(), abs=1e-9)


def test_exclude_returns_the_next_best_clause():
    A, y, P, rng = literal_instance(11)
    mu, kw = random_duals(rng, y, "budget")
    clauses = all_clauses(A.shape[1], 2)
    r_all = reduced_costs(A, y, clauses, PricingDuals(mu, **milp_kw(kw)), sample_weight=P)
    order = np.argsort(r_all, kind="stable")
    best = clauses[order[0]]
    pricing = RulePricingModel(RuleSetProblem(A, y, P, max_degree=2), PricingDuals(mu, **milp_kw(kw)),
                               exclude=[best])
    pricing.solve(mip_abs_gap=1e-10)
    assert pricing.clause_ != best
    assert pricing.reduced_cost_ == pytest.approx(r_all[order[1]], abs=1e-9)
    assert "cut_0" in [str(c) for c in pricing.model.cuts]
    beam = beam_search_pricing(RuleSetProblem(A, y, P, max_degree=2), PricingDuals(mu, **milp_kw(kw)),
                               beam_width=8, k=10, exclude=[best])
    assert best not in [c for c, _ in beam]


@pytest.mark.parametrize("seed", range(4))
def test_wide_beam_finds_the_exact_minimum(seed):
    # with every literal in the beam, degree-2 search is exhaustive up to dominated clauses
    A, y, P, rng = literal_instance(seed + 30)
    mu, kw = random_duals(rng, y, "penalty")
    clauses = all_clauses(A.shape[1], 2)
    r_all = reduced_costs(A, y, clauses, PricingDuals(mu, **milp_kw(kw)), sample_weight=P)
    beam = beam_search_pricing(RuleSetProblem(A, y, P, max_degree=2), PricingDuals(mu, **milp_kw(kw)),
                               beam_width=A.shape[1], k=3)
    assert beam[0][1] == pytest.approx(r_all.min(), abs=1e-14)


@pytest.mark.parametrize("seed", range(3))
def test_beam_over_the_float_copy_equals_the_beam_over_blocks(seed, monkeypatch):
    """The problem's float64 copy of A (held below FLOAT_COPY_BYTES) gives the beam the very
    products of the blockwise conversion: the same clauses and the same floats."""
    import optirules.models._problem as problem_module

    A, y, P, rng = literal_instance(seed + 50)
    mu, kw = random_duals(rng, y, "penalty")
    duals = PricingDuals(mu, **milp_kw(kw))
    held = RuleSetProblem(A, y, P, max_degree=3)
    assert held.float_literals is not None and held.float_literals.dtype == np.float64
    assert held.float_literals is held.float_literals  # made once
    assert held.replace(lambda0=0.5).float_literals is held.float_literals  # shared
    other = held.replace(literals=np.logical_not(A)).float_literals
    assert other is not held.float_literals and np.array_equal(other, np.logical_not(A))
    monkeypatch.setattr(problem_module, "FLOAT_COPY_BYTES", 0)
    blocks = RuleSetProblem(A, y, P, max_degree=3)
    assert blocks.float_literals is None
    a = beam_search_pricing(held, duals, beam_width=4, k=6)
    b = beam_search_pricing(blocks, duals, beam_width=4, k=6)
    assert a == b and a


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), max_degree=st.integers(1, 4),
       beam_width=st.integers(1, 6), k=st.integers(1, 8), kind=st.sampled_from(["b", "p"]))
def test_beam_reports_exact_reduced_costs(seed, max_degree, beam_width, k, kind):
    A, y, P, rng = literal_instance(seed, n_rows=25, n_features=5)
    mu, kw = random_duals(rng, y, "budget" if kind == "b" else "penalty")
    out = beam_search_pricing(RuleSetProblem(A, y, P, max_degree=max_degree),
                              PricingDuals(mu, **milp_kw(kw)), beam_width=beam_width, k=k)
    assert 1 <= len(out) <= k
    clauses = [c for c, _ in out]
    assert len(set(clauses)) == len(clauses)
    values = [r for _, r in out]
    assert values == sorted(values)
    for clause, r in out:
        assert clause == tuple(sorted(set(clause))) and 1 <= len(clause) <= max_degree
        assert r == pytest.approx(r_by_definition(A, y, P, mu, clause, **kw), abs=1e-14)
    # deterministic
    again = beam_search_pricing(RuleSetProblem(A, y, P, max_degree=max_degree),
                                PricingDuals(mu, **milp_kw(kw)), beam_width=beam_width, k=k)
    assert again == out
    # never better than the true minimum over all clauses of that degree
    everything = reduced_costs(A, y, all_clauses(A.shape[1], max_degree),
                               PricingDuals(mu, **milp_kw(kw)), sample_weight=P)
    assert values[0] >= everything.min() - 1e-14


@pytest.mark.parametrize("form", ["budget", "penalty"])
def test_column_generation_reaches_the_lp_over_all_clauses(form):
    """Master LP + exact pricing until no r(k) < 0 gives the LP over every clause."""
    A, y, P, _ = literal_instance(77, n_rows=18, n_features=3)
    kw = {"complexity": 4.0} if form == "budget" else {"lambda0": 0.01, "lambda1": 0.01}
    master = HighsRuleMaster(A, y, [], sample_weight=P, **kw)
    master.solve()
    for _ in range(40):
        pricing = RulePricingModel(RuleSetProblem(A, y, P, max_degree=2),
                                   master.duals_for_pricing_)
        pricing.solve(mip_abs_gap=1e-10)
        if pricing.reduced_cost_ >= -1e-9:
            break
        assert pricing.clause_ not in master.clauses_  # pool columns never price out
        master.add_clauses([pricing.clause_])
        master.solve()
        # the new column's LP reduced cost at the new duals is r(k) by the shared formula
        r = reduced_costs(A, y, master.clauses_, PricingDuals(
            master.cover_duals_, **milp_kw({key: master.duals_for_pricing_[key]
                                            for key in ("lam", "lambda0", "lambda1")})),
                          sample_weight=P)
        np.testing.assert_allclose(master.reduced_costs_, r, atol=1e-12)
    else:
        pytest.fail("column generation did not converge in 40 iterations")
    full = RuleMasterModel(A, y, all_clauses(A.shape[1], 2), sample_weight=P, relax=True, **kw)
    full.solve()
    assert master.objective_ == pytest.approx(full.objective_, abs=1e-9)
    # ... and no clause of degree <= 2 prices out at the final duals
    d = master.duals_for_pricing_
    every = reduced_costs(A, y, all_clauses(A.shape[1], 2),
                          PricingDuals(d["mu"], d["lam"], d["lambda0"], d["lambda1"]),
                          sample_weight=P)
    assert every.min() >= -1e-9


def test_pricing_model_names_and_sizes():
    import pyomo.environ as pyo

    A, y, P, rng = literal_instance(3)
    mu, kw = random_duals(rng, y, "budget")
    mu[0] = 0.0  # a zero-priced row is left out of the model
    m = RulePricingModel(RuleSetProblem(A, y, P, max_degree=2),
                         PricingDuals(mu, **milp_kw(kw))).model
    first_pos = int(np.flatnonzero(y == 1)[0])
    assert f"i_{first_pos}" not in set(m.rows)
    assert [str(j) for j in m.literals][:2] == ["j_0", "j_1"]
    assert len(m.neg_rows) == int((y == 0).sum())
    # one covers_positive row per (label-1 row, literal that is 0 in it)
    pos_kept = [i for t, i in enumerate(np.flatnonzero(y == 1)) if mu[t] > 0]
    assert len(m.covers_positive) == int((A[pos_kept] == 0).sum())
    assert pyo.value(m.max_degree.upper) == 2 and pyo.value(m.min_degree.lower) == 1


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"mu": [0.5]}, "one dual per label-1 row"),
        ({"mu": [-0.5, 0.2]}, "must be >= 0"),
        ({"mu": [np.nan, 0.2]}, "NaN"),
        ({"lam": -1.0}, "lam"),
        ({"max_degree": 0}, "max_degree"),
        ({"max_degree": 1.5}, "max_degree"),
        ({"A": [[0, 1], [1, 0], [2, 0]]}, "only 0 and 1"),
    ],
)
def test_bad_pricing_input_raises_input_error(kwargs, match):
    args = {"A": [[0, 1], [1, 0], [1, 1]], "y": [1, 0, 1], "P": None, "mu": [0.5, 1.0],
            "lam": 0.0, "max_degree": 2}
    args.update(kwargs)
    with pytest.raises(InputError, match=match):
        RulePricingModel(RuleSetProblem(args["A"], args["y"], args["P"],
                                        max_degree=args["max_degree"]),
                         PricingDuals(args["mu"], args["lam"]))
    with pytest.raises(InputError, match=match):
        beam_search_pricing(RuleSetProblem(args["A"], args["y"], args["P"],
                                           max_degree=args["max_degree"]),
                            PricingDuals(args["mu"], args["lam"]))


def test_beam_rejects_bad_width():
    with pytest.raises(InputError, match="beam_width"):
        beam_search_pricing(RuleSetProblem([[0, 1], [1, 0]], [1, 0], None, max_degree=2),
                            PricingDuals([1.0]), beam_width=0)


@pytest.mark.parametrize("suffix", [".lp", ".mps"])
def test_pricing_file_reads_back_with_the_same_optimum(tmp_path, suffix):
    import highspy

    A, y, P, rng = literal_instance(21)
    mu, kw = random_duals(rng, y, "budget")
    pricing = RulePricingModel(RuleSetProblem(A, y, P, max_degree=2), PricingDuals(mu, **milp_kw(kw)),
                               exclude=[(0,)])
    pricing.solve(mip_abs_gap=1e-10)
    path = tmp_path / f"pricing{suffix}"
    pricing.write(path)
    assert "covers_negative" in path.read_text() and "no_good(cut_0)" in path.read_text()
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("mip_rel_gap", 1e-9)
    h.setOptionValue("mip_abs_gap", 1e-10)
    h.readModel(str(path))
    h.run()
    assert h.getInfo().objective_function_value == pytest.approx(pricing.reduced_cost_, abs=1e-9)
