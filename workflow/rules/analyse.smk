rule table:
    conda:
        "../../environment.yml"
    # one reproduced table of a paper, beside the published one, with its summary rows and match counts
    input:
        fold_results,
        dataset_level_predictions,
        paper=paper_config,
    params:
        registry=config["registry"],
    output:
        table=report("results/{paper}/tables/{table}.csv", caption="../report/table.rst",
                     category="{paper}", subcategory="tables"),
        summary="results/{paper}/tables/{table}_summary.csv",
        counts=report("results/{paper}/stats/{table}_match_counts.csv", caption="../report/match_counts.rst",
                      category="{paper}", subcategory="tables"),
    wildcard_constraints:
        table=r"[A-Za-z][A-Za-z0-9]*",  # no underscore: {table}_summary.csv stays apart
    log:
        "logs/analyse/{paper}/{table}.log",
    shell:
        "nbrepro analyse --paper-config {input.paper} --results results/{wildcards.paper} "
        "--registry {params.registry} --table {wildcards.table} 2> {log:q}"


rule timings:
    conda:
        "../../environment.yml"
    input:
        fold_results,
        paper=paper_config,
    output:
        "results/{paper}/stats/timings.csv",
    log:
        "logs/analyse/{paper}/timings.log",
    shell:
        "nbrepro analyse --paper-config {input.paper} --results results/{wildcards.paper} --timings 2> {log:q}"


for _paper in PAPERS:
    if not any(paper_stats_outputs(_paper)):
        continue

    rule:
        conda:
            "../../environment.yml"
        # Table 1 from the raw data, the statistics, figures and claims the paper config declares
        name:
            f"paper_stats_{_paper}"
        input:
            stats_inputs(_paper),
            paper=PAPERS[_paper]["path"],
        output:
            paper_stats_outputs(_paper),
        params:
            paper=_paper,
            registry=config["registry"],
        log:
            f"logs/analyse/{_paper}/paper_stats.log",
        shell:
            "nbrepro paper-stats --paper-config {input.paper} --results results/{params.paper} "
            "--registry {params.registry} --figures figures/{params.paper} 2> {log:q}"
