"""The ``optirules`` command: subcommands, the demo's figures, one-line errors."""

from __future__ import annotations

import subprocess
import sys

import pytest

from optirules.cli import build_parser, main
from optirules.solvers import read_model


def test_solvers_lists_highs_and_clarabel(capsys):
    assert main(["solvers"]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert "highs" in lines and "milp" in lines["highs"]
    assert "clarabel" in lines and "exp_cone" in lines["clarabel"]


def test_demo_recovers_monks1_concept(tmp_path, capsys):
    """MONK's problem 1 is `a1 == a2 or a5 == 1`: with clauses of two literals and a budget
    of 11 the optimal rule set is exactly that concept, so the test file (all 432 possible
    robots) is classified without error."""
    path = tmp_path / "demo.lp"
    assert main(["demo", "--output", str(path)]) == 0
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
        (["demo", "--max-degree", "0"], "max_degree"),
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
