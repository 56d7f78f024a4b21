# SPDX-License-Identifier: GPL-3.0-or-later
"""One record for every claim of every paper, and the loader of the papers' claims modules.

A paper's claims module (``nbrepro.claims.<name>``, named by ``analysis.claims`` in its config)
states the paper's sentences as tests and returns one ``Claim`` per sentence and source:
``source`` is ``printed`` (judged on the numbers the paper printed) or ``ours`` (on the
reproduced ones). ``stats/claims.csv`` has the record's fields as columns, in this order, for
every paper, and the report reads them by name.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from importlib import import_module

import pandas as pd

from ..paper import Paper

SOURCES = ("printed", "ours")
VERDICTS = ("yes", "no", "not computable", "not yet computable", "not checkable")


@dataclass(frozen=True)
class Claim:
    claim_id: str        # stable within the paper, e.g. "friedman" or "lcwnb5_top7"
    section: str         # where the paper says it, e.g. "4" or "V-B"
    claim: str           # the sentence, quoted or closely paraphrased
    source: str          # "printed" or "ours"
    verdict: str         # "yes", "no", "not computable" (the statistic is undefined on these numbers, e.g. every
                         # method tied), "not yet computable" (a column is missing), "not checkable"
    evidence: str        # the numbers the verdict rests on
    metric: str = ""     # the measure judged, where the sentence is made for several
    # a significance claim judged under today's tests too (Benavoli, Corani & Mangili 2016), ""
    # where the claim makes no significance statement or the numbers are not there
    wilcoxon_holm: str = ""    # "yes"/"no": Wilcoxon signed-rank over the data sets, Holm's correction over the family
    bayesian: str = ""         # "yes"/"no"/"undecided": Bayesian signed-rank test with a ROPE (P ≥ 0.95)
    tests_evidence: str = ""   # the p-values and posterior probabilities behind those two
    stability: float = float("nan")   # fraction of 1 000 bootstrap resamples of the data sets in which the claim holds
    fragile: str = ""          # "yes" when the verdict is reached in fewer than 80 % of the resamples
    pool: str = ""             # a mean-rank post-hoc claim with each other method left out of the ranking in turn
    kind: str = ""             # the generic kind of a claim declared in the config (analysis.claim_kinds); "" for a
                               # predicate of the paper's claims module

    def __post_init__(self):
        if self.source not in SOURCES:
            raise ValueError(f"claim {self.claim_id!r}: source {self.source!r} is not one of {SOURCES}")
        if self.verdict not in VERDICTS:
            raise ValueError(f"claim {self.claim_id!r}: verdict {self.verdict!r} is not one of {VERDICTS}")


def verdict(supported: bool | None, undefined: str = "not yet computable") -> str:
    """``yes`` / ``no``; ``None`` → ``undefined``: ``not yet computable`` (some number is not
    computed yet) or ``not computable`` (the statistic is undefined on these numbers)."""
    return undefined if supported is None else ("yes" if supported else "no")


COLUMNS = [f.name for f in fields(Claim)]


def claims_frame(claims: list[Claim]) -> pd.DataFrame:
    """``stats/claims.csv``: one row per claim and source, the record's fields as columns."""
    return pd.DataFrame([asdict(c) for c in claims], columns=COLUMNS)


def claims_module(name: str):
    """The paper's claims module, ``nbrepro.claims.<name>`` (a plug-in: loaded by name, so the
    analysis layer does not import the papers' modules)."""
    return import_module(f"nbrepro.claims.{name}")


def known_methods(paper: Paper) -> set[str]:
    """Every method label of the paper's tables, and the claims module's derived columns
    (``DERIVED_COLUMNS``): what a declared claim, statistic or figure may name."""
    tables = paper.tables.values()
    names = {c.method for spec in tables if spec.kind != "pairwise" for c in spec.columns}
    names |= {m for spec in tables for m in spec.methods}
    module = paper.analysis.claims_module
    if module:
        names |= set(getattr(claims_module(module), "DERIVED_COLUMNS", ()))
    return names
