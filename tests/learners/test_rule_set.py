"""BooleanRuleSetClassifier: column generation against enumeration, the IP against brute
force, certified bounds, typed rules, JSON, export, errors and the scikit-learn contract."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from optirules.data import FeatureBinarizer
from optirules.errors import InputError, NotFittedError
from optirules.learners import BooleanRuleSetClassifier, DRORuleEnsembleClassifier
from optirules.models import (
    PricingDuals,
    RuleMasterModel,
    RuleSetProblem,
    complexity_costs,
    enumerate_master,
    enumerate_pricing,
    master_objective,
    reduced_costs,
    row_prices,
)


def binary_data(seed: int, n: int = 40, d: int = 5, noise: float = 0.1):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, d))
    y = ((X[:, 0] & X[:, 1]) | (X[:, 2] & (1 - X[:, 3]))).astype(int)
    flip = rng.random(n) < noise
    y[flip] = 1 - y[flip]
    y[0], y[1] = 1, 0
    return X, y


def literal_matrix(X):
    return np.hstack([X == 1, X == 0])


def clauses_up_to(n_lit: int, degree: int):
    return [c for k in range(1, degree + 1) for c in itertools.combinations(range(n_lit), k)]


FORMS = {"budget": dict(complexity=9.0, lambda0=0.0, lambda1=0.0),
         "penalty": dict(lambda0=0.01, lambda1=0.005),
         "both": dict(complexity=12.0, lambda0=0.002, lambda1=0.002)}


def master_kwargs(est):
    return dict(complexity=est.complexity, lambda0=est.lambda0_, lambda1=est.lambda1_)


# ------------------------------------------------------------ column generation is exact
@pytest.mark.parametrize("form", sorted(FORMS))
def test_cg_lp_equals_master_lp_over_all_clauses_of_degree_2(form):
    X, y = binary_data(3)
    w = np.random.default_rng(3).uniform(0.5, 2.0, len(y))
    est = BooleanRuleSetClassifier(max_degree=2, **FORMS[form]).fit(X, y, sample_weight=w)
    A = literal_matrix(X)
    full = RuleMasterModel(A, y, clauses_up_to(A.shape[1], 2), sample_weight=w / w.sum(),
                           relax=True, **master_kwargs(est))
    full.solve()
    assert est.pricing_complete_ and est.gap_certified_
    assert est.lp_objective_ == pytest.approx(full.objective_, abs=1e-9)
    # converged: the certified bound is the full LP value itself
    assert est.lp_bound_ == pytest.approx(full.objective_, abs=1e-9)
    assert len(est.pool_) < len(clauses_up_to(A.shape[1], 2))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), form=st.sampled_from(sorted(FORMS)),
       degree=st.integers(1, 3))
def test_no_clause_has_negative_reduced_cost_at_convergence(seed, form, degree):
    X, y = binary_data(seed, n=30, d=4, noise=0.2)
    est = BooleanRuleSetClassifier(max_degree=degree, **FORMS[form]).fit(X, y)
    assert est.pricing_complete_
    A = literal_matrix(X)
    d = est.duals_
    r = reduced_costs(A, y, clauses_up_to(A.shape[1], degree),
                      PricingDuals(d["mu"], d["lam"], d["lambda0"], d["lambda1"]))
    assert r.min() >= -1e-8
    # and the pool's own columns price at >= 0 as well (LP optimality)
    assert not est.pool_ or reduced_costs(A, y, est.pool_, PricingDuals(
        d["mu"], d["lam"], d["lambda0"], d["lambda1"])).min() >= -1e-8


@pytest.mark.parametrize("seed", [0, 1])
def test_final_ip_equals_brute_force_over_the_generated_pool(seed):
    X, y = binary_data(seed + 10, n=36, d=4, noise=0.2)
    est = BooleanRuleSetClassifier(complexity=9.0, lambda0=0.001, lambda1=0.001,
                                   max_degree=2).fit(X, y)
    A, yb = literal_matrix(X), y == 1
    P = np.full(len(y), 1 / len(y))
    pool = est.pool_
    best = math.inf
    for size in range(0, 5):  # cost >= 2 per clause, budget 9: at most 4 clauses
        for S in itertools.combinations(pool, size):
            if sum(1 + len(c) for c in S) <= 9:
                best = min(best, master_objective(A, yb, P, list(S), 0.001, 0.001))
    assert est.ip_objective_ == pytest.approx(best, abs=1e-12)
    assert est.ip_objective_ == pytest.approx(
        master_objective(A, yb, P, est.clauses_, 0.001, 0.001), abs=1e-15)
    assert est.rules_.complexity <= 9


@pytest.mark.parametrize("budget", [4.0, 6.0, 7.5])
def test_enumerated_master_equals_the_ip(budget):
    rng = np.random.default_rng(int(budget))
    A = rng.random((50, 10)) < 0.5
    y = rng.random(50) < 0.4
    P = rng.dirichlet(np.ones(50))
    pool = sorted({tuple(sorted(rng.choice(10, rng.integers(1, 3), replace=False).tolist()))
                   for _ in range(20)})
    chosen, obj = enumerate_master(A, y, P, pool, budget, 0.002, 0.001)
    ip = RuleMasterModel(A, y.astype(int), pool, sample_weight=P, complexity=budget,
                         lambda0=0.002, lambda1=0.001)
    result = ip.solve(mip_gap=1e-10)
    assert obj == pytest.approx(result.objective, abs=1e-12)
    assert sum(1 + len(c) for c in chosen) <= budget


def test_certified_bound_brackets_the_optimum_over_all_clauses():
    X, y = binary_data(7, n=40, d=4, noise=0.25)
    est = BooleanRuleSetClassifier(complexity=8.0, lambda0=0.0, lambda1=0.0,
                                   max_degree=2).fit(X, y)
    A = literal_matrix(X)
    every = RuleMasterModel(A, y, clauses_up_to(A.shape[1], 2), complexity=8.0)
    every.solve(mip_gap=1e-10)
    assert est.lp_bound_ <= every.objective_ + 1e-12 <= est.ip_objective_ + 2e-12
    assert est.gap_ == pytest.approx((est.ip_objective_ - est.lp_bound_) / est.ip_objective_)
    # the absolute gap beside the relative one, and it covers the true optimum
    assert est.absolute_gap_ == pytest.approx(est.ip_objective_ - est.lp_bound_, abs=1e-15)
    assert est.ip_objective_ - every.objective_ <= est.absolute_gap_ + 1e-12
    assert "absolute" in str(est)


def test_bound_after_an_early_stop_is_still_valid():
    X, y = binary_data(5, n=40, d=5, noise=0.2)
    est = BooleanRuleSetClassifier(max_degree=2, max_iter=1, n_columns=2,
                                   lambda0=0.002, lambda1=0.002).fit(X, y)
    A = literal_matrix(X)
    full = RuleMasterModel(A, y, clauses_up_to(A.shape[1], 2), lambda0=0.002, lambda1=0.002,
                           relax=True)
    full.solve()
    assert not est.pricing_complete_ and est.gap_certified_
    assert est.status_.startswith("max_iter")
    assert est.lp_bound_ <= full.objective_ + 1e-12
    assert est.lp_objective_ >= full.objective_ - 1e-12


@pytest.mark.parametrize("pricing", ["exact", "auto"])
def test_pricing_modes_reach_the_same_lp(pricing):
    X, y = binary_data(11, n=40, d=5, noise=0.15)
    ref = BooleanRuleSetClassifier(max_degree=3, pricing="exact").fit(X, y)
    est = BooleanRuleSetClassifier(max_degree=3, pricing=pricing).fit(X, y)
    assert est.lp_objective_ == pytest.approx(ref.lp_objective_, abs=1e-9)
    beam = BooleanRuleSetClassifier(max_degree=3, pricing="beam").fit(X, y)
    assert not beam.gap_certified_ and math.isnan(beam.lp_bound_)
    # beam search proves nothing: the gap is unknown (NaN), never a reassuring 0
    assert math.isnan(beam.gap_) and math.isnan(beam.absolute_gap_)
    assert "gap unknown" in str(beam)
    assert beam.lp_objective_ >= ref.lp_objective_ - 1e-9


def test_milp_pricing_route_converges_to_the_same_lp():
    X, y = binary_data(2, n=24, d=4, noise=0.2)
    a = BooleanRuleSetClassifier(max_degree=2, exact_method="milp", pricing="exact").fit(X, y)
    b = BooleanRuleSetClassifier(max_degree=2, exact_method="enumerate",
                                 pricing="exact").fit(X, y)
    assert a.pricing_complete_ and b.pricing_complete_
    assert a.lp_objective_ == pytest.approx(b.lp_objective_, abs=1e-7)


# ------------------------------------------------------------------ enumeration pricing
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 100_000), degree=st.integers(1, 3), k=st.integers(1, 6))
def test_enumerate_pricing_equals_brute_force(seed, degree, k):
    rng = np.random.default_rng(seed)
    n, L = int(rng.integers(5, 25)), int(rng.integers(3, 9))
    A = rng.random((n, L)) < rng.uniform(0.3, 0.8)
    v = rng.normal(0, 1, n) * (rng.random(n) < 0.8)
    comp = [0.0] + [0.1 + 0.05 * t for t in range(1, 4)]
    clauses = clauses_up_to(L, degree)
    r = np.array([comp[len(c)] + v[np.logical_and.reduce(A[:, list(c)], axis=1)].sum()
                  for c in clauses])
    pool = {clauses[i] for i in rng.choice(len(clauses), min(3, len(clauses)), replace=False)}
    cols, lower, complete = enumerate_pricing(A, v, comp, degree, k=k, pool=pool)
    assert complete
    assert lower == pytest.approx(min(0.0, r.min()), abs=1e-12)
    want = sorted(x for c, x in zip(clauses, r) if x < -1e-9 and c not in pool)[:k]
    np.testing.assert_allclose(sorted(x for _, x in cols), want, atol=1e-12)
    for c, x in cols:
        assert x == pytest.approx(r[clauses.index(c)], abs=1e-12)
    # stopped at once by its deadline, the bound stays below the minimum
    _, lower2, complete2 = enumerate_pricing(A, v, comp, degree, k=k, pool=pool, deadline=0.0)
    assert lower2 <= min(0.0, r.min()) + 1e-12
    assert complete2 == (degree < 3 or not (v != 0).any())


def test_enumerate_pricing_agrees_with_the_pricing_milp():
    from optirules.models import RulePricingModel

    rng = np.random.default_rng(4)
    A = rng.random((30, 8)) < 0.5
    y = rng.random(30) < 0.5
    P = rng.dirichlet(np.ones(30))
    mu = rng.uniform(0, 1, int(y.sum()))
    milp = RulePricingModel(RuleSetProblem(A, y, P, max_degree=3), PricingDuals(mu, 0.01))
    milp.solve(mip_abs_gap=1e-10)
    comp = [0.0] + [float(complexity_costs(d, 0.01)) for d in (1, 2, 3)]
    _, lower, complete = enumerate_pricing(A, row_prices(y, P, mu), comp, 3)
    assert complete and lower == pytest.approx(min(0.0, milp.reduced_cost_), abs=1e-9)


# --------------------------------------------------------- typed rules, JSON, explain, export
def mixed_frame(seed=0, n=120):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "age": rng.integers(20, 80, n).astype(float),
        "chol": rng.normal(220, 40, n).round(1),
        "thal": rng.choice(["normal", "fixed", "reversible"], n),
    })
    X.loc[rng.random(n) < 0.1, "chol"] = np.nan
    y = ((X["age"] > 55) & (X["thal"] != "normal") | (X["chol"] > 260)).astype(int).to_numpy().copy()
    flip = rng.random(n) < 0.05
    y[flip] = 1 - y[flip]
    return X, np.where(y == 1, "sick", "well")


def test_rules_evaluate_like_predict_and_json_round_trips(tmp_path):
    X, y = mixed_frame()
    est = BooleanRuleSetClassifier(binarizer="auto", random_state=0).fit(X.iloc[:90], y[:90])
    X_test = X.iloc[90:].copy()
    X_test.loc[X_test.index[0], "thal"] = "unseen"  # a category never seen in training
    pred = est.predict(X_test)
    np.testing.assert_array_equal(est.rules_.predict(X_test), pred)
    rs = est.rules_
    np.testing.assert_array_equal(np.where(rs.evaluate(X_test), rs.positive_class,
                                           rs.negative_class), pred)
    assert all(" " in str(r) for r in est.rules_)  # conditions read like 'age > 55.5'
    back = BooleanRuleSetClassifier.from_json(est.to_json(tmp_path / "m.json"))
    np.testing.assert_array_equal(back.predict(X_test), pred)
    back2 = BooleanRuleSetClassifier.from_json(tmp_path / "m.json")
    np.testing.assert_array_equal(back2.predict(X), est.predict(X))
    assert str(back.rules_) == str(est.rules_) and back.gap_ == est.gap_
    with pytest.raises(InputError, match="needs the training data"):
        back.export_model(tmp_path / "x.lp")
    with pytest.raises(InputError, match="to_json"):
        BooleanRuleSetClassifier.from_json('{"format": "other"}')


def test_binary_arrays_give_x_literals_and_explanations():
    X, y = binary_data(1, n=60)
    est = BooleanRuleSetClassifier(max_degree=2).fit(X, y)
    assert all(str(c).startswith("x") and str(c)[-4:] in ("== 1", "== 0")
               for r in est.rules_ for c in r.conditions)
    np.testing.assert_array_equal(est.rules_.evaluate(X), est.predict(X) == 1)
    fired = est.decision_rules(X)
    assert fired.shape == (60, est.rules_.n_rules)
    lines = est.explain(X[:5])["text"]
    for line, row, p in zip(lines, fired[:5], est.predict(X[:5])):
        assert line.startswith(repr(int(p)))
        assert ("no rule holds" in line) == (not row.any())
    text = str(est)
    assert "predict 1 if any rule holds" in text and "certified gap" in text


def test_the_text_prints_an_absolute_gap_of_rounding_noise_as_zero():
    X, y = binary_data(1, n=60)
    est = BooleanRuleSetClassifier(max_degree=2).fit(X, y)
    assert est.gap_certified_
    # the difference of two sums of row weights that are equal up to their last bits (the
    # value another BLAS kernel can give) reads as 0; a real gap keeps its digits
    for computed, shown in ((6.938893903907228e-18, "(absolute 0)"),
                            (-1.3877787807814457e-17, "(absolute 0)"),
                            (0.0123456, "(absolute 0.01235)")):
        est.absolute_gap_ = computed
        assert shown in str(est)


def test_export_writes_the_final_master_and_each_iteration(tmp_path):
    import highspy

    X, y = binary_data(9, n=40, d=4)
    est = BooleanRuleSetClassifier(max_degree=2, lambda0=0.002, lambda1=0.002).fit(X, y)
    files = est.export_model(tmp_path / "master.mps", iterations=True)
    assert len(files) == 1 + est.n_iter_ and all(f.exists() for f in files)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(str(files[0]))
    h.setOptionValue("mip_rel_gap", 1e-10)
    h.run()
    assert h.getInfo().objective_function_value == pytest.approx(est.ip_objective_, abs=1e-9)
    lp = tmp_path / "relaxed.lp"
    est.export_model(lp, relax=True)
    assert "cover" in lp.read_text()
    with pytest.raises(InputError, match="suffix"):
        est.export_model(tmp_path / "m.txt")


def test_export_from_json_with_the_training_data_names_each_column_after_its_rule(tmp_path):
    """A model reloaded from JSON writes its master over its rules when given X and y again:
    one w column per rule named after it (LP-safe) with a comment giving the rule as printed;
    HiGHS reads the file back and its IP optimum is the master objective of the rules (the
    rule set is optimal over its own clauses: keeping all of them or a subset)."""
    from optirules.solvers import read_model

    X, y = mixed_frame()
    est = BooleanRuleSetClassifier(binarizer="auto", random_state=0, mip_gap=1e-6).fit(X, y)
    assert est.rules_.n_rules >= 1
    back = BooleanRuleSetClassifier.from_json(est.to_json())
    assert (back.lambda0_, back.lambda1_) == (est.lambda0_, est.lambda1_)
    with pytest.raises(InputError, match=r"export_model\(path, X=X_train, y=y_train\)"):
        back.export_model(tmp_path / "r.lp")
    with pytest.raises(InputError, match="X and y together"):
        back.export_model(tmp_path / "r.lp", X=X)
    with pytest.raises(InputError, match="not among the classes"):
        back.export_model(tmp_path / "r.lp", X=X, y=np.where(y == "sick", "ill", "well"))
    path = back.export_model(tmp_path / "r.lp", X=X, y=y)[0]
    text = path.read_text()
    for rule in est.rules_.rules:
        from optirules.models.masters import lp_name

        label = lp_name(str(rule))
        assert f"\\ w({label}): {rule}" in text  # the comment line, exact rule text
        assert f"w({label})" in text.split("*\\", 1)[-1]  # and the column itself
        assert all(ch.isalnum() or ch == "_" for ch in label) and len(label) <= 200
    result = read_model(path, mip_gap=1e-10)
    cov = est.decision_rules(X)
    yk = y == est.target_class_
    P = np.full(len(y), 1.0 / len(y))
    degree = [len(rule) for rule in est.rules_.rules]

    def objective(keep):  # weighted Hamming loss plus the penalties of the kept rules
        hit = cov[:, list(keep)].any(axis=1)
        return (P[yk & ~hit].sum() + P[~yk & hit].sum()
                + sum(est.lambda0_ + est.lambda1_ * degree[k] for k in keep))

    best = min(objective(keep) for r in range(len(degree) + 1)
               for keep in itertools.combinations(range(len(degree)), r))
    assert result.objective == pytest.approx(best, abs=1e-9)
    assert best == pytest.approx(est.ip_objective_, abs=1e-9)
    # a model of this session writes its whole pool, named after each clause
    fresh = est.export_model(tmp_path / "pool.lp")[0].read_text()
    assert fresh.count("\\ w(") == len(est.pool_)


# ------------------------------------------------------------------ behaviour and errors
def test_deterministic_and_zero_weights_drop_rows():
    X, y = binary_data(12, n=50)
    a = BooleanRuleSetClassifier(max_degree=2, random_state=1).fit(X, y)
    b = BooleanRuleSetClassifier(max_degree=2, random_state=1).fit(X, y)
    assert a.clauses_ == b.clauses_ and a.history_[-1]["lp_objective"] == \
        b.history_[-1]["lp_objective"]
    w = np.ones(len(y))
    w[-10:] = 0
    c = BooleanRuleSetClassifier(max_degree=2).fit(X, y, sample_weight=w)
    d = BooleanRuleSetClassifier(max_degree=2).fit(X[:-10], y[:-10])
    assert c.clauses_ == d.clauses_ and c.ip_objective_ == pytest.approx(d.ip_objective_)


def test_clear_errors_on_bad_input():
    X, y = binary_data(0, n=20)
    with pytest.raises(InputError, match="only one class"):
        BooleanRuleSetClassifier().fit(X, np.ones(20))
    with pytest.raises(InputError, match="binarizer"):
        BooleanRuleSetClassifier(binarizer=None).fit(X + 0.5, y)
    Xn = X.astype(float)
    Xn[0, 0] = np.nan
    with pytest.raises(InputError, match="NaN"):
        BooleanRuleSetClassifier(binarizer=None).fit(Xn, y)
    with pytest.raises(InputError, match="rows"):
        BooleanRuleSetClassifier().fit(X, y[:-1])
    # three classes are one-vs-rest inside the estimator; X is still checked first
    with pytest.raises(InputError, match="binarizer"):
        BooleanRuleSetClassifier(binarizer=None).fit(X + 0.5, np.arange(20) % 3)
    for bad in (dict(pricing="greedy"), dict(max_degree=0), dict(complexity=1.0),
                dict(lambda0=-1), dict(time_limit=0), dict(binarizer=3),
                dict(exact_method="enumerate", max_degree=4)):
        with pytest.raises(InputError):
            BooleanRuleSetClassifier(**bad).fit(X, y)
    est = BooleanRuleSetClassifier(max_degree=1).fit(X, y)
    with pytest.raises(InputError):
        est.predict(X[:, :3])
    with pytest.raises(NotFittedError, match="not fitted"):
        BooleanRuleSetClassifier().predict(X)


def test_pipeline_gridsearch_and_progress_bar(capsys):
    X, y = mixed_frame(1, n=80)
    pipe = Pipeline([("bin", FeatureBinarizer(n_thresholds=3)),
                     ("rules", BooleanRuleSetClassifier(max_degree=2))])
    pipe.fit(X, y)
    assert pipe.score(X, y) > 0.7
    grid = GridSearchCV(BooleanRuleSetClassifier(binarizer="auto", max_degree=1),
                        {"lambda0": [0.001, 0.05]}, cv=2).fit(X, y)
    assert grid.best_params_["lambda0"] in (0.001, 0.05)
    BooleanRuleSetClassifier(max_degree=1, verbose=True).fit(*binary_data(0, n=20))
    assert "column generation" in capsys.readouterr().err


# ------------------------------------------------------------------ scikit-learn contract
@parametrize_with_checks(
    [BooleanRuleSetClassifier(binarizer="auto", max_degree=1, max_iter=20)],
    # the checks feed continuous random data, so the instance binarizes it; with
    # binarizer=None such data is (rightly) refused as non-binary.  No check is expected
    # to fail.
    expected_failed_checks=lambda est: {},
)
def test_sklearn_compatible(estimator, check):
    check(estimator)



@pytest.mark.parametrize("cls", [BooleanRuleSetClassifier, DRORuleEnsembleClassifier])
def test_a_solver_that_cannot_serve_the_models_is_refused_before_any_work(cls):
    """SciPy and Clarabel take no Pyomo MILP: fit refuses them at once, naming the solvers
    that can, before the binarizer is fitted or any column is generated."""
    from optirules.errors import SolverNotAvailableError

    X, y = mixed_frame(0, n=80)
    for name in ("scipy", "clarabel", "no_such_solver"):
        est = cls(solver=name)
        with pytest.raises(SolverNotAvailableError, match="highs"):
            est.fit(X, y)
        assert not hasattr(est, "binarizer_") and not hasattr(est, "classes_")


def test_integer_weights_equal_repeated_rows_with_a_binarizer():
    """binarizer='auto' learns weighted quantile thresholds, so weight 2 on a row gives the
    literals and the rule set of that row repeated."""
    X, y = mixed_frame(2, n=90)
    w = np.random.default_rng(1).integers(1, 4, size=len(y))
    kw = dict(binarizer="auto", max_degree=2, random_state=0, mip_gap=1e-6, tol=0.0)
    weighted = BooleanRuleSetClassifier(**kw).fit(X, y, sample_weight=w)
    rows = np.repeat(np.arange(len(y)), w)
    repeated = BooleanRuleSetClassifier(**kw).fit(X.iloc[rows], y[rows])
    # lambda "auto" counts the rows as the sum of the weights: the same penalty both ways
    assert weighted.lambda0_ == repeated.lambda0_ == pytest.approx(0.1 / np.sqrt(w.sum()))
    assert [str(c) for c in weighted.literals_] == [str(c) for c in repeated.literals_]
    assert weighted.ip_objective_ == pytest.approx(repeated.ip_objective_, rel=1e-9)
    # the optimum is one value, not one rule set: the weighted LP and the LP of repeated
    # rows have different degenerate duals, so column generation may reach another rule
    # set of the same objective (a fresh install on 2026-12-01: five rules either way, one
    # of them differing).  Each rule set scores that optimum on the weighted data.
    from optirules.models import master_objective

    A = np.asarray(weighted.binarizer_.transform(X), dtype=bool)
    P = w / w.sum()
    for est in (weighted, repeated):
        assert master_objective(A, y == weighted.target_class_, P, est.clauses_,
                                weighted.lambda0_, weighted.lambda1_) == pytest.approx(
            weighted.ip_objective_, rel=1e-9)


def test_verbose_logs_every_iteration_and_the_stop(caplog):
    import logging

    X, y = binary_data(3)
    with caplog.at_level(logging.INFO, logger="optirules.learners.rule_set"):
        est = BooleanRuleSetClassifier(verbose=True, random_state=0).fit(X, y)
    msgs = [r.getMessage() for r in caplog.records if r.name == "optirules.learners.rule_set"]
    assert sum(m.startswith("iteration ") for m in msgs) == len(est.history_)
    assert msgs[-1].startswith("stopped: ") and f"{len(est.rules_)} rules" in msgs[-1]


def test_master_ip_reaches_the_declarative_optimum_on_wdbc_first_fold():
    """WDBC's first fold, the defaults: the rule set has the objective of RuleMasterModel's
    IP over the fit's own pool, solved apart, and no more than the local-search incumbent.
    (With that incumbent passed to HiGHS as a start solution, HiGHS 1.16 reported a false
    optimum of 0.01979, below the LP bound 0.02317, and the fit fell back to the
    incumbent, 0.02719.)"""
    from sklearn.model_selection import StratifiedKFold

    from optirules.data import load_dataset
    from optirules.models import RuleMasterModel

    X, y = load_dataset("wdbc")
    y = np.asarray(y)
    tr, _ = next(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    est = BooleanRuleSetClassifier(binarizer="auto").fit(X.iloc[tr], y[tr])
    A = np.asarray(est.binarizer_.transform(X.iloc[tr]), dtype=bool)
    info = est.fit_info_
    assert est.gap_certified_ and est.ip_objective_ <= info["greedy_objective"] + 1e-15
    ref = RuleMasterModel(A, (y[tr] == est.classes_[1]).astype(int), est.pool_,
                          lambda0=est.lambda0_, lambda1=est.lambda1_)
    ref.solve("highs", mip_gap=1e-9)
    # the default master IP stops at mip_gap = 1 %: between the optimum and optimum / 0.99
    assert ref.objective_ - 1e-12 <= est.ip_objective_ <= ref.objective_ / (1 - est.mip_gap)


# ------------------------------------------------------------------ smoothed scores
def test_scores_are_pattern_shares_never_certain_and_follow_predict():
    """On a noisy table: no probability is 0 or 1, argmax(predict_proba) == predict on every
    row, and each row's probability is the share of its pattern (the rules that fire, or
    the literals each rule misses) shrunk twice with estimated strengths, recomputed by
    hand (tests.helpers.pattern_scores_by_hand); the probabilities rank better than the
    rules alone do (more distinct values, a higher AUC on held-out rows)."""
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import train_test_split

    from optirules.data import load_dataset
    from tests.helpers import pattern_scores_by_hand

    X, y = load_dataset("liver_disorders_bupa")
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, stratify=y, random_state=0)
    est = BooleanRuleSetClassifier(binarizer="auto", random_state=0).fit(X_tr, y_tr)
    pos = y_tr == est.classes_[1]
    assert est.class_prior_ == pytest.approx(pos.mean())
    for Z in (X_tr, X_te):
        p = est.predict_proba(Z)
        assert ((p > 0) & (p < 1)).all()
        np.testing.assert_array_equal(est.classes_[p.argmax(axis=1)], est.predict(Z))
        expect = pattern_scores_by_hand(est.dnf_rules_.unmet(X_tr), pos,
                                        est.dnf_rules_.unmet(Z))
        hit = est.decision_rules(Z).any(axis=1)
        # away from 1/2 the probability is the pattern's share; across it, moved just over
        ok = (expect > 0.5) == hit
        assert ok.mean() > 0.8
        np.testing.assert_allclose(p[ok, 1], expect[ok], rtol=1e-4)
        assert np.all(np.abs(p[~ok, 1] - 0.5) <= 1e-6)
    rules_only = est._ovr_rank(X_te)  # the best rule that fires: a few values
    assert len(np.unique(p[:, 1])) > len(np.unique(rules_only))
    assert roc_auc_score(y_te, p[:, 1]) > roc_auc_score(y_te, rules_only)


@pytest.mark.parametrize("field, value", [("rule_precision", 5.0), ("default_precision", -3.0),
                                          ("rule_support", float("nan")),
                                          ("class_prior", "abc"), ("rule_support", None)])
def test_damaged_scores_in_json_are_refused(field, value):
    import json

    X, y = binary_data(3)
    est = BooleanRuleSetClassifier(random_state=0).fit(X, y)
    data = json.loads(est.to_json())
    scores = data["scores"]
    if isinstance(scores[field], list):
        scores[field] = [value] * len(scores[field]) or [value]
    else:
        scores[field] = value
    with pytest.raises(InputError, match="scores"):
        BooleanRuleSetClassifier.from_json(json.dumps(data))


@pytest.mark.parametrize("scale,match", [(1e300, "below the solvers' tolerances"),
                                         (1e-300, "fewer than one row")])
@pytest.mark.parametrize("cls", [BooleanRuleSetClassifier, DRORuleEnsembleClassifier])
def test_sample_weights_of_no_row_count_are_refused_for_the_auto_penalty(scale, match, cls):
    """The penalty 'auto' counts the sum of sample_weight as rows: 1e300 each made it 1e-153,
    so the fit bought a rule per row and printed a gap of 10^136 %; 1e-300 made it 1e147.
    Both are refused before any work; rescaled weights, or penalties set by hand, fit."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(80, 4))
    y = X[:, 0] | X[:, 1]
    params = {} if cls is BooleanRuleSetClassifier else dict(
        member=BooleanRuleSetClassifier(lambda0="auto", lambda1="auto"))
    with pytest.raises(InputError, match=match) as err:
        cls(**params).fit(X, y, sample_weight=np.full(80, scale))
    assert "Rescale sample_weight" in str(err.value)
    est = BooleanRuleSetClassifier(lambda0=0.001, lambda1=0.001).fit(
        X, y, sample_weight=np.full(80, scale))
    assert est.predict(X).tolist() == y.tolist()


