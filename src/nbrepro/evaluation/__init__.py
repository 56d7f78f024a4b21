# SPDX-License-Identifier: GPL-3.0-or-later
"""The experiment a paper runs: estimators built from its classifier entries (``builders``), each
classifier's folds fitted and predicted (``crossval``), and the evaluation job that scores them with
the paper's metrics (``nbrepro.metrics``) and writes them (``experiment``)."""
