# SPDX-License-Identifier: GPL-3.0-or-later
"""The reseeding run end to end (`--config seeds=K`): a tiny paper's evaluation under K other seeds,
its seed bands, noise floor and seed stability in the report, the same bytes on one core or two."""

import pandas as pd
import pytest
from conftest import DATA_DIR
from test_pipeline import TINY, _project, _snakemake

from nbrepro.cli import main as cli
from nbrepro.fingerprint import fingerprint

pytestmark = [pytest.mark.slow]

# random folds (stratified_cv) and a randomised learner (Bagging's bags): both move with the seed
PAPER = {**TINY,
         "protocol": {"name": "stratified_cv", "folds": 3, "repeats": 2, "seed": 1},
         "classifiers": {"NB": {"estimator": "NaiveBayes"},
                         "Bagging": {"estimator": "Bagging", "params": {"estimator": {"estimator": "J48"},
                                                                        "n_estimators": 3}}},
         "tables": {"table2": {"metric": "accuracy", "methods": ["NB", "Bagging"],
                               "published": "config/published/lcwnb_table2.csv"}},
         "analysis": {"table": "table2", "metric": "accuracy", "decimals": 2},
         "claims": [{"id": "nb_best", "section": "1", "sentence": "NB is best", "kind": "rank_order", "best": "NB"}],
         "gaps": [{"cells": "Bagging everywhere", "explanation": "not in the printed table",
                   "where": [{"table": "table2", "methods": ["Bagging"]}]}]}


def test_seed_bands_from_one_command_the_same_bytes_on_one_core(tmp_path):
    a = _project(tmp_path / "a", PAPER)
    _snakemake(a, f"mirror={DATA_DIR}", "seeds=2")
    res = a / "results/tiny"
    # run k's folds are the protocol's under seed 1 + k, from the main run's prepared rows
    main = pd.read_parquet(a / "resources/folds/tiny/iris.parquet")
    moved = pd.read_parquet(a / "resources/folds/tiny/seeds/1/iris.parquet")
    assert len(main) == len(moved) == 6 and any((x != y).any() for x, y in zip(main.test, moved.test, strict=True))
    bands = pd.read_csv(res / "stats/seed_bands.csv")
    assert set(bands.runs) == {3} and len(bands) == 6
    printed = bands[bands.method == "NB"]
    assert set(printed.status) <= {"within seed noise", "outside: a difference to explain"}
    assert set(bands[bands.method == "Bagging"].status) == {"no printed value"}
    assert (bands.band_low <= bands[["main", "seed_min"]].min(axis=1)).all()
    floor = pd.read_csv(res / "stats/noise_floor.csv")
    assert list(floor.cells) == [6] and floor.median_band_width.iloc[0] > 0
    stability = pd.read_csv(res / "stats/seed_stability.csv")
    assert list(stability.claim_id) == ["nb_best"] and len(stability.verdicts.iloc[0].split()) == 3
    report = (res / "report.html").read_text()
    assert "Seed noise: is a gap noise or a difference?" in report and "in seed band" in report
    assert "Seed noise</a> (3 runs): <b>" in report     # the report's first lines say how many are inside
    assert "Bagging random_state 1 → 2" in report
    assert "seeds " in (a / "results/claims.html").read_text()
    # one core: the same bytes, the reseeded runs included
    b = _project(tmp_path / "b", PAPER)
    _snakemake(b, f"mirror={DATA_DIR}", "seeds=2", cores=1)
    assert fingerprint(a / "results") == fingerprint(b / "results")
    assert any(f.startswith("tiny/seeds/2/") for f, _ in fingerprint(a / "results"))
    # `nbrepro fingerprint --seeds K` also lists the reseeded runs' files that are missing
    args = ["fingerprint", str(b / "results"), "--config", str(b / "config/config.yaml"), "--papers", "tiny"]
    assert cli(args + ["--seeds", "2"]) == 0 and cli(args + ["--seeds", "3"]) == 1
    # one more seed reuses every finished run: only run 3's jobs and what reads them are planned
    planned = _snakemake(a, f"mirror={DATA_DIR}", "seeds=3", "-n", "--quiet", "rules").stdout
    assert "evaluate_dataset_tiny_seeds" in planned and "prepare" not in planned.split("evaluate")[0]
    jobs = {tuple(line.split()) for line in planned.splitlines() if line.startswith("evaluate_dataset_tiny")}
    assert jobs == {("evaluate_dataset_tiny_seeds", "3")}, planned   # three data sets, of run 3


def test_a_paper_that_draws_no_random_number_gets_bands_from_its_main_run(tmp_path):
    paper = {**TINY, "protocol": {"name": "resubstitution"}}
    a = _project(tmp_path / "a", paper)
    _snakemake(a, f"mirror={DATA_DIR}", "seeds=2")
    assert not (a / "results/tiny/seeds").exists()
    bands = pd.read_csv(a / "results/tiny/stats/seed_bands.csv")
    assert set(bands.runs) == {1} and (bands.band_width == 0).all()
    assert "draws no random number" in (a / "results/tiny/report.html").read_text()
