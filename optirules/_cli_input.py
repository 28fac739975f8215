"""What ``optirules fit`` reads from its command line beyond argparse: the CSV, the
``--param`` values (JSON, nested at most ``MAX_PARAM_DEPTH`` levels) and the label that
``--target-class`` names."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any


def _read_csv(path: str):
    import pandas as pd

    from .errors import InputError

    try:
        frame = pd.read_csv(path, skipinitialspace=True)
    except FileNotFoundError:
        raise InputError(f"no such file: {path}") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"{path} is not a readable CSV file ({first}).") from None
    if frame.shape[1] == 0 or len(frame) == 0:
        raise InputError(f"{path} holds no data rows.")
    return frame


#: the deepest nesting of lists and objects a ``--param`` value may have: a parameter takes
#: a number, a string, or lists and objects of those a few levels deep; deeper values are
#: refused before Python's recursion limit can turn them into an internal error
MAX_PARAM_DEPTH = 32


def _depth(value: object) -> int:
    """How deeply lists and objects nest in a parsed JSON value (0 for a scalar), counted
    without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (list, dict)):
            deepest = max(deepest, d + 1)
            stack.extend((c, d + 1) for c in (v.values() if isinstance(v, dict) else v))
    return deepest


def _parse_params(items: Sequence[str]) -> dict:
    import json

    from .errors import InputError

    params = {}
    for item in items:
        if "=" not in item:
            raise InputError(f"--param takes NAME=VALUE, got {item!r}.")
        key, text = item.split("=", 1)
        too_deep = InputError(
            f"--param {key.strip()}: the value nests lists or objects more than "
            f"{MAX_PARAM_DEPTH} levels deep; give a number, a string, or a list or object "
            "of those (e.g. --param max_degree=2, --param 'penalties=[0.01, 0.1]').")
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = text
        except RecursionError:
            raise too_deep from None
        if _depth(value) > MAX_PARAM_DEPTH:
            raise too_deep
        params[key.strip()] = value
    return params




def _target_class_label(args: argparse.Namespace, y: Any, classes: Any) -> Any:
    """The label of ``y`` that ``--target-class`` names (a CSV holds text, so ``1`` names
    the number 1 of a numeric column), checked before any fit."""
    from .errors import InputError

    if args.learner not in ("rule_set", "rule_set_cv"):
        raise InputError(f"--target-class chooses the class a rule set describes; learner "
                         f"{args.learner!r} has none (use rule_set or rule_set_cv).")
    if len(classes) != 2:
        raise InputError(f"--target-class needs a two-class target; {args.target!r} has "
                         f"{len(classes)} classes (each one-vs-rest rule set describes its "
                         "own class).")
    labels = [v for v in dict.fromkeys(y.tolist()) if str(v) == args.target_class]
    if not labels:
        raise InputError(f"--target-class {args.target_class!r} is not a label of "
                         f"{args.target!r}; its labels are: {', '.join(classes)}.")
    return labels[0]
