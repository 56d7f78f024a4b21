from types import SimpleNamespace


def dataset_level_predictions(wildcards):
    """The predictions files, for papers whose tables use a metric computed from all runs' predictions."""
    from nbrepro.metrics import paper_metrics

    spec = PAPERS[wildcards.paper]["spec"]
    if not any(m.level == "dataset" for m in paper_metrics(spec).values()):
        return []
    return expand("results/{paper}/predictions/{dataset}/{classifier}.parquet", paper=wildcards.paper,
                  dataset=spec["datasets"], classifier=list(spec["classifiers"]))


rule table:
    # one reproduced table of a paper, beside the published one, with its summary rows and match counts
    input:
        fold_results,
        dataset_level_predictions,
        paper=paper_config,
        registry=config["registry"],
    output:
        table=report("results/{paper}/tables/{table}.csv", caption="../report/table.rst",
                     category="{paper}", subcategory="tables"),
        summary="results/{paper}/tables/{table}_summary.csv",
        counts=report("results/{paper}/stats/{table}_match_counts.csv", caption="../report/match_counts.rst",
                      category="{paper}", subcategory="tables"),
    wildcard_constraints:
        table=r"table[0-9]+[a-z]?",
    log:
        "logs/analyse/{paper}/{table}.log",
    shell:
        "nbrepro analyse --paper-config {input.paper} --results results/{wildcards.paper} "
        "--registry {input.registry} --table {wildcards.table} 2> {log:q}"


rule timings:
    input:
        fold_results,
        paper=paper_config,
    output:
        "results/{paper}/stats/timings.csv",
    log:
        "logs/analyse/{paper}/timings.log",
    shell:
        "nbrepro analyse --paper-config {input.paper} --results results/{wildcards.paper} --timings 2> {log:q}"


def stats_inputs(paper):
    spec = PAPERS[paper]["spec"]
    wc = SimpleNamespace(paper=paper)
    files = [f"results/{paper}/tables/{t}{s}.csv" for t in spec["tables"] for s in ("", "_summary")]
    if (spec.get("analysis") or {}).get("dataset_table") is not None:
        files += raw_files(wc)
    if any(f.get("kind") == "density" for f in (spec.get("figures") or {}).values()):
        files += fitted_results(wc)
    return files


for _paper in PAPERS:
    if not any(paper_stats_outputs(_paper)):
        continue

    rule:
        # Table 1 from the raw data, the statistics, figures and claims the paper config declares
        name:
            f"paper_stats_{_paper}"
        input:
            stats_inputs(_paper),
            paper=PAPERS[_paper]["path"],
            registry=config["registry"],
        output:
            paper_stats_outputs(_paper),
        params:
            paper=_paper,
        log:
            f"logs/analyse/{_paper}/paper_stats.log",
        shell:
            "nbrepro paper-stats --paper-config {input.paper} --results results/{params.paper} "
            "--registry {input.registry} --figures figures/{params.paper} 2> {log:q}"
