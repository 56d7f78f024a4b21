# SPDX-License-Identifier: GPL-3.0-or-later
"""Sphinx extension: one page per paper of config/config.yaml, written from the paper's YAML when
the site is built (docs/papers/<paper>.md), so the pages say what the config says and cannot drift
from it. The hand-written part of a page (what reproduces, in a few lines) is
docs/papers/<paper>.intro.md, included when it exists."""
from __future__ import annotations

from pathlib import Path

import yaml
from _pages import write_page

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "papers"


def _cell(text) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def paper_page(name: str) -> str:
    from nbrepro.paper import read_paper
    from nbrepro.report.words import estimator_in_words, preprocessing_in_words, protocol_in_words

    paper = read_paper(ROOT / "config" / "papers" / f"{name}.yaml")
    lines = [f"# {paper.title}", ""]
    intro = OUT / f"{name}.intro.md"
    if intro.exists():
        lines += [intro.read_text().strip(), ""]
    lines += ["## The experiment", "",
              f"- Config: `config/papers/{name}.yaml`; paper text: `{paper.source}`; build it alone with "
              f"`snakemake --cores 2 --config papers=[{name}]`.",
              f"- Data sets ({len(paper.datasets)}): {', '.join(paper.datasets)}.",
              f"- Protocol: {protocol_in_words(paper.protocol)}.",
              f"- Preprocessing: {preprocessing_in_words(paper.preprocessing)}.", "",
              "| column | classifier | note |", "|---|---|---|"]
    for label, spec in paper.classifiers.items():
        lines.append(f"| {_cell(label)} | `{_cell(estimator_in_words(spec))}` | {_cell(spec.note or '')} |")
    lines += ["", "## Choices where the paper is silent", "",
              "Each is also in the report; a choice with readings is run every way by "
              f"`snakemake --cores 2 --config papers=[{name}] readings=all`.", ""]
    for c in paper.choices:
        readings = f" Readings: {', '.join(r.name for r in c.readings)}." if c.readings else ""
        ident = f" (`{c.id}`)" if c.id else ""
        lines.append(f"- **{_cell(c.topic)}**{ident}: {_cell(c.choice)}. *Why:* {_cell(c.why)}.{readings}")
    if paper.gaps:
        lines += ["", "## Gaps named in the config", "",
                  "The cells that do not reproduce, and the likeliest cause of each "
                  "(the report shows which cells each gap covers).", ""]
        for g in paper.gaps:
            lines.append(f"- **{_cell(g.cells)}**: {_cell(g.explanation)}")
    return "\n".join(lines) + "\n"


def write_pages(app=None) -> list[str]:
    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    names = list(config["papers"])
    OUT.mkdir(exist_ok=True)
    for name in names:
        write_page(OUT / f"{name}.md", paper_page(name))
    index = ["# The papers", "", "One page per paper, written from its YAML when the site is built.", "",
             "```{toctree}", ":maxdepth: 1", "", *names, "```", ""]
    write_page(OUT / "index.md", "\n".join(index))
    return names


def setup(app):
    app.connect("builder-inited", write_pages)
    return {"parallel_read_safe": True, "version": "1"}
