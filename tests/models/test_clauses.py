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


def test_all_clauses_refuses_a_count_past_its_bound_before_any_work():
    """The candidate count is known before enumerating: 50 literals up to degree 50 is
    2**50 - 1 clauses, refused at once with the count; a bad degree is refused too."""
    import math

    import pytest

    from optirules.errors import InputError

    A = np.ones((4, 50), dtype=bool)
    y = np.array([1, 0, 1, 0])
    with pytest.raises(InputError, match=r"1\.13e\+15 candidates"):  # at once: 2**50 - 1
        all_clauses(A, y, max_degree=50)
    assert f"{2**50 - 1:.3g}" == "1.13e+15" and math.comb(50, 1) == 50
    for bad in (0, -1, 2.5, True):
        with pytest.raises(InputError, match="max_degree"):
            all_clauses(A, y, max_degree=bad)
    assert len(all_clauses(A[:, :5], y, max_degree=2)) == 5 + 10
