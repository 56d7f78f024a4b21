"""Statistics of the papers: each a pure function returning a small result object."""
from .summary import weka_mean_std
from .ttest import corrected_resampled_ttest, TTestResult
from .ranks import rank_rows, mean_ranks
from .nonparametric import friedman, iman_davenport, quade, RankTestResult

__all__ = ["weka_mean_std", "corrected_resampled_ttest", "TTestResult", "rank_rows", "mean_ranks",
           "friedman", "iman_davenport", "quade", "RankTestResult"]
