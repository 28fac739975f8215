"""Option-name and option-value checks for SCIP, Gurobi, CPLEX and CBC.

Each check asks the solver's own parameter table (a fresh PySCIPOpt model, an empty Gurobi
environment, a fresh CPLEX object), so a misspelled name or a value out of range raises
:class:`~optirules.errors.SolverOptionError` before any model is built.  HiGHS and Clarabel
are checked in their backends.
"""

from __future__ import annotations

import difflib
from typing import Any

from ..errors import SolverOptionError

__all__ = ["check_scip_options", "check_gurobi_options", "check_cplex_options",
           "check_cbc_options", "CBC_OPTIONS"]

#: what cvxpy's CBC interface passes on: CLP model/solve settings and settable CyCbcModel
#: attributes (any other keyword is silently dropped by cvxpy for an LP)
CBC_OPTIONS = frozenset({
    "dualTolerance", "primalTolerance", "maxNumIteration", "logLevel", "automaticScaling",
    "scaling", "infeasibilityCost", "optimizationDirection", "presolve",
    "allowableFractionGap", "allowableGap", "allowablePercentageGap", "integerTolerance",
    "maximumNodes", "maximumSeconds", "maximumSolutions", "numberThreads",
})


def _unknown(solver: str, name: str, known) -> SolverOptionError:
    close = difflib.get_close_matches(name, list(known), n=3)
    hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
    return SolverOptionError(f"{solver} has no option {name!r}.{hint}")


def check_scip_options(options: dict[str, Any]) -> None:
    """SCIP parameters by their path names (``limits/time``, ``presolving/maxrounds`` ...)."""
    if not options:
        return
    import pyscipopt

    model = pyscipopt.Model()
    model.hideOutput()
    known = model.getParams()
    for key, value in options.items():
        if key not in known:
            raise _unknown("SCIP", key, known)
        try:
            model.setParam(key, value)
        except (ValueError, TypeError, KeyError) as exc:
            raise SolverOptionError(
                f"SCIP refused value {value!r} for option {key!r}: {exc}") from None


def check_gurobi_options(options: dict[str, Any]) -> None:
    """Gurobi parameters by name (``TimeLimit``, ``MIPGap``, ``Threads`` ...)."""
    if not options:
        return
    import gurobipy as gp

    env = gp.Env(empty=True)  # an unstarted environment: no licence is checked
    try:
        for key, value in options.items():
            try:
                env.setParam(key, value)
            except gp.GurobiError as exc:
                if "Unknown parameter" in str(exc):
                    raise SolverOptionError(f"Gurobi has no option {key!r}: {exc}") from None
                raise SolverOptionError(
                    f"Gurobi refused value {value!r} for option {key!r}: {exc}") from None
            except (TypeError, ValueError) as exc:
                raise SolverOptionError(
                    f"Gurobi refused value {value!r} for option {key!r}: {exc}") from None
    finally:
        env.dispose()


def check_cplex_options(options: dict[str, Any], sep: str) -> None:
    """CPLEX parameters by path, joined by ``sep``: ``mip_tolerances_mipgap`` on the Pyomo
    route (``sep="_"``), ``mip.tolerances.mipgap`` in cvxpy's ``cplex_params`` (``"."``)."""
    if not options:
        return
    import cplex

    cpx = cplex.Cplex()
    try:
        for key, value in options.items():
            node = cpx.parameters
            for part in key.split(sep):
                node = getattr(node, part, None)
                if node is None:
                    raise SolverOptionError(
                        f"CPLEX has no option {key!r} (paths are written "
                        f"{'mip' + sep + 'tolerances' + sep + 'mipgap'!r}).")
            if not hasattr(node, "set"):
                raise SolverOptionError(f"CPLEX option {key!r} is a group, not a parameter.")
            try:
                node.set(value)
            except Exception as exc:
                raise SolverOptionError(
                    f"CPLEX refused value {value!r} for option {key!r}: {exc}") from None
    finally:
        cpx.end()


def check_cbc_options(options: dict[str, Any]) -> None:
    """The options cvxpy's CBC interface passes to CLP or CBC (:data:`CBC_OPTIONS`)."""
    for key in options:
        if key not in CBC_OPTIONS:
            raise _unknown("CBC (through cvxpy)", key, CBC_OPTIONS)
