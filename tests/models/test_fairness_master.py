"""The fairness rows of the rule master: the IP optimum and the LP bound of column
generation equal full enumeration over every clause of degree at most 2 on 8 literals
(36 clauses), for each fairness notion, and the rows are exact in the IP (the chosen rule
set's rates, counted on the rows, are within the tolerance)."""

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
KINDS = ["equal_opportunity", "predictive_equality", "equalized_odds"]


def _data(seed=3, n=80, n_groups=2):
    rng = np.random.default_rng(seed)
    A = rng.random((n, L)) < 0.5
    g = rng.integers(0, n_groups, n)
    A[:, 7] = g == 1  # a literal that is the group: unfair rules are easy to find
    y = ((A[:, 0] & A[:, 1]) | (A[:, 2] & ~A[:, 3]) | (A[:, 5] & A[:, 7])) \
        ^ (rng.random(n) < 0.1)
    return A, y, np.full(n, 1.0 / n), g


def _gaps(A, y, g, clauses):
    """Largest between-group differences of the miss rate of label 1 and of the cover
    rate of label 0, counted on the rows."""
    cov = np.zeros(len(y), bool)
    for c in clauses:
        cov |= A[:, list(c)].all(axis=1)
    groups = np.unique(g)
    fnr = [np.mean(~cov[y & (g == a)]) for a in groups]
    fpr = [np.mean(cov[~y & (g == a)]) for a in groups]
    return max(fnr) - min(fnr), max(fpr) - min(fpr)


def _brute(A, y, P, g, kind, eps, max_rules, lambda0):
    best = np.inf
    for r in range(max_rules + 1):
        for subset in itertools.combinations(CLAUSES, r):
            fnr, fpr = _gaps(A, y, g, subset)
            if kind != "predictive_equality" and fnr > eps + 1e-12:
                continue
            if kind != "equal_opportunity" and fpr > eps + 1e-12:
                continue
            best = min(best, master_objective(A, y, P, list(subset), lambda0, 0.0))
    return best


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("eps", [0.02, 0.1])
@pytest.mark.parametrize("seed", [3, 8])
def test_fair_master_equals_full_enumeration(kind, eps, seed):
    A, y, P, g = _data(seed)
    kw = dict(groups=g, fairness=kind, fairness_tolerance=eps, max_rules=2)
    res = column_generation(A, y, P, max_degree=2, **kw)
    problem = RuleSetProblem(A, y, P, **kw)
    full_lp = RuleMasterModel.from_problem(problem, CLAUSES, relax=True)
    full_lp.solve("highs")
    full_ip = RuleMasterModel.from_problem(problem, CLAUSES)
    full_ip.solve("highs")
    brute = _brute(A, y, P, g, kind, eps, 2, 0.0)
    # the declarative IP over every clause is the enumerated optimum
    assert full_ip.objective_ == pytest.approx(brute, abs=1e-9)
    # column generation proves the LP over every clause, and certifies its bound
    assert res.converged and res.certified
    assert res.lp_objective == pytest.approx(full_lp.objective_, abs=1e-9)
    assert res.lp_bound == pytest.approx(res.lp_objective, abs=1e-9)
    # the IP over the generated pool is never below the optimum over every clause
    assert res.ip_objective >= brute - 1e-9
    assert res.lp_bound <= brute + 1e-9
    fnr, fpr = _gaps(A, y, g, res.clauses)
    if kind != "predictive_equality":
        assert fnr <= eps + 1e-9
    if kind != "equal_opportunity":
        assert fpr <= eps + 1e-9


def test_penalty_form_three_groups_and_the_rebuilt_master():
    """Three groups (six rows per rate), the penalty form, and the Pyomo route give the
    LP optimum of the declarative model over every clause, with a certified bound."""
    A, y, P, g = _data(11, n=90, n_groups=3)
    kw = dict(groups=g, fairness="equalized_odds", fairness_tolerance=0.1)
    full_lp = RuleMasterModel.from_problem(
        RuleSetProblem(A, y, P, lambda0=0.01, lambda1=0.002, **kw), CLAUSES, relax=True)
    full_lp.solve("highs")
    for master in ("direct", "rebuild"):
        res = column_generation(A, y, P, max_degree=2, lambda0=0.01, lambda1=0.002,
                                master=master, **kw)
        assert res.converged, master
        assert res.lp_objective == pytest.approx(full_lp.objective_, abs=1e-8)
        assert res.lp_bound <= res.ip_objective + 1e-12
        fnr, fpr = _gaps(A, y, g, res.clauses)
        assert fnr <= 0.1 + 1e-9 and fpr <= 0.1 + 1e-9


def test_unconstrained_fit_is_unfair_here():
    """The data are built so that the fairness rows bind."""
    A, y, P, g = _data(3)
    free = column_generation(A, y, P, max_degree=2, max_rules=2)
    fair = column_generation(A, y, P, max_degree=2, max_rules=2, groups=g,
                             fairness="equal_opportunity", fairness_tolerance=0.02)
    assert _gaps(A, y, g, free.clauses)[0] > 0.02
    assert fair.ip_objective > free.ip_objective


def test_the_rows_are_named_in_the_exported_model(tmp_path):
    A, y, P, g = _data(3)
    m = RuleMasterModel.from_problem(
        RuleSetProblem(A, y, P, groups=g, fairness="equalized_odds", fairness_tolerance=0.05),
        CLAUSES[:6])
    path = tmp_path / "fair.lp"
    m.write(path)
    text = path.read_text()
    for name in ("fnr", "fpr", "exact_pos", "exact_neg", "neg_cover"):
        assert name in text


@pytest.mark.parametrize("kw,match", [
    (dict(fairness="parity", groups=None), "fairness"),
    (dict(fairness="equal_opportunity", groups=None), "protected attribute"),
    (dict(fairness="equal_opportunity", groups=np.zeros(80)), "single group"),
    (dict(fairness="equal_opportunity", groups=np.zeros(5)), "one value per row"),
    (dict(fairness="equal_opportunity", groups=np.r_[np.zeros(79), 1],
          fairness_tolerance=0.1), "no label-1 row|no label-0 row"),
    (dict(fairness="equal_opportunity", groups=np.arange(80) % 2,
          fairness_tolerance=1.5), "fairness_tolerance"),
    (dict(fairness="equal_opportunity", groups=np.arange(80) % 2, master="merged"),
     "fairness"),
    (dict(fairness="equal_opportunity", groups=np.arange(80) % 2, exact_method="milp"),
     "enumeration"),
])
def test_bad_fairness_input_is_refused_before_any_work(kw, match):
    A, y, P, _ = _data(3)
    if kw.get("groups") is not None and len(kw["groups"]) == 80 and \
            kw["groups"].sum() == 1:
        # the one row of group 1 is label 0 or 1: ask for the rate it cannot have
        kind = "equal_opportunity" if not y[-1] else "predictive_equality"
        kw = {**kw, "fairness": kind}
    with pytest.raises(InputError, match=match):
        column_generation(A, y, P, max_degree=1, **kw)
