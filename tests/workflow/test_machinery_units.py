# SPDX-License-Identifier: GPL-3.0-or-later
"""Unit checks of the general machinery: protocols as splitters, config expansion and errors,
meta-estimators, fitted state, the MDL discretiser (against Weka), pairwise tables."""
import numpy as np
import pandas as pd
import pytest
from conftest import DATA_DIR, ROOT
from oracles import needs_weka, weka_filter

from nbrepro.errors import ConfigError
from nbrepro.evaluation.builders import build_estimator
from nbrepro.metrics import make_metric, paper_metrics
from nbrepro.paper import Gap, Paper, Preprocessing, Protocol, expand_classifiers, thawed
from nbrepro.protocols import ProtocolError, WekaCV, make_folds, make_splitter


def _y(counts):
    return pd.Series(pd.Categorical.from_codes(np.repeat(np.arange(len(counts)), counts),
                                               [f"c{i}" for i in range(len(counts))]))


def test_stratified_cv_is_seeded_stratified_and_a_partition():
    y = _y([30, 12])
    a = make_folds({"name": "stratified_cv", "folds": 3, "repeats": 2, "seed": 7}, y)
    b = make_folds({"name": "stratified_cv", "folds": 3, "repeats": 2, "seed": 7}, y)
    assert [(f.run, f.fold) for f in a] == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]
    assert all(np.array_equal(f.test, g.test) for f, g in zip(a, b, strict=True))
    for run in (1, 2):
        tests = np.concatenate([f.test for f in a if f.run == run])
        assert sorted(tests) == list(range(42))
    assert all(np.sum(y.cat.codes.to_numpy()[f.test] == 1) == 4 for f in a)   # 12 / 3 per fold
    c = make_folds({"name": "stratified_cv", "folds": 3, "repeats": 2, "seed": 8}, y)
    assert not all(np.array_equal(f.test, g.test) for f, g in zip(a, c, strict=True))


def test_two_fold_trials_and_splitter_api():
    y = _y([10, 10])
    s = make_splitter({"name": "two_fold_trials", "trials": 5, "seed": 1})
    assert s.get_n_splits() == 10
    folds = list(s.split(np.zeros((20, 1)), y))
    assert len(folds) == 10 and all(len(tr) == 10 and len(te) == 10 for tr, te in folds)
    # Weka CV as a splitter gives Weka's folds
    w = WekaCV(n_splits=3, runs=(1, 2))
    assert w.get_n_splits() == 6
    assert [len(te) for _, te in w.split(None, y)] == [len(f.test) for f in make_folds(
        {"name": "weka_cv", "folds": 3, "runs": {"first": 1, "last": 2}}, y)]


