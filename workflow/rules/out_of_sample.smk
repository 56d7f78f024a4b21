# The out-of-sample run (`--config out_of_sample=true`, or data-set names; nbrepro.out_of_sample):
# each paper's out-of-sample paper (common.smk) runs through every other rule as a paper does; here
# each claim's verdict on it is set beside the paper's own.


def out_of_sample_outputs(paper):
    """What the comparison of a paper with its out-of-sample run writes (none without claims): each
    claim's two verdicts; with a table of values, that table extended by the pool's rows, the mean
    ranks on both sides and their figure."""
    spec = PAPERS[paper]
    if paper not in OUT_OF_SAMPLE or "claims" not in output_files(spec)[0]:
        return []
    out = [paths.results(paper, paths.CLAIMS_OUT_OF_SAMPLE)]
    if main_table(spec) is not None:
        out += [paths.results(paper, paths.TABLE_OUT_OF_SAMPLE), paths.results(paper, paths.RANKS_OUT_OF_SAMPLE),
                *(paths.figures(paper, paths.RANKS_OUT_OF_SAMPLE_FIGURE, ext) for ext in ("png", "svg"))]
    return out


def out_of_sample_tables(paper):
    """The main table's two files, the paper's and its out-of-sample run's (none: no table of values)."""
    name = main_table(PAPERS[paper])
    if name is None:
        return {}
    return {"in_table": paths.results(paper, paths.table(name)),
            "out_table": paths.results(OUT_OF_SAMPLE[paper], paths.table(name))}


for _paper, _derived in OUT_OF_SAMPLE.items():
    if out_of_sample_outputs(_paper):

        rule:
            name: f"out_of_sample_{_paper}"
            conda: "../../environment.yml"
            input:
                unpack(lambda wildcards, p=_paper: out_of_sample_tables(p)),
                in_sample=paths.results(_paper, paths.stats("claims")),
                out_of_sample=paths.results(_derived, paths.stats("claims")),
                paper=str(PAPERS[_paper].path),
                derived=str(PAPERS[_derived].path),
            output:
                out_of_sample_outputs(_paper),
            params:
                tables=lambda wildcards, input, output: (
                    f"--paper-config {shlex.quote(input.paper)} --derived-config {shlex.quote(input.derived)} "
                    f"--in-table {shlex.quote(input.in_table)} --out-table {shlex.quote(input.out_table)} "
                    f"--table-out {shlex.quote(output[1])} --ranks-out {shlex.quote(output[2])} "
                    f"--figure {shlex.quote(output[3].removesuffix('.png'))}" if len(output) > 1 else ""),
            log: f"logs/analyse/{_paper}/out_of_sample.log"
            shell:
                "nbrepro out-of-sample --in-sample {input.in_sample:q} --out-of-sample {input.out_of_sample:q} "
                "--out {output[0]:q} {params.tables} 2> {log:q}"
