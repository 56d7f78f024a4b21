# SPDX-License-Identifier: GPL-3.0-or-later
"""The suite on a real SLURM cluster: a small paper through ``--profile profiles/slurm`` gives
byte-identical results to a local run, and its jobs are in SLURM's accounting.

Needs a running cluster: ``.ci/slurm/up`` starts a one-node one (Debian's SLURM with slurmdbd),
``.ci/slurm/down`` stops it; ``.ci/run`` does both around the tests and sets
NBREPRO_SLURM_REQUIRED=1, so there a missing cluster fails instead of skipping."""
import os
import shutil
import subprocess

import pytest
from conftest import DATA_DIR, ROOT
from test_pipeline import TINY, _project, _snakemake

from nbrepro.fingerprint import fingerprint


def _cluster_up() -> bool:
    if not (shutil.which("sinfo") and shutil.which("sacct")):
        return False
    ok = lambda *cmd: subprocess.run(cmd, capture_output=True, timeout=30).returncode == 0  # noqa: E731
    return ok("sinfo", "-h") and ok("sacct", "-n", "-X", "-S", "now")


# where a cluster is required the test runs and its first assertion names what is missing
needs_cluster = pytest.mark.skipif(os.environ.get("NBREPRO_SLURM_REQUIRED") != "1" and not _cluster_up(),
                                   reason="no SLURM cluster (start one with .ci/slurm/up)")

pytestmark = [pytest.mark.slow, needs_cluster]

# two evaluation jobs (job: names) on each of three data sets, after rule prepare, whose three
# jobs the profile's group batches into one SLURM job
PAPER = {**TINY,
         "classifiers": {"NB": {"estimator": "NaiveBayes", "job": "nb"}, "AODE": {"estimator": "AODE", "job": "aode"}},
         "tables": {"table2": {"metric": "accuracy", "methods": ["NB", "AODE"],
                               "published": "config/published/lcwnb_table2.csv"}}}


def test_slurm_run_equals_local_run_and_is_accounted(tmp_path):
    assert _cluster_up(), "NBREPRO_SLURM_REQUIRED=1 but no SLURM cluster answers (sinfo, sacct)"
    # with one reseeded run (seeds=1): its jobs are ordinary jobs of the DAG, sent and grouped as the main run's
    local = _project(tmp_path / "local", PAPER)
    _snakemake(local, f"mirror={DATA_DIR}", "seeds=1")

    cluster = _project(tmp_path / "cluster", PAPER)
    run = _snakemake(cluster, f"mirror={DATA_DIR}", "seeds=1", "--profile", str(ROOT / "profiles/slurm"),
                     # a one-node test cluster answers at once: poll sooner than a real one needs
                     "--slurm-init-seconds-before-status-checks", "5", "--seconds-between-status-checks", "5",
                     cores=None)
    log = run.stdout + run.stderr

    assert fingerprint(cluster / "results") == fingerprint(local / "results")

    assert (cluster / "results/tiny/seeds/1/tables/table2.csv").is_file()
    assert (cluster / "results/tiny/stats/seed_bands.csv").is_file()

    # every SLURM job of this run (named by the run's id) finished: the three preparations as one
    # grouped job and the reseeded run's three folds as another, each of the six evaluation jobs
    # of each run as its own, the seed bands, and the paper's stats (the audit of its printed table)
    run_ids = {line.split("has been submitted with SLURM jobid")[1].split()[0]
               for line in log.splitlines() if "has been submitted with SLURM jobid" in line}
    assert len(run_ids) == 16, log[-3000:]
    acct = subprocess.run(["sacct", "-n", "-X", "-P", "-j", ",".join(sorted(run_ids)), "-o", "JobID,State,Comment"],
                          capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(acct) == 16 and all(line.split("|")[1] == "COMPLETED" for line in acct), acct
    kinds = sorted(line.split("|")[2].split("_", 1)[1].split("_")[0] for line in acct)
    assert kinds == ["evaluate"] * 12 + ["paper", "prepare", "seed", "seed"], acct
