# SPDX-License-Identifier: GPL-3.0-or-later
"""The trust probes of issue 43 that found a silent wrong result, a traceback or an unclear
message, each kept as a test of what a user sees now (the first line of the message)."""
import inspect
import re

import numpy as np
import pandas as pd
import pytest
import yaml

from nbrepro.classifiers import REGISTRY, FrequencyGaussianNB, Logistic, NaiveBayes
from nbrepro.cli import main as cli
from nbrepro.data.arff import read_arff
from nbrepro.data.fetch import load_dataset
from nbrepro.data.registry import parse_registry
from nbrepro.errors import ArffError, DatasetInvalid, ProtocolError
from nbrepro.paper import Paper
from nbrepro.preprocess import EqualWidthDiscretizer
from nbrepro.protocols import make_folds

HUGE = pd.DataFrame({"a": [1e308, -1e308, 1e308, -1e308, 5.0, 6.0], "b": [1.0, 2, 3, 4, 5, 6]})
Y6 = pd.Series(pd.Categorical(list("xyxyxy")))


def _arff(tmp_path, rows, header="@attribute a numeric\n@attribute c {x,y}\n"):
    path = tmp_path / "p.arff"
    path.write_text(f"@relation p\n{header}@data\n" + "".join(r + "\n" for r in rows))
    return path


# ---- the ARFF reader -------------------------------------------------------------------------------
def test_a_trailing_comment_on_a_data_row_is_a_comment_as_in_weka(tmp_path):
    """Was: "value 'x % note' of nominal attribute 'c' is not declared"; Weka reads the row."""
    frame, _ = read_arff(_arff(tmp_path, ["1.5,x % note", "2,'y' % quoted, then a comment", "3,y"]))
    assert list(frame["c"]) == ["x", "y", "y"] and list(frame["a"]) == [1.5, 2.0, 3.0]


def test_a_number_beyond_the_double_range_is_refused_by_line(tmp_path):
    """Was: 1e400 read as inf, then 'Categorical categories must be unique' from the discretiser."""
    with pytest.raises(ArffError, match=r"p\.arff:6: attribute 'a': '1e400' is beyond the range of a double"):
        read_arff(_arff(tmp_path, ["1.5,x", "1e400,y"]))


def test_a_string_attribute_is_refused_as_weka_refuses_it(tmp_path):
    """Was: the string attribute used as nominal."""
    path = _arff(tmp_path, ["abc,x", "def,y"], header="@attribute s string\n@attribute c {x,y}\n")
    spec = parse_registry({"datasets": {"p": {"file": "p.arff", "n_instances": 2, "n_attributes": 1,
                                              "n_classes": 2}}}, "r")["p"]
    with pytest.raises(DatasetInvalid, match="'s' is an ARFF string attribute, which Weka's classifiers refuse"):
        load_dataset(spec, path)


# ---- values a double's sums cannot hold ----------------------------------------------------------------
@pytest.mark.parametrize("kernel", [False, True])
def test_naive_bayes_stops_where_an_estimator_gives_nan(kernel):
    """Was: NaN probabilities and the first class predicted for every row; Weka stops."""
    model = NaiveBayes(kernel=kernel).fit(HUGE, Y6)
    with pytest.raises(ValueError, match="the estimator of numeric attribute 'a' returned NaN"):
        model.predict_proba(HUGE)


def test_equal_width_bins_of_an_overflowing_range_are_refused_by_attribute():
    """Was: 'Categorical categories must be unique'."""
    with pytest.raises(ValueError, match="attribute 'a': its range -1e\\+308 to 1e\\+308 overflows a double"):
        EqualWidthDiscretizer(10).fit(HUGE)


def test_prepare_names_the_data_set_when_a_step_cannot_take_its_values(tmp_path, capsys):
    path = tmp_path / "big.arff"
    path.write_text("@relation b\n@attribute a numeric\n@attribute c {x,y}\n@data\n"
                    + "".join(f"{v},{c}\n" for v, c in [("1e308", "x"), ("-1e308", "y"), ("5", "x"), ("6", "y")]))
    (tmp_path / "reg.yaml").write_text(yaml.safe_dump({"datasets": {"big": {
        "file": "big.arff", "n_instances": 4, "n_attributes": 1, "n_classes": 2}}}))
    paper = {"paper": "p", "title": "t", "datasets": ["big"],
             "preprocessing": {"scope": "dataset", "steps": [{"discretize_equal_width": {"n_bins": 10}}]},
             "protocol": {"name": "weka_cv", "folds": 2, "runs": {"first": 1, "last": 1}},
             "classifiers": {"NB": {"estimator": "NaiveBayes"}}, "metrics": ["accuracy"], "tables": {}}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(paper))
    rc = cli(["prepare", "--paper-config", str(tmp_path / "p.yaml"), "--dataset", "big", "--registry",
              str(tmp_path / "reg.yaml"), "--raw", str(path), "--out-data", str(tmp_path / "d.parquet"),
              "--out-folds", str(tmp_path / "f.parquet")])
    err = capsys.readouterr().err
    assert rc == 2 and "dataset 'big': preprocessing failed: attribute 'a': its range" in err
    assert "Traceback" not in err


