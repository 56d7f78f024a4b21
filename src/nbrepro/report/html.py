# SPDX-License-Identifier: GPL-3.0-or-later
"""HTML reports: per paper, and an index over papers. Plain HTML, no scripts; the time and commit only
in stretches marked machine-dependent (``machine_dependent``) and in run.html."""
from __future__ import annotations

import html
import math
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd

from .. import paths
from ..analysis import counts as cell_count
from ..io import atomic_path
from ..paper import Paper
from .words import WILCOXON_CONVENTION, estimator_in_words, preprocessing_in_words, protocol_in_words

CSS = """
body{font-family:system-ui,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;font-size:13px;margin:1em 0}
th,td{border:1px solid #ccc;padding:3px 6px;text-align:right}
th{background:#f3f3f3} td.l,th.l{text-align:left} tr.pool td{background:#f7f7fb}
h1,h2,h3,p,li,figcaption{overflow-wrap:anywhere}
td.ok{background:#e8f6e8} td.near{background:#fff6d6} td.within{background:#fde4c4}
td.off{background:#fbdada} td.na{color:#999}
.pub{color:#555;font-size:11px} .small{font-size:12px;color:#555}
.seed{display:block;font-size:10px} .seed.in{color:#2a7a2a} .seed.out{color:#b02020;font-weight:600}
.cells td{white-space:nowrap} .cells tr.sum td{border-top:2px solid #888;font-weight:600} \
.cells .ours,.cells .pub{display:block} .cells .diff{display:none}
.scroll{overflow:auto;max-width:100%} .view .scroll{max-height:85vh}
.scroll table{margin:0} .scroll th{position:sticky;top:0;z-index:2}
.scroll td:first-child,.scroll th:first-child{position:sticky;left:0;z-index:1;background:#fafafa}
.scroll th:first-child{z-index:3;background:#f3f3f3}
img{max-width:100%;height:auto} li,p{overflow-wrap:anywhere}
.view{margin:1em 0} .view label{font-size:12px;margin-right:1em} .view .csv{font-size:12px}
.view>input.v-ours:checked~.scroll .pub{display:none}
.view>input.v-pub:checked~.scroll .ours{display:none}
.view>input.v-diff:checked~.scroll .ours,.view>input.v-diff:checked~.scroll .pub{display:none}
.view>input.v-diff:checked~.scroll .diff{display:block}
@media (max-width:700px){body{margin:0.5em auto;padding:0 0.4em} table{font-size:11px} th,td{padding:2px 3px}}
"""

SIG = {"better": "∘", "worse": "•", "": ""}


def _fmt(x, nd=2):
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{nd}f}"


def _decimals(value, default=2) -> int:
    return default if value is None or pd.isna(value) else int(value)


def _mean_sd(mean, sd, md=2, sdd=2) -> str:
    return _fmt(mean, md) if pd.isna(sd) else f"{_fmt(mean, md)} ± {_fmt(sd, sdd)}"


def _seed_mark(band, md: int) -> str:
    """Beneath a cell: its seed band (the reseeding run's, ``analysis.seed_bands``) and whether the
    printed value is inside it."""
    if band is None or band["status"] == "no printed value":
        return ""
    inside = band["status"] == "within seed noise"
    what = "in seed band" if inside else "outside seed band"
    gap = "" if inside or pd.isna(band.get("gap")) else f", gap {int(band['gap'])}"
    span = f"{_fmt(band['band_low'], md)}–{_fmt(band['band_high'], md)}"
    title = f"{what}: {span} over {int(band['runs'])} runs{gap}"
    shown = f"{'✓' if inside else '✗'} seed {span}" + (f" (gap {int(band['gap'])})" if gap else "")
    return f'<span class="seed {"in" if inside else "out"}" title="{html.escape(title)}">{html.escape(shown)}</span>'


def _cell(row, tolerances=(0.5, 1.0), band=None) -> str:
    """A reproduced cell at the published cell's printed decimals, the published value beneath
    it, and (shown by the table's "difference" view) ours less the published mean; with the
    reseeding run, its seed band and whether the printed value lies in it."""
    pm, ps = row["published_mean"], row["published_std"]
    m, s = row["mean"], row["std"]
    md, sdd = _decimals(row.get("mean_decimals")), _decimals(row.get("std_decimals"))
    beside = row.get("beside_method")
    pub = (
        f"{_mean_sd(pm, ps, md, sdd)} {SIG.get(row['published_significance'], '')}".strip() if not pd.isna(pm)
        else f"not printed ({html.escape(str(beside))}: {_fmt(row['beside_mean'], md)})"
        if isinstance(beside, str) and beside and not pd.isna(row.get("beside_mean")) else "—"
    )
    if pd.isna(m):
        return (
            f'<td class="na"><span class="ours">not computed</span><span class="pub">{pub}</span>'
            f'<span class="diff">—</span></td>'
        )
    kind = cell_count.classify(m, s, pm, ps, row.get("mean_decimals"), row.get("std_decimals"), tolerances)
    cls = {cell_count.EXACT: "ok", cell_count.TOL1: "near", cell_count.TOL2: "within",
           cell_count.OFF: "off"}.get(kind, "")
    ours = f"{_mean_sd(m, s, md, sdd)} {SIG.get(row['significance'], '')}".strip()
    diff = "—" if pd.isna(pm) else f"{round(float(m), md) - float(pm):+.{md}f}"
    return (
        f'<td class="{cls}"><span class="ours">{ours}</span><span class="pub">{pub}</span>'
        f'<span class="diff">{diff}</span>{_seed_mark(band, md)}</td>'
    )


def _view(key: str, table: str, csv: str | None = None) -> str:
    """A table with its views: reproduced and published, either alone, or the difference
    (radio buttons and CSS, no script), a link to its CSV, and a scrolling box whose header
    row and first column stay in view."""
    views = [
        ("both", "reproduced and published"),
        ("ours", "reproduced only"),
        ("pub", "published only"),
        ("diff", "difference (reproduced − published)"),
    ]
    radios = "".join(
        f"<input type='radio' class='v-{v}' name='view-{key}' id='view-{key}-{v}'"
        + (" checked" if v == "both" else "")
        + f"><label for='view-{key}-{v}'>{label}</label>"
        for v, label in views
    )
    link = f" <a class='csv' href='{html.escape(csv)}' download>CSV</a>" if csv else ""
    return f"<div class='view'>{radios}{link}<div class='scroll'>{table}</div></div>"


def _record_bands(band: dict | None) -> str:
    """Beneath a w/t/l cell: the seed bands of its wins and losses, red when a printed count is outside."""
    if not band or any(b["status"] == "no printed value" for b in band.values()):
        return ""
    inside = all(b["status"] == "within seed noise" for b in band.values())
    text = "; ".join(f"{k} {b['band_low']:.1f}–{b['band_high']:.1f}" for k, b in band.items())
    gap = next((int(b["gap"]) for b in band.values() if not pd.isna(b.get("gap"))), None)
    title = f"{'in seed band' if inside else 'outside seed band'}: {text}" + (f", gap {gap}" if gap else "")
    shown = (
        f"{'✓' if inside else '✗'} seed "
        + ", ".join(f"{k[0]} {b['band_low']:.0f}–{b['band_high']:.0f}" for k, b in band.items())
        + (f" (gap {gap})" if gap else "")
    )
    return f'<span class="seed {"in" if inside else "out"}" title="{html.escape(title)}">{html.escape(shown)}</span>'


def _bold_if(record: str, significant) -> str:
    return f"<b>{record}</b>" if significant == "yes" else record


