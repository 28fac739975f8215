"""The BruteDL search DecisionListCV shares across its grid
(``optirules.learners._decision_list._grid`` and ``_decision_list_dense``): every list it
returns is the list the exhaustive search grows for that ``min_coverage`` alone, and the
counts and bounds it keeps are those of brute force.

(The private modules are imported here directly; ``tests/internals.py`` is the usual
place for them.)
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from tests.internals import grow_decision_list, laplace_accuracy, minimum_osr, minimum_osr_rows
from tests.internals import learners_decision_list_dense_module as dense
from tests.internals import learners_decision_list_grid_module as grid
from tests.internals import learners_decision_list_shared_module as shared

COVERAGES = [1, 2, 5, 10, 20]


def _onehot(codes, n_values):
    n, p = codes.shape
    offsets = np.concatenate([[0], np.cumsum(n_values)[:-1]])
    onehot = np.zeros((int(np.sum(n_values)), n), dtype=bool)
    for j in range(p):
        onehot[offsets[j] + codes[:, j], np.arange(n)] = True
    return onehot, np.repeat(np.arange(p), n_values)


def _data(seed, n=None, p=None, k=None, weights=None):
    """Codes with a planted signal (depth-2 and depth-3 rules pay), classes and weights."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(30, 260)) if n is None else n
    p = int(rng.integers(2, 7)) if p is None else p
    k = int(rng.integers(2, 4)) if k is None else k
    n_values = rng.integers(1, 5, size=p)
    codes = np.column_stack([rng.integers(0, v, size=n) for v in n_values])
    signal = (codes[:, 0] + (codes[:, min(1, p - 1)] == 0) * (codes[:, -1] % 2)) % k
    y = np.where(rng.random(n) < 0.2, rng.integers(0, k, size=n), signal)
    if weights == "int":
        w = rng.integers(1, 4, size=n).astype(float)
    elif weights == "few":  # few distinct values: class_weight-like
        w = rng.choice([0.5, 1.25, 3.0], size=n)
    else:
        w = None
    return codes, y.astype(np.int64), k, n_values, w


def _same(a, b):
    steps_a, rem_a, stop_a = a
    steps_b, rem_b, stop_b = b
    assert stop_a == stop_b
    np.testing.assert_array_equal(rem_a, rem_b)
    assert [s["conj"] for s in steps_a] == [s["conj"] for s in steps_b]
    for s, t in zip(steps_a, steps_b):
        assert s["laplace"] == t["laplace"] and s["coverage"] == t["coverage"]
        assert s["counts"].dtype == t["counts"].dtype
        np.testing.assert_array_equal(s["counts"], t["counts"])


@pytest.fixture(params=["dense", "pairs"])
def mode(request, monkeypatch):
    """Both ways of the shared search: every conjunction's counts kept, or the pair table
    with the cached bounds of the depth-3 extensions."""
    if request.param == "pairs":
        monkeypatch.setattr(grid, "MAX_DENSE_CELLS", 0)
    else:
        monkeypatch.setattr(grid, "MAX_DENSE_CELLS", 1 << 30)
        monkeypatch.setattr(grid, "MAX_DENSE_ENTRIES", 1 << 30)
    return request.param


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("degree", [1, 2, 3])
def test_every_list_equals_the_exhaustive_search_alone(mode, seed, degree):
    weights = [None, "int", "few"][seed % 3]
    codes, y, k, n_values, w = _data(seed, weights=weights)
    max_rules = 4 if seed % 4 == 3 else None
    onehot, av_attr = _onehot(codes, n_values)
    got = shared.grid_lists(codes, y, k, n_values, degree, COVERAGES, max_rules, weights=w)
    for c, lists in zip(COVERAGES, got):
        _same(grow_decision_list(onehot, y, k, av_attr, degree, c, max_rules, weights=w),
              lists)


@pytest.mark.parametrize("seed", range(3))
def test_wide_data_with_long_lists(mode, seed):
    # many attributes and rows: the lists part at different steps, the depth-3 cache is
    # reused over many steps
    codes, y, k, n_values, w = _data(100 + seed, n=400, p=9, k=2)
    onehot, av_attr = _onehot(codes, n_values)
    coverages = [2, 3, 8, 30]
    got = shared.grid_lists(codes, y, k, n_values, 3, coverages, weights=w)
    for c, lists in zip(coverages, got):
        _same(grow_decision_list(onehot, y, k, av_attr, 3, c, weights=w), lists)


