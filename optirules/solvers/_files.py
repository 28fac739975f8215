"""Export models as .lp / .mps files and solve such files."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from .._atomic import atomic_path
from ..errors import InputError, ModelFormatError, OutputError, SolverNotAvailableError
from ._highspy_backend import new_highs
from ._result import SolveResult

__all__ = ["write_model", "read_model", "cvxpy_to_highs"]

_FORMATS = (".lp", ".mps")


def _format_of(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in _FORMATS:
        raise ModelFormatError(
            f"cannot tell the file format of {str(path)!r}: use a path ending in .lp or .mps."
        )
    return suffix


#: a row or column name every LP and MPS reader takes unchanged: ASCII letters, digits, ``_``,
#: ``(``, ``)`` and ``.``, starting with a letter or ``_``, at most _MAX_NAME characters
_SAFE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_().]*\Z")
_MAX_NAME = 200


def _safe_name(name: Any) -> bool:
    return isinstance(name, str) and len(name) <= _MAX_NAME and bool(_SAFE_NAME.match(name))


def _comment_text(text: Any) -> str:
    """``text`` on one line: every line break, tab or other control character becomes a space,
    so a comment cannot end early and put the rest of a name into the model."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in str(text)).split())


def write_model(problem: Any, path: str | os.PathLike, *,
                comments: Iterable[str] | None = None) -> Path:
    """Write a model to an .lp or .mps file (chosen by the suffix of ``path``, in any case).

    Pyomo models are written with their own (symbolic) names, so ``w[clause_3]``
    appears as ``w(clause_3)``; cvxpy LP/MILP/QP problems become one column per
    variable entry named ``name(i)`` and one row per constraint entry named
    ``c{k}(i)`` (``k`` its position in ``problem.constraints``; HiGHS allows no
    square brackets in names); a ``highspy.Highs`` instance is written as it stands.  Second-order, exponential and semidefinite
    cones have no LP/MPS form and raise :class:`~optirules.errors.ModelFormatError`.

    Names are kept where every LP and MPS reader takes them (ASCII letters, digits, ``_``,
    ``(``, ``)``, ``.``, starting with a letter or ``_``); otherwise (a line break, a space,
    a leading digit, a very long name) a Pyomo model is written with Pyomo's numbered labels
    (``x1``, ``c_l_x3_``) and a HiGHS or cvxpy name is replaced by its sanitized form, so
    :func:`read_model` reads back every file written here.  ``comments`` are written as
    comment lines at the top of the file, each on one line.

    The file is written atomically (a temporary file in the same folder, renamed over
    ``path`` when complete) and checked: a missing folder, a full disk or an empty result
    raises :class:`~optirules.errors.OutputError` and leaves any previous file unchanged.

    Parameters
    ----------
    problem : Pyomo model, cvxpy.Problem or highspy.Highs
        The model to write.
    path : str or path-like
        File name ending in ``.lp`` or ``.mps``.
    comments : iterable of str, optional
        Comment lines written at the top of the file.

    Returns
    -------
    pathlib.Path
        The path written.
    """
    from ._solve import declarative_model, problem_interface

    path = Path(path)
    fmt = _format_of(path)
    folder = Path(os.path.realpath(path)).parent
    if not folder.is_dir():
        raise OutputError(f"could not write {str(path)!r}: the folder {str(folder)!r} does not "
                          "exist; create it first or choose another path.")
    if Path(os.path.realpath(path)).is_dir():
        raise OutputError(f"could not write {str(path)!r}: it is a folder; give a file name "
                          "ending in .lp or .mps.")
    lines = [_comment_text(c) for c in (comments or ())]
    problem = declarative_model(problem)
    interface = problem_interface(problem)
    h = None
    if interface == "cvxpy":
        h = _with_safe_names(cvxpy_to_highs(problem), copy=False)
    elif interface != "pyomo":
        h = _with_safe_names(problem, copy=True)
    with atomic_path(path) as tmp:
        # the writers choose the format by a lower-case suffix
        work = tmp if tmp.suffix == fmt else tmp.with_name(tmp.stem + fmt)
        try:
            if h is None:
                labels = _pyomo_labels_safe(problem)
                problem.write(str(work), io_options={"symbolic_solver_labels": labels})
                writer = "Pyomo"
            else:
                import highspy

                if h.writeModel(str(work)) == highspy.HighsStatus.kError:
                    raise OutputError(f"HiGHS could not write {str(path)!r}: check that the "
                                      "folder is writable and has free space.")
                writer = "HiGHS"
            if not work.is_file() or work.stat().st_size == 0:
                raise OutputError(f"{writer} wrote nothing to {str(path)!r}: check that the "
                                  "folder is writable and has free space.")
            if lines:
                mark = "\\" if fmt == ".lp" else "*"
                text = work.read_text(encoding="utf-8")
                work.write_text("".join(f"{mark} {line}\n" for line in lines) + text,
                                encoding="utf-8")
            if work != tmp:
                os.replace(work, tmp)
        except OSError as exc:
            if isinstance(exc, OutputError):
                raise
            reason = exc.strerror or str(exc)
            raise OutputError(f"could not write {str(path)!r} ({reason}); check that the folder "
                              "is writable and has free space. The previous content, if any, "
                              "is unchanged.") from None
        finally:
            if work != tmp:
                work.unlink(missing_ok=True)
    return path


