wildcard_constraints:
    dataset=r"[A-Za-z0-9._-]+",
    paper=r"[A-Za-z0-9_-]+",
    classifier=r"[A-Za-z0-9_.()=,*-]+",


rule fetch:
    conda:
        "../../environment.yml"
    # cache → the shipped copy → mirror folders → OpenML; the cache is what every later rule reads.
    # Where the bytes come from is not a rerun trigger: the mirrors and the OpenML switch reach the
    # command through the environment (common.smk), so the same file from elsewhere changes nothing.
    output:
        arff=paths.raw(),
        source=paths.raw_source(),   # where it came from, its sha256 and when
    params:
        settings=fetch_settings,   # the registry entry's sha256, shape and generator settings
        registry=config["registry"],
    priority: DATA_PRIORITY
    log:
        "logs/fetch/{dataset}.log",
    shell:
        "nbrepro fetch --dataset {wildcards.dataset:q} --registry {params.registry:q} "
        "--out {output.arff:q} 2> {log:q}"


rule prepare:
    conda:
        "../../environment.yml"
    # validation against the registry, the paper's preprocessing (dataset scope) and the folds
    input:
        raw=raw_file(),
    params:
        paper=paper_config,
        registry=config["registry"],
        settings=prepare_settings,  # preprocessing, protocol and this dataset's registry entry: a rerun trigger
    output:
        data=paths.prepared(),
        folds=paths.splits(),
    priority: DATA_PRIORITY
    wildcard_constraints:
        paper=rf"(?!(?:{INLINE_PREPARE_RE})/)[A-Za-z0-9_-]+",  # a paper with one job per dataset prepares in it
    log:
        "logs/prepare/{paper}/{dataset}.log",
    shell:
        "nbrepro prepare --paper-config {params.paper:q} --dataset {wildcards.dataset:q} --registry {params.registry:q} "
        "--raw {input.raw:q} --out-data {output.data:q} --out-folds {output.folds:q} 2> {log:q}"
