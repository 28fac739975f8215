"""The common protocol of the weak learners used by boosting.

A *weak learner* is a small scikit-learn style object (its constructor arguments are its
parameters, so :func:`sklearn.base.clone` and ``get_params`` work) whose
``fit(X, y, sample_weight)`` returns a *hypothesis*: an immutable object with

* ``predict(X) -> ndarray`` of ``-1``/``+1`` (``int8``),
* a readable ``__str__`` (and ``describe(feature_names)``),
* a JSON-able ``to_dict()`` that :func:`hypothesis_from_dict` reads back.

Every learner maximizes the weighted *edge* (Reyzin's paper, Algorithm 1; Long and Servedio §2)

.. math::

    \\gamma(h) = \\sum_i D(i)\\, y_i\\, h(x_i),

over its hypothesis class, which is the same as minimizing the weighted training error
:math:`\\epsilon(h) = (1 - \\gamma(h))/2` of a :math:`\\pm 1` hypothesis.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from sklearn.base import BaseEstimator

from ..errors import InputError

__all__ = [
    "WeakHypothesis",
    "OneColumnHypothesis",
    "WeakLearner",
    "Constant",
    "hypothesis_from_dict",
    "HYPOTHESIS_TYPES",
    "check_binary_matrix",
    "check_weak_fit_input",
    "PreparedData",
    "feature_label",
    "first_max",
]

#: scores closer than this to the best one count as ties (weights are normalized to sum 1)
TIE_TOL = 1e-12


def first_max(scores: np.ndarray, tol: float = TIE_TOL) -> int:
    """Index of the first entry of ``scores`` (flattened, C order) within ``tol`` of the max.

    Makes tie-breaking immune to rounding noise: e.g. fitting with integer sample weights
    and fitting on repeated rows pick the same hypothesis.
    """
    flat = np.ravel(scores)
    best = flat.max()
    return int(np.argmax(flat >= best - tol))


def feature_label(j: int, feature_names: Sequence[str] | None) -> str:
    """The display name of feature ``j``: its name when known, else ``x[j]``."""
    if feature_names is not None and 0 <= j < len(feature_names):
        return str(feature_names[j])
    return f"x[{j}]"


#: every hypothesis type by its JSON ``"type"`` key, filled by ``WeakHypothesis.__init_subclass__``
HYPOTHESIS_TYPES: dict[str, type[WeakHypothesis]] = {}


class WeakHypothesis(ABC):
    """A +-1 valued function of the features, returned by a weak learner."""

    #: the ``"type"`` key of :meth:`~optirules.weak.WeakHypothesis.to_dict`; a subclass that sets it is registered for
    #: :func:`hypothesis_from_dict`
    kind: ClassVar[str] = ""
    feature_names: tuple[str, ...] | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kind = cls.__dict__.get("kind")
        if kind:
            other = HYPOTHESIS_TYPES.get(kind)
            if other is not None and other.__qualname__ != cls.__qualname__:
                raise TypeError(f"hypothesis type {kind!r} is taken by {other.__qualname__}.")
            HYPOTHESIS_TYPES[kind] = cls

    @abstractmethod
    def predict(self, X: Any) -> np.ndarray:
        """Return ``h(x_i)`` in ``{-1, +1}`` (dtype ``int8``) for every row of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The feature matrix.

        Returns
        -------
        ndarray of int8, shape (n_samples,)
            The hypothesis' value on each row.
        """

    @abstractmethod
    def describe(self, feature_names: Sequence[str] | None = None) -> str:
        """A one-line readable form, with ``feature_names`` when given.

        Parameters
        ----------
        feature_names : sequence of str, optional
            Names of the columns; ``None`` uses the hypothesis' own, else ``x[j]``.

        Returns
        -------
        str
            The hypothesis as one line of text.
        """

    @abstractmethod
    def _payload(self) -> dict[str, Any]:
        """The fields of :meth:`to_dict` besides ``type`` and ``feature_names``."""

    def columns(self) -> np.ndarray:
        """The column indices of ``X`` that :meth:`predict` reads (none for a constant).

        Returns
        -------
        ndarray of int64
            The column indices, sorted.
        """
        return np.empty(0, dtype=np.int64)

    def _keep_names(self, feature_names: Sequence[str] | None) -> None:
        """Store ``feature_names`` (used by ``__str__``) as a tuple, or None."""
        self.feature_names = None if feature_names is None else tuple(feature_names)

    def check_columns(self, n_columns: int) -> None:
        """Raise :class:`~optirules.errors.InputError` unless every column this hypothesis
        reads is one of ``0 .. n_columns - 1`` (used when a saved model is loaded).

        Parameters
        ----------
        n_columns : int
            Number of columns of the data the hypothesis will be applied to.
        """
        cols = np.asarray(self.columns())
        bad = cols[(cols < 0) | (cols >= n_columns)]
        if bad.size:
            raise InputError(f"a {self.kind} hypothesis reads column {int(bad[0])}, but the "
                             f"model has columns 0 to {n_columns - 1}.")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict; :func:`hypothesis_from_dict` turns it back into a hypothesis.

        Returns
        -------
        dict
            The ``"type"`` key (``kind``), the hypothesis' fields and ``feature_names``.
        """
        out: dict[str, Any] = {"type": self.kind}
        out.update(self._payload())
        out["feature_names"] = None if self.feature_names is None else list(self.feature_names)
        return out

    def __str__(self) -> str:
        return self.describe(self.feature_names)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.describe(self.feature_names)}>"

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._payload() == other._payload()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.kind, repr(sorted(self._payload().items()))))


