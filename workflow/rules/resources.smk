# SPDX-License-Identifier: GPL-3.0-or-later
# What an evaluation job asks a cluster for and which job runs first: the measured job costs of
# nbrepro.plan.JobCosts (benchmarks/results/{paper}_jobs.csv); none of it changes a result.
job_resources, dataset_priority = PLAN.costs.resources, PLAN.costs.priority
