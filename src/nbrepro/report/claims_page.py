# SPDX-License-Identifier: GPL-3.0-or-later
"""The claims page: every claim of every paper in one table (``results/claims.html``, and
``results/claims.csv``), judged on the paper's printed numbers and on ours, under today's tests
where the claim is a significance claim, with how stable our verdict is; grouped by paper and,
within a paper, by what the two verdicts say together; a short summary per paper.

Static and script-free, as the reports are.
"""
from __future__ import annotations

import html

import pandas as pd

from ..analysis.claim_records import COLUMNS
from ..io import atomic_path
from ..paper import Gap
from .html import write_page
from .words import subjects, verdict_class

# how the two verdicts read together, in the page's order
GROUPS = [
    ("contradicted", "The paper's own printed numbers do not support it"),
    ("not_reproduced", "Holds on the printed numbers, not on ours"),
    ("reproduced", "Holds on the printed numbers and on ours"),
    ("ours_only", "Not checkable on the printed numbers; judged on ours"),
    ("open", "Not judged on ours: a number is missing, or the statistic is undefined on ours"),
    ("not_checkable", "Not checkable by any numbers (analytical statements)"),
]


def one_row_per_claim(claims: pd.DataFrame, seeds: pd.DataFrame | None = None,
                      robust: dict | None = None) -> pd.DataFrame:
    """``claims`` (one row per claim and source, with a ``paper`` column) as one row per claim:
    the printed verdict and evidence beside ours and our qualifiers, and the claim's group; with
    ``seeds`` (the papers' ``stats/seed_stability.csv``, a ``paper`` column added) our verdict's
    seed stability; with ``robust`` ((paper, claim, metric) → "yes" or "depends on …", the readings
    run's) whether our verdict holds under every reading run."""
    by_seed = (
        {}
        if seeds is None
        else {
            (r["paper"], r["claim_id"], "" if pd.isna(r["metric"]) else str(r["metric"])): r
            for r in seeds.to_dict("records")
        }
    )
    rows = []
    claims = claims.assign(metric=claims["metric"].fillna("").astype(str))
    for (paper, cid, metric), g in claims.groupby(["paper", "claim_id", "metric"], sort=False):
        by = {r.source: r for r in g.itertuples(index=False)}
        pr, ours = by.get("printed"), by.get("ours")
        first = pr if pr is not None else ours
        p_v = pr.verdict if pr is not None else "not checkable"
        o_v = ours.verdict if ours is not None else "not yet computable"
        group = (
            "contradicted"
            if p_v == "no"
            else "not_checkable"
            if p_v == o_v == "not checkable"
            else "open"
            if o_v not in ("yes", "no")
            else "ours_only"
            if p_v != "yes"
            else "reproduced"
            if o_v == "yes"
            else "not_reproduced"
        )
        row = {
            "paper": paper,
            "claim_id": cid,
            "metric": metric,
            "section": first.section,
            "claim": first.claim + (f" ({metric})" if metric else ""),
            "printed": p_v,
            "printed_evidence": "" if pr is None else pr.evidence,
            "ours": o_v,
            "ours_evidence": "" if ours is None else ours.evidence,
            "group": group,
            "kind": _text(getattr(first, "kind", "")) or "predicate",
        }
        for col in ("wilcoxon_holm", "bayesian", "tests_evidence", "stability", "fragile", "pool"):
            row[col] = getattr(ours, col, "") if ours is not None else ""
        row["printed_qualifiers"] = _qualifiers(pr) if pr is not None else ""
        seed = by_seed.get((paper, cid, metric))
        row["seed_stability"] = "" if seed is None else seed["seed_stability"]
        row["seed_verdicts"] = "" if seed is None else seed["verdicts"]
        row["robust_to_readings"] = (robust or {}).get((paper, cid, metric), "")
        rows.append(row)
    return pd.DataFrame(rows)


def _qualifiers(c) -> str:
    """A printed-number verdict's own today's tests and stability, where the printed table allowed them."""
    parts = [
        f"{name} {_text(getattr(c, col))}"
        for name, col in (("Wilcoxon–Holm", "wilcoxon_holm"), ("Bayesian", "bayesian"))
        if _text(getattr(c, col))
    ]
    if _text(c.stability):
        parts.append(f"stability {float(c.stability):.0%}" + (" fragile" if c.fragile == "yes" else ""))
    return "; ".join(parts)


