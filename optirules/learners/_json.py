"""The JSON form shared by the learners that save themselves (no pickle).

Every file starts with a header: ``format`` (``"optirules.<Class>"``, which
``optirules predict`` dispatches on), ``version``, the constructor ``params``, ``classes``,
``n_features_in`` and ``feature_names_in``; the learner adds its fitted fields.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator

from ..errors import InputError

__all__ = ["json_scalar", "jsonable_params", "restore_params", "json_header",
           "load_json_header", "dump_json", "load_json", "num", "check_rule_columns"]


def json_scalar(value: Any) -> Any:
    """A numpy scalar as the Python scalar JSON can hold; anything else unchanged."""
    return value.item() if isinstance(value, np.generic) else value


def num(value: Any, default: float = float("nan")) -> float:
    """A JSON number back as float (``None``, written for NaN, gives ``default``)."""
    return default if value is None else float(value)


def jsonable_params(params: dict[str, Any]) -> dict[str, Any]:
    """Constructor parameters as JSON: an estimator (a binarizer) by class name and params,
    a RandomState as None, anything else not JSON-able by its repr."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        value = json_scalar(value)
        if isinstance(value, BaseEstimator):
            value = {"__estimator__": type(value).__name__,
                     "params": jsonable_params(value.get_params(deep=False))}
        elif isinstance(value, np.random.RandomState):
            value = None
        elif isinstance(value, (list, tuple)):
            value = [json_scalar(v) for v in value]
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            value = repr(value)
        out[key] = value
    return out


def restore_params(params: dict[str, Any]) -> dict[str, Any]:
    """Inverse of :func:`jsonable_params` for the ``binarizer`` parameter."""
    out = dict(params)
    b = out.get("binarizer")
    if isinstance(b, dict) and b.get("__estimator__") == "FeatureBinarizer":
        from ..data import FeatureBinarizer

        out["binarizer"] = FeatureBinarizer(**b.get("params", {}))
    elif isinstance(b, dict):
        out["binarizer"] = "auto"
    return out


def json_header(est: Any, fmt: str) -> dict[str, Any]:
    """The fields every learner's JSON starts with (format tag, params, classes)."""
    return {
        "format": fmt,
        "version": 1,
        "params": jsonable_params(est.get_params(deep=False)),
        "classes": [json_scalar(c) for c in est.classes_],
        "n_features_in": int(est.n_features_in_),
        "feature_names_in": ([str(c) for c in est.feature_names_in_]
                             if hasattr(est, "feature_names_in_") else None),
    }


def load_json_header(est: Any, data: dict[str, Any]) -> None:
    """Restore on ``est`` what :func:`json_header` wrote."""
    est.classes_ = np.asarray(data["classes"])
    est.n_features_in_ = int(data["n_features_in"])
    if data.get("feature_names_in") is not None:
        est.feature_names_in_ = np.asarray(data["feature_names_in"], dtype=object)


def dump_json(data: dict[str, Any], path: Any, indent: int | None) -> str:
    """The JSON text of ``data``, also written to ``path`` when given."""
    text = json.dumps(data, indent=indent)
    if path is not None:
        Path(path).write_text(text)
    return text


def load_json(source: str | os.PathLike, fmt: str, writer: str) -> dict[str, Any]:
    """Parse JSON text or a file, and check that ``fmt`` wrote it."""
    text = source
    if isinstance(source, os.PathLike) or (isinstance(source, str)
                                           and not source.lstrip().startswith("{")):
        try:
            text = Path(source).read_text()
        except OSError as exc:
            raise InputError(f"could not read {str(source)!r} ({exc}); pass the JSON text or "
                             f"a file written by {writer}().") from None
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise InputError(f"not valid JSON ({exc}); pass the text written by {writer}().") \
            from None
    except RecursionError:
        raise InputError(f"the JSON is nested too deeply to be a model written by {writer}(); "
                         "re-export the model.") from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise InputError(f"this JSON was not written by {fmt.split('.')[-1]}.{writer}(); "
                         "re-export the model.")
    _check_header(data, fmt)
    return data


#: the header versions this release reads
JSON_VERSIONS = (1,)


def _check_header(data: dict[str, Any], fmt: str) -> None:
    """Refuse a header that :func:`json_header` cannot have written: another version, an
    unknown constructor parameter, classes that are not two distinct labels, or feature
    counts and names that do not agree."""
    import importlib

    name = fmt.split(".")[-1]

    def bad(what: str) -> InputError:
        return InputError(f"this {name} JSON is damaged: {what}; re-export the model with "
                          "to_json().")

    if "version" not in data:
        raise bad("it has no 'version'")
    if data["version"] not in JSON_VERSIONS:
        raise InputError(f"this {name} JSON has version {data['version']!r}; this release "
                         f"of optirules reads version {', '.join(map(str, JSON_VERSIONS))}: "
                         "re-export the model with this release.")
    params = data.get("params")
    if not isinstance(params, dict):
        raise bad("'params' is not an object")
    known = getattr(importlib.import_module("optirules.learners"), name)().get_params(deep=False)
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise bad(f"{name} has no parameter {unknown[0]!r}")
    classes = data.get("classes")
    if not isinstance(classes, list) or len(classes) != 2 or not all(
            isinstance(c, (str, int, float, bool)) for c in classes) or classes[0] == classes[1]:
        raise bad(f"'classes' must be two distinct labels, not {str(classes)[:60]}")
    n = data.get("n_features_in")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise bad(f"'n_features_in' must be a positive integer, not {str(n)[:40]}")
    names = data.get("feature_names_in")
    if names is not None and (not isinstance(names, list) or len(names) != n
                              or not all(isinstance(c, str) for c in names)):
        raise bad(f"'feature_names_in' must be {n} column names")


def check_rule_columns(est: Any, rule_sets: Any, name: str) -> None:
    """Refuse loaded rules whose conditions read a column the model was not fitted on: a
    column position outside ``0 .. n_features_in_ - 1``, or a name not in
    ``feature_names_in_``."""
    n = int(est.n_features_in_)
    names = getattr(est, "feature_names_in_", None)
    known = None if names is None else {str(c) for c in names}
    for rule_set in rule_sets:
        for rule in rule_set.rules:
            for cond in rule.conditions:
                col = cond.column
                if col is not None and (isinstance(col, bool) or not isinstance(col, int)
                                        or not 0 <= col < n):
                    raise InputError(f"this {name} JSON is damaged: the condition '{cond}' "
                                     f"reads column {col!r}, but the model has {n} columns; "
                                     "re-export the model with to_json().")
                if known is not None and str(cond.feature) not in known:
                    raise InputError(f"this {name} JSON is damaged: the condition '{cond}' "
                                     f"reads the unknown column {cond.feature!r}; re-export the "
                                     "model with to_json().")
