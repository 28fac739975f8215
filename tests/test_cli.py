"""The ``optirules`` command: subcommands, the demo's figures, one-line errors."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from optirules.cli import build_parser, main
from optirules.solvers import read_model


def test_solvers_lists_highs_and_clarabel(capsys):
    assert main(["solvers"]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert "highs" in lines and "milp" in lines["highs"]
    assert "clarabel" in lines and "exp_cone" in lines["clarabel"]


def test_demo_learns_tic_tac_toe_by_column_generation(tmp_path, capsys):
    """The default demo: column generation on tic-tac-toe converges with a proof (exact
    pricing), the master IP is optimal, the gap is certified 0 and the held-out quarter is
    classified without error; the written .lp file re-solves to the printed objective."""
    path = tmp_path / "demo.lp"
    assert main(["demo", "--output", str(path)]) == 0
    out = capsys.readouterr().out
    assert "test accuracy:  1.0000" in out
    assert "gap 0.00% (certified)" in out
    assert "exact pricing proved no improving clause" in out
    objective = float(out.split("master objective")[1].split(",")[0])
    assert read_model(path).objective == pytest.approx(objective, abs=1e-6)
    assert (tmp_path / "demo.json").exists()


def test_demo_recovers_monks1_concept(tmp_path, capsys):
    """MONK's problem 1 is `a1 == a2 or a5 == 1`: with clauses of two literals and a budget
    of 11 the optimal rule set is exactly that concept, so the test file (all 432 possible
    robots) is classified without error."""
    path = tmp_path / "demo.lp"
    assert main(["demo", "--method", "enumerate", "--output", str(path)]) == 0
    out = capsys.readouterr().out
    assert "solve status:   optimal" in out
    assert "test accuracy:  1.0000" in out
    for rule in ["a5 == 1", "a1 == 1 AND a2 == 1", "a1 == 2 AND a2 == 2", "a1 == 3 AND a2 == 3"]:
        assert rule in out
    assert "complexity (rules + literals): 11" in out
    assert str(path.resolve()) in out
    # the written IP solves to the same (tie-broken) optimum
    objective = float(out.split("objective:")[1].split()[0])
    assert read_model(path).objective == pytest.approx(objective, abs=1e-6)


def test_demo_writes_into_a_folder_of_its_own(tmp_path, monkeypatch, capsys):
    """Run as the README runs it (no --output), the demo writes its model and its JSON into
    the folder optirules-demo/ of the current folder, created for it, and nothing beside it;
    the folder is one git ignores."""
    monkeypatch.chdir(tmp_path)
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["optirules-demo"]
    folder = tmp_path / "optirules-demo"
    assert sorted(p.name for p in folder.iterdir()) == ["optirules_demo.json",
                                                        "optirules_demo.lp"]
    assert str((folder / "optirules_demo.lp").resolve()) in out
    assert main(["demo", "--method", "enumerate"]) == 0  # the folder exists: written again
    assert sorted(p.name for p in tmp_path.iterdir()) == ["optirules-demo"]


def test_demo_folder_is_ignored_by_git():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    if not (root / ".git").exists():
        pytest.skip("not a git checkout")
    for path in ("optirules-demo/optirules_demo.lp", "optirules-demo/optirules_demo.json"):
        proc = subprocess.run(["git", "check-ignore", "--no-index", "-q", path], cwd=root,
                              timeout=60)
        assert proc.returncode == 0, f"{path} is not ignored by .gitignore"


def test_demo_refuses_a_file_where_its_folder_goes(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "optirules-demo").write_text("mine")
    assert main(["demo"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "optirules-demo is a file" in err
    assert (tmp_path / "optirules-demo").read_text() == "mine"


def test_export_writes_readable_model(tmp_path, capsys):
    path = tmp_path / "master.mps"
    assert main(["export", str(path), "--dataset", "monks2_train", "--relax"]) == 0
    res = read_model(path)
    assert res.status.value == "optimal" and res.duals is not None
    assert any(name.startswith("w(clause_") for name in res.values)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["demo", "--dataset", "no_such_data"], "no_such_data"),
        (["export", "model.txt"], ".lp or .mps"),
        (["demo", "--method", "enumerate", "--max-degree", "0"], "--max-degree must be"),
        (["demo", "--solver", "nonexistent"], "Installed solvers"),
    ],
)
def test_bad_arguments_give_one_line_error(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1
    assert message in err


def test_every_subcommand_has_help():
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices
    assert {"solvers", "demo", "export"} <= set(commands)
    for name in commands:
        with pytest.raises(SystemExit) as exc:
            parser.parse_args([name, "--help"])
        assert exc.value.code == 0


def test_console_script_runs():
    proc = subprocess.run([sys.executable, "-m", "optirules", "--version"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "optirules" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "optirules", "frobnicate"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "invalid choice" in proc.stderr


# ------------------------------------------------------------------ fit / predict / reproduce
def _write_monks(tmp_path):
    from optirules.data import load_dataset

    X, y = load_dataset("monks1_test")
    frame = X.copy()
    frame["target"] = y
    path = tmp_path / "monks.csv"
    frame.to_csv(path, index=False)
    return path, frame


def test_fit_then_predict_round_trip(tmp_path, capsys):
    data, frame = _write_monks(tmp_path)
    model = tmp_path / "m.json"
    assert main(["fit", str(data), "--target", "target", "--learner", "decision_list",
                 "--output", str(model)]) == 0
    out = capsys.readouterr().out
    assert "test accuracy:" in out and str(model) in out
    preds = tmp_path / "p.csv"
    assert main(["predict", str(model), str(data), "--target", "target", "--output", str(preds)]) == 0
    import pandas as pd

    from optirules.learners import DecisionListClassifier

    got = pd.read_csv(preds)["prediction"].to_numpy()
    loaded = DecisionListClassifier.from_json(model.read_text())
    assert (got == loaded.predict(frame.drop(columns=["target"]))).all()
    assert len(got) == 432


def test_fit_decision_list_cv_saves_the_refitted_list(tmp_path, capsys):
    data, frame = _write_monks(tmp_path)
    model = tmp_path / "dlcv.json"
    assert main(["fit", str(data), "--target", "target", "--learner", "decision_list_cv",
                 "--param", "max_degrees=[1, 2]", "--param", "cv=3",
                 "--output", str(model)]) == 0
    out = capsys.readouterr().out
    assert "chosen by 3-fold cross-validation" in out
    import json

    from optirules.learners import DecisionListClassifier

    doc = json.loads(model.read_text())
    # MONK-1 is (a1 = a2) or (a5 = 1): only depth 2 expresses it, and CV finds that
    assert doc["params"]["max_degree"] == 2
    preds = tmp_path / "p.csv"
    assert main(["predict", str(model), str(data), "--target", "target",
                 "--output", str(preds)]) == 0
    import pandas as pd

    got = pd.read_csv(preds)["prediction"].to_numpy()
    loaded = DecisionListClassifier.from_json(model.read_text())
    assert (got == loaded.predict(frame.drop(columns=["target"]))).all()


def test_fit_boosting_then_predict(tmp_path, capsys):
    data, frame = _write_monks(tmp_path)
    model = tmp_path / "boost.json"
    assert main(["fit", str(data), "--target", "target", "--learner", "boosting",
                 "--param", "n_estimators=20", "--param", "weak_learner=literal",
                 "--output", str(model)]) == 0
    out = capsys.readouterr().out
    assert "adaboost: predict 1 if F(x) = sum of vote * h(x) > 0, else 0" in out
    preds = tmp_path / "p.csv"
    assert main(["predict", str(model), str(data), "--target", "target",
                 "--output", str(preds)]) == 0
    import pandas as pd

    from optirules.learners import BoostingClassifier

    got = pd.read_csv(preds)["prediction"].to_numpy()
    loaded = BoostingClassifier.from_json(model.read_text())
    assert (got == loaded.predict(frame.drop(columns=["target"]))).all()


def test_fit_three_classes_then_predict_explain(tmp_path, capsys):
    """A 3-class CSV: the rule set is one-vs-rest inside the estimator; predict --explain
    adds each row's score and the rule that fired, as explain(X) gives them."""
    import pandas as pd
    from sklearn.datasets import load_iris

    from optirules.learners import BooleanRuleSetClassifier

    iris = load_iris(as_frame=True)
    frame = iris.data.copy()
    frame["species"] = iris.target_names[iris.target]
    data = tmp_path / "iris.csv"
    frame.to_csv(data, index=False)
    model = tmp_path / "rs.json"
    assert main(["fit", str(data), "--target", "species", "--learner", "rule_set",
                 "--param", "max_degree=1", "--output", str(model)]) == 0
    assert "one-vs-rest over 3 classes" in capsys.readouterr().out
    preds = tmp_path / "p.csv"
    assert main(["predict", str(model), str(data), "--target", "species", "--explain",
                 "--output", str(preds)]) == 0
    got = pd.read_csv(preds)
    assert list(got.columns) == ["prediction", "score", "explanation"]
    loaded = BooleanRuleSetClassifier.from_json(model.read_text())
    X = frame.drop(columns=["species"])
    why = loaded.explain(X)
    assert (got["prediction"] == loaded.predict(X)).all()
    np.testing.assert_allclose(got["score"], why["score"], atol=1e-6)
    assert (got["explanation"] == why["text"]).all()
    # each row names the rule of its predicted class that fired (or that none did)
    for pred, text in zip(got["prediction"], got["explanation"]):
        assert text.startswith(repr(pred) + ": ")
        assert "rule " in text or "default" in text


