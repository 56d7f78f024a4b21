def fold_results(wildcards):
    spec = PAPERS[wildcards.paper]["spec"]
    return expand("results/{paper}/folds/{dataset}/{classifier}.parquet", paper=wildcards.paper,
                  dataset=spec["datasets"], classifier=list(spec["classifiers"]))


rule table:
    # one reproduced table of a paper, beside the published one, with its summary rows and match counts
    input:
        fold_results,
        paper=paper_config,
    output:
        table=report("results/{paper}/tables/{table}.csv", caption="../report/table.rst",
                     category="{paper}", subcategory="tables"),
        summary="results/{paper}/tables/{table}_summary.csv",
        counts=report("results/{paper}/stats/{table}_match_counts.csv", caption="../report/match_counts.rst",
                      category="{paper}", subcategory="tables"),
    wildcard_constraints:
        table=r"table[0-9]+",
    log:
        "logs/analyse/{paper}/{table}.log",
    shell:
        "nbrepro analyse --paper-config {input.paper} --results results/{wildcards.paper} "
        "--table {wildcards.table} 2> {log:q}"


rule timings:
    input:
        fold_results,
        paper=paper_config,
    output:
        "results/{paper}/stats/timings.csv",
    shell:
        "nbrepro analyse --paper-config {input.paper} --results results/{wildcards.paper} --timings"


def raw_files(wildcards):
    return expand("resources/raw/{dataset}.arff", dataset=PAPERS[wildcards.paper]["spec"]["datasets"])


def stats_table(wildcards):
    return f"results/{wildcards.paper}/tables/{PAPERS[wildcards.paper]['spec']['text_stats']['table']}.csv"


rule paper_stats:
    # Table 1 from the raw data, and the statistics the paper quotes in its text
    input:
        stats_table,
        raw_files,
        paper=paper_config,
    output:
        expand("results/{{paper}}/stats/{name}.csv", name=PAPER_STATS_FILES),
        "figures/{paper}/figure2.png",
        "figures/{paper}/figure2.svg",
        "figures/{paper}/figure3.png",
        "figures/{paper}/figure3.svg",
    shell:
        "nbrepro paper-stats --paper-config {input.paper} --results results/{wildcards.paper} "
        "--figures figures/{wildcards.paper}"
