"""The JSON form shared by the learners that save themselves (no pickle), and its one
validated reader.

Every file starts with a header: ``format`` (``"optirules.<Class>"``, which
``optirules predict`` dispatches on), ``version``, the constructor ``params``, ``classes``,
``n_features_in`` and ``feature_names_in``; the learner adds its fitted fields.

Reading goes through one path: :func:`read_source` (a file's bytes decoded as UTF-8),
:func:`parse_json` (nesting deeper than :data:`MAX_DEPTH` refused before anything else),
then :class:`Field`, whose typed accessors (``real``, ``probability``, ``count``,
``string``, ``boolean``, ``object``, ``items``) check type, finiteness and range and raise
one :class:`~optirules.errors.InputError` naming the field (``'scores.rule_precision[3]'
must be in [0, 1], not 5``); :func:`read_classes` and :func:`classes_array` check the class
labels and that a stored dtype holds them exactly.  :func:`damaged_as_input_error` turns
what a damaged part can still provoke deeper down into the same error.  Writing is atomic
(:func:`optirules._atomic.atomic_write`).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator

from .._atomic import atomic_write
from ..errors import InputError
from ._checks import input_names

__all__ = ["json_scalar", "jsonable_params", "restore_params", "json_header",
           "load_json_header", "dump_json", "load_json", "check_rule_columns",
           "check_literal_columns", "check_rule_labels", "Field", "read_source", "parse_json",
           "read_document", "read_classes", "classes_array", "label_kind",
           "damaged_as_input_error", "json_depth", "jsonable_value", "restore_value",
           "MAX_DEPTH", "INT_LIMIT"]


def json_scalar(value: Any) -> Any:
    """A numpy scalar as the Python scalar JSON can hold; anything else unchanged."""
    return value.item() if isinstance(value, np.generic) else value


def jsonable_value(value: Any) -> Any:
    """A condition's value as JSON: a numpy scalar as its Python scalar, a date or time
    (``Timestamp``, ``datetime``, ``date``, ``Timedelta``) as ``{"__datetime__": iso}``,
    ``{"__date__": iso}`` or ``{"__timedelta__": iso}``; :func:`restore_value` reads it."""
    import datetime

    import pandas as pd

    value = json_scalar(value)
    if isinstance(value, (pd.Timestamp, datetime.datetime, np.datetime64)):
        return {"__datetime__": pd.Timestamp(value).isoformat()}
    if isinstance(value, datetime.date):
        return {"__date__": value.isoformat()}
    if isinstance(value, (pd.Timedelta, datetime.timedelta, np.timedelta64)):
        return {"__timedelta__": pd.Timedelta(value).isoformat()}
    return value


def restore_value(field: Field) -> Any:
    """Inverse of :func:`jsonable_value`: ``None``, a string, a boolean, a finite number, or
    a date or time object; anything else is damage."""
    import datetime

    import pandas as pd

    v = field.value
    if v is None or isinstance(v, (str, bool)):
        return v
    if isinstance(v, (int, float)):
        if isinstance(v, int) and not -INT_LIMIT <= v < INT_LIMIT:
            raise field.damaged(f"must be a number within 64 bits, not {_show(v)}")
        return field.real()
    if isinstance(v, dict) and len(v) == 1:
        (tag, text), = v.items()
        if isinstance(text, str):
            try:
                if tag == "__datetime__":
                    return pd.Timestamp(text)
                if tag == "__date__":
                    return datetime.date.fromisoformat(text)
                if tag == "__timedelta__":
                    return pd.Timedelta(text)
            except (TypeError, ValueError, OverflowError):
                raise field.damaged(f"holds the unreadable {tag.strip('_')} {_show(text)}") \
                    from None
    raise field.damaged(f"must be a string, a number, a boolean, a date or null, not "
                        f"{_show(v)}")


def jsonable_params(params: dict[str, Any]) -> dict[str, Any]:
    """Constructor parameters as JSON: an estimator (a binarizer) by class name and params,
    a RandomState as None, a dict ``class_weight`` as a list of ``[label, weight]`` pairs
    (JSON object keys would turn integer labels into strings), anything else not JSON-able
    by its repr."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        value = json_scalar(value)
        if key == "class_weight" and isinstance(value, Mapping):
            value = [[json_scalar(k), json_scalar(v)] for k, v in value.items()]
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
    """Inverse of :func:`jsonable_params` for the ``binarizer``, ``member`` and
    ``class_weight`` parameters."""
    out = dict(params)
    cw = out.get("class_weight")
    if isinstance(cw, list):  # [[label, weight], ...]: the dict with its labels' types
        if not all(isinstance(p, list) and len(p) == 2 for p in cw):
            raise InputError("the saved class_weight is damaged (expected [label, weight] "
                             "pairs); re-export the model with to_json().")
        try:
            out["class_weight"] = {label: weight for label, weight in cw}
        except TypeError:
            raise InputError("the saved class_weight is damaged (a label is not a scalar); "
                             "re-export the model with to_json().") from None
    m = out.get("member")
    if m is not None and not (isinstance(m, dict)
                              and m.get("__estimator__") == "BooleanRuleSetClassifier"):
        raise InputError("the saved member is damaged (expected a saved "
                         "BooleanRuleSetClassifier or null); re-export the model with "
                         "to_json().")
    if isinstance(m, dict):
        import importlib

        # by name, as the header check finds the learner (no import of the learner module:
        # it imports this one)
        member_class = importlib.import_module("optirules.learners").BooleanRuleSetClassifier

        if not isinstance(m.get("params", {}), dict):
            raise InputError("the saved member parameters are damaged (not an object); "
                             "re-export the model with to_json().")
        try:
            out["member"] = member_class(**restore_params(m.get("params", {})))
        except TypeError as exc:
            raise InputError(f"the saved member parameters are damaged ({exc}); re-export "
                             "the model with to_json().") from None
        if out["member"].get_params(deep=False).get("fairness") is not None:
            raise InputError("the saved member is damaged (a DRO ensemble's member has no "
                             "fairness); re-export the model with to_json().")
    b = out.get("binarizer")
    if isinstance(b, dict) and b.get("__estimator__") == "FeatureBinarizer":
        from ..data import FeatureBinarizer

        try:
            out["binarizer"] = FeatureBinarizer(**b.get("params", {}))
        except (TypeError, ValueError) as exc:
            if isinstance(exc, InputError):
                raise
            raise InputError(f"the saved binarizer parameters are damaged ({exc}); re-export "
                             "the model with to_json().") from None
    elif isinstance(b, dict):
        out["binarizer"] = "auto"
    return out


