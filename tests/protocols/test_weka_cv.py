# SPDX-License-Identifier: GPL-3.0-or-later
"""Weka-identical folds against weka-cv-semantics.md §8 (fold contents and whole-dump SHA-256)."""
import hashlib

import numpy as np
import pytest
from conftest import DATA_DIR
from oracles import WEKA_EXAMPLES

from nbrepro.data.arff import read_arff
from nbrepro.protocols import make_folds, small_classes
from nbrepro.protocols.weka_cv import weka_cv_folds


def _y(name, folder=DATA_DIR):
    df, _ = read_arff(folder / f"{name}.arff")
    return df.iloc[:, -1].cat.codes.to_numpy()


def _dump(y, k, runs):
    out = []
    for f in weka_cv_folds(y, k, runs):
        out.append(f"{f.run} {f.fold} TEST {' '.join(map(str, f.test))}\n")
        out.append(f"{f.run} {f.fold} TRAIN {' '.join(map(str, f.train))}\n")
    return hashlib.sha256("".join(out).encode()).hexdigest()


def test_toy_case_with_missing_classes():
    codes = {"a": 0, "b": 1, "c": 2, "?": -1}
    y = [codes[c] for c in ["a", "b", "a", "?", "b", "a", "?", "c", "b", "a", "c", "a"]]
    folds = list(weka_cv_folds(y, 3, [1]))
    assert [f.test.tolist() for f in folds] == [[5, 2, 6, 4], [0, 9, 1, 10], [11, 3, 8, 7]]
    assert [f.train.tolist() for f in folds] == [[0, 7, 8, 11, 1, 10, 3, 9], [4, 5, 11, 2, 8, 6, 3, 7],
                                                 [5, 4, 2, 0, 10, 9, 1, 6]]


def test_iris_run1_vectors():
    folds = list(weka_cv_folds(_y("iris"), 10, [1]))
    assert folds[0].test[:10].tolist() == [140, 123, 110, 137, 104, 18, 29, 40, 16, 30]
    assert folds[9].test[:10].tolist() == [125, 142, 109, 148, 135, 33, 20, 35, 14, 0]
    assert folds[0].train[:10].tolist() == [96, 13, 113, 27, 12, 146, 2, 36, 125, 61]
    assert folds[9].train[:10].tolist() == [43, 53, 129, 3, 112, 116, 133, 5, 66, 24]


def test_labor_vectors():
    folds = list(weka_cv_folds(_y("labor"), 10, [3]))
    assert folds[4].test.tolist() == [11, 26, 50, 10, 32, 40]
    assert folds[4].train[:10].tolist() == [9, 53, 0, 49, 7, 29, 56, 35, 31, 2]
    assert [len(f.test) for f in folds] == [6, 6, 6, 6, 6, 6, 6, 5, 5, 5]
    assert list(weka_cv_folds(_y("labor"), 10, [1]))[0].test.tolist() == [45, 12, 3, 19, 14, 50]


def test_iris_two_fold_run30():
    f = list(weka_cv_folds(_y("iris"), 2, [30]))[1]
    assert f.test[:10].tolist() == [106, 128, 120, 112, 115, 132, 117, 134, 145, 114]


@pytest.mark.parametrize("name,k,runs,digest", [
    ("iris", 10, range(1, 11), "a6791e7a8450a15dc525283bfdf45af231b91113c81fbdadf926f053e601b2de"),
    ("labor", 10, range(1, 11), "8d2247824ee6515f3491eba2abffcff5fa04b2260821c0a47cd6f65e1954a959"),
    ("credit-g", 2, range(1, 31), "5122824d64ce29d97b0a4dac50bc645d7c1f496d0467743791adc9c0d1e22c25"),
])
def test_whole_dump_fingerprints(name, k, runs, digest):
    assert _dump(_y(name), k, runs) == digest


@pytest.mark.skipif(not (WEKA_EXAMPLES / "segment-challenge.arff").exists(), reason="Weka examples not installed")
def test_segment_challenge_fingerprint():
    digest = "5d7c1467301b87985d5557510ff2c66d42a04afca6246323f893d769f7297f5e"
    assert _dump(_y("segment-challenge", WEKA_EXAMPLES), 10, range(1, 11)) == digest


def test_block_train_order_keeps_test_sets():
    y = np.array([0, 1] * 30)
    a = list(weka_cv_folds(y, 5, [1, 2]))
    b = list(weka_cv_folds(y, 5, [1, 2], shuffle_train=False))
    for fa, fb in zip(a, b, strict=True):
        assert fa.test.tolist() == fb.test.tolist()
        assert sorted(fa.train.tolist()) == sorted(fb.train.tolist())


def test_more_folds_than_rows_is_an_error():
    with pytest.raises(ValueError, match="needs at least 10 rows"):
        list(make_folds({"name": "weka_cv", "folds": 10, "runs": {"first": 1, "last": 1}}, [0, 1, 0]))


def test_small_classes_reported():
    assert small_classes([0] * 20 + [1] * 3, 10) == [(1, 3)]
