"""The grid runner: backends agree cell for cell, reruns resume, summaries are right."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from optirules.errors import InputError
from optirules.experiments import GridWorkers, average_ranks, run_grid, summarize
from tests.internals import TIMING_COLUMNS

GRID = dict(
    datasets=["monks2", "heart_statlog"],
    learners={"decision_tree": {"max_depth": [1, 3]}, "logistic_regression": {"C": [0.1], "max_iter": [2000]}},
    seeds=[0, 1],
)


def _comparable(frame: pd.DataFrame) -> pd.DataFrame:
    keys = ["dataset", "learner", "params", "seed", "solver", "fold"]
    return frame.drop(columns=list(TIMING_COLUMNS)).sort_values(keys).reset_index(drop=True)


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    store = tmp_path_factory.mktemp("store")
    return run_grid(**GRID, store=store), store


def test_local_grid_is_tidy_and_complete(local_run):
    res, _ = local_run
    assert res.n_cells == 2 * 3 * 2 and res.n_computed == 12 and res.n_reused == 0
    f = res.frame
    # monks2 has its own test file (one row per cell); heart_statlog 5 folds
    assert (f[f.dataset == "monks2"].fold == "test").all()
    assert len(f[f.dataset == "heart_statlog"]) == 6 * 5
    assert f["n_test"][f.dataset == "heart_statlog"].sum() == 270 * 6  # every row tested once per cell
    assert f["accuracy"].between(0, 1).all()
    # a depth-1 tree on monks2's test file: the majority-ish stump's accuracy is reproducible
    from sklearn.tree import DecisionTreeClassifier

    from optirules.data import load_dataset
    from optirules.experiments import make_learner

    Xtr, ytr = load_dataset("monks2_train")
    Xte, yte = load_dataset("monks2_test")
    est = make_learner("decision_tree", {"max_depth": 1}, seed=0).fit(Xtr, ytr)
    expected = float(np.mean(est.predict(Xte) == yte))
    got = f[(f.dataset == "monks2") & (f.params == json.dumps({"max_depth": 1})) & (f.seed == 0)]
    assert got["accuracy"].item() == pytest.approx(expected)
    assert isinstance(est.steps[-1][1], DecisionTreeClassifier)


def test_rerun_skips_finished_cells(local_run):
    res, store = local_run
    again = run_grid(**GRID, store=store)
    assert again.n_reused == 12 and again.n_computed == 0
    pd.testing.assert_frame_equal(_comparable(again.frame), _comparable(res.frame))
    # a grown grid computes only the new cells
    grown = run_grid(GRID["datasets"], GRID["learners"], seeds=[0, 1, 2], store=store)
    assert grown.n_reused == 12 and grown.n_computed == 6


def test_dask_local_cluster_equals_local_run(local_run):
    pytest.importorskip("dask.distributed")
    res, _ = local_run
    dask_res = run_grid(**GRID, workers=GridWorkers("dask", n_jobs=2))
    assert dask_res.n_computed == 12
    pd.testing.assert_frame_equal(_comparable(dask_res.frame), _comparable(res.frame))


def test_ray_equals_local_run(local_run):
    pytest.importorskip("ray")
    res, _ = local_run
    small = dict(GRID, seeds=[0])
    ray_res = run_grid(**small, workers=GridWorkers("ray", n_jobs=2))
    local0 = res.frame[res.frame.seed == 0]
    pd.testing.assert_frame_equal(_comparable(ray_res.frame), _comparable(local0))


def test_summary_and_average_ranks_by_hand():
    frame = pd.DataFrame({
        "dataset": ["a"] * 4 + ["b"] * 4,
        "learner": ["x", "x", "y", "y"] * 2,
        "params": ["{}"] * 8,
        "solver": [""] * 8,
        "fold": ["0", "1"] * 4,
        "accuracy": [0.8, 0.9, 0.7, 0.7, 0.6, 0.6, 0.6, 0.6],
        "complexity": [np.nan] * 8,
        "fit_time": [0.1] * 8,
    })
    s = summarize(frame)
    row = s[(s.dataset == "a") & (s.learner == "x")].iloc[0]
    assert row["mean"] == pytest.approx(0.85) and row["sd"] == pytest.approx(np.std([0.8, 0.9], ddof=1))
    assert row["mean ± sd"] == "0.8500 ± 0.0707"
    ranks = average_ranks(frame)
    # dataset a: x first (1), y second (2); dataset b: a tie (1.5 each)
    assert ranks["x {}"] == pytest.approx(1.25) and ranks["y {}"] == pytest.approx(1.75)


def test_bad_grids_are_refused():
    with pytest.raises(InputError, match="unknown learner 'decision_tre'.*decision_tree"):
        run_grid(["monks1"], ["decision_tre"])
    with pytest.raises(InputError, match="backend"):
        run_grid(["monks1"], ["decision_tree"], workers=GridWorkers("spark"))
    with pytest.raises(InputError, match="no solver|takes no solver"):
        run_grid(["monks1"], ["decision_tree"], solvers=["highs"])
    with pytest.raises(InputError, match="no datasets"):
        run_grid([], ["decision_tree"])


def test_rule_set_cv_learner_gets_seed_solver_and_binarizer_inside():
    from optirules.data import FeatureBinarizer
    from optirules.experiments import make_learner
    from optirules.learners import BooleanRuleSetClassifier, BooleanRuleSetCV

    est = make_learner("rule_set_cv", {"cv": 3, "max_degree": 2, "penalties": [0.002, 0.01]},
                       seed=7, solver="highs", categorical=["a1"])
    assert isinstance(est, BooleanRuleSetCV) and est.cv == 3 and est.random_state == 7
    inner = est.estimator
    assert isinstance(inner, BooleanRuleSetClassifier)
    assert (inner.max_degree, inner.solver, inner.random_state) == (2, "highs", 7)
    assert isinstance(inner.binarizer, FeatureBinarizer)
    assert inner.binarizer.categorical_features == ["a1"]


# ----------------------------------------------------------------------------- the store
STORE_GRID = dict(datasets=["monks2"], learners={"decision_tree": {"max_depth": [1, 2]}},
                  seeds=[0])


def _store_files(store):
    return sorted(p for p in store.iterdir() if p.suffix == ".json")


@pytest.mark.parametrize("damage", [
    "empty_cell_and_rows", "not_json", "truncated", "not_utf8", "rows_not_a_list",
    "row_of_other_cell", "accuracy_out_of_range", "cell_not_an_object", "deep", "top_is_list",
    "missing_row_key",
])
def test_damaged_store_files_are_reported_and_recomputed(tmp_path, damage):
    """A store file a rerun cannot trust is named in a warning and its cell computed again
    (not dropped from the table, not a crash); the other cells are reused."""
    store = tmp_path / "store"
    first = run_grid(**STORE_GRID, store=store)
    files = _store_files(store)
    assert len(files) == 2 and first.n_computed == 2
    target = files[0]
    good = target.read_text()
    doc = json.loads(good)
    if damage == "empty_cell_and_rows":
        target.write_text('{"cell": {}, "rows": []}')
    elif damage == "not_json":
        target.write_text("{not json")
    elif damage == "truncated":
        target.write_text(good[: len(good) // 2])
    elif damage == "not_utf8":
        target.write_bytes(good.encode() + b"\xff\xfe")
    elif damage == "rows_not_a_list":
        doc["rows"] = {"a": 1}
        target.write_text(json.dumps(doc))
    elif damage == "row_of_other_cell":
        doc["rows"][0]["learner"] = "logistic_regression"
        target.write_text(json.dumps(doc))
    elif damage == "accuracy_out_of_range":
        doc["rows"][0]["accuracy"] = 7
        target.write_text(json.dumps(doc))
    elif damage == "cell_not_an_object":
        doc["cell"] = 3
        target.write_text(json.dumps(doc))
    elif damage == "deep":
        target.write_text("[" * 100_000 + "]" * 100_000)
    elif damage == "top_is_list":
        target.write_text("[1, 2]")
    elif damage == "missing_row_key":
        del doc["rows"][0]["fold"]
        target.write_text(json.dumps(doc))
    with pytest.warns(RuntimeWarning, match=f"store file '{target}' is damaged") as record:
        again = run_grid(**STORE_GRID, store=store)
    assert sum("store file" in str(w.message) for w in record) == 1
    assert again.n_reused == 1 and again.n_computed == 1 and again.n_cells == 2
    pd.testing.assert_frame_equal(_comparable(again.frame), _comparable(first.frame))
    rewritten = json.loads(target.read_text())  # rewritten whole, for the same cell
    assert rewritten["cell"] == json.loads(good)["cell"] and len(rewritten["rows"]) == 1
    assert _store_problem_free(store)


def _store_problem_free(store):
    """A rerun now reuses every cell without a warning, and no temporary file is left."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = run_grid(**STORE_GRID, store=store)
    leftovers = [p for p in store.iterdir() if p.suffix != ".json"]
    return res.n_reused == 2 and res.n_computed == 0 and not leftovers


