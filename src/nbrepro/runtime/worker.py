# SPDX-License-Identifier: GPL-3.0-or-later
"""A warm worker: ``nbrepro`` commands of a local Snakemake run forked from one process that has
imported the package once, so a job does not pay Python's start again (issue 61).

Why: a job's own work is often well under a second, but a fresh ``nbrepro`` process first imports
numpy, pandas, scikit-learn (which imports scipy.stats), numba and the package's compiled ufuncs:
about 1.5–2.5 CPU-s, paid by each of the suite's ~500 jobs. Snakemake runs a job as a shell
command in a new process (even a ``run:`` block), and its ``group:`` batches jobs only for a
cluster, so the start is removed here, the way a fork server removes it: ``serve`` imports once
and forks a child per job; the child is the job.

How: the workflow's ``onstart`` starts ``nbrepro worker --socket S`` (a local run only:
on a cluster the jobs run elsewhere) and puts ``S`` in ``NBREPRO_WORKER``, which the jobs inherit.
``nbrepro``'s ``main`` then calls ``delegate``: it connects, sends its arguments, working folder
and environment with its stdin, stdout and stderr (``SCM_RIGHTS``), and waits for the exit code.
The forked child takes those streams, folder and environment and runs ``cli.main`` as the process
would have, then reports its exit code and its CPU time. Results are the same bytes: a child runs
the same code on the same inputs as a fresh process (the server itself never runs a job, so each
child starts from the state the imports left), and the server declines a job whose environment
differs from its own where imported libraries read it (``_FIXED``) — the job then runs in its own
process, as it does whenever no worker answers.

A job's CPU time: a forked child's counters start at zero, so the child's CPU time is the job's
own work; the client adds its own (its Python start, about 0.03 s) and writes the sum as the
last line of the job's log (``CPU_LINE``), which ``benchmarks/paper_jobs.py`` reads in place of
Snakemake's sampled figure, whose process tree no longer holds the child. The server's one start
is written to its own log when it stops. Only the standard library is imported on the client's path.
"""
from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import socket
import struct
import sys

ENV = "NBREPRO_WORKER"          # the socket's path, set for the jobs by the workflow's onstart
CPU_ENV = "NBREPRO_JOB_CPU"     # set by the workflow's onstart: a job in its own process writes its CPU line too
CPU_LINE = "nbrepro: job CPU seconds:"   # a job's log's last line: "{CPU_LINE} 0.214 (worker, peak 180 MB)"
# environment variables read when the server imported its libraries: a job that sets them
# otherwise runs in its own process (Snakemake sets the thread counts to the job's threads)
THREAD_VARIABLES = ("OMP_NUM_THREADS", "GOTO_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")   # what Snakemake sets to a job's threads
_FIXED = THREAD_VARIABLES + ("PYTHONHASHSEED", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "CONDA_PREFIX")
_FIXED_PREFIXES = ("NUMBA_", "NBREPRO_")
_HEADER = struct.Struct("!I")
_CHILD = False   # True in a forked job: it runs its command itself


def in_child() -> bool:
    return _CHILD


def _fixed(env) -> dict:
    return {k: v for k, v in env.items()
            if (k in _FIXED or k.startswith(_FIXED_PREFIXES)) and k not in (ENV, CPU_ENV)}


def _send(conn: socket.socket, message: dict, fds=()) -> None:
    data = json.dumps(message).encode()
    payload = _HEADER.pack(len(data)) + data
    if fds:
        socket.send_fds(conn, [payload], list(fds))
    else:
        conn.sendall(payload)


def _receive(conn: socket.socket, with_fds: int = 0):
    """One message (and up to ``with_fds`` file descriptors); None where the other side closed."""
    if with_fds:
        data, fds, _, _ = socket.recv_fds(conn, 1 << 20, with_fds)
    else:
        data, fds = conn.recv(1 << 20), []
    if not data:
        return None, fds
    while len(data) < _HEADER.size or len(data) < _HEADER.size + _HEADER.unpack_from(data)[0]:
        more = conn.recv(1 << 20)
        if not more:
            return None, fds
        data += more
    return json.loads(data[_HEADER.size:_HEADER.size + _HEADER.unpack_from(data)[0]]), fds


def _cpu(who) -> float:
    ru = resource.getrusage(who)
    return ru.ru_utime + ru.ru_stime


