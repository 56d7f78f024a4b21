# SPDX-License-Identifier: GPL-3.0-or-later
# The evaluation rules (nbrepro.plan.EvaluationRule): a job runs some of a paper's classifiers on one
# data set in one process and writes one file per classifier; each rule serves every run whose jobs
# write the same classifiers' files (the main run and its reseeded runs; a reading's part of a job),
# its files named by the paper and a {tail}: empty for the main run, else the run's seeds/… or readings/… part.
# How a job gets its data (`how`): `inline`, it prepares the data set and makes the folds itself (a
# paper with one job name); `reseeded`, it makes its reseeded run's folds; `prepared`, rule prepare or
# seed_folds made them.
EVALUATE = (
    "nbrepro evaluate --paper-config {params.paper:q} {params.seed} --dataset {wildcards.dataset:q} "
    "{params.classifiers} {params.data} {params.outputs} > {log:q} 2>&1"
)


for _rule in PLAN.evaluation_rules:

    rule:
        name:
            _rule.name
        input:
            unpack(PLAN.evaluate_inputs(_rule)),
        output:
            **_rule.outputs(),
        log:
            _rule.log,
        benchmark:
            _rule.benchmark  # benchmarks/paper_jobs.py reads them
        wildcard_constraints:
            tail=_rule.tail_pattern,
            dataset=_rule.dataset_pattern,
        priority: dataset_priority(_rule.paper, _rule.job)  # longest first: no long job left to run alone at the end
        conda:
            "../../environment.yml"
        resources:
            **job_resources(_rule.paper, _rule.job),  # for a cluster (profiles/slurm)
        params:
            **PLAN.evaluate_params(_rule),  # the command's arguments, and the settings that rerun it when edited
        shell:
            EVALUATE
