"""The exception hierarchy of optirules.

Every message says what was wrong and what to do next.  Solver-side failures
are wrapped in :class:`SolverError` subclasses so that no raw traceback from
deep inside a solver reaches the user.
"""

from __future__ import annotations

__all__ = [
    "OptirulesError",
    "InputError",
    "SolverError",
    "SolverNotAvailableError",
    "SolverOptionError",
    "SolverStatusError",
    "ModelFormatError",
    "NotFittedError",
]


class OptirulesError(Exception):
    """Base class of every error optirules raises on purpose."""


class InputError(OptirulesError, ValueError):
    """Bad input data or arguments (NaN, wrong shapes, one class, non-binary data ...)."""


class SolverError(OptirulesError, RuntimeError):
    """A solver could not be run or failed while running."""


class SolverNotAvailableError(SolverError, ValueError):
    """An unknown solver name, or one whose package is not installed."""


class SolverOptionError(SolverError, ValueError):
    """A solver option that the chosen backend does not know, or a bad value for one."""


class SolverStatusError(SolverError):
    """Raised by :meth:`SolveResult.raise_for_status` when a solve has no usable solution."""

    def __init__(self, message: str, result=None):
        super().__init__(message)
        self.result = result


class ModelFormatError(OptirulesError, ValueError):
    """A model cannot be written in the requested file format (e.g. a cone in an .lp file)."""


class NotFittedError(OptirulesError, AttributeError):
    """An estimator or model was used before it was fitted or solved."""
