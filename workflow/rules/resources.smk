# What a job asks a cluster for, which job runs first, and when Snakemake plans: none of it
# changes a result.
import functools
import math


@functools.lru_cache(maxsize=None)
def _measured_jobs(paper):
    """(job name, dataset) → (wall seconds, peak MB) of that evaluation job in the last recorded
    run (benchmarks/results/{paper}_jobs.csv, written by benchmarks/paper_jobs.py), if any."""
    import csv

    path = Path(workflow.basedir, "benchmarks", "results", f"{paper}_jobs.csv")
    if not path.is_file():
        return {}
    with open(path, newline="") as fh:
        return {(row.get("job") or "all", row["dataset"]): (float(row["wall_seconds"]), float(row["peak_rss_mb"]))
                for row in csv.DictReader(fh)}


# What an evaluation job asks a cluster for (profiles/slurm; a local run ignores it): its measured
# peak memory and wall time with headroom, since SLURM kills a job that outgrows its request and
# a cluster node may be slower than the machine that measured it. An unmeasured job asks for the
# defaults, more on a large data set (letter's lazy classifiers ran minutes where others ran seconds).
MEM_HEADROOM, TIME_HEADROOM = 1.5, 3
DEFAULT_MEM_MB, DEFAULT_RUNTIME_MIN, LARGE_DATASET_CELLS = 2000, 30, 100_000


def _dataset_cells(dataset):
    entry = PLAN.registry.get(dataset)
    # an entry with only an openml_id has no shape until it is pinned: asked for as a small set
    return (entry.n_instances or 0) * (entry.n_attributes or 1) if entry else 0


def job_resources(paper, job):
    """mem_mb and runtime (minutes) of a paper's evaluation job, as functions of its dataset wildcard."""
    def mem_mb(wildcards):
        m = _measured_jobs(paper).get((job, wildcards.dataset))
        large = _dataset_cells(wildcards.dataset) > LARGE_DATASET_CELLS
        return max(1000, 100 * math.ceil(m[1] * MEM_HEADROOM / 100)) if m else DEFAULT_MEM_MB * (2 if large else 1)

    def runtime(wildcards):
        m = _measured_jobs(paper).get((job, wildcards.dataset))
        large = _dataset_cells(wildcards.dataset) > LARGE_DATASET_CELLS
        return max(10, math.ceil(m[0] * TIME_HEADROOM / 60)) if m else DEFAULT_RUNTIME_MIN * (8 if large else 1)

    return dict(mem_mb=mem_mb, runtime=runtime)


def dataset_priority(paper, job):
    """Scheduling priority of a dataset's evaluation job: longest first. Two cores
    finish soonest when the long jobs start first and the short ones fill in after them, not
    when letter starts last. The order comes from the measured job times; a dataset without a
    measurement starts before all measured ones (its cost is unknown), larger ones first."""
    seconds = {key: wall for key, (wall, _) in _measured_jobs(paper).items()}
    top = int(max(seconds.values(), default=0)) + 1

    def priority(wildcards):
        if (job, wildcards.dataset) in seconds:
            return int(seconds[(job, wildcards.dataset)])
        # unmeasured: before every measured job, the larger datasets (rows × attributes) first
        return top + _dataset_cells(wildcards.dataset)

    return priority


# Fetching and preparing come before every evaluation (seconds each): otherwise a small
# dataset's evaluation, ready early, would keep a long one's fetch waiting.
DATA_PRIORITY = 1_000_000


def plan_on_job_ends_only(workflow):
    """On a local run, let Snakemake plan the next jobs when a job ends, and not also every second.

    Why: with the command line's default job rate limit (``--max-jobs-per-timespan 100/1s``),
    Snakemake 9's scheduler ends every planning round by arming a timer that starts another
    round a second later, so each round begets the next, and every job's end starts one more
    such chain. Each round stats the inputs of every waiting job. A local run has no submission
    rate to respect, so the limiter goes, as in Snakemake's Python API, where it is off by
    default; a job's end still starts a round. On a cluster (profiles/slurm) the limiter stays.
    Measured again with Snakemake 9.27.1 (benchmarks/scheduler_planning.py, 200 quick jobs, then
    400 jobs of 202 inputs waiting on two 60 s jobs; benchmarks/results/scheduler_planning.csv):
    Snakemake's CPU 26.4 s without, 25.1 s with it, wall 152 s against 128 s on a loaded machine.
    It still pays, if less than the ~45 % of a core first seen on the whole suite (README, Speed),
    so it stays. Called from ``onstart`` (after the scheduler
    exists, before it plans). Returns whether it removed the limiter."""
    scheduler = getattr(workflow, "scheduler", None)
    if scheduler is None or not getattr(workflow, "local_exec", False):
        return False
    if getattr(scheduler, "job_rate_limiter", None) is None:
        return False
    scheduler.job_rate_limiter = None
    return True


def start_worker(workflow, config):
    """On a local run with ``worker: true``, the warm worker the jobs fork from (``nbrepro.worker``):
    started from ``onstart``, its log ``logs/worker.log``; None otherwise (a cluster's jobs run
    elsewhere, each in its own process). Either way each job's log is to end with its CPU time."""
    from nbrepro import worker

    os.environ[worker.CPU_ENV] = "1"  # every job's log ends with its CPU time (nbrepro.worker.report_cpu)
    if not config.get("worker", True) or not getattr(workflow, "local_exec", False):
        return None
    Path("logs").mkdir(exist_ok=True)
    return worker.start("logs/worker.log")


def stop_worker(started):
    """From ``onsuccess`` and ``onerror``: the worker waits for its jobs, writes its CPU time to its log and exits."""
    if started is not None:
        from nbrepro import worker

        worker.stop(*started)
