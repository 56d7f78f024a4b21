# SPDX-License-Identifier: GPL-3.0-or-later
"""nbrepro's console for Snakemake (``--logger nbrepro``, set by the workflow's profiles): one line per
finished job, with the run's progress, instead of each job's block of inputs, outputs and reasons.

    512 of 523 steps (98%) done · report (paper=lcwnb): results/lcwnb/report.html

A failed job still prints Snakemake's whole error block and its log (``show-failed-logs``), and a
dry run still lists every job in full (what ``snakemake -n`` is for); Snakemake's own log of the run
(``.snakemake/log/``) keeps every job's block, as without this plugin. Written here, in Snakemake's
logger-plugin interface, because the plugins on PyPI draw progress bars (rich) or write databases
(sqlite, snkmt), neither a plain line a cluster's log keeps."""
from __future__ import annotations

import sys
from logging import LogRecord

from snakemake.logging import DefaultFormatter
from snakemake_interface_logger_plugins.base import LogHandlerBase
from snakemake_interface_logger_plugins.common import LogEvent


def job_line(record: dict) -> str:
    """A job in one line: its rule, wildcards and first output (and how many more)."""
    wildcards = ", ".join(f"{k}={v}" for k, v in (record.get("wildcards") or {}).items())
    outputs = list(record.get("output") or [])
    first = (outputs[0] + (f" (+{len(outputs) - 1})" if len(outputs) > 1 else "")) if outputs else ""
    return f"{record['rule_name']}" + (f" ({wildcards})" if wildcards else "") + (f": {first}" if first else "")


class OneLineFormatter(DefaultFormatter):
    """Snakemake's formatter, but a job's block becomes one line, printed with the progress when the job
    ends; the scheduler's "Select jobs to execute..." and "Execute n jobs..." and the run's header (host,
    platform, versions) are left out."""

    QUIET_INFO = ("Select jobs to execute...",)

    def __init__(self, *args, dryrun: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.dryrun = dryrun
        self.jobs: dict[int, str] = {}   # job id → its line, from its JOB_INFO
        self.finished: str | None = None

    def format(self, record: LogRecord) -> str:
        event = getattr(record, "event", None)
        if self.dryrun:
            return super().format(record)
        if event == LogEvent.JOB_INFO:
            self.jobs[record.__dict__["jobid"]] = job_line(record.__dict__)
            return ""
        if event == LogEvent.JOB_FINISHED:
            self.finished = self.jobs.pop(record.__dict__.get("job_id"), None)
            return ""
        if event == LogEvent.PROGRESS:
            done, self.finished = self.finished, None
            return super().format(record) + (f" · {done}" if done else "")
        if event in (LogEvent.WORKFLOW_STARTED, LogEvent.JOB_STARTED):   # the header; "Execute n jobs..."
            return ""
        if event is None and record.getMessage().startswith(self.QUIET_INFO):
            return ""
        return super().format(record)


class LogHandler(LogHandlerBase):
    def __post_init__(self) -> None:
        s = self.common_settings
        self.setFormatter(OneLineFormatter(s.quiet, s.show_failed_logs, dryrun=s.dryrun))
        self.stream = sys.stdout if s.stdout else sys.stderr

    def emit(self, record: LogRecord) -> None:
        try:
            text = self.format(record)
            if text:
                self.stream.write(text + "\n")
                self.stream.flush()
        except Exception:   # a console line must never stop the run
            self.handleError(record)

    @property
    def writes_to_stream(self) -> bool:
        return True

    @property
    def writes_to_file(self) -> bool:
        return False

    @property
    def has_filter(self) -> bool:
        return False   # Snakemake's own filter: --quiet, --printshellcmds and the log levels as usual

    @property
    def has_formatter(self) -> bool:
        return True

    @property
    def needs_rulegraph(self) -> bool:
        return False
