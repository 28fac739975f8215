"""The JSON form of a fitted decision list (rules, features and the training rows
Minimum OSR needs), written and checked without pickle."""

from __future__ import annotations

import base64
import json
import math
from typing import Any

import numpy as np

from ..errors import InputError
from ._decision_list_encoding import _Feature
from ._decision_list_rules import DecisionRule

__all__ = ["TRAINING_ROWS", "decision_list_to_doc", "decision_list_from_text"]

_JSON_FORMAT = "optirules.DecisionListClassifier"
_JSON_VERSION = 3
_JSON_READS = (1, 2, 3)
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
    training: dict[str, Any] = {"rows": rows}
    if rows != "none":
        idx = est.uncovered_rows_ if rows == "uncovered" and held == "all" else None
        codes = est.train_codes_ if idx is None else est.train_codes_[idx]
        y = est.train_y_ if idx is None else est.train_y_[idx]
        training["codes"] = _pack_ints(codes)
        training["y"] = _pack_ints(y[:, None])
        if rows == "all":
            training["uncovered_rows"] = est.uncovered_rows_.tolist()
    return {
        "format": _JSON_FORMAT,
        "version": _JSON_VERSION,
        "params": params,
        "classes": est.classes_.tolist(),
        "classes_dtype": est.classes_.dtype.str if est.classes_.dtype != object
        else "object",
        "n_features_in": int(est.n_features_in_),
        "feature_names_in": (est.feature_names_in_.tolist()
                             if hasattr(est, "feature_names_in_") else None),
        "features": [f.to_dict() for f in est.features_],
        "rules": [{"conditions": [[c.feature, c.value] for c in r.conditions],
                   "prediction": int(np.flatnonzero(est.classes_ == r.prediction)[0]),
                   "class_counts": list(r.class_counts)} for r in est.rules_],
        "default_counts": est.default_counts_.tolist(),
        "stop_reason": est.stop_reason_,
        "min_coverage_used": int(est.min_coverage_),
        "training": training,
    }


