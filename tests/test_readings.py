# SPDX-License-Identifier: GPL-3.0-or-later
"""Readings (nbrepro.paper.readings): typed patches of a paper's spec, checked before any job; what each
touches; which a run selects; and the fit scores of nbrepro.analysis.reading_fits."""
import copy
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from conftest import checked

from nbrepro.analysis.reading_fits import fit_rows, robustness
from nbrepro.checks import checked_paper
from nbrepro.errors import ConfigError
from nbrepro.paper import read_paper
from nbrepro.paper.readings import apply_reading, merged, select_readings, touched
from nbrepro.variants import variant

ROOT = Path(__file__).resolve().parents[1]
PAPERS = sorted(p.stem for p in (ROOT / "config/papers").glob("*.yaml"))

TINY = {
    "paper": "tiny",
    "datasets": ["iris"],
    "preprocessing": {"scope": "dataset", "steps": [{"discretize_equal_width": {"n_bins": 10}}]},
    "protocol": {"name": "stratified_cv", "folds": 3, "repeats": 1, "seed": 1},
    "classifiers": {"NB": {"estimator": "NaiveBayes"},
                    "Bagging": {"estimator": "Bagging", "params": {"estimator": {"estimator": "J48"},
                                                                   "n_estimators": 3}}},
    "metrics": ["accuracy"],
    "tables": {"table2": {"metric": "accuracy", "methods": ["NB", "Bagging"]}},
    "choices": [{"topic": "bags", "id": "bags", "choice": "3 bags",
                 "readings": [{"name": "five", "why": "more bags", "patch": {"classifiers": {"Bagging": {
                     "params": {"n_estimators": 5}}}}}]},
                {"topic": "folds", "id": "folds", "choice": "3 folds",
                 "readings": [{"name": "four", "why": "more folds", "patch": {"protocol": {"folds": 4}}}]}],
    "reading_combinations": [{"name": "both", "why": "together", "readings": ["bags/five", "folds/four"]}],
}


def _write(tmp_path, paper) -> Path:
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(paper, allow_unicode=True, sort_keys=False))
    return path


def test_merged_writes_mappings_key_by_key_and_replaces_the_rest():
    base = {"params": {"estimator": {"estimator": "J48", "params": {"m": 2}}, "n": 3}, "steps": [1, 2]}
    out = merged(base, {"params": {"estimator": {"params": {"c": 0.1}}}, "steps": [3]})
    assert out == {"params": {"estimator": {"estimator": "J48", "params": {"m": 2, "c": 0.1}}, "n": 3}, "steps": [3]}
    assert base["params"]["estimator"]["params"] == {"m": 2}   # the config as written is left alone
    assert merged({"name": "weka_cv", "runs": {"first": 1}}, {"name": "stratified_cv", "runs": None}) == {
        "name": "stratified_cv"}   # null removes a key


def test_a_reading_patches_only_what_it_writes(tmp_path):
    path = _write(tmp_path, TINY)
    default = checked_paper(path)
    bags = checked(variant(path, reading="bags/five"))
    assert bags.classifiers["Bagging"].params["n_estimators"] == 5
    assert bags.classifiers["Bagging"].params["estimator"] == {"estimator": "J48"}
    assert bags.reading == "bags/five" and bags.protocol == default.protocol
    assert touched(default, bags).classifiers == ("Bagging",) and not touched(default, bags).data
    folds = variant(path, reading="folds/four")
    assert folds.protocol.folds == 4 and touched(default, folds).data
    assert touched(default, folds).classifiers == ("NB", "Bagging")   # new folds: every classifier again
    assert checked(variant(path, reading="bags/default")) == default
    # with a seed: the reading first, then every seed shifted (Bagging's random_state, the folds' seed)
    seeded = variant(path, seed=2, reading="bags/five")
    assert seeded.classifiers["Bagging"].params["n_estimators"] == 5 and seeded.protocol.seed == 3


def test_a_combination_applies_each_reading_in_turn(tmp_path):
    path = _write(tmp_path, TINY)
    both = variant(path, reading="combined/both")
    assert both.protocol.folds == 4 and both.classifiers["Bagging"].params["n_estimators"] == 5
    assert touched(read_paper(path), both).data