@pytest.mark.parametrize("spec, message", [
    ({"name": "stratified_cv", "folds": 5, "repeats": 1, "seed": 1, "small_classes": "error"}, "'c1' (3 rows)"),
    ({"name": "stratified_cv", "folds": 50, "repeats": 1, "seed": 1}, "needs at least 50 rows"),
    ({"name": "weka_cv", "folds": 3, "runs": {"first": 5, "last": 1}}, "first (5) is after last (1)"),
    ({"name": "leave_one_out"}, "unknown protocol"),
    ({"name": "two_fold_trials"}, "needs 'trials'"),
])
def test_protocol_errors_name_the_problem(spec, message):
    with pytest.raises(ProtocolError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_folds(spec, _y([20, 3]), ["c0", "c1"])


def test_grid_expands_with_labels_and_nested_keys():
    specs = expand_classifiers({
        "K": {"estimator": "LCWNB", "label": "LCWNB{kappa}", "grid": {"kappa": [5, 10]}},
        "C": {"estimator": "Calibrated", "label": "Cal(F={estimator__frequency_limit})",
              "params": {"estimator": {"estimator": "AODE"}}, "grid": {"estimator__frequency_limit": [1, 30]}},
        "NB": {"estimator": "NaiveBayes"}})
    assert list(specs) == ["LCWNB5", "LCWNB10", "Cal(F=1)", "Cal(F=30)", "NB"]
    assert specs["LCWNB10"]["params"] == {"kappa": 10} and specs["LCWNB10"]["grid_of"] == "K"
    est = build_estimator(specs["Cal(F=30)"], "test")
    assert est.estimator.frequency_limit == 30


@pytest.mark.parametrize("spec, message", [
    ({"estimator": "NaiveBays"}, "unknown estimator 'NaiveBays'"),
    ({"estimator": "AODE", "params": {"frequency_limt": 2}}, r"AODE has no parameter\(s\) \['frequency_limt'\]"),
    ({"estimator": "Calibrated", "params": {"estimator": {"estimator": "Nope"}}}, "→ estimator: unknown estimator"),
    ({"estimator": "NaiveBayes", "steps": [{"discretise": {}}]}, "unknown step 'discretise'"),
    ({"estimator": "LCWNB", "params": {"kappa": "5"}},
     r"The 'kappa' parameter of LCWNB must be a float in the range \(0.0, inf\). Got '5' instead"),
    ({"estimator": "FrequencyGaussianNB", "params": {"use_prior": "no"}},
     "The 'use_prior' parameter of FrequencyGaussianNB must be an instance of 'bool'"),
    # a scikit-learn classifier by import path: each check it gets before any job
    ({"estimator": "sklearn.naive_bayes.GausianNB"}, "module 'sklearn.naive_bayes' has no 'GausianNB'"),
    ({"estimator": "sklearn.nope.X"}, "module 'sklearn.nope' cannot be imported"),
    ({"estimator": "sklearn.linear_model.LinearRegression"}, "is not a classifier"),
    ({"estimator": "sklearn.naive_bayes.GaussianNB", "params": {"k": 1}}, r"GaussianNB has no parameter\(s\) \['k'\]"),
    ({"estimator": "sklearn.naive_bayes.GaussianNB", "params": {"var_smoothing": -1}}, "var_smoothing"),
    ({"estimator": "sklearn.svm.SVC", "params": {"random_state": 0}}, "no class probabilities.*probability: true"),
    ({"estimator": "sklearn.ensemble.BaggingClassifier",
      "params": {"random_state": 0, "estimator": {"estimator": "sklearn.tree.DecisionTreeClassifier"}}},
     "estimator__random_state = None"),
])
def test_estimator_spec_errors_name_the_key(spec, message):
    with pytest.raises(ConfigError, match=message):
        build_estimator(spec, "paper x, classifier 'c'")


def test_a_scikit_learn_classifier_by_import_path_is_wrapped_once():
    from sklearn.ensemble import BaggingClassifier
    from sklearn.naive_bayes import GaussianNB

    from nbrepro.classifiers import Calibrated, OneHotClassifier

    est = build_estimator({"estimator": "sklearn.naive_bayes.GaussianNB", "params": {"var_smoothing": 1e-6}}, "t")
    assert isinstance(est, OneHotClassifier) and est.estimator.get_params()["var_smoothing"] == 1e-6
    # the base of an imported meta-estimator gets the outer one's encoded input: not wrapped again
    est = build_estimator({"estimator": "sklearn.ensemble.BaggingClassifier", "params": {
        "random_state": 0, "estimator": {"estimator": "sklearn.naive_bayes.GaussianNB"}}}, "t")
    assert isinstance(est.estimator, BaggingClassifier) and isinstance(est.estimator.estimator, GaussianNB)
    # the base of one of nbrepro's meta-estimators takes the paper's columns: wrapped
    est = build_estimator({"estimator": "Calibrated", "params": {
        "estimator": {"estimator": "sklearn.naive_bayes.GaussianNB"}}}, "t")
    assert isinstance(est, Calibrated) and isinstance(est.estimator, OneHotClassifier)


def test_metric_config_errors():
    with pytest.raises(ConfigError, match="unknown metric 'aucc'"):
        paper_metrics(Paper.from_config({"paper": "x", "metrics": ["aucc"]}))
    with pytest.raises(ConfigError, match="'mse' has no key 'definitoin'"):
        make_metric("mse", "mse", {"definitoin": "brier"})
    with pytest.raises(ConfigError, match="definition must be one of"):
        make_metric("mse", "mse", {"definition": "squared"})
    assert not make_metric("err", "error").higher_is_better


def _nominal(n=120, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 3, n)
    y = (a + rng.integers(0, 2, n)) % 3
    X = pd.DataFrame({"a": pd.Categorical.from_codes(a, ["x", "y", "z"]),
                      "b": pd.Categorical.from_codes(rng.integers(0, 2, n), ["p", "q"])})
    return X, pd.Series(pd.Categorical.from_codes(y, ["k0", "k1", "k2"]))


def test_inner_cv_selection_records_its_choice_and_refits():
    from nbrepro.classifiers import AODE, InnerCVSelection
    from nbrepro.evaluation.crossval import fold_probabilities

    X, y = _nominal()
    sel = InnerCVSelection(AODE(), {"frequency_limit": [1, 500]}, cv={"name": "stratified_cv", "folds": 3,
                                                                      "repeats": 1, "seed": 1}, metric="accuracy")
    sel.fit(X, y)
    # a limit of 500 > n leaves no parent: AODE falls back to NB, which fits this data worse
    assert sel.selected_params_ == {"frequency_limit": 1}
    assert sel.predict_proba(X).shape == (120, 3) and list(sel.classes_) == ["k0", "k1", "k2"]
    (res,) = fold_probabilities(sel, X, y, [(np.arange(100), np.arange(100, 120))], record=["selected_params_"])
    again = InnerCVSelection(AODE(), {"frequency_limit": [1, 500]}, cv=sel.cv).fit(X.iloc[:100], y.iloc[:100])
    assert res.recorded == {"selected_params_": again.selected_params_}


def test_calibrated_probabilities_are_a_logistic_map_of_the_base():
    from nbrepro.classifiers import Calibrated, NaiveBayes

    X, y = _nominal()
    cal = Calibrated(NaiveBayes(), cv={"name": "weka_cv", "folds": 5, "runs": {"first": 1, "last": 1}}).fit(X, y)
    p = cal.predict_proba(X)
    assert np.allclose(p.sum(axis=1), 1) and p.shape == (120, 3)
    base = NaiveBayes().fit(X, y).predict_proba(X)
    # the meta model sees the base probabilities only: equal base rows give equal calibrated rows
    same = np.all(np.isclose(base[:, None, :], base[None, :, :]), axis=2)
    assert np.all(np.isclose(p[:, None, :], p[None, :, :]).all(axis=2)[same])


def test_flatten_state():
    from nbrepro.evaluation.experiment import flatten_state

    assert flatten_state({"k": 5, "model": "LCA"}) == [("k", 5.0, ""), ("model", np.nan, "LCA")] or \
        flatten_state({"k": 5, "model": "LCA"})[0] == ("k", 5.0, "")
    rows = flatten_state(np.array([[1.0, 2.0], [3.0, 4.0]]))
    assert [r[0] for r in rows] == ["0,0", "0,1", "1,0", "1,1"] and [r[1] for r in rows] == [1, 2, 3, 4]


@needs_weka
@pytest.mark.parametrize("name", ["iris", "diabetes", "glass", "labor", "hepatitis", "ionosphere", "vehicle"])
@pytest.mark.parametrize("options", [(), ("-K",), ("-E",), ("-K", "-E")])
def test_mdl_discretizer_matches_weka(tmp_path, name, options):
    """MDL on the whole file against Weka 3.6's supervised Discretize: Fayyad–Irani (default),
    Kononenko (-K), and either with the better encoding of cut points (-E)."""
    from nbrepro.data.arff import read_arff
    from nbrepro.preprocess import MDLDiscretizer

    src = DATA_DIR / f"{name}.arff"
    weka_filter(src, tmp_path / "mdl.arff", "weka.filters.supervised.attribute.Discretize", "-R", "first-last",
                *options, "-c", "last")
    weka, _ = read_arff(tmp_path / "mdl.arff")
    df, _ = read_arff(src)
    X, y = df.iloc[:, :-1], df.iloc[:, -1]
    ours = MDLDiscretizer(criterion="kononenko" if "-K" in options else "fayyad_irani",
                          better_encoding="-E" in options).fit_transform(X, y)
    for c in X.columns:
        if isinstance(X[c].dtype, pd.CategoricalDtype):
            continue
        assert len(ours[c].cat.categories) == len(weka[c].cat.categories), c
        assert ours[c].cat.codes.tolist() == weka[c].cat.codes.tolist(), c


def test_pairwise_table_reads_the_published_lower_triangle(tmp_path):
    """kdebw_table2.csv stores row-vs-column records of the lower triangle; the reverse pair is flipped."""
    from nbrepro.analysis.tables import analyse_table

    rng = np.random.default_rng(0)
    paper = {"paper": "p", "datasets": ["d1", "d2", "d3"], "metrics": ["error"],
             "classifiers": {"DIS": {}, "NRD-I": {}, "SP": {}},
             "tables": {"t": {"kind": "pairwise", "methods": ["DIS", "NRD-I", "SP"], "measures": {"ERROR": "error"},
                              "published": str(ROOT / "config/published/kdebw_table2.csv")}}}
    for ds in paper["datasets"]:
        (tmp_path / "folds" / ds).mkdir(parents=True)
        for i, m in enumerate(paper["classifiers"]):
            folds = pd.DataFrame({"variant": "", "run": [1, 1], "fold": [0, 1], "n_train": 5, "n_test": 5,
                                  "error": [10.0 * i + rng.random(), 10.0 * i]})
            folds.to_parquet(tmp_path / "folds" / ds / f"{m}.parquet")
    out = analyse_table(Paper.from_config(paper), "t", tmp_path)
    t = out["tables/t.csv"].set_index(["row_method", "col_method"])
    # SP has the highest error everywhere, so it loses to both (lower is better for error)
    assert tuple(t.loc[("SP", "DIS"), ["wins", "ties", "losses"]]) == (0, 0, 3)
    assert tuple(t.loc[("SP", "DIS"), ["published_wins", "published_ties", "published_losses"]]) == (33, 0, 19)
    assert tuple(t.loc[("NRD-I", "DIS"), ["published_wins", "published_ties", "published_losses"]]) == (32, 0, 20)
    ranks = out["tables/t_summary.csv"].set_index("method")["mean_rank_among_computed"]
    assert ranks.to_dict() == {"DIS": 1.0, "NRD-I": 2.0, "SP": 3.0}


def test_pairwise_table_tests_each_record_ours_and_printed(tmp_path):
    """Liu et al.'s Table 2 bold: a two-sided sign test of each w/t/l record (ties split)."""
    from scipy.stats import binomtest

    from nbrepro.analysis.tables import analyse_table
    from nbrepro.report.html import pairwise_html

    datasets = [f"d{i}" for i in range(6)]
    paper = {
        "paper": "p",
        "datasets": datasets,
        "metrics": ["error"],
        "classifiers": {"SP": {}, "BCV": {}},
        "tables": {
            "t": {
                "kind": "pairwise",
                "methods": ["SP", "BCV"],
                "measures": {"ERROR": "error"},
                "record_test": {"test": "sign_test", "ties": "split", "alpha": 0.05},
                "published": str(ROOT / "config/published/kdebw_table2.csv"),
            }
        },
    }
    for j, ds in enumerate(datasets):
        (tmp_path / "folds" / ds).mkdir(parents=True)
        for i, m in enumerate(paper["classifiers"]):  # BCV's error is lower on every data set
            pd.DataFrame(
                {"variant": "", "run": [1], "fold": [0], "n_train": 5, "n_test": 5, "error": [10.0 - 5 * i + j]}
            ).to_parquet(tmp_path / "folds" / ds / f"{m}.parquet")
    t = analyse_table(Paper.from_config(paper), "t", tmp_path)["tables/t.csv"].set_index(["row_method", "col_method"])
    ours = t.loc[("BCV", "SP")]
    assert (ours.wins, ours.ties, ours.losses) == (6, 0, 0)
    assert ours.record_p == pytest.approx(2 * 0.5**6) and ours.significant == "yes"  # 1/32
    printed = t.loc[("BCV", "SP")]  # printed 15/1/36: the odd tie dropped, 15 of 51
    assert (
        printed.published_record_p == pytest.approx(binomtest(15, 51, 0.5).pvalue)
        and printed.published_significant == "yes"
    )
    page = pairwise_html(t.reset_index(), "Table 2", paper["tables"]["t"]["record_test"])
    assert "<b>6/0/0</b>" in page and "published <b>15/1/36</b>" in page and "two-sided sign test" in page


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda p: p.update(reference="LCWNB7"), "reference: 'LCWNB7' is not a classifier"),
        (lambda p: p["tables"]["table2"]["methods"].append("NB2"), r"tables.table2: \['NB2'\] name no classifier"),
        (lambda p: p["protocol"]["runs"].update(first=5, last=1), "protocol: .*first \\(5\\) is after last"),
        (lambda p: p["tables"]["table2"].update(metric="auc"), r"metric column\(s\) \['auc'\]"),
        (
            lambda p: p["classifiers"]["NB"].update(params={"laplace": 2}),
            "classifier 'NB': NaiveBayes has no parameter",
        ),
    ],
)
def test_check_paper_catches_what_the_schema_cannot(change, message):

    from nbrepro.checks import check_sections, checked_paper

    paper = thawed(checked_paper(ROOT / "config/papers/lcwnb.yaml"))  # check_paper sees the config as written
    change(paper)
    with pytest.raises(ConfigError, match=message):
        check_sections(Paper.from_config(paper), "config/papers/lcwnb.yaml")


