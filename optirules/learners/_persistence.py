"""``to_json`` and ``from_json`` of the learners, written once: :class:`JSONPersistenceMixin`.

A learner that saves itself takes the mixin among its bases and says what it writes:

``_json_format``
    The format tag, ``"optirules.<Class>"`` (``optirules predict`` dispatches on it).
``_json_version``, ``_json_versions``
    The layout ``to_json`` writes (default 1) and the layouts ``from_json`` reads
    (default ``None``: :data:`~optirules.learners._json.JSON_VERSIONS`).
``_fitted_attribute``
    The attribute a fitted learner has (``to_json`` refuses an unfitted one through the
    learner's ``_check_fitted``, by default ``check_fitted(self, _fitted_attribute)``).

and two hooks, ``_json_fields(self) -> dict`` (the learner's own fields, written after the
header of :func:`~optirules.learners._json.json_header`) and
``_load_json_fields(self, doc)`` (their checked reading, once the header is checked, the
estimator built from the saved parameters and the header restored).

A learner whose document differs overrides ``to_json`` or ``from_json`` and calls the
helpers: :meth:`~JSONPersistenceMixin._write_json` (check fitted, build the document
through :meth:`~JSONPersistenceMixin._json_document`, write it), and for reading
:meth:`~JSONPersistenceMixin._read_json_document` (the checked header) and
:meth:`~JSONPersistenceMixin._json_estimator` (the estimator of the saved parameters, its
header restored).
"""

from __future__ import annotations

import os
from typing import Any

from ._checks import FittedMixin
from ._json import (
    Field,
    _check_header,
    damaged_as_input_error,
    dump_json,
    json_header,
    load_json_header,
    read_document,
    restore_params,
)

__all__ = ["JSONPersistenceMixin"]


class JSONPersistenceMixin(FittedMixin):
    """``to_json`` and ``from_json`` from the learner's format, version and two hooks
    (module docstring)."""

    #: the format tag of the learner's JSON (``"optirules.<Class>"``)
    _json_format: str
    #: the layout ``to_json`` writes, and those ``from_json`` reads (None: the header's)
    _json_version: int = 1
    _json_versions: tuple[int, ...] | None = None
    #: whether a file may hold more than two classes (a search over a K-class learner)
    _json_multiclass: bool = False
    #: whether ``to_json`` writes NaN and infinities (as JSON's non-standard tokens)
    _json_allow_nan: bool = True
    # ------------------------------------------------------------------ the public methods
    def to_json(self, path: str | os.PathLike | None = None, *, indent: int | None = 2) -> str:
        """The fitted model as JSON text (and written to ``path`` if given); no pickle.

        The document starts with the header every learner's JSON shares (``format``,
        ``version``, the constructor ``params``, ``classes``, ``n_features_in``,
        ``feature_names_in``), then the learner's own fitted fields (the learner's
        ``_json_fields`` says which).  :meth:`from_json` rebuilds a fitted model with the
        same predictions.

        Parameters
        ----------
        path : str or path-like, optional
            Also write the text to this file (atomically).
        indent : int or None, default 2
            JSON indentation; ``None`` writes it on one line.

        Returns
        -------
        str
            The JSON text.
        """
        return self._write_json(path, indent)

    @classmethod
    def from_json(cls, source: str | os.PathLike) -> Any:
        """Rebuild a fitted model from :meth:`to_json` output (text or a file path).

        Only JSON is parsed (no pickle), and every field is checked; a damaged or foreign
        file raises one :class:`~optirules.errors.InputError` naming the field.

        Parameters
        ----------
        source : str or path-like
            The JSON text, or the path of a file holding it.

        Returns
        -------
        estimator
            The fitted model, an instance of the class it is called on.
        """
        doc = cls._read_json_document(source)
        with damaged_as_input_error(doc.name):
            est = cls._json_estimator(doc)
            est._load_json_fields(doc)
        return est

    # the hooks _json_fields (the learner's own fields, in the order written after the
    # header) and _load_json_fields (their checked reading from the whole document, on an
    # estimator whose header is restored, inside damaged_as_input_error) are each
    # learner's own: the module docstring

    # ------------------------------------------------------------------ writing helpers
    def _json_document(self, **kwargs: Any) -> dict[str, Any]:
        """The header, then ``_json_fields`` (``kwargs``: those of the learner's
        ``to_json``)."""
        return {**json_header(self, self._json_format, version=self._json_version),
                **self._json_fields(**kwargs)}

    def _write_json(self, path: str | os.PathLike | None, indent: int | None,
                    **kwargs: Any) -> str:
        """``to_json``'s body: refuse an unfitted model, then the JSON text of
        :meth:`_json_document`, also written to ``path`` when given."""
        self._check_fitted()
        return dump_json(self._json_document(**kwargs), path, indent,
                         allow_nan=self._json_allow_nan)

    # ------------------------------------------------------------------ reading helpers
    @classmethod
    def _read_json_document(cls, source: str | os.PathLike) -> Field:
        """The document of ``source`` (text or a file), its format and header checked
        (two classes; with ``_json_multiclass``, two or at least three)."""
        fmt = cls._json_format
        doc = read_document(source, fmt)
        classes = doc.value.get("classes")
        two = not cls._json_multiclass or (isinstance(classes, list) and len(classes) == 2)
        _check_header(doc.value, fmt, n_classes=2 if two else None,
                      versions=cls._json_versions)
        return doc

    @classmethod
    def _json_params(cls, doc: Field) -> dict[str, Any]:
        """The constructor parameters of the checked document ``doc``."""
        return restore_params(doc.value["params"])

    @classmethod
    def _json_estimator(cls, doc: Field) -> Any:
        """An estimator of the saved parameters, with the header (classes and columns)
        restored."""
        est = cls(**cls._json_params(doc))
        load_json_header(est, doc.value)
        return est
