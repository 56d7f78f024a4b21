# SPDX-License-Identifier: GPL-3.0-or-later
"""The cells and counts of a whole-suite run, committed for the tests that check the words written
about them: each README headline per paper and each gap's "ours vs printed" numbers
(tests/test_written_numbers.py) against what the code computed.

    python benchmarks/suite_cells.py --results results --commit bb155c5

writes benchmarks/results/suite_cells.csv (every cell of every cells table: paper, table, dataset,
method, metric, mean, std, published_mean, published_std, mean_decimals, std_decimals, beside_mean)
and benchmarks/results/suite_counts.csv (every paper's match counts, with the paper and the commit).
Copied from the run's files, nothing recomputed.
"""
from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results"
PAPERS = ("lcwnb", "lslwnb", "kdebw", "lpmbc", "awnb")
CELLS = ["paper", "table", "dataset", "method", "metric", "mean", "std", "published_mean", "published_std",
         "mean_decimals", "std_decimals", "beside_mean"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", type=Path, default=ROOT / "results")
    ap.add_argument("--commit", required=True, help="the commit the run was made from")
    args = ap.parse_args(argv)
    cells, counts = [], []
    for paper in PAPERS:
        for f in sorted((args.results / paper / "stats").glob("*_match_counts.csv")):
            table = f.name[: -len("_match_counts.csv")]
            c = pd.read_csv(f)
            counts.append(c.assign(paper=paper, commit=args.commit))
            t = pd.read_csv(args.results / paper / "tables" / f"{table}.csv")
            if "mean" in t:
                cells.append(t.assign(paper=paper, table=table).reindex(columns=CELLS))
    pd.concat(cells, ignore_index=True).to_csv(OUT / "suite_cells.csv", index=False, float_format="%.10g",
                                               lineterminator="\n")
    c = pd.concat(counts, ignore_index=True)
    c[["paper", *[k for k in c.columns if k not in ("paper", "commit")], "commit"]].to_csv(
        OUT / "suite_counts.csv", index=False, float_format="%.10g", lineterminator="\n")


if __name__ == "__main__":
    main()