def _text(x) -> str:
    return "" if pd.isna(x) else str(x)


def _summary(paper: str, title: str, wide: pd.DataFrame, gaps: tuple[Gap, ...]) -> str:
    n = len(wide)
    counts = wide.group.value_counts()
    checked_printed = int(wide.printed.isin(["yes", "no"]).sum())
    held_printed = int((wide.printed == "yes").sum())
    checked_ours = int(wide.ours.isin(["yes", "no"]).sum())
    held_ours = int((wide.ours == "yes").sum())
    fragile = int((wide.fragile == "yes").sum())
    undefined = int((wide.ours == "not computable").sum())
    parts = [
        f"<h2 id='{html.escape(paper)}'>{html.escape(title)}</h2>",
        f"<p>{n} claims. On the paper's printed numbers {held_printed} of {checked_printed} checkable hold"
        + (f" ({n - checked_printed} not checkable from the printed tables)" if n > checked_printed else "")
        + f"; on ours {held_ours} of {checked_ours}"
        + (f" ({undefined} not computable: the statistic is undefined on our numbers)" if undefined else "")
        + (
            f", {fragile} of them fragile (the verdict in fewer than 80 % of bootstrap resamples of the data sets)"
            if fragile
            else ""
        )
        + ". "
        + f"Reproduced: {counts.get('reproduced', 0)}; not reproduced: {counts.get('not_reproduced', 0)}; "
        f"contradicted by the paper's own table: {counts.get('contradicted', 0)}.</p>",
    ]
    judged = wide[wide.robust_to_readings != ""] if "robust_to_readings" in wide else wide.iloc[:0]
    if len(judged):
        depends = judged[judged.robust_to_readings != "yes"]
        parts.append(f"<p>Readings run: {len(judged) - len(depends)} of {len(judged)} verdicts on our numbers hold "
                     "under every reading of what the paper leaves unstated"
                     + (f"; {len(depends)} depend on one ({html.escape(', '.join(depends.claim_id.unique()))})"
                        if len(depends) else "") + ".</p>")
    if gaps:
        parts.append(
            "<p class='small'>The likeliest reasons, from the paper's config (<code>gaps</code>):</p><ul class='small'>"
            + "".join(f"<li><b>{html.escape(g.cells)}</b>: {html.escape(g.explanation)}</li>" for g in gaps)
            + "</ul>"
        )
    return "".join(parts)


