# SPDX-License-Identifier: GPL-3.0-or-later
"""Sphinx configuration of nbrepro's documentation site (`python -m sphinx -W -b html docs docs/_build/html`).

Sphinx with numpydoc, because the estimators' docstrings are numpydoc already (as scikit-learn's),
autodoc reads them from the installed package, and the bundled theme builds and opens with no
network; MyST lets the pages be Markdown, so design.md reads on GitHub and on the site alike."""
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

project = "nbrepro"
author = "the nbrepro developers"
copyright = "2026, the nbrepro developers"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "numpydoc",
    "paper_pages",   # docs/_ext/paper_pages.py: one page per paper, written from its YAML at build time
    "api_pages",     # docs/_ext/api_pages.py: the API reference, listed from the registries at build time
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "screenshots", "papers/*.intro.md"]   # an intro is included by its paper page
myst_heading_anchors = 3

numpydoc_show_class_members = False   # the reference lists each estimator's methods once, from autodoc
numpydoc_validation_checks = set()
autodoc_member_order = "bysource"
autodoc_default_options = {"members": False}

html_theme = "alabaster"
html_theme_options = {"fixed_sidebar": False, "page_width": "1100px", "sidebar_width": "230px"}
html_title = "nbrepro"
html_static_path = ["_static"]
html_css_files = ["narrow.css"]