def test_real_rows_numeric_and_categorical(mode):
    from optirules.data import load_dataset
    from optirules.learners import DecisionListClassifier

    for name in ("heart_statlog", "house_votes_84"):
        X, y = load_dataset(name)
        est = DecisionListClassifier(max_degree=1, min_coverage=10**6).fit(X, y)
        n_values = np.array([len(f.categories) for f in est.features_])
        onehot, av_attr = _onehot(est.train_codes_, n_values)
        coverages = [2, 5, 20, 40]
        got = shared.grid_lists(est.train_codes_, est.train_y_, 2, n_values, 3, coverages)
        for c, lists in zip(coverages, got):
            _same(grow_decision_list(onehot, est.train_y_, 2, av_attr, 3, c), lists)


def test_the_order_of_the_coverages_is_kept_and_repeats_are_answered():
    codes, y, k, n_values, _ = _data(7)
    a = shared.grid_lists(codes, y, k, n_values, 2, [10, 1, 5])
    b = shared.grid_lists(codes, y, k, n_values, 2, [1, 5, 10])
    for i, j in [(0, 2), (1, 0), (2, 1)]:
        _same(a[i], b[j])


def test_what_is_not_shared_returns_none(monkeypatch):
    codes, y, k, n_values, _ = _data(3, n=60)
    assert shared.grid_lists(codes, y, k, n_values, 4, [2]) is None
    many = np.arange(1, 61, dtype=float)  # 60 distinct weights: more groups than shared
    assert shared.grid_lists(codes, y, k, n_values, 2, [2], weights=many) is None
    monkeypatch.setattr(grid, "MAX_PAIR_CELLS", 0)
    assert shared.grid_lists(codes, y, k, n_values, 2, [2]) is None
    assert shared.grid_lists(codes, y, k, n_values, 1, [2]) is not None  # no pairs needed


def test_a_passed_deadline_stops_every_list_before_its_first_rule():
    codes, y, k, n_values, _ = _data(5)
    for steps, remaining, stop in shared.grid_lists(codes, y, k, n_values, 3, [1, 4],
                                                  deadline=0.0):
        assert steps == [] and stop == "time_limit" and remaining.size == codes.shape[0]


def test_stop_reasons_min_coverage_and_not_better_than_default():
    codes, y, k, n_values, _ = _data(11, n=50)
    onehot, av_attr = _onehot(codes, n_values)
    got = shared.grid_lists(codes, y, k, n_values, 3, [1, 10**6])
    assert got[1] == ([], got[1][1], "min_coverage")
    _same(got[0], grow_decision_list(onehot, y, k, av_attr, 3, 1))
    pure = np.zeros(50, dtype=np.int64)
    pure[:2] = 1  # no rule beats the default rule's Laplace accuracy on noise like this
    codes_noise = np.zeros((50, 1), dtype=np.int64)
    res = shared.grid_lists(codes_noise, pure, 2, np.array([1]), 2, [1])[0]
    assert res[0] == [] and res[2] == "not_better_than_default"


@pytest.mark.parametrize("seed", range(4))
def test_pair_and_dense_counts_equal_brute_force(seed):
    weights = [None, "few"][seed % 2]
    codes, y, k, n_values, w = _data(200 + seed, p=5, weights=weights)
    rows = grid._Rows(codes, y, k, n_values, w, 3, True)
    n = codes.shape[0]
    offsets = np.concatenate([[0], np.cumsum(n_values)[:-1]])
    member = {u: codes[:, np.searchsorted(offsets, a, side="right") - 1]
              == a - offsets[np.searchsorted(offsets, a, side="right") - 1]
              for u, a in enumerate(rows.uav)}

    def brute(mask):
        if w is None:
            return np.bincount(y[mask], minlength=k)
        return rows.class_counts(np.bincount(rows.lab[mask], minlength=rows.n_groups))

    # the useful tests: those covering c_min rows (weight), in attribute/value order
    cover = [brute(member[u]).sum() for u in range(rows.n_u)]
    assert min(cover, default=3) >= 3
    assert list(rows.uav) == sorted(rows.uav)
    # every pair of tests on distinct attributes, in lexicographic order
    expected = [(u, v) for u, v in combinations(range(rows.n_u), 2)
                if rows.attr[u] < rows.attr[v]]
    assert list(zip(rows.p1, rows.p2)) == expected
    pair = rows.class_counts(rows.pair_counts(np.arange(n)))
    for i, (u, v) in enumerate(expected):
        np.testing.assert_array_equal(pair[i], brute(member[u] & member[v]))
    # the dense cells: depth 1, 2, 3, each in lexicographic order, with their counts
    search = dense.DenseSearch(rows, 3, [3], None, None)
    cells = [(u,) for u in range(rows.n_u)] + expected + [
        (u, v, t) for u, v, t in combinations(range(rows.n_u), 3)
        if rows.attr[u] < rows.attr[v] < rows.attr[t]]
    assert [tuple(int(a) for a in c if a >= 0) for c in search.tests] == cells
    counts = rows.class_counts(search.root().counts)
    for i, cell in enumerate(cells):
        mask = np.logical_and.reduce([member[u] for u in cell])
        np.testing.assert_array_equal(counts[i], brute(mask))
    assert dense.dense_size(rows, 3)[0] == len(cells)


