# SPDX-License-Identifier: GPL-3.0-or-later
"""A run's provenance as an RO-Crate (https://w3id.org/ro/crate/1.1), the format WorkflowHub and
Zenodo read: ``results/ro-crate-metadata.json``, with ``results/`` as the crate's root, so that
the folder can be archived and cited as it is.

What it records:
  - every file of ``results/`` (the reports, tables, statistics, per-fold results), with its
    sha256 and size;
  - the inputs: the workflow config and each paper's config, copied into ``results/inputs/``
    (small, and what the numbers depend on besides the code and the data), with the registry's
    entries of the run's data sets;
  - each data set, as a contextual entity: the sha256 of the ARFF file the run read, its origin
    and licence from the registry, its OpenML page where it has one;
  - the software: nbrepro with its version and commit, and the versions of Python and the
    libraries whose arithmetic the results rest on;
  - one CreateAction (the run) tying them: instrument nbrepro, object the inputs and data sets,
    result the files.

Built with the ``rocrate`` library (its metadata writer only: the files are already in place).
"""
from __future__ import annotations

import datetime
import platform
import shutil
from importlib import metadata
from pathlib import Path

from .. import paths
from ..io import atomic_path, checked_sha256, is_bookkeeping, record

# the libraries whose arithmetic or file formats the results rest on
LIBRARIES = ("numpy", "scipy", "pandas", "scikit-learn", "numba", "pyarrow", "snakemake", "openml", "rocrate")


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def copy_inputs(results: Path, inputs: dict[str, Path], registry: Path, datasets: list[str]) -> list[Path]:
    """Copy the run's config files into ``results/inputs/`` under their names (``inputs``: name →
    file), and the registry's entries of the run's ``datasets``, as written, as ``inputs/datasets.yaml``."""
    import yaml

    out = []
    for name, src in inputs.items():
        dest = results / paths.crate_input(name)
        with atomic_path(dest) as tmp:
            shutil.copyfile(src, tmp)
        out.append(dest)
    entries = yaml.safe_load(Path(registry).read_text())["datasets"]
    dest = results / paths.crate_input("datasets.yaml")
    with atomic_path(dest) as tmp:
        tmp.write_text(f"# the entries of {Path(registry).name} for the data sets this run read\n"
                       + yaml.safe_dump({"datasets": {d: entries[d] for d in datasets if d in entries}},
                                        sort_keys=False, allow_unicode=True, width=120))
    return out + [dest]


def write_crate(results: Path, papers: dict, registry: dict, raw: Path, commit: str, title: str) -> Path:
    """Write ``results/ro-crate-metadata.json`` for the files now under ``results``. ``papers``:
    name → loaded paper config; ``registry``: name → DatasetSpec; ``raw``: the folder of the
    cached raw files and their sidecars."""
    from rocrate.model.contextentity import ContextEntity
    from rocrate.rocrate import ROCrate

    from .. import __version__
    from ..data.fetch import read_source

    results = Path(results)
    crate = ROCrate()
    root = crate.root_dataset
    root["name"] = title
    root["description"] = ("The results of an nbrepro run: each paper's reproduced tables, statistics and claims "
                           "beside the published ones, with the per-fold results they were computed from.")
    now = datetime.datetime.now(datetime.UTC).replace(microsecond=0)
    root["datePublished"] = now.isoformat()

    software = crate.add(ContextEntity(crate, "#nbrepro", properties={
        "@type": "SoftwareApplication", "name": "nbrepro", "version": __version__,
        "description": f"commit {commit}" if commit else "not a git checkout"}))
    libraries = [crate.add(ContextEntity(crate, f"#software/{name}", properties={
        "@type": "SoftwareApplication", "name": name, "version": _version(name)})) for name in LIBRARIES]
    libraries.append(crate.add(ContextEntity(crate, "#software/python", properties={
        "@type": "SoftwareApplication", "name": "Python", "version": platform.python_version()})))
    software["softwareRequirements"] = libraries

    inputs, outputs = [], []
    skip = {paths.CRATE_METADATA_NAME}
    for p in sorted(results.rglob("*")):
        if not p.is_file() or p.name in skip or is_bookkeeping(p):
            continue
        rel = p.relative_to(results).as_posix()
        entity = crate.add_file(dest_path=rel, properties={   # a file changed since its job wrote it stops here
            "name": rel, "sha256": checked_sha256(p), "contentSize": str(p.stat().st_size)})
        (inputs if rel.startswith(paths.CRATE_INPUTS + "/") else outputs).append(entity)

    used = sorted({paper.dataset_entry(ds) for paper in papers.values() for ds in paper.datasets})
    datasets = []
    for ds in used:
        spec = registry.get(ds)
        info = read_source(Path(raw) / f"{ds}.arff")
        props = {"@type": "Dataset", "name": ds, "sha256": info.get("sha256", "")}
        if spec is not None:
            extra = spec.extra
            props["description"] = extra.get("origin") or ("generated by nbrepro.data.synthetic"
                                                            if extra.get("generator") else "")
            if extra.get("licence"):
                props["license"] = extra["licence"]
            if spec.openml_id is not None:
                props["sameAs"] = f"https://www.openml.org/d/{spec.openml_id}"
        datasets.append(crate.add(ContextEntity(crate, f"#dataset/{ds}", properties=props)))
    root["mentions"] = datasets

    crate.add_action(software, identifier="#run", object=inputs + datasets, result=outputs, properties={
        "name": f"nbrepro run of {', '.join(papers)}", "endTime": now.isoformat()})
    crate.metadata.write(results)
    record(results / paths.CRATE_METADATA_NAME)
    return results / paths.CRATE_METADATA_NAME
