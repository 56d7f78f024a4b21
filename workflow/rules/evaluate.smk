# One kind of evaluation rule: for each paper and job name (workflow/rules/plan.smk), the job's
# classifiers on one data set in one process, one output file per classifier.
for _paper in PAPERS:
    for _job in evaluation_jobs(_paper):

        rule:
            name:
                _job.name
            conda:
                "../../environment.yml"
            # with one job name the job prepares the data set first, in the same process
            input:
                **({"data": paths.prepared(_paper), "folds": paths.splits(_paper)} if _job.several
                   else {"raw": paths.raw()}),
            params:
                paper=str(PAPERS[_paper].path),
                registry=config["registry"],
                settings=evaluate_settings_of(_paper, _job.labels),  # rerun triggers (inputs.smk)
                prepare_settings=prepare_settings_of(_paper),
                classifiers=" ".join(f"--classifier {shlex.quote(label)}" for label in _job.labels),
                outputs=evaluate_outputs(_paper),  # where each classifier's files go (nbrepro.paths)
                # prepare here, or read what rule prepare wrote
                data=(lambda wildcards, input: f"--prepared {shlex.quote(input.data)} --folds {shlex.quote(input.folds)}")
                if _job.several
                else (lambda wildcards, input, output: f"--raw {shlex.quote(input.raw)} --registry {config['registry']} "
                      f"--prepared {shlex.quote(output.prepared)} --folds {shlex.quote(output.splits)}"),
            output:
                **({} if _job.several else {"prepared": paths.prepared(_paper), "splits": paths.splits(_paper)}),
                folds=[paths.results(_paper, paths.per_fold("folds", label=label)) for label in _job.labels],
                predictions=[paths.results(_paper, paths.per_fold("predictions", label=label)) for label in _job.labels],
                fitted=[paths.results(_paper, paths.per_fold("fitted", label=label)) for label in _job.labels
                        if PAPERS[_paper]["classifiers"][label].get("record")],
            wildcard_constraints:
                dataset="|".join(re.escape(d) for d in _job.datasets),
            priority: dataset_priority(_paper, _job.job)  # longest first: no long job left to run alone at the end
            resources:
                **job_resources(_paper, _job.job),  # for a cluster (profiles/slurm)
            log:
                f"logs/evaluate/{_paper}/{{dataset}}" + (f".{_job.job}" if _job.several else "") + ".log",
            benchmark:
                # wall time and peak memory of each job (benchmarks/paper_jobs.py summarises them)
                f"logs/benchmarks/{_paper}/" + (f"{_job.job}/" if _job.several else "") + "{dataset}.tsv"
            shell:
                "nbrepro evaluate --paper-config {params.paper} --dataset {wildcards.dataset:q} {params.classifiers} "
                "{params.data} {params.outputs} > {log:q} 2>&1"
