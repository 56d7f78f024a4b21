# SPDX-License-Identifier: GPL-3.0-or-later
"""Mao et al.'s Section V-C (Figure 3), checked on our sweep: LPM-BC's accuracy for every
neighbourhood size and local model on five real and five synthetic data sets. The paper
prints no numbers for Figure 3, so each trend is tested on ours only.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as _st

from ..analysis import Claim, verdict

MODELS = ["LUA", "LGA", "LCA"]
SYNTHETIC = {"gauss2d-C0": 0.0, "gauss2d-C0.5": 0.5, "gauss2d-C1": 1.0, "gauss2d-C1.5": 1.5, "gauss2d-C2": 2.0}


def _cube(ctx) -> pd.DataFrame | None:
    """dataset × (position of k in the grid, model) → mean accuracy."""
    table = ctx.tables.get("sweepacc")
    if table is None:
        return None
    points = {label: c.grid_point for label, c in ctx.paper.classifiers.items() if c.grid_of == "LPMBC"}
    grid = list(dict.fromkeys((type(p["k"]), p["k"]) for p in points.values()))
    t = table[table.method.isin(points)].dropna(subset=["mean"]).copy()
    if t.empty:
        return None
    t["position"] = [grid.index((type(points[m]["k"]), points[m]["k"])) for m in t.method]
    t["model"] = [points[m]["model"] for m in t.method]
    return t.pivot_table(index="dataset", columns=["model", "position"], values="mean")


def claims(ctx) -> list[Claim]:
    rows = []

    def claim(key, text, supported, evidence):
        rows.append(Claim(key, "V-C", text, "ours", verdict(supported), evidence))

    cube = _cube(ctx)
    if cube is None or any(m not in cube.columns.get_level_values(0) for m in MODELS):
        for key in ("small_k_for_simple_models", "lca_vs_lga_whole_space", "medium_k_best", "dependency"):
            claim(key, "", None, "needs the sweep tables")
        return rows
    last = int(cube.columns.get_level_values(1).max())
    real = [d for d in cube.index if d not in SYNTHETIC]
    synthetic = [d for d in cube.index if d in SYNTHETIC]

    def best_position(ds, model):
        row = cube.loc[ds, model]
        return int(row.index[int(np.argmax(row.to_numpy()))])

    lua = [best_position(d, "LUA") for d in cube.index]
    lca = [best_position(d, "LCA") for d in cube.index]
    smaller = sum(a <= b for a, b in zip(lua, lca, strict=True))
    claim(
        "small_k_for_simple_models",
        "(1) a simple model (LUA) favours a smaller neighbourhood than a complex one (LCA)",
        smaller > len(lua) / 2,
        f"LUA's best k at or below LCA's on {smaller} of {len(lua)} data sets",
    )

    whole = {d: cube.loc[d, ("LCA", last)] - cube.loc[d, ("LGA", last)] for d in cube.index}
    real_ok = sum(whole[d] > 0 for d in real)
    syn_ok = sum(whole[d] < 0 for d in synthetic)
    claim(
        "lca_vs_lga_whole_space",
        "(2) with the whole class as neighbourhood (k = Nm), LCA beats LGA on real data and "
        "LGA beats LCA on the Gaussian synthetic data",
        real_ok > len(real) / 2 and syn_ok > len(synthetic) / 2,
        f"LCA − LGA accuracy at Nm: real {real_ok}/{len(real)} positive, synthetic {syn_ok}/{len(synthetic)} negative",
    )

    medium = []
    for d in real:
        flat = cube.loc[d]
        pos = int(flat.index[int(np.argmax(flat.to_numpy()))][1])
        medium.append(0 < pos < last)
    claim(
        "medium_k_best",
        "(3) on real data the best accuracy comes at a medium-sized neighbourhood",
        sum(medium) > len(real) / 2,
        f"best (k, model) strictly between 1 and Nm on {sum(medium)} of {len(real)} real sets",
    )

    if len(synthetic) >= 3:
        gaps = [(SYNTHETIC[d], cube.loc[d].max() - max(cube.loc[d, (m, last)] for m in MODELS)) for d in synthetic]
        gaps.sort()
        rho = _st.spearmanr([c for c, _ in gaps], [g for _, g in gaps]).statistic
        claim(
            "dependency",
            "(4) as the dependency C grows, small neighbourhoods gain over the whole class",
            bool(rho > 0),
            "best accuracy minus the best at k = Nm: "
            + ", ".join(f"C = {c:g}: {g:+.4f}" for c, g in gaps)
            + f" (Spearman ρ = {rho:.2f})",
        )
    else:
        claim(
            "dependency",
            "(4) as the dependency C grows, small neighbourhoods gain over the whole class",
            None,
            "needs the synthetic sets",
        )
    return rows
