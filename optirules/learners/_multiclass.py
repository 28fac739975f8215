"""K classes by one-vs-rest inside a two-class estimator (scikit-learn's conventions).

A binary learner takes :class:`OneVsRestMixin` among its bases and the class decorator
:func:`one_vs_rest` (which routes ``predict``, ``predict_proba``, ``decision_function``,
``explain``, ``to_text``, ``str``, ``to_json`` and ``from_json`` to the one-vs-rest versions
below once ``estimators_`` is fitted), and calls :meth:`OneVsRestMixin._fit_one_vs_rest` at
the start of ``fit``: with labels of more than two
classes it fits ``K`` copies of the estimator (``clone``, same parameters, so the same
``random_state``), copy ``k`` on the labels ``y == classes_[k]`` (coded 1, the rest 0) with
the same ``sample_weight``, and stores them in ``estimators_``; with two classes it does
nothing and the learner fits as before.  A learner with ``class_weight`` applies it to
``sample_weight`` on the ``K``-class labels before this call (so ``"balanced"`` balances
the ``K`` classes, as in scikit-learn), and the copies get ``class_weight=None``.

``time_limit`` (a learner that has one) bounds the whole one-vs-rest fit: the ``K`` copies
share one budget, copy ``k`` getting what is left of it (wall-clock, ``time.perf_counter``
as the binary learners) divided by the classes still to fit, ``class_time_limits_``.  The
fit's ``status_`` is ``"completed"``, or starts with ``"time_limit"`` and names the classes
whose copies the limit cut short (``cut_classes_``; ``class_status_`` holds each copy's
``status_``); a binary model's note on a completed fit (``"completed; ..."``) is appended
with its class.  ``gap_``, ``absolute_gap_`` and ``gap_certified_``, when the binary
models have them, are the largest gap over the classes (NaN when one is unknown) and
whether every class's gap is certified.  ``fit_time_`` is the whole fit's seconds.

Then, as scikit-learn's ``OneVsRestClassifier``:

* ``classes_`` holds the ``K`` labels (sorted);
* ``decision_function(X)`` is ``(n_samples, K)``: column ``k`` is copy ``k``'s
  ``decision_function``;
* ``predict(X)`` is the class of the largest column (a rule set ranks by its rules alone,
  its ``_ovr_rank``: the smoothed precision of the best rule that fires, which ``to_sql``
  computes; its probabilities also count the literals missed) (ties: the first class;
  ``OneVsRestClassifier`` gives ties to the last);
* ``predict_proba(X)`` is copy ``k``'s ``predict_proba(X)[:, 1]`` in column ``k``, each
  row divided by its sum so it sums to 1 (a row whose scores are all 0 gets ``1/K``
  everywhere, where ``OneVsRestClassifier`` gives NaN);
* ``explain(X)`` names the predicted class's rules that fired, and in ``fired`` every
  class whose rules fired (:mod:`optirules.learners._explain`);
* ``to_text()`` prints the ``K`` binary models, and ``to_json``/``from_json`` save and
  load them (key ``one_vs_rest``: the ``K`` binary models' JSON).
"""

from __future__ import annotations

import functools
import json
import os
import re
import time
from typing import Any

import numpy as np
from sklearn.base import clone

from ..errors import InputError
from ._checks import input_names, model_kind
from ._explain import DEFAULT_PREFIX, _is_default, explain_frame, label_text
from ._json import (
    Field,
    dump_json,
    json_header,
    json_scalar,
    load_json_header,
    parse_json,
    read_source,
)

__all__ = ["OneVsRestMixin", "one_vs_rest", "multiclass_labels", "check_label_shape"]

#: the smallest ``time_limit`` (seconds) a class's copy gets once the shared budget is spent:
#: the copy then does the least work its learner can (a learner's own floors apply)
MIN_SHARE = 1e-3


def multiclass_labels(y: Any) -> np.ndarray | None:
    """The sorted labels of ``y`` when it is a valid multiclass target of more than two
    classes, else ``None`` (the binary learner then checks and reports ``y`` itself)."""
    from sklearn.utils.multiclass import type_of_target

    if y is None:
        return None
    try:
        arr = np.asarray(y)
        if arr.ndim == 2 and arr.shape[1] == 1:
            arr = arr.ravel()
        if arr.ndim != 1 or type_of_target(arr) != "multiclass":
            return None
        classes = np.unique(arr)
    except (TypeError, ValueError):
        return None
    return classes if classes.size > 2 else None


