"""The QMM paper's pruning experiment: quick run, Table 4 formatting, booster, examples."""

from __future__ import annotations

import time

import numpy as np
import pytest
from sklearn.ensemble import AdaBoostClassifier
from sklearn.tree import DecisionTreeClassifier

from optirules.learners import ResampledAdaBoostClassifier
from tests.internals import (
    ABLATIONS,
    ADABOOST_BY,
    SEED_TABLE4,
    load_numeric,
    noisy_diagonal,
    table4,
)
from tests.internals import (
    pruning_format_table as format_table,
)
from tests.internals import (
    pruning_METHODS as METHODS,
)
from tests.internals import (
    pruning_run as run,
)


@pytest.fixture(scope="module")
def quick():
    t0 = time.process_time()  # CPU seconds of this one-process run: not the machine's load
    df = run(quick=True)
    return df, time.process_time() - t0


def test_quick_run_ranks_and_sizes(quick):
    df, seconds = quick
    assert seconds < 60
    assert set(df.method) == set(METHODS) | set(ABLATIONS)
    assert set(df.dataset) == {"heart_statlog", "sonar"}
    assert len(df) == 2 * 2 * 3 * (len(METHODS) + len(ABLATIONS))
    for _, g in df.groupby(["dataset", "ensemble", "trees"]):
        assert sorted(g.method) == sorted(METHODS + tuple(ABLATIONS))
        # the ablations are not ranked: the four methods share ranks 1..4
        assert g[g.method.isin(ABLATIONS)]["rank"].isna().all()
        g = g[g.method.isin(METHODS)]
        assert g["rank"].sum() == pytest.approx(1 + 2 + 3 + 4)  # average ranks of 4 methods
        best = g.loc[g.test_error.idxmin()]
        assert best["rank"] == g["rank"].min()
    orig = df[df.method == "original"]
    assert (orig["size"] == 20).all() and (orig.pruning_rate == 0).all()
    kappa = df[df.method == "kappa"]
    assert (kappa["size"] == 4).all()  # ceil(0.2 * 20)
    assert ((df["size"] >= 1) & (df["size"] <= 20)).all()
    assert df.test_error.between(0, 1).all()
    assert (df[df.method == "QMM"].qmm_fallbacks == 0).all()
    assert df[df.method.str.startswith("QMM")].qmm_reference_error.between(0, 1).all()
    raw = df.attrs["raw"]
    boosters = {(r["ensemble"], r["trees"]): r["booster"] for r in raw}
    assert boosters[("AdaBoost", "stumps")] == boosters[("AdaBoost", "depth-2")] == "reweighting"
    assert boosters[("AdaBoost", "full")] == "resampling" == ADABOOST_BY["full"]
    singular = {r["method"] for r in raw if isinstance(r.get("qmm_singular"), (bool, np.bool_))}
    assert singular == {"QMM", *ABLATIONS}


def test_table4_and_format(quick):
    df, _ = quick
    t4 = table4(df)
    assert len(t4) == 6
    for _, r in t4.iterrows():
        assert sum(r[f"rank_{m}"] for m in METHODS) == pytest.approx(10.0)
        assert r["prune_kappa"] == pytest.approx(80.0)
    text = format_table(df)
    assert "### Table 4" in text
    for key in (("AdaBoost", "stumps"), ("AdaBoost", "full")):
        assert f"({SEED_TABLE4[key]['rank_QMM']:.2f})" in text
        assert f"({SEED_TABLE4[key]['prune_DREP']:.2f})" in text
    assert "| heart_statlog |" in text and "T = 20 members" in text
    assert "| QMM drop |" in text and "| QMM no-singular-rule |" in text
    assert "by reweighting" in text and "- AdaBoost stumps:" in text


def test_resampled_adaboost_keeps_going_where_sklearn_stops():
    X, y, _ = load_numeric("heart_statlog")
    X, y = X[:150], y[:150]
    sk = AdaBoostClassifier(DecisionTreeClassifier(), n_estimators=15, random_state=0).fit(X, y)
    assert len(sk.estimators_) == 1  # a full tree fits the training data: sklearn stops
    ours = ResampledAdaBoostClassifier(n_estimators=15, max_depth=None, random_state=0).fit(X, y)
    assert len(ours.estimators_) == 15
    assert np.all(ours.estimator_weights_ > 0)
    assert np.all(ours.estimator_weights_ <= 0.5 * np.log(999) + 1e-12)
    # the weighted vote of its members is its prediction
    F = sum(a * np.where(t.predict(X) == ours.classes_[1], 1, -1)
            for a, t in zip(ours.estimator_weights_, ours.estimators_))
    np.testing.assert_array_equal(ours.predict(X), ours.classes_[(F > 0).astype(int)])
    again = ResampledAdaBoostClassifier(n_estimators=15, random_state=0).fit(X, y)
    np.testing.assert_allclose(again.estimator_weights_, ours.estimator_weights_)


def test_load_numeric_encodes_and_subsamples():
    X, y, names = load_numeric("credit_g")
    assert X.dtype == float and not np.isnan(X).any() and len(names) == X.shape[1]
    assert X.shape[0] == 1000 and X.shape[1] > 20  # categorical columns one-hot
    X, y, _ = load_numeric("breast_cancer_wisconsin")
    assert not np.isnan(X).any()  # 16 missing bare_nuclei filled with the median
    Xs, ys, _ = load_numeric("spambase", max_rows=300)
    Xs2, ys2, _ = load_numeric("spambase", max_rows=300)
    assert Xs.shape[0] == 300 and np.array_equal(Xs, Xs2)
    assert abs(ys.mean() - 0.394) < 0.01  # stratified


def test_noisy_diagonal_writes_its_figure(tmp_path):
    path = tmp_path / "diag.png"
    df = noisy_diagonal(n_members=15, n_train=300, n_test=300, grid=30, path=path)
    assert path.read_bytes()[:4] == b"\x89PNG"
    assert df.model.tolist() == ["AdaBoost", "AdaBoost + QMM", "RF", "RF + QMM"]
    assert (df["size"] <= 15).all()
    # fully grown trees fit the 20 flipped labels; the test set has no noise
    assert (df.test_error < 0.2).all()
