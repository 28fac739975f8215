"""The DRO paper experiment functions: the benchmark records, the cycling demo and the rules demo."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from optirules.data import load_dataset
from optirules.errors import InputError
from optirules.experiments import RulesDemoSettings
from tests.internals import (
    format_cycling,
    format_rules_demo,
    format_rules_table,
    load_rules_dataset,
    rules_folds,
    run_cycling_experiment,
    run_rules_benchmark,
    run_rules_demo,
    summarize_rules,
)


def test_datasets_and_folds_are_the_documented_ones():
    X, y, cats, _ = load_rules_dataset("digits_1v7")
    assert X.shape == (361, 64) and set(np.unique(X.to_numpy())) == {0, 1}
    assert int(y.sum()) == 182  # 182 ones, 179 sevens in scikit-learn's digits
    X, y, cats, _ = load_rules_dataset("wdbc")
    assert X.shape == (569, 30) and int(y.sum()) == 212  # 212 malignant
    X, y, cats, note = load_rules_dataset("heart")
    assert X.shape == (270, 13) and "thal" in cats and "Statlog" in note
    folds = rules_folds(y)
    assert len(folds) == 5
    test_rows = np.sort(np.concatenate([te for _, te in folds]))
    np.testing.assert_array_equal(test_rows, np.arange(len(y)))  # a partition
    for _tr, te in folds:  # stratified: class shares within one row of each other
        assert abs(y[te].mean() - y.mean()) < 1.5 / len(te) + 1e-12


def test_quick_benchmark_records_and_table():
    records = run_rules_benchmark(["digits_1v7"], ["rule_set", "dro", "adaboost"], folds=[0],
                                  quick=True)
    assert [r["method"] for r in records] == ["rule_set", "dro", "adaboost"]
    rs, dro, ada = records
    assert rs["accuracy"] > 0.9 and rs["certified"] and 0 <= rs["gap"] < 1
    assert rs["lp_bound"] <= rs["ip_objective"] + 1e-12
    assert dro["complexity"] <= 32 and dro["accuracy"] > 0.85
    # the DRO record: the chosen member budget from {C/3, C/2, C}, the fit status, and the
    # largest member gaps, absolute beside relative (both unknown unless every member's is)
    assert dro["member_complexity"] in (32 / 3, 16, 32) and "completed" in dro["status"]
    if dro["certified"]:
        assert 0 <= dro["absolute_gap"] and 0 <= dro["gap"] <= 1
    else:
        assert math.isnan(dro["gap"]) and math.isnan(dro["absolute_gap"])
    assert rs["absolute_gap"] == pytest.approx(rs["ip_objective"] - rs["lp_bound"], abs=1e-15)
    assert ada["complexity"] == 500 and math.isnan(ada["gap"])
    summary = summarize_rules(records)
    assert set(summary["method"]) == {"rule_set", "dro", "adaboost"}
    peer = {"digits_1v7": {"accuracy": 0.986, "complexity": 9.8, "fit_time": 1.25}}
    table = format_rules_table(summary, [("a measured peer", peer)])
    assert "| digits_1v7 | a measured peer | — | 0.986 | 9.8 |" in table
    assert "| digits_1v7 | rule_set | 3 |" in table  # max_degree="auto": L = 128 literals
    assert table.count("\n") == 2 + 3 + 1 - 1
    with pytest.raises(InputError, match="unknown method"):
        run_rules_benchmark(["digits_1v7"], ["dro", "nonsense"])


def test_cv_method_records_the_chosen_penalty():
    (rec,) = run_rules_benchmark(["digits_1v7"], ["rule_set_cv"], folds=[0])
    # penalties="auto": factors (0.7, 1, 1.4, 2, 2.8) of one penalty, 0.1 / sqrt(n)
    grid = np.asarray(rec["penalty_grid"])
    np.testing.assert_allclose(grid / grid[1], [0.7, 1.0, 1.4, 2.0, 2.8])
    n = (0.1 / grid[1]) ** 2  # the training rows of the fold: about 4/5 of digits 1 vs 7
    assert 250 < n < 300
    assert rec["penalty"] in grid and rec["certified"]
    assert rec["cv_time"] < rec["fit_time"] and rec["accuracy"] > 0.9


def test_reproduce_entry_point_returns_the_summary():
    from tests.internals import rules_format_table as format_table
    from tests.internals import rules_run as run

    df = run(quick=True, methods=["rule_set", "adaboost"])
    assert list(df["method"]) == ["rule_set", "adaboost"] and set(df["folds"]) == {2}
    text = format_table(df)
    assert "| digits_1v7 | rule_set |" in text and "AIX360" not in text  # no typed-in peer


def test_binary_loss_cycles_on_digits():
    result = run_cycling_experiment("digits_1v7", rho=0.5, member_complexity=4.0,
                                    n_estimators=4)
    assert result["cycle"] == (1, 2)  # h_3 = h_1: a period-2 cycle
    ids = [r["rule_set"] for r in result["binary"]]
    assert ids == [1, 2, 1, 2]
    # the same rows are over- and under-emphasized in turn
    mass = [r["mass_on_first_errors"] for r in result["binary"]]
    assert mass[0] == pytest.approx(mass[2]) and mass[1] == pytest.approx(mass[3])
    assert mass[0] > mass[1]
    # with the margin loss (2) the running average F_n moves on: the robust loss of the
    # collection keeps falling even where the same members come back
    robust = [r["robust_loss"] for r in result["margin"]]
    assert robust[2] < robust[0] and robust[3] <= robust[1]
    assert all(r["divergence"] <= 0.5 + 1e-9 for r in result["binary"] + result["margin"])
    text = format_cycling(result)
    assert "a cycle" in text and "| 3 | #1 |" in text


def test_rules_demo_writes_a_model_and_json(tmp_path):
    from optirules.learners import BooleanRuleSetClassifier

    r = run_rules_demo("monks1", RulesDemoSettings(max_degree=2), output=tmp_path / "demo.lp")
    assert r.test_accuracy == 1.0  # a1 == a2 or a5 == 1 is a DNF over the codes
    assert r.gap_certified and r.gap <= 1e-9
    assert (tmp_path / "demo.lp").exists()
    assert json.loads((tmp_path / "demo.json").read_text())["format"].endswith("Classifier")
    est = BooleanRuleSetClassifier.from_json(r.json_path)
    X_test, y_test = load_dataset("monks1", split="test")
    assert np.mean(est.predict(X_test) == y_test) == 1.0  # the restored model, all 432 rows
    assert est.rules_.complexity == r.complexity
    assert "test accuracy:  1.0000" in format_rules_demo(r)
