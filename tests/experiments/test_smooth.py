"""Long and Servedio reproduction, quick size: decision lists, sane errors and smoothness."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from optirules.errors import InputError
from tests.internals import (
    ALGORITHMS,
    distances,
    evaluate_decision_list,
    gavinsky_epsilon_distances,
    random_decision_list,
    sampling_spread,
)
from tests.internals import (
    smooth_format_table as format_table,
)
from tests.internals import (
    smooth_run as run,
)
from tests.internals import (
    smooth_SEED_TABLE2 as SEED_TABLE2,
)


def test_decision_list_semantics():
    dl = {"variables": np.array([2, 0]), "values": np.array([1, 0]),
          "outputs": np.array([-1, 1, -1])}
    X = np.array([[0, 0, 1], [0, 0, 0], [1, 1, 0], [1, 0, 1]])
    # first literal x2 == 1 -> -1; else x0 == 0 -> +1; else -1
    assert evaluate_decision_list(dl, X).tolist() == [-1, 1, -1, -1]
    dl = random_decision_list(50, np.random.default_rng(0))
    assert len(set(dl["variables"].tolist())) == 10 and len(dl["outputs"]) == 11


def test_quick_run_is_sane():
    df = run(quick=True)
    assert set(df.algorithm) == set(ALGORITHMS)
    assert df.test_error.between(0, 1).all()
    assert (df.test_error < 0.25).all()                 # far better than chance
    assert (df.smoothness >= 1).all()
    sm = df.groupby("algorithm").smoothness.mean()
    # SmoothBoost's measure is flatter for a smaller gamma, and smoother than AdaBoost
    assert sm["SB(0.05)"] <= sm["SB(0.4)"] + 1e-9
    assert sm["SB(0.05)"] < sm["Ada"]
    # the three smoothness statistics: max over rounds >= final round and >= mean
    assert (df.smoothness >= df.smoothness_final - 1e-12).all()
    assert (df.smoothness >= df.smoothness_mean - 1e-12).all()
    raw = df.attrs["raw"]
    assert len(raw) == sum(df.reps)
    text = format_table(df)
    assert "Table 1" in text and "Table 2" in text and "(0.086)" in text
    for stat in ("max over rounds", "final round", "mean over rounds"):
        assert f"Table 2 ({stat})" in text
    assert "closest" in text


def _fake(rows):
    """A result frame with hand-set averages (what :func:`run` returns, reduced)."""
    df = pd.DataFrame(rows)
    df["seed_test_error"] = [0.086 if r["m"] == 100 else 0.052 for r in rows]
    df["seed_smoothness"] = [SEED_TABLE2[(r["n"], r["m"])][0] for r in rows]
    return df


def test_distances_by_hand():
    # seed's Ada smoothness: 13.6 at (100, 100), 19.8 at (100, 200)
    df = _fake([
        {"n": 100, "m": 100, "algorithm": "Ada", "test_error": 0.096, "smoothness": 27.2,
         "smoothness_final": 13.6, "smoothness_mean": 6.8},
        {"n": 100, "m": 200, "algorithm": "Ada", "test_error": 0.052, "smoothness": 19.8,
         "smoothness_final": 9.9, "smoothness_mean": 9.9},
    ])
    d = distances(df).iloc[0]
    assert d.rows == 2
    assert d.test_error == pytest.approx((0.010 + 0.0) / 2)
    assert d.test_error_rel == pytest.approx((0.010 / 0.086) / 2)
    assert d.smoothness == pytest.approx((1.0 + 0.0) / 2)            # |27.2-13.6|/13.6, 0
    assert d.smoothness_final == pytest.approx((0.0 + 0.5) / 2)      # 0, |9.9-19.8|/19.8
    assert d.smoothness_mean == pytest.approx((0.5 + 0.5) / 2)
    assert d.best_smoothness == "smoothness_final"


def test_gavinsky_epsilon_distances_pick_the_closest():
    # seed's Gavinsky (100, 100): error 0.088, smoothness 11.7
    rows = []
    for alg, err, smo in (("Gavinsky", 0.088 * 1.5, 11.7 * 1.5),       # default 0.1
                          ("Gavinsky(eps=0.05)", 0.088 * 1.1, 11.7 * 1.1),
                          ("Gavinsky(eps=0.2)", 0.088, 11.7 * 2)):
        rows.append({"n": 100, "m": 100, "algorithm": alg, "test_error": err,
                     "smoothness": smo, "smoothness_final": smo, "smoothness_mean": smo,
                     "seed_test_error": 0.088, "seed_smoothness": 11.7})
    df = pd.DataFrame(rows)
    df.attrs["epsilon"] = 0.1
    g = gavinsky_epsilon_distances(df)
    assert g.epsilon.tolist() == [0.05, 0.1, 0.2]
    assert g.default.tolist() == [False, True, False]
    np.testing.assert_allclose(g.combined, [(0.1 + 0.1) / 2, (0.5 + 0.5) / 2, (0 + 1) / 2])
    assert g.epsilon[g.combined.idxmin()] == 0.05


def test_sampling_spread_and_epsilon_checks():
    sp = sampling_spread(100, 100, "Ada", random_states=(1, 2), repetitions=2)
    assert sp.random_state.tolist() == [1, 2] and (sp.reps == 2).all()
    assert (sp.smoothness >= sp.smoothness_final - 1e-12).all()
    # random_state 1 of the spread is the same as run(random_state=1) on that cell
    one = run(random_state=1, repetitions=2, configs=[(100, 100)], algorithms=("Ada",))
    assert one.smoothness.iloc[0] == pytest.approx(sp.smoothness.iloc[0])
    with pytest.raises(InputError, match="epsilon"):
        run(quick=True, epsilon=0.0)
    with pytest.raises(InputError, match="epsilon"):
        run(quick=True, extra_epsilons=(-1.0,))
