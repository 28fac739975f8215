"""The same rule set from every installed solver, for real: one name moves the restricted
master LP (which must return duals) *and* the pricing MILP and master IP to that solver, a
mapping {"lp": ..., "milp": ...} splits them.  HiGHS, SCIP and CBC (Gurobi and CPLEX where
importable and licensed) must reach the same optimum: the same certified LP bound (the LP
over all clauses, once pricing has proved that no clause improves it), the master IP's
optimum over the generated pool (the same objective as HiGHS's over the same pool), the same
rules where that optimum is unique, and the three LP paths
(direct highspy, Pyomo persistent, rebuild) the same LP value at the end of column
generation.  Every learner that takes ``solver`` fits with ``"scip"`` and ``"cbc"``, or is
refused before any work with a message that says which part no solver can take."""

from __future__ import annotations

import numpy as np
import pytest

from optirules.data import FeatureBinarizer, load_dataset
from optirules.errors import SolverError, SolverNotAvailableError
from optirules.learners import (
    BooleanRuleSetClassifier,
    BooleanRuleSetCV,
    QMMPruner,
)
from optirules.models import RuleMasterModel, column_generation
from optirules.solvers import available_solvers

from ._dro import dro

INFO = {s.name: s for s in available_solvers()}
MILP_SOLVERS = [n for n, s in INFO.items() if s.can("milp", "pyomo")]
DATASETS = ["monks1_train", "heart_statlog", "house_votes_84"]
# the exact settings (the defaults stop the master IP at a 1 % gap, where solvers may differ)
FIT = dict(binarizer="auto", max_degree=2, random_state=0, mip_gap=1e-6, tol=0.0)


def _fit(dataset: str, solver):
    X, y = load_dataset(dataset)
    try:
        return BooleanRuleSetClassifier(solver=solver, **FIT).fit(X, y)
    except SolverError as exc:  # a size-limited commercial licence
        if "licen" in str(exc).lower():
            pytest.skip(f"{solver}'s licence refused the model: {exc}")
        raise


@pytest.fixture(scope="module")
def highs_fits():
    return {name: _fit(name, "highs") for name in DATASETS}


def test_scip_and_cbc_are_among_the_swappable_solvers():
    missing = {"scip", "cbc"} - set(MILP_SOLVERS)
    if missing:
        pytest.skip(f"{', '.join(sorted(missing))} not installed: pip install -e '.[solvers]'")
    assert {"highs", "scip", "cbc"} <= set(MILP_SOLVERS)
    for name in ("scip", "cbc"):  # both can hold the LP part too (duals on some route)
        assert any(INFO[name].can("duals", r) for r in INFO[name].interfaces)


@pytest.mark.parametrize("solver", [s for s in MILP_SOLVERS if s != "highs"])
@pytest.mark.parametrize("dataset", DATASETS)
def test_every_solver_alone_gives_the_highs_optimum(highs_fits, solver, dataset):
    """One name: the restricted LP, the pricing and the IP all in ``solver``: the same
    certified LP bound as HiGHS, and the master IP's optimum over the pool it generated
    (the pool follows the LP's duals, which a degenerate LP does not fix: where the pools
    differ, the IPs over them may too)."""
    ref = highs_fits[dataset]
    est = _fit(dataset, solver)
    assert est.fit_info_["lp_solver"] == solver and est.fit_info_["milp_solver"] == solver
    assert est.pricing_complete_ and ref.pricing_complete_
    assert est.ip_status_ == "optimal" and ref.ip_status_ == "optimal"
    assert est.lp_bound_ == pytest.approx(ref.lp_bound_, rel=1e-6)
    assert est.ip_objective_ >= est.lp_bound_ - 1e-9
    A, y, P = est._train
    m = RuleMasterModel(A, y.astype(int), est.pool_, sample_weight=P, lambda0=est.lambda0_,
                        lambda1=est.lambda1_)
    m.solve("highs", mip_gap=1e-10)
    assert est.ip_objective_ == pytest.approx(m.objective_, rel=2e-6)
    if sorted(est.pool_) == sorted(ref.pool_):
        assert est.ip_objective_ == pytest.approx(ref.ip_objective_, rel=2e-6)
    assert est.max_degree_ == ref.max_degree_


def _unique_optimum(est) -> bool:
    """Whether the master IP over ``est``'s pool has one optimal rule set: the IP with a
    no-good cut on ``est``'s rules (any other set of w) is worse by more than 1e-7."""
    import pyomo.environ as pyo

    A, y, P = est._train
    m = RuleMasterModel(A, y.astype(int), est.pool_, sample_weight=P, lambda0=est.lambda0_,
                        lambda1=est.lambda1_)
    chosen = {f"clause_{est.pool_.index(c)}" for c in est.clauses_}
    w = m.model.w
    m.model.nogood = pyo.Constraint(expr=sum(w[k] for k in chosen) - sum(
        w[k] for k in w if k not in chosen) <= len(chosen) - 1)
    m.solve("highs", mip_gap=1e-10)
    return m.objective_ > est.ip_objective_ + 1e-7


