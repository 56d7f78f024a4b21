# SPDX-License-Identifier: GPL-3.0-or-later
"""The workflow's console (snakemake_logger_plugin_nbrepro): a finished job is one line with the run's
progress; a failed job's error block and a dry run's job list stay Snakemake's own."""
import logging

from snakemake_interface_logger_plugins.common import LogEvent

from snakemake_logger_plugin_nbrepro import OneLineFormatter


def _record(msg="", **extra):
    record = logging.LogRecord("snakemake", logging.INFO, __file__, 0, msg, None, None)
    record.__dict__.update(extra)
    return record


def _job(jobid, rule="report", output=("results/lcwnb/report.html", "results/lcwnb/run.html")):
    return _record(" Rule", event=LogEvent.JOB_INFO, jobid=jobid, rule_msg=None, rule_name=rule, local=True,
                   is_checkpoint=False, input=["a", "b"], output=list(output), log=[], benchmark=None,
                   wildcards={"paper": "lcwnb"}, reason="Missing output files", resources={}, priority=0,
                   threads=1, indent=False)


def test_a_finished_job_is_one_line_with_the_progress():
    fmt = OneLineFormatter(set(), True)
    assert fmt.format(_job(7)) == ""
    assert fmt.format(_record("Execute 1 jobs...", event=LogEvent.JOB_STARTED, jobs=[7])) == ""
    assert fmt.format(_record("Finished jobid: 7 (Rule: report)", event=LogEvent.JOB_FINISHED, job_id=7)) == ""
    line = fmt.format(_record(event=LogEvent.PROGRESS, done=3, total=10))
    assert line == "3 of 10 steps (30%) done · report (paper=lcwnb): results/lcwnb/report.html (+1)"
    assert fmt.format(_record("Select jobs to execute...")) == ""
    assert fmt.format(_record("iris: shipped:iris.arff.xz")) == "iris: shipped:iris.arff.xz"   # a job's own line


def test_a_failed_job_and_a_dry_run_keep_snakemakes_blocks():
    error = _record("", event=LogEvent.JOB_ERROR, rule_name="evaluate", rule_msg=None, jobid=3,
                    input=["x"], output=["y"], log=["logs/x.log"], conda_env=None, aux={}, shellcmd="nbrepro evaluate",
                    indent=False)
    assert "Error in rule evaluate:" in OneLineFormatter(set(), True).format(error)
    listed = OneLineFormatter(set(), True, dryrun=True).format(_job(7))
    assert "rule report:" in listed and "input: a, b" in listed
