# SPDX-License-Identifier: GPL-3.0-or-later
"""Where every file of a run lives, for the rules and the Python alike.

Project-relative paths (``raw``, ``prepared``, ``results`` …) take the data set, paper and
classifier; called without them they give Snakemake's wildcard patterns (``raw()`` is
``resources/raw/{dataset}.arff``). Inside a paper's results folder (``results/{paper}/``, what
the ``nbrepro`` commands are given) the names are relative to it (``per_fold``, ``table`` …).
"""
from __future__ import annotations

FOLD_KINDS = ("folds", "predictions", "fitted")   # one file per (data set, classifier) each


OUTPUT_ROOTS = ("resources", "results", "figures")   # the folders the workflow's jobs write into

# ---- resources/: the data, as fetched and as prepared for a paper -------------------------------
def raw(dataset: str = "{dataset}") -> str:
    """The cached raw ARFF every later step reads."""
    return f"resources/raw/{dataset}.arff"


def raw_source(dataset: str = "{dataset}") -> str:
    """Where the cached file came from, its sha256 and when (JSON beside it)."""
    return f"{raw(dataset)}.source.json"


def prepared(paper: str = "{paper}", dataset: str = "{dataset}") -> str:
    """The data set after the paper's dataset-scope preprocessing."""
    return f"resources/prepared/{paper}/{dataset}.parquet"


def splits(paper: str = "{paper}", dataset: str = "{dataset}") -> str:
    """The paper's train/test folds of the data set."""
    return f"resources/folds/{paper}/{dataset}.parquet"


# ---- results/{paper}/ and figures/{paper}/ -------------------------------------------------------
INDEX_PAGE = "index.html"      # the papers' index, in results/
INDEX = f"results/{INDEX_PAGE}"
CLAIMS_PAGE = "claims.html"     # every claim of every paper, judged twice (report/claims_page.py), in results/
CLAIMS_CSV = "claims.csv"       # the same as one table
# the run's provenance as an RO-Crate, results/ its root (report/crate.py); the configs copied in
CRATE_METADATA_NAME = "ro-crate-metadata.json"
CRATE_METADATA = f"results/{CRATE_METADATA_NAME}"
CRATE_INPUTS = "inputs"


def crate_input(name: str) -> str:
    """A config file of the run, copied into the crate (``inputs/config.yaml``, ``inputs/papers/lcwnb.yaml`` …)."""
    return f"{CRATE_INPUTS}/{name}"


def results(paper: str = "{paper}", name: str = "") -> str:
    """A paper's results folder, or ``name`` inside it."""
    return f"results/{paper}" + (f"/{name}" if name else "")


def figures(paper: str = "{paper}", name: str = "", ext: str = "") -> str:
    """A paper's figures folder, or figure ``name`` in it (``ext``: png or svg; none: the stem)."""
    return f"figures/{paper}" + (f"/{name}" if name else "") + (f".{ext}" if ext else "")


# ---- names inside a paper's results folder --------------------------------------------------------
class RunFolder:
    """A run's results folder as its jobs read it: a reading's run holds the per-fold files of the
    classifiers it touches (``own``) on the data sets it touches (``own_datasets``; ``None``: all)
    and reads the others' from the run it patches (``base``: the paper's folder, or the same
    reseeded run of it). Which folder is decided by the label and the data set, never by which files
    exist, so a stale file cannot stand in for one the run should have made."""

    def __init__(self, folder, base=None, own=(), own_datasets=None):
        from pathlib import Path

        self.folder, self.base, self.own = Path(folder), None if base is None else Path(base), frozenset(own)
        self.own_datasets = None if own_datasets is None else frozenset(own_datasets)

    def __truediv__(self, name):
        return self.folder / name

    def __fspath__(self):
        return str(self.folder)

    def per_fold(self, kind: str, dataset: str, label: str):
        mine = label in self.own and (self.own_datasets is None or dataset in self.own_datasets)
        where = self.folder if self.base is None or mine else self.base
        return where / per_fold(kind, dataset, label)


def per_fold_file(results, kind: str, dataset: str, label: str):
    """A classifier's per-fold file in a results folder (a path, or a ``RunFolder``)."""
    from pathlib import Path

    return results.per_fold(kind, dataset, label) if isinstance(results, RunFolder) else \
        Path(results) / per_fold(kind, dataset, label)