def json_header(est: Any, fmt: str, version: int = 1) -> dict[str, Any]:
    """The fields every learner's JSON starts with (format tag, ``version`` of the learner's
    layout, params, classes)."""
    return {
        "format": fmt,
        "version": version,
        "params": jsonable_params(est.get_params(deep=False)),
        "classes": [json_scalar(c) for c in est.classes_],
        "n_features_in": int(est.n_features_in_),
        "feature_names_in": input_names(est),
    }


def load_json_header(est: Any, data: dict[str, Any]) -> None:
    """Restore on ``est`` what :func:`json_header` wrote (checked by :func:`load_json`)."""
    est.classes_ = classes_array(Field(type(est).__name__, data)["classes"], data["classes"])
    est.n_features_in_ = int(data["n_features_in"])
    if data.get("feature_names_in") is not None:
        est.feature_names_in_ = np.asarray(data["feature_names_in"], dtype=object)


def dump_json(data: dict[str, Any], path: Any, indent: int | None, *,
              allow_nan: bool = True) -> str:
    """The JSON text of ``data``, also written to ``path`` when given (atomically: a
    temporary file renamed over ``path``; :class:`~optirules.errors.OutputError` on an I/O
    failure); ``allow_nan=False`` refuses NaN and infinities (``ValueError``)."""
    text = json.dumps(data, indent=indent, allow_nan=allow_nan)
    if path is not None:
        atomic_write(path, text)
    return text


