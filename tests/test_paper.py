# SPDX-License-Identifier: GPL-3.0-or-later
"""The registries a paper config names things from, the schema that validates it, and the
plug-ins behind them agree: one list of each, read everywhere."""
import pkgutil
from importlib import import_module

import pytest
import yaml
from conftest import ROOT

import nbrepro.claims
from nbrepro.analysis import FIGURE_KINDS, STATISTICS, Claim, claims_frame
from nbrepro.analysis.figures import FigureKind
from nbrepro.checks import checked_paper, registry_names
from nbrepro.checks import named_schema as schema
from nbrepro.classifiers import REGISTRY
from nbrepro.errors import ConfigError


def _enums(node, found):
    """Every enum of the schema, by the key it validates."""
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, dict) and "enum" in value:
                found.setdefault(key, []).append(value["enum"])
            _enums(value, found)
    elif isinstance(node, list):
        for value in node:
            _enums(value, found)
    return found


def test_schema_enums_are_the_registries():
    enums = _enums(schema("paper"), {})
    estimator = schema("paper")["properties"]["classifiers"]["additionalProperties"]["properties"]["estimator"]
    assert estimator["anyOf"][0]["enum"] == sorted(REGISTRY)   # or, beside it, an import path
    assert sorted(STATISTICS) in enums["test"]
    assert sorted(FIGURE_KINDS) in enums["kind"]
    assert "x-names-of" not in str(schema("paper"))
    for name, names in registry_names().items():   # every registry the schema may name has names
        assert len(names) > 0, name


def test_every_figure_kind_is_computed_and_drawn():
    """One plug-in per kind holds both: each overrides FigureKind's compute and draw."""
    for name, kind in FIGURE_KINDS.items():
        assert kind.name == name
        assert type(kind).compute is not FigureKind.compute and type(kind).draw is not FigureKind.draw, name


def test_every_claims_module_returns_claim_records():
    for info in pkgutil.iter_modules(nbrepro.claims.__path__):
        module = import_module(f"nbrepro.claims.{info.name}")
        if hasattr(module, "claims"):     # a paper whose claims are all declared in its config has none
            assert module.claims.__annotations__["return"] == "list[Claim]", info.name


def test_a_claim_names_its_source_and_verdict():
    frame = claims_frame([Claim("c", "4", "x", "printed", "yes", "p = 0.01")])
    assert list(frame.columns) == [
        "claim_id",
        "section",
        "claim",
        "source",
        "verdict",
        "evidence",
        "metric",
        "wilcoxon_holm",
        "bayesian",
        "tests_evidence",
        "stability",
        "fragile",
        "pool",
        "kind",
    ]
    with pytest.raises(ValueError, match="source 'paper'"):
        Claim("c", "4", "x", "paper", "yes", "")
    with pytest.raises(ValueError, match="verdict 'holds'"):
        Claim("c", "4", "x", "ours", "holds", "")


def test_the_loader_applies_the_schemas_defaults_and_refuses_unknown_names(tmp_path):
    paper = checked_paper(ROOT / "config/papers/lcwnb.yaml")
    assert all(t.kind in ("cells", "pairwise") for t in paper.tables.values())
    assert paper.companions == () and paper.preprocessing.complete_cases is False
    assert paper.name == "lcwnb" and paper.path == ROOT / "config/papers/lcwnb.yaml"
    spec = yaml.safe_load((ROOT / "config/papers/lcwnb.yaml").read_text())
    spec["analysis"]["statistics"][0]["test"] = "anova"
    bad = tmp_path / "lcwnb.yaml"
    bad.write_text(yaml.safe_dump(spec))
    with pytest.raises(
        ConfigError, match=r"lcwnb.yaml does not match paper.schema.yaml:\n  analysis/statistics/0/test"
    ):
        checked_paper(bad)


def test_reading_a_paper_loads_no_numba_scikit_learn_or_scipy():
    """A job reads its paper with ``check=False`` (its planning checked it): the loader imports the
    registries only to check, so a job that draws a figure pays for none of the classifiers."""
    import subprocess
    import sys

    code = (
        "import sys; import nbrepro.paper as p; heavy = lambda: sorted(m for m in ('numba', 'sklearn', 'scipy') "
        "if m in sys.modules); before = heavy(); p.read_paper(sys.argv[1]); print(before, heavy())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(ROOT / "config/papers/awnb.yaml")], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[] []"