def _with_copy(**patch):
    paper = copy.deepcopy(TINY)
    paper["datasets"] = ["iris", "anneal"]
    paper["choices"].append({"topic": "which anneal", "id": "anneal_copy", "choice": "Weka's anneal",
                             "readings": [{"name": "orig", "why": "UCI's", "patch": {
                                 "dataset_copies": patch or {"anneal": "anneal.ORIG"}}}]})
    return paper


def test_a_data_set_copy_reruns_every_classifier_on_that_data_set_alone(tmp_path):
    from nbrepro.data.registry import load_registry
    from nbrepro.paths import RunFolder, per_fold

    registry = load_registry(ROOT / "config/datasets.yaml")
    path = _write(tmp_path, _with_copy())
    default = checked_paper(path, registry)
    orig = checked(variant(path, reading="anneal_copy/orig"), registry)
    assert (default.dataset_entry("anneal"), orig.dataset_entry("anneal"), orig.dataset_entry("iris")) == (
        "anneal", "anneal.ORIG", "iris")
    t = touched(default, orig)
    assert (t.classifiers, t.data, t.datasets) == (("NB", "Bagging"), True, ("anneal",))
    assert t.owns("NB", "anneal") and not t.owns("NB", "iris")
    run = RunFolder("r/readings/anneal_copy/orig", "r", t.classifiers, t.datasets)
    own = Path("r/readings/anneal_copy/orig")
    assert run.per_fold("folds", "anneal", "NB") == own / per_fold("folds", "anneal", "NB")
    assert run.per_fold("folds", "iris", "NB") == Path("r") / per_fold("folds", "iris", "NB")


@pytest.mark.parametrize("patch, message", [
    ({"anneal": "anneal.NEW"}, "dataset_copies {'anneal': 'anneal.NEW'}: the copies are not in the data-set registry"),
    ({"colic": "colic.ORIG"}, "dataset_copies: ['colic'] are not data sets of the paper"),
])
def test_a_wrong_data_set_copy_fails_at_start_up(tmp_path, patch, message):
    from nbrepro.data.registry import load_registry

    with pytest.raises(ConfigError) as err:
        checked_paper(_write(tmp_path, _with_copy(**patch)), load_registry(ROOT / "config/datasets.yaml"))
    assert message in str(err.value) and "choices[2] (anneal_copy), reading 'orig'" in str(err.value)


def test_apply_reading_of_the_default_is_the_config_itself():
    assert apply_reading(TINY, "bags", "default", "x") == TINY


@pytest.mark.parametrize("change, message", [
    (lambda p: p["choices"][0]["readings"][0].update(patch={"claims": []}),
     "choices[0] (bags), reading 'five': patch key(s) ['claims'] are not patchable"),
    (lambda p: p["choices"][0]["readings"][0].update(patch={"classifiers": {"NBX": {"params": {}}}}),
     "choices[0] (bags), reading 'five': patch.classifiers names 'NBX', which is not a classifier"),
    (lambda p: p["choices"][0]["readings"][0]["patch"]["classifiers"]["Bagging"]["params"].update(n_estimators="5"),
     "choices[0] (bags), reading 'five', classifier 'Bagging': The 'n_estimators' parameter of Bagging"),
    (lambda p: p["choices"][0]["readings"][0]["patch"]["classifiers"]["Bagging"]["params"].update(trees=5),
     "choices[0] (bags), reading 'five', classifier 'Bagging': Bagging has no parameter(s) ['trees']"),
    (lambda p: p["choices"][1]["readings"][0].update(patch={"protocol": {"folds": "4"}}),
     "choices[1] (folds), reading 'four': the patched config does not match paper.schema.yaml: protocol/folds"),
    (lambda p: p["choices"][0]["readings"][0].update(patch={"classifiers": {"Bagging": {"params": {
        "n_estimators": 3}}}}),
     "choices[0] (bags), reading 'five': the patch changes nothing the experiment runs"),
    (lambda p: p["choices"][0]["readings"].append(copy.deepcopy(p["choices"][0]["readings"][0])),
     "choices[0] (bags): reading name(s) ['five'] are used twice"),
    (lambda p: p["choices"][1].update(id="bags"), "choices: id(s) ['bags'] are given to more than one choice"),
    (lambda p: p["choices"][0].pop("id"), "choices/0: 'id' is a dependency of 'readings'"),
    (lambda p: p["reading_combinations"][0].update(readings=["bags/five", "folds/six"]),
     "reading_combinations[0] (both): choice 'folds' has no reading 'six'"),
    (lambda p: p["reading_combinations"][0].update(readings=["bags/five", "bags/five"]),
     "reading_combinations[0] (both): a combination takes one reading of each choice; ['bags'] named twice"),
])
def test_a_wrong_reading_fails_at_start_up_with_one_line(tmp_path, change, message):
    paper = copy.deepcopy(TINY)
    change(paper)
    with pytest.raises(ConfigError) as err:
        checked_paper(_write(tmp_path, paper))
    assert message in str(err.value)
    if "schema.yaml:\n" not in str(err.value):   # the whole file's schema errors are listed one a line
        assert "\n" not in str(err.value)