def test_the_certified_bound_is_never_below_zero():
    """The master objective is a sum of non-negative terms, so the certified bound is at
    least 0 and the relative gap at most 100 %, whatever kappa makes of a tiny penalty."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(300, 10))
    y = np.where(rng.random(300) < 0.3, 1 - (X[:, 0] & X[:, 1]), X[:, 0] & X[:, 1])
    est = BooleanRuleSetClassifier(lambda0=1e-13, lambda1=1e-13, max_iter=2, tol=0).fit(X, y)
    assert est.gap_certified_
    assert 0.0 <= est.lp_bound_ <= est.ip_objective_ and 0.0 <= est.gap_ <= 1.0
    assert "certified gap" in str(est) and "e+" not in str(est).split("certified gap")[1]


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_pattern_probabilities_survive_json_and_damage_is_named(form):
    """The pattern table (and, for a CNF, the DNF whose literals it counts) goes through
    to_json/from_json: the loaded model's probabilities are the fitted one's; a damaged
    pattern code is refused with the field named; a file saved before the table scores
    by the rules, as such files did."""
    import json

    from optirules.data import load_dataset

    X, y = load_dataset("heart_cleveland")
    est = BooleanRuleSetClassifier(form=form, random_state=0).fit(X, y)
    back = BooleanRuleSetClassifier.from_json(est.to_json())
    np.testing.assert_array_equal(back.predict_proba(X), est.predict_proba(X))
    doc = json.loads(est.to_json())
    doc["scores"]["patterns"][0][0] = [1] + [0] * len(est.clauses_)  # no rule fires
    with pytest.raises(InputError, match="scores.patterns"):
        BooleanRuleSetClassifier.from_json(json.dumps(doc))
    doc = json.loads(est.to_json())
    for key in ("patterns", "side_scores", "score_strengths", "dnf_rules"):
        doc["scores"].pop(key, None)
    old = BooleanRuleSetClassifier.from_json(json.dumps(doc))
    np.testing.assert_array_equal(old.predict(X), est.predict(X))
    rank = est._ovr_rank(X)
    np.testing.assert_allclose(old.decision_function(X), rank)
