# What a job asks a cluster for and which runs first (nbrepro.plan: measured job costs), and the warm
# worker the jobs of a local run fork from (nbrepro.worker): none of it changes a result.
from nbrepro import worker
from nbrepro.plan import DATA_PRIORITY

job_resources, dataset_priority = PLAN.costs.resources, PLAN.costs.priority


def start_worker(workflow, config):
    """On a local run with ``worker: true``, the warm worker the jobs fork from, its log ``logs/worker.log``;
    None otherwise (a cluster's jobs run elsewhere, each in its own process). Either way each job's log
    ends with its CPU time."""
    os.environ[worker.CPU_ENV] = "1"
    if not config.get("worker", True) or not getattr(workflow, "local_exec", False):
        return None
    Path("logs").mkdir(exist_ok=True)
    return worker.start("logs/worker.log")


def stop_worker(started):
    """From ``onsuccess`` and ``onerror``: the worker waits for its jobs, writes its CPU time to its log and exits."""
    if started is not None:
        worker.stop(*started)
