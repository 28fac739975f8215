"""Bundled datasets: every file loads with the figures of the provenance table."""

from __future__ import annotations

from importlib import resources

import numpy as np
import pandas as pd
import pytest

from optirules.errors import InputError
from tests.internals import dataset_info, list_datasets, load_dataset, verify_dataset

# (name, rows, features, positive rate) as recorded in optirules/data/datasets/PROVENANCE.md
README_TABLE = [
    ("adult", 48842, 14, 0.239),
    ("splice", 3190, 60, 0.481),
    ("ecoli", 336, 7, 0.426),
    ("heart_cleveland", 303, 13, 0.459),
    ("heart_statlog", 270, 13, 0.444),
    ("breast_cancer_wisconsin", 699, 9, 0.345),
    ("wdbc", 569, 30, 0.373),
    ("tic_tac_toe", 958, 9, 0.653),
    ("mushroom", 8124, 22, 0.482),
    ("ionosphere", 351, 34, 0.641),
    ("sonar", 208, 60, 0.534),
    ("banknote", 1372, 4, 0.445),
    ("ilpd", 583, 10, 0.714),
    ("liver_disorders_bupa", 345, 6, 0.580),
    ("blood_transfusion", 748, 4, 0.238),
    ("magic_gamma", 19020, 10, 0.648),
    ("musk1", 476, 166, 0.435),
    ("spambase", 4601, 57, 0.394),
    ("monks1_train", 124, 6, 0.500),
    ("monks1_test", 432, 6, 0.500),
    ("monks2_train", 169, 6, 0.379),
    ("monks2_test", 432, 6, 0.329),
    ("monks3_train", 122, 6, 0.492),
    ("monks3_test", 432, 6, 0.528),
    ("house_votes_84", 435, 16, 0.386),
    ("credit_g", 1000, 20, 0.300),
]

REQUIRED = {"tic_tac_toe", "heart_statlog", "heart_cleveland", "breast_cancer_wisconsin", "wdbc",
            "house_votes_84", "monks1_train", "monks1_test", "monks2_train", "monks2_test",
            "monks3_train", "monks3_test", "ecoli", "splice", "credit_g", "ionosphere", "adult",
            "mushroom", "magic_gamma"}


@pytest.mark.parametrize("name, rows, features, rate", README_TABLE)
def test_dataset_matches_readme(name, rows, features, rate):
    X, y = load_dataset(name)
    assert isinstance(X, pd.DataFrame)
    assert X.shape == (rows, features)
    assert "label" not in X.columns
    assert y.dtype == np.int64 and y.shape == (rows,)
    assert set(np.unique(y)) == {0, 1}
    assert round(float(y.mean()), 3) == rate
    assert list(X.index) == list(range(rows))
    info = dataset_info(name)
    assert (info.rows, info.features, info.positive_rate) == (rows, features, rate)
    assert info.missing == bool(X.isna().any().any())
    assert verify_dataset(name)  # shipped bytes are the recorded CSV


def test_every_shipped_file_is_listed_and_documented():
    table = list_datasets()
    assert {n for n, *_ in README_TABLE} == set(table["name"])
    assert REQUIRED <= set(table["name"])
    assert list(table.columns) == ["name", "rows", "features", "positive_rate", "label",
                                   "missing", "coded_categorical", "splits", "file", "licence"]
    folder = resources.files("optirules.data").joinpath("datasets")
    files = {p.name for p in folder.iterdir()}
    assert files == set(table["file"]) | {"PROVENANCE.md"}
    provenance = folder.joinpath("PROVENANCE.md").read_text(encoding="utf-8")
    for info_file in table["file"]:
        assert f"(`{info_file}`)" in provenance
    for name in table["name"]:
        assert dataset_info(name).sha256 in provenance
    # keep the package small: compressed data under 3 MB
    assert sum(folder.joinpath(f).stat().st_size for f in files) < 3_000_000