def pairwise_html(table: pd.DataFrame, caption: str, record_test: dict | None = None, bands: dict | None = None,
                  tolerance: int = 3) -> str:
    """One method × method matrix per measure: our w/t/l above the published one; with a
    ``record_test``, a significant record in bold, as the papers print it; with ``bands``
    ((measure, row, column) → {"wins": row, "losses": row} of ``stats/seed_bands.csv``), the wins'
    and losses' seed bands beneath. A table over other data sets than the printed one (a cut:
    ``published_over``) shows the printed records uncoloured, as not comparable."""
    out = []
    comparable = "published_over" not in table.columns
    if not comparable:
        datasets = int(table["datasets"].max()) if len(table) else 0
        caption = (f"{caption} — this run: {datasets} data set{'s' if datasets != 1 else ''}; the printed records "
                   f"are over {table['published_over'].iloc[0]}")
    bold = (
        ""
        if not record_test
        else f"; bold: significant at {record_test.get('alpha', 0.05)} "
        f"by a two-sided {record_test['test'].replace('_', ' ')}, "
        f"ties {'split between wins and losses' if record_test.get('ties', 'split') == 'split' else 'left out'}"
    )
    for measure, g in table.groupby("measure", sort=False):
        rows = list(dict.fromkeys(g.row_method))
        cols = list(dict.fromkeys(g.col_method))
        out.append(
            f"<div class='scroll'><table><caption>{html.escape(caption)}: {html.escape(str(measure))} (row vs column, "
            f"wins/ties/losses; published beneath{html.escape(bold)})</caption><tr><th class='l'>w/t/l</th>"
            + "".join(f"<th>{html.escape(c)}</th>" for c in cols)
            + "</tr>"
        )
        cell = {(r.row_method, r.col_method): r for r in g.itertuples(index=False)}
        for r in rows:
            out.append(f"<tr><td class='l'>{html.escape(r)}</td>")
            for c in cols:
                x = cell.get((r, c))
                if x is None:
                    out.append("<td></td>")
                    continue
                pub = (
                    "—"
                    if pd.isna(x.published_wins)
                    else f"{int(x.published_wins)}/{int(x.published_ties)}/{int(x.published_losses)}"
                )
                kind = cell_count.record_class(x.wins, x.losses, x.published_wins, x.published_losses, tolerance,
                                               comparable)
                cls = {cell_count.EXACT: "ok", cell_count.TOL1: "near", cell_count.OFF: "off"}.get(kind, "")
                ours = _bold_if(f"{x.wins}/{x.ties}/{x.losses}", getattr(x, "significant", ""))
                pub = _bold_if(pub, getattr(x, "published_significant", ""))
                out.append(
                    f"<td class='{cls}'>{ours}<br><span class='pub'>published {pub}</span>"
                    f"{_record_bands((bands or {}).get((measure, r, c)))}</td>"
                )
            out.append("</tr>")
        out.append("</table></div>")
    return "".join(out)


def _summary_cells(summary: pd.DataFrame, keys, ours_col: str, pub_col: str, label: str) -> str:
    """A footer row of the cell table (the paper's average, mean rank or w/t/l record): ours over the published."""
    by_key = {(r["method"], r["metric"]): r for _, r in summary.iterrows()}
    out = [f"<tr class='sum'><td class='l'>{label}</td>"]
    for key in keys:
        r = by_key.get(key)
        if r is None:
            out.append("<td></td>")
            continue
        ours, pub = r.get(ours_col), r.get(pub_col)
        if isinstance(ours, str) or isinstance(pub, str):  # a w/t/l record: no difference to print
            ours, pub = (v if isinstance(v, str) and v else "—" for v in (ours, pub))
            out.append(
                f"<td><span class='ours'>{ours}</span><span class='pub'>{pub}</span><span class='diff'>—</span></td>"
            )
            continue
        diff = "—" if pd.isna(ours) or pd.isna(pub) else f"{float(ours) - float(pub):+.2f}"
        out.append(
            f"<td><span class='ours'>{_fmt(ours) or '—'}</span><span class='pub'>{_fmt(pub) or '—'}</span>"
            f"<span class='diff'>{diff}</span></td>"
        )
    out.append("</tr>")
    return "".join(out)


def table_html(
    table: pd.DataFrame,
    caption: str,
    tolerances: dict | None = None,
    summary: pd.DataFrame | None = None,
    bands: dict | None = None,
) -> str:
    """One row per dataset, one column per (method, metric) — the metric named only when a table has several;
    with ``summary`` (``analyse.summary``'s frame) the paper's average and mean-rank rows at the foot; with
    ``bands`` ((dataset, method, metric) → its row of ``stats/seed_bands.csv``) each cell's seed band."""
    keys = list(dict.fromkeys(zip(table["method"], table["metric"], strict=True)))
    several = len({k for _, k in keys}) > 1
    out = [f"<table class='cells'><caption>{html.escape(caption)}</caption><tr><th class='l'>dataset</th>"]
    out += [f"<th>{html.escape(m)}" + (f"<br>{html.escape(k)}" if several else "") + "</th>" for m, k in keys]
    out.append("</tr>")
    for ds, g in table.groupby("dataset", sort=False):
        out.append(f"<tr><td class='l'>{html.escape(ds)}</td>")
        g = g.set_index(["method", "metric"])
        out += [
            _cell(g.loc[key], (tolerances or {}).get(key[1], (0.5, 1.0)), (bands or {}).get((ds, *key))) for key in keys
        ]
        out.append("</tr>")
    if summary is not None and len(summary):
        out.append(_summary_cells(summary, keys, "average", "published_average", "average"))
        out.append(_summary_cells(summary, keys, "mean_rank_among_computed", "published_mean_rank", "mean rank"))
        if "wtl" in summary.columns:
            out.append(_summary_cells(summary, keys, "wtl", "published_wtl", "w/t/l (significant)"))
    out.append("</table>")
    return "".join(out)


def cpu_time(seconds: float) -> str:
    """CPU seconds as a reader takes them in: "42 CPU-s" below ten minutes, "1.3 CPU-h" from an hour;
    never "0 min" for work done."""
    if seconds < 600:
        return f"{seconds:.3g} CPU-s" if seconds < 10 else f"{seconds:.0f} CPU-s"
    return f"{seconds / 60:.0f} CPU-min" if seconds < 3600 else f"{seconds / 3600:.1f} CPU-h"


