# SPDX-License-Identifier: GPL-3.0-or-later
"""Out of sample (nbrepro.variants.out_of_sample): the pool each paper's claims are asked of, the config of
its run, and the comparison of its claims with the paper's own."""
import pandas as pd
import pytest
import yaml
from conftest import ROOT

from nbrepro.analysis.claim_records import Claim, claims_frame
from nbrepro.checks import checked_paper
from nbrepro.data.registry import parse_registry
from nbrepro.errors import ConfigError
from nbrepro.paper import load_yaml, read_paper
from nbrepro.variants.out_of_sample import (
    compare_claims,
    derived_config,
    derived_name,
    extended_table,
    main_table,
    pool,
    rank_shift,
)


@pytest.fixture(scope="module")
def registry():
    return parse_registry(load_yaml(ROOT / "config/datasets.yaml"), "config/datasets.yaml")


@pytest.fixture(scope="module")
def lslwnb(registry):
    return read_paper(ROOT / "config/papers/lslwnb.yaml")


def test_every_paper_has_a_pool_of_ten_or_says_why(registry):
    """Each pool: data sets the paper does not use, none generated, none another version of one it
    uses, none above its own size limits; at least ten, or the paper's YAML says why fewer."""
    for name in ("lcwnb", "lslwnb", "kdebw", "lpmbc", "awnb"):
        paper = read_paper(ROOT / f"config/papers/{name}.yaml")
        got = pool(paper, registry)
        assert not set(got.datasets) & set(paper.datasets), name
        assert not any(registry[d].extra.get("generator") for d in got.datasets), name
        assert len(got.datasets) >= 10 or paper.out_of_sample.why_fewer, (name, len(got.datasets))
        reasons = dict(got.excluded)
        assert set(reasons) | set(got.datasets) | set(paper.datasets) == set(registry), name
    kde = pool(read_paper(ROOT / "config/papers/kdebw.yaml"), registry)
    assert dict(kde.excluded)["anneal.ORIG"] == "another copy or version of anneal, which the paper uses"
    # Liu et al.'s rules differ only on numeric attributes: an all-nominal data set is left out, saying so
    assert dict(kde.excluded)["mushroom"].startswith("0 numeric attributes after the paper's preprocessing")
    assert len(kde.datasets) == 11 and "splice" not in kde.datasets
    # Mao et al.'s LPM-BC takes no missing value, and its data sets have none: breast-w (16) is left out
    mao = pool(read_paper(ROOT / "config/papers/lpmbc.yaml"), registry)
    assert dict(mao.excluded)["breast-w"].startswith("16 missing values after the paper's preprocessing, which LPM-BC")


def test_the_pool_keeps_to_the_papers_own_sizes_and_the_kinds_its_classifiers_take(registry, lslwnb):
    got = dict(pool(lslwnb, registry).excluded)
    assert got["adult"] == "48842 instances, above the paper's limit 8124"   # Orhan et al.'s largest: mushroom
    lpmbc = read_paper(ROOT / "config/papers/lpmbc.yaml")
    why = dict(pool(lpmbc, registry).excluded)["anneal"]
    assert why.startswith("classifier 'LPM-BC'") and "numeric attributes only" in why


def test_a_users_list_is_checked_one_line_per_name(registry, lslwnb):
    assert pool(lslwnb, registry, ["iris", "zoo", "iris"]).datasets == ("iris", "zoo")
    with pytest.raises(ConfigError, match=r"config out_of_sample: \['nope'\] are not in the data-set registry"):
        pool(lslwnb, registry, ["iris", "nope"])
    with pytest.raises(ConfigError, match="data set 'mushroom' cannot be asked of paper 'lslwnb': the paper uses it"):
        pool(lslwnb, registry, "mushroom")
    with pytest.raises(ConfigError, match="'letter' cannot be asked .*20000 instances, above the paper's limit"):
        pool(lslwnb, registry, ["letter"])


def test_a_pool_emptied_by_the_papers_limits_is_one_line(registry, lslwnb):
    tight = lslwnb.replaced(out_of_sample={"max_instances": 5})
    with pytest.raises(ConfigError, match="out of sample: no data set of the registry qualifies"):
        pool(tight, registry)


def test_a_restriction_to_named_data_sets_needs_its_out_of_sample_reading(tmp_path, registry, monkeypatch):
    """Hall's AUC tables run on the sets where two classes occur, named: without named_as there is
    no such list on other data (one line naming them); with it, the pool's two-class sets."""
    awnb = read_paper(ROOT / "config/papers/awnb.yaml")
    with pytest.raises(ConfigError, match=r"out of sample: tables\.table3, tables\.table5, classifiers\.SB-AUC are "
                                          "restricted to data sets the paper names"):
        pool(awnb.replaced(out_of_sample={}), registry)
    the_pool = pool(awnb, registry)
    data = derived_config(load_yaml(ROOT / "config/papers/awnb.yaml"), the_pool, registry)
    two = [d for d in the_pool.datasets if registry[d].n_classes == 2]
    assert data["tables"]["table3"]["datasets"] == two and data["classifiers"]["SB-AUC"]["datasets"] == two
    monkeypatch.chdir(ROOT)
    path = tmp_path / "awnb_out_of_sample.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    assert checked_paper(path, registry).name == "awnb_out_of_sample"   # checked as any paper is


