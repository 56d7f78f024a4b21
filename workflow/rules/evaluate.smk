rule evaluate:
    conda:
        "../../environment.yml"
    # one job per paper × dataset × classifier; outputs one file per classifier so adding a
    # classifier re-runs only its own work
    input:
        data="resources/prepared/{paper}/{dataset}.parquet",
        folds="resources/folds/{paper}/{dataset}.parquet",
    params:
        paper=paper_config,
        settings=evaluate_settings,  # this classifier's spec, the metrics and the preprocessing: a rerun trigger
        fitted="",
    output:
        folds="results/{paper}/folds/{dataset}/{classifier}.parquet",
        predictions="results/{paper}/predictions/{dataset}/{classifier}.parquet",
    wildcard_constraints:
        paper=rf"(?!(?:{BATCHED_RE})/)[^/]+",  # a batched paper's classifiers run in evaluate_dataset
        # not a recording classifier (the lookahead sees the rest of the path: every output ends .parquet)
        classifier=rf"(?!(?:{RECORDED_RE})\.parquet$)[A-Za-z0-9_.()=,*-]+",
    resources:
        **job_resources(),  # for a cluster (profiles/slurm)
    log:
        "logs/evaluate/{paper}/{dataset}/{classifier}.log",
    benchmark:
        "logs/benchmarks/{paper}/{classifier}/{dataset}.tsv"
    shell:
        "nbrepro evaluate --paper-config {params.paper} --dataset {wildcards.dataset:q} "
        "--classifier {wildcards.classifier:q} --prepared {input.data:q} --folds {input.folds:q} "
        "--out-folds {output.folds:q} --out-predictions {output.predictions:q} {params.fitted} > {log:q} 2>&1"


use rule evaluate as evaluate_recorded with:
    # a classifier whose spec has record: also writes its fitted attributes per fold
    params:
        paper=paper_config,
        settings=evaluate_settings,
        fitted=lambda wc: f"--out-fitted results/{wc.paper}/fitted/{wc.dataset}/{wc.classifier}.parquet",
    output:
        folds="results/{paper}/folds/{dataset}/{classifier}.parquet",
        predictions="results/{paper}/predictions/{dataset}/{classifier}.parquet",
        fitted="results/{paper}/fitted/{dataset}/{classifier}.parquet",
    wildcard_constraints:
        paper=rf"(?!(?:{BATCHED_RE})/)[^/]+",
        classifier=rf"(?:{RECORDED_RE})",


for _paper in BATCHED:
    for _job in batched_jobs(_paper):

        rule:
            # evaluate_jobs: per_dataset — the classifiers of one job (all, or those sharing a job:
            # name) on one dataset in one process
            name:
                _job.name
            conda:
                "../../environment.yml"
            # with one job per dataset it prepares the dataset first, in the same process
            input:
                **({"data": f"resources/prepared/{_paper}/{{dataset}}.parquet",
                    "folds": f"resources/folds/{_paper}/{{dataset}}.parquet"} if _job.several
                   else {"raw": "resources/raw/{dataset}.arff"}),
            params:
                paper=PAPERS[_paper]["path"],
                registry=config["registry"],
                settings=settings_of(_paper, _job.labels),
                prepare_settings=prepare_settings_of(_paper),
                classifiers=" ".join(f"--classifier {shlex.quote(label)}" for label in _job.labels),
                # the paper's results directory, from the outputs (a hardcoded prefix fails the lint)
                out=lambda wildcards, output: Path(output.folds[0]).parents[2].as_posix(),
                # prepare here, or read what rule prepare wrote
                data=(lambda wildcards, input: f"--prepared {shlex.quote(input.data)} --folds {shlex.quote(input.folds)}")
                if _job.several
                else (lambda wildcards, input, output: f"--raw {shlex.quote(input.raw)} --registry {config['registry']} "
                      f"--prepared {shlex.quote(output.prepared)} --folds {shlex.quote(output.splits)}"),
            output:
                **({} if _job.several else {"prepared": f"resources/prepared/{_paper}/{{dataset}}.parquet",
                                            "splits": f"resources/folds/{_paper}/{{dataset}}.parquet"}),
                folds=[f"results/{_paper}/folds/{{dataset}}/{label}.parquet" for label in _job.labels],
                predictions=[f"results/{_paper}/predictions/{{dataset}}/{label}.parquet" for label in _job.labels],
                fitted=[f"results/{_paper}/fitted/{{dataset}}/{label}.parquet" for label in _job.labels
                        if label in RECORDED],
            wildcard_constraints:
                dataset="|".join(re.escape(d) for d in _job.datasets),
            priority: dataset_priority(_paper, _job.job)  # longest first: no long job left to run alone at the end
            resources:
                **job_resources(_paper, _job.job),
            log:
                f"logs/evaluate/{_paper}/{{dataset}}" + (f".{_job.job}" if _job.several else "") + ".log",
            benchmark:
                # wall time and peak memory of each job (benchmarks/paper_jobs.py summarises them)
                f"logs/benchmarks/{_paper}/" + (f"{_job.job}/" if _job.several else "") + "{dataset}.tsv"
            shell:
                "nbrepro evaluate --paper-config {params.paper} --dataset {wildcards.dataset:q} {params.classifiers} "
                "{params.data} "
                "--out-folds {params.out}/folds/{wildcards.dataset}/{{classifier}}.parquet "
                "--out-predictions {params.out}/predictions/{wildcards.dataset}/{{classifier}}.parquet "
                "--out-fitted {params.out}/fitted/{wildcards.dataset}/{{classifier}}.parquet > {log:q} 2>&1"