class Constant(WeakHypothesis):
    """The constant hypothesis ``h(x) = sign`` (the literals ``+1`` and ``-1`` of Long and Servedio).

    Parameters
    ----------
    sign : {-1, 1}
        The value predicted on every row.
    feature_names : sequence of str, optional
        Names of the columns, used by :meth:`describe` (``x[j]`` without them).
    """

    kind = "constant"

    def __init__(self, sign: int, feature_names: Sequence[str] | None = None):
        if sign not in (-1, 1):
            raise InputError(f"Constant sign must be -1 or +1, got {sign!r}.")
        self.sign = int(sign)
        self._keep_names(feature_names)

    def predict(self, X: Any) -> np.ndarray:
        n = np.shape(X)[0]
        return np.full(n, self.sign, dtype=np.int8)

    def describe(self, feature_names: Sequence[str] | None = None) -> str:
        return "+1" if self.sign > 0 else "-1"

    def _payload(self) -> dict[str, Any]:
        return {"sign": self.sign}


class OneColumnHypothesis(WeakHypothesis):
    """A hypothesis that reads one column of ``X``, :attr:`feature` (a literal, a stump)."""

    feature: int

    def columns(self) -> np.ndarray:
        return np.array([self.feature])


class WeakLearner(BaseEstimator, ABC):
    """Base class of the weak learners: ``fit(X, y, sample_weight) -> WeakHypothesis``.

    Subclasses set :attr:`requires_binary` when their hypothesis class is defined on 0/1
    features only (literals, parities).
    """

    #: True when ``X`` must be a 0/1 matrix
    requires_binary: ClassVar[bool] = False

    @abstractmethod
    def fit(self, X: Any, y: Any, sample_weight: Any = None, *,
            feature_names: Sequence[str] | None = None) -> WeakHypothesis:
        """Return the hypothesis of largest weighted edge ``sum_i w_i y_i h(x_i)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), values in {-1, +1}
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights (normalized internally); uniform when omitted.
        feature_names : sequence of str, optional
            Names used by the hypothesis' ``__str__``.
        """


def check_binary_matrix(X: np.ndarray, who: str) -> np.ndarray:
    """Return ``X`` as a ``uint8`` 0/1 matrix, or raise :class:`~optirules.errors.InputError` if it is not binary.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The matrix to check.
    who : str
        Who asks (the error message starts with it).

    Returns
    -------
    ndarray of uint8
        ``X`` with entries 0 and 1.
    """
    if X.dtype == bool:
        return X.astype(np.uint8)
    if X.size and not np.all((X == 0) | (X == 1)):
        bad = np.unique(X[(X != 0) & (X != 1)])[:5]
        raise InputError(
            f"{who} needs binary features (0/1), but X holds other values such as "
            f"{bad.tolist()}. Binarize the data first (optirules.data.FeatureBinarizer, or "
            "BoostingClassifier(binarizer='auto')), or use the 'stump' or 'cart' weak learner."
        )
    return X.astype(np.uint8, copy=False)


