"""Atomic, checked writes for every file the project writes.

The new content goes to a temporary file in the target's own folder, is flushed and synced,
and is then renamed over the target (``os.replace``, atomic on POSIX and Windows), so an
interrupted or failed write leaves the old file whole and never a truncated one.  Every I/O
failure is raised as :class:`~optirules.errors.OutputError` naming the path.  A target that is
not a regular file (a device such as ``/dev/stdout``, a FIFO) cannot be renamed over: it is
written in place, with every write checked.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .errors import OutputError

__all__ = ["atomic_path", "atomic_write", "same_file"]


def _umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _fail(path: Path, exc: BaseException) -> OutputError:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return OutputError(f"could not write {str(path)!r} ({reason}); check that the folder "
                       "exists, is writable and has free space. The previous content, if "
                       "any, is unchanged.")


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """A temporary path to write instead of ``path``; on a clean exit it replaces ``path``.

    The temporary file keeps ``path``'s suffix, so writers that choose a format by suffix
    (HiGHS, Pyomo, pandas) work unchanged.  On an exception the temporary file is removed and
    ``path`` is untouched.  A symbolic link is followed: its target is replaced.

    Examples
    --------
    >>> import tempfile, os
    >>> out = os.path.join(tempfile.mkdtemp(), "x.txt")
    >>> with atomic_path(out) as tmp:
    ...     _ = tmp.write_text("hello")
    >>> open(out).read()
    'hello'
    """
    target = Path(os.path.realpath(os.fspath(path)))
    special = target.exists() and not stat.S_ISREG(target.stat().st_mode)
    folder = Path(tempfile.gettempdir()) if special else target.parent
    if not special and not folder.is_dir():
        raise OutputError(f"could not write {str(path)!r}: the folder {str(folder)!r} does not "
                          "exist; create it first or choose another path.")
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=target.suffix or ".tmp",
                                    dir=folder)
        os.close(fd)
    except OSError as exc:
        raise _fail(Path(path), exc) from None
    tmp = Path(name)
    try:
        yield tmp
        if special:
            with open(tmp, "rb") as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
                dst.flush()
        else:
            with open(tmp, "rb+") as fh:
                os.fsync(fh.fileno())
            mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else _umask_mode()
            os.chmod(tmp, mode)
            os.replace(tmp, target)
    except OSError as exc:
        raise _fail(Path(path), exc) from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def atomic_write(path: str | os.PathLike, data: str | bytes, *, encoding: str = "utf-8") -> Path:
    """Write ``data`` (text or bytes) to ``path`` atomically; returns ``Path(path)``.

    Examples
    --------
    >>> import tempfile, os
    >>> out = os.path.join(tempfile.mkdtemp(), "m.json")
    >>> atomic_write(out, '{"a": 1}').name
    'm.json'
    """
    with atomic_path(path) as tmp:
        try:
            if isinstance(data, bytes):
                tmp.write_bytes(data)
            else:
                tmp.write_text(data, encoding=encoding)
        except OSError as exc:
            raise _fail(Path(path), exc) from None
    return Path(path)


def same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """Whether two paths name the same file (after links and ``..``), existing or not."""
    ra, rb = os.path.realpath(os.fspath(a)), os.path.realpath(os.fspath(b))
    if ra == rb:
        return True
    try:
        return os.path.samefile(ra, rb)
    except OSError:
        return False
