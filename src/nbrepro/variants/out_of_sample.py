# SPDX-License-Identifier: GPL-3.0-or-later
"""Out of sample: a paper's claims asked of data sets its authors did not use.

The pool of a paper is every real data set of the registry (a generated one is another paper's
synthetic sweep) that the paper does not use, nor another copy or version of one it uses (the same
bytes or rows, or ``anneal.ORIG`` beside ``anneal``), that its classifiers can run on after its own
preprocessing, that its analysis table keeps, and that is within its size limits, in the
registry's order. The size limits are the paper's own unless its config declares others
(``out_of_sample: {max_instances, max_attributes, max_cells, exclude: {name: why}}``): no more
instances, attributes, or instances × attributes than its largest data sets have, so that a method
is not asked of data its authors never had to run it on (nor at a cost they never paid: a paper
that runs each attribute left out costs attributes² per data set). A user's list
(``--config out_of_sample=[name, …]``) is checked by the same rules and refused, one line per
name, where one fails; the default pool leaves
such a set out and says why.

The out-of-sample run is a paper of its own, derived from the paper's config (``derived_config``):
the same classifiers, protocol, preprocessing, tables, statistics, claims and figures on the pool,
without the printed numbers (nothing was printed for these data sets), the gaps and the readings
(they explain and vary the printed cells), named ``{paper}_out_of_sample``. Every rule of the
workflow runs it as it runs a paper (seeds, a cluster, its report), and ``compare_claims`` sets
each claim's verdict on it beside the paper's own; ``extended_table`` sets the pool's rows of the
paper's main table under the paper's own, and ``rank_shift`` each method's mean rank on the paper's
data sets beside its mean rank on the pool (Demšar's Friedman ranks, with the Nemenyi critical
difference of each).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

import pandas as pd

from ..errors import ConfigError
from ..paper import Paper
from ..paper.readings import without_readings

SUFFIX = "_out_of_sample"


def derived_name(paper: str) -> str:
    return f"{paper}{SUFFIX}"


@dataclass(frozen=True)
class Pool:
    datasets: tuple[str, ...]                 # asked, in the registry's order (or the user's)
    excluded: tuple[tuple[str, str], ...]     # (data set, why): the default pool's candidates left out
    user: tuple[str, ...] = ()                # those of the pool a user's own registry adds


def named_restrictions(data) -> list[str]:
    """The tables and classifiers of a config as written restricted to data sets it names (a
    selection by a property the registry does not record, e.g. two classes occurring): on other
    data sets there is no such list."""
    named = [f"tables.{t}" for t, spec in (data.get("tables") or {}).items() if isinstance(spec.get("datasets"), list)]
    named += [f"classifiers.{c}" for c, spec in (data.get("classifiers") or {}).items()
              if isinstance(spec, dict) and isinstance(spec.get("datasets"), list)]
    return named


def size_limits(paper: Paper, registry: dict) -> tuple[int, int, int]:
    """(instances, attributes, instances × attributes) a pool data set may have: the config's, else
    the largest of the paper's own data sets."""
    own = [registry[paper.dataset_entry(d)] for d in paper.datasets]
    limits = paper.out_of_sample
    max_n = limits.max_instances or max((e.n_instances or 0) for e in own)
    max_a = limits.max_attributes or max((e.n_attributes or 0) for e in own)
    max_cells = limits.max_cells or max((e.n_instances or 0) * (e.n_attributes or 0) for e in own)
    return max_n, max_a, max_cells


def _on_one(paper: Paper, name: str, registry: dict) -> Paper:
    """The paper on data set ``name`` alone, its restrictions to named data sets read through
    ``out_of_sample.named_as`` (a table filters by it; a classifier runs here if ``name`` matches)."""
    data = {**paper.as_written(), "datasets": [name], "dataset_copies": {}}
    named_as = paper.out_of_sample.named_as
    if named_as:
        data = copy.deepcopy(data)
        match = all(getattr(registry[name], k) == v for k, v in named_as.items())
        for t in data.get("tables", {}).values():
            if isinstance(t.get("datasets"), list):
                t["datasets"] = dict(named_as)
        for c in data.get("classifiers", {}).values():
            if isinstance(c, dict) and isinstance(c.get("datasets"), list):
                c["datasets"] = [name] if match else []
    return Paper.from_config(data, paper.path)


def _same_data(a, b) -> bool:
    return any(getattr(a, k) and getattr(a, k) == getattr(b, k) for k in ("sha256", "data_sha256", "rows_sha256"))


