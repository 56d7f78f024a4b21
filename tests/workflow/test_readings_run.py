# SPDX-License-Identifier: GPL-3.0-or-later
"""The readings run end to end (`--config readings=all`): a tiny paper's other readings, each rerunning
only what its patch touches, with seed bands, what fits and what survives in the report and the
claims page; the main run's results unchanged by it."""

import pandas as pd
import pytest
from conftest import DATA_DIR
from test_pipeline import _project, _snakemake
from test_seeds import PAPER as SEEDED

from nbrepro.fingerprint import fingerprint

pytestmark = [pytest.mark.slow]

PAPER = {**SEEDED,
         "choices": [
             {"topic": "bags", "id": "bags", "choice": "3 bags",
              "readings": [{"name": "five", "why": "more bags",
                            "patch": {"classifiers": {"Bagging": {"params": {"n_estimators": 5}}}}}]},
             {"topic": "folds", "id": "folds", "choice": "3 folds",
              "readings": [{"name": "four", "why": "more folds", "patch": {"protocol": {"folds": 4}}}]}]}

# what a readings run adds to or changes in the main run's pages (the rest is the main run's, byte for byte)
PAGES = {"index.html", "claims.html", "claims.csv", "ro-crate-metadata.json", "tiny/report.html"}


def test_readings_run_reruns_only_what_a_patch_touches(tmp_path):
    a = _project(tmp_path / "a", PAPER)
    _snakemake(a, f"mirror={DATA_DIR}", "seeds=1")
    before = {f: h for f, h in fingerprint(a / "results") if f not in PAGES}
    run = _snakemake(a, f"mirror={DATA_DIR}", "seeds=1", "readings=all").stderr
    # the main run and its reseeded run are reused: no job of theirs runs again
    # (the console's line per finished job: "k of n steps (p%) done · {rule} ({wildcards}): {output}")
    assert "· evaluate_dataset_tiny (" not in run and "· evaluate_dataset_tiny_seeds (" not in run, run[-3000:]
    assert "· evaluate_dataset_tiny_Bagging (" in run
    res = a / "results/tiny"
    bags = res / "readings/bags/five"
    # a classifier's patch: that classifier alone, on the main run's data and folds (and its reseeded run's)
    assert sorted(p.name for p in (bags / "folds/iris").glob("*.parquet")) == ["Bagging.parquet"]
    assert sorted(p.name for p in (bags / "seeds/1/folds/iris").glob("*.parquet")) == ["Bagging.parquet"]
    assert not (a / "resources/prepared/tiny/readings/bags").exists()
    # a protocol patch: its own folds, every classifier on them
    folds = pd.read_parquet(a / "resources/folds/tiny/readings/folds/four/iris.parquet")
    assert folds.fold.nunique() == 4
    assert sorted(p.name for p in (res / "readings/folds/four/folds/iris").glob("*.parquet")) == ["Bagging.parquet",
                                                                                          "NB.parquet"]
    # the tables of a reading read the untouched classifiers from the run it patches
    main = pd.read_csv(res / "tables/table2.csv").set_index(["dataset", "method"])["mean"]
    five = pd.read_csv(bags / "tables/table2.csv").set_index(["dataset", "method"])["mean"]
    assert (five.xs("NB", level="method") == main.xs("NB", level="method")).all()
    table = pd.read_csv(res / "stats/readings.csv")
    assert {"choice", "reading", "cells_touched", "inside", "median_gap", "score", "rank"} <= set(table.columns)
    overall = table[table.metric == "all"].set_index(["choice", "reading"])
    assert overall.loc[("bags", "default"), "cells_touched"] == 0   # Bagging has no printed cell
    assert overall.loc[("folds", "default"), "cells_touched"] == 3 and overall["rank"].min() == 1
    claims = pd.read_csv(res / "stats/reading_claims.csv")
    assert set(claims.reading) == {"five", "four"} and set(claims.claim_id) == {"nb_best"}
    assert "Readings: where the paper is silent, which reading fits?" in (res / "report.html").read_text()
    assert "robust to readings" in (a / "results/claims.html").read_text()
    assert (a / "figures/tiny/readings.svg").is_file()
    # the main run's files keep their bytes
    assert {f: h for f, h in fingerprint(a / "results") if "reading" not in f and f not in PAGES} == before
    # one reading asked for by name, after the run: nothing left to do
    planned = _snakemake(a, f"mirror={DATA_DIR}", "seeds=1", "readings=[bags/five]", "-n", "--quiet", "rules").stdout
    assert "evaluate" not in planned, planned


COPY = {**SEEDED, "datasets": ["iris", "anneal"],
        "choices": [{"topic": "which anneal", "id": "anneal_copy", "choice": "Weka's cleaned anneal",
                     "readings": [{"name": "orig", "why": "UCI's original",
                                   "patch": {"dataset_copies": {"anneal": "anneal.ORIG"}}}]}]}


def test_a_data_set_copy_reruns_that_data_set_alone(tmp_path):
    a = _project(tmp_path / "a", COPY)
    _snakemake(a, f"mirror={DATA_DIR}")
    run = _snakemake(a, f"mirror={DATA_DIR}", "readings=all").stderr
    assert "· evaluate_dataset_tiny (" not in run and " done · " in run, run[-3000:]
    res, own = a / "results/tiny", a / "results/tiny/readings/anneal_copy/orig"
    # the copy's raw file, prepared under the paper's name; every classifier on it, on no other data set
    assert (a / "resources/raw/anneal.ORIG.arff").is_file()
    assert [p.name for p in (a / "resources/prepared/tiny/readings/anneal_copy/orig").glob("*.parquet")] == [
        "anneal.parquet"]
    assert sorted(p.name for p in (own / "folds").iterdir()) == ["anneal"]
    assert sorted(p.name for p in (own / "folds/anneal").glob("*.parquet")) == ["Bagging.parquet", "NB.parquet"]
    main = pd.read_csv(res / "tables/table2.csv").set_index(["dataset", "method"])["mean"]
    copy = pd.read_csv(own / "tables/table2.csv").set_index(["dataset", "method"])["mean"]
    assert (copy.xs("iris") == main.xs("iris")).all() and (copy.xs("anneal") != main.xs("anneal")).any()
    table = pd.read_csv(res / "stats/readings.csv")
    overall = table[table.metric == "all"].set_index(["choice", "reading"])
    assert overall.loc[("anneal_copy", "orig"), "cells_touched"] == 1   # NB on anneal: the one printed cell
