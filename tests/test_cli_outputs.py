"""The command line never loses output: outputs that are inputs (or each other) are refused,
every path and number is checked before any work, and every write is atomic and checked."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time

import pytest

from optirules.cli import main
from optirules.solvers import read_model


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A small CSV (MONK's 1 test file), a decision list fitted on it, and its JSON."""
    from optirules.data import load_dataset

    folder = tmp_path_factory.mktemp("cli_outputs")
    X, y = load_dataset("monks1_test")
    frame = X.copy()
    frame["target"] = y
    data = folder / "d.csv"
    frame.to_csv(data, index=False)
    model = folder / "m.json"
    assert main(["fit", str(data), "--target", "target", "--learner", "decision_list",
                 "--output", str(model)]) == 0
    return folder, data, model


def _fails_in_one_line(capsys, argv, message):
    assert main(argv) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert message in err, err
    return captured


# ------------------------------------------------------------------ outputs that are inputs
@pytest.mark.parametrize("case", [
    "fit --output data", "fit --output data via a link", "fit --output == --export",
    "fit --output data/../data", "predict --output data", "predict --output model",
    "predict --output model via a link",
])
def test_an_output_that_is_an_input_is_refused_before_any_work(files, case, capsys):
    folder, data, model = files
    link = folder / "link_to_input"
    if link.is_symlink():
        link.unlink()
    link.symlink_to(model if "model" in case else data)
    before = {p: p.read_bytes() for p in (data, model)}
    dotted = folder / ".." / folder.name / "d.csv"
    argv, message = {
        "fit --output data": (["fit", str(data), "--target", "target", "--output", str(data)],
                              "is the same file as the input data"),
        "fit --output data via a link": (["fit", str(data), "--target", "target", "--output",
                                          str(link)], "is the same file as the input data"),
        "fit --output == --export": (["fit", str(data), "--target", "target", "--output",
                                      str(folder / "x.lp"), "--export", str(folder / "x.lp")],
                                     "are the same file"),
        "fit --output data/../data": (["fit", str(data), "--target", "target", "--output",
                                       str(dotted)], "is the same file as the input data"),
        "predict --output data": (["predict", str(model), str(data), "--output", str(data)],
                                  "is the same file as the input data"),
        "predict --output model": (["predict", str(model), str(data), "--output", str(model)],
                                   "is the same file as the input model"),
        "predict --output model via a link": (["predict", str(model), str(data), "--output",
                                               str(link)], "is the same file as the input model"),
    }[case]
    captured = _fails_in_one_line(capsys, argv, message)
    assert "train accuracy" not in captured.out  # refused before the fit
    assert {p: p.read_bytes() for p in (data, model)} == before
    assert not (folder / "x.lp").exists()


def test_collision_is_found_before_the_input_is_read(tmp_path, capsys):
    """A model file that is not JSON: the collision, not the bad model, is reported."""
    model = tmp_path / "m.json"
    model.write_text("not json")
    data = tmp_path / "d.csv"
    data.write_text("a,b\n1,2\n")
    _fails_in_one_line(capsys, ["predict", str(model), str(data), "--output", str(model)],
                       "same file as the input model")
    assert model.read_text() == "not json"


# ------------------------------------------------------------------ output paths
@pytest.mark.parametrize("argv, message", [
    (["fit", "{data}", "--target", "target", "--export", "{dir}/x.txt"], "must end in .lp or .mps"),
    (["fit", "{data}", "--target", "target", "--output", "{dir}/no/m.json"], "does not exist"),
    (["fit", "{data}", "--target", "target", "--output", "{dir}"], "is a folder"),
    (["predict", "{model}", "{data}", "--output", "{dir}/no/p.csv"], "does not exist"),
    (["export", "{dir}/x.txt"], "must end in .lp or .mps"),
    (["export", "{dir}/no/x.lp"], "does not exist"),
    (["demo", "--output", "{dir}/x.json"], "must end in .lp or .mps"),
    (["demo", "--output", "{dir}/no/x.lp"], "does not exist"),
    (["reproduce", "parity", "--quick", "--output", "{dir}/no/r.csv"], "does not exist"),
])
def test_bad_output_paths_are_refused_before_any_work(files, argv, message, capsys):
    folder, data, model = files
    argv = [a.format(data=data, model=model, dir=folder) for a in argv]
    t0 = time.perf_counter()
    captured = _fails_in_one_line(capsys, argv, message)
    assert captured.out == ""  # nothing was fitted, solved or run
    assert time.perf_counter() - t0 < 30


def test_demo_output_linked_to_its_json_is_refused(tmp_path, capsys):
    (tmp_path / "x.json").write_text("{}")
    (tmp_path / "x.lp").symlink_to(tmp_path / "x.json")
    _fails_in_one_line(capsys, ["demo", "--output", str(tmp_path / "x.lp")], "same file")
    assert (tmp_path / "x.json").read_text() == "{}"


def test_fit_exports_an_upper_case_suffix(files, tmp_path, capsys):
    """--export x.LP passes the check before the fit and is written after it."""
    _, data, _ = files
    out = tmp_path / "x.LP"
    assert main(["fit", str(data), "--target", "target", "--output", str(tmp_path / "m.json"),
                 "--export", str(out), "--param", "max_degree=2"]) == 0
    assert "model exported" in capsys.readouterr().out
    res = read_model(out.rename(tmp_path / "x.lp"))
    assert res.status.value == "optimal"
    assert sorted(os.listdir(tmp_path)) == ["m.json", "x.lp"]