def test_float_array_is_never_read_as_nominal_silently():
    from nbrepro.classifiers import AODE
    from nbrepro.classifiers._nominal import FloatAsNominalWarning

    rng = np.random.default_rng(0)
    X, y = rng.random((30, 2)), np.repeat([0, 1], 15)
    with pytest.warns(FloatAsNominalWarning, match="float array with non-integer values"):
        AODE().fit(X, y)
    with pytest.raises(TypeError, match="is numeric"):
        AODE().fit(pd.DataFrame(X, columns=["a", "b"]), y)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        AODE().fit(np.floor(X * 3), y)  # integer-valued codes: nominal, no warning


@pytest.mark.parametrize("better_encoding", [False, True])
def test_mdl_columns_compiled_equals_the_one_column_recursion(better_encoding):
    """The compiled many-column Fayyad–Irani cuts are exactly ``mdl_cut_points`` column by column:
    ties between values, missing values, unlabelled rows, constant and single-row columns."""
    from nbrepro.preprocess.mdl import mdl_cut_points, mdl_cut_points_columns

    rng = np.random.default_rng(7)
    for trial in range(60):
        n, r = int(rng.integers(1, 300)), int(rng.integers(2, 6))
        y = rng.integers(0, r, n)
        y[rng.random(n) < 0.03] = -1
        cols = [
            np.round(rng.normal(y * rng.random(), 1.0, n), int(rng.integers(0, 3))),
            rng.integers(0, 4, n).astype(float),
            np.full(n, 2.5),
            rng.normal(size=n),
        ]
        X = np.column_stack(cols)
        X[rng.random(X.shape) < 0.05] = np.nan
        got = mdl_cut_points_columns(X, y, r, better_encoding=better_encoding)
        for j in range(X.shape[1]):
            want = mdl_cut_points(X[:, j], y, r, better_encoding=better_encoding)
            assert np.array_equal(got[j], np.asarray(want)), (trial, j)


