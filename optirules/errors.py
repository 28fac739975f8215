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
    "OutputError",
    "NotFittedError",  # noqa: F822  (made on first use by the module __getattr__ below)
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
    """Raised by :meth:`~optirules.solvers.SolveResult.raise_for_status` when a solve has no usable solution.

    Parameters
    ----------
    message : str
        What went wrong (the solver's status and termination reason).
    result : SolveResult, optional
        The result of the failed solve, kept as the ``result`` attribute.
    """

    def __init__(self, message: str, result=None):
        super().__init__(message)
        self.result = result


class ModelFormatError(OptirulesError, ValueError):
    """A model cannot be written in the requested file format (e.g. a cone in an .lp file)."""


class OutputError(OptirulesError, OSError):
    """A file could not be written (a full disk, a missing folder, no permission, or an output
    path that is also one of the inputs); the previous content of the target is kept."""


_not_fitted: type | None = None


def __getattr__(name: str):
    # NotFittedError subclasses scikit-learn's, so ``except sklearn.exceptions.NotFittedError``
    # catches it too; it is made on first use, so that importing optirules.errors (the solvers
    # layer and the command line do) does not import scikit-learn.
    global _not_fitted
    if name != "NotFittedError":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if _not_fitted is None:
        from sklearn.exceptions import NotFittedError as _SklearnNotFittedError

        class NotFittedError(OptirulesError, _SklearnNotFittedError):
            """An estimator or model was used before it was fitted or solved (a subclass of
            scikit-learn's ``NotFittedError``, itself a ``ValueError`` and ``AttributeError``)."""

        NotFittedError.__module__ = __name__
        NotFittedError.__qualname__ = "NotFittedError"
        _not_fitted = NotFittedError
    return _not_fitted
