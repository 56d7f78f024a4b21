# SPDX-License-Identifier: GPL-3.0-or-later
"""The warm worker (nbrepro.runtime.worker): a command forked from it prints, writes and exits as the same
command in its own process, its log ends with its CPU time, and a job whose environment differs
where the worker's imports read it runs in its own process."""
import os
import subprocess
import sys

import pandas as pd
import pytest

from nbrepro.runtime import worker


@pytest.fixture
def running(tmp_path, monkeypatch):
    """A worker as the workflow's onstart starts it, stopped afterwards; ``NBREPRO_WORKER`` set."""
    for key in worker.THREAD_VARIABLES:
        monkeypatch.setenv(key, "1")
    started = worker.start(str(tmp_path / "worker.log"), str(tmp_path))
    yield started
    worker.stop(*started)


def _nbrepro(*args, env=None, alone=False):
    """``nbrepro args`` in a new process; ``alone``: without the worker's variable."""
    environ = {k: v for k, v in dict(os.environ, **(env or {})).items() if not (alone and k == worker.ENV)}
    return subprocess.run([sys.executable, "-m", "nbrepro.cli", *args], capture_output=True, text=True,
                          env=environ, timeout=120)


def _results(folder):
    (folder / "p").mkdir(parents=True)
    pd.DataFrame({"a": [1, 2]}).to_csv(folder / "p/x.csv", index=False)
    return folder


def test_a_forked_command_prints_and_exits_as_in_its_own_process(running, tmp_path):
    results = _results(tmp_path / "results")
    forked = _nbrepro("fingerprint", str(results))
    own = _nbrepro("fingerprint", str(results), alone=True)
    # exit 1: config/config.yaml's papers' results are missing here, and it says so
    assert forked.returncode == own.returncode == 1
    assert forked.stdout == own.stdout and "p/x.csv" in forked.stdout
    assert forked.stderr.splitlines()[:-1] == own.stderr.splitlines()
    assert forked.stderr.splitlines()[-1].startswith(worker.CPU_LINE) and "(worker, peak " in forked.stderr
    assert worker.CPU_LINE not in own.stderr   # not a job of a run: no line
    job = _nbrepro("fingerprint", str(results), alone=True, env={worker.CPU_ENV: "1"})
    assert job.stdout == own.stdout and job.stderr.endswith("(own process)\n")   # a job of a run without worker
    # an error: the same one line and exit code, then the CPU line
    missing = _nbrepro("fingerprint", str(tmp_path / "absent"))
    alone = _nbrepro("fingerprint", str(tmp_path / "absent"), alone=True)
    assert missing.returncode == alone.returncode == 2
    assert missing.stderr.splitlines()[0] == alone.stderr.splitlines()[0]
    assert "no such directory" in alone.stderr
    process, sock = running
    worker.stop(process, sock)
    assert not os.path.exists(os.path.dirname(sock))
    log = (tmp_path / "worker.log").read_text()
    assert "2 jobs forked, 0 declined" in log and "its jobs" in log


def test_an_environment_the_imports_read_otherwise_runs_in_its_own_process(running, tmp_path):
    results = _results(tmp_path / "results")
    other = _nbrepro("fingerprint", str(results), env={"OMP_NUM_THREADS": "2"})
    assert other.returncode == 1 and "p/x.csv" in other.stdout
    assert other.stderr.endswith("(own process)\n")   # declined, run here, its own CPU line
    worker.stop(*running)
    assert "0 jobs forked, 1 declined" in (tmp_path / "worker.log").read_text()


def test_no_worker_answering_runs_the_command_here(tmp_path, monkeypatch):
    monkeypatch.setenv(worker.ENV, str(tmp_path / "no-socket"))
    assert worker.delegate(["fingerprint", str(tmp_path)]) is None
