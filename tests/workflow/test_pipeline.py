# SPDX-License-Identifier: GPL-3.0-or-later
"""End to end: Snakemake on a tiny config (3 datasets, 2 runs × 3 folds), determinism, bad input."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import DATA_DIR, ROOT

from nbrepro.cli import main as cli
from nbrepro.fingerprint import fingerprint

pytestmark = [pytest.mark.slow]

TINY = {
    "paper": "tiny",
    "title": "tiny end-to-end check",
    "datasets": ["labor", "iris", "zoo"],
    "preprocessing": {"scope": "dataset", "steps": [{"remove_id_like": {"min_distinct_fraction": 0.9}},
                                                    {"replace_missing": {}},
                                                    {"discretize_equal_width": {"n_bins": 10}}]},
    "protocol": {"name": "weka_cv", "folds": 3, "runs": {"first": 1, "last": 2}, "train_order": "weka"},
    "classifiers": {"NB": {"estimator": "NaiveBayes"}},
    "metrics": ["accuracy"],
    "tables": {"table2": {"metric": "accuracy", "methods": ["NB"],
                          "published": "config/published/lcwnb_table2.csv"}},
}


def _project(tmp_path: Path, paper=TINY) -> Path:
    proj = tmp_path / "proj"
    proj.mkdir(parents=True)
    shutil.copy(ROOT / "Snakefile", proj)
    shutil.copy(ROOT / "environment.yml", proj)   # the rules' conda: directive names it
    shutil.copytree(ROOT / "workflow", proj / "workflow")
    shutil.copytree(ROOT / "config", proj / "config")
    shutil.copytree(ROOT / "profiles", proj / "profiles")
    (proj / "config/papers/tiny.yaml").write_text(yaml.safe_dump(paper))
    return proj


def _snakemake(proj, *args, check=True, env=None, cores=2):
    """Snakemake on the tiny paper in ``proj``; ``args`` may start with more config values. ``cores=None``
    leaves the executor to ``args`` (a profile); a run that hangs fails after 20 minutes."""
    cmd = [sys.executable, "-m", "snakemake", *(["--cores", str(cores)] if cores else []),
           "--config", "papers=[tiny]", *args]
    res = subprocess.run(cmd, cwd=proj, capture_output=True, text=True, env=dict(os.environ, **(env or {})),
                         timeout=1200)
    if check and res.returncode != 0:
        raise AssertionError(res.stdout[-4000:] + res.stderr[-4000:])
    return res


INVESTIGATION = {"file": "investigations/results/study.csv", "caption": "a side study"}


def _with_investigation(proj: Path) -> Path:
    (proj / "investigations/results").mkdir(parents=True)
    (proj / INVESTIGATION["file"]).write_text("setting,exact\nK=50,0\n")
    return proj


def test_tiny_run_outputs_and_determinism(tmp_path):
    paper = dict(TINY, investigations=[INVESTIGATION])
    a = _with_investigation(_project(tmp_path / "a", paper))
    console = _snakemake(a, f"mirror={DATA_DIR}").stderr
    # the quiet console (snakemake_logger_plugin_nbrepro): a line per finished job, no job's input list
    assert "steps (100%) done · all" in console and " done · report (paper=tiny): results/tiny/report.html" in console
    assert "    input:" not in console and "reason:" not in console
    report = (a / "results/tiny/report.html").read_text()
    assert "Investigation: investigations/results/study.csv" in report and "a side study" in report
    for rel in ["results/index.html", "results/tiny/report.html", "results/tiny/tables/table2.csv",
                "results/tiny/stats/table2_match_counts.csv", "figures/tiny/table2_reproduced_vs_published.png",
                "figures/tiny/table2_reproduced_vs_published.svg", "results/tiny/folds/zoo/NB.parquet",
                "results/tiny/predictions/labor/NB.parquet"]:
        assert (a / rel).exists(), rel
    import pandas as pd
    folds = pd.read_parquet(a / "results/tiny/folds/labor/NB.parquet")
    assert list(folds.columns) == ["variant", "run", "fold", "n_train", "n_test", "accuracy", "fit_seconds",
                                   "predict_seconds"]
    assert len(folds) == 6 and folds.n_test.sum() == 2 * 57
    # the run's provenance as an RO-Crate beside the index: every result file with its sha256, the
    # configs copied in, the data sets with their origin and licence, the software and the run
    from rocrate.rocrate import ROCrate

    crate = ROCrate(a / "results")
    entities = {e.id: e for e in crate.get_entities()}
    report = entities["tiny/report.html"]
    import hashlib
    assert report["sha256"] == hashlib.sha256((a / "results/tiny/report.html").read_bytes()).hexdigest()
    assert (a / "results/inputs/papers/tiny.yaml").read_bytes() == (a / "config/papers/tiny.yaml").read_bytes()
    assert entities["#dataset/iris"]["license"].startswith("CC BY 4.0")
    assert entities["#dataset/iris"]["sha256"] == "7d34ba556497e9dc28335ea6628a37d1dbcba090a1ae20dc2de9c7032d199153"
    run = entities["#run"]
    assert run["instrument"].id == "#nbrepro" and len(run["result"]) >= 10
    assert {e.id for e in run["object"]} >= {"inputs/config.yaml", "inputs/papers/tiny.yaml", "#dataset/labor"}
    # the README's `snakemake --cores 2 --report report.html`, for real, after the run it reports on
    _snakemake(a, f"mirror={DATA_DIR}", "--report", "report.html")
    assert (a / "report.html").stat().st_size > 10_000
    # ... and after a run of some papers: Snakemake's report of those built, the others named (was: "File
    # results/lcwnb/report.html marked for report but does not exist")
    res = _snakemake(a, "--report", "report_built.html", "--config", "papers=[tiny,lcwnb]", f"mirror={DATA_DIR}")
    assert "not built: lcwnb" in res.stderr and (a / "report_built.html").is_file()
    # results/ stands alone (the RO-Crate's root): copied elsewhere, every image and link of its pages resolves
    copy = tmp_path / "elsewhere" / "results"
    shutil.copytree(a / "results", copy)
    assert (copy / "tiny/figures/table2_reproduced_vs_published.svg").is_file()
    assert _unresolved_links(copy) == []
    # the jobs were forked from the run's warm worker (nbrepro.runtime.worker), each log ending with its CPU time
    assert "0 declined" in (a / "logs/worker.log").read_text()
    assert "(worker, peak " in (a / "logs/evaluate/tiny/labor.log").read_text().splitlines()[-1]
    # a second project with one core, each job in its own process, gives the same bytes (timing columns aside)
    b = _with_investigation(_project(tmp_path / "b", paper))
    shutil.copytree(a / "resources/raw", b / "resources/raw")
    _snakemake(b, f"mirror={DATA_DIR}", "worker=false", cores=1)
    assert not (b / "logs/worker.log").exists()
    assert "(own process)" in (b / "logs/evaluate/tiny/labor.log").read_text().splitlines()[-1]
    assert fingerprint(a / "results") == fingerprint(b / "results")
    # a deleted result file is reported, not silently absent from the fingerprint
    args = ["fingerprint", str(b / "results"), "--config", str(b / "config/config.yaml"), "--papers", "tiny"]
    assert cli(args) == 0
    (b / "results/tiny/predictions/zoo/NB.parquet").unlink()
    assert cli(args) == 1
    # and a plain rerun makes it again (was: "Nothing to be done"), as it does a deleted raw file
    (b / "resources/raw/iris.arff").unlink()
    _snakemake(b, f"mirror={DATA_DIR}", cores=1)
    assert cli(args) == 0 and (b / "resources/raw/iris.arff").exists()
    assert fingerprint(a / "results") == fingerprint(b / "results")
    assert (a / "figures/tiny/table2_reproduced_vs_published.svg").read_bytes() == \
        (b / "figures/tiny/table2_reproduced_vs_published.svg").read_bytes()


def _unresolved_links(root: Path) -> list[str]:
    """Every ``src`` and ``href`` of the pages under ``root`` that names no file inside ``root`` (page
    anchors and web addresses aside)."""
    import re

    bad = []
    for page in sorted(root.rglob("*.html")):
        for link in re.findall(r"""(?:src|href)=['"]([^'"]+)['"]""", page.read_text()):
            if link.startswith(("#", "http://", "https://", "mailto:", "data:")):
                continue
            target = (page.parent / link.split("#")[0]).resolve()
            if not target.is_relative_to(root.resolve()) or not target.exists():
                bad.append(f"{page.relative_to(root)}: {link}")
    return bad


def _planned_rules(proj) -> set[str]:
    out = _snakemake(proj, f"mirror={DATA_DIR}", "--dry-run").stdout
    return {line.split()[1].rstrip(":") for line in out.splitlines() if line.startswith(("rule ", "localrule "))}


def test_config_edits_rerun_only_what_they_change(tmp_path):
    # a job per classifier (job:), so that editing one reruns only its own
    paper = dict(TINY, datasets=["labor"], classifiers={"NB": {"estimator": "NaiveBayes", "job": "nb"},
                                                        "AODE": {"estimator": "AODE", "job": "aode"}})
    proj = _project(tmp_path, paper)
    _snakemake(proj, f"mirror={DATA_DIR}")
    assert _planned_rules(proj) == set()
    cfg = proj / "config/papers/tiny.yaml"

    def edit(change):
        spec = yaml.safe_load(cfg.read_text())
        change(spec)
        cfg.write_text(yaml.safe_dump(spec))
        return _planned_rules(proj)

    # a title or a classifier's note: analysis and report only
    planned = edit(lambda s: s.update(title="renamed") or s["classifiers"]["NB"].update(note="a note"))
    assert not any(r.startswith(("evaluate", "prepare")) for r in planned) and "report" in planned
    _snakemake(proj, f"mirror={DATA_DIR}")
    # one classifier's parameters: that classifier's jobs only
    mtime = {c: (proj / f"results/tiny/folds/labor/{c}.parquet").stat().st_mtime_ns for c in ("NB", "AODE")}
    edit(lambda s: s["classifiers"]["AODE"].update(params={"frequency_limit": 2}))
    _snakemake(proj, f"mirror={DATA_DIR}")
    assert (proj / "results/tiny/folds/labor/NB.parquet").stat().st_mtime_ns == mtime["NB"]
    assert (proj / "results/tiny/folds/labor/AODE.parquet").stat().st_mtime_ns != mtime["AODE"]
    # a new dataset in the registry ("Add a dataset", step 1): nothing of this paper reruns
    reg_path = proj / "config/datasets.yaml"
    reg = yaml.safe_load(reg_path.read_text())
    reg["datasets"]["new-set"] = {"file": "new-set.arff", "n_instances": 10, "n_attributes": 1, "n_classes": 2}
    reg_path.write_text(yaml.safe_dump(reg))
    assert _planned_rules(proj) == set()
    # the preprocessing: data and every classifier
    planned = edit(lambda s: s["preprocessing"]["steps"][2]["discretize_equal_width"].update(n_bins=5))
    assert {"prepare", "evaluate_dataset_tiny_nb", "evaluate_dataset_tiny_aode"} <= planned


def test_where_the_data_came_from_changes_nothing(tmp_path):
    """After a finished run, the same command with the mirror named by another path, by another
    folder holding the same files, or with no mirror (the shipped files) plans nothing."""
    paper = dict(TINY, datasets=["labor"])
    proj = _project(tmp_path, paper)
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    shutil.copy(DATA_DIR / "labor.arff", mirror)
    _snakemake(proj, "mirror=../mirror")
    for args in ([f"mirror={mirror}"], [f"mirror={DATA_DIR}"], [], ["openml=false"]):
        out = _snakemake(proj, *args, "--dry-run").stdout
        assert "Nothing to be done" in out, (args, out[-1500:])
    # results depend on the cached file's bytes, not its time: fetched again (now from the shipped
    # copy, with a newer modification time), the same bytes rerun nothing
    raw = proj / "resources/raw/labor.arff"
    before = raw.read_bytes()
    raw.unlink()
    registry = str(proj / "config/datasets.yaml")
    assert cli(["fetch", "--dataset", "labor", "--registry", registry, "--out", str(raw)]) == 0
    assert raw.read_bytes() == before and "shipped:" in (proj / "resources/raw/labor.arff.source.json").read_text()
    assert "Nothing to be done" in _snakemake(proj, "--dry-run").stdout


def test_a_result_cut_short_after_its_job_stops_the_next_run(tmp_path):
    """Was (issue 43): a results parquet truncated in place was reused ("Nothing to be done"), and
    tables were computed from what was left of it. Now the run stops before any job, naming the
    file and what to do; deleted, it is made again."""
    proj = _project(tmp_path, dict(TINY, datasets=["labor"]))
    _snakemake(proj)
    rel = "results/tiny/folds/labor/NB.parquet"
    f = proj / rel
    assert (f.parent / ".NB.parquet.sha256").is_file()
    data, before = f.read_bytes(), dict(fingerprint(proj / "results"))
    f.write_bytes(data[: len(data) // 2])
    res = _snakemake(proj, "--dry-run", check=False)
    assert res.returncode != 0
    said = res.stdout + res.stderr
    assert f"{rel} is not the file its job wrote" in said and "delete it and run snakemake again" in said
    f.unlink()
    _snakemake(proj)
    assert dict(fingerprint(proj / "results")) == before  # the same results (the seconds columns aside)


def test_changed_generator_settings_make_the_data_set_anew(tmp_path):
    """Was: the cached file from the old settings reused, every result computed on the old data.
    A registry edit that changes no data (notes, origin) reruns nothing."""
    proj = _project(tmp_path, dict(TINY, datasets=["gauss2d-C0"]))
    _snakemake(proj)
    reg_path = proj / "config/datasets.yaml"
    reg = yaml.safe_load(reg_path.read_text())
    reg["datasets"]["gauss2d-C0"]["notes"] = "a note"
    reg_path.write_text(yaml.safe_dump(reg))
    assert _planned_rules(proj) <= {"crate", "all"}  # the crate copies the run's registry entries
    reg["datasets"]["gauss2d-C0"]["params"]["cov"] = [[2, 0.1], [0.1, 2]]
    reg_path.write_text(yaml.safe_dump(reg))
    assert {"fetch", "evaluate_dataset_tiny"} <= _planned_rules(proj)


def test_bad_dataset_fails_alone_and_finished_results_stay(tmp_path):
    paper = dict(TINY, datasets=["labor", "broken"])
    proj = _project(tmp_path, paper)
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    shutil.copy(DATA_DIR / "labor.arff", mirror)
    (mirror / "broken.arff").write_text("@relation b\n@attribute a {x,y}\n@attribute c {p,n}\n@data\nx,p\nz,n\n")
    reg = yaml.safe_load((proj / "config/datasets.yaml").read_text())
    reg["datasets"]["broken"] = {"file": "broken.arff", "n_instances": 2, "n_attributes": 1, "n_classes": 2}
    (proj / "config/datasets.yaml").write_text(yaml.safe_dump(reg))
    res = _snakemake(proj, f"mirror={mirror}", "--keep-going", check=False)
    assert res.returncode != 0
    log = (proj / "logs/evaluate/tiny/broken.log").read_text()  # one job prepares and evaluates it
    assert "broken.arff:6: value 'z' of nominal attribute 'a' is not declared" in log
    # and on the console (the workflow profile's show-failed-logs), not only in the log file
    assert "broken.arff:6: value 'z' of nominal attribute 'a' is not declared" in res.stdout + res.stderr
    assert (proj / "results/tiny/folds/labor/NB.parquet").exists()


def test_unknown_dataset_in_paper_config(tmp_path):
    proj = _project(tmp_path, dict(TINY, datasets=["labor", "no-such-set"]))
    res = _snakemake(proj, "-n", check=False)
    assert res.returncode != 0 and "no-such-set" in res.stdout + res.stderr


def test_paper_config_schema_violation(tmp_path):
    bad = dict(TINY)
    bad["clasifiers"] = bad.pop("classifiers")
    proj = _project(tmp_path, bad)
    res = _snakemake(proj, "-n", check=False)
    out = res.stdout + res.stderr
    assert res.returncode != 0 and "clasifiers" in out


def test_wrong_config_key(tmp_path):
    proj = _project(tmp_path)
    res = _snakemake(proj, "-n", "mirorr=../x", check=False)
    assert res.returncode != 0 and "mirorr" in res.stdout + res.stderr


def test_config_paths_reach_the_shell_quoted(tmp_path):
    """A registry or paper folder whose path has a space (or a shell character) is one argument in
    every job's command (was: unquoted, so bash split it; issue 64)."""
    proj = _project(tmp_path)
    (proj / "my config").mkdir()
    shutil.copy(proj / "config/datasets.yaml", proj / "my config/data sets.yaml")
    shutil.copytree(proj / "config/papers", proj / "my config/papers")
    res = _snakemake(proj, "registry=my config/data sets.yaml", "paper_dir=my config/papers", "-n", "-p",
                     "--forceall")
    commands = [line.split("Shell command: ", 1)[1] for line in (res.stdout + res.stderr).splitlines()
                if "Shell command: nbrepro " in line]
    assert commands and any("--registry 'my config/data sets.yaml'" in line for line in commands)
    for line in commands:   # every path under the folder with a space is one quoted word
        assert line.count("my config/") == line.count("'my config/"), line


