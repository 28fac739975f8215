"""Benchmark datasets shipped inside the package, and their loader.

Every file in ``optirules/data/datasets/`` is a UCI-style binary classification table:
comma-separated, one header row, original feature names, the target last as ``label``
with values 0/1, categorical values as the original strings or codes, missing values as
empty fields.  Files larger than 50 KB are stored gzip-compressed (``.csv.gz``, the
bytes of the CSV unchanged).  ``PROVENANCE.md`` next to the files gives source, licence
and notes for each; the table below is that information in code form.
"""

from __future__ import annotations

import difflib
import functools
import gzip
import hashlib
import io
from dataclasses import dataclass
from importlib import resources

import numpy as np
import pandas as pd

from ..errors import InputError

__all__ = ["load_dataset", "list_datasets", "dataset_info", "verify_dataset", "DatasetInfo",
           "SPLIT_FAMILIES"]

_UCI = "CC BY 4.0 (UCI ML Repository)"
_MONKS_CODES = ("a1", "a2", "a3", "a4", "a5", "a6")
_HEART_CLEVELAND_CODES = ("sex", "cp", "fbs", "restecg", "exang", "thal")
_HEART_STATLOG_CODES = ("sex", "chest", "fasting_blood_sugar",
                        "resting_electrocardiographic_results", "exercise_induced_angina", "thal")


@dataclass(frozen=True)
class DatasetInfo:
    """What is known about one bundled dataset (the facts of ``PROVENANCE.md``).

    Attributes
    ----------
    name : str
        The name :func:`load_dataset` takes (the file stem).
    file : str
        File name inside ``optirules/data/datasets``.
    rows, features : int
        Number of rows and of feature columns (the label excluded).
    positive_rate : float
        Fraction of rows with label 1, rounded to 3 decimals as in the source README.
    label : str
        What label 1 means.
    missing : bool
        Whether some feature values are missing (empty fields, loaded as NaN).
    licence : str
        Licence of the data.
    sha256 : str
        SHA-256 of the (uncompressed) CSV text, to check the shipped bytes.
    coded_categorical : tuple of str
        Columns that hold numeric *codes* of categories (UCI documentation); they load as
        numbers, so pass them as ``FeatureBinarizer(categorical_features=...)`` to get
        ``==`` literals instead of thresholds.
    splits : tuple of (str, int, int)
        Splits defined by the source as ``(split, start, stop)`` row ranges (Python slice
        bounds), e.g. ``(("train", 0, 32561), ("test", 32561, 48842))`` for adult; empty
        when the source defines none.
    """

    name: str
    file: str
    rows: int
    features: int
    positive_rate: float
    label: str
    missing: bool
    licence: str
    sha256: str
    coded_categorical: tuple[str, ...] = ()
    splits: tuple[tuple[str, int, int], ...] = ()


