# SPDX-License-Identifier: GPL-3.0-or-later
"""Same config, same bytes, with numpy's AVX-512 loops on and off: a small paper's fingerprint.

numpy computes exp, log and pow with its own loops on a CPU with AVX-512 and with the C library
elsewhere; nbrepro computes them with the C library everywhere (nbrepro.libm). This runs one
small paper of the learners whose bits rest on those functions (Weka's naive Bayes with normal
and kernel estimators, R's bandwidths, Logistic's optimiser, the calibration, the local
probabilistic models, TAN over MDL cut points, least-squares LWNB) twice, the second time with
numpy's AVX-512 loops switched off, and compares ``nbrepro fingerprint``. On a machine without
AVX-512 the two runs are the same configuration, and the test says so.
"""
import pytest
from conftest import AVX512_OFF, DATA_DIR
from test_pipeline import _project, _snakemake

from nbrepro.fingerprint import fingerprint

pytestmark = [pytest.mark.slow, pytest.mark.bits]

BITS = {
    "paper": "tiny",
    "title": "same bytes with numpy's AVX-512 loops on and off",
    "datasets": ["labor", "diabetes", "vehicle"],
    "preprocessing": {"scope": "dataset", "steps": []},
    "protocol": {"name": "weka_cv", "folds": 3, "runs": {"first": 1, "last": 1}, "train_order": "weka"},
    "classifiers": {
        "NB": {"estimator": "NaiveBayes"},
        "NB-K": {"estimator": "NaiveBayes", "params": {"kernel": True}},
        "NB-D": {"estimator": "NaiveBayes", "params": {"supervised_discretization": True}},
        "STE": {"estimator": "KernelNB", "params": {"bandwidth": "ste"}, "record": ["bandwidths_"]},
        "DPI": {"estimator": "KernelNB", "params": {"bandwidth": "dpi"}},
        "UCV": {"estimator": "KernelNB", "params": {"bandwidth": "ucv"}},
        "Logistic": {"estimator": "Logistic"},
        "Calibrated-NB": {"estimator": "Calibrated", "params": {"estimator": {"estimator": "NaiveBayes"}}},
        "TAN": {"estimator": "TAN"},
        "LPM-BC": {"estimator": "LPMBC", "datasets": ["diabetes", "vehicle"]},  # numeric attributes only
        "LSLWNB": {"estimator": "LSLWNB"},
        "FGNB": {"estimator": "FrequencyGaussianNB"},
    },
    "metrics": ["accuracy", "auc", "rrse", "log_loss"],
    "tables": {"table2": {"metric": "accuracy", "methods": ["NB", "Logistic"],
                          "published": "config/published/lcwnb_table2.csv"}},
}


def test_a_small_paper_has_the_same_fingerprint_with_numpys_avx512_loops_off(tmp_path):
    on = _project(tmp_path / "on", BITS)
    _snakemake(on, f"mirror={DATA_DIR}")
    off = _project(tmp_path / "off", BITS)
    _snakemake(off, f"mirror={DATA_DIR}", env=AVX512_OFF)
    if not AVX512_OFF:
        print("numpy uses no AVX-512 loops on this machine: both runs had the same configuration")
    a, b = fingerprint(on / "results"), fingerprint(off / "results")
    assert a == b, sorted(set(a) ^ set(b))[:10]
