# SPDX-License-Identifier: GPL-3.0-or-later
"""End to end: two small paper configs that use every key of the general machinery.

machine_cv: random stratified 3-fold × 2, fold-scope z-normalisation, accuracy / MSE / RRSE / AUC
with their directions, a grid, an inner-CV selection that records its choice, a calibration
wrapper, a per-classifier supervised MDL step, a synthetic dataset, a two-class table filter, a
w/t/l matrix table, Nemenyi and Bonferroni–Dunn CD diagrams, mean-rank bars, a sweep, a density
of recorded values, generic statistics and declared claims.
machine_bv: 3 trials of 2-fold CV with Kohavi–Wolpert bias and variance.
"""
import shutil
import subprocess
import sys

import pandas as pd
import pytest
import yaml
from browser_check import check_pages, have_browser
from conftest import DATA_DIR, ROOT

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("machine_run")]   # one worker runs the module's run

NB_MDL = {"estimator": "NaiveBayes", "steps": [{"discretize_mdl": {}}]}
GAUSS = {"estimator": "FrequencyGaussianNB"}

MACHINE_CV = {
    "paper": "machine_cv",
    "title": "machinery check: random CV",
    "datasets": ["iris", "gauss2d-C0", "gauss2d-C1"],
    "preprocessing": {"scope": "fold", "steps": [{"standardize": {"ddof": 1}}]},
    "protocol": {"name": "stratified_cv", "folds": 3, "repeats": 2, "seed": 1},
    "classifiers": {
        "NB-MDL": NB_MDL,
        "G": {"estimator": "FrequencyGaussianNB", "label": "G(eps={epsilon},prior={use_prior})",
              "grid": {"epsilon": [1e-9, 0.01], "use_prior": [True, False]}},
        "Selected": {"estimator": "InnerCVSelection", "record": ["selected_params_"],
                     "params": {"estimator": GAUSS, "param_grid": {"epsilon": [1e-9, 0.01, 0.1]},
                                "cv": {"name": "stratified_cv", "folds": 2, "repeats": 1, "seed": 3},
                                "metric": "mse"}},
        "Calibrated-NB": {"estimator": "Calibrated",
                          "params": {"estimator": NB_MDL,
                                     "cv": {"name": "weka_cv", "folds": 3, "runs": {"first": 1, "last": 1}}}},
    },
    "metrics": ["accuracy", {"mse": {"definition": "half_brier"}}, {"rrse": {"baseline": "weka"}}, "auc"],
    "reference": "NB-MDL",
    "significance": {"test": "corrected_resampled_t", "alpha": 0.05},
    "tables": {
        "table1": {"caption": "accuracy and MSE", "columns": [
            {"method": m, "metric": k, "classifier": m, "value": k}
            for m in ("NB-MDL", "Selected", "Calibrated-NB") for k in ("accuracy", "mse")]},
        "table2": {"metric": "auc", "methods": ["NB-MDL", "Selected", "Calibrated-NB"], "datasets": {"n_classes": 2}},
        "table3": {"kind": "pairwise", "methods": ["NB-MDL", "Selected", "Calibrated-NB", "G(eps=1e-09,prior=True)"],
                   "measures": {"ACC": "accuracy", "MSE": "mse"}, "tie": {"decimals": 4}},
    },
    "analysis": {"table": "table1", "metric": "mse", "decimals": 4, "statistics": [
        {"id": "friedman_mse", "test": "friedman", "methods": ["NB-MDL", "Selected", "Calibrated-NB"],
         "tie_correction": False},
        {"id": "nemenyi_cd", "test": "nemenyi_cd", "methods": ["NB-MDL", "Selected", "Calibrated-NB"]},
        {"id": "bd_cd", "test": "bonferroni_dunn_cd", "methods": ["NB-MDL", "Selected", "Calibrated-NB"],
         "control": "Selected"},
        {"id": "w_nb", "test": "wilcoxon", "methods": ["NB-MDL", "Selected"]}]},
    "claims": [   # generic claim kinds; nothing is printed, so the printed source is not checkable
        {"id": "friedman", "section": "1", "sentence": "the three differ", "kind": "test_rejects",
         "test": "friedman", "methods": ["NB-MDL", "Selected", "Calibrated-NB"], "metrics": ["mse", "accuracy"]},
        {"id": "selected_best", "section": "1", "sentence": "Selected has the lowest MSE rank", "kind": "rank_order",
         "best": "Selected", "among": ["NB-MDL", "Selected", "Calibrated-NB"]}],
    "figures": {
        "cd_nemenyi": {"kind": "cd_diagram", "table": "table1", "metric": "mse", "test": "nemenyi"},
        "cd_bd": {"kind": "cd_diagram", "table": "table1", "metric": "accuracy", "test": "bonferroni_dunn",
                  "control": "Selected"},
        "ranks": {"kind": "mean_rank_bars", "panels": [{"table": "table3_summary", "metric": "ACC"},
                                                       {"table": "table3_summary", "metric": "MSE"}]},
        "sweep": {"kind": "sweep", "table": "table4", "classifier": "G", "metric": "accuracy", "x": "epsilon",
                  "series": "use_prior"},
        "density": {"kind": "density", "attribute": "selected_params_", "range": [0, 0.2]},
    },
}
MACHINE_CV["tables"]["table4"] = {"metric": "accuracy", "methods": [
    "G(eps=1e-09,prior=True)", "G(eps=1e-09,prior=False)", "G(eps=0.01,prior=True)", "G(eps=0.01,prior=False)"]}

