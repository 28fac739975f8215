"""Experiments: the grid runner and the papers' reproductions."""

from .._lazy import lazy_exports

_EXPORTS = {
    "run_grid": "._grid",
    "GridResult": "._grid",
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
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
