# The reseeding run (`--config seeds=K`): each paper's evaluation again under K other seeds of its
# own protocol and classifiers (nbrepro.reseed), run k in results/{paper}/seeds/{k}/: its folds
# from the main run's prepared data, its evaluation jobs (evaluate.smk's twins), its tables and
# claims as the main run's; then each paper's seed bands, noise floor and seed stability
# (nbrepro.analysis.seed_bands), which its report shows. A paper that draws no random number
# (SEED_RUNS empty) gets bands from its main run alone.


rule seed_folds:
    conda:
        "../../environment.yml"
    # a reseeded run's folds, for a paper with several jobs per data set (one job alone makes its own)
    input:
        data=paths.prepared(),
    params:
        paper=paper_config,
        settings=lambda wildcards: prepare_settings_of(wildcards.paper, True)(wildcards),
    output:
        paths.seed_folds(),
    priority: DATA_PRIORITY
    wildcard_constraints:
        paper=rf"(?!(?:{INLINE_PREPARE_RE})/)[A-Za-z0-9_-]+",  # a paper with one job per dataset makes them in it
        seed=r"[1-9][0-9]*",
    log:
        "logs/prepare/seeds/{seed}/{paper}/{dataset}.log",
    shell:
        "nbrepro folds --paper-config {params.paper:q} --seed {wildcards.seed} --dataset {wildcards.dataset:q} "
        "--prepared {input.data:q} --out {output:q} 2> {log:q}"


rule seed_table:
    conda:
        "../../environment.yml"
    # one table of a reseeded run (rule table's twin)
    input:
        lambda wildcards: seeded_fold_results(wildcards.paper, int(wildcards.seed)),
        paper=paper_config,
    params:
        registry=config["registry"],
        results=lambda wildcards: paths.results(wildcards.paper, paths.seed_run(wildcards.seed)),
    output:
        [paths.results(name=paths.seed_run(name=f)) for f in paths.table_files("{table}")],
    wildcard_constraints:
        table=r"[A-Za-z][A-Za-z0-9]*",
        seed=r"[1-9][0-9]*",
    log:
        "logs/analyse/seeds/{seed}/{paper}/{table}.log",
    shell:
        "nbrepro analyse --paper-config {input.paper:q} --seed {wildcards.seed} --results {params.results} "
        "--registry {params.registry:q} --table {wildcards.table} 2> {log:q}"


for _paper in PAPERS:
    if SEED_RUNS[_paper] and "claims" in output_files(PAPERS[_paper])[0]:

        rule:
            conda:
                "../../environment.yml"
            # a reseeded run's statistics and claims (paper-stats without the figures)
            name:
                f"seed_stats_{_paper}"
            input:
                seeded_stats_inputs_of(_paper),
                paper=str(PAPERS[_paper].path),
            output:
                [paths.results(_paper, paths.seed_run(name=paths.stats(n))) for n in output_files(PAPERS[_paper])[0]],
            params:
                results=seeded_folder_of(_paper),
                registry=config["registry"],
            wildcard_constraints:
                seed=r"[1-9][0-9]*",
            log:
                f"logs/analyse/seeds/{{seed}}/{_paper}/paper_stats.log",
            shell:
                "nbrepro paper-stats --paper-config {input.paper:q} --seed {wildcards.seed} "
                "--results {params.results} --registry {params.registry:q} 2> {log:q}"

    if SEEDS:

        rule:
            conda:
                "../../environment.yml"
            # each printed cell's band over the runs, each table's noise floor, each claim's seed stability
            name:
                f"seed_bands_{_paper}"
            input:
                seed_band_inputs(_paper),
                paper=str(PAPERS[_paper].path),
            output:
                seed_band_outputs(_paper),
            params:
                results=folder_of(paths.results, _paper),
            log:
                f"logs/analyse/{_paper}/seed_bands.log",
            shell:
                f"nbrepro seed-bands --paper-config {{input.paper:q}} --results {{params.results}} --seeds {SEEDS} "
                "2> {log:q}"
