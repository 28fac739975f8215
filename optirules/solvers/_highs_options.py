"""A HiGHS object without its banner, and HiGHS's option check (no other solver module is
imported here, so the adapters can use both)."""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

from ..errors import SolverOptionError

__all__ = ["new_highs", "check_highs_options"]

_banner_lock = threading.Lock()
_banner_shown = False


def new_highs():
    """A ``highspy.Highs`` with its output switched off.

    HiGHS prints a two-line banner ("Running HiGHS ...") on the process's standard output
    when the first ``Highs`` object of a process is made, before any option can silence it
    (and Pyomo's and cvxpy's HiGHS interfaces make their own objects).  So the first object
    made here is made with file descriptor 1 pointed at ``os.devnull``; every HiGHS route of
    optirules makes one through this function (the option check of the Pyomo and cvxpy
    routes included) before the solver runs, so no banner reaches a user's output.

    Returns
    -------
    highspy.Highs
        An empty model with ``output_flag`` off.
    """
    import highspy

    global _banner_shown
    with _banner_lock:
        if _banner_shown:
            h = highspy.Highs()
        else:
            _banner_shown = True
            h = _muted(highspy.Highs)
    h.setOptionValue("output_flag", False)
    return h


def _muted(make):
    """``make()`` with the C-level standard output sent to ``os.devnull``."""
    try:
        sys.stdout.flush()
        saved = os.dup(1)
    except (AttributeError, OSError, ValueError):  # no usable descriptor 1: nothing to mute
        return make()
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        return make()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)


def check_highs_options(options: dict[str, Any]) -> None:
    """Raise :class:`SolverOptionError` for an option HiGHS does not know or a value it refuses.

    Each value is set on a scratch ``Highs`` object, so HiGHS's own option table decides
    (type, range, and the allowed strings such as ``presolve`` in ``{"off", "choose", "on"}``),
    before any model is built or solved.
    """
    import highspy

    probe = new_highs()
    for name, value in options.items():
        status, kind = probe.getOptionType(name)
        if status != highspy.HighsStatus.kOk:
            raise SolverOptionError(
                f"HiGHS has no option {name!r}: check the spelling against the HiGHS "
                "option list (e.g. 'mip_rel_gap', 'presolve', 'threads', 'random_seed')."
            )
        wrong_type = isinstance(value, bool) and kind != highspy.HighsOptionType.kBool
        if wrong_type or _muted(lambda n=name, v=value: probe.setOptionValue(n, v)) != (
            highspy.HighsStatus.kOk
        ):
            raise SolverOptionError(
                f"HiGHS refuses the value {value!r} for option {name!r} (an option of type "
                f"{kind.name[1:].lower()}): give a value of that type within its range, see "
                "the HiGHS option documentation."
            )