def number(v, nd: int | None = 4) -> str:
    """A number of a page: ``nd`` decimals (None: as few as it needs, integers without any), and
    below 1e-4 in scientific notation (a p-value of 3.86e-8 is not "0.0000"); empty for none."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    x = float(v)
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    if x != 0 and abs(x) < 1e-4:
        return f"{x:.3g}" if "e" in f"{x:.3g}" else f"{x:.2e}"
    if nd is None:
        return f"{int(x)}" if x == int(x) and abs(x) < 1e15 else f"{x:.4g}"
    return f"{x:.{nd}f}"


def column_name(c) -> str:
    """A column's name as a reader takes it in: the counts' own labels, else its words without underscores."""
    return cell_count.LABELS.get(str(c), str(c).replace("_", " "))


def frame_html(df: pd.DataFrame, nd: int | None = 4) -> str:
    """A frame as a table: human column names, numbers by ``number``, yes / no for booleans, empty for none."""
    def f(v):
        if isinstance(v, bool | np.bool_):
            return "yes" if v else "no"
        if isinstance(v, int | np.integer):
            return str(int(v))
        if isinstance(v, float | np.floating):
            return number(float(v), nd)
        text = str(v)
        return {"nan": "", "None": "", "True": "yes", "False": "no"}.get(text, html.escape(text))

    head = "".join(f"<th>{html.escape(column_name(c))}</th>" for c in df.columns)
    body = "".join("<tr>" + "".join(f"<td>{f(v)}</td>" for v in r) + "</tr>" for r in df.itertuples(index=False))
    return f"<div class='scroll'><table><tr>{head}</tr>{body}</table></div>"


MACHINE = ("<!--machine-->", "<!--/machine-->")
# what nbrepro fingerprint strips from a page's bytes
MACHINE_STRETCH = re.compile(re.escape(MACHINE[0].encode()) + b".*?" + re.escape(MACHINE[1].encode()), re.S)


def machine_dependent(text: str) -> str:
    """Mark a stretch of a page that depends on the machine or the moment (a run's time, its
    commit): ``nbrepro fingerprint`` leaves it out, so the page stays comparable across machines."""
    return f"{MACHINE[0]}{text}{MACHINE[1]}"


AUDIT = paths.stats("printed_audit")


def audit_section(audit: pd.DataFrame) -> str:
    """"The paper's own numbers": its printed tables checked against each other (``analysis.audit``),
    the inconsistent checks first."""
    from ..analysis.audit import audit_counts

    ok, n = audit_counts(audit)
    order = audit.assign(_o=audit["consistent"].map({"no": 0, "yes": 1}).fillna(2)).sort_values("_o", kind="stable")
    return ("<h2 id='audit'>The paper's own numbers</h2><p class='small'>Before any of ours: each printed "
            "average, mean rank, record, statistic and claim recomputed from the paper's other printed numbers, "
            "consistent when the two agree at the printed precision (<code>stats/printed_audit.csv</code>).</p>"
            f"<p><b>{ok} of {n}</b> checks consistent"
            + (f"; {n - ok} not: listed first" if n > ok else "") + ".</p>"
            + frame_html(order.drop(columns="_o"), None))


def counts_sentence(t: cell_count.Totals) -> str:
    """The headline of a paper's cells (``analysis.counts.totals``), each class once, disjoint."""
    if not t.printed and not t.not_comparable:
        return ("<p>No printed cells to compare with: nothing was printed for these data sets, or this "
                "config's tables hold what a figure plots.</p>")
    if not t.printed:
        return (f"<p>No printed cell is comparable with this run: the paper's {t.not_comparable} printed counts are "
                "over other data sets than this run's.</p>")
    parts = [f"<p>Of <b>{t.printed}</b> cells the paper printed, <b>{t.exact}</b> reproduce exactly at the printed "
             f"decimals (mean, and sd where printed); {t.within_tolerance_1} more lie within the metric's first "
             f"tolerance, {t.within_tolerance_2} more within its second, {t.further_off} further off"]
    if t.not_computed:
        parts.append(f", {t.not_computed} not computed")
    parts.append(".")
    if t.not_comparable:
        parts.append(f" {t.not_comparable} printed counts are over other data sets than this run's: not comparable.")
    if t.computed_not_printed:
        parts.append(f" {t.computed_not_printed} of our cells have no printed value (a data set or a column the "
                     "paper did not print) and count in none of these.")
    return "".join(parts) + "</p>"


def claim_counts(claims: pd.DataFrame) -> dict[str, dict]:
    """source ("printed": on the paper's printed numbers, "ours") → claims held, not held, other
    (``stats/claims.csv``: the columns of ``nbrepro.analysis.Claim``)."""
    out = {}
    for source, g in claims.groupby("source", sort=False):
        v = g["verdict"].astype(str)
        held, not_held = int((v == "yes").sum()), int((v == "no").sum())
        out[source] = {"held": held, "not held": not_held, "other": len(g) - held - not_held}
    return out


def write_page(out_path, title: str, parts: list[str], css: str = "") -> str:
    """A whole page: the head (title, the shared style) and ``parts`` as the body, written to ``out_path``."""
    text = "\n".join(
        [
            f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{CSS}{css}</style></head><body>",
            *parts,
            "</body></html>",
        ]
    )
    with atomic_path(out_path) as tmp:
        tmp.write_text(text)
    return text


def _glance(paper: Paper, outputs: dict) -> str:
    """The report's first section: how much reproduces (cells per table and metric), which
    claims hold, the gaps in one line each, and what the run was made from."""
    out = ["<h2 id='glance'>At a glance</h2>"]
    counts = outputs.get("stats/match_counts.csv")
    if counts is not None:
        out.append(counts_sentence(cell_count.totals(counts)))
        table = cell_count.by_table(counts)
        if len(table):
            out.append(frame_html(table, None))
    audit = outputs.get(AUDIT)
    if audit is not None and len(audit):
        from ..analysis.audit import audit_counts

        ok, n = audit_counts(audit)
        out.append(f"<p><a href='#audit'>The paper's own numbers</a>: {ok} of {n} checks of its printed tables "
                   "against each other consistent.</p>")
    claims = outputs.get("stats/claims.csv")
    if claims is not None and len(claims):
        said = {"printed": "on the paper's own printed numbers", "ours": "on ours"}
        parts = [
            f"{said.get(source, source)}: {n['held']} hold, {n['not held']} do not"
            + (f", {n['other']} cannot be checked" if n["other"] else "")
            for source, n in claim_counts(claims).items()
        ]
        out.append(f"<p><a href='#claims'>Claims</a> ({len(claims)} checks): " + "; ".join(parts) + ".</p>")
    floor = outputs.get(paths.NOISE_FLOOR)
    runs = _seed_runs(outputs)
    if runs > 1 and floor is not None:  # a paper that draws no random number has one run: its section says so
        n = floor[["printed", "inside", "outside_named", "outside_unnamed"]].sum()
        out.append(
            f"<p><a href='#seeds'>Seed noise</a> ({runs} runs): "
            f"<b>{n['inside']} of {n['printed']}</b> printed values lie within their seed bands; of the "
            f"{n['printed'] - n['inside']} outside, {n['outside_named']} are named in a gap below"
            + (f" and <b>{n['outside_unnamed']} are not</b>" if n["outside_unnamed"] else "")
            + ".</p>"
        )
    if paper.gaps:
        out.append("<p>Where the reproduction differs (<a href='#gaps'>why</a>):</p><ul>")
        out += [f"<li><a href='#gap-{i + 1}'>{html.escape(g.cells)}</a></li>" for i, g in enumerate(paper.gaps)]
        out.append("</ul>")
    prov = [f"nbrepro {html.escape(str(outputs.get('nbrepro_version', '')))}"]
    if outputs.get("config_sha256"):
        prov.append(f"config {html.escape(paper.name)}.yaml sha256 <code>{outputs['config_sha256'][:16]}</code>…")
    if "data_sources" in outputs:
        prov.append(
            f"{len(outputs['data_sources'])} data files, each with its source and sha256 under <a href='#data'>Data</a>"
        )
    if outputs.get("run"):
        prov.append(machine_dependent(html.escape(outputs["run"])))
    prov.append("when it ran, the commit and the time per classifier: <a href='run.html'>run.html</a>")
    out.append("<p class='small'>Made from: " + "; ".join(prov) + ".</p>")
    return "".join(out)


def _bands_of(outputs: dict, table: str) -> dict | None:
    """(dataset, method, metric) → the cell's seed band row, for one cells table (None: no reseeding run)."""
    bands = outputs.get(paths.SEED_BANDS)
    if bands is None:
        return None
    b = bands[(bands["table"] == table) & (bands["value"] == "mean")]
    return {(r["dataset"], r["method"], r["metric"]): r for r in b.to_dict("records")}


def _record_bands_of(outputs: dict, table: str) -> dict | None:
    """(measure, row, column) → {"wins": band row, "losses": band row}, for one pairwise table."""
    bands = outputs.get(paths.SEED_BANDS)
    if bands is None:
        return None
    out: dict = {}
    for r in bands[bands["table"] == table].to_dict("records"):
        out.setdefault((r["measure"], r["row_method"], r["col_method"]), {})[r["value"]] = r
    return out


def _seed_runs(outputs: dict) -> int:
    """How many runs the seed bands span (the main run and the reseeded ones); 1 without bands."""
    bands = outputs.get(paths.SEED_BANDS)
    return int(bands["runs"].max()) if bands is not None and len(bands) else 1


