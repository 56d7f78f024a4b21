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
    log:
        "logs/evaluate/{paper}/{dataset}/{classifier}.log",
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
    _labels = list(PAPERS[_paper]["spec"]["classifiers"])
    _recorded = [label for label in _labels if label in RECORDED]

    rule:
        # evaluate_jobs: per_dataset — every classifier of one dataset in one job
        name:
            f"evaluate_dataset_{_paper}"
        conda:
            "../../environment.yml"
        # and prepares the dataset first, in the same process (rule prepare leaves batched papers alone)
        input:
            raw="resources/raw/{dataset}.arff",
        params:
            paper=PAPERS[_paper]["path"],
            registry=config["registry"],
            settings=settings_of(_paper),
            prepare_settings=prepare_settings_of(_paper),
            classifiers=" ".join(f"--classifier {shlex.quote(label)}" for label in _labels),
            # the paper's results directory, from the outputs (a hardcoded prefix fails the lint)
            out=lambda wildcards, output: Path(output.folds[0]).parents[2].as_posix(),
        output:
            prepared=f"resources/prepared/{_paper}/{{dataset}}.parquet",
            splits=f"resources/folds/{_paper}/{{dataset}}.parquet",
            folds=[f"results/{_paper}/folds/{{dataset}}/{label}.parquet" for label in _labels],
            predictions=[f"results/{_paper}/predictions/{{dataset}}/{label}.parquet" for label in _labels],
            fitted=[f"results/{_paper}/fitted/{{dataset}}/{label}.parquet" for label in _recorded],
        priority: dataset_priority(_paper)  # longest first: no long job left to run alone at the end
        log:
            f"logs/evaluate/{_paper}/{{dataset}}.log",
        benchmark:
            # wall time and peak memory of each dataset's job (benchmarks/paper_jobs.py summarises them)
            f"logs/benchmarks/{_paper}/{{dataset}}.tsv"
        shell:
            "nbrepro evaluate --paper-config {params.paper} --dataset {wildcards.dataset:q} {params.classifiers} "
            "--raw {input.raw:q} --registry {params.registry} --prepared {output.prepared:q} --folds {output.splits:q} "
            "--out-folds {params.out}/folds/{wildcards.dataset}/{{classifier}}.parquet "
            "--out-predictions {params.out}/predictions/{wildcards.dataset}/{{classifier}}.parquet "
            "--out-fitted {params.out}/fitted/{wildcards.dataset}/{{classifier}}.parquet > {log:q} 2>&1"
