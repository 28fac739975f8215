"""HiGHS prints a banner on the first ``Highs`` object of a process; no route of optirules
may let it reach the user's standard output (it would corrupt ``optirules predict`` CSV on
stdout and clutter notebooks).  Each route runs in a fresh interpreter, where the banner
has not been shown yet."""

import subprocess
import sys

import pytest

ROUTES = {
    "pyomo": """
import pyomo.environ as pyo
from optirules.solvers import solve
m = pyo.ConcreteModel(); m.x = pyo.Var(bounds=(0, 1)); m.o = pyo.Objective(expr=m.x)
print("objective", solve(m, "highs").objective)
""",
    "cvxpy": """
import cvxpy as cp
from optirules.solvers import solve
x = cp.Variable(nonneg=True)
print("objective", solve(cp.Problem(cp.Minimize(x), [x >= 1]), "highs").objective)
""",
    "rule_master": """
import numpy as np
from optirules.models import HighsRuleMaster
A = np.array([[1, 0], [0, 1], [1, 1]], dtype=bool)
m = HighsRuleMaster(A, np.array([1, 0, 1]), [(0,)], lambda0=0.01, lambda1=0.01)
print("objective", round(m.solve(), 6))
""",
}


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_no_highs_banner_on_stdout(route):
    proc = subprocess.run([sys.executable, "-c", ROUTES[route]], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "objective" in proc.stdout
    assert "Running HiGHS" not in proc.stdout + proc.stderr


def test_banner_is_really_printed_without_the_guard():
    """The premise: a bare highspy.Highs() in a fresh process prints it (so the test above
    tests something)."""
    proc = subprocess.run([sys.executable, "-c", "import highspy; highspy.Highs()"],
                          capture_output=True, text=True, timeout=60)
    assert "Running HiGHS" in proc.stdout
