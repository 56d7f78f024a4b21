# SPDX-License-Identifier: GPL-3.0-or-later
"""Seed bands, noise floor and seed stability (nbrepro.analysis.seed_bands)."""
import math

import pandas as pd
import pytest
from conftest import ROOT

from nbrepro.analysis.seed_bands import (
    NO_PRINTED,
    OUTSIDE,
    WITHIN,
    band,
    band_tables,
    noise_floor,
    seed_bands,
    seed_stability,
)
from nbrepro.checks import checked_paper
from nbrepro.paper import Paper

PAPER = Paper.from_config(
    {
        "tables": {"t": {"kind": "cells"}, "p": {"kind": "pairwise"}},
        "gaps": [
            {"cells": "no where", "explanation": "x"},
            {"cells": "B on d2", "explanation": "a setting", "where": [{"table": "t", "methods": ["B"]}]},
            {"cells": "BCV rows", "explanation": "a search range", "where": [{"table": "p", "methods": ["BCV"]}]},
        ],
    }
)


def _cells(values_a, values_b, printed=(0.80, 0.70), decimals=2):
    return pd.DataFrame(
        {
            "dataset": ["d1", "d2"],
            "method": ["A", "B"],
            "metric": ["accuracy"] * 2,
            "mean": [values_a, values_b],
            "published_mean": list(printed),
            "mean_decimals": [decimals, decimals],
        }
    )


def test_band_is_the_mean_plus_minus_two_sd_widened_to_the_range():
    mean, sd, low, high = band([1.0, 2.0, 3.0])
    assert (mean, sd, low, high) == (2.0, 1.0, 0.0, 4.0)
    assert band([5.0]) == (5.0, 0.0, 5.0, 5.0)  # one run: the value itself
    mean, sd, low, high = band([0.0, 0.0, 0.0, 0.0, 0.0, 10.0])  # one far run: above, min–max is wider
    assert low == pytest.approx(mean - 2 * sd) and low < 0 and high == 10.0 > mean + 2 * sd
    assert all(math.isnan(x) for x in band([math.nan]))


def test_printed_values_inside_outside_and_the_gap_that_names_them():
    runs = [_cells(0.81, 0.60), _cells(0.79, 0.61), _cells(0.80, 0.62)]
    b = seed_bands(PAPER, {"t": runs})
    a, bb = b.iloc[0], b.iloc[1]
    assert a.status == WITHIN and a.runs == 3 and a.main == 0.81
    assert bb.status == OUTSIDE and bb.gap == 2  # the second gap's where names method B
    # a value printed with 2 decimals stands for ± 0.005 around it: one run at 0.64 holds 0.6449, not 0.6451
    assert seed_bands(PAPER, {"t": [_cells(0.8, 0.64, printed=(0.8, 0.6449))]}).iloc[1].status == WITHIN
    assert seed_bands(PAPER, {"t": [_cells(0.8, 0.64, printed=(0.8, 0.6451))]}).iloc[1].status == OUTSIDE
    none = seed_bands(PAPER, {"t": [_cells(0.8, 0.6, printed=(math.nan, 0.6))]})
    assert none.iloc[0].status == NO_PRINTED and math.isnan(none.iloc[0].printed)


def test_pairwise_counts_get_bands_without_rounding_slack():
    def wtl(w, lost):
        return pd.DataFrame(
            {
                "measure": ["ERROR"],
                "row_method": ["BCV"],
                "col_method": ["NRD-I"],
                "wins": [w],
                "ties": [0],
                "losses": [lost],
                "published_wins": [9],
                "published_losses": [43],
            }
        )

    b = seed_bands(PAPER, {"p": [wtl(20, 32), wtl(21, 31), wtl(19, 33)]})
    assert list(b.value) == ["wins", "losses"] and set(b.status) == {OUTSIDE} and set(b.gap) == {3}
    assert b.iloc[0].printed_slack == 0 and b.iloc[0].band_low == 18.0


def test_noise_floor_counts_and_widths():
    runs = [_cells(0.81, 0.60), _cells(0.79, 0.61), _cells(0.80, 0.62)]
    floor = noise_floor(seed_bands(PAPER, {"t": runs}))
    row = floor.iloc[0]
    assert (row.cells, row.printed, row.inside, row.outside_named, row.outside_unnamed) == (2, 2, 1, 1, 0)
    assert row.median_band_width == pytest.approx(0.04)


def test_seed_stability_counts_the_runs_a_claim_holds_in():
    def claims(*verdicts):
        return pd.DataFrame(
            {
                "claim_id": ["c1", "c2"],
                "metric": ["", "mse"],
                "section": ["4", "4"],
                "claim": ["x", "y"],
                "source": ["ours", "ours"],
                "verdict": list(verdicts),
            }
        )

    printed = pd.DataFrame(
        {"claim_id": ["c1"], "metric": [""], "section": ["4"], "claim": ["x"], "source": ["printed"], "verdict": ["no"]}
    )
    st = seed_stability(
        [pd.concat([claims("yes", "no"), printed]), claims("yes", "yes"), claims("yes", "not yet computable")]
    )
    c1, c2 = st.iloc[0], st.iloc[1]
    assert (c1.verdicts, c1.holds_in, c1.seed_stability, c1.changes_with_seed) == ("yes yes yes", 3, 1.0, False)
    assert c2.verdicts == "no yes not yet computable" and c2.holds_in == 1 and c2.changes_with_seed


def test_measured_times_get_no_band():
    paper = checked_paper(ROOT / "config/papers/kdebw.yaml")
    assert band_tables(paper) == {"table2": "pairwise", "error": "cells", "bias": "cells", "variance": "cells"}


def test_report_names_an_outside_cell_by_its_gap_number(tmp_path):
    """The report's list of outside cells, from seed_bands.csv as written and read back: the gap
    as "gap 2" (not 2.0), and no key column that only a pairwise table uses."""
    from nbrepro import paths
    from nbrepro.io import read_csv
    from nbrepro.report.html import _seed_section

    bands = seed_bands(PAPER, {"t": [_cells(0.81, 0.60), _cells(0.79, 0.61), _cells(0.80, 0.62)]})
    bands.to_csv(tmp_path / "b.csv", index=False)
    text = "".join(_seed_section({paths.SEED_BANDS: read_csv(tmp_path / "b.csv")}))
    listed = text[text.index("outside their seed bands") :]
    assert "gap 2" in listed and "2.0" not in listed
    assert "row_method" not in listed and "measure" not in listed