# ----------------------------------------------------------------------------------------------
# the validated reader
# ----------------------------------------------------------------------------------------------

#: the deepest nesting a model file may have (the deepest real one is far shallower)
MAX_DEPTH = 64
#: integers stored in a model (counts, indices) are below this bound (numpy's int64)
INT_LIMIT = 2**63
_MISSING = object()
_TOO_DEEP = object()


def _show(value: Any) -> str:
    """A short text of a JSON value for an error message."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def read_source(source: Any, writer: str = "to_json") -> str:
    """The text of ``source``: JSON text, or a path (``str`` not starting with ``{`` or a
    path-like) whose bytes are decoded as UTF-8; every failure is an :class:`InputError`."""
    if isinstance(source, (bytes, bytearray)):
        raw, where = bytes(source), "the JSON"
    elif isinstance(source, os.PathLike) or (isinstance(source, str)
                                             and not source.lstrip().startswith("{")):
        try:
            raw = Path(source).read_bytes()
        except (OSError, ValueError) as exc:
            raise InputError(f"could not read {str(source)[:200]!r} ({exc}); pass the JSON "
                             f"text or a file written by {writer}().") from None
        where = repr(str(source))
    elif isinstance(source, str):
        return source
    else:
        raise InputError(f"expected JSON text or a file path, got {type(source).__name__}; "
                         f"pass the text or file written by {writer}().")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{where} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at "
                         f"position {exc.start}), so it is not a model written by {writer}(); "
                         "pass the file as written, or re-export the model.") from None


def json_depth(value: Any) -> int:
    """How deeply ``value`` nests lists and objects (iteratively: no recursion limit)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            v = list(v.values())
        if isinstance(v, list):
            deepest = max(deepest, d)
            stack.extend((c, d + 1) for c in v if isinstance(c, (list, dict)))
    return deepest


def parse_json(text: str, writer: str = "to_json", what: str = "a model") -> Any:
    """``json.loads`` whose every failure (bad syntax, nesting too deep for the parser or
    deeper than :data:`MAX_DEPTH`) is an :class:`InputError`."""
    try:
        data = json.loads(text)
    except RecursionError:
        data = _TOO_DEEP
    except (TypeError, ValueError) as exc:
        raise InputError(f"not valid JSON ({exc}); pass the text written by {writer}().") \
            from None
    if data is _TOO_DEEP or json_depth(data) > MAX_DEPTH:
        raise InputError(f"the JSON is nested too deeply (more than {MAX_DEPTH} levels) to be "
                         f"{what} written by {writer}(); re-export the model.")
    return data


class Field:
    """One value of a parsed model document and its place (``fit.n_iter``,
    ``scores.rule_precision[3]``): typed accessors check it and raise one
    :class:`InputError` naming the place on anything :meth:`to_json` cannot have written.

    ``field["key"]`` is the member ``key`` (the value must be an object); a missing member
    reads as its ``default`` if one is given, else it is an error.
    """

    __slots__ = ("name", "value", "path", "present")

    def __init__(self, name: str, value: Any, path: str = "", present: bool = True):
        self.name, self.value, self.path, self.present = name, value, path, present

    # ------------------------------------------------------------------ errors
    def damaged(self, what: str, path: str | None = None) -> InputError:
        where = self.path if path is None else path
        place = f"{where!r} " if where else "the document "
        return InputError(f"this {self.name} JSON is damaged: {place}{what}; re-export the "
                          "model with to_json().")

    def _get(self, default: Any) -> Any:
        if not self.present:
            if default is _MISSING:
                raise self.damaged("is missing")
            return _MISSING
        return self.value

    # ------------------------------------------------------------------ navigation
    def __getitem__(self, key: str) -> Field:
        obj = self.object()
        path = f"{self.path}.{key}" if self.path else key
        return Field(self.name, obj.get(key), path, key in obj)

    def __contains__(self, key: str) -> bool:
        return isinstance(self.value, dict) and key in self.value

    def is_null(self) -> bool:
        """Missing, or JSON ``null``."""
        return not self.present or self.value is None

    def object(self, default: Any = _MISSING) -> dict[str, Any]:
        v = self._get(default)
        if v is _MISSING:
            return default
        if not isinstance(v, dict):
            raise self.damaged(f"must be an object, not {_show(v)}")
        return v

    def items(self, length: int | None = None, *, min_length: int = 0,
              default: Any = _MISSING) -> list[Field]:
        """The elements of a list (of ``length`` elements, at least ``min_length``)."""
        v = self._get(default)
        if v is _MISSING:
            return default
        if not isinstance(v, list):
            raise self.damaged(f"must be a list, not {_show(v)}")
        if length is not None and len(v) != length:
            raise self.damaged(f"must hold {length} values, not {len(v)}")
        if len(v) < min_length:
            raise self.damaged(f"must hold at least {min_length} values, not {len(v)}")
        return [Field(self.name, x, f"{self.path}[{i}]") for i, x in enumerate(v)]

    # ------------------------------------------------------------------ scalars
    def real(self, *, lo: float | None = None, hi: float | None = None,
             null: Any = _MISSING, default: Any = _MISSING, finite: bool = True) -> float:
        """A finite number in ``[lo, hi]``; ``null`` is what JSON ``null`` (NaN when
        written) reads as, if allowed; ``finite=False`` also takes NaN and infinities (a
        fit statistic that may be unbounded)."""
        v = self._get(default)
        if v is _MISSING:
            return default
        if v is None and null is not _MISSING:
            return null
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise self.damaged(f"must be a number, not {_show(v)}")
        try:
            x = float(v)
        except OverflowError:
            x = math.inf
        if not math.isfinite(x):
            if not finite:
                return x
            raise self.damaged(f"must be a finite number, not {_show(v)}")
        if (lo is not None and x < lo) or (hi is not None and x > hi):
            rng = f"in [{lo:g}, {hi:g}]" if lo is not None and hi is not None else \
                f">= {lo:g}" if lo is not None else f"<= {hi:g}"
            raise self.damaged(f"must be {rng}, not {_show(v)}")
        return x

    def probability(self, **kwargs: Any) -> float:
        """A number in [0, 1]."""
        return self.real(lo=0.0, hi=1.0, **kwargs)

    def count(self, *, lo: int = 0, hi: int | None = None, null: Any = _MISSING,
              default: Any = _MISSING) -> int:
        """An integer in ``[lo, hi]`` (``hi`` at most ``2**63 - 1``), not a boolean."""
        v = self._get(default)
        if v is _MISSING:
            return default
        if v is None and null is not _MISSING:
            return null
        top = INT_LIMIT - 1 if hi is None else min(hi, INT_LIMIT - 1)
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.damaged(f"must be an integer, not {_show(v)}")
        if not lo <= v <= top:
            raise self.damaged(f"must be an integer in [{lo}, {top}], not {_show(v)}")
        return int(v)

    def string(self, *, choices: Any = None, null: Any = _MISSING,
               default: Any = _MISSING) -> str:
        v = self._get(default)
        if v is _MISSING:
            return default
        if v is None and null is not _MISSING:
            return null
        if not isinstance(v, str):
            raise self.damaged(f"must be a string, not {_show(v)}")
        if choices is not None and v not in choices:
            raise self.damaged(f"must be one of {list(choices)}, not {_show(v)}")
        return v

    def boolean(self, *, default: Any = _MISSING) -> bool:
        v = self._get(default)
        if v is _MISSING:
            return default
        if not isinstance(v, bool):
            raise self.damaged(f"must be true or false, not {_show(v)}")
        return v

    def reals(self, length: int | None = None, **kwargs: Any) -> np.ndarray:
        """A list of finite numbers (each checked as :meth:`real`) as a float array."""
        return np.asarray([f.real(**kwargs) for f in self.items(length)], dtype=float)

    def counts(self, length: int | None = None, **kwargs: Any) -> list[int]:
        return [f.count(**kwargs) for f in self.items(length)]


@contextlib.contextmanager
def damaged_as_input_error(name: str) -> Iterator[None]:
    """Turn any error a damaged document can still provoke while a model is rebuilt from
    it (a missing key, a wrong type deep inside a part) into one :class:`InputError`."""
    try:
        yield
    except InputError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError,
            ZeroDivisionError, RecursionError, UnicodeError) as exc:
        raise InputError(f"this {name} JSON is damaged ({type(exc).__name__}: "
                         f"{str(exc)[:200]}); re-export the model with to_json().") from None


