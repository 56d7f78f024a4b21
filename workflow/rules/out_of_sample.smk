# The out-of-sample run (`--config out_of_sample=true`, or data-set names; nbrepro.out_of_sample):
# each paper's out-of-sample paper (common.smk) runs through every other rule as a paper does; here
# each claim's verdict on it is set beside the paper's own.


def out_of_sample_outputs(paper):
    """What the comparison of a paper with its out-of-sample run writes (none without claims)."""
    spec = PAPERS[paper]
    if paper not in OUT_OF_SAMPLE or "claims" not in output_files(spec)[0]:
        return []
    return [paths.results(paper, paths.CLAIMS_OUT_OF_SAMPLE)]


for _paper, _derived in OUT_OF_SAMPLE.items():
    if out_of_sample_outputs(_paper):

        rule:
            name: f"out_of_sample_{_paper}"
            conda: "../../environment.yml"
            input:
                in_sample=paths.results(_paper, paths.stats("claims")),
                out_of_sample=paths.results(_derived, paths.stats("claims")),
            output:
                out_of_sample_outputs(_paper),
            log: f"logs/analyse/{_paper}/out_of_sample.log"
            shell:
                "nbrepro out-of-sample --in-sample {input.in_sample:q} --out-of-sample {input.out_of_sample:q} "
                "--out {output[0]:q} 2> {log:q}"
