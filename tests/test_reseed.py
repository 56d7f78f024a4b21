# SPDX-License-Identifier: GPL-3.0-or-later
"""The reseeding run's configs: every seed of a paper's experiment shifted together (nbrepro.variants.reseed)."""
import numpy as np
import pytest
from conftest import ROOT, checked

from nbrepro.checks import checked_paper
from nbrepro.cli import main as cli
from nbrepro.errors import ConfigError
from nbrepro.evaluation.builders import make_classifier
from nbrepro.paper import Paper
from nbrepro.protocols import make_folds, shifted
from nbrepro.variants import variant
from nbrepro.variants.reseed import draws_random_numbers, reseed

PAPERS = ROOT / "config" / "papers"


@pytest.mark.parametrize("spec, k, expected", [
    ({"name": "weka_cv", "folds": 10, "runs": {"first": 1, "last": 10}}, 1, {"first": 11, "last": 20}),
    ({"name": "weka_cv", "folds": 10, "runs": {"first": 1, "last": 10}}, 2, {"first": 21, "last": 30}),
    ({"name": "weka_cv", "folds": 10, "runs": {"first": 1, "last": 5}}, 1, {"first": 6, "last": 10}),
])
def test_weka_runs_move_to_the_next_block_of_runs(spec, k, expected):
    assert shifted(spec, k)["runs"] == expected and shifted(spec, 0) == spec


def test_a_seed_moves_by_k_and_resubstitution_stays():
    assert shifted({"name": "stratified_cv", "folds": 5, "repeats": 8, "seed": 1}, 3)["seed"] == 4
    assert shifted({"name": "two_fold_trials", "trials": 30}, 2)["seed"] == 3   # the default seed is 1
    assert shifted({"name": "resubstitution"}, 4) == {"name": "resubstitution"}


def test_the_shifted_weka_runs_are_wekas_own_later_runs():
    """Run k of the reseeding of Weka's runs 1–2 is Weka's runs 2k+1–2k+2: the folds Weka's
    Experimenter draws with those run numbers."""
    y = np.repeat([0, 1, 2], [20, 15, 10])
    main = make_folds({"name": "weka_cv", "folds": 3, "runs": {"first": 1, "last": 2}}, y)
    moved = make_folds(shifted({"name": "weka_cv", "folds": 3, "runs": {"first": 1, "last": 2}}, 1), y)
    direct = make_folds({"name": "weka_cv", "folds": 3, "runs": {"first": 3, "last": 4}}, y)
    assert [f.run for f in moved] == [3, 3, 3, 4, 4, 4]
    assert all(np.array_equal(a.test, b.test) for a, b in zip(moved, direct, strict=True))
    assert not all(np.array_equal(a.test, b.test) for a, b in zip(moved, main, strict=True))


def test_every_seed_of_halls_columns_moves_and_the_config_is_left_alone():
    paper = checked_paper(PAPERS / "awnb.yaml")
    before = repr(paper.classifiers)
    r = reseed(paper, 2)
    assert repr(paper.classifiers) == before   # a copy: the loaded paper is not changed
    assert r.spec["protocol"]["runs"] == {"first": 11, "last": 15}
    bag = r.spec["classifiers"]["Bagging(i=10,j=100)"]["params"]
    assert bag["estimator"]["params"]["random_state"] == 3                        # Bagging -S 1 → 3
    assert bag["cv"] == {"name": "weka_cv", "folds": 10, "runs": {"first": 3, "last": 3}}  # Stacking's folds
    assert r.spec["classifiers"]["SBC"]["params"]["estimator"]["params"]["random_state"] == 3
    assert r.spec["classifiers"]["NBTree"]["params"]["estimator"] == {"estimator": "NBTree"}  # Weka's fixed Random(1)
    assert any("AttributeWeightedNB random_state 1 → 3" in c for c in r.changes)
    model = make_classifier("Bagging(i=10,j=100)", Paper.from_config(r.spec))
    assert model.estimator.random_state == 3 and model.cv["runs"]["first"] == 3


def test_mao_inner_selection_and_the_deterministic_papers():
    r = reseed(checked_paper(PAPERS / "lpmbc.yaml"), 1)
    assert r.spec["protocol"]["seed"] == 2
    assert r.spec["classifiers"]["LPM-BC"]["params"]["cv"]["seed"] == 2
    assert r.spec["classifiers"]["G-NBC"] == checked_paper(PAPERS / "lpmbc.yaml").classifiers["G-NBC"].as_written()
    assert not draws_random_numbers(checked_paper(PAPERS / "lslwnb.yaml"))   # resubstitution, deterministic learners
    assert draws_random_numbers(checked_paper(PAPERS / "lcwnb.yaml"))


def test_load_paper_with_a_seed_and_the_command_line_refuses_a_negative_one(capsys):
    paper = checked(variant(PAPERS / "kdebw.yaml", seed=4))
    assert paper.seed == 4 and paper.protocol.seed == 5
    with pytest.raises(SystemExit):
        cli(["folds", "--paper-config", str(PAPERS / "kdebw.yaml"), "--seed", "-1", "--dataset", "iris",
             "--prepared", "x", "--out", "y"])
    assert "expected a whole number 0 or more" in capsys.readouterr().err


def test_a_gap_naming_an_unknown_table_or_method_is_refused(tmp_path):
    import yaml

    spec = yaml.safe_load((PAPERS / "lpmbc.yaml").read_text())
    spec["gaps"][0]["where"] = [{"table": "table9"}]
    (tmp_path / "lpmbc.yaml").write_text(yaml.safe_dump(spec))
    with pytest.raises(ConfigError, match=r"gaps\[0\]\.where: table 'table9' is not one of the paper's tables"):
        checked_paper(tmp_path / "lpmbc.yaml")
    spec["gaps"][0]["where"] = [{"table": "table2", "methods": ["LPM-B"]}]
    (tmp_path / "lpmbc.yaml").write_text(yaml.safe_dump(spec))
    with pytest.raises(ConfigError, match=r"methods \['LPM-B'\] are not in table 'table2'"):
        checked_paper(tmp_path / "lpmbc.yaml")
    spec["gaps"][0]["where"] = [{"table": "table2", "metrics": ["acc"]}]
    (tmp_path / "lpmbc.yaml").write_text(yaml.safe_dump(spec))
    with pytest.raises(
        ConfigError, match=r"metrics \['acc'\] are not in table 'table2' \(known: \['accuracy', 'mse'\]\)"
    ):
        checked_paper(tmp_path / "lpmbc.yaml")
