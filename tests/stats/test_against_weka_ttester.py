# SPDX-License-Identifier: GPL-3.0-or-later
"""The corrected resampled t-test against Weka 3.6's own ``PairedCorrectedTTester``, the tester
behind the papers' significance markers: 80 seeded data sets of 10 × 10-fold results of two
schemes (differences from none to clear, one data set with no variance, one with missing folds),
written as an Experimenter results file, the markers Weka prints compared with ours."""
import subprocess

import numpy as np
from oracles import WEKA_JAR, needs_weka

from nbrepro.stats import corrected_resampled_ttest

pytestmark = [needs_weka]

N_DATASETS, RUNS, FOLDS, TRAIN, TEST = 80, 10, 10, 90, 10


def _results():
    """dataset → (A's and B's percent correct per run and fold, as Weka's Experimenter keeps them)."""
    rng = np.random.default_rng(7)
    out = {}
    for d in range(N_DATASETS):
        a = 80 + rng.normal(0, 2, RUNS * FOLDS)
        b = a + rng.uniform(-2.5, 2.5) + rng.normal(0, 1.5, RUNS * FOLDS)
        if d == 0:
            b = a.copy()   # no variance: p = 1, no mark
        if d == 1:
            a[[3, 57]] = np.nan   # missing folds: skipped, as Weka's tester skips them
        out[f"d{d}"] = (np.round(a, 6), np.round(b, 6))
    return out


def test_significance_marks_equal_wekas(tmp_path):
    results = _results()
    lines = ["@relation experiment", "@attribute Key_Dataset {" + ",".join(results) + "}",
             "@attribute Key_Run numeric", "@attribute Key_Fold numeric", "@attribute Key_Scheme {A,B}",
             "@attribute Number_of_training_instances numeric", "@attribute Number_of_testing_instances numeric",
             "@attribute Percent_correct numeric", "@data"]
    for name, (a, b) in results.items():
        for i in range(RUNS * FOLDS):
            for scheme, v in (("A", a[i]), ("B", b[i])):
                lines.append(f"{name},{i // FOLDS + 1},{i % FOLDS + 1},{scheme},{TRAIN},{TEST},"
                             + ("?" if np.isnan(v) else repr(float(v))))
    (tmp_path / "results.arff").write_text("\n".join(lines) + "\n")
    out = subprocess.run(["java", "-cp", str(WEKA_JAR), "weka.experiment.PairedCorrectedTTester",
                          "-t", str(tmp_path / "results.arff"), "-D", "1", "-R", "2", "-F", "3", "-G", "4", "-c", "7",
                          "-b", "1", "-csv"], capture_output=True, text=True, check=True).stdout
    weka = {}
    for line in out.splitlines():
        parts = line.split(",")
        if len(parts) == 4 and parts[0] in results:
            weka[parts[0]] = {"v": 1, "*": -1}.get(parts[3].strip("' "), 0)
    assert set(weka) == set(results)
    ours = {name: corrected_resampled_ttest(b, a, TEST / TRAIN).significance for name, (a, b) in results.items()}
    assert ours == weka
    marked = sum(1 for v in weka.values() if v)
    assert 20 < marked < N_DATASETS - 10, marked   # both verdicts well represented
    assert weka["d0"] == 0