def test_the_out_of_sample_config_is_the_paper_on_the_pool_without_printed_numbers(tmp_path, registry, lslwnb,
                                                                                   monkeypatch):
    monkeypatch.chdir(ROOT)
    the_pool = pool(lslwnb, registry)
    data = derived_config(load_yaml(ROOT / "config/papers/lslwnb.yaml"), the_pool)
    path = tmp_path / f"{derived_name('lslwnb')}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    derived = checked_paper(path, registry)   # checked as any paper is, before any job
    assert derived.name == "lslwnb_out_of_sample" and derived.datasets == the_pool.datasets
    assert list(derived.classifiers) == list(lslwnb.classifiers) and derived.protocol == lslwnb.protocol
    assert all(t.published is None for t in derived.tables.values()) and not derived.gaps and not derived.companions
    lcwnb = derived_config(load_yaml(ROOT / "config/papers/lcwnb.yaml"), the_pool)   # Li & Li judge the printed
    assert "claims_on_printed_tables" not in lcwnb["analysis"]                       # tables again: not here
    assert derived.derived_from["paper"] == "lslwnb"
    assert derived.derived_from["excluded"]["adult"].startswith("48842 instances")


def test_claims_are_compared_where_they_generalise():
    def frame(verdicts):
        rows = []
        for cid, (v, stability) in verdicts.items():
            rows.append(Claim(cid, "4", f"claim {cid}", "printed", "yes", "printed evidence"))
            rows.append(Claim(cid, "4", f"claim {cid}", "ours", v, f"evidence {cid}", stability=stability))
        return claims_frame(rows)

    nan = float("nan")
    ins = frame({"best": ("yes", 0.9), "beats": ("yes", 0.7), "on_vote": ("yes", nan)})
    out = frame({"best": ("no", 0.3), "beats": ("yes", 0.95), "on_vote": ("not yet computable", nan)})
    table = compare_claims(ins, out).set_index("claim_id")
    assert list(table.index) == ["best", "beats"]   # a claim on named data sets describes them: not asked
    assert table.loc["best", ["in_sample", "out_of_sample", "same"]].tolist() == ["yes", "no", "no"]
    assert table.loc["beats", "out_of_sample_stability"] == 0.95
    assert table.loc["beats", "out_of_sample_evidence"] == "evidence beats"
    missing = compare_claims(ins, out[out.claim_id != "beats"]).set_index("claim_id")
    assert missing.loc["beats", "out_of_sample"] == "not run"
    assert pd.isna(missing.loc["beats", "out_of_sample_stability"])


WEATHER = """@relation weather
@attribute outlook {sunny, overcast, rainy}
@attribute windy {TRUE, FALSE}
@attribute play {yes, no}
@data
sunny,FALSE,no
overcast,TRUE,yes
rainy,FALSE,yes
"""


def _user_folder(tmp_path, text=WEATHER, entry=None):
    folder = tmp_path / "mine"
    folder.mkdir(exist_ok=True)
    (folder / "weather.arff").write_text(text)
    return {"weather": entry or {"file": "weather.arff"}}, folder


@pytest.mark.parametrize("case, message", [
    ("clash", r"data set 'iris' has the name of a shipped data set"),
    ("csv", r"data set 'weather': weather\.csv is not ARFF; convert it first: nbrepro ship weather\.csv "
            "--class COLUMN"),
    ("absent", r"data set 'weather': other\.arff is not in .*mine \(nor other\.arff\.xz\)"),
    ("no_class", r"class attribute 'result' is not in weather\.arff \(its attributes: outlook, windy, play\)"),
    ("numeric_class", r"the class attribute 'temp' of weather\.arff is numeric; a classifier needs a nominal class"),
])
def test_a_users_data_set_is_refused_in_one_line_before_any_job(tmp_path, case, message):
    from nbrepro.data.user import check_user_entries

    entries, folder = _user_folder(tmp_path)
    if case == "clash":
        entries = {"iris": {"file": "weather.arff"}}
    elif case == "csv":
        entries = {"weather": {"file": "weather.csv"}}
    elif case == "absent":
        entries = {"weather": {"file": "other.arff"}}
    elif case == "no_class":
        entries = {"weather": {"file": "weather.arff", "class_attribute": "result"}}
    else:
        (folder / "weather.arff").write_text(WEATHER.replace("@attribute play {yes, no}",
                                                             "@attribute play {yes, no}\n@attribute temp numeric")
                                             .replace(",no\n", ",no,1\n").replace(",yes\n", ",yes,2\n"))
    with pytest.raises(ConfigError, match=message):
        check_user_entries(entries, folder, {"iris", "zoo"}, "config user_datasets my.yaml")