def test_class_with_fewer_rows_than_folds_can_be_refused(tmp_path, capsys):
    paper = dict(TINY, protocol=dict(TINY["protocol"], folds=10, small_classes="error"))
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(paper))
    rc = cli(
        [
            "prepare",
            "--paper-config",
            str(tmp_path / "p.yaml"),
            "--dataset",
            "zoo",
            "--registry",
            str(ROOT / "config/datasets.yaml"),
            "--raw",
            str(DATA_DIR / "zoo.arff"),
            "--out-data",
            str(tmp_path / "d.parquet"),
            "--out-folds",
            str(tmp_path / "f.parquet"),
        ]
    )
    err = capsys.readouterr().err
    assert rc == 2 and "dataset 'zoo'" in err and "'reptile' (5 rows)" in err
    assert not (tmp_path / "f.parquet").exists()


def test_subset_of_datasets_compares_averages_over_the_same_datasets():
    """A config with 3 of Li & Li's 36 datasets must not set its average beside the paper's 36-set average."""
    import pandas as pd

    from nbrepro.analysis.tables import _same_datasets, read_published, summary
    from nbrepro.paper import Paper

    pub = read_published(ROOT / "config/published/lcwnb_table2.csv")
    paper = Paper.from_config(TINY)  # as load_paper gives it (published_names: the schema's default)
    rows = pub[pub.dataset.isin(["labor", "iris", "zoo"]) & (pub.method == "NB")]
    table = pd.DataFrame(
        {
            "dataset": rows.dataset,
            "method": "NB",
            "metric": "accuracy",
            "mean": rows["mean"],
            "std": rows["std"],
            "published_mean": rows["mean"],
            "published_std": rows["std"],
        }
    )
    printed = pd.read_csv(ROOT / "config/published/lcwnb_table2_summary.csv")
    s = _same_datasets(summary(table, printed), table, pub, paper, {"accuracy": True})
    assert s.published_average.iloc[0] == pytest.approx(rows["mean"].mean())  # not the printed 36-set 85.15
    assert s.published_over.iloc[0] == "the 3 datasets run here (of the paper's 36)"


