"""Test-wide settings.

Hypothesis draws the same examples on every run (``derandomize``), so the test command gives
the same result on any machine and on every run; ``HYPOTHESIS_PROFILE=explore`` draws fresh
random examples to look for new failures (pin any it finds with ``@example``).

Data generators used by several test files (each call with its own seed and sizes) are plain
functions in ``tests/helpers.py``: ``from tests.helpers import ...``.
"""

import os

from hypothesis import settings

settings.register_profile("deterministic", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))