def check_label_shape(y: Any) -> None:
    """Refuse, before any work, labels that are not one per row: a single value, a table
    of several columns (one-hot labels, say) or rows of different lengths, where
    scikit-learn's ``column_or_1d`` raises a bare ValueError; None, a 1-D array and a
    single column pass (the learner's own checks read them)."""
    if y is None:
        return
    try:
        shape = tuple(getattr(y, "shape", None) or np.asarray(y).shape)
    except ValueError:  # rows of different lengths
        raise InputError("y could not be read as one label per row (its entries have "
                         "different lengths); pass a 1-D array of class labels.") from None
    if len(shape) == 1 or (len(shape) == 2 and shape[1] == 1):
        return
    if len(shape) == 0:
        raise InputError(f"y is a single value ({str(y)[:40]!r}); pass one class label per "
                         "row of X, a 1-D array.")
    raise InputError(f"y has shape {shape}, but a classifier takes one label per row, a "
                     "1-D array (or one column). For one-hot or indicator columns pass "
                     "the label of each row (y.argmax(axis=1)); for several targets fit one "
                     "model per column.")


class OneVsRestMixin:
    """One-vs-rest over ``K > 2`` classes inside the estimator (module docstring)."""

    # ------------------------------------------------------------------ fitting
    def _fit_one_vs_rest(self, X: Any, y: Any, sample_weight: Any = None) -> bool:
        """Fit ``estimators_`` when ``y`` has more than two classes and return True; else
        forget any previous one-vs-rest fit and return False."""
        classes = multiclass_labels(y)
        if classes is None:
            self.__dict__.pop("estimators_", None)
            return False
        from sklearn.utils.validation import column_or_1d, validate_data

        y = column_or_1d(y, warn=True)
        try:
            validate_data(self, X, reset=True, skip_check_array=True)
        except ValueError as exc:
            if isinstance(exc, InputError):
                raise
            raise InputError(str(exc)) from None
        kw = {} if sample_weight is None else {"sample_weight": sample_weight}
        estimators = []
        limit = getattr(self, "time_limit", None)
        t0 = time.perf_counter()
        deadline = None if limit is None else t0 + float(limit)
        shares: list[float | None] = []
        for k, c in enumerate(classes):
            est = clone(self)
            if "class_weight" in est.get_params(deep=False):
                # the caller applied class_weight on the K-class labels (sample_weight)
                est.set_params(class_weight=None)
            share = None
            if deadline is not None:  # what is left of the one budget, over the classes left
                left = deadline - time.perf_counter()
                share = max(left / (len(classes) - k), MIN_SHARE)
                est.set_params(time_limit=share)
            shares.append(share)
            est.fit(X, (y == c).astype(np.int64), **kw)
            estimators.append(est)
        self.classes_ = classes
        self.estimators_ = estimators
        self.class_time_limits_ = shares
        self.fit_time_ = time.perf_counter() - t0
        self._set_ovr_status()
        return True

    def _set_ovr_status(self) -> None:
        """``status_``, ``class_status_``, ``cut_classes_`` and the largest of the classes'
        gaps (``gap_``, ``absolute_gap_``, ``gap_certified_`` when the binary models have
        them) of a one-vs-rest fit."""
        self.class_status_ = [str(getattr(e, "status_", "")) for e in self.estimators_]
        # the shared limit, not combination_time_limit, pricing_time_limit ... of a copy
        cut = [c for c, st in zip(self.classes_, self.class_status_)
               if re.search(r"(?<!\w)time_limit(?!\w)", st)]
        self.cut_classes_ = [json_scalar(c) for c in cut]
        K = len(self.classes_)
        if cut:
            self.status_ = (
                f"time_limit: the shared time_limit={self.time_limit} s (wall-clock: the "
                f"result depends on the machine's speed) cut short the models of "
                f"{len(cut)} of {K} classes: {', '.join(label_text(c) for c in cut)}; each "
                "returned its best model so far")
        else:
            self.status_ = "completed"
        # the binary models' own notes on a completed fit (a combination IP's node bound)
        notes = [f"class {label_text(c)}: {st}" for c, st in zip(self.classes_,
                                                                   self.class_status_)
                 if st.startswith("completed;")]
        if notes:
            self.status_ += "; " + "; ".join(notes)
        summaries = {getattr(e, "input_summary_", None) for e in self.estimators_}
        if len(summaries) == 1 and None not in summaries:  # what every class's fit did with X
            self.input_summary_ = summaries.pop()
        else:
            self.__dict__.pop("input_summary_", None)
        if all("gap_" in vars(e) for e in self.estimators_):
            gaps = np.array([float(e.gap_) for e in self.estimators_])
            self.gap_ = float(np.nan if np.isnan(gaps).any() else gaps.max())
            if all("absolute_gap_" in vars(e) for e in self.estimators_):
                ab = np.array([float(e.absolute_gap_) for e in self.estimators_])
                self.absolute_gap_ = float(np.nan if np.isnan(ab).any() else ab.max())
            if all("gap_certified_" in vars(e) for e in self.estimators_):
                self.gap_certified_ = all(bool(e.gap_certified_) for e in self.estimators_)

    def _is_one_vs_rest(self) -> bool:
        return "estimators_" in self.__dict__ and len(getattr(self, "classes_", ())) > 2

    def _refuse_one_vs_rest(self, method: str) -> None:
        """Methods that work on one binary model (``decision_rules``, ``export_model``)
        refuse a K-class fit and say where the K models are."""
        if self._is_one_vs_rest():
            raise InputError(
                f"{method} works on one binary model, and this {type(self).__name__} has "
                f"{len(self.classes_)} classes: estimators_[k] is the model of classes_[k] "
                f"against the rest. Call estimators_[k].{method}(...) for the class you want.")

    # ------------------------------------------------------------------ prediction
    def _ovr_decision_function(self, X: Any) -> np.ndarray:
        """``(n_samples, K)``: column ``k`` the score of ``classes_[k]`` against the rest."""
        return np.column_stack([e.decision_function(X) for e in self.estimators_])

    def _ovr_predict(self, X: Any) -> np.ndarray:
        # a binary model may rank its class for predict otherwise than by its
        # decision_function (the rule set: by its rules alone, which to_sql computes)
        rank = [getattr(e, "_ovr_rank", e.decision_function)(X) for e in self.estimators_]
        return self.classes_[np.argmax(np.column_stack(rank), axis=1)]

    def _ovr_predict_proba(self, X: Any) -> np.ndarray:
        P = np.column_stack([e.predict_proba(X)[:, 1] for e in self.estimators_])
        total = P.sum(axis=1, keepdims=True)
        K = P.shape[1]
        return np.where(total > 0, P / np.where(total > 0, total, 1.0), 1.0 / K)

    # ------------------------------------------------------------------ reading
    def _ovr_explain(self, X: Any):
        pred = self._ovr_predict(X)
        proba = self._ovr_predict_proba(X)
        support = [e._decision_support(X)[1] for e in self.estimators_]
        k = np.searchsorted(self.classes_, pred)
        n = len(pred)
        rules, fired, text = [], [], []
        for i in range(n):
            own = support[k[i]][i]
            f = {json_scalar(c): list(support[j][i]) for j, c in enumerate(self.classes_)
                 if support[j][i] and not _is_default(support[j][i])}
            if not own or _is_default(own):
                own = [f"{DEFAULT_PREFIX}nothing spoke for class {label_text(pred[i])}; its "
                       "score against the rest is still the highest"]
            others = [label_text(c) for c in f if c != json_scalar(pred[i])]
            line = f"{label_text(pred[i])}: {'; '.join(own)}"
            if others:
                line += f" (also for {', '.join(others)})"
            rules.append(own)
            fired.append(f)
            text.append(line)
        return explain_frame(pred, proba[np.arange(n), k], rules, fired, text)

    def _ovr_to_text(self) -> str:
        K = len(self.classes_)
        lines = [f"one-vs-rest over {K} classes: predict the class whose model scores "
                 "highest"]
        shared = getattr(self, "input_summary_", None)  # said once, at the end
        for c, e in zip(self.classes_, self.estimators_):
            lines.append(f"class {label_text(c)} (1) vs the rest (0):")
            lines.extend("  " + line for line in e.to_text().splitlines()
                         if shared is None or line != shared)
        return "\n".join(lines + ([shared] if shared else []))

    # ------------------------------------------------------------------ JSON
    def _ovr_to_json(self, path: str | os.PathLike | None = None, *,
                     indent: int | None = 2, **kwargs: Any) -> str:
        data = {
            **json_header(self, self._json_format),  # version 1, whatever the binary's
            "one_vs_rest": [json.loads(e.to_json(indent=None, **kwargs))
                            for e in self.estimators_],
        }
        return dump_json(data, path, indent)


