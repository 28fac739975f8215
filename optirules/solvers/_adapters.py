"""One adapter class per solver: what it is called, what it can solve on which route, how its
options are spelled and checked, and how its own status words map to :class:`Status`.

The upper layers ask these questions through :func:`adapter` and :func:`capable`, never by
comparing a solver's name.  Knowing whether a solver is installed costs no import of Pyomo,
CVXPY or the solver: :meth:`SolverAdapter.available` looks the needed modules up with
:func:`importlib.util.find_spec` (and executables on ``PATH``), so a fit with the default
HiGHS imports neither modelling library.
"""

from __future__ import annotations

import difflib
import functools
import importlib.util
import shutil
from collections.abc import Mapping
from typing import Any, ClassVar

from ..errors import SolverNotAvailableError
from ._result import Status

__all__ = ["SolverAdapter", "adapter", "adapters", "capable", "cvxpy_solvers", "ROUTES",
           "PROBLEM_CLASSES"]

#: the routes a problem reaches a solver by: a Pyomo model, a ``cvxpy.Problem``, or a
#: ``highspy.Highs`` model handed to HiGHS directly
ROUTES = ("pyomo", "cvxpy", "highspy")
#: the problem classes among the capabilities (the others: "duals", "qp_duals")
PROBLEM_CLASSES = ("lp", "milp", "qp", "socp", "exp_cone", "sdp")

_LP_MILP_DUALS = frozenset({"lp", "milp", "duals"})
_QP_ALL = frozenset({"lp", "milp", "qp", "duals", "qp_duals"})
_CONIC = frozenset({"lp", "qp", "socp", "exp_cone", "sdp", "duals", "qp_duals"})