_REGISTRY: dict[str, DatasetInfo] = {
    info.name: info
    for info in [
        DatasetInfo("adult", "adult.csv.gz", 48842, 14, 0.239, "income >50K", True, _UCI,
                    "2b973000d184ad0c8f8ff18a927faa5b416fb7fd8fe3a3b540cc5d3cfcf59e83",
                    splits=(("train", 0, 32561), ("test", 32561, 48842))),
        DatasetInfo("banknote", "banknote.csv", 1372, 4, 0.445,
                    "class 1 (as in UCI; usually read as forged)", False, _UCI,
                    "fd54cdab8b3a4033b936d4f85c13a2a7cccbfabb55ea17e3cbed63df2043354c"),
        DatasetInfo("blood_transfusion", "blood_transfusion.csv", 748, 4, 0.238,
                    "donated blood in March 2007", False, _UCI,
                    "6b4096aad0802c7c20a4204c4c4c23578ff5e1726a0a31dcfd13ddbf42f12dda"),
        DatasetInfo("breast_cancer_wisconsin", "breast_cancer_wisconsin.csv", 699, 9, 0.345,
                    "class 4 (malignant)", True, _UCI,
                    "dcfa7c1eb02babd3d1cc29ace4c9a103abee279f3912a540786b912570c7bed6"),
        DatasetInfo("credit_g", "credit_g.csv.gz", 1000, 20, 0.300, "class bad (credit risk)",
                    False, _UCI,
                    "7dc59871849a5c0f5b60a7e79945e2aea8b64ac9b2f7068a1cac9f3ad7643181"),
        DatasetInfo("ecoli", "ecoli.csv", 336, 7, 0.426,
                    "class cp (cytoplasm) vs the 7 other sites", False, _UCI,
                    "1e9002cd2314f26fcb814894ccc13d7cd0d8dbf1716e68595f740bba26245345"),
        DatasetInfo("heart_cleveland", "heart_cleveland.csv", 303, 13, 0.459,
                    "num > 0 (angiographic disease, classes 1-4)", True, _UCI,
                    "0fc138dbbf77f4afdee125cf8c0f9b11405f4329b386426d8ccc0381d7528e96",
                    coded_categorical=_HEART_CLEVELAND_CODES),
        DatasetInfo("heart_statlog", "heart_statlog.csv", 270, 13, 0.444,
                    "class present (heart disease)", False, _UCI,
                    "ce8b3f5c1e74b60317bfae7508963674711b2058b3ac9c4ec62e88bb3ceb5ecb",
                    coded_categorical=_HEART_STATLOG_CODES),
        DatasetInfo("house_votes_84", "house_votes_84.csv", 435, 16, 0.386, "class republican",
                    True, _UCI,
                    "3621285cb7446f1ac5fb26d1a6e4dad418b6adce3892c4029dc35e9bfe6bf0f4"),
        DatasetInfo("ilpd", "ilpd.csv", 583, 10, 0.714, "Selector 1 (liver patient)", True, _UCI,
                    "30a582ee54fc284e2f35dfe6e1d1642b829921a94226db1413d0e0c1e50faa84"),
        DatasetInfo("ionosphere", "ionosphere.csv.gz", 351, 34, 0.641,
                    "class g (good radar return)", False, _UCI,
                    "fd6f9303b10ae69fcd7ea6be2a5d01c3e04d2dc73bf8312b23822155fbc63e1e"),
        DatasetInfo("liver_disorders_bupa", "liver_disorders_bupa.csv", 345, 6, 0.580,
                    "selector 2 (see PROVENANCE.md: not the real clinical target)", False, _UCI,
                    "14d88c6a498c0903dfa946c5e72daf1b601148d2ebf474675f08517d55c0d6c5"),
        DatasetInfo("magic_gamma", "magic_gamma.csv.gz", 19020, 10, 0.648,
                    "class g (gamma signal) vs h (hadron background)", False, _UCI,
                    "558dd626677fff81a03181720d5d57f49944b674fbb932deb77b3a8ec09b5101"),
        DatasetInfo("monks1_test", "monks1_test.csv", 432, 6, 0.500, "class 1", False, _UCI,
                    "935bde6bfc654fd418a696caaa9add06cf76a584a8ef04f9ee284287abe0e9af",
                    coded_categorical=_MONKS_CODES),
        DatasetInfo("monks1_train", "monks1_train.csv", 124, 6, 0.500, "class 1", False, _UCI,
                    "adf06dd1cafac6fc44f5cf75f1eb4926eacb7d8ca69e82c442a1b7aabdd1d64d",
                    coded_categorical=_MONKS_CODES),
        DatasetInfo("monks2_test", "monks2_test.csv", 432, 6, 0.329, "class 1", False, _UCI,
                    "2d54415b274d529dc4b08c60e8e2e0bfc14a78cd1463e7df1a96efa53cb6d902",
                    coded_categorical=_MONKS_CODES),
        DatasetInfo("monks2_train", "monks2_train.csv", 169, 6, 0.379, "class 1", False, _UCI,
                    "1b81c2e365c85aadd2cebd1d8256935528f189098a115eedcb28408951d14258",
                    coded_categorical=_MONKS_CODES),
        DatasetInfo("monks3_test", "monks3_test.csv", 432, 6, 0.528, "class 1", False, _UCI,
                    "635efab64f97f9cc48096a2d566548f841f6f127013dfc67574ee069a9da3db4",
                    coded_categorical=_MONKS_CODES),
        DatasetInfo("monks3_train", "monks3_train.csv", 122, 6, 0.492,
                    "class 1 (training set has 5% label noise)", False, _UCI,
                    "547fbfb39e08af8f3d45b1f5c733528c92cc17ce7d1d8c6b080f31b8af82e918",
                    coded_categorical=_MONKS_CODES),
        DatasetInfo("mushroom", "mushroom.csv.gz", 8124, 22, 0.482, "class p (poisonous)", True,
                    _UCI, "f4e61905cba4112893265afe1c7f9d4e46fc285070ac8fbef368ce9f480799dd"),
        DatasetInfo("musk1", "musk1.csv.gz", 476, 166, 0.435, "class 1 (musk)", False, _UCI,
                    "fc077f18cd45660b02bbb21ab62fad4de226feec9a02ffff32f5d8e305085bbb"),
        DatasetInfo("sonar", "sonar.csv.gz", 208, 60, 0.534,
                    "class Mine (metal cylinder) vs Rock", False, _UCI,
                    "21422e88f4fa61f559517c8ac3b2edc239c0c41b602c478e4b8a0a5047ee3644"),
        DatasetInfo("spambase", "spambase.csv.gz", 4601, 57, 0.394, "class 1 (spam)", False,
                    _UCI, "5c213da3442dff41a2a3f9a9419724ebd63ad1fdd19844c03a21ad110682e253"),
        DatasetInfo("splice", "splice.csv.gz", 3190, 60, 0.481,
                    "class EI or IE (a splice junction) vs N", False, _UCI,
                    "e100dee354371ce5292ca801f324d8ddf9fc03b7fa8be284943fd19417abcef2"),
        DatasetInfo("tic_tac_toe", "tic_tac_toe.csv", 958, 9, 0.653, "class positive (x wins)",
                    False, _UCI,
                    "62c1fe74cec37df7a33831f00d59d9bee1369f8509513a2fa88a73a682f42de8"),
        DatasetInfo("wdbc", "wdbc.csv.gz", 569, 30, 0.373, "malignant (sklearn target 0)", False,
                    _UCI, "91651673f68457bbeaf8d7ae762c30a27a1d50cf96f8f2695ffc311283d2e78f"),
    ]
}