def test_types_and_missing_values_follow_the_readme_notes():
    X, _ = load_dataset("tic_tac_toe")
    assert all(not pd.api.types.is_numeric_dtype(X[c]) for c in X)
    assert set(X.iloc[:, 0].unique()) == {"x", "o", "b"}
    X, _ = load_dataset("breast_cancer_wisconsin")
    assert X["bare_nuclei"].isna().sum() == 16
    assert pd.api.types.is_float_dtype(X["bare_nuclei"])
    assert pd.api.types.is_integer_dtype(X["clump_thickness"])
    X, _ = load_dataset("mushroom")
    assert X["stalk-root"].isna().sum() == 2480
    X, _ = load_dataset("heart_cleveland")
    assert X["ca"].isna().sum() == 4 and X["thal"].isna().sum() == 2
    X, _ = load_dataset("credit_g")  # the category "none" must not become NaN
    assert not X.isna().any().any()
    assert (X["own_telephone"] == "none").sum() > 0
    X, _ = load_dataset("splice")  # N, the ambiguity code, stays a string
    assert "N" in set(np.unique(X.to_numpy().astype(str)))
    X, y = load_dataset("splice")
    assert y.sum() == 767 + 768  # EI + IE


def test_source_splits():
    X_tr, y_tr = load_dataset("adult", split="train")
    X_te, y_te = load_dataset("adult", split="test")
    assert (len(X_tr), int(y_tr.sum())) == (32561, 7841)  # adult.data
    assert len(X_te) == 16281
    X_all, y_all = load_dataset("adult")
    pd.testing.assert_frame_equal(pd.concat([X_tr, X_te], ignore_index=True), X_all)
    X, y = load_dataset("monks2", split="test")
    X2, y2 = load_dataset("monks2_test")
    pd.testing.assert_frame_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    # the MONK's test files hold all 432 possible attribute combinations
    assert len(X.drop_duplicates()) == 432 == 3 * 3 * 2 * 3 * 4 * 2
    with pytest.raises(InputError, match="split='train' or split='test'"):
        load_dataset("monks1")
    with pytest.raises(InputError, match="no predefined train/test split"):
        load_dataset("wdbc", split="train")
    with pytest.raises(InputError, match="split must be"):
        load_dataset("adult", split="validation")


def test_names_are_forgiving_and_loads_are_copies():
    X, _ = load_dataset("Tic-Tac-Toe")
    assert X.shape == (958, 9)
    X.iloc[0, 0] = "changed"
    X_again, _ = load_dataset("tic_tac_toe")
    assert X_again.iloc[0, 0] == "x"


def test_unknown_name_lists_the_known_ones():
    with pytest.raises(InputError) as err:
        load_dataset("heart")
    message = str(err.value)
    assert "Did you mean 'heart_cleveland' or 'heart_statlog'?" in message
    for name in list_datasets()["name"]:
        assert name in message
    with pytest.raises(InputError, match="Did you mean 'monks1'"):
        load_dataset("monk1")
    with pytest.raises(InputError, match="must be a string"):
        load_dataset(3)


def test_planted_dnf_labels_follow_the_planted_terms_up_to_the_noise():
    import numpy as np

    from optirules.data import PLANTED_DNF, make_planted_dnf
    from optirules.errors import InputError

    X, y = make_planted_dnf(20_000, noise=0.0, random_state=3)
    assert X.shape == (20_000, 30) and X.dtype == np.uint8
    # recount by hand, one term at a time
    truth = np.zeros(len(y), bool)
    for term in PLANTED_DNF:
        truth |= np.all([X[:, f] == v for f, v in term], axis=0)
    assert (y == truth).all() and 0.3 < y.mean() < 0.4  # 1 - (7/8)^3 = 0.33
    _, y_noisy = make_planted_dnf(20_000, noise=0.1, random_state=3)
    assert abs(np.mean(y_noisy != truth) - 0.1) < 0.01
    X2, y2 = make_planted_dnf(20_000, noise=0.1, random_state=3)
    assert (X2 == X).all() and (y2 == y_noisy).all()  # deterministic
    for bad in ({"n_samples": 0}, {"n_samples": 10, "noise": 0.5}):
        with pytest.raises(InputError):
            make_planted_dnf(**bad)


@pytest.mark.parametrize("name, close", [
    ("digits_avb", None), ("spmbase", "spambase"), ("Heart", "heart_cleveland"),
    ("ionosfere", "ionosphere"), ("", None),
])
@pytest.mark.parametrize("loader", [load_dataset, dataset_info])
def test_unknown_names_are_input_errors_with_close_matches(loader, name, close):
    with pytest.raises(InputError, match="Known datasets: adult, ") as info:
        loader(name)
    message = str(info.value)
    assert f"unknown dataset {name!r}" in message
    if close is None:
        assert "Did you mean" not in message
    else:
        assert f"Did you mean '{close}'" in message
