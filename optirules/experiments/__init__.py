"""Experiments: the grid runner and the papers' reproductions.

Each reproduction is a module with ``run(quick=...)`` and ``format_table(frame)`` (what
``optirules reproduce NAME`` runs) and the data, seeds and helpers its ``__all__`` lists:
``parity`` (Reyzin's sparse parities), ``smooth`` (Long and Servedio's smooth
boosting), ``decision_list`` (BruteDL with Minimum OSR), ``pruning`` (QMM ensemble
pruning) and ``rules`` (the DRO paper's rule sets and ensembles), each
``optirules.experiments.<name>``.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS = {
    "run_grid": "._grid",
    "GridResult": "._grid",
    "GridWorkers": "._grid",
    "Cell": "._grid",
    "evaluate_cell": "._grid",
    "make_learner": "._grid",
    "summarize": "._grid",
    "average_ranks": "._grid",
    "LEARNERS": "._grid",
    "run_demo": "._demo",
    "format_demo": "._demo",
    "run_rules_demo": "._rules",
    "format_rules_demo": "._rules",
    "RulesDemoSettings": "._rules",
}
_MODULES = {
    "parity": "._parity",
    "smooth": "._smooth",
    "decision_list": "._decision_list",
    "pruning": "._pruning",
    "rules": "._rules",
}
__all__ = sorted([*_EXPORTS, *_MODULES])
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, _MODULES)

# isort: off
if TYPE_CHECKING:  # the real names, for IDEs and type checkers (nothing imported at run time)
    from . import _decision_list, _parity, _pruning, _rules, _smooth
    decision_list = _decision_list
    parity = _parity
    pruning = _pruning
    rules = _rules
    smooth = _smooth
    from ._demo import (
        format_demo as format_demo,
        run_demo as run_demo,
    )
    from ._grid import (
        LEARNERS as LEARNERS,
        Cell as Cell,
        GridResult as GridResult,
        GridWorkers as GridWorkers,
        average_ranks as average_ranks,
        evaluate_cell as evaluate_cell,
        make_learner as make_learner,
        run_grid as run_grid,
        summarize as summarize,
    )
    from ._rules import (
        RulesDemoSettings as RulesDemoSettings,
        format_rules_demo as format_rules_demo,
        run_rules_demo as run_rules_demo,
    )
# isort: on
