# SPDX-License-Identifier: GPL-3.0-or-later
"""The package as others receive it: its licence on every source file, dependencies that install beside
other packages (ranges) while the workflow installs from a lock of every package, and a copy installed
from the wheel that writes nothing into site-packages."""
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from nbrepro import cli
from nbrepro.runtime import location

ROOT = Path(__file__).resolve().parents[1]
SPDX = "SPDX-License-Identifier: GPL-3.0-or-later"
SOURCE = re.compile(r"\.(py|smk|java|css|sh)$|(^|/)Snakefile$|^\.ci/(run|lock|oldest|slurm/up|slurm/down)$")
checkout_only = pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs the git checkout")


def _project():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


@checkout_only
def test_every_source_file_carries_the_licence_line():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    sources = [f for f in files if SOURCE.search(f)]
    assert len(sources) > 250
    missing = [f for f in sources if SPDX not in "".join((ROOT / f).read_text().splitlines(True)[:3])]
    assert not missing, missing


@checkout_only
def test_licence_files_and_citation():
    licence = (ROOT / "LICENSE").read_text()
    assert "GNU GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007" in licence
    assert _project()["license"] == "GPL-3.0-or-later"
    notice = (ROOT / "NOTICE.md").read_text()
    assert "Copyright (C) 1999-2015 The University of Waikato" in notice and "R Core Team" in notice
    for cls in ["NaiveBayes", "TAN", "AODE", "WAODE", "HNB", "J48", "NBTree", "Bagging", "Logistic",
                "LocallyWeightedNB", "Calibrated", "CorrelationSelectedNB", "MDLDiscretizer"]:
        assert f"`classifiers.{cls}`" in notice or f"`preprocess.{cls}`" in notice, cls
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["cff-version"] == "1.2.0" and citation["license"] == "GPL-3.0-or-later"


@checkout_only
def test_the_library_declares_ranges_and_the_workflow_is_an_extra():
    project = _project()
    exact = [d for d in project["dependencies"] if "==" in d]
    assert not exact, exact
    names = {re.split(r"[<>=!~ ;\[]", d)[0].lower() for d in project["dependencies"]}
    assert {"numpy", "scipy", "pandas", "scikit-learn"} <= names
    assert not names & {"snakemake", "openml", "rocrate", "snakemake-executor-plugin-slurm"}, names
    workflow = {re.split(r"[<>=!~ ;\[]", d)[0].lower() for d in project["optional-dependencies"]["workflow"]}
    assert {"snakemake", "openml", "rocrate", "snakemake-executor-plugin-slurm"} <= workflow


def _lock_pins():
    text = (ROOT / "requirements-lock.txt").read_text()
    return re.findall(r"^([A-Za-z0-9_.-]+)==([^ ;\\\n]+)([^\\\n]*?) *\\$", text, re.M), text


@checkout_only
def test_the_lock_pins_every_package_with_hashes_and_environment_yml_follows_it():
    pins, text = _lock_pins()
    names = {n.lower() for n, _, _ in pins}
    # every dependency of the package and of its extras is in the lock, one version each (per marker)
    project = _project()
    wanted = project["dependencies"] + [d for extra in ("workflow", "test", "docs")
                                        for d in project["optional-dependencies"][extra]]
    assert {re.split(r"[<>=!~ ;\[]", d)[0].lower() for d in wanted} <= names
    assert len(pins) > 100   # and the transitive ones (139 when written)
    for block in re.split(r"\n(?=[A-Za-z0-9_.-]+==)", text.split("\n", 2)[2]):
        assert "--hash=sha256:" in block, block[:80]
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip = env["dependencies"][-1]["pip"]
    assert pip[:-1] == [f"{n}=={v}{m}" for n, v, m in pins] and pip[-1] == "-e ."


def test_ship_writes_into_an_installed_package_only_with_to(tmp_path, monkeypatch, capsys):
    """An installed nbrepro (no checkout) refuses to ship into its own package folder, in one line, and
    ships to the folder --to names."""
    arff = tmp_path / "tiny.arff"
    arff.write_text("@relation tiny\n@attribute a {x,y}\n@attribute class {p,n}\n@data\nx,p\ny,n\nx,n\n")
    monkeypatch.setattr(location, "checkout", lambda: None)
    with pytest.raises(SystemExit, match=r"^nbrepro ship: give --to DIR: nbrepro is installed") as refused:
        cli.main(["ship", str(arff)])
    assert "\n" not in str(refused.value)
    assert cli.main(["ship", str(arff), "--to", str(tmp_path / "out")]) in (0, None)
    assert (tmp_path / "out" / "tiny.arff.xz").is_file()
    assert "tiny" in capsys.readouterr().out


def test_an_installed_copy_caches_its_kernels_outside_site_packages(tmp_path):
    """The numba kernels of an installed nbrepro are cached in the user's cache folder; a checkout keeps
    them beside its sources."""
    from nbrepro.runtime import _numba_cache

    code = ("import nbrepro.runtime.location as i; i.checkout = lambda: None\n"   # as if installed
            "from nbrepro.classifiers.trees import _j48_kernel\n"
            "k = next(v for v in vars(_j48_kernel).values() if hasattr(v, '_cache'))\n"
            "print(k._cache._cache_path)\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.strip()
    assert Path(out).is_relative_to(tmp_path / "nbrepro" / "numba"), out
    from numba.core import caching

    assert _numba_cache._InstalledLocator in caching.CacheImpl._locator_classes
