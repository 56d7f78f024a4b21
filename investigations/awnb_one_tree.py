# SPDX-License-Identifier: GPL-3.0-or-later
"""Investigation: Hall's AWNB(i = 1, j = 100), one tree on all the training rows or one bootstrap bag?

Hall: "we also tried building just one tree (i = 1) using all the training data". The configured
column reads that literally: one unpruned J48 on the training rows (``resample: false``). His
other columns grow each tree on a bag of j % of the training rows, and a bag of j = 100 % drawn as
Weka's Bagging draws it is a bootstrap sample (with replacement) of the training rows' size, not
the rows themselves. This script reruns the column under that second reading (one Weka Bagging
bag, seed 1; everything else as configured) on the pipeline's prepared data and folds, and puts
both readings beside the printed Tables 2 (RRSE) and 3 (AUC). Writes

    investigations/results/awnb_one_tree.csv          one row per (data set, metric)
    investigations/results/awnb_one_tree_summary.csv  one row per (reading, metric) (shown in the report)

Needs the pipeline's Hall results (resources/prepared/awnb/, resources/folds/awnb/ and the
configured column's results/awnb/folds/); about 8 min on 2 cores:

    python investigations/awnb_one_tree.py
"""
from __future__ import annotations

import os
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

import pandas as pd
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from nbrepro import paths  # noqa: E402
from nbrepro.analysis.tables import agreement  # noqa: E402
from nbrepro.cli import main as cli  # noqa: E402
from nbrepro.paper import load_paper  # noqa: E402

LABEL = "AWNB(i=1,j=100)"
READINGS = ("one tree on all training rows (configured)", "one bootstrap bag of 100 % (Weka Bagging, seed 1)")
METRICS = {"rrse": "config/published/awnb_table2.csv", "auc": "config/published/awnb_table3.csv"}


def _one_bag_config(tmp: Path) -> Path:
    """awnb.yaml with the column's tree grown on one bag (the estimator's default) instead of all rows."""
    spec = yaml.safe_load((ROOT / "config/papers/awnb.yaml").read_text())
    del spec["classifiers"][LABEL]["params"]["estimator"]["params"]["resample"]
    out = tmp / "awnb_one_bag.yaml"
    out.write_text(yaml.safe_dump(spec, sort_keys=False))
    return out


def one_dataset(dataset: str, config: Path) -> pd.DataFrame:
    """Both readings' per-fold RRSE and AUC on one data set (the configured one read from the pipeline)."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        out = tmp / "folds.parquet"
        code = cli(["evaluate", "--paper-config", str(config), "--dataset", dataset,
                    "--classifier", LABEL, "--prepared", paths.prepared("awnb", dataset),
                    "--folds", paths.splits("awnb", dataset), "--out-folds", str(out),
                    "--out-predictions", str(tmp / "predictions.parquet")])
        if code:
            raise SystemExit(f"{dataset}: nbrepro evaluate failed ({code})")
        one_bag = pd.read_parquet(out)
    configured = pd.read_parquet(paths.results("awnb", paths.per_fold("folds", dataset, LABEL)))
    print(dataset, flush=True)
    return pd.concat([configured.assign(reading=READINGS[0]), one_bag.assign(reading=READINGS[1])]).assign(
        dataset=dataset)


def main() -> None:
    os.chdir(ROOT)   # the paper config names its files from the project's root
    paper = load_paper("config/papers/awnb.yaml")
    missing = [d for d in paper.datasets if not Path(paths.results("awnb", paths.per_fold("folds", d, LABEL))).exists()]
    if missing:
        raise SystemExit(f"results/awnb lacks {LABEL} on {', '.join(missing)}: run the pipeline first "
                         "(snakemake --cores 2 --config papers=[awnb])")
    # the one-bag config is written once and read by every data set's job
    with tempfile.TemporaryDirectory() as tmp, ProcessPoolExecutor(2) as pool:
        folds = pd.concat(pool.map(partial(one_dataset, config=_one_bag_config(Path(tmp))), paper.datasets))
    names = paper.published_names
    rows = []
    for metric, table in METRICS.items():
        printed = pd.read_csv(table)
        printed = printed[printed.method == LABEL].set_index("dataset")
        for (dataset, reading), g in folds.groupby(["dataset", "reading"], sort=False):
            if names[dataset] not in printed.index or g[metric].isna().all():
                continue
            pub = printed.loc[names[dataset]]
            mean, std = g[metric].mean(), g[metric].std(ddof=1)
            rows.append({"dataset": dataset, "metric": metric, "reading": reading, "mean": mean, "std": std,
                         "published_mean": pub["mean"], "published_std": pub["std"], "gap": mean - pub["mean"],
                         # Hall prints means to two decimals and sds to one
                         "agreement": agreement(mean, std, pub["mean"], pub["std"], 2, 1)})
    res = pd.DataFrame(rows)
    # per cell, whether this reading lies nearer the printed mean than the other (a cell has both)
    abs_gap = res.gap.abs()
    res["nearer"] = abs_gap < abs_gap.groupby([res.dataset, res.metric]).transform("sum") - abs_gap
    out = ROOT / "investigations/results"
    out.mkdir(parents=True, exist_ok=True)
    res.round(4).to_csv(out / "awnb_one_tree.csv", index=False)

    summary = res.groupby(["reading", "metric"], sort=False).agg(
        cells=("dataset", "size"),
        exact=("agreement", lambda a: int((a == "exact").sum())),
        within_0_5=("agreement", lambda a: int(a.isin(["exact", "near"]).sum())),
        within_1_0=("agreement", lambda a: int(a.isin(["exact", "near", "within"]).sum())),
        nearer_the_printed=("nearer", "sum"),
        median_abs_gap=("gap", lambda g: g.abs().median()),
        mean_gap=("gap", "mean"),
        largest_gap=("gap", lambda g: g.iloc[g.abs().argmax()]),
        worst_dataset=("gap", lambda g: res.loc[g.abs().idxmax(), "dataset"]),
    ).reset_index()
    summary.round(3).to_csv(out / "awnb_one_tree_summary.csv", index=False)
    print(summary.to_string(index=False))


if __name__ == "__main__":
    main()