# ------------------------------------------------------------------ numeric options
@pytest.mark.parametrize("argv, message", [
    (["fit", "{data}", "--target", "target", "--test-size", "0"], "--test-size must be"),
    (["fit", "{data}", "--target", "target", "--test-size", "1"], "--test-size must be"),
    (["fit", "{data}", "--target", "target", "--test-size", "-0.2"], "--test-size must be"),
    (["fit", "{data}", "--target", "target", "--test-size", "nan"], "--test-size must be"),
    (["fit", "{data}", "--target", "target", "--test-size", "1.5"], "--test-size must be"),
    (["fit", "{data}", "--target", "target", "--random-state", "-1"], "--random-state must be"),
    (["fit", "no_such.csv", "--target", "target", "--test-size", "0"], "--test-size must be"),
    (["reproduce", "parity", "--quick", "--n-jobs", "0"], "--n-jobs must be"),
    (["export", "{dir}/x.lp", "--max-degree", "0"], "--max-degree must be"),
    (["export", "{dir}/x.lp", "--n-thresholds", "0"], "--n-thresholds must be"),
    (["export", "{dir}/x.lp", "--complexity", "-1"], "--complexity must be"),
    (["export", "{dir}/x.lp", "--complexity", "inf"], "--complexity must be"),
    (["demo", "--output", "{dir}/x.lp", "--time-limit", "0"], "--time-limit must be"),
    (["demo", "--output", "{dir}/x.lp", "--time-limit", "nan"], "--time-limit must be"),
    (["demo", "--output", "{dir}/x.lp", "--max-degree", "-2"], "--max-degree must be"),
    (["demo", "--output", "{dir}/x.lp", "--complexity", "0"], "--complexity must be"),
])
def test_numeric_options_get_our_messages_before_any_work(files, argv, message, capsys):
    folder, data, _ = files
    argv = [a.format(data=data, dir=folder) for a in argv]
    captured = _fails_in_one_line(capsys, argv, message)
    err = captured.err.lower()
    assert "sklearn" not in err and "scikit" not in err and "joblib" not in err
    assert "invalidparameter" not in err and captured.out == ""
    assert not (folder / "x.lp").exists()


def test_export_refuses_an_enumeration_too_large_before_it(tmp_path):
    from optirules.data import FeatureBinarizer, load_dataset

    X, _ = load_dataset("tic_tac_toe")
    n_lit = FeatureBinarizer(n_thresholds=9).fit(X).transform(X).shape[1]
    count = sum(math.comb(n_lit, d) for d in range(1, 51))
    out = tmp_path / "x.lp"
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "optirules", "export", str(out),
                           "--max-degree", "50"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert f"{count:,} candidate clauses" in proc.stderr
    fits = max(d for d in range(1, 51)
               if sum(math.comb(n_lit, k) for k in range(1, d + 1)) <= 10_000_000)
    assert f"--max-degree {fits} or less" in proc.stderr
    assert not out.exists() and time.perf_counter() - t0 < 300


# ------------------------------------------------------------------ atomic, checked writes
needs_dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")


@needs_dev_full
@pytest.mark.parametrize("command", ["predict --output", "predict stdout", "fit --output"])
def test_a_full_disk_is_an_error(files, tmp_path, command):
    _, data, model = files
    link = tmp_path / "full.csv"
    link.symlink_to("/dev/full")
    if command == "predict --output":
        argv, stdout = ["predict", str(model), str(data), "--output", str(link)], None
    elif command == "predict stdout":
        argv, stdout = ["predict", str(model), str(data)], open("/dev/full", "w")
    else:
        argv, stdout = ["fit", str(data), "--target", "target", "--learner", "decision_list",
                        "--output", str(link)], None
    try:
        proc = subprocess.run([sys.executable, "-m", "optirules", *argv], text=True,
                              stdout=stdout or subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=300)
    finally:
        if stdout is not None:
            stdout.close()
    assert proc.returncode == 2, proc.stderr
    assert "No space left on device" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_interrupted_predict_keeps_the_old_output(files, tmp_path):
    """Ctrl-C while predict runs on a large file: the old predictions file stays whole, and no
    temporary file is left beside it."""
    import pandas as pd

    _, data, model = files
    big = tmp_path / "big.csv"
    pd.concat([pd.read_csv(data)] * 600).to_csv(big, index=False)
    out = tmp_path / "p.csv"
    out.write_text("prediction\nold\n")
    proc = subprocess.Popen([sys.executable, "-m", "optirules", "predict", str(model), str(big),
                             "--output", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            # a child of a background shell job starts with SIGINT ignored
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # interrupt once the command is running: after the imports, while it reads or predicts
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
        if any(f.name.startswith(".p.csv.") for f in tmp_path.iterdir()) or \
                time.monotonic() > deadline - 118:
            break
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    if proc.returncode == 0:  # finished before the signal: the new file is whole
        assert len(pd.read_csv(out)) == len(pd.read_csv(big))
    else:
        assert proc.returncode == 130 and "interrupted" in err, err
        assert out.read_text() == "prediction\nold\n"
    assert sorted(f.name for f in tmp_path.iterdir()) == ["big.csv", "p.csv"]
