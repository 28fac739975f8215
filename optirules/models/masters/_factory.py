"""Choose the restricted master for a solver and a data set (:func:`restricted_master`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...errors import InputError
from .._clauses import Clause
from .._problem import RuleSetProblem
from ..options import MASTERS
from ._dual import DualHighsRuleMaster
from ._highs import HighsRuleMaster
from ._highs_lp import LP_TOLERANCES
from ._merged import MergedHighsRuleMaster
from ._persistent import PersistentRuleMaster, persistent_interface
from ._rebuild import RebuildRuleMaster

__all__ = ["restricted_master"]

#: master="auto" on HiGHS merges rows (:class:`MergedHighsRuleMaster`) from this many
#: label-1 rows on
_MERGE_MIN_POSITIVES = 5000

#: ... and the dual master (DualHighsRuleMaster) from this many label-1 rows on when more
#: than this share of them are distinct rows of the literal matrix
_DUAL_MIN_POSITIVES = 1000
_DUAL_SHARE = 0.5
#: ... but merged rows from this many label-1 rows on whatever their share: the dual holds
#: one HiGHS column per label-1 row (its model, and the presolve of a cold re-solve, grow
#: with them), merged rows one row per group of the pool's coverage, and they turn into
#: the dual themselves when they stop merging
_DUAL_MAX_POSITIVES = 1_000_000


def restricted_master(problem: RuleSetProblem, clauses: Sequence[Clause] = (), *,
                      lp_solver: str = "highs", master: str = "auto") -> Any:
    """The restricted master LP implementation for ``lp_solver``.

    ``master``: ``"direct"`` (:class:`~optirules.models.HighsRuleMaster`,
    HiGHS only), ``"merged"`` (:class:`~optirules.models.MergedHighsRuleMaster`:
    the same LP over rows merged by their coverage of the pool, HiGHS only),
    ``"persistent"`` (:class:`~optirules.models.PersistentRuleMaster`:
    HiGHS, Gurobi, CPLEX), ``"rebuild"``
    (:class:`~optirules.models.RebuildRuleMaster`: any LP solver with duals),
    ``"dual"`` (:class:`~optirules.models.DualHighsRuleMaster`: the LP's dual,
    one row per clause, HiGHS only), ``"auto"``: for HiGHS the dual from 1,000 label-1
    rows on when more than half of them are distinct rows of ``A``, else merged rows from
    5,000 (which turn into the dual once they stop merging) and direct below, and merged
    rows from a million label-1 rows on whatever their share (the dual's HiGHS model holds
    a column per label-1 row; merged rows hold a row per group and turn into the dual
    when they stop merging: on the planted DNF at ten million rows, far less memory and
    time, ``benchmarks/results/scale.md``); persistent
    where the solver has a persistent interface, rebuild otherwise.  (Distinct literal rows
    may still merge by their coverage of the pool, so on the planted DNF's random bits the
    dual and merged rows are about as fast.)  The dual wins where the label-1 rows are many
    and nearly all distinct (magic_gamma: far less LP time than the direct master at the
    same optimum, and less column generation than merged rows); merged rows win where many
    rows coincide (adult, the planted DNF of ``benchmarks/results/scale.md``).  Below 5,000
    label-1 rows the LP is cheap either way and merged rows stop paying once the pool
    separates most rows.  The figures are in docs/user_guide/models.md.

    Parameters
    ----------
    problem : RuleSetProblem
        The problem: literal matrix, labels, row weights, budget or penalties, and the side
        constraints (``max_rules``, ``max_literals``, the fairness rows, literal costs,
        required groups), which the direct and the rebuilt masters hold (``"auto"`` then
        picks one of those) and the others refuse.  Its ``max_degree`` and ``conflicts``
        are pricing's.
    clauses : sequence of Clause
        The initial pool.
    lp_solver : str, default "highs"
        The LP solver.
    master : {"auto", "direct", "merged", "persistent", "rebuild", "dual"}, default "auto"
        The implementation (see above).

    Returns
    -------
    RestrictedMaster
        The restricted master, not yet solved.
    """
    if master not in MASTERS:
        raise InputError(f"master must be one of {MASTERS}, got {master!r}.")
    from ...solvers import capable

    lp_solver = lp_solver.strip().lower()
    highspy = capable(lp_solver, "duals", "highspy")  # the highspy masters can hold its LP
    limited = problem.limited
    if limited and master in ("merged", "dual", "persistent"):
        raise InputError(f"master={master!r} has no max_rules, max_literals, fairness or "
                         "required rows and no literal costs; use master='auto', 'direct' "
                         "(HiGHS) or 'rebuild'.")
    if limited and master == "auto":
        master = "direct" if highspy else "rebuild"
    if master == "auto":
        pos = np.asarray(problem.labels) == 1
        n_pos = int(np.count_nonzero(pos))
        if not highspy:
            master = "persistent" if persistent_interface(lp_solver) else "rebuild"
        elif n_pos < _DUAL_MIN_POSITIVES:
            master = "direct"
        elif n_pos >= _DUAL_MAX_POSITIVES:
            master = "merged"
        else:  # the dual while the label-1 rows are mostly distinct, else merged rows
            rows = np.packbits(np.ascontiguousarray(np.asarray(problem.literals,
                                                               dtype=bool)[pos]), axis=1)
            distinct = np.unique(rows.view(np.dtype((np.void, rows.shape[1]))).ravel()).size
            master = ("dual" if distinct > _DUAL_SHARE * n_pos else
                      "merged" if n_pos >= _MERGE_MIN_POSITIVES else "direct")
    if master in ("direct", "merged", "dual") and not highspy:
        raise InputError(f"master={master!r} is the highspy path and needs the LP solver "
                         f"'highs', got {lp_solver!r}; use 'persistent' or 'rebuild'.")
    if master == "direct":
        return HighsRuleMaster.from_problem(problem, clauses, options=LP_TOLERANCES)
    if master == "rebuild":
        return RebuildRuleMaster.from_problem(problem, clauses, solver=lp_solver)
    # merged rows, the dual and the persistent master: no side constraints
    plain = dict(sample_weight=problem.sample_weight, complexity=problem.complexity,
                 lambda0=problem.lambda0, lambda1=problem.lambda1)
    if master == "persistent":
        return PersistentRuleMaster(problem.literals, problem.labels, clauses, solver=lp_solver,
                                    **plain)
    cls = MergedHighsRuleMaster if master == "merged" else DualHighsRuleMaster
    return cls(problem.literals, problem.labels, clauses, options=LP_TOLERANCES, **plain)
