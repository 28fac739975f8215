"""solver_support(): the formulation table against the capability table, and every claim
checked by a real solve of that formulation against a reference optimum."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from optirules.cli import main
from optirules.errors import InputError, SolverNotAvailableError
from optirules.learners import LEARNER_FORMULATIONS
from optirules.models import FORMULATIONS, formulation
from optirules.solvers import available_solvers, require_support, solver_support

SUPPORT = solver_support(FORMULATIONS, LEARNER_FORMULATIONS)
INFO = {s.name: s for s in available_solvers()}
CLAIMS = [(solver, f) for solver, s in SUPPORT.items() for f in s.formulations]


def test_support_follows_the_capabilities():
    for learner, forms in LEARNER_FORMULATIONS.items():
        assert set(forms) <= set(FORMULATIONS), learner
    for solver, sup in SUPPORT.items():
        info = INFO[solver]
        for f in FORMULATIONS:
            has = any(i in info.interfaces and all(info.can(c, i) for c in f.needs)
                      for i in f.interface.split("/"))
            assert (f.name in sup.formulations) == has, (solver, f.name)
        for learner, forms in LEARNER_FORMULATIONS.items():
            assert (learner in sup.learners) == all(f.name in sup.formulations for f in forms)


def test_known_support_of_the_base_install():
    highs, clarabel = SUPPORT["highs"], SUPPORT["clarabel"]
    assert {"rule master LP", "rule master IP", "rule pricing MILP", "DRO combination IP",
            "QMM pruning QP"} <= set(highs.formulations)
    assert "worst-case pmf (KL)" not in highs.formulations  # no exponential cone in HiGHS
    assert {"worst-case pmf (chi2)", "worst-case pmf (KL)", "QMM pruning QP"} <= set(
        clarabel.formulations)
    assert "rule master IP" not in clarabel.formulations  # cvxpy only, and no integers
    assert set(highs.learners) == set(LEARNER_FORMULATIONS)
    assert clarabel.learners == ("QMMPruner",)
    if "scip" in SUPPORT:  # no duals through Pyomo, but through cvxpy: the rebuild path
        assert "rule master LP" in SUPPORT["scip"].formulations
        assert "rule master IP" in SUPPORT["scip"].formulations
    assert "rule master LP" in clarabel.formulations  # an LP with duals through cvxpy
    if "cbc" in SUPPORT and "pyomo" not in INFO["cbc"].interfaces:
        assert SUPPORT["cbc"].formulations == ()


def test_require_support_refuses_before_any_work():
    """The issue's case: solver='scipy' for a rule set takes no Pyomo model, so the master IP
    would fail after the whole column generation; the check says so up front, and says
    which installed solvers can take which part."""
    with pytest.raises(SolverNotAvailableError, match="cannot take a Pyomo model") as err:
        require_support("scipy", LEARNER_FORMULATIONS["BooleanRuleSetClassifier"])
    text = str(err.value)
    assert "the MILP part" in text and "Installed solvers per part: LP with duals" in text
    lp_part = text.split("LP with duals (rule master LP): ")[1].split(";")[0].split(", ")
    milp_part = text.split("MILP (rule pricing MILP, rule master IP): ")[1].split(".")[0]
    assert "scipy" in lp_part and "highs" in lp_part and "highs" in milp_part.split(", ")
    assert "scipy" not in milp_part.split(", ")
    with pytest.raises(SolverNotAvailableError, match="cannot serve the worst-case pmf"):
        require_support("highs", formulation("worst-case pmf (KL)"))
    with pytest.raises(SolverNotAvailableError, match="Did you mean 'highs'"):
        require_support("higs", LEARNER_FORMULATIONS["QMMPruner"])
    with pytest.raises(InputError, match="unknown formulation"):
        formulation("rule master QP")
    with pytest.raises(InputError, match="takes Formulation objects"):
        require_support("highs", "rule master LP")
    assert require_support("HiGHS", LEARNER_FORMULATIONS["DRORuleEnsembleClassifier"]) == "highs"
    assert require_support("clarabel", formulation("worst-case pmf (KL)", "QMM pruning QP")) \
        == "clarabel"


def test_the_lp_part_needs_duals_on_one_route():
    """A solver whose LP route gives no duals cannot hold column generation's master LP."""
    from optirules.solvers import SolverInfo

    lp = next(f for f in FORMULATIONS if f.name == "rule master LP")
    no_duals = SolverInfo("x", ("pyomo",), frozenset({"lp"}), "0", (("pyomo", frozenset({"lp"})),))
    duals_elsewhere = SolverInfo("x", ("cvxpy", "pyomo"), frozenset({"lp", "duals"}), "0",
                                 (("cvxpy", frozenset({"lp", "duals"})),
                                  ("pyomo", frozenset({"lp"}))))
    assert not lp.served_by(no_duals) and lp.served_by(duals_elsewhere)


