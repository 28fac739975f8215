"""write_model: every file it writes reads back (whatever the names), and every write is
checked (a full device, a missing folder) and atomic (a failed write keeps the old file)."""

from __future__ import annotations

import os

import cvxpy as cp
import highspy
import numpy as np
import pandas as pd
import pyomo.environ as pyo
import pytest

from optirules.errors import OutputError
from optirules.solvers import read_model, solve, write_model

#: names that break an LP or MPS file when copied into it: a line break followed by a section
#: keyword, a leading digit, spaces, a comment mark, non-ASCII letters
BAD_NAMES = [
    "a\nSubject To\n evil: x >= 1",
    "1abc",
    "two words",
    "\\ comment",
    "* star",
    "é ü",
    "a\r\nEnd",
]


def _pyomo(name: str):
    """min x[name] + y  s.t.  x[name] + y >= 1.5, x[name] <= 1, a variable named ``name``."""
    m = pyo.ConcreteModel(name=name)
    m.I = pyo.Set(initialize=[name, "ok"])
    m.x = pyo.Var(m.I, bounds=(0, 1))
    m.add_component(name, pyo.Var(bounds=(0, 2)))
    y = m.component(name)
    m.add_component("cover " + name, pyo.Constraint(expr=m.x[name] + 2 * m.x["ok"] + y >= 2.5))
    m.add_component(name + " obj", pyo.Objective(expr=m.x[name] + 3 * m.x["ok"] + 2 * y))
    return m


def _cvxpy(name: str):
    x = cp.Variable(2, name=name, nonneg=True)
    return cp.Problem(cp.Minimize(np.array([1.0, 3.0]) @ x), [x[0] + 2 * x[1] >= 2.5, x <= 1])


def _highs(name: str):
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    inf = highspy.kHighsInf
    h.addVars(2, np.zeros(2), np.ones(2))
    h.changeColsCost(2, np.array([0, 1], dtype=np.int32), np.array([1.0, 3.0]))
    h.addRow(2.5, inf, 2, np.array([0, 1], dtype=np.int32), np.array([1.0, 2.0]))
    h.passColName(0, name)
    h.passColName(1, name + " 2")
    h.passRowName(0, "row " + name)
    return h


@pytest.mark.parametrize("suffix", [".lp", ".mps", ".LP"])
@pytest.mark.parametrize("name", BAD_NAMES)
@pytest.mark.parametrize("build", [_pyomo, _cvxpy, _highs])
def test_any_name_reads_back_with_the_same_optimum(tmp_path, build, name, suffix):
    problem = build(name)
    expected = solve(problem).objective
    path = write_model(problem, tmp_path / f"m{suffix}")
    text = path.read_text(encoding="utf-8")
    assert "Subject To\n" not in text and "\nEnd" not in text
    if suffix == ".LP":  # HiGHS reads by a lower-case suffix
        path = path.rename(tmp_path / "m.lp")
    res = read_model(path)
    assert res.objective == pytest.approx(expected, abs=1e-9)
    assert list(os.listdir(tmp_path)) == [path.name]  # no temporary file left behind


def test_safe_names_are_kept(tmp_path):
    m = _pyomo("keep_me")
    path = write_model(m, tmp_path / "m.lp")
    values = read_model(path).values
    assert {"x(keep_me)", "x(ok)", "keep_me"} <= set(values)
    h = _highs("col_a")
    values = read_model(write_model(h, tmp_path / "h.mps")).values
    assert "col_a" in values
    assert h.getLp().col_names_[1] == "col_a 2"  # the caller's instance is not renamed


@pytest.mark.parametrize("suffix", [".lp", ".mps"])
def test_comments_stay_comments(tmp_path, suffix):
    m = _pyomo("x1")
    expected = solve(m).objective
    path = write_model(m, tmp_path / f"m{suffix}",
                       comments=["w(x1): a\nSubject To\n evil: x >= 1", "second\r\nEnd"])
    lines = path.read_text().splitlines()
    mark = "\\" if suffix == ".lp" else "*"
    assert lines[0] == f"{mark} w(x1): a Subject To evil: x >= 1"
    assert lines[1] == f"{mark} second End"
    assert read_model(path).objective == pytest.approx(expected, abs=1e-9)


def test_rule_set_with_a_hostile_feature_name_reads_back(tmp_path):
    """A feature named like an LP section (also what a CSV's quoted multi-line header gives)
    goes through the learner's export to files that read back to the learner's optimum."""
    from optirules.learners import BooleanRuleSetClassifier

    bad = "a\nSubject To\n evil: x >= 1"
    csv = tmp_path / "d.csv"
    csv.write_text(f'"{bad}",b c,label\n' + "".join(
        f"{i % 2},{i % 3},{int(i % 2 == 1 or i % 3 == 2)}\n" for i in range(40)))
    X = pd.read_csv(csv)
    y = X.pop("label").to_numpy()
    assert bad in X.columns
    est = BooleanRuleSetClassifier(binarizer="auto").fit(X, y)
    for suffix in (".lp", ".mps"):
        path = tmp_path / f"rules{suffix}"
        est.export_model(path)
        res = read_model(path)
        assert res.objective == pytest.approx(est.ip_objective_, abs=1e-6)


@pytest.mark.parametrize("build", [_pyomo, _cvxpy, _highs])
def test_full_device_raises_and_old_file_kept(tmp_path, build):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    link = tmp_path / "q.lp"
    link.symlink_to("/dev/full")
    with pytest.raises(OutputError, match="q.lp"):
        write_model(build("ok"), link)


def test_qmm_pruner_export_to_full_device_raises(tmp_path):
    from optirules.learners import QMMPruner

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    rng = np.random.default_rng(0)
    H = np.where(rng.random((30, 6)) < 0.6, 1, -1)
    y = np.where(rng.random(30) < 0.5, 1, -1)
    p = QMMPruner(upsilon=0.5).fit(H, y)
    link = tmp_path / "q.lp"
    link.symlink_to("/dev/full")
    with pytest.raises(OutputError, match="No space left"):
        p.export_model(link)


@pytest.mark.parametrize("build", [_pyomo, _cvxpy, _highs])
def test_missing_folder_raises_before_any_work(tmp_path, build):
    with pytest.raises(OutputError, match="does not exist"):
        write_model(build("ok"), tmp_path / "no_such_folder" / "m.lp")
    assert list(os.listdir(tmp_path)) == []


def test_failed_write_keeps_the_old_file(tmp_path):
    """A cvxpy cone has no LP form: the error comes before the file is touched."""
    from optirules.errors import ModelFormatError

    path = tmp_path / "m.lp"
    path.write_text("old content\n")
    x = cp.Variable(2)
    cone = cp.Problem(cp.Minimize(cp.norm(x, 2)), [cp.sum(x) == 1])
    with pytest.raises(ModelFormatError):
        write_model(cone, path)
    assert path.read_text() == "old content\n"
    write_model(_pyomo("ok"), path)
    assert read_model(path).objective == pytest.approx(solve(_pyomo("ok")).objective)
    assert list(os.listdir(tmp_path)) == ["m.lp"]
