"""The JSON form of a fitted decision list (rules, features and the training rows
Minimum OSR needs), written and checked without pickle.

Format versions: 1 (the training matrix as lists), 2 (``max_depth`` for ``max_degree``),
3 (packed training rows), 4 (row weights: the class counts of a weighted fit are
non-negative reals, and ``training.weights`` holds the weights of the stored training
rows, packed as little-endian float64; absent for an unweighted fit).  Every version is
read; integer counts are read as integers.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ...errors import InputError
from .._checks import input_names
from .._json import (
    Field,
    classes_array,
    damaged_as_input_error,
    json_scalar,
    parse_json,
    read_classes,
    read_source,
    restore_params,
)
from ._encoding import MISSING, _Feature
from ._rules import DecisionRule

__all__ = ["TRAINING_ROWS", "JSON_FORMAT", "JSON_VERSION", "JSON_VERSIONS",
           "decision_list_to_doc", "decision_list_from_text"]

#: the format tag, the version ``to_json`` writes and those ``from_json`` reads
JSON_FORMAT = "optirules.DecisionListClassifier"
JSON_VERSION = 4
JSON_VERSIONS = (1, 2, 3, 4)
TRAINING_ROWS = ("auto", "all", "uncovered", "none")


def decision_list_to_doc(est: Any, training_rows: str) -> dict:
    """The JSON document of a fitted decision list, holding the training rows
    ``training_rows`` asks for ("auto": what the estimator's fallback needs)."""
    held = getattr(est, "training_rows_", "all")
    rows = est._osr_rows_needed() if training_rows == "auto" else training_rows
    if rows == "uncovered" and not est.uncovered_rows_.size:
        rows = "all"  # Minimum OSR over the uncovered rows then uses all of them
    if rows != "none" and held != "all" and rows != held:
        raise InputError(f"this decision list holds training rows {held!r} only (it was "
                         f"loaded from JSON), so it cannot store {rows!r}.")
    params = est.get_params()
    cf = params["categorical_features"]
    if cf is not None and not isinstance(cf, str):
        params["categorical_features"] = [c if isinstance(c, str) else int(c) for c in cf]
    cw = params.get("class_weight")
    if isinstance(cw, Mapping):  # [label, weight] pairs keep the labels' types
        params["class_weight"] = [[json_scalar(c), json_scalar(w)] for c, w in cw.items()]
    training: dict[str, Any] = {"rows": rows}
    if rows != "none":
        idx = est.uncovered_rows_ if rows == "uncovered" and held == "all" else None
        codes = est.train_codes_ if idx is None else est.train_codes_[idx]
        y = est.train_y_ if idx is None else est.train_y_[idx]
        training["codes"] = _pack_ints(codes)
        training["y"] = _pack_ints(y[:, None])
        w = getattr(est, "train_weights_", None)
        if w is not None:
            training["weights"] = _pack_floats(w if idx is None else w[idx])
        if rows == "all":
            training["uncovered_rows"] = est.uncovered_rows_.tolist()
    return {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "params": params,
        "classes": est.classes_.tolist(),
        "classes_dtype": est.classes_.dtype.str if est.classes_.dtype != object
        else "object",
        "n_features_in": int(est.n_features_in_),
        "feature_names_in": input_names(est),
        "features": [f.to_dict() for f in est.features_],
        "rules": [{"conditions": [[c.feature, c.value] for c in r.conditions],
                   "prediction": int(np.flatnonzero(est.classes_ == r.prediction)[0]),
                   "class_counts": list(r.class_counts)} for r in est.rules_],
        "default_counts": np.asarray(est.default_counts_).tolist(),
        "stop_reason": est.stop_reason_,
        "min_coverage_used": int(est.min_coverage_),
        "training": training,
    }


def decision_list_from_text(cls: Any, source: Any) -> Any:
    """A ``cls`` instance (the decision-list estimator) rebuilt from JSON text (or a file
    path, read as UTF-8), every part checked; anything else raises
    :class:`~optirules.errors.InputError` naming the damaged field."""
    text = read_source(source, "to_json")
    doc = parse_json(text, "to_json", "a decision list")
    if not isinstance(doc, dict) or doc.get("format") != JSON_FORMAT:
        raise InputError("this JSON was not written by DecisionListClassifier.to_json(); "
                         "re-export the model with to_json().")
    version = doc.get("version")
    if isinstance(version, bool) or version not in JSON_VERSIONS:
        raise InputError(f"unsupported decision-list JSON version {str(version)[:40]}; "
                         f"this optirules reads versions {JSON_VERSIONS}: re-export the model "
                         "with this release.")
    with damaged_as_input_error(_NAME):
        return _from_doc(cls, Field(_NAME, doc))


_NAME = "DecisionListClassifier"


def _from_doc(cls: Any, doc: Field) -> Any:
    version = doc.value["version"]
    est, params = _read_params(cls, doc, version)
    _read_classes_of(est, doc)
    _read_rules(est, doc, version)
    est.stop_reason_ = doc["stop_reason"].string(null="", default="")
    est._set_status()
    _read_min_coverage_used(est, doc, params)
    est.history_ = []
    est.n_candidates_ = 0
    _read_training(est, doc["training"], version)
    return est


def _read_params(cls: Any, doc: Field, version: int) -> tuple[Any, dict[str, Any]]:
    """The estimator of the saved parameters (checked as ``__init__`` and ``_check_params``
    take them; versions 1 and 2 say ``max_depth``), and the parameters."""
    params = doc["params"].object()
    if version < 3 and "max_depth" in params:
        # versions 1 and 2 named the number of tests per rule max_depth
        params = {("max_degree" if k == "max_depth" else k): v for k, v in params.items()}
    params = restore_params(params)  # class_weight pairs back to a dict
    known = cls().get_params()
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise doc["params"].damaged(f"holds unknown parameters {unknown}")
    pf = doc["params"]
    for key, value in params.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise pf[key].damaged(f"must be a finite number, not {value!r}")
    cf = pf["categorical_features"]
    if isinstance(cf.value, list):
        for f in cf.items():
            if not isinstance(f.value, str):
                f.count()
    est = cls(**params)
    try:
        est._check_params()
    except InputError as exc:
        raise doc["params"].damaged(str(exc).rstrip(".")) from None
    return est, params


def _read_classes_of(est: Any, doc: Field) -> None:
    """``classes_``: the saved labels with their dtype (numeric, string or object)."""
    labels = read_classes(doc["classes"], min_n=2)
    dtype = doc["classes_dtype"].string()
    if dtype == "object":
        est.classes_ = classes_array(doc["classes_dtype"], labels, object)
        return
    try:
        dt = np.dtype(dtype)
    except TypeError:
        dt = None
    if dt is None or dt.kind not in "biufU":
        raise doc["classes_dtype"].damaged(f"must be a numeric or string dtype, not "
                                           f"{dtype[:40]!r}")
    est.classes_ = classes_array(doc["classes_dtype"], labels, dt)


def _counts_of(f: Field, k: int, version: int) -> tuple[int, ...] | tuple[float, ...]:
    """``k`` class counts: integers (an unweighted fit) or non-negative reals (weight sums,
    version 4)."""
    items = f.items(k)
    if version >= 4 and any(isinstance(i.value, float) for i in items):
        return tuple(i.real(lo=0.0) for i in items)
    return tuple(i.count() for i in items)


def _read_rules(est: Any, doc: Field, version: int) -> None:
    """The attributes (``features_``, ``n_features_in_``, ``feature_names_in_``), the rules
    over them and the default class with its counts."""
    k = est.classes_.size
    est.features_ = [_read_feature(f) for f in doc["features"].items(min_length=1)]
    p = len(est.features_)
    est.n_features_in_ = doc["n_features_in"].count(lo=p, hi=p)
    names = doc["feature_names_in"]
    if not names.is_null():
        est.feature_names_in_ = np.array([f.string() for f in names.items(p)], dtype=object)
    n_values = [len(f.categories) for f in est.features_]
    rules = []
    for r in doc["rules"].items():
        pairs = r["conditions"].items(min_length=1)
        tests = []
        for pair in pairs:
            j, v = pair.items(2)
            j = j.count(hi=p - 1)
            tests.append((j, v.count(hi=n_values[j] - 1)))
        if len({j for j, _ in tests}) != len(tests):
            raise r["conditions"].damaged("tests one attribute twice")
        pred = r["prediction"].count(hi=k - 1)
        conds = tuple(est._condition(j, v) for j, v in tests)
        rules.append(DecisionRule(conds, est.classes_[pred],
                                  _counts_of(r["class_counts"], k, version)))
    est.rules_ = rules
    default = _counts_of(doc["default_counts"], k, version)
    est.default_counts_ = np.asarray(
        default, dtype=np.float64 if any(isinstance(c, float) for c in default) else np.int64)
    est.default_class_ = est.classes_[int(np.argmax(est.default_counts_))]


def _read_min_coverage_used(est: Any, doc: Field, params: dict[str, Any]) -> None:
    """``min_coverage_``: the integer min_coverage the fit used (files written before
    min_coverage="auto" existed hold only the parameter, then an integer)."""
    used_field = doc["min_coverage_used"]
    if used_field.present:
        used = used_field.count(lo=1)
    else:
        used = params.get("min_coverage", 2)
        if isinstance(used, bool) or not isinstance(used, int) or used < 1:
            raise used_field.damaged("is missing and 'params.min_coverage' is no integer")
    if est.min_coverage != "auto" and used != est.min_coverage:
        raise used_field.damaged(f"must be min_coverage {est.min_coverage!r}, not {used!r}")
    est.min_coverage_ = int(used)


def _read_training(est: Any, training: Field, version: int) -> None:
    """The stored training rows (codes, labels, weights, uncovered rows) Minimum OSR
    needs, checked against the attributes and classes."""
    k = est.classes_.size
    p = len(est.features_)
    n_values = [len(f.categories) for f in est.features_]
    training.object()
    if version == 1:
        columns = [c.counts() for c in training["codes"].items(p)]  # one list per attribute
        if len({len(c) for c in columns}) > 1:
            raise training["codes"].damaged("must hold one value per training row for "
                                            "every attribute")
        codes = np.asarray(columns, dtype=np.int64).reshape(p, -1).T
        y = np.asarray(training["y"].counts(), dtype=np.int64)
        rows = "all"
    else:
        rows = training["rows"].string(choices=("all", "uncovered", "none"))
        if rows == "none":
            codes, y = np.zeros((0, p), dtype=np.int64), np.zeros(0, dtype=np.int64)
        else:
            codes = _unpack_ints(training["codes"], p)
            y = _unpack_ints(training["y"], 1)[:, 0]
    if y.shape != (codes.shape[0],):
        raise training["y"].damaged(f"must hold one label per training row ({codes.shape[0]})")
    if y.size and not 0 <= y.min() <= y.max() < k:
        raise training["y"].damaged(f"must hold class indices 0 to {k - 1}")
    if codes.size and ((codes < 0).any() or (codes >= np.asarray(n_values)).any()):
        raise training["codes"].damaged("holds a value code out of its attribute's range")
    m = codes.shape[0]
    if rows == "all":
        unc = np.asarray(training["uncovered_rows"].counts(hi=max(m - 1, 0)), dtype=np.int64)
        if unc.size and (m == 0 or np.unique(unc).size != unc.size):
            raise training["uncovered_rows"].damaged("must be distinct row indices")
    elif rows == "uncovered":
        unc = np.arange(m, dtype=np.int64)
    else:
        unc = np.zeros(0, dtype=np.int64)
    weights = None
    if version >= 4 and rows != "none" and training["weights"].present:
        weights = _unpack_floats(training["weights"], m)
    est.train_codes_ = np.ascontiguousarray(codes, dtype=np.int32)
    est.train_y_ = y
    est.train_weights_ = weights
    est.uncovered_rows_ = unc
    est.training_rows_ = rows


def _read_feature(field: Field) -> _Feature:
    """One attribute of :meth:`_Feature.to_dict` form, checked: a name, a kind, its value
    labels (strings) and, for a numeric one, increasing finite cut points between them."""
    name = field["name"].string()
    kind = field["kind"].string(choices=("categorical", "numeric"))
    categories = [f.string() for f in field["categories"].items(min_length=1)]
    cuts_field = field["cuts"]
    cuts = None if cuts_field.is_null() else [f.real() for f in cuts_field.items()]
    f = _Feature(name, kind, categories, cuts)

    def bad(what: str) -> InputError:
        return field.damaged(what)

    _check_feature(f, bad)
    return f


def _check_feature(f: _Feature, bad) -> None:
    if f.kind not in ("categorical", "numeric") or not f.categories:
        raise bad(f"feature {f.name!r} of kind {f.kind!r} with {len(f.categories)} values")
    if f.kind == "numeric":
        cuts = f.cuts if f.cuts is not None else []
        # the interval bins, then "?" when the column had NaN at fit
        bins = f.categories[:-1] if f.categories[-1] == MISSING else f.categories
        if (len(cuts) + 1 != len(bins) or MISSING in bins or not all(math.isfinite(c) for c in cuts)
                or any(a >= b for a, b in zip(cuts, cuts[1:]))):
            raise bad(f"numeric feature {f.name!r}: cut points and bins do not match")
    elif f.cuts is not None or len(set(f.categories)) != len(f.categories):
        raise bad(f"categorical feature {f.name!r}: repeated categories or cut points")


def _pack_ints(a: np.ndarray) -> dict:
    """A 2-D array of small non-negative integers as base64 bytes (row-major)."""
    a = np.asarray(a)
    top = int(a.max()) if a.size else 0
    dtype = "|u1" if top < 256 else "<u2" if top < 65536 else "<i4"
    data = np.ascontiguousarray(a, dtype=np.dtype(dtype)).tobytes()
    return {"dtype": dtype, "shape": [int(a.shape[0]), int(a.shape[1])],
            "data": base64.b64encode(data).decode("ascii")}


def _pack_floats(a: np.ndarray) -> dict:
    """A 1-D float array as base64 little-endian float64 bytes (exact)."""
    a = np.ascontiguousarray(a, dtype="<f8")
    return {"dtype": "<f8", "shape": [int(a.shape[0])],
            "data": base64.b64encode(a.tobytes()).decode("ascii")}


def _unpack_floats(field: Field, n: int) -> np.ndarray:
    """Inverse of :func:`_pack_floats`: ``n`` positive finite weights, checked."""
    field.object()
    field["dtype"].string(choices=("<f8",))
    (rows,) = (f.count() for f in field["shape"].items(1))
    if rows != n:
        raise field["shape"].damaged(f"must hold one weight per training row ({n}), not "
                                     f"{rows}")
    try:
        raw = base64.b64decode(field["data"].string().encode("ascii"), validate=True)
    except (ValueError, UnicodeError):
        raise field["data"].damaged("is not base64 text") from None
    if len(raw) != 8 * n:
        raise field["data"].damaged(f"must hold {n} values of 8 bytes, not {len(raw)} bytes")
    w = np.frombuffer(raw, dtype="<f8").astype(np.float64)
    if not (np.isfinite(w).all() and (w > 0).all()):
        raise field["data"].damaged("must hold positive finite weights")
    return w


def _unpack_ints(field: Field, n_cols: int) -> np.ndarray:
    """Inverse of :func:`_pack_ints`, checking dtype, shape and byte count."""
    field.object()
    dtype = field["dtype"].string(choices=("|u1", "<u2", "<i4"))
    rows, cols = (f.count() for f in field["shape"].items(2))
    if cols != n_cols:
        raise field["shape"].damaged(f"must have {n_cols} columns, not {cols}")
    dt = np.dtype(dtype)
    text = field["data"].string()
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeError):
        raise field["data"].damaged("is not base64 text") from None
    if len(raw) != rows * cols * dt.itemsize:
        raise field["data"].damaged(f"must hold {rows} x {cols} values of {dt.itemsize} "
                                    f"byte(s), not {len(raw)} bytes")
    return np.frombuffer(raw, dtype=dt).reshape(rows, cols).astype(np.int64)