def _seed_section(outputs: dict) -> list[str]:
    """The reseeding run: how far each table's cells move with the seed, which printed cells lie
    outside their bands (and the gap that names each), and how often each claim holds."""
    bands = outputs.get(paths.SEED_BANDS)
    out = ["<h2 id='seeds'>Seed noise: is a gap noise or a difference?</h2>"]
    if bands is None:
        return out + [
            "<p class='small'>No reseeding run: <code>snakemake --cores 2 --config seeds=5</code> "
            "repeats the evaluation under 5 other seeds and shows each cell's seed band here.</p>"
        ]
    runs = _seed_runs(outputs)
    changes = outputs.get("seed_changes") or []
    out.append(
        "<p class='small'>"
        + (
            f"The evaluation was repeated under {runs - 1} other seeds (run k: {html.escape('; '.join(changes[:3]))}"
            + (f"; and {len(changes) - 3} more" if len(changes) > 3 else "")
            + ", for k = 1). "
            if runs > 1
            else "This paper's experiment draws no random number: every run gives the same values, "
            "so each band is the value itself. "
        )
        + "A cell's seed band is the mean ± 2 sd of its value over the runs (sd with ddof 1), widened to their "
        "min–max where that is wider; the printed value is <b>within seed noise</b> when it lies in the band "
        "widened by half a unit of its printed decimals, otherwise <b>outside: a difference to explain</b>, "
        "named by the gap that covers it (<a href='#gaps'>gaps</a>) if one does. The noise floor is the "
        "median band width: the smallest gap this protocol can resolve.</p>"
    )
    if paths.NOISE_FLOOR in outputs:
        out.append("<h3>Noise floor per table</h3>" + frame_html(outputs[paths.NOISE_FLOOR], 4))
    outside = bands[bands["status"] == "outside: a difference to explain"]
    if len(outside):
        cols = [
            c
            for c in (
                "table",
                "dataset",
                "method",
                "metric",
                "measure",
                "row_method",
                "col_method",
                "value",
                "printed",
                "main",
                "band_low",
                "band_high",
                "gap",
            )
            if c in outside.columns
        ]
        # a gap by its number in the gaps list ("gap 6"), an unnamed cell blank; key columns another
        # kind of table uses (read back from CSV as empty or NaN) left out
        shown = outside[cols].assign(gap=outside["gap"].map(lambda g: "" if pd.isna(g) else f"gap {int(g)}"))
        shown = shown[[c for c in cols if (shown[c].notna() & (shown[c].astype(str) != "")).any()]]
        out.append(f"<h3>Printed cells outside their seed bands ({len(outside)})</h3>" + frame_html(shown, 4))
    if paths.SEED_STABILITY in outputs:
        st = outputs[paths.SEED_STABILITY]
        flips = int(st["changes_with_seed"].astype(str).str.lower().eq("true").sum())
        out.append(
            f"<h3>Seed stability of the claims on our numbers ({flips} of {len(st)} change with the seed)"
            "</h3><p class='small'>The verdict in each run (the main run first) and the fraction of runs in "
            "which the claim holds; beside the data-set bootstrap stability of the claims table above.</p>"
            + frame_html(st.drop(columns=["claim"]), 2)
        )
    return out


def _best_readings(fitted: pd.DataFrame, choices) -> str:
    """Per choice a gap names: its best-scoring reading, and its touched printed cells inside their
    seed band under the default and under that reading (``stats/readings.csv``, metric "all")."""
    out = []
    for choice in choices:
        t = fitted[(fitted.choice == choice) & (fitted.metric == "all")]
        if not len(t):
            continue
        best = t[t.best.astype(str).str.lower() == "true"].iloc[0]
        default = t[t.reading == "default"].iloc[0]
        verdict = ("the default" if best.reading == "default"
                   else f"<b>{html.escape(best.reading)}</b>"
                   + (" (clearly better)" if str(best.clearly_better).lower() == "true" else ""))
        out.append(f"{html.escape(choice)}: {verdict}; inside {default.inside} → {best.inside} of "
                   f"{default.cells_touched}, median gap {_fmt(default.median_gap, 3)} → {_fmt(best.median_gap, 3)}")
    return "<br>".join(out) or "—"


def _pool_words(derived: Paper) -> str:
    """The pool of an out-of-sample run and what it left out, in words."""
    made = derived.derived_from
    user = set(made.get("user_datasets") or ())
    names = ", ".join(d + (" (yours)" if d in user else "") for d in derived.datasets)
    excluded = {d: why for d, why in (made.get("excluded") or {}).items() if why != "the paper uses it"}
    out = f"{len(derived.datasets)} data sets the paper did not use: {names}."
    if excluded:
        out += " Left out: " + "; ".join(f"{d} ({why})" for d, why in excluded.items()) + "."
    return out


def _out_of_sample_section(paper: Paper, outputs: dict, rel) -> list[str]:
    """The paper's claims asked of data sets it did not use (``--config out_of_sample=…``), or, in
    the out-of-sample run's own report, which paper and pool it is."""
    if paper.derived_from.get("kind") == "cut":
        made = paper.derived_from
        skipped = made.get("skipped_gaps") or ()
        name, kept = html.escape(made["paper"]), html.escape(", ".join(paper.datasets))
        n, of = len(paper.datasets), len(made["datasets"])
        return [f"<h2 id='cut'>A cut of the paper</h2><p>This is {name} (its whole run, where built: "
                f"<code>results/{name}/report.html</code>) cut to {n} of its {of} data sets "
                f"({kept}; <code>--config datasets=…</code>): our tables, statistics and claims are over these data "
                "sets; <b>the printed verdicts are judged on the paper's full printed tables</b>, as in its whole "
                "run. No readings are run on a cut."
                + (" Gaps left out (every cell they name is on a data set not kept): "
                   f"{html.escape('; '.join(skipped))}." if skipped else "") + "</p>"]
    if paper.derived_from:
        return [f"<h2 id='out-of-sample'>Out of sample</h2><p>This is the out-of-sample run of "
                f"<a href='../{html.escape(paper.derived_from['paper'])}/report.html'>"
                f"{html.escape(paper.derived_from['paper'])}</a>: its classifiers, protocol, preprocessing, "
                f"statistics and claims on {html.escape(_pool_words(paper))} Nothing was printed for these data "
                "sets, so every cell is ours alone.</p>"]
    if "out_of_sample" not in outputs:
        return []
    table, derived = outputs["out_of_sample"]
    same = int((table["same"] == "yes").sum())
    holds = int((table["out_of_sample"] == "yes").sum())
    parts = [f"<h2 id='out-of-sample'>Out of sample</h2><p>The paper's claims that generalise over data sets, "
             f"asked of {html.escape(_pool_words(derived))} The tables, statistics and figures on them are in "
             f"<a href='../{html.escape(derived.name)}/report.html'>their own report</a>.</p>",
             f"<p><b>{holds} of {len(table)} claims hold out of sample</b> ({same} with the same verdict as on the "
             "paper's own data sets; stability: the share of 1 000 bootstrap resamples of each pool in which the "
             "claim holds).</p>"]
    shown = table[["claim_id", "metric", "claim", "in_sample", "in_sample_stability", "out_of_sample",
                   "out_of_sample_stability", "out_of_sample_evidence"]]
    parts.append(frame_html(shown, 2))
    ranks, extended = outputs.get(paths.RANKS_OUT_OF_SAMPLE), outputs.get(paths.TABLE_OUT_OF_SAMPLE)
    if ranks is not None and extended is not None:
        name = outputs["out_of_sample_table_name"]
        parts.append(f"<h3>{html.escape(name)}: mean ranks on the paper's data sets and out of sample</h3>"
                     "<p class='small'>Friedman ranks (1 = best) over the data sets where every method has a value; "
                     "a rank_change above 0 is a worse rank out of sample. The red bar is each side's Nemenyi critical "
                     "difference: methods further apart than it differ at α.</p>")
        figure = outputs.get("out_of_sample_figure")
        if figure is not None:
            parts.append(f"<img src='{rel(figure)}' alt='mean ranks in and out of sample' style='max-width:100%'>")
        parts.append(frame_html(ranks, 2))
        parts.append(f"<h3>{html.escape(name)}, extended by the pool's rows</h3><p class='small'>Our means; the "
                     "paper's data sets first (printed value beneath each), then the pool's and a user's (nothing "
                     "was printed for them: <i>not printed</i>).</p>")
        parts.append(_extended_table_html(extended))
    return parts


