# SPDX-License-Identifier: GPL-3.0-or-later
"""The run plan (nbrepro.plan) without Snakemake: every kind of run (main, reseeded, reading, reseeded
reading, cut, out of sample) and what it reads and writes; each file made by exactly one rule; the
files a run leaves, as `nbrepro fingerprint` expects them."""
import re
from pathlib import Path

import pytest

from nbrepro import paths
from nbrepro.fingerprint import expected_files
from nbrepro.paper import load_yaml
from nbrepro.plan import RUN_PATTERN, Plan, normalised, parse_run, run_id

ROOT = Path(__file__).resolve().parents[1]


def _plan(tmp_path=None, **config):
    cfg = load_yaml(ROOT / "config/config.yaml")
    cfg.update(registry=str(ROOT / cfg["registry"]), paper_dir=str(ROOT / cfg["paper_dir"]), **config)
    return Plan(cfg, warn=lambda message: None, check=False, write=False)


@pytest.fixture(scope="module")
def default():
    return _plan()


@pytest.fixture(scope="module")
def varied():
    """Two reseeded runs and every reading of every paper."""
    return _plan(seeds=2, readings="all")


@pytest.mark.parametrize("parts, text", [
    (("lcwnb", 0, ""), "lcwnb"),
    (("lcwnb", 3, ""), "lcwnb/seeds/3"),
    (("kdebw", 0, "density/weka_for_weka"), "kdebw/readings/density/weka_for_weka"),
    (("kdebw", 12, "density/weka_for_weka"), "kdebw/readings/density/weka_for_weka/seeds/12"),
])
def test_a_run_is_named_by_its_folder(parts, text):
    assert run_id(*parts) == text and parse_run(text) == parts
    assert re.fullmatch(RUN_PATTERN, text)


@pytest.mark.parametrize("text", ["lcwnb/seeds/0", "lcwnb/readings/x", "lcwnb/seeds/2/readings/a/b", "a b"])
def test_a_name_that_is_no_run_is_refused(text):
    with pytest.raises(ValueError, match="names no run"):
        parse_run(text)
    assert not re.fullmatch(RUN_PATTERN, text)


def test_what_a_user_types_is_read_as_meant():
    assert normalised({"openml": "false", "worker": "Yes", "out_of_sample": "true"}) == {
        "openml": False, "worker": True, "out_of_sample": True}
    assert normalised({"out_of_sample": "iris, wine"})["out_of_sample"] == ["iris", "wine"]
    assert normalised({"out_of_sample": "iris"})["out_of_sample"] == ["iris"]
    with pytest.raises(ValueError, match="openml='maybe': expected true or false"):
        normalised({"openml": "maybe"})


def test_the_default_plan_is_each_paper_s_main_run(default):
    assert [r.id for r in default.runs()] == list(default.papers)
    assert all(r.kind == "main" and r.own_data for r in default.runs())
    lcwnb = default.run("lcwnb")
    assert lcwnb.prepared("iris") == "resources/prepared/lcwnb/iris.parquet"
    assert lcwnb.folds("iris") == "resources/folds/lcwnb/iris.parquet"
    assert lcwnb.per_fold("folds", "iris", "NB") == "results/lcwnb/folds/iris/NB.parquet"
    assert lcwnb.args == lcwnb.base_args == "" and default.figures_args(lcwnb) == " --figures figures/lcwnb"
    # one evaluation rule per job name of a paper; a one-job paper's job prepares its data itself
    rules = {r.name: r for r in default.evaluation_rules}
    assert {"evaluate_dataset_lcwnb_eager", "evaluate_dataset_lcwnb_lcwnb", "evaluate_dataset_lcwnb_neighbours",
            "evaluate_dataset_kdebw"} <= set(rules)
    assert rules["evaluate_dataset_kdebw"].how == "inline" and rules["evaluate_dataset_lcwnb_eager"].how == "prepared"
    assert rules["evaluate_dataset_lcwnb_eager"].labels == ("NB", "TAN", "AODE", "WAODE", "HNB")
    assert {r.id for r in default.prepared_runs()} == {"lcwnb", "awnb"} and default.seed_fold_runs() == []


