"""Statistics of the papers: each a pure function returning a small result object."""
from ..weka.summary import weka_mean_std
from .ttest import corrected_resampled_ttest, TTestResult
from .ranks import rank_rows, mean_ranks
from .nonparametric import friedman, iman_davenport, quade, RankTestResult
from .posthoc import (PostHocResult, HolmResult, PairedTestResult, bonferroni_dunn, bonferroni_dunn_q,
                      critical_difference, holm, mean_rank_test, nemenyi, nemenyi_q, permutation_bounds,
                      sign_test, wilcoxon, win_loss_split, win_tie_loss, win_tie_loss_matrix)

__all__ = ["weka_mean_std", "corrected_resampled_ttest", "TTestResult", "rank_rows", "mean_ranks",
           "friedman", "iman_davenport", "quade", "RankTestResult", "PostHocResult", "HolmResult",
           "PairedTestResult", "bonferroni_dunn", "bonferroni_dunn_q", "critical_difference", "holm",
           "mean_rank_test", "nemenyi", "nemenyi_q", "permutation_bounds", "sign_test", "wilcoxon",
           "win_loss_split", "win_tie_loss", "win_tie_loss_matrix"]