class PreparedData:
    """A validated feature matrix plus the per-matrix work every round of boosting reuses.

    Boosting calls its weak learner on the same ``X`` in every round with new weights;
    build this once (``PreparedData(X)``) and pass it as the ``X`` of ``fit`` to skip the
    validation and share the column sort (numeric stumps), the 0/1 form (literals,
    parities) and the +-1 single-precision transpose (the degree-3 parity search).
    Plain arrays are accepted by every ``fit`` too; they are prepared on the fly.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        A numeric, finite, non-empty feature matrix.
    who : str, default "weak learner"
        Who asks (the error messages start with it).
    """

    def __init__(self, X: Any, who: str = "weak learner"):
        X = np.asarray(X)
        if X.ndim != 2:
            raise InputError(f"{who}: X must be 2-dimensional, got shape {X.shape}.")
        if X.dtype.kind not in "biuf":
            raise InputError(f"{who}: X must be numeric, got dtype {X.dtype}. Encode it first.")
        if X.dtype.kind == "f" and not np.all(np.isfinite(X)):
            raise InputError(f"{who}: X contains NaN or infinity. Impute or drop those values.")
        if X.shape[0] == 0:
            raise InputError(f"{who}: X has no rows.")
        self.raw = X
        self.shape = X.shape
        self._cache: dict[str, Any] = {}

    def _get(self, key: str, make: Any) -> Any:
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    @property
    def float64(self) -> np.ndarray:
        """``X`` as float64."""
        return self._get("f64", lambda: self.raw.astype(np.float64, copy=False))

    @property
    def is_binary(self) -> bool:
        """Whether every entry is 0 or 1."""
        return self._get("bin", lambda: bool(self.raw.dtype == bool or not self.raw.size or
                                             np.all((self.raw == 0) | (self.raw == 1))))

    def binary(self, who: str) -> np.ndarray:
        """``X`` as a uint8 0/1 matrix; :class:`~optirules.errors.InputError` if it is not binary.

        Parameters
        ----------
        who : str
            Who asks (the error message starts with it).

        Returns
        -------
        ndarray of uint8
            ``X`` with entries 0 and 1 (cached).
        """
        if not self.is_binary:
            check_binary_matrix(self.raw, who)          # raises with the offending values
        return self._get("u8", lambda: self.raw.astype(np.uint8, copy=False))

    @property
    def binary_float64(self) -> np.ndarray:
        """The 0/1 matrix as float64 (fast matrix-vector products)."""
        return self._get("b64", lambda: self.binary("weak learner").astype(np.float64))

    @property
    def sort_order(self) -> np.ndarray:
        """``argsort`` of every column (stable)."""
        return self._get("order", lambda: np.argsort(self.float64, axis=0, kind="stable"))

    def pm1_transposed(self, dtype: str) -> np.ndarray:
        """``S^T`` with ``S = 1 - 2X`` (+-1 features), C-contiguous, in ``dtype``.

        Parameters
        ----------
        dtype : str
            A numpy float dtype name, e.g. ``"float32"``.

        Returns
        -------
        ndarray of shape (n_features, n_samples)
            The +-1 matrix, transposed (cached per dtype).
        """
        return self._get(f"St_{dtype}", lambda: np.ascontiguousarray(
            (1.0 - 2.0 * self.binary_float64).T, dtype=dtype))


def check_weak_fit_input(X: Any, y: Any, sample_weight: Any,
                         who: str) -> tuple[PreparedData, np.ndarray, np.ndarray]:
    """Validate the arguments of a weak learner's ``fit``.

    Returns ``(data, y, w)``: ``X`` as :class:`PreparedData`, ``y`` int8 in {-1, +1} and
    ``w`` float64 non-negative summing to one.
    """
    data = X if isinstance(X, PreparedData) else PreparedData(X, who)
    m = data.shape[0]
    y = np.asarray(y)
    if y.shape != (m,):
        raise InputError(f"{who}: y must have shape ({m},), got {y.shape}.")
    if not np.all((y == 1) | (y == -1)):
        raise InputError(f"{who}: y must hold -1/+1 labels; map the two classes first.")
    y = y.astype(np.int8, copy=False)
    if sample_weight is None:
        w = np.full(m, 1.0 / m)
    else:
        w = np.asarray(sample_weight, dtype=np.float64)
        if w.shape != (m,):
            raise InputError(f"{who}: sample_weight must have shape ({m},), got {w.shape}.")
        if not np.all(np.isfinite(w)) or np.any(w < 0):
            raise InputError(f"{who}: sample_weight must be finite and non-negative.")
        total = w.sum()
        if total <= 0:
            raise InputError(f"{who}: sample_weight sums to zero; give some row a weight.")
        w = w / total
    return data, y, w


def hypothesis_from_dict(d: dict[str, Any]) -> WeakHypothesis:
    """Rebuild a hypothesis from its :meth:`WeakHypothesis.to_dict` form.

    The ``"type"`` key picks the class among the registered hypothesis types (every
    subclass of :class:`WeakHypothesis` with a ``kind`` registers itself); an unknown type
    raises :class:`~optirules.errors.InputError`.

    Parameters
    ----------
    d : dict
        What :meth:`WeakHypothesis.to_dict` returned (e.g. read back from JSON).

    Returns
    -------
    WeakHypothesis
        The hypothesis it describes.
    """
    if not isinstance(d, dict):
        raise InputError(f"a hypothesis is a dict with a 'type' key, got {type(d).__name__}.")
    kind = d.get("type")
    cls = HYPOTHESIS_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InputError(
            f"Unknown hypothesis type {kind!r}; expected one of {sorted(HYPOTHESIS_TYPES)}."
        )
    fields = {k: v for k, v in d.items() if k != "type"}
    try:
        return cls(**fields)
    except TypeError as exc:
        raise InputError(f"a {kind!r} hypothesis has fields {sorted(fields)}, which its "
                         f"class does not take ({exc}).") from None