def test_a_reseeded_run_reads_the_main_run_s_data_and_makes_its_own_folds(varied):
    run = varied.run("lpmbc/seeds/2")
    assert (run.kind, run.seed, run.args) == ("seeded", 2, "--seed 2 ")
    assert run.prepared("iris") == paths.prepared("lpmbc", "iris")
    assert run.folds("iris") == "resources/folds/lpmbc/seeds/2/iris.parquet" == paths.seed_folds("lpmbc", 2, "iris")
    assert run.per_fold("folds", "iris", "CAP") == "results/lpmbc/seeds/2/folds/iris/CAP.parquet"
    assert run.spec.protocol.seed != varied.run("lpmbc").spec.protocol.seed
    # without claims a reseeded run writes no statistics; with them, the stats files and no figures
    assert run.stats_outputs() == [run.at(paths.stats(n)) for n in varied.output_files("lpmbc")[0]]
    assert not [f for f in run.stats_outputs() if f.startswith("figures/")]
    assert "lslwnb" not in {r.paper for r in varied.runs() if r.seed}   # a paper that draws no random number


def test_a_reading_reruns_what_it_touches_and_reads_the_rest_from_the_run_it_patches(varied):
    run = varied.run("lcwnb/readings/iclnb_neighbours/k5/seeds/1")
    assert run.kind == "seeded_reading" and not run.own_data and run.touched.classifiers == ("ICLNB",)
    assert run.args == "--reading iclnb_neighbours/k5 --seed 1 "
    assert run.base_args == "--base-results results/lcwnb/seeds/1 "
    assert run.per_fold("folds", "iris", "ICLNB") == f"{run.folder}/folds/iris/ICLNB.parquet"
    assert run.per_fold("folds", "iris", "NB") == "results/lcwnb/seeds/1/folds/iris/NB.parquet"
    assert run.folds("iris") == "resources/folds/lcwnb/seeds/1/iris.parquet"   # the patched run's folds
    inputs = run.table_inputs()
    assert f"{run.folder}/folds/iris/ICLNB.parquet" in inputs
    assert "results/lcwnb/seeds/1/folds/iris/NB.parquet" in inputs
    assert {f.rsplit("/", 1)[1] for f in run.own_fold_files()} == {"ICLNB.parquet"}
    # a reading of the data (another copy of anneal) prepares that data set itself, every classifier on it
    own = varied.run("kdebw/readings/anneal_copy/uci_original")
    assert own.own_data and own.own_datasets() == ["anneal"] and own.raw("anneal") == paths.raw("anneal.ORIG")
    assert own.prepared("anneal") == "resources/prepared/kdebw/readings/anneal_copy/uci_original/anneal.parquet"
    assert own.per_fold("folds", "iris", "UCV") == "results/kdebw/folds/iris/UCV.parquet"   # not its data set
    assert own in varied.prepared_runs()
    assert varied.run(own.id + "/seeds/1") in varied.seed_fold_runs()


def _makers(plan, run, kind, dataset, label):
    """The evaluation rules whose outputs include this per-fold file of this run."""
    wanted, out = paths.results(run.id, paths.per_fold(kind, dataset, label)), []
    for rule in plan.evaluation_rules:
        tail = run.id.removeprefix(rule.paper)
        if rule.paper != run.paper or dataset not in rule.datasets or not re.fullmatch(rule.tail_pattern, tail):
            continue
        if wanted in (f.replace("{tail}", tail).replace("{dataset}", dataset) for f in rule.outputs()[kind]):
            out.append(rule.name)
    return out


@pytest.mark.parametrize("name", ["default", "varied"])
def test_every_per_fold_file_is_made_by_exactly_one_rule(name, request):
    plan = request.getfixturevalue(name)
    for run in plan.runs():
        for kind, dataset, label in run.cells(paths.FOLD_KINDS):
            makers = _makers(plan, run, kind, dataset, label)
            # a file the run reads from the run it patches is asked of no rule (one could make it: a reading's
            # job serves all the job's data sets, and makes only those it touches, as the plan asks)
            assert len(makers) == 1 if run.owns(label, dataset) else len(makers) <= 1, (run, kind, dataset, label)


def test_every_run_s_statistics_are_made_by_exactly_one_rule(varied):
    for run in varied.runs():
        outputs = run.stats_outputs()
        rules = [r for r in varied.stats_rules if re.fullmatch(r.run_pattern, run.id)]
        assert len(rules) == (1 if outputs else 0), run
        if outputs:
            made = [o.replace("{run}", run.id if "{run}" not in o.split("/")[0] else run.id) for o in rules[0].outputs]
            assert sorted(made) == sorted(outputs)
    names = {r.name for r in varied.stats_rules}
    assert len(names) == len(varied.stats_rules)


