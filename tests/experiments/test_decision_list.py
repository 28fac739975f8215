"""The the Minimum OSR paper experiment (BruteDL + Minimum OSR vs default rule vs CART), quick size."""

from __future__ import annotations

import numpy as np
import pytest

from optirules.errors import InputError
from tests.internals import (
    CART,
    CV,
    DATASETS,
    DEFAULT,
    OSR,
    OSR_UNCOVERED,
)
from tests.internals import (
    decision_list_format_table as format_table,
)
from tests.internals import (
    decision_list_METHODS as METHODS,
)
from tests.internals import (
    decision_list_run as run,
)


@pytest.fixture(scope="module")
def quick_table():
    return run(quick=True, random_state=0)


def test_quick_run_shape_and_ranges(quick_table):
    df = quick_table
    assert len(df) == len(DATASETS) * len(METHODS)
    assert list(dict.fromkeys(df.dataset)) == list(DATASETS)
    assert df.accuracy.between(0, 1).all()
    assert (df.list_length >= 1).all()
    cart = df[df.method == CART]
    assert cart.fallback_share.isna().all()
    monks = df[df.dataset.str.startswith("monks")]
    assert (monks.n_test == 432).all() and (monks.n_splits == 1).all()


def test_the_two_fallbacks_share_one_list_and_differ_only_on_uncovered_points(quick_table):
    for _, sub in quick_table.groupby("dataset"):
        default = sub[sub.method == DEFAULT].iloc[0]
        for name in (OSR, OSR_UNCOVERED):
            osr = sub[sub.method == name].iloc[0]
            assert osr.list_length == default.list_length
            assert osr.fallback_share == default.fallback_share
            # predictions agree wherever a rule fires: accuracies differ by at most the
            # share of test points handed to the fallback
            assert abs(osr.accuracy - default.accuracy) <= osr.fallback_share + 1e-12
            assert 0 <= osr.osr_default_share <= osr.fallback_share


def test_cv_row_reports_the_pairs_it_chose(quick_table):
    cv = quick_table[quick_table.method == CV]
    assert len(cv) == len(DATASETS)
    for _, row in cv.iterrows():
        pairs = [item.split(" (")[0] for item in row.choices.split(", ")]
        for pair in pairs:
            depth, coverage = (int(v) for v in pair.split(" / "))
            assert depth in (1, 2) and coverage in (2, 5, 10, 20, 40, 80)  # the quick grid
        counts = [int(item.split("(")[1].rstrip(")")) for item in row.choices.split(", ")
                  if "(" in item]
        assert sum(counts) in (0, row.n_splits)  # one pair alone: chosen in every split
    fixed = quick_table[quick_table.method == OSR]
    assert (fixed.choices == "2 / 2").all()


def test_monks1_is_learned(quick_table):
    # MONK-1 is (a1 = a2) or (a5 = 1): depth-2 attribute = value rules express it exactly
    row = quick_table[(quick_table.dataset == "monks-1") & (quick_table.method == OSR)]
    assert row.accuracy.iloc[0] >= 0.95


def test_deterministic_and_formatted(quick_table):
    again = run(quick=True, random_state=0, datasets=["monks-3", "house-votes-84"])
    for label in ("monks-3", "house-votes-84"):
        a = quick_table[quick_table.dataset == label].reset_index(drop=True)
        b = again[again.dataset == label].reset_index(drop=True)
        np.testing.assert_array_equal(a.accuracy.to_numpy(), b.accuracy.to_numpy())
        np.testing.assert_array_equal(a.list_length.to_numpy(), b.list_length.to_numpy())
    text = format_table(quick_table)
    lines = text.splitlines()
    assert lines[0].startswith("| dataset | protocol | method | accuracy %")
    assert len(lines) == 2 + len(quick_table)
    assert f"| monks-1 | own train/test files | {OSR} |" in text
    assert f"| monks-1 | own train/test files | {CV} |" in text


def test_unknown_dataset_label():
    with pytest.raises(InputError, match="unknown dataset"):
        run(quick=True, datasets=["iris"])
