# SPDX-License-Identifier: GPL-3.0-or-later
"""Snakemake's locks left behind by an interrupted run (used by the workflow when it is read)."""
from __future__ import annotations

import os
import sys
from pathlib import Path


def clear_stale_locks(workdir="."):
    """After kill -9 or a power cut Snakemake leaves its locks behind and the next run stops with a
    LockException. A lock is stale when no other Snakemake process works in this folder (Linux:
    /proc); then it is removed, so that a plain rerun (with rerun-incomplete from the workflow
    profile) carries on. Where /proc is missing nothing is removed."""
    locks = Path(workdir, ".snakemake", "locks")
    if not locks.is_dir() or not any(locks.iterdir()) or not Path("/proc").is_dir():
        return
    here = os.path.realpath(workdir)
    mine = {os.getpid(), os.getppid()}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) in mine:
            continue
        try:
            cmd = (proc / "cmdline").read_bytes()
            if b"snakemake" in cmd and os.path.realpath(proc / "cwd") == here:
                return   # another run is working here: its locks are real
        except OSError:
            continue
    for lock in locks.iterdir():
        lock.unlink()
    print("nbrepro: removed stale Snakemake locks (no other run is working in this folder)", file=sys.stderr)