def _pyomo_labels_safe(model: Any) -> bool:
    """Whether Pyomo's symbolic labels of every variable, constraint and objective of
    ``model`` are safe names (see ``_SAFE_NAME``) and distinct, so they can go into the file."""
    import pyomo.environ as pyo
    from pyomo.core.base.label import cpxlp_label_from_name

    for kinds in ((pyo.Var,), (pyo.Constraint, pyo.Objective)):
        seen: set[str] = set()
        for obj in model.component_data_objects(kinds, descend_into=True):
            label = cpxlp_label_from_name(obj.getname(fully_qualified=True))
            if not _safe_name(label) or label in seen:
                return False
            seen.add(label)
    return True


def _sanitized(names: list[str], prefix: str) -> list[str]:
    """``names`` with every unsafe one replaced by its safe form (other characters become
    ``_``, a leading digit gets ``prefix``, long names are cut), all distinct."""
    taken = set(n for n in names if _safe_name(n))
    out = []
    for k, name in enumerate(names):
        if _safe_name(name):
            out.append(name)
            continue
        base = re.sub(r"[^A-Za-z0-9_().]", "_", str(name))
        base = re.sub(r"_+", "_", base)[:_MAX_NAME - 12] or prefix
        if not re.match(r"[A-Za-z_]", base):
            base = prefix + base
        new, i = base, 0
        while new in taken:
            i += 1
            new = f"{base}_{prefix}{k}" if i == 1 else f"{base}_{prefix}{k}_{i}"
        taken.add(new)
        out.append(new)
    return out


def _with_safe_names(h: Any, *, copy: bool) -> Any:
    """``h`` (a ``highspy.Highs``) with safe column and row names; a copy when names change
    and ``copy`` (the caller's instance is left as it is)."""
    lp = h.getLp()
    cols, rows = list(lp.col_names_), list(lp.row_names_)
    safe_cols, safe_rows = _sanitized(cols, "c"), _sanitized(rows, "r")
    if safe_cols == cols and safe_rows == rows:
        return h
    if copy:
        model = h.getModel()
        h = new_highs()
        h.passModel(model)
    for j, (old, new) in enumerate(zip(cols, safe_cols)):
        if old != new:
            h.passColName(j, new)
    for i, (old, new) in enumerate(zip(rows, safe_rows)):
        if old != new:
            h.passRowName(i, new)
    return h