def _ovr_from_json(cls: type, data: dict[str, Any], binary: Any) -> Any:
    """Rebuild a one-vs-rest model from its JSON ``data``; ``binary(cls, text)`` loads one
    binary model.  Every part is checked: the header (``K >= 3`` distinct classes), one
    binary model per class, each loaded by the binary reader, with the model's columns."""
    from ._json import _check_header, damaged_as_input_error, restore_params

    name = cls.__name__
    fmt = f"optirules.{name}"
    if data.get("format") != fmt:
        raise InputError(f"this JSON was not written by {name}.to_json(); "
                         "re-export the model.")
    _check_header(data, fmt, n_classes=None)
    doc = Field(name, data)
    subs = doc["one_vs_rest"].items(len(data["classes"]))
    with damaged_as_input_error(name):
        est = cls(**restore_params(data["params"]))
        load_json_header(est, data)
        est._restored = True
    estimators = []
    for k, sub in enumerate(subs):
        sub.object()
        try:
            e = binary(cls, json.dumps(sub.value))
        except InputError as exc:
            raise InputError(f"in {sub.path} (the model of class "
                             f"{label_text(est.classes_[k])} against the rest): {exc}") \
                from None
        if e.n_features_in_ != est.n_features_in_ or input_names(e) != input_names(est):
            raise sub.damaged("must read the columns of the whole model "
                              "('n_features_in', 'feature_names_in')")
        scores = {"rule_set": "rule_support_", "dro": "vote_level_scores_"}.get(model_kind(e))
        if scores is not None and scores not in vars(e):
            # one-vs-rest predicts by the classes' scores: a part without them is no model
            raise sub["scores"].damaged("is missing (one-vs-rest predicts by every class's "
                                        "scores)")
        estimators.append(e)
    est.estimators_ = estimators
    est._set_ovr_status()  # status_, class_status_, gap_ ... from the classes' models
    return est


