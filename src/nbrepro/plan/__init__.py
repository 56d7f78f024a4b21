# SPDX-License-Identifier: GPL-3.0-or-later
"""The plan of a workflow run, as a library object: its papers, their runs (``Run``: the main run, the
reseeded runs, the readings), the jobs of each with the files they read and write, and the rerun
triggers. The Snakefile's rules are wiring over a ``Plan``; ``nbrepro fingerprint`` asks one which
files a run leaves. Nothing here runs a job.
"""
from ._jobs import EvaluationRule, evaluation_rules, job_groups
from ._plan import Plan, normalised
from ._resources import DATA_PRIORITY, JobCosts
from ._run import PATTERN as RUN_PATTERN
from ._run import Run, parse_run, run_id
from ._workflow import CONFIG_SCHEMA, before_run, start_worker, stop_worker

__all__ = ["CONFIG_SCHEMA", "DATA_PRIORITY", "EvaluationRule", "JobCosts", "Plan", "RUN_PATTERN", "Run",
           "before_run", "evaluation_rules", "job_groups", "normalised", "parse_run", "run_id", "start_worker",
           "stop_worker"]
