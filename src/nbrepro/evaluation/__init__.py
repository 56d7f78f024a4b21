# SPDX-License-Identifier: GPL-3.0-or-later
"""The experiment a paper runs: estimators from its classifier entries (``estimators``), each
classifier's folds fitted and predicted (``crossval``), the metrics of its probabilities
(``metrics``), and the evaluation job that writes them (``experiment``)."""