#: names that stand for a pair of files, resolved with ``split=``
#: datasets shipped as their own train/test files (``load_dataset(name, split=...)``)
SPLIT_FAMILIES = {"monks1", "monks2", "monks3"}


def _normalize(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def _unknown_name_error(name: str) -> InputError:
    known = sorted(set(_REGISTRY) | SPLIT_FAMILIES)
    key = _normalize(name)
    close = difflib.get_close_matches(key, known, n=3, cutoff=0.6)
    if key:
        close += [k for k in known if key in k and k not in close][: max(0, 3 - len(close))]
    hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    return InputError(f"unknown dataset {name!r}.{hint} Known datasets: {', '.join(known)} "
                      "(see list_datasets()).")


def dataset_info(name: str) -> DatasetInfo:
    """The :class:`DatasetInfo` of a bundled dataset (``monks1`` etc. need the file name).

    Parameters
    ----------
    name : str
        A bundled dataset's name, as :func:`list_datasets` gives it.

    Returns
    -------
    DatasetInfo
        Its size, label, licence, checksum and predefined splits.
    """
    if not isinstance(name, str):
        raise InputError(f"a dataset name must be a string, got {type(name).__name__}.")
    key = _normalize(name)
    if key in SPLIT_FAMILIES:
        raise InputError(f"{key!r} is a pair of files; ask for '{key}_train' or '{key}_test'.")
    if key not in _REGISTRY:
        raise _unknown_name_error(name)
    return _REGISTRY[key]


def _read_bytes(info: DatasetInfo) -> bytes:
    path = resources.files("optirules.data").joinpath("datasets", info.file)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:  # pragma: no cover - a broken installation
        raise InputError(f"the data file {info.file} is missing from the installed package; "
                         "reinstall optirules.") from None
    return gzip.decompress(raw) if info.file.endswith(".gz") else raw


@functools.lru_cache(maxsize=8)
def _read_frame(name: str) -> pd.DataFrame:
    info = _REGISTRY[name]
    raw = _read_bytes(info)
    # Only an empty field is missing: strings such as "none" (credit_g) or "NA" stay values.
    return pd.read_csv(io.BytesIO(raw), keep_default_na=False, na_values=[""])


def verify_dataset(name: str) -> bool:
    """True when the shipped bytes of ``name`` have the SHA-256 recorded in PROVENANCE.md."""
    info = dataset_info(name)
    return hashlib.sha256(_read_bytes(info)).hexdigest() == info.sha256


def load_dataset(name: str, *, split: str | None = None) -> tuple[pd.DataFrame, np.ndarray]:
    """Load a bundled binary classification dataset.

    Parameters
    ----------
    name : str
        A name from :func:`list_datasets` (the file stem, e.g. ``"wdbc"``,
        ``"tic_tac_toe"``, ``"monks1_train"``); case, ``-`` and ``_`` are not
        distinguished.  ``"monks1"``, ``"monks2"`` and ``"monks3"`` name the pair of
        MONK's files and need ``split``.
    split : {"train", "test"} or None, default=None
        The split defined by the source, where there is one: ``"adult"`` is UCI's
        adult.data (first 32561 rows) followed by adult.test (last 16281 rows);
        ``load_dataset("monks1", split="train")`` is ``load_dataset("monks1_train")``.
        ``None`` returns the whole file.  Other datasets have no predefined split
        (use :func:`sklearn.model_selection.train_test_split`).

    Returns
    -------
    X : pandas.DataFrame
        The features with their original names.  Numeric-looking columns are numbers
        (``int64`` or ``float64``); other columns keep their strings (pandas' default
        string dtype: ``object`` in pandas 2, ``str`` in pandas 3); empty fields are NaN.
        The index runs 0..n-1.  The frame is a fresh copy.
    y : numpy.ndarray of int64
        The 0/1 label (what 1 means: :func:`list_datasets`, column ``label``).

    Raises
    ------
    InputError
        An unknown name (the message lists the known names and the closest ones), or a
        split the dataset does not have.

    Examples
    --------
    >>> X, y = load_dataset("tic_tac_toe")
    >>> X.shape, int(y.sum())
    ((958, 9), 626)
    """
    if not isinstance(name, str):
        raise InputError(f"a dataset name must be a string, got {type(name).__name__}.")
    key = _normalize(name)
    if split is not None and split not in ("train", "test"):
        raise InputError(f"split must be 'train', 'test' or None, got {split!r}.")
    row_range: tuple[int, int] | None = None
    if key in SPLIT_FAMILIES:
        if split is None:
            raise InputError(f"{key!r} ships as a fixed train/test pair; pass split='train' or "
                             f"split='test' (or the names '{key}_train' / '{key}_test').")
        key = f"{key}_{split}"
    elif key not in _REGISTRY:
        raise _unknown_name_error(name)
    elif split is not None:
        ranges = {s: (a, b) for s, a, b in _REGISTRY[key].splits}
        if not ranges:
            raise InputError(f"the dataset {key!r} has no predefined train/test split; load it "
                             "with split=None and split it yourself (e.g. sklearn's "
                             "train_test_split).")
        row_range = ranges[split]
    frame = _read_frame(key)
    if row_range is not None:
        frame = frame.iloc[row_range[0]:row_range[1]]
    frame = frame.reset_index(drop=True)
    y = frame["label"].to_numpy(dtype=np.int64)
    X = frame.drop(columns="label").copy(deep=True)
    return X, y


def list_datasets() -> pd.DataFrame:
    """A table of the bundled datasets, one row per name :func:`load_dataset` accepts.

    Returns
    -------
    pandas.DataFrame
        Columns ``name``, ``rows``, ``features``, ``positive_rate``, ``label`` (what label
        1 means), ``missing`` (some values missing), ``coded_categorical`` (numeric columns
        that are category codes), ``splits`` (source-defined splits usable with
        ``split=``), ``file`` and ``licence``; sorted by name.  Provenance and notes are in
        ``optirules/data/datasets/PROVENANCE.md``.
    """
    rows = []
    for info in sorted(_REGISTRY.values(), key=lambda i: i.name):
        rows.append({
            "name": info.name,
            "rows": info.rows,
            "features": info.features,
            "positive_rate": info.positive_rate,
            "label": info.label,
            "missing": info.missing,
            "coded_categorical": info.coded_categorical,
            "splits": ", ".join(f"{s} ({b - a})" for s, a, b in info.splits),
            "file": info.file,
            "licence": info.licence,
        })
    return pd.DataFrame(rows)