@pytest.mark.parametrize("solver", [s for s in MILP_SOLVERS if s != "highs"])
@pytest.mark.parametrize("dataset", DATASETS)
def test_same_rules_where_the_optimum_is_unique(highs_fits, solver, dataset):
    """The LP in HiGHS (so the same pool), the MILP part in ``solver``: the same objective
    always, the same rules when the optimum over the pool is unique (checked by a no-good
    cut)."""
    ref = highs_fits[dataset]
    est = _fit(dataset, {"lp": "highs", "milp": solver})
    assert est.pool_ == ref.pool_
    assert est.ip_objective_ == pytest.approx(ref.ip_objective_, rel=1e-6)
    if _unique_optimum(ref):
        assert sorted(est.clauses_) == sorted(ref.clauses_)


@pytest.mark.parametrize("dataset", DATASETS)
def test_three_lp_paths_end_at_the_same_lp(dataset):
    """direct (highspy), persistent (Pyomo's persistent HiGHS) and rebuild (RuleMasterModel
    rebuilt each iteration, solved by HiGHS, CBC's CLP and SCIP through cvxpy): the same
    final LP value and certified bound (the pools, hence the IPs over them, may differ)."""
    X, y = load_dataset(dataset)
    A = np.asarray(FeatureBinarizer().fit(X).transform(X), dtype=bool)
    yb = y == np.unique(y)[1]
    P = np.full(len(y), 1.0 / len(y))
    kw = dict(max_degree=2, lambda0=0.001, lambda1=0.001)
    runs = {"direct": column_generation(A, yb, P, **kw),
            "persistent": column_generation(A, yb, P, master="persistent", **kw),
            "rebuild-highs": column_generation(A, yb, P, master="rebuild", **kw)}
    for s in ("cbc", "scip"):
        if s in INFO:
            runs[f"rebuild-{s}"] = column_generation(A, yb, P, solver={"lp": s}, **kw)
    ref = runs["direct"]
    for name, r in runs.items():
        assert r.converged, name
        assert r.history[-1]["lp_objective"] == pytest.approx(ref.history[-1]["lp_objective"],
                                                              rel=1e-6), name
        assert r.lp_bound == pytest.approx(ref.lp_bound, rel=1e-6), name
        # other duals, other columns: the IP over each pool is bounded by the same LP
        assert r.ip_objective >= ref.lp_bound - 1e-9, name
    assert [r.info["master"] for r in runs.values()][:3] == [
        "HighsRuleMaster", "PersistentRuleMaster", "RebuildRuleMaster"]


# ------------------------------------------------------------------ every learner
SWAP = [s for s in ("scip", "cbc") if s in INFO]


@pytest.mark.parametrize("solver", SWAP)
def test_rule_set_cv_fits_with_the_solver(solver):
    X, y = load_dataset("monks1_train")
    cv = BooleanRuleSetCV(BooleanRuleSetClassifier(solver=solver, **FIT),
                          penalties=(0.002, 0.01), cv=2).fit(X, y)
    assert cv.best_estimator_.fit_info_["milp_solver"] == solver
    assert cv.score(X, y) > 0.7


@pytest.mark.parametrize("solver", SWAP)
def test_dro_ensemble_fits_with_the_solver(solver):
    X, y = load_dataset("monks1_train")
    kw = dict(binarizer="auto", complexity=8, n_estimators=2, max_degree=2, random_state=0)
    ref = dro(**kw).fit(X, y)
    est = dro(solver=solver, **kw).fit(X, y)
    assert est.score(X, y) == pytest.approx(ref.score(X, y), abs=0.05)


def _members(seed=9):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(80) < 0.5, 1, -1)
    H = y[:, None] * np.where(rng.random((80, 8)) < 0.7, 1, -1)  # members right 70 % of rows
    return H, y, rng.uniform(0.5, 1.5, 8)


def test_qmm_pruner_takes_scip_and_refuses_cbc_before_any_work():
    """The QMM pruning problem is a QP: SCIP takes it (through cvxpy) and reaches
    Clarabel's weights; CBC solves no QP, and is refused up front, with the solvers
    that can."""
    H, y, alpha = _members()
    ref = QMMPruner(upsilon=0.5, member_weights=alpha).fit(H, y)
    if "scip" in INFO:
        est = QMMPruner(upsilon=0.5, member_weights=alpha, solver="scip").fit(H, y)
        np.testing.assert_allclose(est.weights_, ref.weights_, atol=1e-4)
    if "cbc" in INFO:
        with pytest.raises(SolverNotAvailableError, match="cannot serve the QMM pruning QP") \
                as err:
            QMMPruner(upsilon=0.5, member_weights=alpha, solver="cbc").fit(H, y)
        assert "QP (QMM pruning QP): " in str(err.value)
        able = str(err.value).split("QP (QMM pruning QP): ")[1].split(".")[0].split(", ")
        assert "clarabel" in able and "cbc" not in able
