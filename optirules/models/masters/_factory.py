"""Choose the restricted master for a solver and a data set (:func:`restricted_master`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...errors import InputError
from .._clauses import Clause
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


def restricted_master(A: np.ndarray, y: np.ndarray, P: np.ndarray,
                      clauses: Sequence[Clause] = (), *, complexity: float | None = None,
                      lambda0: float = 0.0, lambda1: float = 0.0, lp_solver: str = "highs",
                      master: str = "auto", max_rules: int | None = None,
                      max_literals: int | None = None, groups: Any = None,
                      fairness: str | None = None, fairness_tolerance: float = 0.0,
                      literal_costs: Any = None, required: Any = None) -> Any:
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
    5,000 (which turn into the dual once they stop merging) and direct below; persistent
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
    A : bool array of shape (N, L)
        Literal matrix.
    y : array of shape (N,)
        0/1 labels.
    P : array of shape (N,)
        Row weights (summing to 1).
    clauses : sequence of Clause
        The initial pool.
    complexity : float, optional
        Complexity budget :math:`C`; ``None`` for the penalty form.
    lambda0 : float, default 0.0
        Penalty per clause.
    lambda1 : float, default 0.0
        Penalty per literal.
    lp_solver : str, default "highs"
        The LP solver.
    master : {"auto", "direct", "merged", "persistent", "rebuild", "dual"}, default "auto"
        The implementation (see above).
    max_rules, max_literals : int, optional
        The limit rows of :class:`~optirules.models.RuleMasterModel`; the direct and the
        rebuilt masters hold them (``"auto"`` picks one of those), the others refuse them.
    groups, fairness, fairness_tolerance
        The fairness rows of :class:`~optirules.models.RuleMasterModel`, held by the same
        two masters.
    literal_costs : array of shape (L,), optional
        A cost per literal (:class:`~optirules.models.RuleMasterModel`); the same two
        masters.
    required : sequence of sets of int, optional
        Required groups of literals (:class:`~optirules.models.RuleMasterModel`); the
        same two masters.

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
    limited = max_rules is not None or max_literals is not None or fairness is not None \
        or literal_costs is not None or bool(required)
    if limited and master in ("merged", "dual", "persistent"):
        raise InputError(f"master={master!r} has no max_rules, max_literals, fairness or "
                         "required rows and no literal costs; use master='auto', 'direct' "
                         "(HiGHS) or 'rebuild'.")
    if limited and master == "auto":
        master = "direct" if highspy else "rebuild"
    if master == "auto":
        pos = np.asarray(y) == 1
        n_pos = int(np.count_nonzero(pos))
        if not highspy:
            master = "persistent" if persistent_interface(lp_solver) else "rebuild"
        elif n_pos < _DUAL_MIN_POSITIVES:
            master = "direct"
        else:  # the dual while the label-1 rows are mostly distinct, else merged rows
            rows = np.packbits(np.ascontiguousarray(np.asarray(A, dtype=bool)[pos]), axis=1)
            distinct = np.unique(rows.view(np.dtype((np.void, rows.shape[1]))).ravel()).size
            master = ("dual" if distinct > _DUAL_SHARE * n_pos else
                      "merged" if n_pos >= _MERGE_MIN_POSITIVES else "direct")
    if master in ("direct", "merged", "dual"):
        if not highspy:
            raise InputError(f"master={master!r} is the highspy path and needs the LP solver "
                             f"'highs', got {lp_solver!r}; use 'persistent' or 'rebuild'.")
        cls = {"direct": HighsRuleMaster, "merged": MergedHighsRuleMaster,
               "dual": DualHighsRuleMaster}[master]
        limits = dict(max_rules=max_rules, max_literals=max_literals) if limited else {}
        if fairness is not None:
            limits.update(groups=groups, fairness=fairness,
                          fairness_tolerance=fairness_tolerance)
        if literal_costs is not None:
            limits["literal_costs"] = literal_costs
        if required:
            limits["required"] = required
        return cls(A, y, clauses, sample_weight=P, complexity=complexity, lambda0=lambda0,
                   lambda1=lambda1, options=LP_TOLERANCES, **limits)
    kw = dict(sample_weight=P, complexity=complexity, lambda0=lambda0, lambda1=lambda1,
              solver=lp_solver)
    if master == "persistent":
        return PersistentRuleMaster(A, y, clauses, **kw)
    if fairness is not None:
        kw.update(groups=groups, fairness=fairness, fairness_tolerance=fairness_tolerance)
    if literal_costs is not None:
        kw["literal_costs"] = literal_costs
    if required:
        kw["required"] = required
    return RebuildRuleMaster(A, y, clauses, max_rules=max_rules, max_literals=max_literals,
                             **kw)