def per_fold(kind: str, dataset: str = "{dataset}", label: str = "{classifier}") -> str:
    """A classifier's ``folds`` (metrics per fold), ``predictions`` or ``fitted`` (recorded state) on a data set."""
    if kind not in FOLD_KINDS:
        raise ValueError(f"no per-fold file kind {kind!r} (known: {FOLD_KINDS})")
    return f"{kind}/{dataset}/{label}.parquet"


def table(name: str) -> str:
    """A reproduced table beside the printed one."""
    return f"tables/{name}.csv"


def table_summary(name: str) -> str:
    return f"tables/{name}_summary.csv"


def match_counts(name: str) -> str:
    return f"stats/{name}_match_counts.csv"


def stats(name: str) -> str:
    """A paper-stats file: ``table1``, ``text_stats``, ``claims``, a figure's data …"""
    return f"stats/{name}.csv"


TIMINGS = "stats/timings.csv"

# ---- the reseeding run (nbrepro.variants.reseed): run k of it in results/{paper}/seeds/{k}/, the same names inside
SEED_BANDS = "stats/seed_bands.csv"          # per printed cell: its values over the runs, the band, inside or not
SEED_STABILITY = "stats/seed_stability.csv"  # per claim on our numbers: its verdict in each run
NOISE_FLOOR = "stats/noise_floor.csv"        # per table: the median band width


# ---- the out-of-sample run (nbrepro.variants.out_of_sample): a paper of its own, {paper}_out_of_sample; set beside
# the paper's
CLAIMS_OUT_OF_SAMPLE = "stats/claims_out_of_sample.csv"   # per claim: its verdict in sample and out of sample
TABLE_OUT_OF_SAMPLE = "stats/table_out_of_sample.csv"     # the main table, the pool's rows under the paper's
RANKS_OUT_OF_SAMPLE = "stats/ranks_out_of_sample.csv"     # per metric and method: mean rank in and out of sample
RANKS_OUT_OF_SAMPLE_FIGURE = "out_of_sample_ranks"        # its figure, in figures/{paper}/


def seed_run(k: int | str = "{seed}", name: str = "") -> str:
    """Run k of the reseeding (k ≥ 1; 0 is the main run, the paper's folder itself), or ``name`` in it."""
    return f"seeds/{k}" + (f"/{name}" if name else "")


def seed_folds(paper: str = "{paper}", k: int | str = "{seed}", dataset: str = "{dataset}") -> str:
    """The folds of run k of the reseeding (the prepared data is the main run's)."""
    return f"resources/folds/{paper}/seeds/{k}/{dataset}.parquet"


# ---- the readings run (nbrepro.paper.readings): reading "choice/reading" in results/{paper}/readings/choice/reading/,
# the same names inside; its reseeded runs in its own seeds/{k}/. A reading that leaves the data and folds
# alone has no resources of its own; one that patches the protocol or preprocessing has them here.
READINGS = "stats/readings.csv"              # per choice and reading: how its touched cells fit the printed ones
READING_CLAIMS = "stats/reading_claims.csv"  # per claim on our numbers and reading: its verdict
READINGS_FIGURE = "readings"                 # the figure of readings.csv, in figures/{paper}/


def reading_run(reading: str, name: str = "") -> str:
    """A reading's run (``reading``: "choice/reading"), or ``name`` in it."""
    return f"readings/{reading}" + (f"/{name}" if name else "")


def reading_prepared(paper: str, reading: str, dataset: str = "{dataset}") -> str:
    return f"resources/prepared/{paper}/readings/{reading}/{dataset}.parquet"


def reading_splits(paper: str, reading: str, dataset: str = "{dataset}", k: int | str = 0) -> str:
    """A reading's folds (k > 0: run k of its reseeding)."""
    return f"resources/folds/{paper}/readings/{reading}/" + (f"seeds/{k}/" if k else "") + f"{dataset}.parquet"


REPORT = "report.html"
RUN_PAGE = "run.html"   # when, on what, time per classifier: machine-dependent
# the figures a paper's report shows, copied beside it from figures/{paper}/ by the report job, so that
# results/ opens in a browser with every image wherever it is copied (the RO-Crate's root)
SHOWN_FIGURES = "figures"


def shown_figure(paper: str, name: str) -> str:
    """The copy of figure ``name`` (its svg) that the paper's report shows, in results/{paper}/figures/."""
    return results(paper, f"{SHOWN_FIGURES}/{name}.svg")


def table_files(name: str) -> list[str]:
    """The three files the table job writes for table ``name``."""
    return [table(name), table_summary(name), match_counts(name)]


def reproduced_vs_published(name: str) -> str:
    """The figure stem of a cells table's reproduced-against-published plot."""
    return f"{name}_reproduced_vs_published"