MACHINE_BV = {
    "paper": "machine_bv",
    "title": "machinery check: bias and variance",
    "datasets": ["iris", "gauss2d-C1"],
    "preprocessing": {"scope": "dataset", "steps": []},
    "protocol": {"name": "two_fold_trials", "trials": 3, "seed": 1},
    "classifiers": {"NB-MDL": dict(NB_MDL, job="NB-MDL"), "G": dict(GAUSS, job="G")},   # a job per classifier
    "metrics": ["error", "kw_bias2", "kw_variance"],
    "tables": {"table1": {"columns": [{"method": m, "metric": k, "classifier": m, "value": k}
                                      for m in ("NB-MDL", "G") for k in ("error", "kw_bias2", "kw_variance")]}},
}


@pytest.fixture(scope="module")
def machine_run(tmp_path_factory):
    """The two configs run once by Snakemake; the project folder."""
    proj = tmp_path_factory.mktemp("machine") / "proj"
    proj.mkdir()
    shutil.copy(ROOT / "Snakefile", proj)
    shutil.copy(ROOT / "environment.yml", proj)
    shutil.copytree(ROOT / "workflow", proj / "workflow")
    shutil.copytree(ROOT / "config", proj / "config")
    shutil.copytree(ROOT / "profiles", proj / "profiles")
    for spec in (MACHINE_CV, MACHINE_BV):
        (proj / f"config/papers/{spec['paper']}.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
    cmd = [sys.executable, "-m", "snakemake", "--cores", "2", "--config", "papers=[machine_cv,machine_bv]",
           f"mirror={DATA_DIR}"]
    res = subprocess.run(cmd, cwd=proj, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return proj


def test_every_machinery_key_end_to_end(machine_run):
    proj = machine_run
    r = proj / "results/machine_cv"
    assert (proj / "logs/evaluate/machine_cv/iris.log").exists()          # one job runs every classifier
    assert (proj / "logs/evaluate/machine_bv/iris.NB-MDL.log").exists()   # a job of one classifier

    folds = pd.read_parquet(r / "folds/iris/Selected.parquet")
    assert list(folds.columns[5:9]) == ["accuracy", "mse", "rrse", "auc"]
    assert len(folds) == 6 and sorted(folds.run.unique()) == [1, 2]
    fitted = pd.read_parquet(r / "fitted/gauss2d-C1/Selected.parquet")
    assert set(fitted.key) == {"epsilon"} and len(fitted) == 6
    assert set(fitted.value) <= {1e-9, 0.01, 0.1}

    t1 = pd.read_csv(r / "tables/table1.csv")
    assert t1["mean"].notna().all() and set(t1.metric) == {"accuracy", "mse"}
    assert set(pd.read_csv(r / "tables/table2.csv").dataset) == {"gauss2d-C0", "gauss2d-C1"}  # two-class filter
    summary = pd.read_csv(r / "tables/table1_summary.csv")
    mse = summary[summary.metric == "mse"].set_index("method")
    best = mse["average"].idxmin()
    assert mse.loc[best, "mean_rank_among_computed"] == mse["mean_rank_among_computed"].min() or \
        mse["average"].nunique() < 3   # lower MSE ranks first
    t3 = pd.read_csv(r / "tables/table3.csv")
    assert len(t3) == 2 * 6 and (t3.wins + t3.ties + t3.losses == 3).all()
    text = pd.read_csv(r / "stats/text_stats.csv").set_index("statistic")
    assert 0 <= text.loc["friedman_mse", "value"] <= 1 and text.loc["nemenyi_cd", "value"] > 0
    for name in ("cd_nemenyi", "cd_bd", "ranks", "sweep", "density"):
        assert (proj / f"figures/machine_cv/{name}.svg").exists(), name
    assert len(pd.read_csv(r / "stats/sweep_data.csv")) == 4 * 3
    assert pd.read_csv(r / "stats/density_summary.csv").objects.iloc[0] == 3 * 6
    report = (r / "report.html").read_text()
    assert "table3" in report and "cd_nemenyi.svg" in report
    assert "Wilcoxon p-values are scipy" in report   # the convention, beside the Wilcoxon p-value it printed
    claims = pd.read_csv(r / "stats/claims.csv")
    assert len(claims) == 2 * 3 and set(claims.kind) == {"test_rejects", "rank_order"}
    assert (claims[claims.source == "printed"].verdict == "not checkable").all()
    assert set(claims[claims.source == "ours"].verdict) <= {"yes", "no"}

    bv = pd.read_csv(proj / "results/machine_bv/tables/table1.csv").pivot(index=["dataset", "method"],
                                                                           columns="metric", values="mean")
    # Kohavi–Wolpert: bias² + variance = the error rate over all trials (each row tested once per trial)
    assert ((bv.kw_bias2 + bv.kw_variance - bv.error).abs() < 1e-6).all()  # CSVs keep 10 digits
    assert (proj / "resources/raw/gauss2d-C1.arff").read_text().startswith("% generated by nbrepro")


@pytest.mark.skipif(not have_browser(), reason="chromium, chromium-driver or selenium not installed")
def test_reports_read_well_in_a_browser(machine_run, tmp_path):
    # the index, both reports and their run pages in headless Chromium, at 1280 px and 400 px
    problems = check_pages(machine_run / "results", tmp_path / "screenshots")
    assert problems == []
    assert (tmp_path / "screenshots/index.png").stat().st_size > 0
    assert (tmp_path / "screenshots/machine_cv_report.png").stat().st_size > 0
