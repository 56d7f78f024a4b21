# SPDX-License-Identifier: GPL-3.0-or-later
"""A paper cut to some of its data sets (nbrepro.variants.cut): the config of the cut, and its refusals."""
import pytest
import yaml
from conftest import ROOT

from nbrepro.checks import checked_paper
from nbrepro.data.registry import parse_registry
from nbrepro.errors import ConfigError
from nbrepro.paper import load_yaml
from nbrepro.variants.cut import cut_config, kept_datasets, wanted_names


@pytest.fixture(scope="module")
def registry():
    return parse_registry(load_yaml(ROOT / "config/datasets.yaml"), "config/datasets.yaml")


def test_every_paper_cut_to_a_few_of_its_data_sets_loads_as_a_paper(tmp_path, registry, monkeypatch):
    """Hall's, cut to three data sets: its two-class tables narrowed to the two that are two-class,
    the gaps whose cells all lie elsewhere skipped and listed, the readings gone; each other paper
    cut to its first two data sets loads and is checked as a paper is."""
    monkeypatch.chdir(ROOT)
    for name in ("lcwnb", "lslwnb", "kdebw", "lpmbc", "lpmbc_sweep", "awnb", "lslwnb_cv"):
        written = load_yaml(ROOT / f"config/papers/{name}.yaml")
        keep = ["labor", "iris", "diabetes"] if name == "awnb" else written["datasets"][:2]
        cut = cut_config(written, kept_datasets(written, keep), f"config/papers/{name}.yaml")
        path = tmp_path / f"{name}_cut.yaml"
        path.write_text(yaml.safe_dump(cut, sort_keys=False, allow_unicode=True))
        paper = checked_paper(path, registry)
        assert paper.name == f"{name}_cut" and list(paper.datasets) == [d for d in written["datasets"] if d in keep]
        assert paper.derived_from["kind"] == "cut" and paper.derived_from["datasets"] == written["datasets"]
        assert not any(c.readings for c in paper.choices)
        if name == "awnb":
            assert list(paper.tables["table3"].datasets) == ["diabetes", "labor"]
            assert len(paper.gaps) + len(paper.derived_from["skipped_gaps"]) == len(written["gaps"])
            assert paper.derived_from["skipped_gaps"]


def test_a_cut_that_empties_a_named_list_is_refused_naming_it():
    written = load_yaml(ROOT / "config/papers/awnb.yaml")
    with pytest.raises(ConfigError, match=r"tables.table3 names only \['credit-a'.*none of them kept"):
        cut_config(written, kept_datasets(written, ["iris"]), "config/papers/awnb.yaml")
    with pytest.raises(ConfigError, match="paper 'awnb' uses none of them"):
        cut_config(written, kept_datasets(written, ["nope"]), "config/papers/awnb.yaml")


def test_the_config_value_is_read_as_a_user_types_it():
    assert wanted_names("iris, labor") == ["iris", "labor"] and wanted_names(["iris", "iris"]) == ["iris"]
    with pytest.raises(ConfigError, match="expected a list of data set names"):
        wanted_names(3)
