# SPDX-License-Identifier: GPL-3.0-or-later
"""The generic claim kinds (``nbrepro.analysis.claim_kinds``): one conformance test over every kind,
the kinds' own semantics on small tables, and the config checks of declared claims."""
from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from nbrepro.analysis.claim_kinds import CLAIM_KINDS, Read
from nbrepro.analysis.context import Context
from nbrepro.analysis.declared import ClaimView, check_declared, judge
from nbrepro.errors import ConfigError
from nbrepro.paper import Paper

METHODS = ["A", "B", "C", "D"]


def _context(source="ours", drop=None, n=12, seed=0) -> Context:
    """n data sets × four methods, A clearly best and D clearly worst; a Table 1 with m; a second
    table ``t2`` with significance markers; two statistics."""
    rng = np.random.default_rng(seed)
    base = np.array([0.9, 0.8, 0.75, 0.6])
    values = base + rng.normal(0, 0.02, size=(n, 4))
    datasets = [f"d{i:02d}" for i in range(n)]
    wide = pd.DataFrame(values.round(2), index=datasets, columns=METHODS)
    wide["A"] = wide["A"] + np.linspace(0, 0.05, n).round(2)          # A gains along m
    if drop:
        wide[drop] = np.nan
    rows = [{"dataset": d, "method": m, "metric": "accuracy", "mean": wide.loc[d, m],
             "significance": ("worse" if m == "D" else "better" if (m == "B" and i < 2) else None)}
            for i, d in enumerate(datasets) for m in METHODS]
    long = pd.DataFrame(rows)
    paper = {"paper": "p", "analysis": {"table": "t", "metric": "accuracy", "decimals": 2},
             "tables": {"t": {}, "t2": {"markers_printed": ["D"]}}, "published_names": {"d00": "First"}}
    table1 = pd.DataFrame({"dataset": datasets, "m": np.arange(n) + 3})
    return Context(Paper.from_config(paper), long, wide, table1, True, statistics={"p1": 0.2, "p2": 0.01},
                   tables={"t": long, "t2": long}, source=source)


# one example of every kind: a kind without one fails the conformance test
EXAMPLES = {
    "rank_order": {"order": ["A", ["B", "C"]], "by": ["mean_rank", "average"]},
    "significantly_better": {"method": "A", "than": ["D"], "test": "nemenyi", "rope": 0.01},
    "count": {"of": "markers", "table": "t2", "methods": ["D"], "direction": "worse", "equals": 12},
    "test_rejects": {"test": ["friedman", "iman_davenport", "quade"], "methods": METHODS},
    "in_range": {"value": {"difference": ["A", "D"]}, "aggregate": "mean", "above": 0.2},
    "trend": {"along": "m", "value": {"rank_of": "A", "among": METHODS}, "direction": "decreasing"},
}
HOLDS = {"rank_order": True, "significantly_better": True, "count": True, "test_rejects": True, "in_range": True,
         "trend": False}   # A is ranked 1 throughout: no trend to find


def _spec(kind):
    return {"id": f"x_{kind}", "section": "1", "sentence": f"a {kind} claim", "kind": kind, **EXAMPLES[kind]}


@pytest.mark.parametrize("name", sorted(CLAIM_KINDS))
def test_every_kind_conforms(name):
    kind = CLAIM_KINDS[name]
    assert name in EXAMPLES, f"kind {name!r} has no example in this test"
    assert kind.name == name and kind.__doc__ and len(kind.__doc__.split()) > 15   # documented: the config's reference
    spec = _spec(name)
    check_declared(
        Paper.from_config({"claims": [spec], "analysis": {}}), "p.yaml", set(METHODS)
    )  # its example is a valid declaration
    ctx = _context()
    view = ClaimView(ctx, None)
    read = kind.read(spec, view, None)
    assert isinstance(read, Read) and read.data is not None and len(read.data) >= 1
    ok, evidence = kind.holds(spec, read.data, view, None)
    assert ok is HOLDS[name] or ok == HOLDS[name]
    assert isinstance(evidence, str) and evidence
    if kind.generalising(spec):  # a bootstrap resample of the rows (repeated data sets) is judged as well
        ok2, _ = kind.holds(spec, read.data.iloc[[0, 0, 1, 2, 3, 3, 4, 5]], view, None)
        assert ok2 in (True, False)
    # a claim judged: the record carries the kind; stability where it generalises, today's tests where significant
    claim = judge(spec, kind, None, "ours", ctx, None)
    assert claim.kind == name and claim.verdict == ("yes" if HOLDS[name] else "no")
    assert (claim.stability == claim.stability) == kind.generalising(spec)  # NaN when not
    assert bool(claim.wilcoxon_holm) == kind.significance
    # a method missing: not yet computable on ours, not checkable on the printed tables, never a verdict
    if name not in ("count",):
        spec_b = dict(spec)
        missing = judge(spec_b, kind, None, "ours", _context(drop="A"), None)
        assert missing.verdict == "not yet computable" and "A" in missing.evidence
        printed = judge(spec_b, kind, None, "printed", _context(source="printed", drop="A"), None)
        assert printed.verdict == "not checkable" and printed.evidence.startswith(
            "not checkable from the printed tables"
        )