def test_fit_rule_set_cv_saves_the_search_and_the_refitted_rule_set(tmp_path, capsys):
    data, frame = _write_monks(tmp_path)
    model = tmp_path / "cv.json"
    assert main(["fit", str(data), "--target", "target", "--learner", "rule_set_cv",
                 "--param", "cv=2", "--param", "max_degree=2", "--param",
                 "penalties=[0.002, 0.02]", "--output", str(model)]) == 0
    out = capsys.readouterr().out
    assert "chosen by 2-fold cross-validation" in out
    from optirules.learners import BooleanRuleSetCV

    loaded = BooleanRuleSetCV.from_json(model.read_text())
    assert loaded.best_estimator_.rules_.n_rules >= 1
    assert loaded.penalty_ in ((0.002, 0.002), (0.02, 0.02))
    assert loaded.best_estimator_.lambda0 == loaded.penalty_[0]
    assert main(["predict", str(model), str(data)]) == 0  # the CLI reads the search back


@pytest.mark.parametrize(
    "content, argv_extra, message",
    [
        ("a,b\n1,2\n", ["--target", "label"], "no column 'label'"),
        ("a,label\n1,0\n2,0\n3,0\n", ["--target", "label"], "two classes"),
        ("", ["--target", "label"], "not a readable CSV"),
        ('a,label\n"1,0\n', ["--target", "label"], "not a readable CSV"),
        ("a,label\n1,0\n2,1\n", ["--target", "label", "--learner", "nope"], "unknown learner"),
        ("a,label\n1,0\n2,1\n", ["--target", "label", "--learner", "random_forest"], "cannot be saved"),
    ],
)
def test_fit_bad_input_one_line(tmp_path, capsys, content, argv_extra, message):
    path = tmp_path / "d.csv"
    path.write_text(content)
    assert main(["fit", str(path), *argv_extra, "--output", str(tmp_path / "m.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err


@pytest.mark.parametrize(
    "argv_extra, message",
    [
        (["--learner", "decision_list", "--param", "bogus=1"], "has no parameter 'bogus'"),
        (["--learner", "rule_set", "--param", "max_degre=2"], "Did you mean 'max_degree'"),
        (["--learner", "rule_set", "--output", "{tmp}/no/such/folder/m.json"], "does not exist"),
        (["--learner", "rule_set", "--export", "{tmp}/m.txt"], "must end in .lp or .mps"),
        (["--learner", "rule_set", "--export", "{tmp}/absent/m.lp"], "does not exist"),
        (["--learner", "decision_list", "--export", "{tmp}/m.lp"], "no optimization model"),
        (["--learner", "rule_set", "--solver", "nonexistent"], "Installed solvers"),
        # nested beyond Python's recursion limit (json.loads raised RecursionError), and
        # below it but deeper than any parameter takes
        (["--learner", "rule_set", "--param", "max_degree=" + "[" * 5000 + "]" * 5000],
         "--param max_degree: the value nests lists or objects more than 32 levels deep"),
        (["--learner", "rule_set", "--param", "solver=" + '{"a": ' * 40 + "1" + "}" * 40],
         "--param solver: the value nests lists or objects more than 32 levels deep"),
    ],
)
def test_fit_checks_everything_before_fitting(tmp_path, capsys, argv_extra, message):
    """A usage mistake is exit 2 with one line, before any fit: no 'train accuracy' line is
    printed and an existing model file is left as it was."""
    data, _ = _write_monks(tmp_path)
    model = tmp_path / "m.json"
    model.write_text("previous model")
    argv_extra = [a.replace("{tmp}", str(tmp_path)) for a in argv_extra]
    if "--output" not in argv_extra:
        argv_extra += ["--output", str(model)]
    assert main(["fit", str(data), "--target", "target", *argv_extra]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and message in err, err
    assert "train accuracy" not in captured.out
    assert model.read_text() == "previous model"


def test_export_refuses_degree_zero(tmp_path, capsys):
    path = tmp_path / "x.lp"
    assert main(["export", str(path), "--max-degree", "0"]) == 2
    assert "--max-degree must be a whole number of literals per clause, at least 1" in \
        capsys.readouterr().err
    assert not path.exists()


def test_predict_refuses_non_model_json(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "pickle"}')
    data = tmp_path / "d.csv"
    data.write_text("a\n1\n")
    assert main(["predict", str(bad), str(data)]) == 2
    assert "not an optirules JSON model" in capsys.readouterr().err
    bad.write_text("\x80\x04 not json")
    assert main(["predict", str(bad), str(data)]) == 2


def test_fuzzed_csv_files_never_crash(tmp_path):
    """Malformed CSV files give exit code 0 (parsed and fitted) or 2 (a clear error), never an
    uncaught exception (exit 1) or a traceback."""
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    cell = st.one_of(st.text(alphabet='ab,"\n 1.5-x\t;', max_size=6), st.integers(-3, 3).map(str),
                     st.just(""))
    row = st.lists(cell, min_size=0, max_size=4).map(",".join)
    body = st.lists(row, min_size=0, max_size=12).map("\n".join)
    header = st.sampled_from(["a,label", "label", "a,b,label", "", "a,,label", "label,label"])

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(header, body, st.binary(max_size=20))
    def check(head, text, junk):
        path = tmp_path / "f.csv"
        path.write_bytes((head + "\n" + text).encode() + (junk if len(text) % 3 == 0 else b""))
        err, out = io.StringIO(), io.StringIO()
        with redirect_stderr(err), redirect_stdout(out):
            code = main(["fit", str(path), "--target", "label", "--learner", "decision_list",
                         "--output", str(tmp_path / "m.json")])
        assert code in (0, 2), err.getvalue()
        assert "Traceback" not in err.getvalue()

    check()


def test_reproduce_quick_prints_table(capsys):
    assert main(["reproduce", "smooth", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "Table 1" in out and "SB(0.1)" in out


# ------------------------------------------------------------------ help, defaults, progress
def _help(*command: str) -> str:
    import io
    from contextlib import redirect_stdout

    out = io.StringIO()
    with redirect_stdout(out), pytest.raises(SystemExit):
        build_parser().parse_args([*command, "--help"])
    return " ".join(out.getvalue().split())


def test_every_option_of_every_command_has_help_and_its_default():
    """An option without help, or with a default its help does not give, is what a
    first-time user has to guess (fit --test-size, --random-state, --output, --solver,
    export --max-degree were)."""
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices
    for name, sub in commands.items():
        for action in sub._actions:
            if action.dest == "help":
                continue
            what = f"{name} {'/'.join(action.option_strings) or action.dest}"
            assert action.help, f"{what} has no help"
            default = action.default
            if default not in (None, False, [], argparse_suppress()) and action.choices is None:
                assert f"default {default}" in " ".join(action.help.split()) or \
                    f"default: {default}" in action.help, f"{what}: default {default!r} not said"


def argparse_suppress():
    import argparse

    return argparse.SUPPRESS


def test_fit_help_says_where_the_cli_stands_and_how_to_watch_a_long_fit():
    text = _help("fit")
    for phrase in ("--test-size TEST_SIZE share of the rows held out",
                   "(default 0.25)", "(default 0)", "(default model.json)",
                   "--param verbose=true",
                   "the class's own defaults"):
        assert phrase in text, phrase
    assert "default 1)" in _help("export")  # --max-degree


def _numeric_csv(tmp_path):
    rng = np.random.default_rng(0)
    import pandas as pd

    X = pd.DataFrame(rng.normal(size=(240, 4)), columns=["a", "b", "c", "d"]).round(3)
    y = ((X.a > 0.2) & (X.b < 0.5) | (X.c > 1)).astype(int)
    path = tmp_path / "numeric.csv"
    X.assign(label=y).to_csv(path, index=False)
    return path, X, y.to_numpy()


@pytest.mark.parametrize("learner, cls, params", [
    ("boosting", "BoostingClassifier", {"n_estimators": 30}),
    ("rule_set", "BooleanRuleSetClassifier", {"max_degree": 2}),
])
def test_fit_learners_are_the_classes_with_their_defaults(tmp_path, capsys, learner, cls,
                                                          params):
    """``optirules fit --learner boosting`` fits BoostingClassifier() as the API does (it
    used to binarize the numbers first: another model), the rule set likewise, with
    random_state = --random-state on the same stratified split."""
    import json

    from sklearn.model_selection import train_test_split

    import optirules.learners as learners

    data, X, y = _numeric_csv(tmp_path)
    model = tmp_path / "m.json"
    argv = ["fit", str(data), "--target", "label", "--learner", learner, "--output", str(model)]
    for k, v in params.items():
        argv += ["--param", f"{k}={json.dumps(v)}"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y, random_state=0)
    api = getattr(learners, cls)(random_state=0, **params).fit(X_tr, y_tr)
    assert str(api) in out
    saved = getattr(learners, cls).from_json(model.read_text())
    assert saved.to_text() == api.to_text()
    assert f"test accuracy:  {api.score(X_te, y_te):.4f}" in out
    if learner == "boosting":
        assert "numeric columns taken as they are" in out


def test_fit_time_is_labelled_wall_clock_beside_cpu(tmp_path, capsys):
    import re

    data, _ = _write_monks(tmp_path)
    assert main(["fit", str(data), "--target", "target", "--learner", "decision_list",
                 "--output", str(tmp_path / "m.json")]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^fit time:\s+\d+\.\d\d s wall-clock, \d+\.\d\d s CPU of this process$",
                     out, flags=re.MULTILINE), out


def test_verbose_fit_writes_its_bar_and_its_log_lines_on_lines_of_their_own(tmp_path):
    """``--param verbose=true``: the progress bar (redrawn with carriage returns) and the
    log lines go to stderr, and no line of the terminal holds both: each log line is
    written after the bar is cleared (what a terminal shows of a line is what follows its
    last carriage return)."""
    data, _ = _write_monks(tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "optirules", "fit", str(data), "--target", "target",
         "--param", "verbose=true", "--param", "max_degree=2",
         "--output", str(tmp_path / "m.json")],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    shown = [line.rsplit("\r", 1)[-1] for line in proc.stderr.split("\n")]
    logs = [line for line in shown if "[optirules." in line]
    assert len(logs) >= 2 and all(line.startswith("[optirules.") for line in logs), logs
    assert any("column generation" in part for part in proc.stderr.split("\r"))  # the bar
    assert "fit time:" in proc.stdout


def _credit_with_text_labels(tmp_path):
    import pandas as pd

    from optirules.data import load_dataset

    X, y = load_dataset("credit_g")
    frame = X.iloc[:400].copy()
    frame["risk"] = np.where(y[:400] == 1, "bad", "good")  # 'good' is the majority
    path = tmp_path / "credit.csv"
    frame.to_csv(path, index=False)
    return path, pd.read_csv(path)


def test_text_labels_describe_the_minority_and_target_class_chooses(tmp_path, capsys):
    """Labels 'bad'/'good' (good the majority, second in sort order): the rule set
    describes 'bad' and says why; --target-class good describes 'good'; an unknown label
    or a learner without rules is refused before any fit."""
    from optirules.learners import BooleanRuleSetClassifier

    data, frame = _credit_with_text_labels(tmp_path)
    model = tmp_path / "m.json"
    assert main(["fit", str(data), "--target", "risk", "--output", str(model)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("predict 'bad' if any rule holds, else 'good':")
    assert "the rules describe 'bad', the class with fewer training rows" in out
    loaded = BooleanRuleSetClassifier.from_json(model.read_text())
    assert loaded.target_class_ == "bad" and loaded.target_class is None
    assert main(["fit", str(data), "--target", "risk", "--target-class", "good",
                 "--output", str(model)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("predict 'good' if any rule holds, else 'bad':")
    assert "fewer training rows" not in out
    for extra, message in ((["--target-class", "nope"], "not a label of 'risk'"),
                           (["--target-class", "good", "--learner", "boosting"],
                            "has none")):
        assert main(["fit", str(data), "--target", "risk", *extra]) == 2
        assert message in capsys.readouterr().err