@pytest.mark.parametrize("seed", range(6))
def test_cached_bounds_hold_after_rows_are_removed(seed, monkeypatch):
    # the bound of a pair's extensions, read from its cache after the pair lost rows, is
    # never below the best Laplace accuracy an extension reaches on the rows left
    monkeypatch.setattr(grid, "MAX_DENSE_CELLS", 0)
    codes, y, k, n_values, _ = _data(300 + seed, n=200, p=5, k=2)
    c = 2
    rows = grid._Rows(codes, y, k, n_values, None, c, True)
    search = grid._Search(rows, 3, [c], None, None)
    node = search.root()
    rem_idx = np.arange(rows.n)
    c2 = node.t2
    parents = np.flatnonzero(c2.sum(axis=1) >= c)
    ub = np.full((rows.n2, 1), np.inf)
    found = [(-1.0, -1.0, -1, None)]
    from tests.internals import _Counter, pack_rows

    avb = pack_rows(rows.onehot)
    class_bits = pack_rows(y[None, :] == np.arange(k)[:, None])
    counter = _Counter(class_bits, avb.shape[1], 1 << 16)
    tot1 = rows.test_counts(rem_idx).sum(axis=1)
    search._extend(parents, (node, avb, counter, [c], c2, tot1, np.array([-1.0]), found, ub))
    rng = np.random.default_rng(seed)
    gone = rng.random(rows.n) < 0.15
    left = ~gone
    now = rows.pair_counts(np.flatnonzero(left))
    bound = search._cached_bound(node, np.arange(rows.n2), now.astype(float))
    for i in parents[:300]:
        u, v = rows.p1[i], rows.p2[i]
        best = -1.0
        for t in range(rows.first[rows.attr[v] + 1], rows.n_u):
            mask = rows.onehot[u] & rows.onehot[v] & rows.onehot[t] & left
            cnt = np.bincount(y[mask], minlength=k)
            if cnt.sum() >= c:
                best = max(best, laplace_accuracy(cnt, k))
        assert bound[i] >= best - 1e-6


def test_osr_of_many_rows_equals_osr_row_by_row():
    rng = np.random.default_rng(0)
    for trial in range(60):
        n, p, k = int(rng.integers(1, 80)), int(rng.integers(1, 6)), int(rng.integers(2, 4))
        n_values = rng.integers(1, 5, size=p)
        codes = np.column_stack([rng.integers(0, v, size=n) for v in n_values])
        y = rng.integers(0, k, size=n)
        w = None if trial % 2 else rng.choice([0.5, 1.0, 2.5], size=n)
        m = int(rng.integers(1, 30))
        X = np.column_stack([rng.integers(-1, v, size=m) for v in n_values])
        X_missing = rng.random((m, p)) < 0.15
        missing_codes = np.where(rng.random(p) < 0.3, 0, -1)
        got = minimum_osr_rows(codes, y, n_values, X, X_missing, k, 0.9, missing_codes,
                               weights=w)
        for i in range(m):
            ref = minimum_osr(codes, y, n_values, X[i], X_missing[i], k, 0.9, missing_codes,
                              weights=w)
            assert (got[i].path, got[i].stop, got[i].used_default, got[i].steps) == (
                ref.path, ref.stop, ref.used_default, ref.steps)
            np.testing.assert_array_equal(got[i].class_counts, ref.class_counts)
