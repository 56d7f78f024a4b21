# The readings run (`--config readings=all`, or choice ids): each paper's other readings of what it
# leaves unstated (nbrepro.readings), each a variant of the paper run in results/{paper}/readings/
# {choice}/{reading}/. A reading reruns only the classifiers its patch touches, on the paper's own
# prepared data and folds (its evaluation rules are evaluate.smk's, with those classifiers only);
# its tables and claims read the other classifiers' files from the run it patches. A patch of the
# protocol or the preprocessing prepares its own data and folds. With seeds=K every reading has its
# reseeded runs too. Then each paper's readings summary (nbrepro.analysis.readings): which reading
# fits the printed cells best, and which claims change with a reading.
READING_SEED = {"seed": r"[1-9][0-9]*"}


def run_args(reading, seeded):
    """A params function: which run of the paper a reading's job makes (--reading, and --seed in a reseeded one)."""
    return lambda wildcards: f"--reading {reading}" + (f" --seed {wildcards.seed}" if seeded else "")


for _paper, _readings in READINGS.items():
    for _reading in _readings:
        _tag = re.sub(r"\W", "_", f"{_paper}_{_reading}")

        if own_data(_paper, _reading):

            rule:
                # the reading's data and folds (a patch of the protocol or the preprocessing)
                name: f"prepare_reading_{_tag}"
                conda: "../../environment.yml"
                input:
                    raw=raw_file(_paper, _reading),   # the data set's raw file, or its copy's
                params:
                    paper=str(PAPERS[_paper].path),
                    reading=_reading,
                    registry=config["registry"],
                    settings=prepare_settings_of(_paper, False, _reading),
                output:
                    data=run_prepared(_paper, _reading),
                    folds=run_folds(_paper, False, _reading),
                priority: DATA_PRIORITY
                log: _logs("prepare", False, _reading) + f"{_paper}/{{dataset}}.log"
                shell:
                    "nbrepro prepare --paper-config {params.paper:q} --reading {params.reading} "
                    "--dataset {wildcards.dataset:q} --registry {params.registry:q} --raw {input.raw:q} "
                    "--out-data {output.data:q} --out-folds {output.folds:q} 2> {log:q}"

            if SEED_RUNS[_paper]:

                rule:
                    # a reseeded run's folds of the reading's data
                    name: f"reading_seed_folds_{_tag}"
                    conda: "../../environment.yml"
                    input:
                        data=run_prepared(_paper, _reading),
                    params:
                        paper=str(PAPERS[_paper].path),
                        reading=_reading,
                        settings=prepare_settings_of(_paper, True, _reading),
                    output:
                        run_folds(_paper, True, _reading),
                    wildcard_constraints: **READING_SEED
                    priority: DATA_PRIORITY
                    log: _logs("prepare", True, _reading) + f"{_paper}/{{dataset}}.log"
                    shell:
                        "nbrepro folds --paper-config {params.paper:q} --reading {params.reading} --seed {wildcards.seed} "
                        "--dataset {wildcards.dataset:q} --prepared {input.data:q} --out {output:q} 2> {log:q}"

        for _seeded, _k in reading_runs(_paper):
            for _job in reading_jobs(_paper, _reading):

                rule:
                    name: f"{_job.name}_seeds" if _seeded else _job.name
                    conda: "../../environment.yml"
                    input:
                        data=run_prepared(_paper, _reading),
                        folds=run_folds(_paper, _seeded, _reading),
                    params:
                        **evaluate_params(_paper, _job, _seeded, _reading),
                        data=lambda wildcards, input: (
                            f"--prepared {shlex.quote(input.data)} --folds {shlex.quote(input.folds)}"),
                    output:
                        **evaluate_results(_paper, _job, _seeded, _reading),
                    wildcard_constraints:
                        dataset=datasets_pattern(_job.datasets),
                        **READING_SEED,
                    priority: dataset_priority(_paper, _job.job)
                    resources:
                        **job_resources(_paper, _job.job),
                    log: evaluate_log(_paper, _job, _seeded, _reading)
                    benchmark: evaluate_benchmark(_paper, _job, _seeded, _reading)
                    shell: EVALUATE

            rule:
                # the reading's tables (rule table's twin), the untouched classifiers read from the patched run
                name: f"reading_table_{_tag}" + ("_seeds" if _seeded else "")
                conda: "../../environment.yml"
                input:
                    with_seed(reading_table_inputs(_paper, _reading, _seeded)),
                    paper=str(PAPERS[_paper].path),
                params:
                    run=run_args(_reading, _seeded),
                    registry=config["registry"],
                    results=with_seed([run_results(_paper, _seeded, "", _reading)]),
                    base=with_seed([base_run(_paper, _seeded)]),
                output:
                    [run_results(_paper, _seeded, f, _reading) for f in paths.table_files("{table}")],
                wildcard_constraints:
                    table=r"[A-Za-z][A-Za-z0-9]*",
                    **READING_SEED,
                log: _logs("analyse", _seeded, _reading) + f"{_paper}/{{table}}.log"
                shell:
                    "nbrepro analyse --paper-config {input.paper:q} {params.run} --results {params.results} "
                    "--base-results {params.base} --registry {params.registry:q} --table {wildcards.table} 2> {log:q}"

            if "claims" in output_files(PAPERS[_paper])[0]:

                rule:
                    # the reading's statistics and claims (paper-stats without the figures)
                    name: f"reading_stats_{_tag}" + ("_seeds" if _seeded else "")
                    conda: "../../environment.yml"
                    input:
                        with_seed(reading_stats_inputs(_paper, _reading, _seeded)),
                        paper=str(PAPERS[_paper].path),
                    params:
                        run=run_args(_reading, _seeded),
                        registry=config["registry"],
                        results=with_seed([run_results(_paper, _seeded, "", _reading)]),
                        base=with_seed([base_run(_paper, _seeded)]),
                    output:
                        [run_results(_paper, _seeded, paths.stats(n), _reading) for n in output_files(PAPERS[_paper])[0]],
                    wildcard_constraints: **READING_SEED
                    log: _logs("analyse", _seeded, _reading) + f"{_paper}/paper_stats.log"
                    shell:
                        "nbrepro paper-stats --paper-config {input.paper:q} {params.run} --results {params.results} "
                        "--base-results {params.base} --registry {params.registry:q} 2> {log:q}"

    if _readings:

        rule:
            # which reading fits the printed cells best, which claims change with a reading
            name: f"readings_{_paper}"
            conda: "../../environment.yml"
            input:
                reading_summary_inputs(_paper),
                paper=str(PAPERS[_paper].path),
            params:
                results=paths.results(_paper),
                figures=paths.figures(_paper),
                readings=" ".join(f"--reading {r}" for r in _readings),
            output:
                reading_outputs(_paper),
            log: f"logs/analyse/{_paper}/readings.log"
            shell:
                f"nbrepro readings --paper-config {{input.paper:q}} --results {{params.results}} --seeds {SEEDS} "
                "--figures {params.figures} {params.readings} 2> {log:q}"