class SolverAdapter:
    """What optirules knows of one solver; a subclass per solver sets the class attributes.

    Attributes
    ----------
    name : str
        The lowercase name to pass as ``solver=``.
    title : str
        The solver's own spelling, for messages (``"HiGHS"``).
    aliases : tuple of str
        Other names accepted for it (any case).
    distribution : str
        The Python distribution whose version is reported.
    routes : mapping of str to frozenset of str
        Per route (``"pyomo"``, ``"cvxpy"``, ``"highspy"``) the capabilities it is claimed
        for (``lp, milp, qp, socp, exp_cone, sdp, duals, qp_duals``).
    requires : mapping of str to tuple of str
        Per route the modules that must be importable; an entry ``"exe:NAME"`` is an
        executable that must be on ``PATH``.
    time_limit_option, mip_gap_option, abs_gap_option, threads_option, seed_option, \
node_limit_option : str or None
        The solver's own names (as its Pyomo route and its own API take them) for the time
        limit in seconds, the relative and the absolute MIP gap, the number of threads, the
        random seed and the bound on branch-and-bound nodes; ``None`` where it has none or
        optirules does not know it.
    default_abs_gap : float or None
        The solver's default absolute MIP gap, where optirules knows it.
    cvxpy_name : str or None
        Its name among cvxpy's solvers.
    cvxpy_limits : tuple of (str or None, str or None, str or None)
        How cvxpy's interface takes (time limit, relative MIP gap, nested dict): the
        options' names, and the keyword of the dict they go in (``None``: top level).
    pyomo_interface : tuple of (str, str) or None
        ``("contrib", name)`` for ``pyomo.contrib.solver``'s interface, ``("classic",
        name)`` for Pyomo's classic ``SolverFactory``; ``None`` when the Pyomo route is not
        one of these (CBC runs through cylp).
    pyomo_persistent : tuple of (str, str) or None
        The Pyomo persistent interface that can hold an LP and re-solve it after columns
        are added, in the same form.
    interruptible : bool
        Whether a running solve can be cancelled from another thread (the watchdog that
        ends a solve overrunning its time limit).
    prints_licence : bool
        Whether the solver prints a licence line through Python's ``sys.stdout``.
    qp_algorithm : str or None
        How it solves a QP: ``"active_set"``, ``"interior_point"``, ``"admm"`` (ADMM on the
        QP itself), ``"admm_conic"`` (ADMM on the homogeneous embedding of the conic
        form) or ``"spatial_branch_and_bound"`` (a global nonlinear solver).
    exp_cone_options : mapping
        Options optirules sets, unless given, on a problem with exponential cones.
    native_status : mapping of str to Status
        The solver's own status words (its API's, not a modelling layer's) and their
        :class:`Status`.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    distribution: ClassVar[str]
    routes: ClassVar[Mapping[str, frozenset[str]]] = {}
    requires: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    time_limit_option: ClassVar[str | None] = None
    mip_gap_option: ClassVar[str | None] = None
    abs_gap_option: ClassVar[str | None] = None
    threads_option: ClassVar[str | None] = None
    seed_option: ClassVar[str | None] = None
    node_limit_option: ClassVar[str | None] = None
    default_abs_gap: ClassVar[float | None] = None
    cvxpy_name: ClassVar[str | None] = None
    cvxpy_limits: ClassVar[tuple[str | None, str | None, str | None]] = (None, None, None)
    pyomo_interface: ClassVar[tuple[str, str] | None] = None
    pyomo_persistent: ClassVar[tuple[str, str] | None] = None
    interruptible: ClassVar[bool] = False
    prints_licence: ClassVar[bool] = False
    qp_algorithm: ClassVar[str | None] = None
    exp_cone_options: ClassVar[Mapping[str, Any]] = {}
    native_status: ClassVar[Mapping[str, Status]] = {}

    # ------------------------------------------------------------------ availability
    def available(self, route: str | None = None) -> bool:
        """Whether the solver is installed for ``route`` (any route if ``None``).

        Only looks modules up (``importlib.util.find_spec``) and executables on
        ``PATH``; nothing is imported.

        Parameters
        ----------
        route : str, optional
            ``"pyomo"``, ``"cvxpy"`` or ``"highspy"``.

        Returns
        -------
        bool
        """
        if route is None:
            return bool(self.installed_routes())
        if route not in self.routes:
            return False
        return all(_present(req) for req in self.requires.get(route, ()))

    def installed_routes(self) -> tuple[str, ...]:
        """The routes on which the solver is installed.

        Returns
        -------
        tuple of str
            Sorted.
        """
        return tuple(r for r in sorted(self.routes) if self.available(r))

    def capabilities_for(self, route: str) -> frozenset[str]:
        """What the solver is claimed for on ``route``, installed or not.

        Parameters
        ----------
        route : str
            ``"pyomo"``, ``"cvxpy"`` or ``"highspy"``.

        Returns
        -------
        frozenset of str
            Empty if the solver has no such route.
        """
        return frozenset(self.routes.get(route, frozenset()))

    def can(self, capability: str, route: str | None = None) -> bool:
        """Whether the solver is installed and claimed for ``capability``.

        Parameters
        ----------
        capability : str
            One of ``lp, milp, qp, socp, exp_cone, sdp, duals, qp_duals``.
        route : str, optional
            Only this route; any installed route if not given.

        Returns
        -------
        bool
        """
        routes = self.installed_routes() if route is None else (route,)
        return any(capability in self.capabilities_for(r) and self.available(r)
                   for r in routes)

    def version(self) -> str:
        """The installed version of the ``distribution`` attribute.

        Returns
        -------
        str
            ``""`` if it is not installed.
        """
        from ._common import package_version

        return package_version(self.distribution)

    # ------------------------------------------------------------------ options
    def check_options(self, options: Mapping[str, Any], route: str) -> None:
        """Raise :class:`~optirules.errors.SolverOptionError` for an option the solver does
        not know on ``route`` or a value it refuses (where optirules can ask the solver's
        own option table; otherwise the solver reports it when solving).

        Parameters
        ----------
        options : mapping
            Options by the solver's own names, as given to
            :func:`~optirules.solvers.solve`.
        route : str
            ``"pyomo"``, ``"cvxpy"`` or ``"highspy"``.
        """

    def status(self, raw: str) -> Status:
        """The :class:`Status` of one of the solver's own status words.

        Parameters
        ----------
        raw : str
            A word of the ``native_status`` attribute.

        Returns
        -------
        Status
            ``Status.ERROR`` for a word it does not list.
        """
        return self.native_status.get(raw, Status.ERROR)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def _present(requirement: str) -> bool:
    if requirement.startswith("exe:"):
        return shutil.which(requirement[4:]) is not None
    try:
        return importlib.util.find_spec(requirement) is not None
    except (ImportError, ValueError):
        return False


# ====================================================================== the adapters
class HighsAdapter(SolverAdapter):
    """HiGHS: directly through highspy, through Pyomo's contrib interface and through cvxpy."""

    name, title, aliases, distribution = "highs", "HiGHS", ("appsi_highs",), "highspy"
    routes = {"highspy": _QP_ALL, "pyomo": _QP_ALL, "cvxpy": _QP_ALL}
    requires = {"highspy": ("highspy",), "pyomo": ("pyomo", "highspy"),
                "cvxpy": ("cvxpy", "highspy")}
    time_limit_option, mip_gap_option, abs_gap_option = "time_limit", "mip_rel_gap", "mip_abs_gap"
    threads_option, seed_option, node_limit_option = "threads", "random_seed", "mip_max_nodes"
    default_abs_gap = 1e-6
    cvxpy_name, cvxpy_limits = "HIGHS", ("time_limit", "mip_rel_gap", None)
    pyomo_interface = pyomo_persistent = ("contrib", "highs")
    interruptible = True
    qp_algorithm = "active_set"
    #: highspy's ``HighsModelStatus`` names (``kOptimal`` ...)
    native_status = {
        "kOptimal": Status.OPTIMAL, "kInfeasible": Status.INFEASIBLE,
        "kUnbounded": Status.UNBOUNDED, "kUnboundedOrInfeasible": Status.INFEASIBLE_OR_UNBOUNDED,
        "kTimeLimit": Status.TIME_LIMIT, "kIterationLimit": Status.ITERATION_LIMIT,
        "kSolutionLimit": Status.ITERATION_LIMIT, "kObjectiveBound": Status.FEASIBLE,
        "kObjectiveTarget": Status.FEASIBLE, "kInterrupt": Status.INTERRUPTED,
        "kModelEmpty": Status.OPTIMAL, "kMemoryLimit": Status.ERROR,
        "kSolveError": Status.NUMERICAL_ERROR, "kPostsolveError": Status.NUMERICAL_ERROR,
        "kPresolveError": Status.ERROR, "kModelError": Status.ERROR,
        "kLoadError": Status.ERROR, "kNotset": Status.ERROR, "kUnknown": Status.ERROR,
    }

    def check_options(self, options, route):
        from ._highs_options import check_highs_options

        check_highs_options(dict(options))


