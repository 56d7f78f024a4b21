# SPDX-License-Identifier: GPL-3.0-or-later
"""Weka-identical preprocessing: hand cases, and Weka's own filters as the oracle."""
import numpy as np
import pandas as pd
import pytest
from conftest import DATA_DIR, ROOT
from oracles import needs_weka, weka_filter

from nbrepro.data.arff import read_arff
from nbrepro.preprocess import STEP_NAMES, EqualWidthDiscretizer, RemoveIdLike, ReplaceMissingValues, build_steps

pytestmark = pytest.mark.bits  # compares bits: .ci/run repeats it with numpy's AVX-512 loops off


def test_equal_width_edges_and_empty_bins():
    X = pd.DataFrame({"a": [0.0, 1.0, 10.0, 5.0, np.nan]})
    out = EqualWidthDiscretizer(10).fit_transform(X)
    assert len(out["a"].cat.categories) == 10  # empty bins are still declared values
    # cut points 1, 2, ..., 9: a value on an edge goes to the lower bin (Weka: value <= cut)
    assert out["a"].cat.codes.tolist() == [0, 0, 9, 4, -1]


def test_constant_column_gets_one_value():
    out = EqualWidthDiscretizer(10).fit_transform(pd.DataFrame({"a": [3.0, 3.0, 3.0]}))
    assert list(out["a"].cat.categories) == ["All"] and out["a"].cat.codes.tolist() == [0, 0, 0]


def test_replace_missing_mode_is_first_maximum_and_mean():
    X = pd.DataFrame({"n": [1.0, np.nan, 2.0], "c": pd.Categorical.from_codes([1, 0, -1, -1], ["x", "y"])[:3]})
    out = ReplaceMissingValues().fit_transform(X)
    assert out["n"].tolist() == [1.0, 1.5, 2.0]
    assert out["c"].tolist() == ["y", "x", "x"]  # tie 1–1: the first declared value wins


def test_id_like_rule_removes_exactly_three_of_lcwnb():
    import yaml
    paper = yaml.safe_load((ROOT / "config/papers/lcwnb.yaml").read_text())
    removed = {}
    for ds in paper["datasets"]:
        df, _ = read_arff(DATA_DIR / f"{ds}.arff")
        r = RemoveIdLike(0.9).fit(df.iloc[:, :-1]).removed_
        if r:
            removed[ds] = r
    assert removed == {"zoo": ["animal"], "splice": ["Instance_name"], "colic.ORIG": ["Hospital Number"]}


def test_unknown_step_is_named():
    with pytest.raises(ValueError, match="unknown step 'discretise'"):
        build_steps([{"discretise": {}}])


@needs_weka
@pytest.mark.parametrize("name", ["labor", "colic", "hepatitis", "anneal.ORIG", "iris", "credit-a", "vowel"])
def test_matches_weka_filters(tmp_path, name):
    """ReplaceMissingValues then Discretize -B 10 on the whole file, as Li & Li did, against Weka's output."""
    src = DATA_DIR / f"{name}.arff"
    weka_filter(src, tmp_path / "rmv.arff", "weka.filters.unsupervised.attribute.ReplaceMissingValues")
    weka_filter(tmp_path / "rmv.arff", tmp_path / "disc.arff", "weka.filters.unsupervised.attribute.Discretize",
                "-B", "10", "-R", "first-last")
    weka, _ = read_arff(tmp_path / "disc.arff")
    df, _ = read_arff(src)
    X = df.iloc[:, :-1]
    ours = EqualWidthDiscretizer(10).fit_transform(ReplaceMissingValues().fit_transform(X))
    for c in X.columns:
        assert len(ours[c].cat.categories) == len(weka[c].cat.categories), c
        assert ours[c].cat.codes.tolist() == weka[c].cat.codes.tolist(), c


@pytest.mark.parametrize("name", sorted(STEP_NAMES))
def test_every_step_declares_its_parameters_as_scikit_learn_does(name):
    """Each step's parameters are declared (``_parameter_constraints``) and a wrong type or value
    is refused by fit with scikit-learn's own error, which ``load_paper`` reports before any job."""
    from sklearn.utils.estimator_checks import check_param_validation

    check_param_validation(STEP_NAMES[name].__name__, STEP_NAMES[name]())
