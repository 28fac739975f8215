"""Wide tables (many more literals than rows): the literal screen of exact pricing gives the
clauses and bounds of the unscreened enumeration, and ``max_degree="auto"`` drops to single
literals with a certificate over them that the status names."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from optirules.errors import InputError
from optirules.models import (
    EnumerationPricer,
    column_generation,
    reduced_costs,
    resolve_max_degree,
)


def _brute_min(A, v, comp, degree, conflicts=()):
    bad = {tuple(c) for c in conflicts}
    best = 0.0
    for d in range(1, degree + 1):
        for c in itertools.combinations(range(A.shape[1]), d):
            if any(p in bad for p in itertools.combinations(c, 2)):
                continue
            best = min(best, comp[d] + v[A[:, list(c)].all(axis=1)].sum())
    return best


def _instance(seed):
    """A small literal matrix (with complement pairs on odd seeds, conflicts on some) and
    row prices: label-0 rows cost, some label-1 rows pay, others have a dual of 0."""
    rng = np.random.default_rng(seed)
    n, p = int(rng.integers(12, 40)), int(rng.integers(4, 10))
    X = rng.random((n, p)) < rng.uniform(0.2, 0.8)
    A = np.hstack([X, ~X]) if seed % 2 else X
    conflicts = np.array([(j, j + p) for j in range(p)]) if seed % 4 == 1 else None
    v = np.where(rng.random(n) < 0.5, rng.random(n) * 0.05,
                 -rng.random(n) * 0.06 * (rng.random(n) < 0.5))
    return A, v, conflicts


COMP = [0.0, 0.02, 0.03, 0.04]


@pytest.fixture(params=["probe", "no probe"])
def probe(request, monkeypatch):
    """The screen with its probe on every instance (a probe of 4 literals), or never."""
    from tests.internals import models_enumeration_module

    monkeypatch.setattr(models_enumeration_module, "_PROBE_LITERALS",
                        4 if request.param == "probe" else 10**9)
    return request.param


@pytest.mark.parametrize("seed", range(12))
def test_screen_gives_the_unscreened_clauses_and_a_valid_bound(seed, probe):
    """The clauses, the lower bound and the proof are those of ``screen=False``, and the
    bound is at most the brute-force minimum (equal to it when the search is complete)."""
    A, v, conflicts = _instance(seed)
    for degree in (2, 3):
        for need_proof in (True, False):
            plain = EnumerationPricer(A, screen=False, conflicts=conflicts)
            cut = EnumerationPricer(A, screen=True, conflicts=conflicts)
            a = plain.price(v, COMP, degree, k=5, need_proof=need_proof)
            b = cut.price(v, COMP, degree, k=5, need_proof=need_proof)
            assert [c for c, _ in b[0]] == [c for c, _ in a[0]]
            np.testing.assert_allclose([r for _, r in b[0]], [r for _, r in a[0]],
                                       rtol=0, atol=1e-12)
            assert b[1] == pytest.approx(a[1], abs=1e-12)
            # the screen can only make the search more complete (it proves the screened
            # triples' bound without the degree-3 pass that need_proof=False skips)
            assert b[2] or not a[2]
            best = _brute_min(A, v, COMP, degree, () if conflicts is None else conflicts)
            assert b[1] <= best + 1e-12
            if b[2]:
                assert b[1] == pytest.approx(best, abs=1e-12)
            assert plain.stats["literals_screened"] == 0


def test_the_screen_drops_literals_and_the_instances_have_improving_clauses(probe):
    """The instances above exercise the screen: most drop literals, most have a clause of
    two or more literals with a negative reduced cost."""
    dropped = improving = 0
    for seed in range(12):
        A, v, conflicts = _instance(seed)
        cut = EnumerationPricer(A, screen=True, conflicts=conflicts)
        cols, _, _ = cut.price(v, COMP, 3, k=5)
        dropped += cut.stats["literals_screened"] > 0
        improving += any(len(c) > 1 for c, _ in cols)
        assert cut.stats["screened_calls"] == (cut.stats["literals_screened"] > 0)
    assert dropped >= 6 and improving >= 6


def test_screened_column_generation_equals_the_unscreened_run(probe, monkeypatch):
    """A whole column generation at degree 2 with every call screened (with the probe: of
    200 of the 360 literals, whose threshold cuts more of them): the same pool, rule set,
    objectives and certified bound as the unscreened run."""
    from tests.internals import models_enumeration_module

    if probe == "probe":
        monkeypatch.setattr(models_enumeration_module, "_PROBE_LITERALS", 200)
    rng = np.random.default_rng(7)
    n, p = 40, 60
    Z = rng.standard_normal((n, p))
    y = (Z[:, 0] + Z[:, 1] > 0.3)
    X = np.hstack([Z > 0, Z > 0.8, Z > -0.8])
    A = np.hstack([X, ~X])
    P = np.full(n, 1.0 / n)
    runs = []
    for screen in (False, True):
        pricer = EnumerationPricer(A, screen=screen)
        runs.append((column_generation(A, y, P, lambda0=0.01, lambda1=0.01, max_degree=2,
                                       pricer=pricer), pricer.stats))
    (plain, _), (cut, stats) = runs
    assert stats["screened_calls"] == stats["calls"] > 1
    assert stats["literals_screened"] > 0
    assert runs[0][1]["pairs_scored"] > stats["pairs_scored"]
    assert cut.pool == plain.pool and cut.clauses == plain.clauses
    assert cut.ip_objective == pytest.approx(plain.ip_objective, abs=1e-12)
    assert cut.lp_bound == pytest.approx(plain.lp_bound, abs=1e-12)
    assert cut.certified and cut.converged == plain.converged
    assert "of at most 2 literals" in cut.stop_reason


@pytest.mark.parametrize("seed", [0, 3])
def test_screened_column_generation_at_degree_3_proves_the_same_lp_optimum(seed, probe):
    """At degree 3 the heuristic first pass (no proof asked for) extends the kept literals'
    pairs only, so the pool may differ (seed 3); the proof may not: both runs converge to
    the LP optimum over every clause, the same value."""
    rng = np.random.default_rng(seed)
    n, p = 40, 30
    Z = rng.standard_normal((n, p))
    y = (Z[:, 0] + Z[:, 1] > 0.3) | (Z[:, 2] > 1.2)
    X = np.hstack([Z > 0, Z > 0.8, Z > -0.8])
    A = np.hstack([X, ~X])
    P = np.full(n, 1.0 / n)
    plain, cut = (column_generation(A, y, P, lambda0=0.005, lambda1=0.005, max_degree=3,
                                    tol=0.0, pricer=EnumerationPricer(A, screen=screen))
                  for screen in (False, True))
    assert plain.converged and cut.converged
    assert cut.lp_objective == pytest.approx(plain.lp_objective, abs=1e-9)
    assert cut.lp_bound == pytest.approx(cut.lp_objective, abs=1e-9)
    assert "of at most 3 literals" in cut.stop_reason


def test_screen_is_checked():
    with pytest.raises(InputError, match="screen"):
        EnumerationPricer(np.ones((3, 2), dtype=bool), screen="yes")


def test_auto_degree_by_the_literal_count():
    assert resolve_max_degree("auto", (10**6, 288)) == 3
    assert resolve_max_degree("auto", (60, 289)) == 2
    assert resolve_max_degree("auto", (60, 20_000)) == 2
    assert resolve_max_degree("auto", (60, 20_001)) == 1
    assert resolve_max_degree(3, (60, 180_000)) == 3


def test_single_literal_proof_checked_by_brute_force():
    """At degree 1 the proof is that no literal has a negative reduced cost at the final
    duals: every one of them is priced here by hand."""
    rng = np.random.default_rng(3)
    n, p = 30, 400
    A = rng.random((n, p)) < 0.3
    y = A[:, 0] | (rng.random(n) < 0.2)
    P = np.full(n, 1.0 / n)
    res = column_generation(A, y, P, lambda0=0.01, lambda1=0.01, max_degree=1)
    assert res.converged and res.certified
    assert res.stop_reason == ("converged (exact pricing proved no improving clause of "
                               "1 literal)")
    r = reduced_costs(A, y, [(j,) for j in range(p)], res.info["duals"], sample_weight=P)
    assert r.min() >= -1e-9
    assert all(len(c) == 1 for c in res.pool)


def test_wide_numeric_table_fits_single_literal_rules_and_says_so():
    """40 rows of 1,200 numeric columns: over 20,000 literals, so ``"auto"`` gives degree 1,
    whose certificate the status and the text name."""
    from optirules.learners import BooleanRuleSetClassifier

    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 1200))
    y = X[:, 0] + X[:, 1] > 0
    est = BooleanRuleSetClassifier(random_state=0).fit(X, y)
    assert len(est.literals_) > 20_000
    assert est.max_degree_ == 1 and all(len(c) == 1 for c in est.clauses_)
    assert est.gap_certified_ and est.pricing_complete_
    assert "exact pricing proved no improving clause of 1 literal" in est.status_
    assert "over all rules of 1 literal" in est.to_text()


def test_dro_auto_degree_follows_the_rule_set_on_wide_tables():
    from tests.internals import dro_max_degree

    assert dro_max_degree("auto", (60, 60)) == 3
    assert dro_max_degree("auto", (10**6, 60)) == 2
    assert dro_max_degree("auto", (60, 20_000)) == 2
    assert dro_max_degree("auto", (60, 20_001)) == 1
    assert dro_max_degree(3, (60, 180_000)) == 3
