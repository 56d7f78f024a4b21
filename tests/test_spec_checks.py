# SPDX-License-Identifier: GPL-3.0-or-later
"""Every entry of a paper config is checked when the paper is loaded, before any job: each mistake
below gives one line naming the file, the section, the entry and the key (the plug-ins' declared
keys, ``nbrepro.paper.plugin``; the estimators' ``attribute_kinds``; their parameters' types)."""
import pytest
import yaml
from conftest import ROOT

from nbrepro.checks import checked_paper
from nbrepro.data.registry import load_registry
from nbrepro.errors import ConfigError


def _load(tmp_path, edit):
    """lslwnb.yaml (numeric data: diabetes, ionosphere, …) with ``edit`` applied, loaded as the workflow does."""
    spec = yaml.safe_load((ROOT / "config/papers/lslwnb.yaml").read_text())
    edit(spec)
    path = tmp_path / "lslwnb.yaml"
    path.write_text(yaml.safe_dump(spec, sort_keys=False))
    return checked_paper(path, load_registry(ROOT / "config/datasets.yaml"))


def _statistic(entry):
    return lambda spec: spec["analysis"].setdefault("statistics", []).append(entry)


CASES = {
    "a statistic's key misspelt": (
        _statistic({"id": "s", "test": "sign_test", "methodz": ["LWNB", "NB"]}),
        "analysis.statistics[0] (s): 'sign_test' needs 'methods'",
    ),
    "a statistic's unknown key beside the right ones": (
        _statistic({"id": "s", "test": "sign_test", "methods": ["LWNB", "NB"], "metod": "x"}),
        "analysis.statistics[0] (s): 'sign_test' has no key 'metod' (its keys: ",
    ),
    "a statistic naming a method no table has": (
        _statistic({"id": "s", "test": "sign_test", "methods": ["LWNB", "NBX"]}),
        "analysis.statistics[0] (s): 'sign_test': ['NBX'] are not methods of the paper's tables",
    ),
    "a statistic's key of the wrong type": (
        _statistic({"id": "s", "test": "friedman", "methods": ["LWNB", "NB"], "tie_correction": "yes"}),
        "analysis.statistics[0] (s): 'friedman': tie_correction must be true or false, got 'yes'",
    ),
    "a figure with an unknown key": (
        lambda spec: spec.update(figures={"f": {"kind": "cd_diagram", "table": "table2", "colour": "red"}}),
        "figures.f: 'cd_diagram' has no key 'colour' (its keys: ",
    ),
    "a figure naming a method no table has": (
        lambda spec: spec.update(figures={"f": {"kind": "cd_diagram", "table": "table2", "methods": ["NB", "NBX"]}}),
        "figures.f: 'cd_diagram': ['NBX'] are not methods of the paper's tables",
    ),
    "a nominal-only classifier on numeric data": (
        lambda spec: spec["classifiers"].update(AODE={"estimator": "AODE"}),
        "classifier 'AODE': AODE takes nominal attributes only, but data set 'diabetes' has the numeric attribute",
    ),
    "a nominal-only classifier inside a meta-estimator": (
        lambda spec: spec["classifiers"].update(
            B={"estimator": "Bagging", "params": {"estimator": {"estimator": "HNB"}}}
        ),
        "classifier 'B': Bagging takes nominal attributes only, but data set 'diabetes' has the numeric attribute",
    ),
    "a numeric-only classifier on nominal data": (
        lambda spec: spec["classifiers"].update(K={"estimator": "VotingKNN", "datasets": ["vote"]}),
        "classifier 'K': VotingKNN takes numeric attributes only, but data set 'vote' has the nominal attribute",
    ),
    "a classifier parameter of the wrong type": (
        lambda spec: spec["classifiers"]["LWNB"].update(params={"use_prior": "no"}),
        "classifier 'LWNB': The 'use_prior' parameter of LSLWNB must be an instance of 'bool'",
    ),
    "a claim on a metric the paper does not measure": (
        lambda spec: spec.setdefault("claims", []).append(
            {"id": "c", "section": "4", "sentence": "…", "kind": "rank_order", "best": "LWNB",
             "metrics": ["accuracy", "auc"]}),
        "claims[7] (c): ['auc'] are not metrics of the paper (its metrics: ['accuracy'])",
    ),
    "a classifier step's parameter of the wrong type": (
        lambda spec: spec["classifiers"]["NB"].update(steps=[{"discretize_equal_width": {"n_bins": "ten"}}]),
        "classifier 'NB', steps, step 'discretize_equal_width': The 'n_bins' parameter of EqualWidthDiscretizer",
    ),
}


@pytest.mark.parametrize("edit, message", CASES.values(), ids=CASES.keys())
def test_a_wrong_entry_is_one_line_before_any_job(tmp_path, edit, message):
    with pytest.raises(ConfigError) as err:
        _load(tmp_path, edit)
    text = str(err.value)
    assert message in text and "\n" not in text, text
    assert text.startswith(str(tmp_path / "lslwnb.yaml")), text


def test_a_nominal_only_classifier_on_discretised_data_is_fine(tmp_path):
    def edit(spec):
        spec["classifiers"]["AODE"] = {"estimator": "AODE", "steps": [{"discretize_mdl": {}}]}

    assert "AODE" in _load(tmp_path, edit).classifiers


def test_a_claim_bound_naming_no_printed_statistic_is_one_line(tmp_path):
    """`{published: id}` must name a statistic of the paper's printed text statistics (a typo
    otherwise passed start-up and failed in paper-stats)."""
    spec = yaml.safe_load((ROOT / "config/papers/awnb.yaml").read_text())
    spec["claims"][0]["equals"] = {"published": "t2_awnb_vs_nb_sig_lower_rrsex"}
    path = tmp_path / "awnb.yaml"
    path.write_text(yaml.safe_dump(spec, sort_keys=False))
    with pytest.raises(ConfigError) as err:
        checked_paper(path, load_registry(ROOT / "config/datasets.yaml"))
    assert "claims[0] (t2_awnb_vs_nb_sig_lower_rrse): equals: {published: t2_awnb_vs_nb_sig_lower_rrsex} is " \
           "not a statistic of config/published/awnb_text_stats.csv" in str(err.value)
    assert "\n" not in str(err.value)
