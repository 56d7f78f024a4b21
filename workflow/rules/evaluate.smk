rule evaluate:
    # one job per paper × dataset × classifier; outputs one file per classifier so adding a
    # classifier re-runs only its own work
    input:
        data="resources/prepared/{paper}/{dataset}.parquet",
        folds="resources/folds/{paper}/{dataset}.parquet",
    params:
        paper=paper_config,
        settings=evaluate_settings,  # this classifier's spec and the preprocessing: a rerun trigger
    output:
        folds="results/{paper}/folds/{dataset}/{classifier}.parquet",
        predictions="results/{paper}/predictions/{dataset}/{classifier}.parquet",
    log:
        "logs/evaluate/{paper}/{dataset}/{classifier}.log",
    shell:
        "nbrepro evaluate --paper-config {params.paper} --dataset {wildcards.dataset:q} "
        "--classifier {wildcards.classifier:q} --prepared {input.data:q} --folds {input.folds:q} "
        "--out-folds {output.folds:q} --out-predictions {output.predictions:q} > {log:q} 2>&1"