def claims_html(claims: pd.DataFrame, paper: str) -> str:
    """The paper's claims, one row per claim (and metric): its id and sentence, each source's verdict
    over its evidence, and, where any claim has them, our stability and today's tests; the full record
    of each (every column of ``stats/claims.csv``) is its row on the claims page, linked by its id."""
    from .words import subjects, verdict_class

    claims = claims.assign(metric=claims["metric"].fillna("").astype(str))
    keys = list(dict.fromkeys(zip(claims["claim_id"], claims["metric"], strict=True)))
    by = {(r.claim_id, r.metric, r.source): r for r in claims.itertuples()}
    first = [next(by[(c, m, s)] for s in ("printed", "ours") if (c, m, s) in by) for c, m in keys]
    sources = [s for s in ("printed", "ours") if (claims["source"] == s).any()]
    extra = [c for c in ("stability", "wilcoxon_holm", "bayesian") if c in claims and claims[c].notna().any()
             and (claims[c].astype(str) != "").any()]
    names = {"printed": "on the printed numbers", "ours": "on ours", "stability": "stability (ours)",
             "wilcoxon_holm": "Wilcoxon–Holm (ours)", "bayesian": "Bayesian (ours)"}
    head = ("<tr><th class='l'>claim</th>" + "".join(f"<th class='l'>{names[s]}</th>" for s in sources)
            + "".join(f"<th>{names[c]}</th>" for c in extra) + "</tr>")
    body = []
    for (cid, metric), r, subject in zip(keys, first, subjects([r.claim for r in first]), strict=True):
        anchor = f"{paper}-{cid}" + (f"-{metric}" if metric else "")
        said = (f"<span class='small'>{html.escape(subject)}</span> " if subject else "") + html.escape(str(r.claim))
        cells = [f"<td class='l'>{said}<br><a class='small' href='../claims.html#{html.escape(anchor)}'><code>"
                 f"{html.escape(cid)}</code></a>" + (f" <span class='small'>({html.escape(metric)})</span>"
                                                    if metric else "") + "</td>"]
        for s in sources:
            o = by.get((cid, metric, s))
            if o is None:
                cells.append("<td></td>")
                continue
            verdict, evidence = str(o.verdict), "" if pd.isna(o.evidence) else str(o.evidence)
            cells.append(f"<td class='l {verdict_class(verdict)}'><b>{html.escape(verdict)}</b>"
                         + (f"<br><span class='small'>{html.escape(evidence)}</span>" if evidence else "") + "</td>")
        ours = by.get((cid, metric, "ours"))
        for c in extra:
            v = None if ours is None else getattr(ours, c)
            text = "" if v is None or pd.isna(v) else f"{float(v):.0%}" if c == "stability" else str(v)
            cells.append(f"<td>{html.escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<div class='scroll'><table class='claims'>{head}{''.join(body)}</table></div>"


def _extended_table_html(table: pd.DataFrame) -> str:
    """The main table with the pool's rows under the paper's: one row per data set, one column per
    method and metric, the printed value beneath ours on the paper's rows, "not printed" on the rest."""
    columns = list(dict.fromkeys(zip(table["method"], table["metric"], strict=True)))
    several = table["metric"].nunique() > 1
    cells = {(r.dataset, r.method, r.metric): r for r in table.itertuples()}
    head = "<tr><th class='l'>data set</th><th class='l'>from</th>" + "".join(
        f"<th>{html.escape(m)}{'<br>' + html.escape(k) if several else ''}</th>" for m, k in columns) + "</tr>"
    body = []
    for (ds, sample), _ in table.groupby(["dataset", "sample"], sort=False):
        source = "" if sample == "paper" else html.escape(sample)
        row = [f"<td class='l'>{html.escape(ds)}</td><td class='l'>{source}</td>"]
        for m, k in columns:
            r = cells.get((ds, m, k))
            if r is None:
                row.append("<td></td>")
                continue
            decimals = 2 if pd.isna(r.mean_decimals) else int(r.mean_decimals)
            printed = ("<br><span class='small'>not printed</span>" if sample != "paper" else "" if
                       pd.isna(r.published_mean) else f"<br><span class='small'>{r.published_mean:.{decimals}f}</span>")
            row.append(f"<td>{_fmt(r.mean, decimals)}{printed}</td>")
        body.append("<tr" + ("" if sample == "paper" else " class='pool'") + ">" + "".join(row) + "</tr>")
    return f"<div class='scroll'><table>{head}{''.join(body)}</table></div>"


def _readings_section(paper: Paper, outputs: dict, rel) -> list[str]:
    """The readings run: per choice, how each reading's touched cells fit the printed ones (the
    default first), and the claims whose verdict changes with a reading."""
    declared = [(c, r) for c in paper.choices if c.id for r in c.readings]
    table = outputs.get(paths.READINGS)
    if not declared and table is None:
        return []
    out = ["<h2 id='readings'>Readings: where the paper is silent, which reading fits?</h2>"]
    if table is None:
        return out + [
            f"<p class='small'>The config declares {len(declared)} other reading(s) of "
            f"{len({c.id for c, _ in declared})} choice(s) (<a href='#choices'>choices</a>); "
            "<code>snakemake --cores 2 --config readings=all</code> runs them beside this run and shows here "
            "which fits the printed numbers, and which claims change with them.</p>"
        ]
    out.append(
        "<p class='small'>Each reading reran only the classifiers its patch changes. On the printed cells a choice "
        "touches: <b>inside</b> its seed band (the reading's own runs), <b>closer</b> / <b>further</b> than "
        "under the default reading, the median |gap|, and <b>score</b> = Σ (gap / σ)², σ the cell's seed sd under "
        "the default (at least half a unit of its printed decimals): −2 log-likelihood up to constants, lowest "
        "fits best (rank 1); shown as the ratio to the default's score. A reading is <b>clearly better</b> when it "
        "scores lower, is closer on most of the cells it touches (more than half), leaves no fewer inside and no "
        "larger a median gap. CPU-s: fitting and predicting in the reading's own evaluations.</p>"
    )
    figure = outputs.get("readings_figure")
    if figure is not None:
        out.append(f"<img src='{rel(figure)}' alt='readings' style='max-width:100%'>")
    claims = outputs.get(paths.READING_CLAIMS)
    changed = claims[claims["changed"].astype(str).str.lower() == "true"] if claims is not None else None
    cols = ["reading", "cells_touched", "inside", "closer", "further", "median_gap", "score_vs_default", "rank",
            "clearly_better", "cpu_seconds"]
    for choice_id, g in table[table.metric == "all"].groupby("choice", sort=False):
        topic = g["topic"].iloc[0]
        default = g.loc[g.reading == "default", "score"].iloc[0]
        g = g.assign(score_vs_default=g["score"] / default if default else math.nan)
        shown = g[[c for c in cols if c in g.columns]].copy()
        if changed is not None:
            flips = changed[changed.choice == choice_id]
            shown["claims_changed"] = [
                ", ".join(f"{c} ({m})" if m else c for c, m in zip(
                    flips.loc[flips.reading == r, "claim_id"], flips.loc[flips.reading == r, "metric"].fillna(""),
                    strict=True)) for r in shown["reading"]]
        out.append(f"<h3>{html.escape(topic)} <span class='small'>({html.escape(choice_id)})</span></h3>"
                   + frame_html(shown, 3))
    if changed is not None and len(changed):
        n = len(changed[["claim_id", "metric"]].drop_duplicates())
        out.append(f"<h3>Claims whose verdict changes with a reading ({n})</h3>"
                   + frame_html(changed[["claim_id", "metric", "choice", "reading", "default_verdict", "verdict"]], 0))
    elif claims is not None:
        out.append("<p>No claim judged on our numbers changes its verdict under any reading run.</p>")
    return out


def _tolerances_in_words(paper: Paper) -> str:
    """"accuracy: 0.005 and 0.01 (fraction)": each compared metric's tolerances and unit, as the counts use them."""
    from ..analysis.tables import label_metric

    seen = {}
    for spec in paper.tables.values():
        if not spec.compared_cells:
            continue
        for label in dict.fromkeys(c.metric for c in spec.columns):
            m = label_metric(paper, spec, label)
            seen.setdefault(label, f"{label}: {number(m.tolerances[0], None)} and {number(m.tolerances[1], None)} "
                                   f"({m.unit})")
    return "; ".join(seen.values()) or "none compared"


def paper_report(paper: Paper, outputs: dict[str, pd.DataFrame], figures: list[Path], out_path: Path) -> str:
    out_path = Path(out_path)
    rel = lambda p: os.path.relpath(p, out_path.parent)  # noqa: E731
    title = paper.title or paper.name
    parts = [
        f"<h1>{html.escape(title)}</h1>",
        "<p class='small'>Every reproduced number was computed by nbrepro from the raw ARFF files; the "
        "published value is shown beneath it, and both are printed to the published cell's decimals. "
        "Green: equal at the printed decimals (mean, and sd where printed); yellow: else the mean within the "
        "metric's first tolerance; orange: else within its second; red: further off; grey: not computed yet "
        f"(tolerances in each metric's own unit: {html.escape(_tolerances_in_words(paper))}). "
        "∘ / • = significantly better / worse than the reference "
        f"({html.escape(str(paper.reference if paper.reference is not None else '—'))}), corrected resampled "
        f"t-test at {paper.significance.alpha}.</p>",
    ]
    parts.append(_glance(paper, outputs))
    parts.append("<h2>Protocol</h2><ul>")
    parts.append(f"<li>Evaluation: {html.escape(protocol_in_words(paper.protocol))}.</li>")
    parts.append(f"<li>Preprocessing: {html.escape(preprocessing_in_words(paper.preprocessing))}.</li>")
    parts.append(f"<li>Data sets ({len(paper.datasets)}): {html.escape(', '.join(paper.datasets))}.</li>")
    parts.append(
        "<li>Classifiers:<ul>"
        + "".join(
            f"<li><b>{html.escape(label)}</b> = <code>{html.escape(estimator_in_words(spec))}</code>"
            + (f" — {html.escape(spec.note)}" if spec.note else "")
            + (f" (only on {html.escape(', '.join(spec.datasets))})" if spec.datasets else "")
            + "</li>"
            for label, spec in paper.classifiers.items()
        )
        + "</ul></li></ul>"
    )
    fitted = outputs.get(paths.READINGS)   # the readings run: beside a gap, which reading of its choices fits best
    for items, key, title, fields in (
        (paper.choices, "choices", "Choices where the paper is ambiguous", ("topic", "choice", "why")),
        (paper.gaps, "gaps", "Where the reproduction differs, and why", ("cells", "explanation")),
    ):
        if items:
            readings = key == "gaps" and fitted is not None and any(g.choices for g in items)
            parts.append(
                f"<h2 id='{key}'>{title}</h2><div class='scroll'><table><tr>"
                + "".join(f"<th class='l'>{f}</th>" for f in fields)
                + ("<th class='l'>readings run (best by score)</th>" if readings else "")
                + "</tr>"
            )
            for i, item in enumerate(items):
                anchor = f" id='gap-{i + 1}'" if key == "gaps" else ""
                parts.append(
                    f"<tr{anchor}>"
                    + "".join(f"<td class='l'>{html.escape(getattr(item, f) or '')}</td>" for f in fields)
                    + (f"<td class='l'>{_best_readings(fitted, item.choices)}</td>" if readings else "")
                    + "</tr>"
                )
            parts.append("</table></div>")
    audit = outputs.get(AUDIT)
    if audit is not None:
        parts.append(audit_section(audit))
    if any(t.published for t in paper.tables.values()):   # an experiment with no printed numbers has none to count
        parts.append("<h2>How many cells reproduce</h2>")
        parts.append("<p class='small'>Per table, method and metric, each cell in one class (they sum to the "
                     "printed cells): exact, else within the 1st tolerance, else within the 2nd, further off, not "
                     "computed. Largest gap: between a printed cell and ours, in the metric's unit.</p>")
        parts.append(frame_html(outputs["stats/match_counts.csv"], None))
    parts += _seed_section(outputs)
    parts += _readings_section(paper, outputs, rel)
    parts += _out_of_sample_section(paper, outputs, rel)
    from ..analysis.tables import label_metric

    for name, spec in paper.tables.items():
        parts.append(f"<h2>{html.escape(name)}</h2>")
        if spec.kind == "pairwise":
            parts.append(
                pairwise_html(
                    outputs[f"tables/{name}.csv"],
                    spec.caption or name,
                    spec.record_test,
                    _record_bands_of(outputs, name),
                    int(spec.tolerance if spec.tolerance is not None else 3),
                )
            )
            parts.append(f"<h3>{html.escape(name)}: mean ranks per measure</h3>")
            parts.append(frame_html(outputs[f"tables/{name}_summary.csv"], 4))
            continue
        tolerances = {
            label: label_metric(paper, spec, label).tolerances
            for label in dict.fromkeys(outputs[f"tables/{name}.csv"]["metric"])
        }
        parts.append(
            _view(
                name,
                table_html(
                    outputs[f"tables/{name}.csv"],
                    spec.caption or name,
                    tolerances,
                    outputs.get(f"tables/{name}_summary.csv"),
                    _bands_of(outputs, name),
                ),
                f"tables/{name}.csv",
            )
        )
        parts.append(f"<h3>{html.escape(name)}: summary rows</h3>")
        summ = outputs[f"tables/{name}_summary.csv"]
        parts.append(
            "<p class='small'>Mean ranks are over the methods computed so far; they equal the paper's "
            "once every column of the table is reproduced."
            + (
                f" This run has only some of the paper's datasets: the published averages and mean ranks "
                f"are recomputed from the printed cells over {html.escape(str(summ['published_over'].iloc[0]))}."
                if "published_over" in summ.columns and len(summ)
                else ""
            )
            + "</p>"
        )
        parts.append(frame_html(summ, 4))
    analysis = paper.analysis
    if "stats/claims.csv" in outputs:
        claims = outputs["stats/claims.csv"]
        both = set(claims["source"]) >= {"printed", "ours"}
        parts.append(
            "<h2 id='claims'>The paper's claims, checked "
            + ("on the paper's own printed numbers (source: printed) and on ours" if both else "against our numbers")
            + "</h2>"
        )
        if "tests_evidence" in claims and claims["tests_evidence"].astype(str).str.contains("Wilcoxon").any():
            parts.append(f"<p class='small'>{html.escape(WILCOXON_CONVENTION)}</p>")
        parts.append(claims_html(claims, paper.name))
    if "stats/text_stats.csv" in outputs:
        text_stats = outputs["stats/text_stats.csv"]
        wilcoxon = any("wilcoxon" in str(item.get("test", "")) for item in analysis.statistics) or (
            "statistic" in text_stats and text_stats["statistic"].astype(str).str.contains("wilcoxon").any())
        parts.append(
            "<h2>Statistics quoted in the text</h2><p class='small'>Computed from our reproduced "
            f"table (values at the printed {'' if analysis.decimals is None else analysis.decimals} decimals), "
            "beside the paper's number." + (f" {html.escape(WILCOXON_CONVENTION)}" if wilcoxon else "") + "</p>"
        )
        parts.append(frame_html(text_stats, 5))
    for item in analysis.statistics:
        key = f"stats/{item.get('id')}.csv"
        if key in outputs:
            parts.append(f"<h2>{html.escape(item.get('caption', item['id']))}</h2>")
            if "wilcoxon" in str(item.get("test", "")):
                parts.append(f"<p class='small'>{html.escape(WILCOXON_CONVENTION)}</p>")
            parts.append(frame_html(outputs[key], 4))
    if "data_sources" in outputs:
        parts.append(
            "<h2 id='data'>Data</h2><p class='small'>Where each data set comes from, its licence, and the "
            "sha256 of the file used (checked against the registry's; which copy was read, shipped, a "
            "mirror's or OpenML's, is in <a href='run.html'>this run</a>'s page).</p>"
        )
        parts.append(frame_html(outputs["data_sources"], 0))
    if "stats/table1.csv" in outputs:
        parts.append("<h2>Table 1 (from the raw files)</h2>")
        parts.append(frame_html(outputs["stats/table1.csv"], 0))
    if figures:
        parts.append("<h2>Figures</h2>")
        for f in figures:
            if f.suffix == ".svg":
                parts.append(f"<p><img src='{html.escape(rel(f))}' style='max-width:100%'></p>")
    for extras, heading in ((paper.investigations, "Investigation"), (paper.benchmarks, "Speed")):
        for extra in extras:
            parts.append(
                f"<h2>{heading}: {html.escape(extra.file)}</h2><p class='small'>{html.escape(extra.caption)}</p>"
            )
            parts.append(frame_html(outputs[extra.file], 3))
    parts.append(
        "<p class='small'>When and on what this ran, and the time per classifier column: "
        "<a href='run.html'>run.html</a> (machine-dependent; on this page such details are marked, and "
        "<code>nbrepro fingerprint</code> leaves them out, so the rest is byte-identical across machines). "
        "Files: tables/*.csv (long format), stats/*_match_counts.csv, "
        "stats/timings.csv (fit and predict seconds), folds/ and predictions/ (per fold, per test row).</p>"
    )
    return write_page(out_path, title, parts)


def run_report(paper: Paper, timings: pd.DataFrame, out_path: Path, provenance: dict | None = None) -> str:
    """What this run of the paper was: when, on what code and machine (``provenance``), and the
    seconds each classifier column took (fit + predict, every fold and data set summed): per
    column, its share and its heaviest data set; then data set × column. Machine-dependent, so a
    page of its own beside the report, outside the fingerprint."""
    title = paper.title or paper.name
    t = timings.assign(seconds=timings["fit_seconds"] + timings["predict_seconds"])
    parts = [f"<h1>This run</h1><p class='small'><a href='report.html'>{html.escape(title)}</a></p>"]
    if provenance:
        parts.append(
            "<table>"
            + "".join(
                f"<tr><th class='l'>{html.escape(str(k))}</th><td class='l'>{html.escape(str(v))}</td></tr>"
                for k, v in provenance.items()
            )
            + "</table>"
        )
    parts.append(
        "<h2>Time per classifier column</h2><p class='small'>Seconds of fitting and predicting inside "
        "the evaluation jobs (one thread each), summed over every fold and data set; data loading, "
        "metrics and Python's start are not in them.</p>"
    )
    if len(t):
        total = t["seconds"].sum()
        heaviest = t.loc[t.groupby("method", sort=False)["seconds"].idxmax()].set_index("method")
        per = t.groupby("method", sort=False).agg(
            seconds=("seconds", "sum"), fit=("fit_seconds", "sum"), predict=("predict_seconds", "sum")
        )
        per = per.sort_values("seconds", ascending=False)
        rows = pd.DataFrame(
            {
                "classifier": per.index,
                "seconds": per["seconds"].round(1).to_numpy(),
                "fit": per["fit"].round(1).to_numpy(),
                "predict": per["predict"].round(1).to_numpy(),
                "share %": (100 * per["seconds"] / total).round(1).to_numpy(),
                "heaviest data set": heaviest.loc[per.index, "dataset"].to_numpy(),
                "its seconds": heaviest.loc[per.index, "seconds"].round(1).to_numpy(),
            }
        )
        parts.append(f"<p>All columns: {total:.0f} s ({total / 3600:.2f} h of one core).</p>")
        parts.append(frame_html(rows, 1))
        wide = t.pivot_table(index="dataset", columns="method", values="seconds", aggfunc="sum", sort=False)
        wide = wide.reindex(columns=list(per.index)).round(1).reset_index()
        parts.append("<h2>Seconds per data set and column</h2>")
        parts.append(frame_html(wide, 1))
    else:
        parts.append("<p>No timings yet.</p>")
    return write_page(out_path, f"Run: {title}", parts)


def _speed_section(top: pd.DataFrame) -> list[str]:
    """The heaviest evaluation jobs of the suite and where their time goes (measured on full runs,
    one thread per job, two jobs at once; not this run's times)."""

    def num(v, fmt="{:.0f}"):
        return "—" if pd.isna(v) else fmt.format(v)

    rows = [
        "<h2 id='speed'>Speed: the heaviest jobs</h2>",
        f"<p class='small'>The {len(top)} evaluation jobs of the suite with the most CPU time, as measured on full "
        "runs of each paper with <code>--cores 2</code> (Snakemake's <code>benchmark:</code> files, collected by "
        "<code>benchmarks/paper_jobs.py</code>; ranked by <code>benchmarks/suite_profile.py</code>), not this "
        "run's times. Fit and predict: the job's classifiers, summed over folds (as recorded when measured: "
        "wall seconds before issue 40, CPU seconds since); other: starting "
        "Python, reading, metrics, writing, and waiting for a core.</p>",
        "<div class='scroll'><table><tr><th class='l'>paper</th><th class='l'>job</th><th class='l'>dataset</th>"
        "<th>CPU s</th><th>wall s</th><th>peak MB</th><th>fit s</th><th>predict s</th><th>other s</th>"
        "<th class='l'>heaviest classifier (share of fit + predict)</th><th>share of suite CPU</th></tr>",
    ]
    for r in top.itertuples():
        heaviest = html.escape(str(r.heaviest_classifier)) + (
            "" if pd.isna(r.heaviest_share) else f" ({100 * r.heaviest_share:.0f} %)"
        )
        rows.append(
            f"<tr><td class='l'>{html.escape(r.paper)}</td><td class='l'>{html.escape(str(r.job))}</td>"
            f"<td class='l'>{html.escape(r.dataset)}</td><td>{num(r.cpu_seconds)}</td>"
            f"<td>{num(r.wall_seconds)}</td><td>{num(r.peak_rss_mb)}</td><td>{num(r.fit_seconds)}</td>"
            f"<td>{num(r.predict_seconds)}</td><td>{num(r.other_seconds)}</td><td class='l'>{heaviest}</td>"
            f"<td>{num(100 * r.share_of_suite_cpu, '{:.1f} %')}</td></tr>"
        )
    rows.append("</table></div>")
    return rows


def _suite_run_section(run: pd.DataFrame) -> list[str]:
    """The last whole-suite run from a clean clone (``benchmarks/suite_run.py``): its wall time,
    peak memory and results size, and each paper's share (measured then, not this run)."""
    total = run[run.paper == "all"].iloc[0]
    papers = run[run.paper != "all"]
    wall = total.run_wall_seconds
    head = f"{wall / 60:.0f} min wall" if pd.notna(wall) else "wall time not recorded"
    units = ""
    if pd.notna(total.get("reference_units")):  # the machine was calibrated (benchmarks/calibrate.py)
        units = (f" = {total.reference_units:.0f} reference units (on yours: × the CPU-s of "
                 f"<code>python benchmarks/calibrate.py</code>)")
    rows = [
        "<h2 id='suite-run'>Speed: the whole suite from a clean clone</h2>",
        f"<p class='small'>Every paper, cold cache, <code>--cores 2</code>, at commit {html.escape(str(total.commit))} "
        f"on {html.escape(str(total.machine))} (<code>benchmarks/results/suite_run.csv</code>, written by "
        f"<code>benchmarks/suite_run.py</code>; not this run's times): <b>{head}</b>, "
        f"{total.cpu_seconds / 3600:.2f} CPU-hours in {int(total.evaluation_jobs)} evaluation jobs{units}, peak memory "
        f"{total.peak_rss_mb:.0f} MB (the largest process), <code>results/</code> {total.results_mb:.0f} MB.</p>",
        "<div class='scroll'><table><tr><th class='l'>paper</th><th>evaluation jobs</th><th>CPU s</th>"
        "<th>share of CPU</th><th>jobs' wall s, summed</th><th>largest job, MB</th><th>results MB</th></tr>",
    ]
    for r in papers.itertuples():
        rows.append(
            f"<tr><td class='l'>{html.escape(r.paper)}</td><td>{int(r.evaluation_jobs)}</td>"
            f"<td>{r.cpu_seconds:.0f}</td><td>{100 * r.cpu_seconds / total.cpu_seconds:.1f} %</td>"
            f"<td>{number(r.job_wall_seconds, 0)}</td><td>{number(r.peak_rss_mb, 0)}</td>"
            f"<td>{number(r.results_mb, 0)}</td></tr>"
        )
    rows.append("</table></div>")
    return rows


def _readings_index(papers: list[dict]) -> list[str]:
    """Per paper with a readings run: on the printed cells each choice touches, how many lie inside
    their seed band under the default reading and under the choice's best-scoring one."""
    rows = []
    for p in papers:
        fit = p.get("reading_fit")
        if fit is None or not len(fit):
            continue
        t = fit[fit.metric == "all"]
        default, best = t[t.reading == "default"], t[t.best.astype(str).str.lower() == "true"]
        better = t[t.clearly_better.astype(str).str.lower() == "true"]
        rows.append({"paper": p["name"], "choices": len(default), "readings run": len(t) - len(default),
                     "touched printed cells": int(default.cells_touched.sum()),
                     "inside, default": int(default.inside.sum()), "inside, best reading": int(best.inside.sum()),
                     "clearly better readings": ", ".join(f"{r.choice}/{r.reading}" for r in better.itertuples())
                     or "none"})
    if not rows:
        return []
    return ["<h2>Readings: where the papers are silent</h2><p class='small'>Per paper, summed over its choices: the "
            "printed cells a choice's readings touch (a cell touched by two choices counts twice), how many lie "
            "inside their seed band under the default reading and under each choice's best-scoring reading, and "
            "the readings that fit clearly better (each paper's report, section Readings).</p>",
            frame_html(pd.DataFrame(rows), 0)]


def _by_method(counts: pd.DataFrame) -> str:
    """"NB 8/9 · LWNB 1/9": per method, its printed cells equal at the printed decimals, of its printed
    cells computed, over every table (``analysis.counts.by_method``)."""
    if counts is None or not len(counts):
        return ""
    return " · ".join(f"{html.escape(str(m))} {e}/{n}" for m, (e, n) in cell_count.by_method(counts).items())


def _audited(audit: pd.DataFrame | None) -> str:
    from ..analysis.audit import audit_counts

    if audit is None:
        return "—"
    ok, n = audit_counts(audit)
    return f"{ok} of {n}"


# the index's columns shown only when some paper has such cells
OPTIONAL_CELLS = (("not computed", "not_computed"), ("not comparable", "not_comparable"))


def _blank_zero(n: int) -> str:
    return str(n) if n else ""


def index_report(
    papers: list[dict], out_path: Path, speed: pd.DataFrame | None = None, suite_run: pd.DataFrame | None = None
) -> None:
    """One row per paper: how many published cells reproduce, the claims held on the paper's
    numbers and on ours, the compute time (machine-dependent, marked so), the exact cells per
    method with a link to its first reproduced-vs-published figure, and the link to its report. ``papers``: dicts with
    name, title, counts, and optionally claims, seconds and figure (relative to the index).
    ``speed``: the suite's heaviest jobs as measured on full runs (``suite_top_jobs.csv``);
    ``suite_run``: the last whole-suite run (``suite_run.csv``)."""
    every = [cell_count.totals(p["counts"]) for p in papers]
    shown = {field for _, field in OPTIONAL_CELLS if any(getattr(t, field) for t in every)}
    parts = [
        "<h1>nbrepro — reproduced papers</h1>",
        "<p class='small'>Cells: the cells each paper printed, in disjoint classes that sum to them: equal to ours "
        "at the printed decimals (exact), else within the metric's first tolerance, else within its second "
        "(each stated in the metric's own unit, in the paper's report), else further off, or not computed; "
        "a printed count over other data sets than the run's is not comparable. A column the paper did "
        "not print counts nothing. Claims: the paper's statements checked on its own "
        "printed numbers and on ours (held / checked). CPU time: fitting and predicting, summed over every "
        "job, on the machine that made this page.</p>",
        "<div class='scroll'><table><tr><th class='l'>paper</th><th>printed cells</th><th>exact</th>"
        "<th>else within 1st tolerance</th><th>else within 2nd tolerance</th><th>further off</th>"
        + "".join(f"<th>{label}</th>" for label, field in OPTIONAL_CELLS if field in shown)
        + "<th>paper's own numbers: checks consistent</th>"
        + "<th>claims held, paper's numbers</th><th>claims held, ours</th><th>CPU time</th>"
        "<th class='l'>exact by method (of the printed cells)</th></tr>",
    ]
    for p in papers:
        t = cell_count.totals(p["counts"])
        claims = claim_counts(p["claims"]) if p.get("claims") is not None and len(p["claims"]) else {}

        def held(source, claims=claims):
            n = claims.get(source)
            return f"{n['held']} / {n['held'] + n['not held']}" if n else "—"

        seconds = p.get("seconds")
        time_cell = machine_dependent(cpu_time(seconds) if seconds is not None else "—")
        # the headline's cells per method: one method's misses are not the paper's (a thumbnail of the
        # figure was unreadable at index size; the figure is a link here)
        figure = _by_method(p["counts"]) + (
            f" <a class='small' href='{html.escape(p['figure'])}'>figure</a>" if p.get("figure") else "")
        parts.append(
            f"<tr><td class='l'><a href='{html.escape(p['name'])}/report.html'>{html.escape(p['title'])}</a></td>"
            + (f"<td>{t.printed}</td><td>{t.exact}</td><td>{t.within_tolerance_1}</td><td>{t.within_tolerance_2}</td>"
               f"<td>{t.further_off}</td>" if t.printed or t.not_comparable else
               "<td colspan='5' class='small'>none printed (a run of ours alone)</td>")
            + "".join(f"<td>{_blank_zero(getattr(t, field))}</td>" for _, field in OPTIONAL_CELLS if field in shown)
            + f"<td>{_audited(p.get('audit'))}</td><td>{held('printed')}</td><td>{held('ours')}</td>"
            f"<td>{time_cell}</td><td class='l small'>{figure}</td></tr>"
        )
    parts.append("</table></div>")
    parts.extend(_readings_index(papers))
    parts.append(
        f"<p><a href='{paths.CLAIMS_PAGE}'>Every claim of the papers in one table</a>: judged on the printed "
        "numbers and on ours, under today's tests, with how stable each verdict is.</p>"
    )
    if suite_run is not None and (suite_run.paper == "all").any():
        parts.extend(_suite_run_section(suite_run))
    if speed is not None and len(speed):
        parts.extend(_speed_section(speed))
    write_page(out_path, "nbrepro", parts)