def test_rank_order_is_strict_and_groups_are_unordered():
    ctx = _context()
    view, kind = ClaimView(ctx, None), CLAIM_KINDS["rank_order"]
    data = ctx.wide
    assert kind.holds({"best": "A"}, data, view, None)[0]
    assert kind.holds({"worst": "D"}, data, view, None)[0]
    assert kind.holds({"order": [["C", "B", "A"], "D"]}, data, view, None)[0]  # the best three in any order
    assert not kind.holds({"best": "B"}, data, view, None)[0]
    tied = data.assign(B=data["A"])  # a tie for first is not "best"
    assert not kind.holds({"best": "A"}, tied, view, None)[0]


def test_a_rank_test_with_no_evidence_supports_neither_verdict():
    """Every method tied on every data set: the tests' p is NaN, so 'the test does not reject' is not
    read as holding (nor 'it rejects')."""
    ctx = _context()
    view, kind = ClaimView(ctx, None), CLAIM_KINDS["test_rejects"]
    tied = ctx.wide.assign(**{m: 0.5 for m in METHODS})
    for reject in (True, False):
        ok, said = kind.holds({"test": ["iman_davenport", "quade"], "methods": METHODS, "reject": reject},
                              tied, view, None)
        assert ok is None and "p = nan" in said


def test_a_claim_on_an_undefined_statistic_is_not_computable_and_so_are_its_resamples():
    """Judged, a NaN p is the verdict "not computable" (never yes); a bootstrap resample on which
    the statistic is undefined counts as not holding, and the evidence says how many there were."""
    ctx = _context()
    kind = CLAIM_KINDS["test_rejects"]
    spec = {**_spec("test_rejects"), "test": "friedman", "reject": False}
    tied = ctx.wide.assign(**{m: 0.5 for m in METHODS})
    claim = judge(spec, kind, None, "ours", replace(ctx, wide=tied), None)
    assert claim.verdict == "not computable" and claim.stability == 0.0
    # one data set where the methods differ: the resamples that miss it are all ties
    one = tied.copy()
    one.iloc[0] = [0.9, 0.8, 0.7, 0.6]
    claim = judge(spec, kind, None, "ours", replace(ctx, wide=one), None)
    assert claim.verdict == "yes"   # Friedman does not reject on one informative data set in twelve
    n_tied = int(re.search(r"not computable on (\d+) of 1000 bootstrap resamples", claim.evidence)[1])
    assert 250 < n_tied < 400   # (11/12)^12 ≈ 0.35 of the resamples miss the one data set
    assert claim.stability <= 1 - n_tied / 1000


def test_significantly_better_with_exactly_and_its_pool():
    ctx = _context(n=30)
    kind = CLAIM_KINDS["significantly_better"]
    spec = {
        "id": "s",
        "section": "1",
        "sentence": "A beats D",
        "kind": kind.name,
        "method": "A",
        "than": ["D"],
        "test": "bonferroni_dunn",
        "rope": 0.01,
    }
    c = judge(spec, kind, None, "ours", ctx, None)
    assert c.verdict == "yes" and "Holm over 3 pairs" in c.tests_evidence and c.pool
    # with exactly: the beaten set must be D alone; here A also beats C by a wide margin
    exact = judge(dict(spec, exactly=True), kind, None, "ours", ctx, None)
    beaten = exact.evidence.split("better than: ")[1].split(", ")
    assert exact.verdict == ("yes" if beaten == ["D"] else "no")


