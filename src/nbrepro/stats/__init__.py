# SPDX-License-Identifier: GPL-3.0-or-later
"""Statistics of the papers: each a pure function returning a small result object."""
from ..weka.summary import weka_mean_std
from .bayesian import BayesianResult, bayesian_signed_rank
from .nonparametric import RankTestResult, friedman, friedman_from_mean_ranks, iman_davenport, quade
from .posthoc import (
                      HolmResult,
                      PairedTestResult,
                      PostHocResult,
                      WilcoxonHolmResult,
                      bonferroni_dunn,
                      bonferroni_dunn_q,
                      critical_difference,
                      holm,
                      mean_rank_test,
                      nemenyi,
                      nemenyi_q,
                      permutation_bounds,
                      sign_test,
                      wilcoxon,
                      wilcoxon_holm,
                      win_loss_split,
                      win_tie_loss,
                      win_tie_loss_matrix,
)
from .ranks import mean_ranks, mean_ranks_from_records, rank_rows
from .stability import StabilityResult, bootstrap_stability, leave_one_method_out, resample_rows, stability_of
from .ttest import TTestResult, corrected_resampled_ttest, paired_ttest

__all__ = [
    "weka_mean_std",
    "corrected_resampled_ttest",
    "paired_ttest",
    "TTestResult",
    "BayesianResult",
    "bayesian_signed_rank",
    "StabilityResult",
    "bootstrap_stability",
    "leave_one_method_out",
    "resample_rows",
    "stability_of",
    "rank_rows",
    "mean_ranks",
    "mean_ranks_from_records",
    "friedman",
    "friedman_from_mean_ranks",
    "iman_davenport",
    "quade",
    "RankTestResult",
    "PostHocResult",
    "HolmResult",
    "PairedTestResult",
    "bonferroni_dunn",
    "bonferroni_dunn_q",
    "critical_difference",
    "holm",
    "mean_rank_test",
    "nemenyi",
    "nemenyi_q",
    "permutation_bounds",
    "sign_test",
    "wilcoxon",
    "wilcoxon_holm",
    "WilcoxonHolmResult",
    "win_loss_split",
    "win_tie_loss",
    "win_tie_loss_matrix",
]