def _why_not(paper: Paper, name: str, registry: dict, where: str, refusing: list[str]) -> str | None:
    """Why data set ``name`` cannot be asked of ``paper`` (None: it can); ``refusing``: its classifiers
    that take no missing value (``_refuse_missing``)."""
    entry, limits = registry[name], paper.out_of_sample
    if name in limits.exclude:
        return f"excluded by the paper's config: {limits.exclude[name]}"
    if name in paper.datasets:
        return "the paper uses it"
    if entry.extra.get("generator"):
        return "generated data (a synthetic sweep), not a data set of the kind the paper's claims are about"
    same = [d for d in paper.datasets
            if _same_data(registry[paper.dataset_entry(d)], entry) or name.split(".")[0] == d.split(".")[0]]
    if same:
        return f"another copy or version of {same[0]}, which the paper uses"
    n, a = entry.n_instances, entry.n_attributes
    max_n, max_a, max_cells = size_limits(paper, registry)
    if n is None or n > max_n:
        return f"{n} instances, above the paper's limit {max_n}"
    if a is None or a > max_a:
        return f"{a} attributes, above the paper's limit {max_a}"
    if a is None or n * a > max_cells:
        return f"{n} × {a} cells, above the paper's limit {max_cells}"
    if limits.max_classes is not None and entry.n_classes is not None and entry.n_classes > limits.max_classes:
        return f"{entry.n_classes} classes, above the paper's limit {limits.max_classes} (out_of_sample.max_classes)"
    if limits.min_numeric_attributes:
        numeric = _numeric_attributes(paper, name, entry)
        if numeric is not None and numeric < limits.min_numeric_attributes:
            return (f"{numeric} numeric attributes after the paper's preprocessing, fewer than its "
                    f"{limits.min_numeric_attributes} (out_of_sample.min_numeric_attributes)")
    if refusing:
        missing = _missing_after_preprocessing(paper, name, entry)
        if missing:
            return (f"{missing} missing values after the paper's preprocessing, which {', '.join(refusing)} "
                    "cannot take (their scikit-learn tag allow_nan is false; the paper's data sets have none)")
    if paper.preprocessing.complete_cases:
        left = _complete_rows(paper, name, entry)
        folds = paper.protocol.folds or 2
        if left is not None and (left[0] < 2 * folds or left[1] < 2):
            return (f"{left[0]} of {n} rows, {left[1]} classes left by the paper's complete-cases filter "
                    f"(its {folds}-fold cross-validation needs at least {2 * folds} rows and 2 classes)")
    from ..analysis.tables import table_datasets
    from ..checks import check_attribute_kinds, check_positive_classes

    one = _on_one(paper, name, registry)
    try:
        if not table_datasets(one, one.tables[paper.analysis.table], registry) if paper.analysis.table else False:
            return f"table {paper.analysis.table} keeps no such data set"
        check_positive_classes(one, registry, where)
        check_attribute_kinds(one, registry, where)
    except ConfigError as exc:
        return str(exc).removeprefix(f"{where}: ").removeprefix(f"{where}, ")
    return None


def _refuse_missing(paper: Paper) -> list[str]:
    """The paper's classifiers that take no missing value (scikit-learn's ``allow_nan`` tag false)."""
    from sklearn.utils import get_tags

    from ..evaluation.builders import make_classifier

    return [label for label in paper.classifiers if not get_tags(make_classifier(label, paper)).input_tags.allow_nan]


def _missing_after_preprocessing(paper: Paper, name: str, entry) -> int | None:
    """How many values are missing in the data set after the paper's rows and steps (at the data
    set's scope: a step fitted per fold, replace_missing, leaves none either way); None where no copy
    of it is here to read."""
    from ..checks import after_preprocessing

    X = after_preprocessing(paper, name, entry)
    return None if X is None else int(X.isna().to_numpy().sum())


def _numeric_attributes(paper: Paper, name: str, entry) -> int | None:
    """How many attributes are numeric after the paper's preprocessing, read from the file's header
    (None where no copy is here to read; an attribute a step may or may not make numeric counts)."""
    from ..data.fetch import attribute_kinds
    from ..preprocess.pipeline import kinds_after

    header = attribute_kinds(entry)
    if header is None:
        return None
    pre = paper.preprocessing
    kinds = kinds_after([*pre.rows_of(name).steps, *pre.steps], header)
    return sum(k.removeprefix("maybe ") == "numeric" for k in kinds.values())


