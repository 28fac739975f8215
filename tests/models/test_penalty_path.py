"""solve_penalty_path: one column generation for a path of penalties.  Each point's
certified bound and IP are checked against the master IP over every clause (solved by
HiGHS), and the path against separate runs."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from optirules.models import ColumnGenerationOptions as Options
from optirules.models import (
    RuleMasterModel,
    RuleSetProblem,
    solve_column_generation,
    solve_penalty_path,
)

PENALTIES = [(0.08, 0.08), (0.03, 0.02), (0.01, 0.01), (0.003, 0.001)]


def _problem(seed, n=160, f=5, noise=0.12, weighted=False):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, f)).astype(bool)
    y = ((X[:, 0] & X[:, 1]) | (X[:, 2] & ~X[:, 3])) ^ (rng.random(n) < noise)
    A = np.hstack([X, ~X])
    conflicts = [(j, j + f) for j in range(f)]
    w = rng.dirichlet(np.ones(n)) if weighted else None
    return RuleSetProblem(A, y, w, max_degree=2, conflicts=conflicts), A, y


def _optimum(A, y, P, l0, l1, conflicts):
    """The master IP over every clause of at most two literals without a conflict."""
    L = A.shape[1]
    bad = {tuple(c) for c in conflicts}
    clauses = [(j,) for j in range(L)] + [c for c in itertools.combinations(range(L), 2)
                                          if c not in bad]
    m = RuleMasterModel(A, y, clauses, sample_weight=P, lambda0=l0, lambda1=l1)
    m.solve("highs", mip_gap=1e-9)
    return m.objective_


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_point_is_certified_against_the_master_over_all_clauses(seed):
    problem, A, y = _problem(seed, weighted=seed == 2)
    path = solve_penalty_path(problem, PENALTIES, Options(tol=0.0, mip_gap=1e-9))
    assert len(path) == len(PENALTIES)
    pools = [len(r.pool) for r in path]
    assert pools == sorted(pools)  # the pool only grows along the path
    for (l0, l1), res in zip(PENALTIES, path):
        best = _optimum(A, y, problem.P, l0, l1, problem.conflicts)
        assert res.certified and res.converged
        assert res.lp_bound <= best + 1e-9 <= res.ip_objective + 2e-9
        assert res.ip_objective == pytest.approx(best, abs=1e-9)  # gap closed: tol 0


def test_the_path_equals_separate_runs_and_keeps_every_constraint():
    """At each penalty the path's IP objective is the separate run's (both certified
    optimal at tol 0), and a max_rules limit holds on every point."""
    problem, _, _ = _problem(3, n=200)
    limited = problem.replace(max_rules=1)
    for p in (problem, limited):
        path = solve_penalty_path(p, PENALTIES, Options(tol=0.0, mip_gap=1e-9))
        for (l0, l1), res in zip(PENALTIES, path):
            alone = solve_column_generation(p.replace(lambda0=l0, lambda1=l1),
                                            Options(tol=0.0, mip_gap=1e-9))
            assert res.ip_objective == pytest.approx(alone.ip_objective, abs=1e-9)
            if p.max_rules is not None:
                assert len(res.clauses) <= 1
    with pytest.raises(ValueError, match="at least one"):
        solve_penalty_path(problem, [])
