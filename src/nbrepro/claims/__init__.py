# SPDX-License-Identifier: GPL-3.0-or-later
"""Paper-specific analysis, one module per paper, named by the paper config's ``analysis.claims``
(loaded by name: ``nbrepro.analysis.claim_records.claims_module``).

Each module may define:

  derived_columns(wide, table1) -> dict[str, Series]   extra method columns (e.g. a rule that
                                                        picks one configured method per dataset)
  DERIVED_COLUMNS: tuple[str, ...]                     their names, which a config's claims,
                                                        statistics and figures may name
  <function>(context) -> list[(statistic, value, note)]  statistics named by ``test: paper`` entries
  claims(context) -> list[Claim]                       one ``nbrepro.analysis.Claim`` per sentence
                                                        and source (printed numbers, ours)

``context`` is a ``nbrepro.analysis.Context``: the reproduced table, its wide form at the
printed decimals (with the derived columns), Table 1 from the raw files, the statistics
computed so far and the figures' data.
"""
