"""The targets table of ``benchmarks/suite.py``: each target judged on hand-made per-set means."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SUITE = Path(__file__).resolve().parents[1] / "benchmarks" / "suite.py"


@pytest.fixture(scope="module")
def suite():
    spec = importlib.util.spec_from_file_location("optirules_suite_under_test", SUITE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def entry(accuracy, *, brier=0.1, prior=0.2, literals=5.0, rules=3.0, cpu=1.0, max_cpu=None,
          complete=True, max_iter=0):
    return {"complete": complete, "accuracy": accuracy, "brier": brier, "prior_brier": prior,
            "n_literals": literals, "n_rules": rules, "fit_cpu": cpu,
            "max_cpu": cpu if max_cpu is None else max_cpu, "max_iter_fits": max_iter,
            "member_max_iter": 0}


def rows_of(lines):
    """``{target: (data sets, measured, met)}`` of the markdown rows."""
    out = {}
    for line in lines:
        target, sets, measured, met = (c.strip() for c in line.strip("|").split("|"))
        out[target] = (int(sets), measured, met == "yes")
    return out


def test_ahead_on_half_the_sets_counts_strict_wins_and_accuracy_slack(suite):
    tables = {
        "a": {"rule_set": entry(0.90), "cart_cv": entry(0.80, literals=40)},
        "b": {"rule_set": entry(0.70), "cart_cv": entry(0.70, literals=60)},
        "c": {"rule_set": entry(0.60), "cart_cv": entry(0.66, literals=20)},
        "d": {"rule_set": entry(0.50), "cart_cv": entry(0.55, literals=80)},
    }
    got = rows_of(suite.goals(tables, dict.fromkeys(tables, 100)))
    # one strict win of four, one level: not half
    assert got["rule_set ahead of cart_cv on at least half the sets"] == (
        4, "ahead on 1, level on 1", False)
    # mean 0.675 against 0.6775: within the 0.01 slack
    assert got["rule_set mean accuracy >= cart_cv's - 0.01"][2]
    assert got["rule_set median literals below cart_cv's"] == (4, "5.0 vs 50.0", True)
    tables["b"]["rule_set"]["accuracy"] = 0.71
    got = rows_of(suite.goals(tables, dict.fromkeys(tables, 100)))
    assert got["rule_set ahead of cart_cv on at least half the sets"][1:] == (
        "ahead on 2, level on 0", True)


def test_incomplete_sets_are_left_out_and_cost_ratio_is_of_the_sums(suite):
    tables = {
        "small": {"rule_set": entry(0.9, cpu=1.0), "dro": entry(0.9, cpu=2.0)},
        "noisy": {"rule_set": entry(0.7, cpu=3.0), "dro": entry(0.7, cpu=12.0)},
        "broken": {"rule_set": entry(0.7, cpu=1.0), "dro": entry(0.0, complete=False)},
        "large": {"rule_set": entry(0.8, cpu=50.0, max_cpu=61.0), "dro": entry(0.8, cpu=1.0)},
    }
    sizes = {"small": 100, "noisy": 100, "broken": 100, "large": 20_000}
    got = rows_of(suite.goals(tables, sizes))
    # (2 + 12) / (1 + 3) over the two complete sets up to 5,000 rows; medians 2x and 4x
    assert got["dro fit CPU <= 3x rule_set's (sets up to 5,000 rows)"] == (
        2, "3.50x in total, 3.0x on the median set", False)
    assert got["dro mean accuracy >= rule_set's"] == (3, "0.8000 vs 0.8000", True)
    # the large set's slowest fold is over 60 s
    assert got["every rule_set fit <= 10 s CPU up to 5,000 rows, <= 60 s above"] == (
        4, "max 3.00 s up to 5,000 rows; max 61.00 s above; over: large 61.0 s", False)
    assert "rule_set ahead of cart_cv on at least half the sets" not in got


def test_brier_above_the_prior_names_the_sets(suite):
    tables = {
        "ok": {"boosting": entry(0.8, brier=0.10, prior=0.20)},
        "equal": {"boosting": entry(0.6, brier=0.24, prior=0.24)},
        "bad": {"boosting": entry(0.5, brier=0.26, prior=0.23)},
    }
    got = rows_of(suite.goals(tables, dict.fromkeys(tables, 100)))
    assert got["boosting Brier <= the prior's on every set"] == (
        3, "above on 1: bad (0.2600 vs 0.2300)", False)


def test_dro_per_set_slack_auc_and_the_moonshot(suite):
    """The issue's targets for the ensemble: never more than 0.01 below the rule set on a
    set, mean AUC at least CART-CV's, and the moonshot: within 0.005 of the better of
    boosting and EBM with at most 20 rules on the median set."""
    def e(acc, auc, rules=3.0):
        out = entry(acc, rules=rules)
        out["auc"] = auc
        return out

    tables = {
        "a": {"rule_set": e(0.80, 0.80), "dro": e(0.81, 0.86, 12), "cart_cv": e(0.80, 0.85),
              "boosting": e(0.82, 0.90), "ebm": e(0.81, 0.90)},
        "b": {"rule_set": e(0.70, 0.70), "dro": e(0.685, 0.75, 14), "cart_cv": e(0.70, 0.74),
              "boosting": e(0.70, 0.80), "ebm": e(0.72, 0.80)},
    }
    got = rows_of(suite.goals(tables, dict.fromkeys(tables, 100)))
    assert got["dro never below rule_set by more than 0.01 on a set"] == (
        2, "below on 1: b (-0.0150)", False)
    assert got["dro mean AUC >= cart_cv's - 0"] == (2, "0.8050 vs 0.7950", True)
    assert got["rule_set mean AUC >= cart_cv's - 0.02"][1:] == ("0.7500 vs 0.7950", False)
    moon = got["moonshot: dro within 0.005 of the best of boosting, ebm with at most 20 "
               "rules (median set)"]
    assert moon == (2, "0.7475 vs ebm 0.7650, 13.0 rules", False)
    tables["b"]["dro"]["accuracy"] = 0.715  # 0.7625 vs 0.765: within 0.005
    got = rows_of(suite.goals(tables, dict.fromkeys(tables, 100)))
    assert got["moonshot: dro within 0.005 of the best of boosting, ebm with at most 20 "
               "rules (median set)"][2]
