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
        classifier=rf"(?:{RECORDED_RE})",