def test_require_support_takes_a_mapping_per_part():
    parts = require_support({"lp": "highs", "milp": "HiGHS"}, LEARNER_FORMULATIONS["BooleanRuleSetClassifier"])
    assert parts == {"lp": "highs", "milp": "highs"}
    assert require_support({"milp": "highs"}, LEARNER_FORMULATIONS["DRORuleEnsembleClassifier"]) == {
        "lp": "highs", "milp": "highs"}
    with pytest.raises(InputError, match="no part of"):
        require_support({"qp": "highs"}, LEARNER_FORMULATIONS["BooleanRuleSetClassifier"])
    with pytest.raises(SolverNotAvailableError, match="the MILP part") as err:
        require_support({"lp": "highs", "milp": "clarabel"}, LEARNER_FORMULATIONS["BooleanRuleSetClassifier"])
    assert "mapping from 'lp', 'milp'" in str(err.value)
    if "scip" in SUPPORT:
        assert require_support({"lp": "scip", "milp": "scip"}, LEARNER_FORMULATIONS["BooleanRuleSetCV"]) == {
            "lp": "scip", "milp": "scip"}


def test_cli_shows_formulations_per_solver(capsys):
    assert main(["solvers"]) == 0
    out = capsys.readouterr().out.splitlines()
    header = next(line for line in out if line.startswith("formulation"))
    solvers = header.split(")")[-1].split()
    assert solvers == list(SUPPORT)
    for f in FORMULATIONS:
        row = next(line for line in out if line.startswith(f.name + " ("))
        marks = row.split(")")[-1].split()
        assert marks == ["yes" if f.name in SUPPORT[s].formulations else "-" for s in solvers]
    for learner in LEARNER_FORMULATIONS:
        row = next(line for line in out if line.startswith(learner + " "))
        assert row.split()[1:] == ["yes" if learner in SUPPORT[s].learners else "-"
                                   for s in solvers]
    lp_row = next(line for line in out if line.startswith("lp: LP with duals"))
    marks = lp_row[len("lp: LP with duals"):].split()
    assert marks == ["yes" if "rule master LP" in SUPPORT[s].formulations else "-"
                     for s in solvers]
    assert marks[solvers.index("highs")] == "yes"
    if "scip" in solvers:  # duals through cvxpy, none through Pyomo
        assert marks[solvers.index("scip")] == "yes"


# ------------------------------------------------------------------ every claim, solved
def _rule_data():
    rng = np.random.default_rng(5)
    A = rng.random((40, 6)) < 0.5
    y = (A[:, 0] & A[:, 1]) | (rng.random(40) < 0.15)
    clauses = [c for k in (1, 2) for c in itertools.combinations(range(6), k)]
    return A, y.astype(int), clauses


def _solve_formulation(name: str, solver: str):
    """The formulation's optimum with ``solver``, and whatever else should match."""
    from optirules import models

    if name == "rule master LP":  # on the solver's route that returns duals
        A, y, clauses = _rule_data()
        m = models.RebuildRuleMaster(A, y, clauses, complexity=7.0, solver=solver)
        m.solve()
        return m.objective_, np.asarray(m.cover_duals_)
    if name == "rule master IP":
        A, y, clauses = _rule_data()
        m = models.RuleMasterModel(A, y, clauses, complexity=7.0)
        m.solve(solver)
        return m.objective_, None
    if name == "rule pricing MILP":
        A, y, _ = _rule_data()
        rng = np.random.default_rng(6)
        P = rng.dirichlet(np.ones(len(y)))
        mu = rng.uniform(0, 2.0 / len(y), int(y.sum()))
        m = models.RulePricingModel(models.RuleSetProblem(A, y, P, max_degree=2),
                                    models.PricingDuals(mu, 0.001))
        m.solve(solver)
        return m.objective_, None
    if name == "DRO combination IP":
        rng = np.random.default_rng(7)
        H = (rng.random((30, 6)) < 0.5).astype(int)
        y = (rng.random(30) < 0.5).astype(int)
        m = models.SparseCombinationModel(H, y, [2, 3, 2, 4, 3, 2], 7)
        m.solve(solver)
        return m.objective_, None
    if name.startswith("worst-case pmf"):
        z = np.random.default_rng(8).uniform(0, 1, 50)
        div = "kl" if "KL" in name else "chi2"
        m = models.WorstCasePmfModel(z, 0.1, div)
        m.solve(solver)
        return m.objective_, None
    if name == "QMM pruning QP":
        rng = np.random.default_rng(9)
        H = np.where(rng.random((60, 8)) < 0.7, 1, -1)
        y = np.ones(60)
        alpha = rng.uniform(0.5, 1.5, 8)
        m = models.QMMModel(H, y, alpha, upsilon=0.5)
        m.solve(solver)
        return m.objective_, None
    raise AssertionError(name)


def _reference(name: str):
    if name.startswith("worst-case pmf"):
        from optirules.models import worst_case_pmf

        z = np.random.default_rng(8).uniform(0, 1, 50)
        return float(worst_case_pmf(z, 0.1, "kl" if "KL" in name else "chi2") @ z)
    return _solve_formulation(name, "clarabel" if name == "QMM pruning QP" else "highs")[0]


@pytest.mark.parametrize("solver,formulation", CLAIMS, ids=[f"{s}-{f}" for s, f in CLAIMS])
def test_every_claim_solves_the_formulation(solver, formulation):
    objective, duals = _solve_formulation(formulation, solver)
    tol = 2e-3 if solver in ("scs", "osqp") else 1e-5
    assert objective == pytest.approx(_reference(formulation), abs=tol, rel=tol)
    if duals is not None:  # the LP served for column generation comes with its duals
        assert duals.shape == (int(_rule_data()[1].sum()),) and np.all(duals >= -1e-9)
