# The workflow's config, validated, and the papers it builds: nothing else (the plan, the
# resources and the input functions are in their own files).
import functools
import os
from pathlib import Path

from snakemake.utils import validate

from nbrepro import paths
from nbrepro.config import load_yaml
from nbrepro.data.registry import parse_registry
from nbrepro.analysis.seed_bands import seeded_runs
from nbrepro.paper import SCHEMAS, load_paper, load_papers
from nbrepro.readings import select_readings, touched

# `--config openml=false` arrives as the string "false": accept what a user types
for _key in ("openml",):
    if isinstance(config.get(_key), str):
        _word = config[_key].strip().lower()
        if _word not in ("true", "false", "yes", "no", "1", "0"):
            raise ValueError(f"config {_key}={config[_key]!r}: expected true or false")
        config[_key] = _word in ("true", "yes", "1")
validate(config, str(SCHEMAS / "config.schema.yaml"))

_registry = load_yaml(config["registry"])
REGISTRY = parse_registry(_registry, config["registry"])  # data set → its checked entry
REGISTRY_AS_WRITTEN = _registry["datasets"]  # the entries as written, for the rerun triggers
# name → nbrepro.paper.Paper (validated, defaults applied; each paper's companions after it)
PAPERS = load_papers(config["papers"], config["paper_dir"], REGISTRY)
# The reseeding run (`--config seeds=K`, seeds.smk): each paper's runs 1..K under other seeds
# (none for a paper that draws no random number); each run's config, loaded on first use
SEEDS = int(config.get("seeds", 0))
SEED_RUNS = {name: seeded_runs(paper, SEEDS) for name, paper in PAPERS.items()}


@functools.cache
def seeded_paper(name, k):
    return load_paper(PAPERS[name].path, REGISTRY, seed=k)


# The readings run (`--config readings=all` or choice ids, readings.smk): paper → its readings run
# ("choice/reading"), each a variant of the paper that reruns only what its patch touches (TOUCHED)
READINGS = select_readings(PAPERS, config.get("readings"))


@functools.cache
def reading_paper(name, reading, k=0):
    """Paper ``name`` under ``reading`` ("choice/reading"; "": the main run), in run k of the reseeding."""
    if not reading:
        return seeded_paper(name, k) if k else PAPERS[name]
    return load_paper(PAPERS[name].path, REGISTRY, seed=k, check=False, reading=reading)


TOUCHED = {name: {r: touched(PAPERS[name], reading_paper(name, r)) for r in rs} for name, rs in READINGS.items()}

# every registry entry this run reads: the papers' data sets, or the copies a paper or a reading reads for them
RUN_DATASETS = sorted({p.dataset_entry(d) for p in PAPERS.values() for d in p.datasets}
                      | {reading_paper(n, r).dataset_entry(d) for n, rs in READINGS.items() for r in rs
                         for d in PAPERS[n].datasets})

_mirror = config.get("mirror")
MIRRORS = [] if not _mirror else ([_mirror] if isinstance(_mirror, str) else list(_mirror))
# Where `nbrepro fetch` looks beyond the shipped files reaches it through the environment, not a
# param: params are rerun triggers, and the same bytes from another folder must change nothing.
os.environ.update(NBREPRO_MIRRORS=os.pathsep.join(str(m) for m in MIRRORS),
                  NBREPRO_OPENML="1" if config.get("openml", True) else "0",
                  NBREPRO_OPENML_TIMEOUT=str(config.get("openml_timeout", 10)))
