def paper_tables(wildcards):
    return [f"results/{wildcards.paper}/{kind}" for t in PAPERS[wildcards.paper]["spec"]["tables"]
            for kind in (f"tables/{t}.csv", f"tables/{t}_summary.csv", f"stats/{t}_match_counts.csv")]


def paper_figures(wildcards):
    return [f"figures/{wildcards.paper}/{t}_reproduced_vs_published.{ext}"
            for t in PAPERS[wildcards.paper]["spec"]["tables"] for ext in ("png", "svg")]


rule figure:
    input:
        table="results/{paper}/tables/{table}.csv",
    output:
        png=report("figures/{paper}/{table}_reproduced_vs_published.png",
                   caption="../report/reproduced_vs_published.rst", category="{paper}", subcategory="figures"),
        svg="figures/{paper}/{table}_reproduced_vs_published.svg",
    shell:
        "nbrepro figure --table {input.table:q} --out figures/{wildcards.paper}/{wildcards.table}_reproduced_vs_published"


def paper_report_extras(wildcards):
    spec = PAPERS[wildcards.paper]["spec"]
    extra = [b["file"] for b in captioned_files(spec)]
    if "text_stats" in spec:
        extra += [f"results/{wildcards.paper}/stats/{f}.csv" for f in PAPER_STATS_FILES]
        extra += [f"figures/{wildcards.paper}/figure{i}.svg" for i in (2, 3)]
    return extra


rule report:
    input:
        paper_tables,
        paper_figures,
        paper_report_extras,
        "results/{paper}/stats/timings.csv",
        paper=paper_config,
    output:
        report("results/{paper}/report.html", caption="../report/paper_report.rst", category="{paper}"),
    shell:
        "nbrepro report --paper-config {input.paper} --results results/{wildcards.paper} "
        "--figures figures/{wildcards.paper}"


rule index:
    input:
        expand("results/{paper}/report.html", paper=PAPERS),
        configs=[p["path"] for p in PAPERS.values()],
    output:
        "results/index.html",
    shell:
        "nbrepro index --results results {input.configs}"