def test_stale_locks_are_cleared_only_by_the_main_process(tmp_path):
    """A SLURM job step parses the Snakefile on a compute node, whose /proc cannot see the run on
    the login node: it must leave the locks alone (exec mode remote), as the main process clears them."""
    proj = _project(tmp_path)
    locks = proj / ".snakemake/locks"
    locks.mkdir(parents=True)
    (locks / "0.input.lock").write_text("")
    _snakemake(proj, "--dry-run", "--mode", "remote")
    assert (locks / "0.input.lock").exists()
    res = _snakemake(proj, "--dry-run")
    assert not any(locks.iterdir()) and "removed stale Snakemake locks" in res.stderr


def test_plain_rerun_after_kill_9_finishes(tmp_path):
    """kill -9 mid-run left IncompleteFilesException, then LockException; now a plain rerun carries on
    (stale locks cleared by the Snakefile, rerun-incomplete from the workflow profile)."""
    import os
    import signal
    import time

    proj = _project(tmp_path)
    cmd = [sys.executable, "-m", "snakemake", "--cores", "2", "--config", "papers=[tiny]", f"mirror={DATA_DIR}"]
    p = subprocess.Popen(cmd, cwd=proj, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    start = time.time()
    while time.time() - start < 120 and not list((proj / "resources").glob("prepared/tiny/*.parquet")):
        time.sleep(0.1)
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    assert (proj / ".snakemake/locks").is_dir() and any((proj / ".snakemake/locks").iterdir())
    res = subprocess.run(cmd, cwd=proj, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-2000:]
    assert (proj / "results/tiny/report.html").exists()


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda p: p["classifiers"].update({"N B": {"estimator": "NaiveBayes"}}), "N B"),
        (lambda p: p.update(metrics=["accuracy", "auc2"]), "auc2"),
        (lambda p: p["protocol"]["runs"].update(first=5, last=1), "first (5) is after last (1)"),
        (lambda p: p["classifiers"]["NB"].update(params={"handle_unknwn": "error"}), "handle_unknwn"),
        (lambda p: p["tables"]["table2"]["methods"].append("AODE"), "['AODE'] name no classifier"),
        (lambda p: p["classifiers"].update({"L": {"estimator": "LCWNB", "params": {"kappa": "5"}}}),
         "The 'kappa' parameter of LCWNB must be a float"),
        (lambda p: p["classifiers"]["NB"].update(datasets=["labor", "iris2"]), "['iris2'] are not among the paper's"),
        (lambda p: p["classifiers"]["NB"].update(datasets=["labor", "iris"]), "'NB' does not run on ['zoo']"),
    ],
)
def test_config_errors_stop_before_any_job_and_name_the_file(tmp_path, change, message):
    import copy

    paper = copy.deepcopy(TINY)
    change(paper)
    proj = _project(tmp_path, paper)
    res = _snakemake(proj, "-n", check=False)
    out = res.stdout + res.stderr
    assert res.returncode != 0 and message in out and "config/papers/tiny.yaml" in out
    assert "rule fetch" not in out  # nothing planned, let alone run


def test_job_groups_and_dataset_restricted_classifiers(tmp_path):
    # job: names — one job per data set and name, rule prepare
    # first; a classifier with datasets: runs only there, and the tables leave it out elsewhere
    import copy

    paper = copy.deepcopy(TINY)
    paper["classifiers"]["NB2"] = {"estimator": "NaiveBayes", "job": "second", "datasets": ["labor", "zoo"]}
    paper["tables"]["table3"] = {
        "metric": "accuracy",
        "methods": ["NB2"],
        "datasets": ["labor", "zoo"],
        "published": "config/published/lcwnb_table2.csv",
    }
    proj = _project(tmp_path, paper)
    _snakemake(proj, f"mirror={DATA_DIR}")
    assert sorted((proj / "results/tiny/folds/iris").glob("*.parquet")) == [proj / "results/tiny/folds/iris/NB.parquet"]
    assert (proj / "results/tiny/folds/zoo/NB2.parquet").exists()
    assert sorted(p.parent.name for p in (proj / "logs/benchmarks/tiny").glob("*/labor.tsv")) == ["all", "second"]
    assert (proj / "logs/prepare/tiny/labor.log").exists()