def test_progress_lines_count_folds_and_estimate_the_rest():
    import io

    from nbrepro.runtime.progress import Progress

    out = io.StringIO()
    p = Progress("waveform", 100, stream=out, every=0.0)
    p.step("NBTree", 25)
    p.step("NBTree", 0, finished=True)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("[progress] waveform NBTree: 25/100 folds, 0m00s elapsed, about ")
    assert lines[1].endswith("(done)")
    quiet, console = io.StringIO(), io.StringIO()
    q = Progress("x", 10, stream=quiet, every=3600.0, console=console, console_every=3600.0)
    q.step("A")
    assert quiet.getvalue() == "" and console.getvalue() == ""
    # a long job's line reaches stdout (Snakemake's console) too, less often than its log
    q.console_every = 0.0
    q.step("A", 4)
    assert console.getvalue().startswith("[progress] x A: 5/10 folds") and "left at this pace" in console.getvalue()


def test_timings_page_ranks_columns_by_their_seconds(tmp_path):
    import pandas as pd

    from nbrepro.report.html import run_report

    t = pd.DataFrame(
        {
            "dataset": ["a", "a", "b", "b"],
            "method": ["NB", "Tree", "NB", "Tree"],
            "fit_seconds": [1.0, 10.0, 2.0, 30.0],
            "predict_seconds": [0.5, 1.0, 0.5, 1.0],
        }
    )
    text = run_report(Paper.from_config({"paper": "x", "title": "X"}), t, tmp_path / "run.html", {"commit": "abc"})
    assert "All columns: 46 s" in text
    assert text.index("<td>Tree</td>") < text.index("<td>NB</td>")  # heaviest first
    assert "<td>b</td><td>31.0</td>" in text  # Tree's heaviest data set and its seconds


