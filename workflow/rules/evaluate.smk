# One kind of evaluation rule: for each paper and job name (workflow/rules/plan.smk), the job's
# classifiers on one data set in one process, one output file per classifier. With `seeds: K`
# (seeds.smk) each rule has a twin for the reseeded runs 1..K ({seed}), writing into
# results/{paper}/seeds/{seed}/ the same files from the same prepared data under other folds.
for _paper in PAPERS:
    for _job in evaluation_jobs(_paper):
        for _seeded in [False, True] if SEED_RUNS[_paper] else [False]:

            rule:
                name:
                    _job.name + ("_seeds" if _seeded else "")
                conda:
                    "../../environment.yml"
                # with one job name the main job prepares the data set first, in the same process, and
                # a reseeded job makes its folds from the prepared data likewise
                input:
                    **({"data": paths.prepared(_paper)} if _seeded and not _job.several else
                       {"data": paths.prepared(_paper), "folds": run_folds(_paper, _seeded)} if _job.several
                       else {"raw": paths.raw()}),
                params:
                    paper=str(PAPERS[_paper].path),
                    seed=(lambda wildcards: f"--seed {wildcards.seed}") if _seeded else "",
                    registry=config["registry"],
                    settings=evaluate_settings_of(_paper, _job.labels, _seeded),  # rerun triggers (inputs.smk)
                    prepare_settings=prepare_settings_of(_paper, _seeded),
                    classifiers=" ".join(f"--classifier {shlex.quote(label)}" for label in _job.labels),
                    outputs=evaluate_outputs(_paper, _seeded),  # where each classifier's files go (nbrepro.paths)
                    # prepare here (or, reseeded, make the folds here), or read what rules prepare / seed_folds wrote
                    data=(lambda wildcards, input: f"--prepared {shlex.quote(input.data)} --folds {shlex.quote(input.folds)}")
                    if _job.several
                    else (lambda wildcards, input, output: f"--prepared {shlex.quote(input.data)} "
                          f"--folds {shlex.quote(output.splits)} --make-folds") if _seeded
                    else (lambda wildcards, input, output: f"--raw {shlex.quote(input.raw)} --registry {config['registry']} "
                          f"--prepared {shlex.quote(output.prepared)} --folds {shlex.quote(output.splits)}"),
                output:
                    **({} if _job.several else {"splits": run_folds(_paper, _seeded)} if _seeded
                       else {"prepared": paths.prepared(_paper), "splits": paths.splits(_paper)}),
                    folds=[run_results(_paper, _seeded, paths.per_fold("folds", label=label)) for label in _job.labels],
                    predictions=[run_results(_paper, _seeded, paths.per_fold("predictions", label=label))
                                 for label in _job.labels],
                    fitted=[run_results(_paper, _seeded, paths.per_fold("fitted", label=label)) for label in _job.labels
                            if PAPERS[_paper].classifiers[label].record],
                wildcard_constraints:
                    dataset="|".join(re.escape(d) for d in _job.datasets),
                    seed=r"[1-9][0-9]*",
                priority: dataset_priority(_paper, _job.job)  # longest first: no long job left to run alone at the end
                resources:
                    **job_resources(_paper, _job.job),  # for a cluster (profiles/slurm)
                log:
                    ("logs/evaluate/seeds/{seed}/" if _seeded else "logs/evaluate/") + f"{_paper}/{{dataset}}"
                    + (f".{_job.job}" if _job.several else "") + ".log",
                benchmark:
                    # wall time and peak memory of each job (benchmarks/paper_jobs.py summarises the main run's)
                    ("logs/benchmarks/seeds/{seed}/" if _seeded else "logs/benchmarks/") + f"{_paper}/"
                    + (f"{_job.job}/" if _job.several else "") + "{dataset}.tsv"
                shell:
                    "nbrepro evaluate --paper-config {params.paper} {params.seed} --dataset {wildcards.dataset:q} "
                    "{params.classifiers} {params.data} {params.outputs} > {log:q} 2>&1"
