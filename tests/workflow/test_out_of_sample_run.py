# SPDX-License-Identifier: GPL-3.0-or-later
"""End to end: a tiny paper's claims asked of a user's own data set, out of sample, from a folder
outside the package (nothing written under src/), and the one-line refusals before any job."""
import subprocess

import pytest
import yaml
from test_pipeline import TINY, _project, _snakemake

from nbrepro.data.fetch import SHIPPED

pytestmark = [pytest.mark.slow]

PAPER = {**TINY, "classifiers": {"NB": {"estimator": "NaiveBayes"}, "AODE": {"estimator": "AODE"}},
         "tables": {"table2": {"metric": "accuracy", "methods": ["NB", "AODE"],
                               "published": "config/published/lcwnb_table2.csv"}},
         "analysis": {"table": "table2"},
         "claims": [{"id": "aode_first", "section": "1", "sentence": "AODE ranks first", "kind": "rank_order",
                     "best": "AODE"}]}


def _mine(folder):
    """A data set of 60 rows that no paper uses: three nominal attributes, the class from two of them."""
    rows = []
    for i in range(60):
        a, b, c = "xyz"[i % 3], "pq"[(i // 3) % 2], "uvw"[(i * 7) % 3]
        rows.append(f"{a},{b},{c},{'yes' if (a == 'x') != (b == 'p') else 'no'}")
    (folder / "mine.arff").write_text("@relation mine\n@attribute a {x,y,z}\n@attribute b {p,q}\n@attribute c {u,v,w}\n"
                                      "@attribute label {yes,no}\n@data\n" + "\n".join(rows) + "\n")


def _user_registry(tmp_path):
    """The user's way: ship the file into a folder of theirs, paste the printed entry into a registry of theirs."""
    src = tmp_path / "downloads"
    src.mkdir()
    _mine(src)
    out = subprocess.run(["nbrepro", "ship", str(src / "mine.arff"), "--to", str(tmp_path / "my_data")],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    entry = yaml.safe_load("\n".join(line[2:] for line in out[1:]).replace("…", "mine"))
    path = tmp_path / "my_datasets.yaml"
    path.write_text(yaml.safe_dump({"folder": "my_data", "datasets": entry}))
    return path


def test_a_papers_claims_asked_of_a_users_data_set(tmp_path):
    shipped_before = sorted(p.name for p in SHIPPED.iterdir())
    registry = _user_registry(tmp_path)
    proj = _project(tmp_path, PAPER)
    _snakemake(proj, f"user_datasets={registry}", "out_of_sample=[mine]")
    assert sorted(p.name for p in SHIPPED.iterdir()) == shipped_before   # nothing written into the package
    derived = yaml.safe_load((proj / "resources/papers/tiny_out_of_sample.yaml").read_text())
    assert derived["datasets"] == ["mine"] and derived["derived_from"]["user_datasets"] == ["mine"]
    table = (proj / "results/tiny/stats/claims_out_of_sample.csv").read_text().splitlines()
    assert table[0].startswith("claim_id,metric,section,claim,kind,in_sample,in_sample_stability,out_of_sample")
    assert len(table) == 2 and table[1].startswith("aode_first,")
    report = (proj / "results/tiny/report.html").read_text()
    assert "<h2 id='out-of-sample'>Out of sample</h2>" in report and "mine (yours)" in report
    # the main table extended by the user's row, the ranks on both sides and their figure
    extended = (proj / "results/tiny/stats/table_out_of_sample.csv").read_text().splitlines()
    assert extended[0].startswith("sample,dataset,method,metric,mean")
    assert {line.split(",")[0] for line in extended[1:]} == {"paper", "user"}
    assert sum(line.startswith("user,mine,") for line in extended) == 2
    assert (proj / "results/tiny/stats/ranks_out_of_sample.csv").read_text().startswith(
        "metric,method,in_sample_rank,out_of_sample_rank,rank_change")
    assert (proj / "figures/tiny/out_of_sample_ranks.svg").is_file()
    assert "extended by the pool's rows" in report and "out_of_sample_ranks.svg" in report and "not printed" in report
    claims = (proj / "results/claims.html").read_text()
    assert "<th>out of sample (ours)</th>" in claims and "Out of sample: " in claims
    own = (proj / "results/tiny_out_of_sample/report.html").read_text()
    assert "This is the out-of-sample run of" in own and "mine (yours)" in own
    # nothing was printed for the pool: no count of reproduced cells, no empty comparison plot (issue 63)
    assert "How many cells reproduce" not in own and "reproduced_vs_published" not in own
    assert not list((proj / "figures/tiny_out_of_sample").glob("*reproduced_vs_published*"))
    assert "How many cells reproduce" in report
    # the main run's results stay as they were: asked again without out_of_sample, only its report is
    # made again (without the section), nothing it computed
    again = _snakemake(proj, "-n").stdout
    stats = again.split("Job stats:", 1)[1].split("\n\n", 1)[0].splitlines()[3:]   # after "job count" and "---"
    rules = {line.split()[0] for line in stats if line.strip()}
    assert rules and rules <= {"report", "index", "crate", "all", "total"}, again


def test_out_of_sample_bad_input_is_one_line_before_any_job(tmp_path):
    registry = _user_registry(tmp_path)
    proj = _project(tmp_path, PAPER)
    def refused(*config):
        res = _snakemake(proj, *config, "-n", check=False)
        assert res.returncode != 0 and "rule fetch" not in res.stdout   # nothing planned, let alone run
        return res.stdout + res.stderr

    assert "data set 'iris' cannot be asked of paper 'tiny': the paper uses it" in refused(
        f"user_datasets={registry}", "out_of_sample=[iris]")
    # without the user's registry
    assert "config out_of_sample: ['mine'] are not in the data-set registry" in refused("out_of_sample=[mine]")
    data = yaml.safe_load(registry.read_text())
    data["datasets"]["iris"] = data["datasets"].pop("mine")
    registry.write_text(yaml.safe_dump(data))
    assert "data set 'iris' has the name of a shipped data set" in refused(f"user_datasets={registry}")