def test_the_experiment_in_words():
    from nbrepro.report.words import estimator_in_words, preprocessing_in_words, protocol_in_words

    assert protocol_in_words(Protocol.build({"name": "weka_cv", "folds": 10, "runs": {"first": 1, "last": 10}})) == (
        "10 runs of stratified 10-fold cross-validation with Weka 3.6's fold assignment "
        "(runs seeded 1–10, training rows in Weka's order)"
    )
    assert protocol_in_words(Protocol.build({"name": "two_fold_trials", "trials": 30, "seed": 1})).startswith(
        "30 trials of stratified 2-fold"
    )
    pre = {
        "scope": "dataset",
        "complete_cases": False,
        "steps": [{"replace_missing": {}}, {"discretize_equal_width": {"n_bins": 10}}],
        "per_dataset": {"zoo": {"steps": [{"remove_columns": {"columns": ["animal"]}}], "why": "an identifier"}},
    }
    assert preprocessing_in_words(Preprocessing.build(pre)) == (
        "missing values replaced (modes of nominal, means of numeric attributes) and numeric attributes cut into "
        "10 equal-width bins on the whole data set; zoo: 'animal' removed (an identifier)"
    )
    spec = {
        "estimator": "Calibrated",
        "params": {
            "estimator": {
                "estimator": "Bagging",
                "params": {"estimator": {"estimator": "J48", "params": {"unpruned": True}}, "n_estimators": 10},
            }
        },
    }
    assert estimator_in_words(spec) == "Calibrated(Bagging(J48(unpruned=True), n_estimators=10))"
    kernel = {"estimator": "KernelNB", "params": {"bandwidth": "weka", "estimator": "weka"}}
    assert estimator_in_words(kernel) == "KernelNB(bandwidth='weka', estimator='weka')"


