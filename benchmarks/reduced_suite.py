# SPDX-License-Identifier: GPL-3.0-or-later
"""All six papers on three small data sets each: a 20-minute check that a change keeps results.

The whole suite takes about 2 h 25 min on 2 cores; this copies a checkout's workflow, configs,
benchmark and investigation CSVs into DEST with every paper's ``datasets`` (and every table's
or classifier's own ``datasets`` list) cut to the data sets below, then runs it with the
checkout's ``src`` first on the path. Compare two runs with ``nbrepro fingerprint``; Liu et al.'s
training-time table, its ranks, claim 3.2 and its report differ between any two runs (they are
computed from measured seconds).

    python benchmarks/reduced_suite.py CHECKOUT DEST [--run]   # then: nbrepro fingerprint DEST/results
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

KEEP = {"lcwnb": ["labor", "iris", "zoo"], "lslwnb": ["haberman", "ionosphere", "vote"],
        "lslwnb_cv": ["haberman", "ionosphere", "vote"], "kdebw": ["iris", "wine", "haberman"],
        "lpmbc": ["haberman", "heart-statlog", "blood-transfusion"],
        "lpmbc_sweep": ["ionosphere", "gauss2d-C0", "gauss2d-C1"], "awnb": ["labor", "iris", "diabetes"]}
PAPERS = "[lcwnb,lslwnb,lslwnb_cv,kdebw,lpmbc,awnb]"  # lpmbc builds lpmbc_sweep


def _prune(node, keep: list) -> None:
    """Every nested ``datasets:`` list cut to ``keep`` (its first where none is left)."""
    if isinstance(node, dict):
        for key, value in list(node.items()):
            if key == "datasets" and isinstance(value, list):
                node[key] = [d for d in value if d in keep] or keep[:1]
            else:
                _prune(value, keep)
    elif isinstance(node, list):
        for value in node:
            _prune(value, keep)


def make(checkout: Path, dest: Path) -> None:
    dest.mkdir(parents=True)
    for name in ("Snakefile", "environment.yml"):
        shutil.copy(checkout / name, dest)
    for name in ("workflow", "config", "profiles", "benchmarks", "investigations"):
        shutil.copytree(checkout / name, dest / name)
    for paper, keep in KEEP.items():
        path = dest / "config/papers" / f"{paper}.yaml"
        spec = yaml.safe_load(path.read_text())
        spec["datasets"] = [d for d in spec["datasets"] if d in keep]
        # a claim's data sets stay as the paper names them: on a cut run the claim is "not yet computable"
        _prune({k: v for k, v in spec.items() if k not in ("datasets", "claims")}, keep)
        path.write_text(yaml.safe_dump(spec, sort_keys=False))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("dest", type=Path)
    parser.add_argument("--run", action="store_true", help="run it (2 cores; the offline mirror beside the checkout "
                        "if there is one, which a checkout older than the shipped data sets needs)")
    args = parser.parse_args()
    checkout = args.checkout.resolve()
    make(checkout, args.dest)
    if not args.run:
        return 0
    mirror = checkout.parent / "shared" / "datasets"
    env = dict(os.environ, PYTHONPATH=str(checkout / "src"))
    cmd = [sys.executable, "-m", "snakemake", "--cores", "2", "--config", f"papers={PAPERS}"]
    if mirror.is_dir():
        cmd.append(f"mirror={mirror}")
    return subprocess.run(cmd, cwd=args.dest, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
