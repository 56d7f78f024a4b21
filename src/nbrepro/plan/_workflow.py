# SPDX-License-Identifier: GPL-3.0-or-later
"""What the Snakefile does around its rules: the checks before a run takes its lock, the config's
schema, and the warm worker of a local run. Each is a call here, so the workflow's files import only
the plan and ``paths``."""
from __future__ import annotations

import os
from pathlib import Path

from .. import paths

CONFIG_SCHEMA = str(Path(__file__).resolve().parents[1] / "schemas" / "config.schema.yaml")


def before_run() -> None:
    """Before Snakemake takes its lock (the main process only: a job step on a node, whose /proc cannot
    see the run that submitted it, would take that live run's locks for stale). A run killed with -9
    leaves its lock behind (``nbrepro.runtime.locks``); and every file a job writes has its sha256 recorded
    beside it (``nbrepro.io``): one whose bytes changed since (a copy cut short, a full disk, an edit)
    stops the run before any job reads it."""
    from ..errors import ResultChanged
    from ..io import changed_files
    from ..runtime.locks import clear_stale_locks

    clear_stale_locks()
    changed = changed_files(*paths.OUTPUT_ROOTS)
    if changed:
        raise ResultChanged(changed[0] + (f" ({len(changed) - 1} more file(s) too)" if len(changed) > 1 else ""))


def start_worker(local: bool, wanted: bool):
    """On a local run with ``worker: true``, the warm worker the jobs fork from (``nbrepro.runtime.worker``), its
    log ``logs/worker.log``; None otherwise (a cluster's jobs run elsewhere, each in its own process).
    Either way each job's log ends with its CPU time."""
    from ..runtime import worker

    os.environ[worker.CPU_ENV] = "1"
    if not wanted or not local:
        return None
    Path("logs").mkdir(exist_ok=True)
    return worker.start("logs/worker.log")


def stop_worker(started) -> None:
    """The worker waits for its jobs, writes its CPU time to its log and exits."""
    if started is not None:
        from ..runtime import worker

        worker.stop(*started)
