r"""The restricted masters: the weighted Hamming-loss rule master of the DRO paper (eqs 6-8)
as a declarative Pyomo model, and the LP implementations column generation uses.

The DRO paper (*Obtaining Explainable Classification Models using Distributionally Robust Optimization*, Section 3, "Column Generation for (4)")
chooses a DNF rule set from a pool of clauses ``K`` by

.. math::

    \min\ & \sum_{i \in P^+} \xi_i + \sum_{k \in K} \Big(\sum_{i \in Z_k} P_i\Big) w_k
        && (6)\\
    \text{s.t. } & \xi_i + P_i \sum_{k \in K_i} w_k \ge P_i,\quad \xi_i \ge 0,
        \quad i \in P^+ && (7)\\
    & \sum_{k \in K} c_k w_k \le C,\quad w_k \in \{0, 1\},\ k \in K && (8)

with ``Z_k`` the label-0 rows clause ``k`` covers (the paper's sentence defining
``Z_k`` omits "covered by k"; its next paragraph, "rules ... that give incorrect
values to 0 label data points", fixes the meaning) and ``K_i`` the clauses covering
row ``i``.  The paper writes :math:`\sum_i \xi_i` *without* a weight: ``xi_i``
already carries ``P_i`` through (7) (at the optimum ``xi_i = P_i`` when row ``i``
is missed, 0 otherwise), and only label-1 rows have a ``xi``.  The penalty form of
BRCG implementations drops the budget row and adds
:math:`\sum_k (\lambda_0 + \lambda_1 |k|) w_k` to the objective.

One module per master, all behind :class:`RestrictedMaster` (what column generation
needs: add clauses, solve the LP, give duals, solve the master IP):

* :class:`RuleMasterModel` (``_pyomo``): the declarative Pyomo model, IP or LP, exported
  as LP/MPS;
* :class:`HighsRuleMaster` (``_highs``, ``master="direct"``): the LP in one warm
  ``highspy`` model, columns appended;
* :class:`MergedHighsRuleMaster` (``_merged``, ``master="merged"``): the same LP over rows
  merged by their coverage of the pool;
* :class:`DualHighsRuleMaster` (``_dual``, ``master="dual"``): the LP's dual, one row per
  clause;
* :class:`PersistentRuleMaster` (``_persistent``, ``master="persistent"``): a Pyomo
  persistent solver (HiGHS, Gurobi, CPLEX);
* :class:`RebuildRuleMaster` (``_rebuild``, ``master="rebuild"``): rebuilt at every solve,
  for any LP solver with duals.

:func:`restricted_master` (``_factory``) picks one; ``_data`` holds the validated data and
pool every master shares, ``_ip`` the master IP through the Pyomo model, ``_highs_lp`` the
HiGHS settings and the iteration-bounded warm LP run.
"""

from ._data import MasterData, PoolView, aggregate_rows, lp_name
from ._dual import DualHighsRuleMaster
from ._factory import restricted_master
from ._fairness import FairnessRows
from ._highs import HighsRuleMaster
from ._highs_lp import LP_TOLERANCES, WARM_ITERATION_FACTOR, WARM_ITERATION_FLOOR, run_lp
from ._ip import MasterIPMixin
from ._merged import MergedHighsRuleMaster
from ._persistent import PersistentRuleMaster
from ._protocol import MasterIP, RestrictedMaster
from ._pyomo import RuleMasterModel
from ._rebuild import RebuildRuleMaster

__all__ = ["DualHighsRuleMaster", "FairnessRows", "HighsRuleMaster", "LP_TOLERANCES", "MasterData",
           "MasterIP", "MasterIPMixin", "MergedHighsRuleMaster", "PersistentRuleMaster",
           "PoolView", "RebuildRuleMaster", "RestrictedMaster",
           "RuleMasterModel", "WARM_ITERATION_FACTOR", "WARM_ITERATION_FLOOR",
           "aggregate_rows", "lp_name", "restricted_master", "run_lp"]
