"""The reaper of the worker processes a grid run starts (a local Ray's).

Worker processes the grid starts end with the process that started them: a killed driver
(kill -9, an out-of-memory kill) would otherwise leave its workers computing cells that
nobody collects.  joblib's own pool watches its driver (optirules._workers); a local Ray
gets a reaper, started by :func:`_start_reaper` and ended by :func:`_stop_reaper`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from .._workers import _start_token

__all__ = ["_descendants", "_start_reaper", "_stop_reaper"]

#: the reaper: a small process that holds the read end of a pipe from the driver and reads
#: ``pid token`` lines; at end of input (the driver ended, however it ended) it kills the
#: listed processes that still run (same start token); a line ``stop`` ends it quietly
_REAPER = r"""
import os, signal, sys
def token(pid):
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[19].decode()
    except (OSError, IndexError):
        return ""
procs = []
for line in sys.stdin:
    if line.strip() == "stop":
        sys.exit(0)
    pid, tok = line.split()
    procs.append((int(pid), tok))
for pid, tok in procs:
    if token(pid) == tok:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
"""


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _start_reaper(pids: Sequence[int]):
    """A reaper (see :data:`_REAPER`) for ``pids``; None where there is no /proc."""
    import subprocess

    if not os.path.isdir("/proc/self") or not pids:
        return None
    lines = "".join(f"{p} {t}\n" for p in pids if (t := _start_token(p)))
    proc = subprocess.Popen([sys.executable, "-c", _REAPER], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    proc.stdin.write(lines.encode())
    proc.stdin.flush()
    return proc


def _stop_reaper(proc) -> None:
    if proc is None:
        return
    try:
        proc.stdin.write(b"stop\n")
        proc.stdin.close()
    except OSError:
        pass
    proc.wait()