def test_report_opens_with_the_result_at_a_glance(tmp_path):
    import pandas as pd

    from nbrepro.analysis.counts import COLUMNS
    from nbrepro.report.html import _glance

    # A: 10 printed, all computed (7 exact, 2 more within 0.5, 1 more within 1.0); B: 10 printed, 8 computed
    # (1 exact, 3 + 2 within the tolerances, 2 further off)
    counts = pd.DataFrame(
        [["t2", "A", "accuracy", "points", 0.5, 1.0, 10, 10, 10, 7, 2, 1, 0, 0, 0, 0, 0.9],
         ["t2", "B", "accuracy", "points", 0.5, 1.0, 10, 10, 8, 1, 3, 2, 2, 2, 0, 0, 3.0]], columns=COLUMNS)
    from nbrepro.analysis import Claim, claims_frame

    claims = claims_frame(
        [
            Claim("c", "4", "x", "printed", "yes", ""),
            Claim("c", "4", "x", "ours", "yes", ""),
            Claim("c", "4", "x", "ours", "no", ""),
        ]
    )
    text = _glance(
        Paper.from_config({"paper": "p", "gaps": [{"cells": "Table 2, glass", "explanation": "why"}]}),
        {
            "stats/match_counts.csv": counts,
            "stats/claims.csv": claims,
            "nbrepro_version": "0.1.0",
            "config_sha256": "ab" * 32,
        },
    )
    assert "Of <b>20</b> cells the paper printed, <b>8</b> reproduce exactly" in text
    assert ("5 more lie within the metric's first tolerance, 3 more within its second, 2 further off, "
            "2 not computed") in text
    assert "on the paper's own printed numbers: 1 hold, 0 do not; on ours: 1 hold, 1 do not" in text
    assert "<a href='#gap-1'>Table 2, glass</a>" in text and "run.html" in text
    # a data set the paper did not print is not "further off" (issue 63), nor printed (issue 81)
    b = counts.iloc[[1]].assign(printed=6, compared=6, further_off=0, not_computed=0, computed_not_printed=2)
    text = _glance(Paper.from_config({"paper": "p"}),
                   {"stats/match_counts.csv": b, "nbrepro_version": "0.1.0", "config_sha256": "ab" * 32})
    assert "Of <b>6</b> cells the paper printed, <b>1</b> reproduce" in text and "0 further off." in text
    assert "2 of our cells have no printed value" in text


def test_fingerprint_leaves_out_marked_machine_details(tmp_path):
    from nbrepro.fingerprint import fingerprint
    from nbrepro.report.html import machine_dependent

    for name, when in (("a", "03:00"), ("b", "04:17")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "report.html").write_text(f"<p>cells 7 {machine_dependent('made ' + when)}</p>")
    assert fingerprint(tmp_path / "a") == fingerprint(tmp_path / "b")
    (tmp_path / "b" / "report.html").write_text(f"<p>cells 8 {machine_dependent('made 03:00')}</p>")
    assert fingerprint(tmp_path / "a") != fingerprint(tmp_path / "b")


def test_index_has_a_row_per_paper_with_cells_claims_and_time(tmp_path):
    import pandas as pd

    from nbrepro.analysis.counts import COLUMNS
    from nbrepro.report.html import index_report

    counts = pd.DataFrame([["t2", "A", "accuracy", "points", 0.5, 1.0, 10, 10, 10, 6, 2, 1, 1, 0, 0, 0, 2.0]],
                          columns=COLUMNS)
    claims = pd.DataFrame({"source": ["printed", "ours"], "verdict": ["yes", "no"]})
    index_report(
        [
            {
                "name": "p",
                "title": "P",
                "counts": counts,
                "claims": claims,
                "seconds": 600.0,
                "figure": "../figures/p/t2_reproduced_vs_published.svg",
            }
        ],
        tmp_path / "index.html",
    )
    text = (tmp_path / "index.html").read_text()
    assert "<td>10</td><td>6</td><td>2</td><td>1</td><td>1</td><td>—</td><td>1 / 1</td><td>0 / 1</td>" in text
    assert "not comparable</th>" not in text   # a column no paper has a cell of is left out
    assert "<!--machine-->10 CPU-min<!--/machine-->" in text and "p/report.html" in text   # never "0 min"
    # the exact cells by method, and the figure as a link (a 160 px thumbnail of it was unreadable)
    assert "A 6/10 <a class='small' href='../figures/p/t2_reproduced_vs_published.svg'>figure</a>" in text
    assert "<img" not in text
    assert "Speed" not in text  # no measured jobs given
    from nbrepro.report.html import cpu_time

    assert [cpu_time(s) for s in (0.04, 42.6, 1230, 4708)] == ["0.04 CPU-s", "43 CPU-s", "20 CPU-min", "1.3 CPU-h"]


def test_index_shows_the_suites_heaviest_jobs_as_committed():
    """The speed section reads benchmarks/results/suite_top_jobs.csv, the file the index rule gives it."""

    import pandas as pd

    from nbrepro.report.html import _speed_section

    top = pd.read_csv(ROOT / "benchmarks/results/suite_top_jobs.csv")
    text = "".join(_speed_section(top))
    first = top.iloc[0]
    assert text.count("<tr>") == len(top) + 1
    assert f"<td class='l'>{first.dataset}</td><td>{first.cpu_seconds:.0f}</td>" in text
    missing = top.head(1).assign(fit_seconds=float("nan"), heaviest_share=float("nan"))
    assert "<td>—</td>" in "".join(_speed_section(missing))