def test_logistic_names_the_attribute_it_cannot_standardise():
    """Was: 'objective function value is NaN', naming no attribute."""
    with pytest.raises(ValueError, match="Logistic: numeric attribute 'a' cannot be standardised"):
        Logistic().fit(HUGE, Y6)


# ---- the library's API ---------------------------------------------------------------------------------
def test_frequency_gaussian_nb_reads_a_frame_by_column_name_and_refuses_inf():
    """Was: columns matched by position (reordered columns: accuracy 0.76 -> 0.56, no warning)."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=200), "b": rng.normal(size=200) * 5,
                      "c": pd.Categorical(rng.choice(["u", "v"], 200))})
    y = pd.Series(pd.Categorical(np.where(X.a + X.b / 5 > 0, "p", "n")))
    model = FrequencyGaussianNB().fit(X, y)
    np.testing.assert_array_equal(model.predict_proba(X[["c", "b", "a"]]), model.predict_proba(X))
    with pytest.raises(ValueError, match=r"columns \['a'\] seen in fit are absent"):
        model.predict(X[["b", "c"]])
    X.loc[3, "b"] = np.inf
    with pytest.raises(ValueError, match="numeric attribute 'b' has an infinite value"):
        FrequencyGaussianNB().fit(X, y)


def test_frequency_gaussian_nb_refuses_values_whose_gaussian_overflows():
    """Was: values near ±1e308 fitted with a RuntimeWarning and every probability 0.5 (issue 64)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")   # no RuntimeWarning on the way to the error
        with pytest.raises(ValueError, match="numeric attribute 'a': its mean or standard deviation within a class "
                                             "overflows a float64"):
            FrequencyGaussianNB().fit(HUGE, Y6)


def _takes(name, param):
    return param in inspect.signature(REGISTRY[name].__init__).parameters


@pytest.mark.parametrize("name", [n for n in REGISTRY if _takes(n, "handle_unknown")])
def test_a_handle_unknown_typo_is_refused(name):
    X = pd.DataFrame({"a": pd.Categorical(list("uvuvuv"))})
    refused = "'handle_unknown' parameter of .* must be a str among .*'error'.*Got 'errror'"
    with pytest.raises(ValueError, match=refused):
        REGISTRY[name](handle_unknown="errror").fit(X, Y6)


@pytest.mark.parametrize("name", ["NaiveBayes", "AODE", "J48", "Logistic", "FrequencyGaussianNB", "LCWNB"])
def test_nan_in_a_plain_target_is_named(name):
    """A Categorical target's missing rows are left out, as Weka does; a plain one's are an error."""
    X = pd.DataFrame({"a": pd.Categorical(list("uvuvuv"))})
    y = np.array(["x", None, "x", "y", "x", "y"], dtype=object)
    with pytest.raises(ValueError, match="the target y has 1 missing values"):
        REGISTRY[name]().fit(X, y)


# ---- protocols -------------------------------------------------------------------------------------------
def test_stratified_cv_with_every_class_smaller_than_the_folds_is_named():
    """Was: scikit-learn's traceback 'n_splits=5 cannot be greater than the number of members in each class'."""
    with pytest.raises(ProtocolError, match="stratified_cv: every class has fewer rows than the 5 folds"):
        make_folds({"name": "stratified_cv", "folds": 5}, np.array([0, 0, 1, 1, 2, 2]), ["a", "b", "c"])