class CbcAdapter(SolverAdapter):
    """CBC (MILP) and CLP (LP): through cylp for Pyomo models, through cvxpy's CBC."""

    name, title, aliases, distribution = "cbc", "CBC", ("clp", "cylp"), "cylp"
    routes = {"pyomo": _LP_MILP_DUALS, "cvxpy": frozenset({"lp", "milp"})}
    requires = {"pyomo": ("pyomo", "cylp"), "cvxpy": ("cvxpy", "cylp")}
    time_limit_option, mip_gap_option = "maximumSeconds", "allowableFractionGap"
    abs_gap_option, threads_option = "allowableGap", "numberThreads"
    node_limit_option = "maximumNodes"
    cvxpy_name, cvxpy_limits = "CBC", ("maximumSeconds", "allowableFractionGap", None)
    #: CBC's ``status`` words as cylp reports them after a MILP (CLP's after an LP are
    #: ``optimal``, ``primal infeasible``, ``dual infeasible``)
    native_status = {
        "solution": Status.OPTIMAL, "relaxation infeasible": Status.INFEASIBLE,
        "problem proven infeasible": Status.INFEASIBLE, "stopped on time": Status.TIME_LIMIT,
        "stopped on nodes": Status.ITERATION_LIMIT,
        "stopped on solutions": Status.ITERATION_LIMIT,
        "stopped on gap": Status.OPTIMAL,  # within the requested mip_gap
        "linear relaxation unbounded": Status.UNBOUNDED,
        "optimal": Status.OPTIMAL, "primal infeasible": Status.INFEASIBLE,
        "dual infeasible": Status.UNBOUNDED,
    }

    def check_options(self, options, route):
        if route == "cvxpy":
            from ._options import check_cbc_options

            check_cbc_options(dict(options))


