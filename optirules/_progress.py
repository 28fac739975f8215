"""A verbose fit's log lines and its progress bar on lines of their own (``optirules fit``)."""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator
from typing import Any

__all__ = ["progress_lines", "TqdmLogHandler"]


class TqdmLogHandler(logging.Handler):
    """A logging handler that writes to stderr through ``tqdm.write``: the progress bars on
    the terminal are cleared before the line and drawn again after it, so a log line never
    shares a line with a bar."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            from tqdm.auto import tqdm

            tqdm.write(self.format(record), file=sys.stderr)
        except Exception:  # pragma: no cover - logging's own policy
            self.handleError(record)


@contextlib.contextmanager
def progress_lines(verbose: Any) -> Iterator[None]:
    """While a verbose fit runs, its log lines (the ``optirules`` loggers, level INFO) go to
    stderr through ``tqdm.write``, so that a progress bar and a log line never share a line
    of the terminal; the handler is removed afterwards.  Not verbose: nothing changes.

    (A learner's own ``verbose`` logging adds a plain stderr handler only when none is
    configured, ``learners._checks.progress_logger``: this one is configured first.)

    Parameters
    ----------
    verbose : object
        The fit's ``verbose`` parameter; a false value changes nothing.

    Yields
    ------
    None
        While the fit runs.
    """
    if not verbose:
        yield
        return
    logger = logging.getLogger("optirules")
    handler = TqdmLogHandler()
    handler.setFormatter(logging.Formatter("[%(name)s] %(message)s"))
    level = logger.level
    logger.addHandler(handler)
    if level == logging.NOTSET or level > logging.INFO:
        logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