def test_an_unknown_reading_asked_for_by_name(tmp_path):
    path = _write(tmp_path, TINY)
    with pytest.raises(ConfigError, match=r"no choice with id 'bag' \(ids: \['bags', 'folds'\]\)"):
        variant(path, reading="bag/five")
    with pytest.raises(ConfigError, match=r"choice 'bags' has no reading 'six' \(it has \['default', 'five'\]\)"):
        variant(path, reading="bags/six")


def test_select_readings_by_all_choice_or_name(tmp_path):
    papers = {"tiny": read_paper(_write(tmp_path, TINY))}
    assert select_readings(papers, None) == {"tiny": []}
    assert select_readings(papers, "all") == {"tiny": ["bags/five", "folds/four", "combined/both"]}
    assert select_readings(papers, ["combined"]) == {"tiny": ["combined/both"]}
    assert select_readings(papers, ["folds"]) == {"tiny": ["folds/four"]}
    assert select_readings(papers, ["bags/five"]) == {"tiny": ["bags/five"]}
    with pytest.raises(ConfigError, match=r"config readings: \['bag'\] name no choice or reading"):
        select_readings(papers, ["bag"])


def test_fit_rows_count_inside_closer_further_and_score():
    def bands(means, status):
        return pd.DataFrame({"seed_mean": means, "printed": [1.0, 2.0, 3.0, 4.0], "status": status})
    inside, outside, none = "within seed noise", "outside: a difference to explain", "no printed value"
    frames = {"default": bands([1.5, 2.0, 4.0, 9.0], [outside, inside, outside, none]),
              "other": bands([1.0, 2.5, 3.5, 0.0], [inside, outside, outside, none])}
    touched = np.array([True, True, True, True])
    fits = fit_rows(frames, touched, np.array([0.5, 0.5, 1.0, 1.0]))
    assert fits["default"] == {"cells_touched": 3, "inside": 1, "closer": 0, "further": 0, "median_gap": 0.5,
                               "score": 1.0 + 0.0 + 1.0}
    assert fits["other"] == {"cells_touched": 3, "inside": 1, "closer": 2, "further": 1, "median_gap": 0.5,
                             "score": 0.0 + 1.0 + 0.25}


def test_robustness_names_the_choices_a_verdict_depends_on():
    rc = pd.DataFrame({"claim_id": ["a", "a", "b"], "metric": ["", "", "mse"], "choice": ["x", "y", "x"],
                       "changed": [False, True, False]})
    assert robustness(rc) == {("a", ""): "depends on y", ("b", "mse"): "yes"}


@pytest.mark.parametrize("name", PAPERS)
def test_every_reading_of_the_shipped_papers_loads(name):
    path = ROOT / "config/papers" / f"{name}.yaml"
    default = read_paper(path)
    for choice in default.choices:
        for r in choice.readings:
            patched = variant(path, reading=f"{choice.id}/{r.name}")
            assert touched(default, patched).classifiers, (choice.id, r.name)


def test_every_paper_declares_three_choices_with_other_readings():
    """Each of the five papers (a companion config, as lpmbc_sweep for Figure 3, is part of its paper)."""
    papers = {name: read_paper(ROOT / "config/papers" / f"{name}.yaml") for name in PAPERS}
    companions = {c for p in papers.values() for c in p.companions}
    for name, paper in papers.items():
        if name not in companions:
            assert sum(1 for c in paper.choices if c.readings) >= 3, name