class GlpkAdapter(SolverAdapter):
    """GLPK: its ``glpsol`` executable through Pyomo's classic interface, cvxopt's through cvxpy."""

    name, title, distribution = "glpk", "GLPK", "cvxopt"
    routes = {"pyomo": _LP_MILP_DUALS, "cvxpy": frozenset({"lp", "duals"})}
    requires = {"pyomo": ("pyomo", "exe:glpsol"), "cvxpy": ("cvxpy", "cvxopt")}
    time_limit_option, mip_gap_option = "tmlim", "mipgap"
    cvxpy_name = "GLPK"
    pyomo_interface = ("classic", "glpk")


class ScipAdapter(SolverAdapter):
    """SCIP: through Pyomo's contrib ``scip_direct`` (no duals) and through cvxpy."""

    name, title, aliases, distribution = "scip", "SCIP", ("pyscipopt",), "pyscipopt"
    routes = {"pyomo": frozenset({"lp", "milp", "qp"}),
              "cvxpy": frozenset({"lp", "milp", "qp", "duals"})}
    requires = {"pyomo": ("pyomo", "pyscipopt"), "cvxpy": ("cvxpy", "pyscipopt")}
    time_limit_option, mip_gap_option, abs_gap_option = "limits/time", "limits/gap", "limits/absgap"
    seed_option, node_limit_option = "randomization/randomseedshift", "limits/nodes"
    default_abs_gap = 0.0
    cvxpy_name, cvxpy_limits = "SCIP", ("limits/time", "limits/gap", "scip_params")
    pyomo_interface = ("contrib", "scip_direct")
    qp_algorithm = "spatial_branch_and_bound"

    def check_options(self, options, route):
        from ._options import check_scip_options

        options = dict(options)
        if route == "cvxpy":
            options = {**{k: v for k, v in options.items() if k != "scip_params"},
                       **options.get("scip_params", {})}
        check_scip_options(options)


class GurobiAdapter(SolverAdapter):
    """Gurobi: through Pyomo's contrib ``gurobi_persistent`` and through cvxpy."""

    name, title, aliases, distribution = "gurobi", "Gurobi", ("gurobipy",), "gurobipy"
    routes = {"pyomo": _QP_ALL, "cvxpy": _QP_ALL | {"socp"}}
    requires = {"pyomo": ("pyomo", "gurobipy"), "cvxpy": ("cvxpy", "gurobipy")}
    time_limit_option, mip_gap_option, abs_gap_option = "TimeLimit", "MIPGap", "MIPGapAbs"
    threads_option, seed_option, node_limit_option = "Threads", "Seed", "NodeLimit"
    cvxpy_name, cvxpy_limits = "GUROBI", ("TimeLimit", "MIPGap", None)
    pyomo_interface = ("contrib", "gurobi_persistent")
    pyomo_persistent = ("classic", "gurobi_persistent")
    interruptible = prints_licence = True
    qp_algorithm = "interior_point"

    def check_options(self, options, route):
        from ._options import check_gurobi_options

        special = {"env", "save_file", "reoptimize"} if route == "cvxpy" else set()
        check_gurobi_options({k: v for k, v in options.items() if k not in special})