def test_the_plan_s_rules_are_few(varied):
    # one rule per output shape: the main run and its reseeded runs share their jobs' rules
    assert len(varied.evaluation_rules) == 40
    assert len(varied.stats_rules) <= 12
    assert [r.name for r in varied.paper_rules("readings")] == ["readings"]
    assert [r.paper_pattern for r in varied.paper_rules("seed_bands")] != []


def test_every_file_a_run_leaves_is_what_fingerprint_expects(varied):
    files = varied.every_file()
    assert len(files) == len(set(files))
    assert set(expected_files(ROOT / "config/config.yaml", seeds=0)) == set(_plan(seeds=0).result_files())
    results = varied.result_files()
    assert "lcwnb/readings/iclnb_neighbours/k5/folds/iris/ICLNB.parquet" in results
    assert "lcwnb/readings/iclnb_neighbours/k5/folds/iris/NB.parquet" not in results   # the base run's
    assert "lcwnb/seeds/2/tables/table2.csv" in results and "lcwnb/stats/seed_bands.csv" in results
    assert "lcwnb/stats/readings.csv" in results and "index.html" in results


def test_a_cut_is_a_paper_of_its_own():
    plan = _plan(datasets=["labor", "iris"], papers=["lcwnb"])
    assert list(plan.papers) == ["lcwnb_cut"]
    assert set(plan.papers["lcwnb_cut"].datasets) == {"labor", "iris"}
    assert [r.id for r in plan.runs("lcwnb_cut")] == ["lcwnb_cut"]
    assert plan.run("lcwnb_cut").prepared("iris") == "resources/prepared/lcwnb_cut/iris.parquet"


def test_an_out_of_sample_run_is_a_paper_beside_its_own():
    plan = _plan(out_of_sample=True, papers=["lslwnb"])
    assert plan.out_of_sample == {"lslwnb": "lslwnb_out_of_sample"}
    pool = plan.papers["lslwnb_out_of_sample"].datasets
    assert pool and not set(pool) & set(plan.papers["lslwnb"].datasets)
    outputs = plan.out_of_sample_outputs("lslwnb")
    assert outputs[0] == paths.results("lslwnb", paths.CLAIMS_OUT_OF_SAMPLE)
    inputs = plan.out_of_sample_inputs("lslwnb")
    assert inputs["out_of_sample"] == "results/lslwnb_out_of_sample/stats/claims.csv"
    assert set(outputs) <= set(plan.every_file())
    assert [r.name for r in plan.paper_rules("out_of_sample")] == ["out_of_sample"]


def test_snakemake_report_after_a_run_of_some_papers_reports_those_built(tmp_path, monkeypatch):
    """`snakemake --report` narrows the plan to the papers whose report exists (Snakemake's report needs
    every file it marks), says which it left out, and refuses in one line where none is built."""
    from nbrepro.errors import ConfigError

    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match=r"^snakemake --report: no report of .* in results/ yet"):
        _plan().built_only()
    (tmp_path / "results/lslwnb").mkdir(parents=True)
    (tmp_path / "results/lslwnb/report.html").write_text("<html></html>")
    plan = _plan()
    absent = plan.built_only()
    assert list(plan.papers) == ["lslwnb"] and "lcwnb" in absent and "lslwnb" not in absent
    assert all(f.startswith(("results/lslwnb/", "resources/", "results/index", "results/claims", "results/ro-crate",
                             "results/inputs/", "figures/lslwnb/"))
               for f in plan.every_file() + plan.pages())


def test_fingerprint_after_a_run_of_some_papers_checks_those_present(tmp_path):
    """`nbrepro fingerprint results` after a run of one paper expects that paper's files (and the run's
    pages), names the config's other papers as unchecked, and checks them when named with papers."""
    from nbrepro.fingerprint import missing_files

    (tmp_path / "lslwnb").mkdir()
    missing, unchecked = missing_files(tmp_path, ROOT / "config/config.yaml", seeds=0)
    assert "lcwnb" in unchecked and "lslwnb" not in unchecked
    assert missing and all(f.startswith(("lslwnb/", "index", "claims", "ro-crate", "inputs/")) for f in missing)
    assert "lslwnb/report.html" in missing and "lslwnb/figures/table2_reproduced_vs_published.svg" in missing
    named, unchecked = missing_files(tmp_path, ROOT / "config/config.yaml", ["lslwnb", "lcwnb"], seeds=0)
    assert not unchecked and any(f.startswith("lcwnb/") for f in named)
