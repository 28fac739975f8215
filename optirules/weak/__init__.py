"""Weak learners for boosting: stumps, best single literals, sparse parities, CART."""

from .._lazy import lazy_exports

_EXPORTS = {
    "WeakLearner": "._base",
    "WeakHypothesis": "._base",
    "StumpLearner": "._stump",
    "Stump": "._stump",
    "LiteralLearner": "._literal",
    "LiteralHypothesis": "._literal",
    "Constant": "._base",
    "ParityLearner": "._parity",
    "Parity": "._parity",
    "best_parity": "._parity",
    "CartLearner": "._cart",
    "PreparedData": "._base",
    "check_binary_matrix": "._base",
    "hypothesis_from_dict": "._base",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
