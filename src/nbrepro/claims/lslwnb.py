# SPDX-License-Identifier: GPL-3.0-or-later
"""Orhan et al.'s claims (Section 4) that no generic kind fits: the conclusions drawn from Table 4
(three values per data set: the lowest and highest TCA with one attribute left out, and with
all) and "the most appropriate data sets" (an order of data sets, not of methods); judged on the
printed tables and on ours by the same code (``claims_on_printed_tables``). The Table 2 and 3
conclusions are declared claims (kind ``in_range``) in config/papers/lslwnb.yaml.

The text's words become thresholds, named in the config's ``choices``: in Table 4 any
difference at the printed decimals is an effect, as the text reads a 0.51 gain as one.
"""
from __future__ import annotations

import pandas as pd

from ..analysis import Claim, verdict

DECIMALS = 2         # the printed decimals: differences are judged on values rounded to them
# the paper's names of the data sets, as the sentences use them
NAMES = {"parkinsons": "Parkinsons", "spectf": "SpectHeart", "vote": "Voting", "diabetes": "Diabetes",
         "haberman": "Haberman", "ionosphere": "Ionosphere", "mushroom": "Mushroom",
         "blood-transfusion": "Transfusion", "breast-w": "Wisconsin"}


def _values(ctx, table: str, method: str, metric: str) -> pd.Series | None:
    """data set → the table's value for (method, metric) at the printed decimals; None while any is missing."""
    t = ctx.tables.get(table)
    if t is None:
        return None
    t = t[(t.method == method) & (t.metric == metric)].set_index("dataset")["mean"].astype(float)
    if t.isna().any() or t.empty:
        return None
    return t.round(DECIMALS)


def claims(ctx) -> list[Claim]:
    rows = []

    def claim(claim_id, text, supported, evidence):
        rows.append(Claim(claim_id, "4", text, ctx.source, verdict(supported), evidence))

    def by_name(names):
        inverse = {v: k for k, v in NAMES.items()}
        return [inverse[n] for n in names]

    nb, lwnb = _values(ctx, "table2", "NB", "tca"), _values(ctx, "table2", "LWNB", "tca")
    def on(series, names):
        """``series`` on the named data sets; None while any of them is not in the run (a data-set subset)."""
        keys = by_name(names)
        return None if series is None or not set(keys) <= set(series.index) else series[keys]

    if nb is not None and lwnb is not None and len(nb) == len(NAMES):
        both = ((nb + lwnb) / 2).sort_values(ascending=False)
        top = list(both.index[:2])
        claim(
            "mushroom_wisconsin_most_appropriate",
            "Mushroom and Wisconsin have high TCA under both methods: the most "
            "appropriate of the nine for statistical classification (the two highest mean TCA of NB and LWNB)",
            set(top) == {"mushroom", "breast-w"},
            "mean of NB and LWNB: " + ", ".join(f"{NAMES.get(k, k)} {v:.2f}" for k, v in both.iloc[:3].items()),
        )
    else:
        claim(
            "mushroom_wisconsin_most_appropriate",
            "Mushroom and Wisconsin have high TCA under both methods: the most "
            "appropriate of the nine for statistical classification (the two highest mean TCA of NB and LWNB)",
            None,
            "",
        )

    # Table 4: each attribute left out in turn, the lowest and highest TCA against all attributes
    low, high, full = (_values(ctx, "table4", "LWNB", m) for m in ("min_tca", "max_tca", "tca"))
    ok = low is not None and high is not None and full is not None

    def spans(keys):
        return ", ".join(f"{NAMES[k]} {low[k]:.2f}–{high[k]:.2f} (all {full[k]:.2f})" for k in keys) if ok else ""

    for claim_id, names, test, text in (
        (
            "no_attribute_matters",
            ["Haberman", "SpectHeart", "Transfusion"],
            lambda k: low[k] == full[k] == high[k],
            "in Haberman, SpectHeart and Transfusion excluding any attribute makes no difference",
        ),
        (
            "attributes_both_ways",
            ["Ionosphere", "Mushroom", "Parkinsons"],
            lambda k: low[k] < full[k] < high[k],
            "in Ionosphere, Mushroom and Parkinsons excluding one attribute lowers the success and excluding "
            "another raises it",
        ),
        (
            "attributes_only_help",
            ["Diabetes", "Voting", "Wisconsin"],
            lambda k: low[k] < full[k] and high[k] <= full[k],
            "in Diabetes, Voting and Wisconsin an attribute's exclusion lowers the success, and no exclusion raises it",
        ),
    ):
        keys = by_name(names)
        here = ok and all(on(x, names) is not None for x in (low, high, full))
        claim(
            claim_id,
            text,
            bool(all(test(k) for k in keys)) if here else None,
            "lowest–highest TCA with one attribute left out: " + spans(keys) if here else "",
        )
    return rows
