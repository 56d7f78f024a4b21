# The evaluation rules: for each paper and job name (plan.smk), the job's classifiers on one data
# set in one process, one output file per classifier. Three kinds, by where a job's data and folds
# come from (its name, outputs, log and resources are the same in all three: inputs.smk):
#   inline     a paper with one job name: the job prepares the data set and makes the folds itself
#   prepared   a paper with several job names: rule prepare (or, reseeded, seed_folds) made them
#   reseeded   a paper with one job name, in the reseeded run {seed} (seeds.smk): the job makes
#              that run's folds from the prepared data
EVALUATE = ("nbrepro evaluate --paper-config {params.paper:q} {params.seed} --dataset {wildcards.dataset:q} "
            "{params.classifiers} {params.data} {params.outputs} > {log:q} 2>&1")


for _paper, _job in evaluation_rules("inline"):

    rule:
        name: _job.name
        conda: "../../environment.yml"
        input:
            raw=raw_file(_paper),
        params:
            **evaluate_params(_paper, _job, seeded=False),
            data=lambda wildcards, input, output: (
                f"--raw {shlex.quote(input.raw)} --registry {shlex.quote(config['registry'])} "
                f"--prepared {shlex.quote(output.prepared)} --folds {shlex.quote(output.splits)}"),
        output:
            prepared=paths.prepared(_paper),
            splits=paths.splits(_paper),
            **evaluate_results(_paper, _job, seeded=False),
        wildcard_constraints:
            dataset=datasets_pattern(_job.datasets),
        priority: dataset_priority(_paper, _job.job)  # longest first: no long job left to run alone at the end
        resources:
            **job_resources(_paper, _job.job),  # for a cluster (profiles/slurm)
        log: evaluate_log(_paper, _job, seeded=False)
        benchmark: evaluate_benchmark(_paper, _job, seeded=False)  # benchmarks/paper_jobs.py reads them
        shell: EVALUATE


for _paper, _job, _seeded in evaluation_rules("prepared"):

    rule:
        name: f"{_job.name}_seeds" if _seeded else _job.name
        conda: "../../environment.yml"
        input:
            data=paths.prepared(_paper),
            folds=run_folds(_paper, _seeded),
        params:
            **evaluate_params(_paper, _job, seeded=_seeded),
            data=lambda wildcards, input: f"--prepared {shlex.quote(input.data)} --folds {shlex.quote(input.folds)}",
        output:
            **evaluate_results(_paper, _job, seeded=_seeded),
        wildcard_constraints:
            dataset=datasets_pattern(_job.datasets),
            seed=r"[1-9][0-9]*",
        priority: dataset_priority(_paper, _job.job)
        resources:
            **job_resources(_paper, _job.job),
        log: evaluate_log(_paper, _job, seeded=_seeded)
        benchmark: evaluate_benchmark(_paper, _job, seeded=_seeded)
        shell: EVALUATE


for _paper, _job in evaluation_rules("reseeded"):

    rule:
        name: f"{_job.name}_seeds"
        conda: "../../environment.yml"
        input:
            data=paths.prepared(_paper),
        params:
            **evaluate_params(_paper, _job, seeded=True),
            data=lambda wildcards, input, output: (
                f"--prepared {shlex.quote(input.data)} --folds {shlex.quote(output.splits)} --make-folds"),
        output:
            splits=run_folds(_paper, True),
            **evaluate_results(_paper, _job, seeded=True),
        wildcard_constraints:
            dataset=datasets_pattern(_job.datasets),
            seed=r"[1-9][0-9]*",
        priority: dataset_priority(_paper, _job.job)
        resources:
            **job_resources(_paper, _job.job),
        log: evaluate_log(_paper, _job, seeded=True)
        benchmark: evaluate_benchmark(_paper, _job, seeded=True)
        shell: EVALUATE
