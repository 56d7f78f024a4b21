# SPDX-License-Identifier: GPL-3.0-or-later
"""A paper's statistics, figure numbers and claims, declared in its config and computed by
generic code (the paper-stats job; each figure's kind then draws it).

The paper config's ``analysis:`` names the reproduced table they read, the printed decimals
(values are rounded to them before ranks and counts, as a reader of the paper would), a
Table 1 built from the raw files (``table1``), a list of ``statistics:`` (``statistics.STATISTICS``)
and the paper's claims module (``claims_module``: its statistics functions, derived columns and
the claims no generic kind fits); its ``figures:`` map names to figure kinds
(``figures.FIGURE_KINDS``); its ``claims:`` list the claims of generic kinds (``declared``).
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from .. import paths
from ..errors import ConfigError, TooFewDatasets
from ..paper import Paper
from .claim_records import claims_frame, claims_module
from .declared import declared_claims
from .figures import FIGURE_KINDS, FigureData
from .statistics import frame_names, text_statistics
from .table1 import paper_table1


def output_files(paper: Paper) -> tuple[list[str], list[str]]:
    """(stats CSV names, figure names) the paper-stats job writes: results/{paper}/stats/{name}.csv and
    figures/{paper}/{figure}.png|svg. Derived from the config alone, for the Snakemake rules."""
    names = []
    spec = paper.analysis
    if spec.dataset_table is not None:
        names.append("table1")
    if spec.statistics:
        names.append("text_stats")
    names += frame_names(paper)
    for name, fig in paper.figures.items():
        if fig["kind"] not in FIGURE_KINDS:
            raise ConfigError(f"paper {paper.name!r}, figure {name!r}: unknown kind {fig['kind']!r} "
                              f"(known: {sorted(FIGURE_KINDS)})")
        suffix = FIGURE_KINDS[fig["kind"]].data_suffix
        if suffix:
            names.append(f"{name}{suffix}")
    if spec.claims_module or paper.claims:
        names.append("claims")
    if audited(paper):
        names.append("printed_audit")
    return names, list(paper.figures)


def audited(paper: Paper) -> bool:
    """Whether the paper has printed tables to audit (``analysis.audit``): a run with no printed
    numbers (out of sample, a sweep) has none."""
    return any(t.published for t in paper.tables.values())


def run(paper: Paper, results: Path, raw_dir: Path, registry: dict, tables: dict[str, pd.DataFrame],
        full: Paper | None = None) -> tuple[dict[str, pd.DataFrame], dict[str, FigureData]]:
    """Compute every declared statistic, figure and claim: (the stats frames to write, by path
    under results/{paper}; each figure's data, by figure name, to draw). ``full``: the paper a cut
    (``nbrepro.variants.cut``) was made from, whose full printed tables its printed verdicts are judged on."""
    spec = paper.analysis
    module = claims_module(spec.claims_module) if spec.claims_module else None
    outputs = {}
    table1 = None
    if spec.dataset_table is not None:
        table1 = paper_table1(paper, raw_dir, registry)
        outputs[paths.stats("table1")] = table1
    ctx = None
    if spec.table:
        published = pd.read_csv(spec.published) if spec.published else None
        text, ctx = text_statistics(paper, tables[spec.table], table1, published, module, tables, results)
        if spec.statistics:
            outputs[paths.stats("text_stats")] = text
        for sid, frame in ctx.frames.items():
            outputs[paths.stats(sid)] = frame
    figures = {}
    for name, fig in paper.figures.items():
        kind = FIGURE_KINDS[fig["kind"]]
        try:
            figures[name] = data = kind.compute(paper, fig, tables, table1, results)
        except TooFewDatasets as e:   # a cut to one data set: the figure says it is not computable
            why = f"not computable on {len(paper.datasets)} data set(s): {e}"
            figures[name] = data = FigureData(pd.DataFrame({"note": [why]}), {"not_computable": why})
        if kind.data_suffix:
            outputs[paths.stats(name + kind.data_suffix)] = data.frame
        if ctx is not None:
            ctx.frames[name] = data.frame
    printed, printed_tables = None, tables
    module_claims = module is not None and hasattr(module, "claims")
    if (paper.claims or spec.claims_on_printed_tables or (full is not None and module_claims)
            or (audited(paper) and spec.table)):
        if full is not None:   # every table over the paper's own data sets: the printed numbers, none of ours
            from .tables import analyse_table

            printed_tables = {name: analyse_table(full, name, results, registry)[paths.table(name)]
                              for name in full.tables}
        judged = full if full is not None else paper
        printed = _printed_context(judged, printed_tables, printed_table1(judged, table1), module,
                                   figures=spec.claims_on_printed_tables)
    claims = declared_claims(paper, ctx, printed) if paper.claims else []
    if module_claims:
        mine = module.claims(ctx)
        if spec.claims_on_printed_tables:
            mine = _side_by_side(module.claims(printed), mine)
        elif full is not None:   # a module judging both sources on ours: its printed verdicts from the full tables
            mine = _side_by_side([c for c in module.claims(printed) if c.source == "printed"],
                                 [c for c in mine if c.source != "printed"])
        claims += mine
    if claims:
        outputs[paths.stats("claims")] = claims_frame(claims)
    if audited(paper):   # the paper's printed tables against each other: the full ones, also for a cut
        from .audit import printed_audit

        source = full if full is not None else paper
        frame = outputs.get(paths.stats("claims"))
        outputs[paths.stats("printed_audit")] = printed_audit(source, printed_tables, printed if spec.table else None,
                                                              frame)
    return outputs, figures


def printed_table1(paper: Paper, table1: pd.DataFrame | None) -> pd.DataFrame | None:
    """The Table 1 the printed numbers are judged with: the paper's printed one where it prints one
    (``analysis.dataset_table.published``: every data set of the paper, also those a cut leaves out),
    its columns under our names; else ours."""
    dt = paper.analysis.dataset_table
    if dt is None or not dt.published:
        return table1
    pub = pd.read_csv(dt.published).rename(columns={theirs: ours for ours, theirs in (dt.columns or {}).items()})
    theirs = {printed: ours for ours, printed in paper.published_names.items()}
    pub["dataset"] = pub["dataset"].map(lambda d: theirs.get(d, d))
    pub = pub[pub["dataset"].isin(paper.datasets)]
    if table1 is not None:   # a column the paper does not print (e.g. the classes present) is ours
        extra = [c for c in table1.columns if c not in pub.columns and not c.startswith("published_")]
        pub = pub.merge(table1[["dataset", *extra]], on="dataset", how="left")
    return pub.reset_index(drop=True)


def printed_view(table: pd.DataFrame) -> pd.DataFrame:
    """A reproduced table with the paper's printed numbers in place of ours: every column X that
    has a ``published_X`` beside it takes that column's values (means, sds, markers, w/t/l); a
    mean, sd or marker column with none (a table the paper does not print) is left empty."""
    out = table.copy()
    for col in table.columns:
        if f"published_{col}" in table.columns:
            out[col] = table[f"published_{col}"]
        elif col in ("mean", "std", "significance"):   # a table the paper does not print: no printed numbers
            out[col] = float("nan") if col != "significance" else None
    return out


def _printed_context(paper: Paper, tables: dict, table1, module, figures: bool = True):
    """The analysis context of the printed tables: the declared statistics (and with ``figures``
    the figures' data) computed as for ours, so that the same code judges the paper's own numbers
    (``source`` "printed"). No per-fold files: what needs them is not computable here."""
    spec = paper.analysis
    printed = {name: printed_view(t) for name, t in tables.items()}
    _, ctx = text_statistics(paper, printed[spec.table], table1, None, module, printed, None)
    for name, fig in paper.figures.items() if figures else ():
        ctx.frames[name] = FIGURE_KINDS[fig["kind"]].compute(paper, fig, printed, table1, None).frame
    ctx.source = "printed"
    return ctx


def _side_by_side(printed: list, ours: list) -> list:
    """Each claim's printed-number verdict before ours, in the order the module states them."""
    order = list(dict.fromkeys(c.claim_id for c in ours + printed))
    return sorted(printed + ours, key=lambda c: (order.index(c.claim_id), c.source != "printed"))