class CplexAdapter(SolverAdapter):
    """CPLEX: through Pyomo's classic ``cplex_direct`` and through cvxpy."""

    name, title, aliases, distribution = "cplex", "CPLEX", ("cplex_direct",), "cplex"
    routes = {"pyomo": _QP_ALL, "cvxpy": _QP_ALL | {"socp"}}
    requires = {"pyomo": ("pyomo", "cplex"), "cvxpy": ("cvxpy", "cplex")}
    time_limit_option, mip_gap_option = "timelimit", "mip_tolerances_mipgap"
    abs_gap_option, threads_option = "mip_tolerances_absmipgap", "threads"
    seed_option, node_limit_option = "randomseed", "mip_limits_nodes"
    cvxpy_name, cvxpy_limits = "CPLEX", ("timelimit", "mip.tolerances.mipgap", "cplex_params")
    pyomo_interface = ("classic", "cplex_direct")
    pyomo_persistent = ("classic", "cplex_persistent")
    qp_algorithm = "interior_point"

    def check_options(self, options, route):
        from ._options import check_cplex_options

        if route != "cvxpy":
            check_cplex_options(dict(options), sep="_")
            return
        from ..errors import SolverOptionError

        extra = sorted(set(options) - {"cplex_params", "cplex_filename", "reoptimize"})
        if extra:
            raise SolverOptionError(
                f"CPLEX through cvxpy takes its parameters inside cplex_params={{...}} "
                f"(e.g. cplex_params={{'mip.tolerances.mipgap': 0.01}}), not {extra[0]!r}.")
        check_cplex_options(dict(options.get("cplex_params", {})), sep=".")


class XpressAdapter(SolverAdapter):
    """FICO Xpress: through Pyomo's classic interface and through cvxpy."""

    name, title, distribution = "xpress", "Xpress", "xpress"
    routes = {"pyomo": frozenset({"lp", "milp", "qp", "duals"}),
              "cvxpy": frozenset({"lp", "milp", "qp", "socp", "duals"})}
    requires = {"pyomo": ("pyomo", "xpress"), "cvxpy": ("cvxpy", "xpress")}
    time_limit_option, mip_gap_option = "maxtime", "miprelstop"
    cvxpy_name = "XPRESS"
    pyomo_interface = ("classic", "xpress")


class MosekAdapter(SolverAdapter):
    """MOSEK: through Pyomo's classic interface and through cvxpy."""

    name, title, distribution = "mosek", "MOSEK", "mosek"
    routes = {"pyomo": frozenset({"lp", "milp", "qp", "socp", "duals"}),
              "cvxpy": frozenset({"lp", "milp", "qp", "socp", "exp_cone", "sdp", "duals",
                                  "qp_duals"})}
    requires = {"pyomo": ("pyomo", "mosek"), "cvxpy": ("cvxpy", "mosek")}
    time_limit_option, mip_gap_option = "dparam.optimizer_max_time", "dparam.mio_tol_rel_gap"
    cvxpy_name = "MOSEK"
    pyomo_interface = ("classic", "mosek")
    qp_algorithm = "interior_point"


class ClarabelAdapter(SolverAdapter):
    """Clarabel (interior point, conic): through cvxpy."""

    name, title, distribution = "clarabel", "Clarabel", "clarabel"
    routes = {"cvxpy": _CONIC}
    requires = {"cvxpy": ("cvxpy", "clarabel")}
    time_limit_option, threads_option = "time_limit", "max_threads"
    cvxpy_name, cvxpy_limits = "CLARABEL", ("time_limit", None, None)
    qp_algorithm = "interior_point"
    #: a step fraction below the default 0.99 on exponential cones (the KL worst-case pmf)
    exp_cone_options = {"max_step_fraction": 0.95}

    def check_options(self, options, route):
        import clarabel

        from ..errors import SolverOptionError

        known = {k for k in dir(clarabel.DefaultSettings()) if not k.startswith("_")}
        bad = sorted(set(options) - known)
        if bad:
            raise SolverOptionError(
                f"Clarabel has no setting {bad[0]!r}: known settings include "
                f"{', '.join(sorted(known)[:12])} ... (see clarabel.DefaultSettings()).")


class OsqpAdapter(SolverAdapter):
    """OSQP (ADMM on the QP): through cvxpy."""

    name, title, distribution = "osqp", "OSQP", "osqp"
    routes = {"cvxpy": frozenset({"lp", "qp", "duals", "qp_duals"})}
    requires = {"cvxpy": ("cvxpy", "osqp")}
    time_limit_option = "time_limit"
    cvxpy_name, cvxpy_limits = "OSQP", ("time_limit", None, None)
    qp_algorithm = "admm"