#: the methods :func:`one_vs_rest` routes to the ``_ovr_`` versions of :class:`OneVsRestMixin`
ROUTED = ("decision_function", "predict", "predict_proba", "explain", "to_text", "to_json")


def one_vs_rest(cls: type) -> type:
    """Class decorator: route the methods of :data:`ROUTED`, ``__str__`` and ``from_json`` of
    ``cls`` (a subclass of :class:`OneVsRestMixin`; each its own or inherited, e.g. from
    the JSON and text mixins) to their one-vs-rest versions when the instance holds a
    one-vs-rest fit, and tag ``cls`` multiclass."""

    def route(binary: Any, multi: Any) -> Any:
        @functools.wraps(binary)
        def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            if self._is_one_vs_rest():
                return multi(self, *args, **kwargs)
            return binary(self, *args, **kwargs)
        return method

    for name in ROUTED:
        binary = getattr(cls, name, None)
        if binary is not None:
            setattr(cls, name, route(binary, getattr(OneVsRestMixin, f"_ovr_{name}")))
    cls.__str__ = route(cls.__str__, OneVsRestMixin._ovr_to_text)
    tags = cls.__sklearn_tags__

    @functools.wraps(tags)
    def __sklearn_tags__(self: Any) -> Any:
        out = tags(self)
        out.classifier_tags.multi_class = True
        return out

    cls.__sklearn_tags__ = __sklearn_tags__
    load = getattr(cls, "from_json", None)  # the class's own or inherited (JSON mixin)
    if load is not None:
        binary_load = load.__func__

        @functools.wraps(binary_load)
        def from_json(klass: type, source: str | os.PathLike) -> Any:
            text = read_source(source, "to_json")
            data = parse_json(text, "to_json")
            if isinstance(data, dict) and "one_vs_rest" in data:
                return _ovr_from_json(klass, data, binary_load)
            return binary_load(klass, text)

        cls.from_json = classmethod(from_json)
    return cls
