"""Margins, pairwise disagreement and kappa (the QMM paper diversity tools; the CMD plot is
tested in tests/test_plotting.py)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

from optirules.errors import InputError
from tests.internals import (
    diversity_ensemble_margins as ensemble_margins,
)
from tests.internals import (
    ensemble_diversity,
    kappa_statistic,
    pairwise_disagreement,
    pairwise_kappa,
)


def _random_H(seed: int, n: int = 40, T: int = 7) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.where(rng.random((n, T)) < rng.uniform(0.2, 0.8, T), 1, -1)


def test_margins_are_the_weighted_vote_times_the_label():
    H = np.array([[1, 1, -1], [-1, 1, -1], [1, -1, -1], [-1, -1, 1]])
    y = np.array([1, -1, 1, 1])
    a = np.array([2.0, 1.0, 1.0])  # normalised to (0.5, 0.25, 0.25)
    expected = y * (0.5 * H[:, 0] + 0.25 * H[:, 1] + 0.25 * H[:, 2])
    np.testing.assert_allclose(ensemble_margins(H, y, a), expected)
    np.testing.assert_allclose(expected, [0.5, 0.5, 0.0, -0.5])
    # uniform weights by default
    np.testing.assert_allclose(ensemble_margins(H, y), y * H.mean(axis=1))


def test_disagreement_matches_brute_force():
    H = _random_H(1)
    D = pairwise_disagreement(H)
    for a, b in itertools.combinations(range(H.shape[1]), 2):
        assert D[a, b] == pytest.approx(np.mean(H[:, a] * H[:, b] < 0))
        assert D[a, b] == D[b, a]
    assert np.all(np.diag(D) == 0)
    T = H.shape[1]
    brute = np.mean([np.mean(H[:, a] != H[:, b]) for a, b in itertools.combinations(range(T), 2)])
    assert ensemble_diversity(H) == pytest.approx(brute)
    assert ensemble_diversity(H[:, :1]) == 0.0


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(5, 60))
def test_kappa_equals_sklearn_cohen_kappa(seed, n):
    rng = np.random.default_rng(seed)
    a = np.where(rng.random(n) < rng.uniform(0.1, 0.9), 1, -1)
    b = np.where(rng.random(n) < 0.3, -a, a) if seed % 2 else np.where(rng.random(n) < 0.5, 1, -1)
    ref = cohen_kappa_score(a, b)
    if np.isnan(ref):  # both constant and equal: we define kappa = 1
        assert np.all(a == b)
        assert kappa_statistic(a, b) == 1.0
    else:
        assert kappa_statistic(a, b) == pytest.approx(ref, abs=1e-12)


def test_pairwise_kappa_matrix_equals_sklearn_pair_by_pair():
    H = _random_H(3, n=50, T=6)
    H[:, 5] = -H[:, 0]  # a perfectly disagreeing pair
    K = pairwise_kappa(H)
    for a, b in itertools.combinations(range(H.shape[1]), 2):
        assert K[a, b] == pytest.approx(cohen_kappa_score(H[:, a], H[:, b]), abs=1e-12)
        assert K[a, b] == pytest.approx(kappa_statistic(H[:, a], H[:, b]), abs=1e-12)
    assert np.all(np.diag(K) == 1.0)
    assert K[0, 5] == pytest.approx(cohen_kappa_score(H[:, 0], H[:, 5]))
    assert K[0, 5] < 0


def test_kappa_of_identical_constant_members_is_one():
    H = np.ones((10, 2))
    assert pairwise_kappa(H)[0, 1] == 1.0
    # constant but opposite members: theta1 = 0, theta2 = 0, kappa = 0
    H[:, 1] = -1
    assert pairwise_kappa(H)[0, 1] == 0.0
    assert cohen_kappa_score(H[:, 0], H[:, 1]) == 0.0


def test_bad_member_matrices_raise_input_error():
    with pytest.raises(InputError, match="-1 and \\+1"):
        pairwise_kappa(np.array([[0, 1], [1, 0]]))
    with pytest.raises(InputError):
        pairwise_disagreement(np.zeros((0, 3)))
    with pytest.raises(InputError):
        kappa_statistic([1, -1], [1])