def decision_list_from_text(cls: Any, text: str) -> Any:
    """A ``cls`` instance (the decision-list estimator) rebuilt from JSON text, every part
    checked; anything else raises :class:`~optirules.errors.InputError`."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON ({exc}); pass the text written by to_json().") \
            from exc
    except RecursionError:
        raise InputError("the JSON is nested too deeply to be a decision list written by "
                         "to_json(); re-export the model.") from None
    if not isinstance(doc, dict) or doc.get("format") != _JSON_FORMAT:
        raise InputError("this JSON was not written by DecisionListClassifier.to_json(); "
                         "re-export the model with to_json().")
    if doc.get("version") not in _JSON_READS:
        raise InputError(f"unsupported decision-list JSON version {doc.get('version')!r}; "
                         f"this optirules reads versions {_JSON_READS}.")
    try:
        return _from_doc(cls, doc)
    except InputError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise InputError(f"malformed decision-list JSON ({type(exc).__name__}: {exc}); "
                         "re-export the model with to_json().") from None


def _from_doc(cls: Any, doc: dict) -> Any:
    def bad(what: str) -> InputError:
        return InputError(f"malformed decision-list JSON: {what}; re-export the model "
                          "with to_json().")

    params = doc["params"]
    if doc["version"] < 3 and isinstance(params, dict) and "max_depth" in params:
        # versions 1 and 2 named the number of tests per rule max_depth
        params = {("max_degree" if k == "max_depth" else k): v for k, v in params.items()}
    if not isinstance(params, dict) or not set(params) <= set(cls().get_params()):
        raise bad(f"unknown parameters {sorted(set(params) - set(cls().get_params()))}"
                  if isinstance(params, dict) else "'params' is not an object")
    est = cls(**params)
    est._check_params()
    dtype = doc["classes_dtype"]
    if dtype == "object":
        est.classes_ = np.array(doc["classes"], dtype=object)
    else:
        dt = np.dtype(str(dtype))
        if dt.kind not in "biufU":
            raise bad(f"class dtype {dtype!r}")
        est.classes_ = np.array(doc["classes"], dtype=dt)
    if est.classes_.ndim != 1 or est.classes_.size < 2 \
            or np.unique(est.classes_).size != est.classes_.size:
        raise bad("'classes' must list at least two distinct labels")
    k = est.classes_.size
    est.features_ = [_Feature.from_dict(d) for d in doc["features"]]
    for f in est.features_:
        _check_feature(f, bad)
    p = len(est.features_)
    est.n_features_in_ = int(doc["n_features_in"])
    if est.n_features_in_ != p or p == 0:
        raise bad(f"n_features_in {est.n_features_in_} for {p} features")
    names = doc.get("feature_names_in")
    if names is not None:
        if not isinstance(names, list) or len(names) != p:
            raise bad("'feature_names_in' does not match the features")
        est.feature_names_in_ = np.array([str(v) for v in names], dtype=object)
    n_values = [len(f.categories) for f in est.features_]

    def counts_of(v: Any, what: str) -> tuple[int, ...]:
        if not isinstance(v, list) or len(v) != k or not all(_is_count(c) for c in v):
            raise bad(f"{what} must be {k} non-negative integers")
        return tuple(int(c) for c in v)

    rules = []
    for r in doc["rules"]:
        pairs = r["conditions"]
        if not isinstance(pairs, list) or not pairs:
            raise bad("a rule without conditions")
        for pair in pairs:
            if (not isinstance(pair, list) or len(pair) != 2
                    or not all(_is_count(v) for v in pair)
                    or pair[0] >= p or pair[1] >= n_values[pair[0]]):
                raise bad(f"rule test {pair!r} names no attribute value")
        if len({j for j, _ in pairs}) != len(pairs):
            raise bad("a rule tests one attribute twice")
        pred = r["prediction"]
        if not _is_count(pred) or pred >= k:
            raise bad(f"rule prediction {pred!r}")
        conds = tuple(est._condition(int(j), int(v)) for j, v in pairs)
        rules.append(DecisionRule(conds, est.classes_[int(pred)],
                          counts_of(r["class_counts"], "a rule's class counts")))
    est.rules_ = rules
    est.default_counts_ = np.asarray(counts_of(doc["default_counts"], "default_counts"),
                                     dtype=np.int64)
    est.default_class_ = est.classes_[int(np.argmax(est.default_counts_))]
    est.stop_reason_ = str(doc.get("stop_reason", ""))
    # the integer min_coverage the fit used (files written before min_coverage="auto"
    # existed hold only the parameter, then an integer)
    used = doc.get("min_coverage_used", params.get("min_coverage", 2))
    if not _is_count(used) or used < 1 or (est.min_coverage != "auto"
                                           and used != est.min_coverage):
        raise bad(f"min_coverage_used {used!r} for min_coverage {est.min_coverage!r}")
    est.min_coverage_ = int(used)
    est.history_ = []
    est.n_candidates_ = 0
    training = doc["training"]
    if doc["version"] == 1:
        codes = np.asarray(training["codes"], dtype=np.int64).reshape(p, -1).T
        y = np.asarray(training["y"], dtype=np.int64)
        rows = "all"
    else:
        rows = training["rows"]
        if rows not in ("all", "uncovered", "none"):
            raise bad(f"training rows {rows!r}")
        if rows == "none":
            codes, y = np.zeros((0, p), dtype=np.int64), np.zeros(0, dtype=np.int64)
        else:
            codes = _unpack_ints(training["codes"], p, bad)
            y = _unpack_ints(training["y"], 1, bad)[:, 0]
    if y.shape != (codes.shape[0],) or (y.size and not 0 <= y.min() <= y.max() < k):
        raise bad("the training labels do not match the rows or the classes")
    if codes.size and ((codes < 0).any() or (codes >= np.asarray(n_values)).any()):
        raise bad("a training value code is out of its attribute's range")
    m = codes.shape[0]
    if rows == "all":
        unc = np.asarray(training["uncovered_rows"], dtype=np.int64).reshape(-1)
        if unc.size and (unc.min() < 0 or unc.max() >= m or np.unique(unc).size != unc.size):
            raise bad("'uncovered_rows' are not distinct row indices")
    elif rows == "uncovered":
        unc = np.arange(m, dtype=np.int64)
    else:
        unc = np.zeros(0, dtype=np.int64)
    est.train_codes_ = np.ascontiguousarray(codes, dtype=np.int32)
    est.train_y_ = y
    est.uncovered_rows_ = unc
    est.training_rows_ = rows
    return est


def _is_count(v: Any) -> bool:
    """A non-negative JSON integer (not a boolean)."""
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _check_feature(f: _Feature, bad) -> None:
    if f.kind not in ("categorical", "numeric") or not f.categories:
        raise bad(f"feature {f.name!r} of kind {f.kind!r} with {len(f.categories)} values")
    if f.kind == "numeric":
        cuts = f.cuts if f.cuts is not None else []
        if (len(cuts) + 1 != len(f.categories) or not all(math.isfinite(c) for c in cuts)
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


def _unpack_ints(obj: Any, n_cols: int, bad) -> np.ndarray:
    """Inverse of :func:`_pack_ints`, checking dtype, shape and byte count."""
    if not isinstance(obj, dict) or obj.get("dtype") not in ("|u1", "<u2", "<i4"):
        raise bad("packed training rows need a dtype '|u1', '<u2' or '<i4'")
    shape = obj.get("shape")
    if (not isinstance(shape, list) or len(shape) != 2 or not all(_is_count(v) for v in shape)
            or shape[1] != n_cols):
        raise bad(f"packed training rows of shape {shape!r} for {n_cols} columns")
    dt = np.dtype(obj["dtype"])
    raw = base64.b64decode(str(obj.get("data", "")).encode("ascii"), validate=True)
    if len(raw) != shape[0] * shape[1] * dt.itemsize:
        raise bad("packed training rows hold the wrong number of bytes")
    return np.frombuffer(raw, dtype=dt).reshape(shape).astype(np.int64)
