"""Seed 003 reproduction, quick size: decision lists, sane errors and smoothness."""

from __future__ import annotations

import numpy as np

from optirules.experiments._smooth import (
    ALGORITHMS,
    evaluate_decision_list,
    format_table,
    random_decision_list,
    run,
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
    text = format_table(df)
    assert "Table 1" in text and "Table 2" in text and "(0.086)" in text
