"""Weak learners for boosting: stumps, best single literals, sparse parities, CART.

Every hypothesis module is imported here, so each hypothesis type has registered itself
(``WeakHypothesis.__init_subclass__``) before :func:`hypothesis_from_dict` reads a saved one.
"""

from ._base import (
    HYPOTHESIS_TYPES,
    Constant,
    PreparedData,
    WeakHypothesis,
    WeakLearner,
    check_binary_matrix,
    hypothesis_from_dict,
)
from ._cart import CartLearner, TreeHypothesis, check_tree_input
from ._literal import LiteralHypothesis, LiteralLearner
from ._parity import Parity, ParityLearner, best_parity
from ._stump import Stump, StumpLearner

__all__ = [
    "HYPOTHESIS_TYPES",
    "CartLearner",
    "Constant",
    "LiteralHypothesis",
    "LiteralLearner",
    "Parity",
    "ParityLearner",
    "PreparedData",
    "Stump",
    "StumpLearner",
    "TreeHypothesis",
    "WeakHypothesis",
    "WeakLearner",
    "best_parity",
    "check_binary_matrix",
    "check_tree_input",
    "hypothesis_from_dict",
]