def _complete_rows(paper: Paper, name: str, entry) -> tuple[int, int] | None:
    """(rows, classes) the paper's row filters leave of a data set, read from its shipped, cached
    or mirrored file; None when none is here yet (its evaluation job will say)."""
    from ..data.fetch import load_local_copy
    from ..evaluation.experiment import paper_rows

    data = load_local_copy(entry)
    if data is None:
        return None
    _, y = paper_rows(paper, name, *data)
    return len(y), int(y.nunique())


def pool(paper: Paper, registry: dict, wanted=None, user=()) -> Pool:
    """The data sets ``paper``'s claims are asked of out of sample. ``wanted``: a user's list of
    registry names (each must qualify); None or True: the default pool. ``user``: the registry's
    names a user's own registry adds (the report says which data sets were the user's)."""
    where = str(paper.path or paper.name)
    named = named_restrictions(paper.as_written())
    if named and not paper.out_of_sample.named_as:
        raise ConfigError(f"{where}: out of sample: {', '.join(named)} are restricted to data sets the paper "
                          "names, and on other data sets there is no such list (say which of them it keeps there, "
                          "e.g. out_of_sample: {named_as: {n_classes: 2}})")
    refusing = _refuse_missing(paper)   # every classifier built once, not once per data set
    if wanted in (None, True):
        kept, excluded = [], []
        for name in registry:
            if name in paper.datasets:
                continue
            why = _why_not(paper, name, registry, where, refusing)
            (excluded.append((name, why)) if why else kept.append(name))
        if not kept:
            raise ConfigError(f"{where}: out of sample: no data set of the registry qualifies (every one is "
                              "used, excluded, or above the paper's size limits)")
        return Pool(tuple(kept), tuple(excluded), tuple(d for d in kept if d in user))
    names = [wanted] if isinstance(wanted, str) else list(wanted)
    unknown = [n for n in names if n not in registry]
    if unknown:
        raise ConfigError(f"config out_of_sample: {unknown} are not in the data-set registry")
    for name in names:
        why = _why_not(paper, name, registry, where, refusing)
        if why is not None:
            raise ConfigError(f"config out_of_sample: data set {name!r} cannot be asked of paper {paper.name!r}: {why}")
    names = list(dict.fromkeys(names))
    return Pool(tuple(names), (), tuple(d for d in names if d in user))


def derived_config(written: dict, the_pool: Pool, registry: dict | None = None) -> dict:
    """The config of the out-of-sample run, from the paper's config as written: the pool for its
    data sets; no printed numbers, gaps, readings or companions; the pool and what it left out, why,
    under ``derived_from``. A table or classifier restricted to data sets the paper names keeps the
    pool's data sets that match ``out_of_sample.named_as`` (a registry filter), by name."""
    out = copy.deepcopy(dict(written))
    named_as = (out.get("out_of_sample") or {}).get("named_as")
    if named_as:
        keep = [d for d in the_pool.datasets if all(getattr(registry[d], k) == v for k, v in named_as.items())]
        if not keep:
            raise ConfigError(f"{out['paper']}: out of sample: no data set of the pool matches "
                              f"out_of_sample.named_as {named_as}")
        for section in ("tables", "classifiers"):
            for spec in (out.get(section) or {}).values():
                if isinstance(spec, dict) and isinstance(spec.get("datasets"), list):
                    spec["datasets"] = list(keep)
    name = out["paper"]
    out["paper"] = derived_name(name)
    out["title"] = f"{out.get('title') or name} — out of sample"
    out["datasets"] = list(the_pool.datasets)
    for key in ("dataset_copies", "published_names", "gaps", "reading_combinations", "companions", "out_of_sample",
                "benchmarks", "investigations"):
        out.pop(key, None)
    without_readings(out)
    per_dataset = (out.get("preprocessing") or {}).get("per_dataset")
    if per_dataset:
        out["preprocessing"]["per_dataset"] = {d: v for d, v in per_dataset.items() if d in the_pool.datasets}
    for table in (out.get("tables") or {}).values():
        for key in ("published", "published_summary", "markers_printed"):
            table.pop(key, None)
    if out.get("analysis"):   # no printed tables to judge the claims on again
        out["analysis"].pop("claims_on_printed_tables", None)
    out["derived_from"] = {"paper": name, "kind": "out_of_sample", "user_datasets": list(the_pool.user),
                           "excluded": dict(the_pool.excluded)}
    return out


COMPARE_COLUMNS = ["claim_id", "metric", "section", "claim", "kind", "in_sample", "in_sample_stability",
                   "out_of_sample", "out_of_sample_stability", "out_of_sample_evidence", "same"]


