# SPDX-License-Identifier: GPL-3.0-or-later
"""Sphinx extension: the API reference pages, listed from the code's own registries when the site
is built: every registered estimator (nbrepro.classifiers.REGISTRY) by family, and every public
name of nbrepro.stats, so a classifier or statistic added to the code has its page with nothing
else edited."""
from __future__ import annotations

from pathlib import Path

from _pages import write_page

DOCS = Path(__file__).resolve().parents[1]


def classifiers_page() -> str:
    from nbrepro.classifiers import REGISTRY

    families: dict[str, list[str]] = {}
    for name, cls in REGISTRY.items():
        families.setdefault(cls.__module__.split(".")[2], []).append(name)
    lines = ["# API reference: the classifiers", "",
             "Every estimator nbrepro registers (`nbrepro.classifiers.REGISTRY`, the names a paper's "
             "`classifiers:` may use), by family, imported as `from nbrepro.classifiers import NAME`.", ""]
    for family in sorted(families):
        lines += [f"## {family}", ""]
        for name in sorted(families[family]):
            lines += ["```{eval-rst}", f".. autoclass:: nbrepro.classifiers.{name}",
                      "   :members: fit, predict, predict_proba", "```", ""]
    return "\n".join(lines)


def stats_page() -> str:
    import nbrepro.stats as stats

    lines = ["# API reference: the statistics", "",
             "`nbrepro.stats`: pure functions returning small named results, as `scipy.stats` does.", ""]
    for name in stats.__all__:
        kind = "autoclass" if isinstance(getattr(stats, name), type) else "autofunction"
        lines += ["```{eval-rst}", f".. {kind}:: nbrepro.stats.{name}", "```", ""]
    return "\n".join(lines)


def write_pages(app=None) -> None:
    write_page(DOCS / "api.md", classifiers_page())
    write_page(DOCS / "api_stats.md", stats_page())


def setup(app):
    app.connect("builder-inited", write_pages)
    return {"parallel_read_safe": True, "version": "1"}
