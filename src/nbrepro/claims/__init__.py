"""Paper-specific analysis, one module per paper, named by the paper config's ``analysis.claims``.

Each module may define:

  derived_columns(wide, table1) -> dict[str, Series]   extra method columns (e.g. a rule that
                                                        picks one configured method per dataset)
  <function>(context) -> list[(statistic, value, note)]  statistics named by ``test: paper`` entries
  claims(context) -> DataFrame(claim, supported, evidence)

``context`` is a ``nbrepro.paper_stats.Context``: the reproduced table, its wide form at the
printed decimals (with the derived columns), Table 1 from the raw files, the statistics
computed so far and the figures' data.
"""
from importlib import import_module


def claims_module(name: str):
    return import_module(f"{__name__}.{name}")