def test_ship_writes_a_registry_entry_ready_to_paste_and_converts_a_csv_with_its_class(tmp_path, capsys):
    from nbrepro.cli import main as cli
    from nbrepro.data.registry import parse_registry

    (tmp_path / "w.csv").write_text("outlook,temp,play\nsunny,20,no\nrain,,yes\novercast,25.5,yes\n")
    assert cli(["ship", str(tmp_path / "w.csv"), "--to", str(tmp_path / "out")]) == 2
    assert "does not say which column is the class; name it with --class COLUMN" in capsys.readouterr().err
    cli(["ship", str(tmp_path / "w.csv"), "--class", "play", "--to", str(tmp_path / "out")])
    printed = capsys.readouterr().out.splitlines()
    entry = yaml.safe_load("\n".join(line[2:] for line in printed[1:]).replace("…", "x"))
    spec = parse_registry({"datasets": entry}, "pasted")["w"]
    assert (spec.file, spec.n_instances, spec.n_attributes, spec.n_classes) == ("w.arff", 3, 2, 2)
    assert (tmp_path / "out" / "w.arff.xz").is_file()


def _table(rows, published=True):
    """A reproduced table's file (tables/{name}.csv) from (dataset, method, mean) rows."""
    return pd.DataFrame([{"dataset": d, "method": m, "metric": "accuracy", "mean": v, "std": 1.0,
                          "published_mean": v + 0.1 if published else float("nan"), "published_std": float("nan"),
                          "significance": "", "published_significance": "", "mean_decimals": 2,
                          "std_decimals": 2} for d, m, v in rows])


def test_the_main_table_is_extended_by_the_pools_rows_and_ranked_on_each_side():
    """The pool's rows under the paper's (a user's marked as such), and each method's Friedman mean
    rank on either side with that side's Nemenyi CD: on the paper's data sets A wins everywhere, on
    the pool B does; a data set where a method has no value is left out of that side's ranks."""
    from nbrepro.stats import nemenyi

    paper = _table([(d, m, v) for d in ("p1", "p2", "p3") for m, v in (("A", 90), ("B", 80), ("C", 70))])
    pool_ = _table([(d, m, v) for d in ("q1", "q2", "mine") for m, v in (("A", 70), ("B", 90), ("C", 80))]
                   + [("q3", "A", 50.0), ("q3", "B", float("nan")), ("q3", "C", 60.0)], published=False)
    table = extended_table(paper, pool_, user=["mine"])
    assert list(table.columns[:3]) == ["sample", "dataset", "method"]
    assert table.groupby("sample", sort=False).dataset.nunique().to_dict() == {"paper": 3, "pool": 3, "user": 1}
    ranks = rank_shift(table, {"accuracy": True}).set_index("method")
    assert ranks.in_sample_rank.to_dict() == {"A": 1.0, "B": 2.0, "C": 3.0}
    assert ranks.out_of_sample_rank.to_dict() == {"A": 3.0, "B": 1.0, "C": 2.0}
    assert ranks.rank_change.to_dict() == {"A": 2.0, "B": -1.0, "C": -1.0}
    assert set(ranks.in_sample_datasets) == {3} and set(ranks.out_of_sample_datasets) == {3}   # q3 incomplete
    wide = pd.DataFrame({"A": [90] * 3, "B": [80] * 3, "C": [70] * 3})
    assert ranks.in_sample_cd.iloc[0] == pytest.approx(nemenyi(wide).critical_difference)
    # lower is better: the order turns over
    assert rank_shift(table, {"accuracy": False}).set_index("method").in_sample_rank.to_dict() == \
        {"A": 3.0, "B": 2.0, "C": 1.0}


def test_the_extended_table_is_the_first_table_of_values_unless_the_yaml_names_one(tmp_path, registry, monkeypatch):
    monkeypatch.chdir(ROOT)
    kdebw = read_paper(ROOT / "config/papers/kdebw.yaml")
    assert main_table(kdebw) == "error"   # table2 is pairwise
    config = load_yaml(ROOT / "config/papers/lslwnb.yaml")
    config["out_of_sample"] = {"table": "table3"}
    path = tmp_path / "lslwnb.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    assert main_table(read_paper(path)) == "table3"
    config["out_of_sample"] = {"table": "tabel3"}
    path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    with pytest.raises(ConfigError, match=r"out_of_sample.table: 'tabel3' is not a table of values"):
        checked_paper(path, registry)
