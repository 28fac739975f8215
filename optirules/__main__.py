"""``python -m optirules``: the command line (:func:`optirules.cli.run`).  Ctrl-C while the
command line is still being imported ends it as Ctrl-C during a command does: a message and
the code 130."""

import os
import sys

try:
    from .cli import run
except KeyboardInterrupt:
    print("optirules: interrupted", file=sys.stderr)
    sys.stderr.flush()
    os._exit(130)

run()