def compare_claims(in_sample: pd.DataFrame, out_of_sample: pd.DataFrame) -> pd.DataFrame:
    """Per claim judged on our numbers that generalises over data sets (its bootstrap stability was
    computed on the paper's data sets): its verdict there and on the pool, with their stabilities.
    A claim about named data sets or a count on them describes those data sets and is not asked."""
    def ours(frame):
        f = frame[frame.source == "ours"].copy()
        f["metric"] = f["metric"].fillna("").astype(str)
        return f.set_index(["claim_id", "metric"])

    a, b = ours(in_sample), ours(out_of_sample)
    rows = []
    for key, r in a.iterrows():
        if pd.isna(r.stability):
            continue
        o = b.loc[key] if key in b.index else None
        verdict = "not run" if o is None else o.verdict
        rows.append({"claim_id": key[0], "metric": key[1], "section": r.section, "claim": r.claim,
                     "kind": r.get("kind", "") if isinstance(r.get("kind", ""), str) else "",
                     "in_sample": r.verdict, "in_sample_stability": r.stability,
                     "out_of_sample": verdict, "out_of_sample_stability": float("nan") if o is None else o.stability,
                     "out_of_sample_evidence": "" if o is None else o.evidence,
                     "same": "yes" if verdict == r.verdict else "no"})
    return pd.DataFrame(rows, columns=COMPARE_COLUMNS)


def main_table(paper: Paper) -> str | None:
    """The table the pool's rows extend: ``out_of_sample.table``, else the paper's first table that is
    not pairwise (None: the paper has no table of values)."""
    if paper.out_of_sample.table is not None:
        return paper.out_of_sample.table
    return next((name for name, t in paper.tables.items() if t.kind != "pairwise"), None)


def extended_table(in_sample: pd.DataFrame, out_of_sample: pd.DataFrame, user=()) -> pd.DataFrame:
    """The paper's reproduced table (``tables/{name}.csv``) with the out-of-sample run's rows of the
    same table under it, each row's ``sample``: "paper" (the paper's data sets, printed beside), "pool"
    or "user" (a user's data set); nothing was printed for the last two."""
    out = out_of_sample.assign(sample=["user" if d in set(user) else "pool" for d in out_of_sample["dataset"]])
    table = pd.concat([in_sample.assign(sample="paper"), out], ignore_index=True)
    return table[["sample", *[c for c in table.columns if c != "sample"]]]


RANK_COLUMNS = ["metric", "method", "in_sample_rank", "out_of_sample_rank", "rank_change", "in_sample_datasets",
                "out_of_sample_datasets", "in_sample_cd", "out_of_sample_cd"]


def rank_shift(table: pd.DataFrame, higher_is_better: dict, alpha: float = 0.05,
               decimals: int | None = None) -> pd.DataFrame:
    """Per metric of an ``extended_table`` and method: its mean rank (1 = best) over the paper's data
    sets and over the pool's (a user's included), the change (out − in: positive is worse out of
    sample), the data sets ranked (those where every method has a value, as R's friedman.test keeps
    complete blocks) and the Nemenyi critical difference at ``alpha`` on each side (NaN where fewer
    than two data sets or methods are left). The means are ranked at ``decimals`` (the paper's
    ``rank_decimals`` for its main table: the same ranks as its summary rows)."""
    from ..stats import nemenyi

    rows = []
    for metric, g in table.groupby("metric", sort=False):
        sides = {}
        for side, part in (("in_sample", g[g["sample"] == "paper"]), ("out_of_sample", g[g["sample"] != "paper"])):
            wide = part.pivot_table(index="dataset", columns="method", values="mean", sort=False, dropna=False)
            wide = wide[list(dict.fromkeys(g["method"]))].dropna(axis=0, how="any") if len(wide) else wide
            wide = wide.round(decimals) if decimals is not None else wide
            if wide.shape[0] >= 2 and wide.shape[1] >= 2:
                res = nemenyi(wide, alpha, higher_is_better[metric])
                sides[side] = (res.mean_ranks, res.n_datasets, res.critical_difference)
            else:
                sides[side] = ({}, int(wide.shape[0]), float("nan"))
        for method in dict.fromkeys(g["method"]):
            a, b = sides["in_sample"][0].get(method, float("nan")), sides["out_of_sample"][0].get(method, float("nan"))
            rows.append({"metric": metric, "method": method, "in_sample_rank": a, "out_of_sample_rank": b,
                         "rank_change": b - a, "in_sample_datasets": sides["in_sample"][1],
                         "out_of_sample_datasets": sides["out_of_sample"][1], "in_sample_cd": sides["in_sample"][2],
                         "out_of_sample_cd": sides["out_of_sample"][2]})
    return pd.DataFrame(rows, columns=RANK_COLUMNS)