def delegate(argv: list[str]) -> int | None:
    """Run ``nbrepro argv`` in the worker named by ``NBREPRO_WORKER``: its exit code, or None where
    no worker answers or it declines (the caller then runs the command itself)."""
    path = os.environ.get(ENV)
    if not path or not os.path.exists(path):
        return None
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
        _send(conn, {"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)}, (0, 1, 2))
        reply, _ = _receive(conn)
    except OSError:
        return None
    if reply is None or not reply.get("accepted"):
        conn.close()
        return None
    # the child runs; when this process is killed the connection closes and the child stops too
    done, _ = _receive(conn)
    conn.close()
    if done is None:  # the child died without reporting (killed): as a process killed by SIGKILL
        return 128 + signal.SIGKILL
    cpu = done["cpu_seconds"] + _cpu(resource.RUSAGE_SELF)
    print(f"{CPU_LINE} {cpu:.3f} (worker, peak {done['peak_mb']:.0f} MB)", file=sys.stderr, flush=True)
    return int(done["code"])


def report_cpu() -> None:
    """The job's CPU line where it ran in its own process (its start included): exact, where
    Snakemake's benchmark file samples the job's process tree every 0.5 s for 15 s and then every
    30 s, so that it misses up to a job's last 30 s (a 25 s job reads about 15)."""
    cpu = _cpu(resource.RUSAGE_SELF) + _cpu(resource.RUSAGE_CHILDREN)
    print(f"{CPU_LINE} {cpu:.3f} (own process)", file=sys.stderr, flush=True)


def _run_child(conn: socket.socket, request: dict, fds: list[int], run) -> None:
    """In the forked child: become the job, run it, report, exit (never returns)."""
    global _CHILD
    _CHILD = True
    code = 1
    try:
        for target, fd in enumerate(fds[:3]):
            os.dup2(fd, target)
        for fd in fds:
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        os.environ.pop(ENV, None)  # this is the job: it runs its command itself
        import tempfile
        import threading

        tempfile.tempdir = None  # TMPDIR as the job has it
        sys.argv = ["nbrepro", *request["argv"]]
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)

        def watch():  # the client gone (its job killed): stop too
            try:
                while conn.recv(1):
                    pass
            except OSError:
                pass
            os._exit(128 + signal.SIGTERM)

        _send(conn, {"accepted": True, "pid": os.getpid()})
        threading.Thread(target=watch, daemon=True).start()
        try:
            code = run(request["argv"]) or 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:
            import traceback

            traceback.print_exc()
            code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
            _send(conn, {"code": code, "cpu_seconds": _cpu(resource.RUSAGE_SELF) + _cpu(resource.RUSAGE_CHILDREN),
                         "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024})
        finally:
            os._exit(code if isinstance(code, int) else 1)


def serve(path: str, run, preload, parent: int | None = None) -> None:
    """Accept jobs on the socket ``path`` until SIGTERM or until ``parent`` (Snakemake) is gone:
    ``preload()`` imports once what the jobs need, and each job's forked child calls ``run(argv)``
    (the command line's, which starts the server: ``nbrepro worker``)."""
    start_cpu = _cpu(resource.RUSAGE_SELF)
    preload()
    mine = _fixed(os.environ)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    sys.stdout.flush()
    sys.stderr.flush()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path + ".tmp")
    listener.listen(64)
    os.replace(path + ".tmp", path)  # clients see the socket only once it accepts
    listener.settimeout(0.5)
    children, jobs, declined = set(), 0, 0
    try:
        while not stopping and (parent is None or os.getppid() == parent):
            children -= _reap()
            try:
                conn, _ = listener.accept()
            except (TimeoutError, InterruptedError):
                continue
            with conn:
                conn.settimeout(10)
                try:
                    request, fds = _receive(conn, 3)
                except (OSError, ValueError):
                    continue
                if request is None or len(fds) != 3 or _fixed(request["env"]) != mine:
                    declined += 1
                    for fd in fds:
                        os.close(fd)
                    with contextlib.suppress(OSError):
                        _send(conn, {"accepted": False})
                    continue
                conn.settimeout(None)
                pid = os.fork()
                if pid == 0:
                    listener.close()
                    _run_child(conn, request, fds, run)
                for fd in fds:
                    os.close(fd)
                children.add(pid)
                jobs += 1
    finally:
        listener.close()
        if os.path.exists(path):
            os.unlink(path)
        with contextlib.suppress(OSError):
            os.rmdir(os.path.dirname(path))  # start()'s folder, if nothing else is left in it
        while children:  # their CPU time counts towards this process's, and so Snakemake's
            try:
                children.discard(os.waitpid(-1, 0)[0])
            except ChildProcessError:
                break
        print(f"nbrepro worker: {jobs} jobs forked, {declined} declined; its own start and serving "
              f"{_cpu(resource.RUSAGE_SELF) - start_cpu:.3f} CPU-s (imports {start_cpu:.3f} before), "
              f"its jobs {_cpu(resource.RUSAGE_CHILDREN):.3f} CPU-s", flush=True)


def _reap() -> set[int]:
    done = set()
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return done
        if pid == 0:
            return done
        done.add(pid)


def start(log_path: str, folder: str | None = None) -> tuple[object, str]:
    """Start a worker for this process's jobs (the workflow's onstart): the process and the socket's path
    (in a new folder under ``folder``, default the temporary one), put in ``NBREPRO_WORKER``. The
    server's environment gets the thread counts Snakemake gives a one-thread job."""
    import subprocess
    import tempfile
    import time

    sock = os.path.join(tempfile.mkdtemp(prefix="nbrepro-worker-", dir=folder), "socket")
    env = dict(os.environ)
    for key in THREAD_VARIABLES:
        env[key] = "1"
    env.pop(ENV, None)
    env.pop(CPU_ENV, None)
    with open(log_path, "w") as log:
        process = subprocess.Popen([sys.executable, "-m", "nbrepro.cli", "worker", "--socket", sock,
                                    "--parent", str(os.getpid())], env=env, stdout=log, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL)
    # wait until it accepts (its imports, a second or two), so that the first jobs are forked too
    deadline = time.monotonic() + 120
    while not os.path.exists(sock) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.environ[ENV] = sock
    return process, sock


def stop(process, sock: str) -> None:
    """Stop the worker (the workflow's onsuccess and onerror): it waits for its children first."""
    os.environ.pop(ENV, None)
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        process.wait()
    folder = os.path.dirname(sock)
    for name in os.listdir(folder) if os.path.isdir(folder) else []:
        os.unlink(os.path.join(folder, name))
    if os.path.isdir(folder):
        os.rmdir(folder)
