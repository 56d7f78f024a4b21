# The workflow's config, validated, and the papers it builds: nothing else (the plan, the
# resources and the input functions are in their own files).
import functools
import os
from pathlib import Path

import yaml

from snakemake.utils import validate

from nbrepro import paths
from nbrepro.config import load_yaml
from nbrepro.errors import ConfigError
from nbrepro.data.fetch import class_attribute_problem
from nbrepro.data.registry import parse_registry
from nbrepro.data.user import ENV as USER_ENV, check_user_entries, read_user_registry
from nbrepro.analysis.seed_bands import seeded_runs
from nbrepro.paper import SCHEMAS, load_paper, load_papers
from nbrepro.readings import select_readings, touched
from nbrepro.cut import cut_config, cut_name, kept_datasets, wanted_names
from nbrepro.out_of_sample import derived_config, derived_name, main_table, pool

# `--config openml=false` arrives as the string "false": accept what a user types
for _key in ("openml", "out_of_sample", "worker"):
    if _key == "out_of_sample" and isinstance(config.get(_key), str) and "," in config[_key]:
        config[_key] = [n.strip() for n in config[_key].split(",") if n.strip()]
    if _key == "out_of_sample" and isinstance(config.get(_key), str) and config[_key].strip().lower() not in (
            "true", "false", "yes", "no", "1", "0"):
        config[_key] = [config[_key].strip()]   # one data set's name
    if isinstance(config.get(_key), str):
        _word = config[_key].strip().lower()
        if _word not in ("true", "false", "yes", "no", "1", "0"):
            raise ValueError(f"config {_key}={config[_key]!r}: expected true or false")
        config[_key] = _word in ("true", "yes", "1")
validate(config, str(SCHEMAS / "config.schema.yaml"))

_registry = load_yaml(config["registry"])
REGISTRY = parse_registry(_registry, config["registry"])  # data set → its checked entry
REGISTRY_AS_WRITTEN = _registry["datasets"]  # the entries as written, for the rerun triggers
# A user's own data sets (`--config user_datasets=FILE`, nbrepro.data.user): checked, then added to the
# registry, their folder to the places a data set is fetched from; the jobs read the file from the environment
USER_DATASETS = ()
if config.get("user_datasets"):
    _user, _user_folder = read_user_registry(config["user_datasets"])
    check_user_entries(_user, _user_folder, set(REGISTRY), f"config user_datasets {config['user_datasets']}")
    REGISTRY.update(parse_registry({"datasets": _user}, config["user_datasets"]))
    REGISTRY_AS_WRITTEN = {**REGISTRY_AS_WRITTEN, **_user}
    USER_DATASETS = tuple(_user)
    os.environ[USER_ENV] = str(Path(config["user_datasets"]).resolve())
# name → nbrepro.paper.Paper (validated, defaults applied; each paper's companions after it)
PAPERS = load_papers(config["papers"], config["paper_dir"], REGISTRY)
_mirror = config.get("mirror")
MIRRORS = [] if not _mirror else ([_mirror] if isinstance(_mirror, str) else list(_mirror))
if USER_DATASETS:
    MIRRORS.append(str(_user_folder))
# Where `nbrepro fetch` looks beyond the shipped files reaches it through the environment, not a
# param: params are rerun triggers, and the same bytes from another folder must change nothing.
os.environ.update(NBREPRO_MIRRORS=os.pathsep.join(str(m) for m in MIRRORS),
                  NBREPRO_OPENML="1" if config.get("openml", True) else "0",
                  NBREPRO_OPENML_TIMEOUT=str(config.get("openml_timeout", 10)))

def derived_paper(name, source, module, config_of):
    """Paper ``name``, derived from the config file ``source`` as written (``config_of(written)``):
    written to resources/papers/{name}.yaml only when its text changes (so its jobs are not rerun), and loaded."""
    path = Path("resources/papers") / f"{name}.yaml"
    text = f"# written by the workflow from {source} (nbrepro.{module}): do not edit\n"
    text += yaml.safe_dump(config_of(load_yaml(source)), sort_keys=False, allow_unicode=True, width=120)
    if not path.is_file() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return load_paper(path, REGISTRY)


# A quick look (`--config datasets=[name, …]`): each paper cut to those of its data sets, as a paper of its
# own, {paper}_cut, in place of the paper (nbrepro.cut; its config is written to resources/papers/ when it
# changes); a companion that uses none of them is left out, said once
if config.get("datasets"):
    if config.get("out_of_sample"):
        raise ConfigError("config datasets= and out_of_sample= together: a cut paper has no pool of its own; run "
                          "them one at a time")
    _wanted = wanted_names(config["datasets"])
    _unused = [d for d in _wanted if not any(d in p.datasets for p in PAPERS.values())]
    if _unused:
        raise ConfigError(f"config datasets={_wanted}: {_unused} are data sets of none of the papers "
                          f"{sorted(PAPERS)}")
    _companions = {c for p in PAPERS.values() for c in p.companions}
    for _name in list(PAPERS):
        _keep = kept_datasets(load_yaml(PAPERS[_name].path), _wanted)
        if not _keep and _name in _companions:
            logger.warning(f"nbrepro: datasets={_wanted}: companion {_name} uses none of them: left out")
            del PAPERS[_name]
            continue
        _source = PAPERS.pop(_name).path
        PAPERS[cut_name(_name)] = derived_paper(cut_name(_name), _source, "cut",
                                                lambda w, k=_keep, s=_source: cut_config(w, k, str(s)))

# The out-of-sample run (`--config out_of_sample=true`, or data-set names): each paper's claims asked
# of data sets it did not use, as a paper of its own derived from it and run like any other
# (nbrepro.out_of_sample; its config is written to resources/papers/ when it changes). A paper whose
# tables name their data sets has no pool with `true` (said once, the rest run); with names it is an error.
OUT_OF_SAMPLE = {}   # paper → its out-of-sample paper's name
if config.get("out_of_sample"):
    _wanted = None if config["out_of_sample"] is True else config["out_of_sample"]
    _companions = {c for p in PAPERS.values() for c in p.companions}
    for _name in [n for n in PAPERS if n not in _companions]:
        try:
            _pool = pool(PAPERS[_name], REGISTRY, _wanted, USER_DATASETS)
        except ConfigError as _exc:
            if _wanted is not None:
                raise
            logger.warning(f"nbrepro: out of sample: {_name} skipped: {_exc}")
            continue
        OUT_OF_SAMPLE[_name] = derived_name(_name)
        PAPERS[derived_name(_name)] = derived_paper(derived_name(_name), PAPERS[_name].path, "out_of_sample",
                                                    lambda w, p=_pool: derived_config(w, p, REGISTRY))
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
# each one's class attribute against its file's header, before any job (a file not here yet: its fetch job's)
for _d in RUN_DATASETS:
    _problem = class_attribute_problem(REGISTRY[_d])
    if _problem:
        raise ConfigError(f"{config['registry']}: {_problem}")


