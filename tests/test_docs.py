# SPDX-License-Identifier: GPL-3.0-or-later
"""The documentation site builds with warnings as errors, and its pages read well in headless
Chromium at 1 280 and 400 px: no console error, no broken link or image, nothing from the network,
no page wider than the screen (the browser check the reports pass)."""
import subprocess
import sys

import pytest
from browser_check import check_pages, have_browser
from conftest import ROOT

pytestmark = pytest.mark.slow


def test_the_site_builds_and_reads_well(tmp_path):
    pytest.importorskip("sphinx")
    html = tmp_path / "html"
    res = subprocess.run([sys.executable, "-m", "sphinx", "-E", "-W", "--keep-going", "-q", "-b", "html",
                          str(ROOT / "docs"), str(html)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-4000:]
    pages = {p.relative_to(html).as_posix() for p in html.rglob("*.html")}
    assert {"index.html", "api.html", "api_stats.html", "papers/lcwnb.html", "papers/awnb.html"} <= pages
    # every registered estimator has its entry in the reference
    from nbrepro.classifiers import REGISTRY
    api = (html / "api.html").read_text()
    assert all(f'id="nbrepro.classifiers.{name}"' in api for name in REGISTRY)
    if not have_browser():
        pytest.skip("chromium, chromedriver or selenium not installed")
    problems = check_pages(html, tmp_path / "shots")
    assert not problems, "\n".join(problems)