def _group_table(rows: pd.DataFrame, readings: bool = False, out_of_sample: bool = False) -> str:
    head = (
        "<tr><th class='l'>§, kind</th><th class='l'>claim</th><th>printed numbers</th><th>ours</th>"
        "<th>Wilcoxon–Holm (ours)</th><th>Bayesian (ours)</th><th>stability (ours)</th>"
        + ("<th>robust to readings (ours)</th>" if readings else "")
        + ("<th>out of sample (ours)</th>" if out_of_sample else "")
        + "<th class='l'>evidence (printed; ours; tests; other methods)</th></tr>"
    )
    out = ["<div class='scroll'><table>", head]
    for r in rows.itertuples(index=False):
        subject = r.subject
        stability = (
            "" if _text(r.stability) == "" else f"{float(r.stability):.0%}" + (" fragile" if r.fragile == "yes" else "")
        )
        if _text(r.seed_stability) != "":  # the reseeding run's: the share of seeds in which it holds
            stability += ("<br>" if stability else "") + (
                f"<span title='{html.escape(r.seed_verdicts)}'>seeds {float(r.seed_stability):.0%}</span>"
            )
        evidence = "<br>".join(
            f"<i>{label}</i> {html.escape(x)}"
            for label, x in (
                ("printed:", _text(r.printed_evidence)),
                ("ours:", _text(r.ours_evidence)),
                ("today's tests (ours):", _text(r.tests_evidence)),
                ("other methods (ours):", _text(r.pool)),
            )
            if x
        )
        anchor = f"{r.paper}-{r.claim_id}" + (f"-{r.metric}" if r.metric else "")
        said = (f"<span class='small'>{html.escape(subject)}</span> " if subject else "") + html.escape(r.claim)
        said += f"<br><a class='small' href='#{html.escape(anchor)}'><code>{html.escape(r.claim_id)}</code></a>" + (
            f" <span class='small'>({html.escape(r.metric)})</span>" if r.metric else "")
        if r.printed != r.ours and r.gaps:   # where the verdicts part, the paper's explanations
            said += f" · <a class='small' href='{html.escape(r.paper)}/report.html#gaps'>gaps</a>"
        out.append(
            f"<tr id='{html.escape(anchor)}'><td class='l'>{html.escape(_text(r.section))}"
            f"<br><span class='small'>{html.escape(r.kind)}</span></td>"
            f"<td class='l'>{said}</td><td class='{verdict_class(r.printed)}'>{html.escape(r.printed)}"
            + (f"<br><span class='small'>{html.escape(r.printed_qualifiers)}</span>" if r.printed_qualifiers else "")
            + "</td>"
            f"<td class='{verdict_class(r.ours)}'>{html.escape(r.ours)}</td>"
            f"<td class='{verdict_class(_text(r.wilcoxon_holm))}'>{html.escape(_text(r.wilcoxon_holm))}</td>"
            f"<td class='{verdict_class(_text(r.bayesian))}'>{html.escape(_text(r.bayesian))}</td>"
            f"<td>{stability}</td>"
            + (f"<td class='{'ok' if r.robust_to_readings == 'yes' else 'off' if r.robust_to_readings else ''}'>"
               f"{html.escape(_text(r.robust_to_readings))}</td>" if readings else "")
            + (f"<td class='{verdict_class(_text(r.out_of_sample).split(' ')[0])}'>"
               f"{html.escape(_text(r.out_of_sample))}</td>" if out_of_sample else "")
            + f"<td class='l small'>{evidence}</td></tr>"
        )
    out.append("</table></div>")
    return "".join(out)


def _count_words(n: int) -> str:
    """'the paper', 'the five papers', 'the 12 papers'."""
    words = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}
    return "the paper" if n == 1 else f"the {words.get(n, n)} papers"


