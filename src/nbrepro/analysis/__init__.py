# SPDX-License-Identifier: GPL-3.0-or-later
"""From fold results to numbers: the reproduced tables beside the printed ones (``tables``),
Table 1 (``table1``), the statistics registry (``statistics``), the numbers of each figure kind
(``figures``), the one claim record (``claims``) and the paper-stats job that runs them (``paper``).
Nothing here draws or writes HTML: that is ``nbrepro.report``'s.
"""
from .claim_records import Claim, claims_frame, verdict
from .context import Context
from .figures import FIGURE_KINDS, FigureData
from .statistics import STATISTICS, StatisticRow, statistic

__all__ = ["Claim", "claims_frame", "verdict", "Context", "FIGURE_KINDS", "FigureData", "STATISTICS",
           "StatisticRow", "statistic"]
