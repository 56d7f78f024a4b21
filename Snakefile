# nbrepro: `snakemake --cores 2 --config mirror=../shared/datasets`
# Data flow and contracts: see README.md. All logic lives in src/nbrepro; rules only wire files.
import json

from snakemake.utils import validate
import yaml

from nbrepro.config import PAPER_STATS_FILES, captioned_files

configfile: "config/config.yaml"
validate(config, "config/schemas/config.schema.yaml")

PAPERS = {}
for _name in config["papers"]:
    _path = f"{config['paper_dir']}/{_name}.yaml"
    with open(_path) as _fh:
        _spec = yaml.safe_load(_fh)
    validate(_spec, "config/schemas/paper.schema.yaml")
    if _spec["paper"] != _name:
        raise ValueError(f"{_path}: 'paper: {_spec['paper']}' must equal the file name {_name!r}")
    PAPERS[_name] = dict(spec=_spec, path=_path)

with open(config["registry"]) as _fh:
    REGISTRY = yaml.safe_load(_fh)["datasets"]
for _name, _p in PAPERS.items():
    _unknown = [d for d in _p["spec"]["datasets"] if d not in REGISTRY]
    if _unknown:
        raise ValueError(f"{_p['path']}: datasets {_unknown} are not in {config['registry']}")

_mirror = config.get("mirror")
MIRRORS = [] if not _mirror else ([_mirror] if isinstance(_mirror, str) else list(_mirror))


def paper_config(wildcards):
    return PAPERS[wildcards.paper]["path"]


# What each job's output depends on in a paper's config, as params: Snakemake reruns a job when
# its params change, so editing a caption, a note, a table or another classifier reruns only the
# analysis and report, and editing one classifier reruns only that classifier's jobs.
def _settings(**parts):
    return json.dumps(parts, sort_keys=True, ensure_ascii=False)


def prepare_settings(wildcards):
    pre = PAPERS[wildcards.paper]["spec"]["preprocessing"]
    return _settings(scope=pre["scope"], steps=pre["steps"], complete_cases=pre.get("complete_cases", False),
                     per_dataset=pre.get("per_dataset", {}).get(wildcards.dataset),
                     protocol=PAPERS[wildcards.paper]["spec"]["protocol"])


def evaluate_settings(wildcards):
    spec = PAPERS[wildcards.paper]["spec"]
    classifier = {k: v for k, v in spec["classifiers"][wildcards.classifier].items() if k != "note"}
    return _settings(classifier=classifier,
                     scope=spec["preprocessing"]["scope"], steps=spec["preprocessing"]["steps"])


include: "workflow/rules/data.smk"
include: "workflow/rules/evaluate.smk"
include: "workflow/rules/analyse.smk"
include: "workflow/rules/report.smk"


rule all:
    input:
        "results/index.html",
        expand("results/{paper}/report.html", paper=PAPERS),