def test_summary_counts_significant_wins_ties_losses_against_the_reference():
    from nbrepro.analysis.tables import summary
    from nbrepro.report.html import table_html

    nan = float("nan")
    rows = []
    for ds, sig, psig in [("a", "better", "better"), ("b", "worse", ""), ("c", "", "worse"), ("d", "", nan)]:
        rows.append(
            dict(
                dataset=ds,
                method="R",
                metric="accuracy",
                mean=80.0,
                std=1.0,
                published_mean=80.0,
                published_std=1.0,
                significance="",
                published_significance="",
                mean_decimals=2,
                std_decimals=2,
            )
        )
        rows.append(
            dict(
                dataset=ds,
                method="M",
                metric="accuracy",
                mean=81.0,
                std=1.0,
                published_mean=nan if ds == "d" else 81.0,
                published_std=1.0,
                significance=sig,
                published_significance=psig,
                mean_decimals=2,
                std_decimals=2,
            )
        )
    table = pd.DataFrame(rows)
    s = summary(table, None, {"accuracy": True}, reference="R").set_index("method")
    # ours over all four data sets; the printed markers only where a published value exists (three)
    assert s.loc["M", "wtl"] == "1/2/1" and s.loc["M", "published_wtl"] == "1/1/1"
    assert s.loc["R", "wtl"] == "" and "wtl" not in summary(table, None, {"accuracy": True}).columns
    page = table_html(table, "t", summary=s.reset_index())
    assert "w/t/l (significant)" in page and "<span class='ours'>1/2/1</span><span class='pub'>1/1/1</span>" in page


def test_summary_leaves_out_the_published_wtl_of_columns_whose_markers_were_lost():
    from nbrepro.analysis.tables import summary

    rows = [
        dict(
            dataset=ds,
            method=m,
            metric="accuracy",
            mean=80.0,
            std=1.0,
            published_mean=80.0,
            published_std=1.0,
            significance="worse" if m == "M" else "",
            published_significance="",
            mean_decimals=2,
            std_decimals=2,
        )
        for ds in "ab"
        for m in ("R", "M")
    ]
    s = summary(pd.DataFrame(rows), None, {"accuracy": True}, reference="R", markers_printed=[]).set_index("method")
    assert s.loc["M", "wtl"] == "0/0/2" and s.loc["M", "published_wtl"] == ""


def test_index_shows_the_last_whole_suite_run():
    """The index states the whole suite's wall time, peak memory and results size from
    benchmarks/results/suite_run.csv, and each paper's share of the CPU."""
    import pandas as pd

    from nbrepro.report.html import _suite_run_section

    run = pd.DataFrame(
        [
            dict(
                paper="a",
                evaluation_jobs=3,
                cpu_seconds=600.0,
                job_wall_seconds=700.0,
                peak_rss_mb=300.0,
                results_mb=10.0,
            ),
            dict(
                paper="b",
                evaluation_jobs=1,
                cpu_seconds=1800.0,
                job_wall_seconds=1900.0,
                peak_rss_mb=900.0,
                results_mb=5.0,
            ),
            dict(
                paper="all",
                evaluation_jobs=4,
                cpu_seconds=2400.0,
                job_wall_seconds=2600.0,
                peak_rss_mb=950.0,
                results_mb=15.5,
                run_wall_seconds=1500.0,
                commit="abc1234",
                machine="x86_64, 2 cores",
            ),
        ]
    )
    text = "".join(_suite_run_section(run))
    assert "<b>25 min wall</b>" in text and "0.67 CPU-hours in 4 evaluation jobs" in text
    assert "peak memory 950 MB" in text and "abc1234" in text
    assert "<td class='l'>b</td><td>1</td><td>1800</td><td>75.0 %</td>" in text
    assert text.count("<tr>") == 3 and "reference units" not in text
    run["reference_units"] = [250.0, 750.0, 1000.0]  # a calibrated machine: the cost any machine converts
    assert "4 evaluation jobs = 1000 reference units" in "".join(_suite_run_section(run))


