"""Small pieces shared by the backends: option checks, timing, version lookup, watchdog."""

from __future__ import annotations

import contextlib
import importlib.metadata
import io
import math
import threading
import time
from collections.abc import Callable
from numbers import Real

from ..errors import InputError

__all__ = ["check_limits", "package_version", "Watchdog", "Stopwatch", "watchdog_delay",
           "held_stdout"]


def check_limits(time_limit: float | None, mip_gap: float | None) -> None:
    """Reject nonsense limits before any solver is touched."""
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, Real) or not (
            time_limit > 0 and math.isfinite(time_limit) or time_limit == math.inf
        ):
            raise InputError(
                f"time_limit must be a positive number of seconds or None, got {time_limit!r}."
            )
    if mip_gap is not None:
        if isinstance(mip_gap, bool) or not isinstance(mip_gap, Real) or not 0 <= mip_gap < 1:
            raise InputError(
                f"mip_gap must be a relative gap in [0, 1) or None, got {mip_gap!r}."
            )


def package_version(distribution: str) -> str:
    """Installed version of a distribution, or ``""`` when it is not installed."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return ""


def watchdog_delay(time_limit: float) -> float:
    """How long after ``time_limit`` a watchdog waits before cancelling a solve.

    HiGHS can overrun its own ``time_limit`` on some MIPs (HiGHS issue 2226); the
    watchdog gives it a grace of 10 % (at least one second) before interrupting.
    """
    return time_limit + max(1.0, 0.1 * time_limit)


class Watchdog:
    """Call ``cancel`` once if a solve is still running ``delay`` seconds after start."""

    def __init__(self, delay: float | None, cancel: Callable[[], None]):
        self.fired = False
        self._timer: threading.Timer | None = None
        if delay is not None and math.isfinite(delay):
            self._timer = threading.Timer(delay, self._fire, args=(cancel,))
            self._timer.daemon = True

    def _fire(self, cancel: Callable[[], None]) -> None:
        self.fired = True
        try:
            cancel()
        except Exception:  # the solve may have ended in between; nothing to cancel
            pass

    def __enter__(self) -> Watchdog:
        if self._timer is not None:
            self._timer.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._timer is not None:
            self._timer.cancel()


class Stopwatch:
    """Wall-clock timer used by every backend for ``SolveResult.wall_time``."""

    def __enter__(self) -> Stopwatch:
        self.start = time.perf_counter()
        self.elapsed = 0.0
        return self

    def __exit__(self, *exc) -> None:
        self.elapsed = time.perf_counter() - self.start


@contextlib.contextmanager
def held_stdout(hold: bool = True):
    """Hold what Python code prints to ``sys.stdout`` in a buffer (yielded) instead.

    gurobipy prints its licence line ("Restricted license - for non-production use only")
    through Python's ``sys.stdout`` each time an environment starts; on ``optirules
    predict``'s standard output it would corrupt the CSV.  ``hold=False`` lets it through
    (``verbose=True``).
    """
    buffer = io.StringIO()
    if not hold:
        yield buffer
        return
    with contextlib.redirect_stdout(buffer):
        yield buffer
