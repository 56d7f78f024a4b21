# SPDX-License-Identifier: GPL-3.0-or-later
"""The worked examples of docs/extending.md, run as a reader would run them: each code block the
page marks with a ``% example: <name>`` line before it. A block edited so it no longer works, or an
API it uses changed under it, fails here."""
import re
import subprocess
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
import yaml
from conftest import ROOT
from sklearn.base import clone

PAGE = ROOT / "docs" / "extending.md"


def examples() -> dict[str, tuple[str, str]]:
    """name → (the words after the name on its marker line, the block's text)."""
    found = re.findall(r"^% example: (\S+) ?([^\n]*)\n```\w*\n(.*?)^```", PAGE.read_text(), flags=re.M | re.S)
    return {name: (rest.strip(), body) for name, rest, body in found}


def test_the_page_marks_its_examples():
    assert set(examples()) == {"dataset-file", "dataset-command", "sklearn-classifiers", "classifier", "paper-yaml",
                               "paper"}


def test_adding_a_dataset(tmp_path):
    """The file, shipped as the page shows: the command prints the page's lines, the digests in full
    where the page shortens them to their first 8 digits."""
    name, text = examples()["dataset-file"]
    (tmp_path / name).write_text(text)
    _, console = examples()["dataset-command"]
    command, *shown = console.splitlines()
    out = subprocess.run(command.removeprefix("$ "), shell=True, cwd=tmp_path, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert [re.sub(r"\b([0-9a-f]{8})[0-9a-f]{56}\b", r"\1…", line) for line in out] == shown
    assert (tmp_path / "shipped" / f"{name}.xz").is_file()


@pytest.fixture(scope="module")
def vote():
    from nbrepro.data.arff import read_arff

    frame, _ = read_arff(ROOT.parent / "shared" / "datasets" / "vote.arff")
    return frame.iloc[:, :-1], frame.iloc[:, -1]


def test_the_example_classifier_fits_predicts_and_cross_validates_by_counts(vote):
    """The page's class, as written: a scikit-learn estimator (clone, parameters checked), class
    probabilities that sum to one, m = 2 on two-valued attributes equal to Laplace's NaiveBayes, and
    count-subtracting cross-validation the same as fitting each fold."""
    from nbrepro.classifiers import NaiveBayes
    from nbrepro.evaluation.crossval import fold_probabilities

    namespace = {}
    exec(compile(examples()["classifier"][1], str(PAGE), "exec"), namespace)
    MEstimateNB = namespace["MEstimateNB"]
    X, y = vote
    model = clone(MEstimateNB(m=2.0)).fit(X, y)
    proba = model.predict_proba(X)
    assert proba.shape == (len(X), 2) and np.allclose(proba.sum(axis=1), 1.0)
    assert (model.predict(X) == y.to_numpy()).mean() > 0.85
    assert set(model.n_values_) == {2}   # every attribute two-valued: m = q is Laplace's estimate
    np.testing.assert_allclose(proba, NaiveBayes().fit(X, y).predict_proba(X), rtol=1e-12)
    with pytest.raises(ValueError, match="'m' parameter"):
        MEstimateNB(m=-1.0).fit(X, y)
    folds = [(np.setdiff1d(np.arange(len(X)), test), test) for test in np.array_split(np.arange(len(X)), 10)]
    by_counts = [f.proba for f in fold_probabilities(MEstimateNB(m=0.5), X, y, folds)]
    by_fits = [MEstimateNB(m=0.5).fit(X.iloc[tr], y.iloc[tr]).predict_proba(X.iloc[te]) for tr, te in folds]
    for a, b in zip(by_counts, by_fits, strict=True):
        np.testing.assert_array_equal(a, b)


def test_the_example_statistic_and_claim_on_li_and_li(tmp_path, monkeypatch):
    """The page's YAML added to Li & Li's config: checked when the paper loads, the statistic equal to
    Friedman's test on the printed Table 2, the claim judged on the printed numbers."""
    from nbrepro import stats
    from nbrepro.analysis.declared import declared_claims
    from nbrepro.analysis.statistics import text_statistics
    from nbrepro.checks import checked_paper
    from nbrepro.claims import lcwnb as claims_module

    paper_name, text = examples()["paper-yaml"]
    added = yaml.safe_load(text)
    config = yaml.safe_load((ROOT / "config" / "papers" / f"{paper_name}.yaml").read_text())
    config["analysis"]["statistics"] += added["analysis"]["statistics"]
    config["claims"] += added["claims"]
    config["figures"].update(added["figures"])
    path = tmp_path / f"{paper_name}.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    monkeypatch.chdir(ROOT)   # the config's paths are the project's
    paper = checked_paper(path)
    assert paper.figures["cd_nb_tan_hnb"]["kind"] == "cd_diagram"

    t2 = pd.read_csv(ROOT / "config/published/lcwnb_table2.csv").fillna({"significance": ""})
    t1 = pd.read_csv(ROOT / "config/published/lcwnb_table1.csv")
    got, ctx = text_statistics(paper, t2, t1, None, claims_module)
    value = float(got.set_index("statistic").loc["friedman_nb_tan_hnb", "value"])
    wide = t2.pivot(index="dataset", columns="method", values="mean")[["NB", "TAN", "HNB"]]
    assert value == stats.friedman(wide.to_numpy()).pvalue
    judged = declared_claims(paper, ctx, replace(ctx, source="printed"))
    claims = [c for c in judged if c.claim_id == "hnb_ranks_above_nb"]
    assert [c.source for c in claims] == ["printed", "ours"]
    assert {c.verdict for c in claims} <= {"yes", "no"} and all("mean rank" in c.evidence for c in claims)

    config["claims"][-1]["order"] = ["HNB", "XNB"]   # a method the paper does not have: refused before any job
    path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    with pytest.raises(Exception, match=r"claims\[\d+\] \(hnb_ranks_above_nb\).*\['XNB'\] are not methods"):
        checked_paper(path)


def test_the_example_paper_loads_as_a_paper(tmp_path, monkeypatch):
    """The page's smallest paper, checked as the workflow checks one before any job (its data sets
    in the registry, its classifiers built, its table's methods among them); tests/workflow/
    test_readme.py dry-runs the page's command on it."""
    from nbrepro.checks import checked_paper
    from nbrepro.data.registry import parse_registry
    from nbrepro.paper import load_yaml

    monkeypatch.chdir(ROOT)
    path = tmp_path / "my_study.yaml"
    path.write_text(examples()["paper"][1])
    registry = parse_registry(load_yaml(ROOT / "config/datasets.yaml"), "config/datasets.yaml")
    paper = checked_paper(path, registry)
    assert paper.name == "my_study" and list(paper.classifiers) == ["NB", "AODE"]


def test_the_example_scikit_learn_classifiers_load_and_run_on_mixed_data_with_missing_values(tmp_path, monkeypatch):
    """The page's scikit-learn classifiers, added to its smallest paper: checked at load as any
    classifier, built wrapped in OneHotClassifier, and fitted on labor as shipped (nominal and
    numeric attributes, missing values), every declared class a column of the probabilities."""
    from nbrepro.checks import checked_paper
    from nbrepro.classifiers import OneHotClassifier
    from nbrepro.data.fetch import load_local_copy
    from nbrepro.data.registry import parse_registry
    from nbrepro.evaluation.builders import make_classifier
    from nbrepro.paper import load_yaml

    monkeypatch.chdir(ROOT)
    config = yaml.safe_load(examples()["paper"][1])
    config["classifiers"] |= yaml.safe_load(examples()["sklearn-classifiers"][1])["classifiers"]
    path = tmp_path / "my_study.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    registry = parse_registry(load_yaml(ROOT / "config/datasets.yaml"), "config/datasets.yaml")
    paper = checked_paper(path, registry)
    X, y = load_local_copy(registry["labor"])
    assert X.isna().any().any() and any(isinstance(X[c].dtype, pd.CategoricalDtype) for c in X.columns)
    for label in ("GaussianNB-sk", "RF"):
        model = make_classifier(label, paper)
        assert isinstance(model, OneHotClassifier)
        proba = model.fit(X.iloc[::2], y.iloc[::2]).predict_proba(X.iloc[1::2])
        assert proba.shape == (len(X.iloc[1::2]), 2) and np.allclose(proba.sum(axis=1), 1)
        assert (model.predict(X.iloc[1::2]) == y.iloc[1::2].to_numpy()).mean() > 0.6

    config["classifiers"]["RF"]["params"].pop("random_state")   # not reproducible: refused at load
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    with pytest.raises(Exception, match=r"classifier 'RF'.*random_state = None"):
        checked_paper(path, registry)