class ScsAdapter(SolverAdapter):
    """SCS (splitting conic solver): through cvxpy."""

    name, title, distribution = "scs", "SCS", "scs"
    routes = {"cvxpy": _CONIC}
    requires = {"cvxpy": ("cvxpy", "scs")}
    time_limit_option = "time_limit_secs"
    cvxpy_name, cvxpy_limits = "SCS", ("time_limit_secs", None, None)
    qp_algorithm = "admm_conic"


class EcosAdapter(SolverAdapter):
    """ECOS (interior point, conic): through cvxpy."""

    name, title, distribution = "ecos", "ECOS", "ecos"
    routes = {"cvxpy": frozenset({"lp", "qp", "socp", "exp_cone", "duals", "qp_duals"})}
    requires = {"cvxpy": ("cvxpy", "ecos")}
    cvxpy_name = "ECOS"
    qp_algorithm = "interior_point"


class ScipyAdapter(SolverAdapter):
    """SciPy's HiGHS-based ``linprog`` and ``milp``: through cvxpy."""

    name, title, distribution = "scipy", "SciPy", "scipy"
    routes = {"cvxpy": _LP_MILP_DUALS}
    requires = {"cvxpy": ("cvxpy", "scipy")}
    time_limit_option, mip_gap_option = "time_limit", "mip_rel_gap"
    cvxpy_name, cvxpy_limits = "SCIPY", ("time_limit", "mip_rel_gap", "scipy_options")


class CvxpyAdapter(SolverAdapter):
    """Any other solver cvxpy finds installed, with what cvxpy says it can take."""

    def __init__(self, name: str, capabilities: frozenset[str], distribution: str):
        self.name = name
        self.title = name.upper()
        self.distribution = distribution
        self.cvxpy_name = name.upper()
        self.routes = {"cvxpy": capabilities}
        self.requires = {"cvxpy": ("cvxpy",)}
        self.cvxpy_limits = _CVXPY_LIMITS.get(self.cvxpy_name, (None, None, None))


#: one adapter class per solver optirules knows
ADAPTERS: tuple[type[SolverAdapter], ...] = (
    HighsAdapter, CbcAdapter, GlpkAdapter, ScipAdapter, GurobiAdapter, CplexAdapter,
    XpressAdapter, MosekAdapter, ClarabelAdapter, OsqpAdapter, ScsAdapter, EcosAdapter,
    ScipyAdapter)

#: how cvxpy's other solvers take a time limit and a MIP gap, where optirules knows it
_CVXPY_LIMITS = {"PIQP": ("max_time", None, None)}
#: python distribution of cvxpy's other solvers, for their version
_CVXPY_DISTRIBUTION = {"ECOS_BB": "ecos", "GLPK_MI": "cvxopt", "CVXOPT": "cvxopt",
                       "PIQP": "piqp", "PROXQP": "proxsuite", "DAQP": "daqp"}


@functools.lru_cache(maxsize=1)
def _known() -> dict[str, SolverAdapter]:
    out: dict[str, SolverAdapter] = {}
    for cls in ADAPTERS:
        a = cls()
        for key in (a.name, *a.aliases):
            out[key] = a
    return out


#: cvxpy interfaces that return no constraint duals at all (cvxpy's CBC interface solves an
#: LP with CLP and hands back primal values only)
_NO_DUALS = frozenset({"CBC"})
#: cvxpy interfaces whose duals cover LPs only (cvxpy's SCIP interface switches presolve off
#: to read LP duals, and gives none once the problem has a cone or a quadratic objective)
_LP_DUALS_ONLY = frozenset({"SCIP"})
#: cvxpy interfaces that accept second-order cones but are not claimed for them: SCIP treats
#: a cone as a general nonlinear constraint and branches on it, so even a small chi-square
#: worst-case pmf did not close its gap where Clarabel is done at once
_NO_SOCP_CLAIM = frozenset({"SCIP"})

