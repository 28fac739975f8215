"""all_clauses: the full column set of the rule master, checked against a brute force."""

from __future__ import annotations

import itertools

import numpy as np

from optirules.models import all_clauses


def test_all_clauses_are_exactly_the_conjunctions_covering_a_positive_row():
    rng = np.random.default_rng(0)
    A = rng.random((12, 6)) < 0.5
    y = rng.integers(0, 2, 12)
    got = all_clauses(A, y, max_degree=3)
    want = [c for d in (1, 2, 3) for c in itertools.combinations(range(6), d)
            if any(A[i, list(c)].all() and y[i] == 1 for i in range(12))]
    assert got == want
    # with names, pairs of literals on one feature are left out
    names = ["a <= 1", "a > 1", "b == x", "b == y", "c <= 2", "c > 2"]
    named = all_clauses(A, y, max_degree=2, names=names)
    assert all(len({names[j].split(" ")[0] for j in c}) == len(c) for c in named)
    assert set(named) == {c for c in all_clauses(A, y, max_degree=2)
                          if len({names[j].split(" ")[0] for j in c}) == len(c)}