def test_a_store_file_of_another_cell_is_not_reused(tmp_path):
    """Two cells' files swapped (e.g. copied by hand): each is recomputed, not reused under
    the wrong cell."""
    store = tmp_path / "store"
    first = run_grid(**STORE_GRID, store=store)
    a, b = _store_files(store)
    ta, tb = a.read_text(), b.read_text()
    a.write_text(tb)
    b.write_text(ta)
    with pytest.warns(RuntimeWarning, match="not this cell"):
        again = run_grid(**STORE_GRID, store=store)
    assert again.n_reused == 0 and again.n_computed == 2
    pd.testing.assert_frame_equal(_comparable(again.frame), _comparable(first.frame))


def test_store_writes_are_atomic(tmp_path):
    """A store file is written through a temporary file renamed over it: a store folder
    holds only the finished cells' files."""
    store = tmp_path / "store"
    run_grid(**STORE_GRID, store=store)
    names = sorted(p.name for p in store.iterdir())
    assert len(names) == 2 and all(n.endswith(".json") and not n.startswith(".") for n in names)


@pytest.mark.parametrize("name", ["digits_avb", "digits_1v1", "digits_12v3", "digits_v"])
def test_a_bad_digits_pair_name_is_refused(name):
    from tests.internals import load_grid_data

    with pytest.raises(InputError, match="digits_<a>v<b>"):
        load_grid_data(name)
