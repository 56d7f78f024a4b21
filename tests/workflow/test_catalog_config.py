# SPDX-License-Identifier: GPL-3.0-or-later
"""The Snakemake workflow catalog's test: the small config of `.test/` (a real paper cut to two data
sets) runs from a copy of the workflow, and `snakemake --report` builds its report."""
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

pytestmark = [pytest.mark.slow]


def test_the_small_test_config_runs_and_reports(tmp_path):
    proj = tmp_path / "proj"
    proj.mkdir()
    for name in ("Snakefile", "environment.yml"):
        shutil.copy(ROOT / name, proj / name)
    for folder in ("workflow", "config", "profiles", ".test"):
        shutil.copytree(ROOT / folder, proj / folder)
    run = [sys.executable, "-m", "snakemake", "--cores", "2", "--configfile", ".test/config/config.yaml"]
    for extra in ([], ["--report", "report.html"]):
        res = subprocess.run(run + extra, cwd=proj, capture_output=True, text=True, timeout=1200)
        assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert (proj / "results/lslwnb_cut/report.html").is_file() and (proj / "results/index.html").is_file()
    assert (proj / "report.html").stat().st_size > 10_000