def test_count_markers_each_any_and_each_way():
    ctx = _context()
    view, kind = ClaimView(ctx, None), CLAIM_KINDS["count"]
    data = view.markers("t2", ["B", "D"]).data
    assert kind.holds(
        {"of": "markers", "table": "t2", "methods": ["B", "D"], "direction": "better", "equals": 2}, data, view, None
    )[0]
    assert (
        kind.holds(
            {
                "of": "markers",
                "table": "t2",
                "methods": ["B", "D"],
                "direction": "worse",
                "combine": "each",
                "equals": 12,
            },
            data,
            view,
            None,
        )[0]
        is False
    )  # B has no worse marker
    assert kind.holds(
        {"of": "markers", "table": "t2", "methods": ["B", "D"], "direction": "either", "combine": "any", "equals": 12},
        data,
        view,
        None,
    )[0]
    one = view.markers("t2", ["B"]).data
    assert kind.holds(
        {"of": "markers", "table": "t2", "methods": ["B"], "direction": "each_way", "at_most": 2}, one, view, None
    )[0]
    # on the printed source, a column whose markers the table lost (markers_printed) is not checkable
    printed = ClaimView(_context(source="printed"), None)
    assert printed.markers("t2", ["B"]).data is None and "lost" in printed.markers("t2", ["B"]).missing
    assert printed.markers("t2", ["D"]).data is not None


def test_count_balance_says_the_direction_and_generalises():
    """``balance: true``: marked one way on more data sets than the other (each column with combine: each)."""
    ctx = _context()
    view, kind = ClaimView(ctx, None), CLAIM_KINDS["count"]
    data = view.markers("t2", ["B", "D"]).data
    better, worse = int((data == 1).sum().sum()), int((data == -1).sum().sum())
    spec = {"of": "markers", "table": "t2", "methods": ["B", "D"], "direction": "better", "balance": True}
    ok, evidence = kind.holds(spec, data, view, None)
    assert ok == (better > worse) and f"{better}/{worse}" in evidence
    assert kind.holds(dict(spec, direction="worse"), data, view, None)[0] == (worse > better)
    each = kind.holds(dict(spec, combine="each"), data, view, None)
    per = (data == 1).sum() > (data == -1).sum()
    assert each[0] == bool(per.all()) and "B " in each[1]
    assert kind.generalising(spec) and not kind.generalising(dict(spec, balance=False, equals=2))


def test_count_of_best_and_published_bounds():
    ctx = _context()
    kind = CLAIM_KINDS["count"]
    spec = {
        "id": "c",
        "section": "1",
        "sentence": "A best on 12",
        "kind": "count",
        "of": "best",
        "method": "A",
        "equals": {"published": "a_best"},
    }
    c = judge(spec, kind, None, "ours", ctx, pd.Series({"a_best": 12.0}))
    assert c.verdict == "yes" and "A best on 12" in c.evidence


def test_in_range_on_named_data_sets_describes_them():
    ctx = _context()
    kind = CLAIM_KINDS["in_range"]
    spec = {
        "id": "r",
        "section": "1",
        "sentence": "A above D on d00",
        "kind": "in_range",
        "value": {"difference": ["A", "D"]},
        "datasets": ["d00"],
        "at_least": 0.1,
    }
    c = judge(spec, kind, None, "ours", ctx, None)
    assert c.verdict == "yes" and "First" in c.evidence and c.stability != c.stability  # named: no stability
    c = judge(dict(spec, datasets=["nowhere"]), kind, None, "ours", ctx, None)
    assert c.verdict == "not yet computable"
    c = judge(dict(spec, datasets={"except": ["d00"]}, at_least=0.5), kind, None, "ours", ctx, None)
    assert c.verdict == "no" and "First" not in c.evidence
    stats_spec = {
        "id": "s",
        "section": "1",
        "sentence": "p1 above 0.05",
        "kind": "in_range",
        "value": {"statistics": ["p1", "p2"]},
        "above": 0.05,
    }
    assert judge(stats_spec, kind, None, "ours", ctx, None).verdict == "no"  # p2 = 0.01
    assert judge(dict(stats_spec, value={"statistic": "p1"}), kind, None, "ours", ctx, None).verdict == "yes"