def read_model(
    path: str | os.PathLike,
    solver: str = "highs",
    *,
    time_limit: float | None = None,
    mip_gap: float | None = None,
    verbose: bool = False,
    **options: Any,
) -> SolveResult:
    """Read an .lp or .mps file and solve it; columns and rows keep their names in the result.

    Parameters
    ----------
    path : str or path-like
        An ``.lp`` or ``.mps`` file.
    solver : str, default "highs"
        Solver name (one that reads ``highspy`` models).
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
        The solve's status, objective, bound and values by column name.
    """
    from ._common import check_limits
    from ._highspy_backend import solve_highs

    path = Path(path)
    _format_of(path)
    if str(solver).lower() != "highs":
        raise SolverNotAvailableError(
            f"read_model reads files with HiGHS only, not {solver!r}: use solver='highs', or "
            "load the file into your own solver."
        )
    if not path.exists():
        raise InputError(f"no model file at {str(path)!r}.")
    check_limits(time_limit, mip_gap)
    import highspy

    h = new_highs()
    if h.readModel(str(path)) == highspy.HighsStatus.kError:
        raise ModelFormatError(f"HiGHS could not parse {str(path)!r} as an {path.suffix} model.")
    _check_read_model(h, path)
    return solve_highs(h, time_limit=time_limit, mip_gap=mip_gap, verbose=verbose, options=options)


def _check_read_model(h, path: Path) -> None:
    """Refuse a file that parsed but holds no model: no variables, or no objective to optimize."""
    if h.getNumCol() == 0:
        raise ModelFormatError(
            f"{str(path)!r} holds no variables (an empty or comment-only {path.suffix} file): "
            "check that the file was written completely."
        )
    model = h.getModel()
    costs = np.asarray(model.lp_.col_cost_, dtype=float)
    if not np.any(costs) and model.lp_.offset_ == 0 and model.hessian_.dim_ == 0:
        raise ModelFormatError(
            f"{str(path)!r} has no objective (every cost is 0), so its 'optimum' would say "
            "nothing: check that the file was written completely (every model optirules "
            "writes has its objective); for a feasibility check, use highspy directly."
        )


def _entry_names(name: str, shape: tuple[int, ...]) -> list[str]:
    size = int(np.prod(shape)) if shape else 1
    if not shape or size == 1 and len(shape) == 0:
        return [name]
    # cvxpy flattens in column-major (Fortran) order
    idx = np.unravel_index(np.arange(size), shape, order="F")
    return [f"{name}({'_'.join(str(int(a[k])) for a in idx)})" for k in range(size)]