def cvxpy_solvers() -> dict[str, frozenset[str]]:
    """Installed cvxpy solvers (lowercase) and what each can take."""
    import cvxpy as cp
    from cvxpy.constraints import PSD, SOC, ExpCone
    from cvxpy.reductions.solvers.defines import SOLVER_MAP_CONIC, SOLVER_MAP_QP

    out: dict[str, frozenset[str]] = {}
    for name in cp.installed_solvers():
        caps: set[str] = set()
        conic = SOLVER_MAP_CONIC.get(name)
        qp = SOLVER_MAP_QP.get(name)
        if conic is not None:
            caps.add("lp")
            supported = set(conic.SUPPORTED_CONSTRAINTS)
            if SOC in supported:
                caps.add("qp")
                if name not in _NO_SOCP_CLAIM:
                    caps.add("socp")
            if ExpCone in supported:
                caps.add("exp_cone")
            if any(getattr(c, "__name__", "").endswith("PSD") for c in supported) or PSD in supported:
                caps.add("sdp")
            if conic.MIP_CAPABLE:
                caps.add("milp")
        if qp is not None:
            caps.update({"lp", "qp"})
            if qp.MIP_CAPABLE:
                caps.add("milp")
        if name not in _NO_DUALS:
            caps.add("duals")
            if name not in _LP_DUALS_ONLY and "qp" in caps:
                caps.add("qp_duals")
        out[name.lower()] = frozenset(caps)
    return out


@functools.lru_cache(maxsize=1)
def _cvxpy_others() -> dict[str, SolverAdapter]:
    """Adapters for the installed cvxpy solvers no adapter class covers (imports cvxpy)."""
    if not _present("cvxpy"):
        return {}
    known = {a.cvxpy_name for a in _known().values() if a.cvxpy_name}
    return {name: CvxpyAdapter(name, caps, _CVXPY_DISTRIBUTION.get(name.upper(), name))
            for name, caps in cvxpy_solvers().items() if name.upper() not in known}


def adapters(*, installed: bool = True, others: bool = True) -> list[SolverAdapter]:
    """The solver adapters, sorted by name.

    Parameters
    ----------
    installed : bool, default True
        Only those installed on at least one route.
    others : bool, default True
        Add the installed cvxpy solvers that no adapter class covers (this imports
        cvxpy).

    Returns
    -------
    list of SolverAdapter
    """
    found = {a.name: a for a in _known().values()}
    if others:
        found.update(_cvxpy_others())
    return [a for _, a in sorted(found.items()) if not installed or a.available()]


def adapter(name: str) -> SolverAdapter:
    """The adapter of solver ``name`` (any case, or an alias), installed or not.

    Parameters
    ----------
    name : str
        A solver name such as ``"highs"``.

    Returns
    -------
    SolverAdapter

    Raises
    ------
    SolverNotAvailableError
        When optirules knows no solver of that name (and cvxpy has no installed solver of
        that name); the message suggests a close name.
    """
    if not isinstance(name, str):
        raise SolverNotAvailableError(f"solver must be a name such as 'highs', got {name!r}.")
    key = name.strip().lower()
    found = _known().get(key)
    if found is None:
        found = _cvxpy_others().get(key)
    if found is None:
        names = sorted({a.name for a in _known().values()} | set(_cvxpy_others()))
        close = difflib.get_close_matches(key, names, n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        installed = ", ".join(a.name for a in adapters())
        raise SolverNotAvailableError(
            f"solver {name!r} is unknown or not installed.{hint} Installed solvers: "
            f"{installed}.")
    return found


def capable(name: Any, capability: str, route: str | None = None) -> bool:
    """Whether solver ``name`` is installed and can take ``capability`` (on ``route``).

    Parameters
    ----------
    name : str
        A solver name (any case, or an alias); anything else, or an unknown name, is
        answered ``False``.
    capability : str
        ``"lp"``, ``"milp"``, ``"qp"``, ``"socp"``, ``"exp_cone"``, ``"sdp"``, ``"duals"``
        or ``"qp_duals"``.
    route : str, optional
        ``"pyomo"``, ``"cvxpy"`` or ``"highspy"``; any route if not given.

    Returns
    -------
    bool
    """
    if not isinstance(name, str):
        return False
    found = _known().get(name.strip().lower())
    if found is None:  # only then may cvxpy be imported to look among its other solvers
        try:
            found = adapter(name)
        except SolverNotAvailableError:
            return False
    return found.can(capability, route)