def test_trend_along_a_table1_column():
    ctx = _context()
    ctx.wide["B"] = ctx.wide["A"] - np.linspace(0.2, -0.2, len(ctx.wide)).round(2)  # B overtakes A as m grows
    kind = CLAIM_KINDS["trend"]
    spec = {
        "id": "t",
        "section": "1",
        "sentence": "B's rank falls with m",
        "kind": "trend",
        "along": "m",
        "value": {"rank_of": "B", "among": ["A", "B"]},
        "direction": "decreasing",
    }
    c = judge(spec, kind, None, "ours", ctx, None)
    assert c.verdict == "yes" and "Spearman ρ = -" in c.evidence and c.stability > 0.8
    assert judge(dict(spec, direction="increasing"), kind, None, "ours", ctx, None).verdict == "no"
    assert judge(dict(spec, direction="none"), kind, None, "ours", ctx, None).verdict == "no"  # there is a pattern
    flat = dict(spec, value={"rank_of": "A", "among": ["A", "D"]}, direction="none")  # A ranks first throughout
    assert judge(flat, kind, None, "ours", ctx, None).verdict == "yes"


@pytest.mark.parametrize(
    "claim, message",
    [
        ({"kind": "rank_order", "best": "A", "worst": "D"}, "exactly one of best, worst, order"),
        ({"kind": "rank_order", "best": "A", "colour": 1}, "does not read ['colour']"),
        ({"kind": "significantly_better", "method": "A", "than": ["D"], "test": "nemenyi"}, "needs ['rope']"),
        (
            {"kind": "significantly_better", "method": "A", "than": ["D"], "test": "t-test", "rope": 1},
            "test must be one of",
        ),
        (
            {
                "kind": "significantly_better",
                "method": "A",
                "than": ["D"],
                "test": "nemenyi",
                "rope": 1,
                "among": ["A", "B"],
            },
            "'among' must hold",
        ),
        ({"kind": "count", "of": "markers", "table": "t2", "methods": ["D"]}, "needs one of"),
        ({"kind": "count", "of": "markers", "table": "t2", "methods": ["D"], "equals": "12"}, "must be a number"),
        ({"kind": "count", "of": "markers", "table": "t2", "methods": ["D"], "balance": True, "direction": "either"},
         "balance: true needs direction better or worse"),
        ({"kind": "count", "of": "markers", "table": "t2", "methods": ["D"], "balance": True, "direction": "worse",
          "equals": 2}, "balance: true takes no bound"),
        ({"kind": "in_range", "value": {"difference": ["A"]}, "above": 0}, "difference needs two columns"),
        (
            {"kind": "trend", "along": "m", "value": {"column": "A"}, "direction": "up"},
            "increasing, decreasing or none",
        ),
        ({"kind": "rank_order", "best": "Z"}, "['Z'] are not methods of the paper's tables"),
    ],
)
def test_a_bad_declaration_is_one_line_naming_the_claim(claim, message):
    spec = {"id": "bad", "section": "1", "sentence": "…", **claim}
    with pytest.raises(ConfigError) as err:
        check_declared(Paper.from_config({"claims": [spec], "analysis": {}}), "p.yaml", set(METHODS))
    text = str(err.value)
    assert message in text and text.startswith("p.yaml, claims[0] (bad): ") and "\n" not in text


def test_a_claim_id_twice_is_refused():
    spec = {"id": "same", "section": "1", "sentence": "…", "kind": "rank_order", "best": "A"}
    with pytest.raises(ConfigError, match="declared twice"):
        check_declared(Paper.from_config({"claims": [spec, spec], "analysis": {}}), "p.yaml", set(METHODS))


def test_the_papers_declare_claims_of_every_kind(tmp_path):
    """The configs use every kind, and load_paper checks declared claims: a typo in a method stops
    the run before any job."""
    from pathlib import Path

    from nbrepro.checks import checked_paper

    root = Path(__file__).resolve().parents[2]
    used = set()
    for name in ("lcwnb", "lslwnb", "kdebw", "lpmbc", "awnb"):
        used |= {c["kind"] for c in checked_paper(root / f"config/papers/{name}.yaml").claims}
    assert used == set(CLAIM_KINDS)
    text = (
        (root / "config/papers/lpmbc.yaml").read_text().replace("method: LPM-BC\n    than:", "method: LPM-B\n    than:")
    )
    (tmp_path / "lpmbc.yaml").write_text(text)
    with pytest.raises(ConfigError, match=r"claims\[3\] \(bonferroni_dunn\): \['LPM-B'\] are not methods"):
        checked_paper(tmp_path / "lpmbc.yaml")