def cvxpy_to_highs(problem):
    """Translate a cvxpy LP / MILP / QP into a ``highspy.Highs`` model with readable names."""
    import cvxpy as cp
    import highspy
    import scipy.sparse as sp

    if not problem.is_dcp():
        raise ModelFormatError("the cvxpy problem is not DCP, so it has no LP/MPS form.")
    if not (problem.is_qp() or problem.is_mixed_integer()):
        raise ModelFormatError(
            "this cvxpy problem has a second-order, exponential or semidefinite cone, which "
            "the LP and MPS formats cannot express: keep it as a cvxpy problem (or write a "
            "linear or quadratic reformulation) to export it."
        )
    try:
        data, _chain, _inverse = problem.get_problem_data(cp.HIGHS)
    except cp.error.SolverError as exc:
        raise ModelFormatError(
            f"this cvxpy problem has no LP/MPS form that HiGHS can write ({exc}); cones and "
            "mixed-integer quadratic objectives cannot be exported."
        ) from None
    pp = data["param_prob"]
    n = int(pp.x.size)
    if "P" in data:  # QP form: min 1/2 x'Px + q'x, A x = b, F x <= G
        P = sp.csc_array(data["P"])
        q = np.asarray(data["q"], dtype=float)
        blocks = [(data["A"], data["b"], "eq"), (data["F"], data["G"], "le")]
    else:  # conic form: A x + s = b, s in zero x nonneg cones
        P = None
        q = np.asarray(data["c"], dtype=float)
        A = sp.csr_array(data["A"])
        b = np.asarray(data["b"], dtype=float)
        nz = int(data["dims"].zero)
        blocks = [(A[:nz], b[:nz], "eq"), (A[nz:], b[nz:], "le")]
    offset = _objective_offset(pp)
    col_names, row_names = _cvxpy_names(problem, pp, n)
    lower = np.full(n, -np.inf)
    upper = np.full(n, np.inf)
    if data.get("lower_bounds") is not None:
        lower = np.asarray(data["lower_bounds"], dtype=float)
    if data.get("upper_bounds") is not None:
        upper = np.asarray(data["upper_bounds"], dtype=float)
    integer = set(data.get("bool_vars_idx", [])) | set(data.get("int_vars_idx", []))
    for j in data.get("bool_vars_idx", []):
        lower[j], upper[j] = max(lower[j], 0.0), min(upper[j], 1.0)
    mats = [sp.csr_array(m_) for m_, _, _ in blocks]
    A_all = sp.vstack(mats, format="csr") if mats else sp.csr_array((0, n))
    row_lo = np.concatenate([
        np.asarray(rhs, dtype=float) if kind == "eq" else np.full(len(rhs), -np.inf)
        for _m, rhs, kind in blocks
    ])
    row_hi = np.concatenate([np.asarray(rhs, dtype=float) for _m, rhs, _k in blocks])
    sense = 1.0
    if isinstance(problem.objective, cp.Maximize):
        sense = -1.0  # cvxpy minimizes -f; write the problem as the user stated it
    h = new_highs()
    inf = highspy.kHighsInf
    lp = highspy.HighsLp()
    lp.num_col_ = n
    lp.num_row_ = A_all.shape[0]
    lp.col_cost_ = sense * q
    lp.col_lower_ = np.where(np.isfinite(lower), lower, -inf)
    lp.col_upper_ = np.where(np.isfinite(upper), upper, inf)
    lp.row_lower_ = np.where(np.isfinite(row_lo), row_lo, -inf)
    lp.row_upper_ = np.where(np.isfinite(row_hi), row_hi, inf)
    csc = sp.csc_array(A_all)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = csc.indptr
    lp.a_matrix_.index_ = csc.indices
    lp.a_matrix_.value_ = csc.data
    lp.a_matrix_.num_col_ = n
    lp.a_matrix_.num_row_ = A_all.shape[0]
    lp.offset_ = sense * offset
    lp.sense_ = highspy.ObjSense.kMaximize if sense < 0 else highspy.ObjSense.kMinimize
    lp.col_names_ = col_names
    lp.row_names_ = row_names
    if integer:
        lp.integrality_ = [
            highspy.HighsVarType.kInteger if j in integer else highspy.HighsVarType.kContinuous
            for j in range(n)
        ]
    h.passModel(lp)
    if P is not None and P.nnz:
        if sense < 0:
            raise ModelFormatError(
                "a maximized quadratic objective has no convex LP/MPS form: write it as Minimize."
            )
        tri = sp.csc_array(sp.tril(P, format="csc"))
        h.passHessian(n, tri.nnz, highspy.HessianFormat.kTriangular, tri.indptr, tri.indices, tri.data)
    return h


def _cvxpy_names(problem, pp, n: int) -> tuple[list[str], list[str]]:
    """The column and row names of ``problem``'s HiGHS form (``pp``, its ``n`` columns)."""
    # column names from the variables' offsets
    col_names = [f"x{j}" for j in range(n)]
    for var in problem.variables():
        start = pp.var_id_to_col.get(var.id)
        if start is None:
            continue
        for k, nm in enumerate(_entry_names(var.name(), var.shape)):
            col_names[start + k] = nm
    # row names: the user's constraints keep their position; reductions may add helper rows
    position = {c.id: k for k, c in enumerate(problem.constraints)}
    row_names: list[str] = []
    for group in ("eq", "le"):
        cons = [c for c in pp.constraints if (type(c).__name__ == "Zero") == (group == "eq")]
        for c in cons:
            k = position.get(c.id)
            base = f"c{k}" if k is not None else f"aux{c.id}"
            row_names.extend(_entry_names(base, (c.size,)) if c.size > 1 else [base])
    return col_names, row_names


def _objective_offset(pp) -> float:
    """The constant term of a stuffed cvxpy objective: the last entry of ``pp.q``.

    cvxpy keeps the objective of its stuffed problem as ``q`` (sparse or dense, shape
    ``(n + 1,)`` or ``(n + 1, p + 1)`` with the parameters' columns first), the constant
    last; a problem without ``q`` is a cvxpy this code was not written for, and the
    AttributeError says so rather than a silently dropped offset.
    """
    q = pp.q
    if hasattr(q, "toarray"):
        q = q.toarray()
    q = np.asarray(q, dtype=float)
    last = q[:, -1] if q.ndim == 2 else q
    return float(last[-1]) if last.size else 0.0