@pytest.mark.parametrize("stored", ["none", "float32"])
def test_compact_predictions_move_no_result(tmp_path, stored):
    """Liu et al.'s predictions are stored without probabilities (stored_probabilities: none): the
    fold results are the same bytes, the labels the same, and the Kohavi–Wolpert terms, which read
    the labels, the same values; float32 keeps the probabilities at half the size."""

    from nbrepro.analysis.tables import dataset_level_values
    from nbrepro.checks import checked_paper
    from nbrepro.evaluation.experiment import evaluate
    from nbrepro.protocols import make_folds

    paper = checked_paper(ROOT / "config/papers/kdebw.yaml")
    assert paper.stored_probabilities == "none"
    rng = np.random.default_rng(5)
    frame = pd.DataFrame(rng.normal(size=(120, 3)), columns=["a", "b", "c"])
    frame["class"] = pd.Categorical(np.where(frame["a"] + rng.normal(size=120) > 0, "hi", "lo"))
    frame.to_parquet(tmp_path / "d.parquet")
    made = make_folds(paper.protocol, frame["class"].cat.codes.to_numpy())
    pd.DataFrame(
        [(f.run, f.fold, f.train, f.test) for f in made][:8], columns=["run", "fold", "train", "test"]
    ).to_parquet(tmp_path / "f.parquet")
    metrics = {c: m for c, m in paper_metrics(paper).items() if m.level == "dataset"}
    got = {}
    for tag, how in (("full", "float64"), ("compact", stored)):
        variant = paper.replaced(stored_probabilities=how)
        out = tmp_path / tag
        for kind in ("folds", "predictions"):
            (out / kind / "d").mkdir(parents=True)
        evaluate(
            variant,
            "d",
            "NRD",
            tmp_path / "d.parquet",
            tmp_path / "f.parquet",
            out / "folds/d/NRD.parquet",
            out / "predictions/d/NRD.parquet",
        )
        got[tag] = (
            pd.read_parquet(out / "folds/d/NRD.parquet"),
            pd.read_parquet(out / "predictions/d/NRD.parquet"),
            dataset_level_values(Paper.from_config({"datasets": ["d"]}), out, metrics, ["NRD"])[("d", "NRD")],
        )
    (folds, pred, kw), (cfolds, cpred, ckw) = got["full"], got["compact"]
    timing = ["fit_seconds", "predict_seconds"]
    pd.testing.assert_frame_equal(folds.drop(columns=timing), cfolds.drop(columns=timing), check_exact=True)
    labels = ["variant", "run", "fold", "row", "y", "y_pred"]
    pd.testing.assert_frame_equal(pred[labels], cpred[labels], check_exact=True)
    assert kw == ckw and kw["kw_variance"] > 0
    assert cpred.attrs["classes"] == ["hi", "lo"]
    probs = ["p:hi", "p:lo"]
    if stored == "none":
        assert list(cpred.columns) == labels
    else:
        assert (cpred[probs].dtypes == np.float32).all()
        np.testing.assert_array_equal(cpred[probs].to_numpy(), pred[probs].to_numpy().astype(np.float32))


def test_no_stored_probabilities_refuses_a_metric_that_reads_them(monkeypatch):

    from nbrepro import metrics
    from nbrepro.checks import check_sections, checked_paper

    kind = metrics.METRICS["log_loss"]
    pooled = metrics.MetricKind("pooled_log_loss", kind.function, "lower", "nats", "dataset", kind.tolerances)
    monkeypatch.setitem(metrics.METRICS, "pooled_log_loss", pooled)
    paper = thawed(checked_paper(ROOT / "config/papers/kdebw.yaml"))  # check_paper sees the config as written
    check_sections(Paper.from_config(paper), "kdebw.yaml")
    paper["metrics"] = paper["metrics"] + ["pooled_log_loss"]
    with pytest.raises(ConfigError, match=r"stored_probabilities: none.*\['pooled_log_loss'\]"):
        check_sections(Paper.from_config(paper), "kdebw.yaml")


def test_the_claims_page_groups_each_claim_by_its_two_verdicts(tmp_path):
    from nbrepro.analysis import Claim, claims_frame
    from nbrepro.report.claims_page import claims_page

    def both(cid, printed, ours, **today):
        return [
            Claim(cid, "4", f"sentence {cid}", "printed", printed, "p-evidence"),
            Claim(cid, "4", f"sentence {cid}", "ours", ours, "o-evidence", **today),
        ]

    rows = (
        both("a", "yes", "yes")
        + both("b", "yes", "no")
        + both("c", "no", "no")
        + both("d", "not checkable", "yes", wilcoxon_holm="no", bayesian="undecided", stability=0.41, fragile="yes")
        + [Claim("e", "5", "sentence e", "ours", "not yet computable", "")]
        + both("f", "yes", "not computable")
    )
    papers = [
        {
            "name": "p",
            "title": "Paper P",
            "claims": claims_frame(rows),
            "gaps": (Gap.build({"cells": "Table 2", "explanation": "another data version"}),),
        },
        {"name": "q", "title": "Paper Q (no claims)", "claims": None},
    ]
    wide = claims_page(papers, tmp_path / "claims.html", tmp_path / "claims.csv").set_index("claim_id")
    assert wide.group.to_dict() == {
        "a": "reproduced",
        "b": "not_reproduced",
        "c": "contradicted",
        "d": "ours_only",
        "e": "open",
        "f": "open",
    }
    assert wide.loc["e", "printed"] == "not checkable"  # no printed row: said so, not left blank
    page = (tmp_path / "claims.html").read_text()
    assert "printed numbers do not support it (1)" in page and "41% fragile" in page
    assert "on ours 2 of 4 (1 not computable: the statistic is undefined on our numbers)" in page
    assert "another data version" in page and "<script" not in page
    assert "#q'" not in page  # a paper with no claims has no section to link to
    csv = pd.read_csv(tmp_path / "claims.csv")
    assert list(csv.columns[:3]) == ["paper", "claim_id", "section"] and len(csv) == 11