@pytest.mark.parametrize("spec, unread", [
    ({"name": "two_fold_trials", "trials": 3, "seed": 1, "folds": 10}, "folds"),
    ({"name": "weka_cv", "folds": 10, "runs": {"first": 1, "last": 1}, "seed": 7}, "seed"),
    ({"name": "stratified_cv", "folds": 5, "repeats": 1, "seed": 1, "runs": {"first": 1, "last": 2}}, "runs"),
])
def test_a_protocol_key_the_protocol_does_not_read_is_refused_at_start_up(spec, unread):
    """Was: accepted and ignored (the folds would not be the ones the config says)."""
    from nbrepro.checks import check_sections
    from nbrepro.errors import ConfigError

    paper = {"paper": "p", "datasets": ["iris"], "protocol": spec, "classifiers": {"NB": {"estimator": "NaiveBayes"}},
             "metrics": ["accuracy"], "tables": {}}
    with pytest.raises(ConfigError, match=rf"p\.yaml, protocol: '{spec['name']}' has no key '{unread}'"):
        check_sections(Paper.from_config(paper), "p.yaml")


def test_fingerprint_names_a_results_file_cut_short(tmp_path, capsys):
    """Was: a traceback from pyarrow."""
    good = pd.DataFrame({"a": range(1000)})
    (tmp_path / "p").mkdir()
    good.to_parquet(tmp_path / "p/good.parquet")
    data = (tmp_path / "p/good.parquet").read_bytes()
    (tmp_path / "p/cut.parquet").write_bytes(data[: len(data) // 2])
    assert cli(["fingerprint", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert "CORRUPT  p/cut.parquet" in out
    assert "1 result file(s) cannot be read or are not what their job wrote, e.g. p/cut.parquet" in err


@pytest.mark.parametrize(
    "flt, message",
    [
        ({"n_clases": 2}, "a table's datasets filter names ['n_clases'], not registry values it can filter on"),
        ({"n_classes": 99}, "a table's datasets filter {'n_classes': 99} matches none of the paper's data sets"),
    ],
)
def test_a_table_datasets_filter_is_checked_when_the_config_is_read(tmp_path, flt, message):
    """Was: accepted at start-up, then a traceback in the table job (typo) or an empty table."""
    from conftest import ROOT

    from nbrepro.checks import checked_paper
    from nbrepro.data.registry import load_registry
    from nbrepro.errors import ConfigError

    paper = yaml.safe_load((ROOT / "config/papers/lcwnb.yaml").read_text())
    paper["tables"]["table2"]["datasets"] = flt
    path = tmp_path / "lcwnb.yaml"
    path.write_text(yaml.safe_dump(paper))
    with pytest.raises(
        ConfigError,
        match=r"lcwnb\.yaml, tables\.table2: .*"
        + message.replace("[", r"\[").replace("]", r"\]").replace("{", r"\{").replace("}", r"\}"),
    ):
        checked_paper(path, load_registry(ROOT / "config/datasets.yaml"))


def test_a_meta_estimators_base_given_as_a_bare_name_is_refused_at_start_up():
    """Was: accepted, then an AttributeError in the evaluation job."""
    from nbrepro.errors import ConfigError
    from nbrepro.evaluation.builders import build_estimator

    with pytest.raises(ConfigError, match="Calibrated's estimator is the string 'NaiveBayes'; write it as a mapping"):
        build_estimator({"estimator": "Calibrated", "params": {"estimator": "NaiveBayes"}}, "p.yaml, classifier 'C'")


def test_a_generator_setting_of_the_wrong_shape_is_refused_when_the_registry_is_read():
    """Was: accepted, then numpy's traceback in the fetch job."""
    entry = {
        "file": "g.arff",
        "generator": "gaussian_classes",
        "n_instances": 200,
        "n_attributes": 2,
        "n_classes": 2,
        "params": {"means": [[0, 1], [0, -1]], "cov": [[2, 0, 0], [0, 2, 0]]},
    }
    with pytest.raises(ValueError, match=r"r\.yaml: dataset 'g': gaussian_classes' cov must be a symmetric 2 × 2"):
        parse_registry({"datasets": {"g": entry}}, "r.yaml")


@pytest.mark.parametrize(
    "params, message",
    [
        ({"tolerances": 0.5}, "tolerances must be a list, got 0.5"),
        ({"tolerances": [0.5, -1]}, "tolerances must be a list of non-negative numbers"),
        ({"positive": "yes"}, "positive must be an integer, got 'yes'"),
        ({"positive": -1}, "positive must be a class index"),
    ],
)
def test_metric_values_are_checked_when_the_config_is_read(params, message):
    """Was: tolerances: 0.5 a TypeError traceback in the table job."""
    from nbrepro.errors import ConfigError
    from nbrepro.metrics import make_metric

    with pytest.raises(ConfigError, match=rf"p\.yaml: 'auc': {re.escape(message)}"):
        make_metric("auc", "auc", params, "p.yaml")


def test_an_auc_positive_class_the_data_sets_do_not_have_is_refused_when_the_config_is_read(tmp_path):
    """Was: an IndexError traceback in the evaluation job; then a one-line error, but only in that job."""
    from conftest import ROOT

    from nbrepro.checks import checked_paper
    from nbrepro.data.registry import load_registry
    from nbrepro.errors import ConfigError

    paper = yaml.safe_load((ROOT / "config/papers/lcwnb.yaml").read_text())
    paper["metrics"] = ["accuracy", {"auc": {"metric": "auc", "positive": 5}}]
    path = tmp_path / "lcwnb.yaml"
    path.write_text(yaml.safe_dump(paper))
    with pytest.raises(
        ConfigError,
        match=r"lcwnb\.yaml: metric 'auc': positive=5 is a class index, but data set "
        r"'\S+' has \d classes \(0 … \d, the registry's n_classes\)",
    ):
        checked_paper(path, load_registry(ROOT / "config/datasets.yaml"))


def test_an_auc_positive_class_the_data_do_not_have_is_named():
    """Was: an IndexError traceback in the evaluation job (auc: {positive: 5} on a two-class set)."""
    from nbrepro.errors import ConfigError
    from nbrepro.metrics import auc

    with pytest.raises(ConfigError, match=r"metric auc: positive=5 is a class index, but the data set has 2 classes"):
        auc(np.array([0, 1, 0]), np.array([[0.6, 0.4], [0.3, 0.7], [0.8, 0.2]]), positive=5)


def test_a_preprocessing_step_parameter_of_the_wrong_type_is_refused_at_start_up():
    """Was: accepted, then a TypeError traceback in the prepare job."""
    from nbrepro.checks import check_sections
    from nbrepro.errors import ConfigError

    paper = {
        "paper": "p",
        "datasets": ["iris"],
        "protocol": {"name": "resubstitution"},
        "preprocessing": {"scope": "dataset", "steps": [{"discretize_equal_width": {"n_bins": "ten"}}]},
        "classifiers": {"NB": {"estimator": "NaiveBayes"}},
        "metrics": ["accuracy"],
        "tables": {},
    }
    with pytest.raises(
        ConfigError,
        match=r"p\.yaml, preprocessing, step 'discretize_equal_width': The 'n_bins' parameter of "
        r"EqualWidthDiscretizer must be an int in the range \[1, inf\). Got 'ten' instead",
    ):
        check_sections(Paper.from_config(paper), "p.yaml")


def test_a_figure_naming_an_unknown_table_is_refused_at_start_up(tmp_path):
    """Was: accepted, then a KeyError traceback in the paper-stats job."""
    from conftest import ROOT

    from nbrepro.checks import checked_paper
    from nbrepro.errors import ConfigError

    paper = yaml.safe_load((ROOT / "config/papers/lcwnb.yaml").read_text())
    paper["figures"]["figure2"]["table"] = "table9"
    (tmp_path / "lcwnb.yaml").write_text(yaml.safe_dump(paper))
    with pytest.raises(
        ConfigError, match=r"lcwnb\.yaml, figures\.figure2: '\w+': table\(s\) \['table9'\] are not among"
    ):
        checked_paper(tmp_path / "lcwnb.yaml")


@pytest.mark.parametrize("base", ["VotingKNN", "LPMBC"])   # GridSearchCV's path and the one-fit path
def test_inner_cv_selection_refuses_to_choose_from_undefined_scores(base):
    """Was: metric='auc' with inner test folds of one class gave NaN at every grid point, and the
    first point was chosen as if it had won (issue 64)."""
    import warnings

    from nbrepro.classifiers import InnerCVSelection

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"x": rng.normal(size=12), "z": rng.normal(size=12)})
    y = pd.Series(list("aaaaaaaaaaab"))
    selection = InnerCVSelection(REGISTRY[base](), {"k": [1, 3]}, metric="auc",
                                 cv={"name": "stratified_cv", "folds": 2, "repeats": 1, "seed": 1})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # the folds' warning that class b is smaller than the folds
        with pytest.raises(ValueError, match="the inner-CV 'auc' is undefined \\(NaN\\) at every grid point"):
            selection.fit(X, y)
