"""The common shape of every optirules formulation object."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from ..errors import NotFittedError

__all__ = ["OptModel"]


class OptModel(ABC):
    """A formulation that holds its data, builds one declarative model and reads its solution.

    Subclasses implement ``_build`` (returning a Pyomo ``ConcreteModel`` or a
    ``cvxpy.Problem``) and ``_read_solution`` (turning a
    :class:`~optirules.solvers.SolveResult` into named numpy arrays stored on the
    object).  The declarative model is built once, on first access to
    :attr:`model`, so that users can inspect it before solving.
    """

    #: default backend name for :meth:`solve`
    default_solver: str = "highs"

    _model: Any = None
    result_ = None

    @property
    def model(self) -> Any:
        """The declarative Pyomo ``ConcreteModel`` or ``cvxpy.Problem`` (built on first use)."""
        if self._model is None:
            self._model = self._build()
        return self._model

    @abstractmethod
    def _build(self) -> Any:
        """Build and return the declarative model."""

    @abstractmethod
    def _read_solution(self, result) -> None:
        """Store the solution of ``result`` (a SolveResult) as named arrays on ``self``."""

    def solve(self, solver: str | None = None, *, time_limit: float | None = None,
              mip_gap: float | None = None, verbose: bool = False, **options):
        """Solve the model with any capable backend and read the solution back.

        Returns the :class:`~optirules.solvers.SolveResult`, also kept as ``result_``.
        A limit that leaves an incumbent is accepted (its status and gap are in the
        result); a solve without any solution raises
        :class:`~optirules.errors.SolverStatusError`.

        Parameters
        ----------
        solver : str, optional
            Solver name (:func:`~optirules.solvers.available_solvers`); ``None`` uses the
            model's ``default_solver``.
        time_limit : float, optional
            Seconds allowed to the solver.
        mip_gap : float, optional
            Relative MIP gap at which the solver stops.
        verbose : bool, default False
            Show the solver's log.
        **options
            Solver-specific options, passed on unchanged.

        Returns
        -------
        SolveResult
            Status, objective, bound, gap and values of the solve.
        """
        from ..solvers import solve

        result = solve(self.model, solver or self.default_solver, time_limit=time_limit,
                       mip_gap=mip_gap, verbose=verbose, **options)
        self.result_ = result
        if not result.has_solution:
            result.raise_for_status()
        self._read_solution(result)
        return result

    # the solvers layer's protocol: solve() and write_model() take any object with these
    def __optirules_model__(self) -> Any:
        return self.model

    def __optirules_solve__(self, solver: str | None = None, **kwargs: Any):
        return self.solve(solver, **kwargs)

    def write(self, path) -> None:
        """Write the model to ``path`` (.lp or .mps by suffix) with readable names.

        Parameters
        ----------
        path : str or path-like
            File name ending in ``.lp`` or ``.mps``.
        """
        from ..solvers import write_model

        write_model(self.model, path)

    def _check_solved(self) -> None:
        if self.result_ is None:
            raise NotFittedError(
                f"{type(self).__name__} has not been solved yet: call .solve() first."
            )
