"""Worker processes that end with the process that started them.

A process pool (joblib's loky, the default backend) outlives a driver that is killed
(kill -9, an out-of-memory kill): its workers would go on computing what nobody collects.
:func:`parallel` builds a :class:`joblib.Parallel` whose loky workers watch the process that
started them and exit soon after it ends; every ``n_jobs`` of the package goes through it.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

__all__ = ["parallel"]

#: seconds between two looks of a worker's watchdog at its parent
_WATCH_INTERVAL = 0.5


def _start_token(pid: int) -> str | None:
    """When process ``pid`` started, as an opaque token that differs for a new process that
    reuses the pid: ``""`` when there is no such process, None when it cannot be told."""
    if os.path.isdir("/proc/self"):
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                # the start time is field 22; the name (field 2, in parentheses) may hold spaces
                return f.read().rsplit(b")", 1)[1].split()[19].decode()
        except (OSError, IndexError):
            return ""
    try:
        import psutil
    except ImportError:
        return None
    try:
        return repr(psutil.Process(pid).create_time())
    except psutil.Error:
        return ""


def _end_children() -> None:
    """Kill this process's own children (a solver executable, a nested pool), where psutil
    can list them."""
    try:
        import psutil

        for child in psutil.Process().children(recursive=True):
            try:
                child.kill()
            except psutil.Error:
                pass
    except Exception:
        pass


def _set_parent_death_signal() -> bool:
    """Linux: have the kernel SIGKILL this process when its parent thread ends
    (``prctl(PR_SET_PDEATHSIG)``), which works even while a solver holds the GIL."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0  # 1 = PR_SET_PDEATHSIG
    except Exception:
        return False


_watched_parent: int | None = None


def _exit_with_parent(parent: int, token: str | None, death_signal: bool = False) -> None:
    """In a worker process: end this process (and its children) soon after process
    ``parent`` ends.  Idempotent; does nothing in the parent itself.

    A daemon thread looks every :data:`_WATCH_INTERVAL` seconds whether ``parent`` still
    runs (its start ``token`` from :func:`_start_token`; without one, whether this process
    has been handed to another parent) and calls ``os._exit`` when it does not.
    ``death_signal`` also asks Linux to kill this process when its parent's spawning
    thread ends; only safe when that thread lives as long as the workers (the main thread),
    since the kernel signal follows the thread, not the process.
    """
    global _watched_parent
    if _watched_parent is not None or os.getpid() == parent:
        return
    _watched_parent = parent
    direct = os.getppid() == parent
    if death_signal and direct and _set_parent_death_signal() and os.getppid() != parent:
        os._exit(1)  # the parent ended before the signal was armed

    def gone() -> bool:
        if direct and os.getppid() != parent:
            return True
        return token is not None and _start_token(parent) != token

    def watch() -> None:
        while not gone():
            time.sleep(_WATCH_INTERVAL)
        _end_children()
        os._exit(1)

    import threading

    threading.Thread(target=watch, name="optirules-parent-watch", daemon=True).start()


def _worker_guard() -> tuple[int, str | None, bool]:
    """Arguments of :func:`_exit_with_parent` for workers this process starts now."""
    import threading

    return (os.getpid(), _start_token(os.getpid()),
            threading.current_thread() is threading.main_thread())


def _is_loky(kwargs: dict[str, Any]) -> bool:
    """Whether a ``Parallel(**kwargs)`` made now runs on joblib's loky process pool."""
    from joblib.parallel import BACKENDS, get_active_backend

    loky = BACKENDS.get("loky")
    if loky is None:
        return False
    backend = kwargs.get("backend")
    if backend is not None:
        return backend == "loky" or isinstance(backend, loky)
    hints = {k: kwargs[k] for k in ("prefer", "require") if k in kwargs}
    return isinstance(get_active_backend(**hints)[0], loky)


def parallel(n_jobs: int | None, **kwargs: Any):
    """``joblib.Parallel(n_jobs=n_jobs, **kwargs)`` whose workers end with this process.

    When the pool is loky's (the default backend, or ``backend="loky"``) it is started
    here, so its workers get :func:`_exit_with_parent` as initializer and watch this
    process.  Any other backend (threads, or one chosen with ``joblib.parallel_config``
    such as Dask or Ray, whose workers run elsewhere) gets a plain ``Parallel``: only loky
    takes an ``initializer``.  An ``initializer`` in ``kwargs`` is passed on unchanged.
    """
    from joblib import Parallel

    if "initializer" not in kwargs and _is_loky(kwargs):
        kwargs = {**kwargs, "initializer": _exit_with_parent, "initargs": _worker_guard()}
    return Parallel(n_jobs=n_jobs, **kwargs)