def claims_page(papers: list[dict], out_html, out_csv) -> pd.DataFrame:
    """``papers``: dicts with name, title, claims (the paper's ``stats/claims.csv``) and gaps (its
    config's ``gaps``). Writes the page and the CSV (one row per claim and source, every Claim
    column, the paper first); returns the one-row-per-claim frame the page shows."""
    frames = [p["claims"].assign(paper=p["name"]) for p in papers if p.get("claims") is not None]
    long = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=COLUMNS + ["paper"])
    long = long.reindex(columns=["paper"] + COLUMNS)
    seed_frames = [p["seeds"].assign(paper=p["name"]) for p in papers if p.get("seeds") is not None]
    seeds = pd.concat(seed_frames, ignore_index=True) if seed_frames else None
    if seeds is not None:  # our verdict's share of the reseeding run's runs, on the rows of our verdicts
        key = seeds.assign(metric=seeds["metric"].fillna("").astype(str), source="ours")
        long = long.assign(metric=long["metric"].fillna("").astype(str)).merge(
            key[["paper", "claim_id", "metric", "source", "seed_stability"]],
            how="left",
            on=["paper", "claim_id", "metric", "source"],
        )
    robust = None
    if any(p.get("readings") is not None for p in papers):  # the readings run: our verdict under every reading
        from ..analysis.reading_fits import robustness

        robust = {(p["name"], *key): v for p in papers if p.get("readings") is not None
                  for key, v in robustness(p["readings"]).items()}
        long = long.assign(metric=long["metric"].fillna("").astype(str))
        long["robust_to_readings"] = [
            robust.get((r.paper, r.claim_id, r.metric), "") if r.source == "ours" else ""
            for r in long.itertuples(index=False)]
    with atomic_path(out_csv) as tmp:
        long.to_csv(tmp, index=False, lineterminator="\n")
    wide = one_row_per_claim(long, seeds, robust) if len(long) else pd.DataFrame(columns=["paper", "group"])
    asked = {(p["name"], r.claim_id, "" if pd.isna(r.metric) else str(r.metric)): r
             for p in papers if p.get("out_of_sample") is not None for r in p["out_of_sample"].itertuples()}
    if asked:   # the out-of-sample run: our verdict on the pool, beside each claim that generalises
        def said(r):
            o = asked.get((r.paper, r.claim_id, r.metric))
            return "" if o is None else o.out_of_sample + ("" if pd.isna(o.out_of_sample_stability) else
                                                            f" ({float(o.out_of_sample_stability):.0%})")
        wide["out_of_sample"] = [said(r) for r in wide.itertuples()]
    parts = [
        f"<h1>Every claim of {_count_words(sum((wide.paper == p['name']).any() for p in papers))}, "
        "judged twice</h1>",
        "<p class='small'>Each claim is a result sentence of its paper. <b>Printed numbers</b>: judged on the "
        "tables as the paper prints them (a 'no' flags a claim the paper's own table does not support); "
        "<b>ours</b>: on the reproduced numbers. For significance claims, the same comparison under Wilcoxon "
        "signed-rank with Holm's correction and the Bayesian signed-rank test (ROPE stated in the evidence; "
        "'undecided' when no outcome reaches 0.95). The Wilcoxon p-values are scipy's with its defaults, as "
        "Demšar (2006) uses the test: zero differences dropped, the exact null distribution up to 50 data "
        "sets (tied differences make it approximate), the normal approximation without a continuity "
        "correction above; R's <code>wilcox.test</code> switches to the normal approximation with a "
        "continuity correction when differences tie, so its p-values can differ there. "
        "<b>Not computable</b>: the statistic a verdict rests on is undefined on those numbers (e.g. a rank "
        "test's p when every method ties on every data set): neither yes nor no, and a bootstrap resample "
        "where it is undefined counts as not holding (the evidence says on how many). "
        "<b>Stability</b>: the share of 1 000 bootstrap resamples "
        "of the data sets (seed 1) in which our claim holds; 'fragile' when our verdict is reached in fewer "
        "than 80 %; shown for claims that generalise over data sets (a count or a difference on named data sets "
        "describes those data sets); with the reseeding run (<code>--config seeds=K</code>), also the share of "
        "its K + 1 runs (other folds and learner seeds) in which our claim holds. "
        "<b>Kind</b>: the generic kind a claim is declared with in the paper's config "
        "(rank_order, significantly_better, count, test_rejects, in_range, trend), or 'predicate' for a test "
        "written in the paper's claims module where no kind fits. "
        "The same as CSV: <a href='claims.csv'>claims.csv</a>. Papers: "
        + ", ".join(
            f"<a href='#{html.escape(p['name'])}'>{html.escape(p['title'])}</a>"
            for p in papers
            if (wide.paper == p["name"]).any()
        )
        + ".</p>",
    ]  # a paper with no claims has no section
    for p in papers:
        rows = wide[wide.paper == p["name"]]
        if not len(rows):
            continue
        parts.append(_summary(p["name"], p["title"], rows, p.get("gaps") or []))
        if p.get("out_of_sample") is not None and len(p["out_of_sample"]):
            o = p["out_of_sample"]
            parts.append(f"<p>Out of sample: {int((o.out_of_sample == 'yes').sum())} of {len(o)} claims that "
                         "generalise over data sets hold on data sets the paper did not use "
                         f"({int((o.same == 'yes').sum())} with the verdict they have on its own).</p>")
        parts.append(f"<p class='small'><a href='{html.escape(p['name'])}/report.html'>the paper's report</a></p>")
        # a continuation's subject from the paper's rows in their order, before they are grouped by verdict
        rows = rows.assign(gaps=bool(p.get("gaps")), subject=subjects(list(rows.claim)))
        for key, heading in GROUPS:
            g = rows[rows.group == key]
            if len(g):
                parts.append(f"<h3>{html.escape(heading)} ({len(g)})</h3>"
                             + _group_table(g, robust is not None, bool(asked)))
    write_page(out_html, "nbrepro — claims", parts)
    return wide
