"""The models' options in one namespace: the values a choice parameter takes and the
thresholds where an ``"auto"`` choice switches.

Read them as ``optirules.models.options.PRICING`` and so on; the models and learners import
them from here, so a value changed here is the one every part uses.
"""

from __future__ import annotations

__all__ = ["BRANCH_AND_BOUND_ROWS", "EXACT_METHODS", "FAIRNESS", "LARGE_MASTER_IP_ROWS",
           "MASTERS", "MASTER_IPS", "MAX_ENUMERATED_CLAUSES", "PRICING"]

#: how column generation prices (``pricing=``): beam search first where exact pricing is
#: costly (``"auto"``), exact pricing every iteration, or beam search alone
PRICING = ("auto", "exact", "beam")
#: how exact pricing is done (``exact_method=``): enumeration up to degree 3 (``"auto"``),
#: pruned enumeration, or the pricing MILP
EXACT_METHODS = ("auto", "enumerate", "milp")
#: how the final master IP is solved (``column_generation(master_ip=)``)
MASTER_IPS = ("milp", "auto", "branch_and_bound")
#: the fairness rows of the rule master (``column_generation(fairness=)``): equal miss
#: rates of the label-1 rows across groups (equal opportunity: equal true-positive rates),
#: equal rates of covered label-0 rows (predictive equality: equal false-positive rates),
#: or both (equalized odds)
FAIRNESS = ("equal_opportunity", "predictive_equality", "equalized_odds")
#: implementations of the restricted master LP (``restricted_master(master=)``)
MASTERS = ("auto", "direct", "merged", "dual", "persistent", "rebuild")
#: master_ip="auto" on HiGHS solves master IPs of at least this many merged label-1 rows by
#: branch_and_bound_master, the others by HiGHS's MILP: from this size branch and bound was
#: faster on every DRO member IP, below it slower on the hardest, where HiGHS's cuts close
#: the gap (chosen on the runs in benchmarks/results/master_ip.md).  The MILP's LPs have one
#: row per cover row, the dual node LPs one per clause: the first wins where the rows are
#: many.
BRANCH_AND_BOUND_ROWS = 5000
#: the highspy master IP of at least this many label-1 cover rows runs without HiGHS's
#: presolve and feasibility-jump heuristic and with pseudocost branching from the start: on
#: such IPs presolve removes almost no rows and costs a large share of the solve, while
#: smaller IPs keep HiGHS's defaults (read at each solve, so a value set here applies to
#: the next one; the runs are in benchmarks/results/dro_master.md)
LARGE_MASTER_IP_ROWS = 5000
#: all_clauses refuses to enumerate more candidate clauses than this (checked before any work)
MAX_ENUMERATED_CLAUSES = 10_000_000