def label_kind(value: Any) -> str | None:
    """``"str"``, ``"number"`` or ``"bool"``: the kind of a class label JSON holds, or None
    for anything that cannot be a label (NaN, infinities, integers beyond int64, objects)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, str):
        return "str"
    if isinstance(value, int):
        return "number" if -INT_LIMIT <= value < INT_LIMIT else None
    if isinstance(value, float):
        return "number" if math.isfinite(value) else None
    return None


def read_classes(field: Field, n: int | None = None, *, min_n: int = 2) -> list[Any]:
    """Class labels: ``n`` of them (at least ``min_n``), distinct, all strings or all
    numbers (or all booleans), no NaN."""
    v = field._get(_MISSING)
    what = "two distinct labels" if n == 2 else f"at least {min_n} distinct labels"
    if not isinstance(v, list) or (n is not None and len(v) != n) or len(v) < min_n:
        raise field.damaged(f"must be {what}, not {str(v)[:60]}")
    kinds = {label_kind(c) for c in v}
    if None in kinds:
        bad = next(c for c in v if label_kind(c) is None)
        raise field.damaged(f"must be {what} (strings or finite numbers), not "
                            f"{str(v)[:60]}: {_show(bad)} is no class label")
    if len(kinds) > 1:
        raise field.damaged(f"must be {what} of one kind (all strings or all numbers), not "
                            f"{str(v)[:60]}")
    if len({(type(c) is str, c) for c in v}) != len(v):
        raise field.damaged(f"must be {what}, not {str(v)[:60]}")
    return list(v)


def classes_array(field: Field, labels: list[Any], dtype: Any = None) -> np.ndarray:
    """``labels`` as the array ``classes_``, of ``dtype`` if given; refused unless the dtype
    holds every label exactly (no truncated string, no overflow, no rounding)."""
    try:
        arr = np.array(labels, dtype=dtype)
        ok = arr.shape == (len(labels),) and all(
            label_kind(json_scalar(a)) == label_kind(b) and json_scalar(a) == b
            for a, b in zip(arr, labels))
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        held = "the labels' own dtype" if dtype is None else f"the class dtype {str(dtype)!r}"
        raise field.damaged(f"{held} cannot hold the labels {str(labels)[:60]} exactly")
    return arr


def read_document(source: Any, fmt: str, writer: str = "to_json") -> Field:
    """The checked top of a model document: text or file read as UTF-8, parsed, not nested
    too deeply, an object whose ``format`` is ``fmt``."""
    data = parse_json(read_source(source, writer), writer)
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise InputError(f"this JSON was not written by {fmt.split('.')[-1]}.{writer}(); "
                         "re-export the model.")
    return Field(fmt.split(".")[-1], data)


def load_json(source: str | os.PathLike, fmt: str, writer: str,
              versions: tuple[int, ...] | None = None) -> dict[str, Any]:
    """Parse JSON text or a file, and check that ``fmt`` wrote it and its header
    (``versions``: the layouts of ``fmt`` this release reads, :data:`JSON_VERSIONS` when
    None)."""
    data = read_document(source, fmt, writer).value
    _check_header(data, fmt, versions=versions)
    return data


#: the header versions this release reads
JSON_VERSIONS = (1,)


def _check_header(data: dict[str, Any], fmt: str, n_classes: int | None = 2,
                  versions: tuple[int, ...] | None = None) -> None:
    """Refuse a header that :func:`json_header` cannot have written: another version, an
    unknown or damaged constructor parameter, classes that are not distinct labels, or
    feature counts and names that do not agree."""
    import importlib

    name = fmt.split(".")[-1]
    doc = Field(name, data)

    versions = JSON_VERSIONS if versions is None else versions
    if "version" not in data:
        raise doc.damaged("it has no 'version'", path="")
    if isinstance(data["version"], bool) or data["version"] not in versions:
        raise InputError(f"this {name} JSON has version {_show(data['version'])}; this "
                         f"release of optirules reads version "
                         f"{', '.join(map(str, versions))}: re-export the model with "
                         "this release.")
    params = data.get("params")
    if not isinstance(params, dict):
        raise doc.damaged("'params' is not an object", path="")
    cls = getattr(importlib.import_module("optirules.learners"), name)
    upgrade = getattr(cls, "_upgrade_params", None)
    if upgrade is not None:  # parameters of an earlier layout, in today's
        params = data["params"] = upgrade(dict(params))
    known = cls().get_params(deep=False)
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise doc.damaged(f"{name} has no parameter {unknown[0]!r}", path="")
    _check_binarizer(doc["params"]["binarizer"])
    if n_classes == 2:
        read_classes(doc["classes"], 2)
    else:
        read_classes(doc["classes"], min_n=3)
    n = doc["n_features_in"]
    if isinstance(n.value, bool) or not isinstance(n.value, int) or not 1 <= n.value < INT_LIMIT:
        raise doc.damaged(f"'n_features_in' must be a positive integer, not {_show(n.value)}",
                          path="")
    names = data.get("feature_names_in")
    if names is not None and (not isinstance(names, list) or len(names) != n.value
                              or not all(isinstance(c, str) for c in names)):
        raise doc.damaged(f"'feature_names_in' must be {n.value} column names", path="")


def _check_binarizer(field: Field) -> None:
    """The ``binarizer`` parameter: absent, a string, or a saved FeatureBinarizer whose
    parameters FeatureBinarizer takes."""
    if not field.present or field.value is None or isinstance(field.value, str):
        return
    b = field.object()
    if b.get("__estimator__") != "FeatureBinarizer":
        return  # another binarizer object: restore_params falls back to "auto"
    params = field["params"].object(default={})
    from ..data import FeatureBinarizer

    known = FeatureBinarizer().get_params(deep=False)
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise field.damaged(f"FeatureBinarizer has no parameter {unknown[0]!r}")


def check_rule_labels(field: Field, rule_set: Any, classes: np.ndarray) -> None:
    """Refuse a loaded rule set whose labels are not the model's classes (``classes[1]``
    where a rule fires, ``classes[0]`` elsewhere)."""
    for key, label, cls in (("positive_class", rule_set.positive_class, classes[1]),
                            ("negative_class", rule_set.negative_class, classes[0])):
        cls = json_scalar(cls)
        if label_kind(label) != label_kind(cls) or label != cls:
            raise field[key].damaged(f"must be the model's class {cls!r}, not {_show(label)}")


def check_rule_columns(est: Any, rule_sets: Any, name: str) -> None:
    """Refuse loaded rules whose conditions read a column the model was not fitted on: a
    column position outside ``0 .. n_features_in_ - 1``, or a name not in
    ``feature_names_in_``."""
    check_literal_columns(est, [cond for rule_set in rule_sets for rule in rule_set.rules
                                for cond in rule.conditions], name)


def check_literal_columns(est: Any, conditions: Any, name: str) -> None:
    """Refuse loaded conditions (:class:`optirules.data.Literal`) that read a column the
    model was not fitted on (see :func:`check_rule_columns`)."""
    n = int(est.n_features_in_)
    names = getattr(est, "feature_names_in_", None)
    known = None if names is None else {str(c) for c in names}
    for cond in conditions:
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
        if known is not None and col is not None and str(names[col]) != str(cond.feature):
            raise InputError(f"this {name} JSON is damaged: the condition '{cond}' "
                             f"reads column {col} by position, which is "
                             f"{str(names[col])!r}, not {cond.feature!r}; re-export the "
                             "model with to_json().")
