# SPDX-License-Identifier: GPL-3.0-or-later
"""Every ``nbrepro`` command given a path that is not there says so in one line, with no traceback."""
import subprocess
import sys

import pytest

MISSING = "no/such/file.yaml"
COMMANDS = {
    "fetch": ["--dataset", "iris", "--registry", MISSING, "--out", "x.arff"],
    "ship": [MISSING],
    "prepare": ["--paper-config", MISSING, "--dataset", "iris", "--registry", MISSING, "--raw", MISSING,
                "--out-data", "d.parquet", "--out-folds", "f.parquet"],
    "evaluate": ["--paper-config", MISSING, "--dataset", "iris", "--classifier", "NB", "--prepared", MISSING,
                 "--folds", MISSING, "--out-folds", "f.parquet", "--out-predictions", "p.parquet"],
    "analyse": ["--paper-config", MISSING, "--results", "r", "--registry", MISSING, "--table", "table2"],
    "paper-stats": ["--paper-config", MISSING, "--results", "r", "--registry", MISSING],
    "readings": ["--paper-config", MISSING, "--results", "r", "--seeds", "0", "--figures", "f",
                 "--reading", "a/b"],
    "folds": ["--paper-config", MISSING, "--dataset", "iris", "--prepared", MISSING, "--out", "f.parquet"],
    "figure": ["--table", MISSING, "--out", "f"],
    "fingerprint": [MISSING],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_missing_path_is_one_line(command, tmp_path):
    res = subprocess.run([sys.executable, "-m", "nbrepro.cli", command, *COMMANDS[command]], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode != 0
    lines = res.stderr.strip().splitlines()
    assert "Traceback" not in res.stderr and len(lines) == 1, res.stderr[-2000:]
    assert "no/such/file.yaml" in lines[0] or "no such file" in lines[0].lower(), lines[0]


def test_the_index_keeps_papers_an_earlier_run_built(tmp_path):
    """Was (issue 63): papers=[a] then papers=[b] dropped a from the index, its results on disk."""
    from nbrepro import paths
    from nbrepro.cli import _earlier_papers

    configs = tmp_path / "papers"
    configs.mkdir()
    for name in ("a", "b", "c"):
        (configs / f"{name}.yaml").write_text(f"paper: {name}\ntables: {{t2: {{}}}}\n")
    results = tmp_path / "results"
    for name in ("a", "b", "d"):   # d: a report with no config any more
        (results / name / "stats").mkdir(parents=True)
        (results / name / paths.REPORT).write_text("<html>")
        (results / name / paths.match_counts("t2")).write_text("x\n")
    (results / "c").mkdir()   # c: no report, nothing to show
    assert _earlier_papers(results, [str(configs / "b.yaml")], [str(configs)]) == [str(configs / "a.yaml")]
