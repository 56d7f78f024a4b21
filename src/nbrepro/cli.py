# SPDX-License-Identifier: GPL-3.0-or-later
"""``nbrepro`` command line: what the Snakemake rules call. Imports stay lazy to keep job start-up cheap."""
from __future__ import annotations

import argparse
import hashlib
import logging
import os
import sys
from pathlib import Path

from . import paths
from .io import read_csv


def _paper(args):
    """The job's paper (its reading, its reseeded run), read as its planning checked it: read only, so
    the registries, and with them numba, scikit-learn and scipy, are imported only by the jobs that use them."""
    from .variants import variant

    return variant(args.paper_config, seed=getattr(args, "seed", 0), reading=getattr(args, "reading", None) or "")


def _results(args, paper):
    """The job's results folder; a reading's (``--base-results``: the run it patches) reads the
    per-fold files of the classifiers its patch leaves alone from there (``paths.RunFolder``)."""
    if not getattr(args, "base_results", None):
        return Path(args.results)
    from .paper.readings import touched
    from .variants import variant

    default = variant(args.paper_config, seed=args.seed)
    t = touched(default, paper)
    return paths.RunFolder(args.results, args.base_results, t.classifiers, t.datasets)


def cmd_fetch(args):
    from .data.fetch import fetch_dataset  # not via experiment: a fetch job needs no classifiers

    # the workflow passes its mirrors and OpenML switch in the environment (workflow/rules/common.smk)
    mirrors = args.mirror or [m for m in os.environ.get("NBREPRO_MIRRORS", "").split(os.pathsep) if m]
    use_openml = not args.no_openml and os.environ.get("NBREPRO_OPENML", "1") != "0"
    timeout = float(os.environ.get("NBREPRO_OPENML_TIMEOUT") or 10.0)   # config openml_timeout
    src = fetch_dataset(args.dataset, args.registry, args.out, mirrors, use_openml,
                        Path(args.openml_cache) if args.openml_cache else None, timeout)
    print(f"{args.dataset}: {src}")
    from .data.fetch import pin_lines, read_source
    from .data.registry import registry_entry

    info = read_source(Path(args.out))
    if registry_entry(args.registry, args.dataset).sha256 is None and "data_sha256" in info:
        # an entry with only an openml_id: the console (stdout) says what to pin, not only the job's log
        print(f"{args.dataset}: not pinned; add to its entry in {args.registry}: "
              f"{pin_lines(info)}")


def cmd_ship(args):
    import tempfile

    from .data.arff import read_attributes
    from .data.fetch import SHIPPED, ship
    from .data.user import csv_to_arff, registry_block
    from .runtime.location import checkout

    if not args.to and checkout() is None:
        raise SystemExit("nbrepro ship: give --to DIR: nbrepro is installed (not a checkout), and it does not write "
                         f"into its own package folder {SHIPPED}")
    folder = Path(args.to) if args.to else SHIPPED
    for given in map(Path, args.arff):
        arff = given
        if given.suffix.lower() == ".csv":   # converted to ARFF, its class last
            if not given.is_file():
                raise FileNotFoundError(2, "No such file", str(given))
            arff = Path(tempfile.mkdtemp()) / f"{given.stem}.arff"
            csv_to_arff(given, args.class_column, arff)
        elif args.class_column:
            raise SystemExit(f"nbrepro ship: --class is for a CSV file; {given} is ARFF (name its class in the "
                             "registry entry's class_attribute)")
        digests = ship(arff, folder)
        cls = read_attributes(arff)[-1]
        print(f"{given.name} -> {folder / (arff.name + '.xz')}; its registry entry:")
        print("\n".join("  " + line for line in
                        registry_block(arff.stem, arff.name, digests, len(cls.values or ())).splitlines()))


def cmd_prepare(args):
    from .evaluation.experiment import prepare

    prepare(_paper(args), args.dataset, args.registry, args.raw, args.out_data, args.out_folds)


def cmd_folds(args):
    from .evaluation.experiment import write_folds

    write_folds(_paper(args), args.dataset, args.prepared, args.out)


def cmd_evaluate(args):
    from .evaluation.experiment import evaluate_many, prepare, write_folds

    paper = _paper(args)
    labels = args.classifier
    if len(labels) > 1 and "{classifier}" not in args.out_folds:
        raise SystemExit("evaluate: with several --classifier, the output paths need a {classifier} placeholder")
    if args.raw is not None:
        # prepare in the same process: a per-dataset job pays the start-up (~3 s) once, not twice
        prepare(paper, args.dataset, args.registry, args.raw, args.prepared, args.folds)
    elif args.make_folds:
        write_folds(paper, args.dataset, args.prepared, args.folds)  # a reseeded run's folds, in the same process

    def path(pattern, label):
        return None if pattern is None else pattern.replace("{classifier}", label)

    outputs = {label: (path(args.out_folds, label), path(args.out_predictions, label), path(args.out_fitted, label))
               for label in labels}
    # one process for several classifiers: the imports and the data are read once
    for label, res in evaluate_many(paper, args.dataset, labels, args.prepared, args.folds, outputs):
        metric = res.columns[5]  # the first metric, after variant, run, fold, n_train, n_test
        print(f"{args.dataset} {label}: {metric} {res[metric].mean():.4g} over {len(res)} folds", flush=True)


def cmd_analyse(args):
    from .analysis.tables import analyse_table, timings, write_outputs

    paper = _paper(args)
    results = _results(args, paper)
    if args.timings:
        write_outputs(timings(paper, results), args.results)
    registry = None
    if any(t.datasets for t in paper.tables.values()):
        from .data.registry import load_registry

        registry = load_registry(args.registry)
    for name in args.table or ([] if args.timings else list(paper.tables)):
        write_outputs(analyse_table(paper, name, results, registry), args.results)


def _read_tables(paper, res: Path) -> dict:
    """Each reproduced table, and its summary rows as "{table}_summary", as the analyse job wrote them."""

    sig = {"significance": object, "published_significance": object}
    out = {}
    for name in paper.tables:
        t = read_csv(res / paths.table(name), dtype=sig)
        out[name] = t.fillna({c: "" for c in sig if c in t.columns})
        out[f"{name}_summary"] = read_csv(res / paths.table_summary(name))
    return out


def cmd_paper_stats(args):
    from .analysis.figures import FIGURE_KINDS
    from .analysis.paper_stats import run
    from .analysis.tables import write_outputs
    from .data.registry import load_registry

    paper = _paper(args)
    res = _results(args, paper)
    full = None
    if paper.derived_from.get("kind") == "cut":   # the printed verdicts: on the paper's full printed tables
        from .paper import read_paper

        full = read_paper(paper.derived_from["config"])
    outputs, figures = run(paper, res, Path(args.raw), load_registry(args.registry), _read_tables(paper, res), full)
    write_outputs(outputs, args.results)
    for name, data in (figures.items() if args.figures else ()):  # a reseeded run's statistics need no figures
        spec = paper.figures[name]
        if data.plot.get("not_computable"):
            from .analysis.figures import draw_note

            draw_note(spec.get("title", name), data.plot["not_computable"], Path(args.figures) / name)
            continue
        FIGURE_KINDS[spec["kind"]].draw(data, spec, paper, Path(args.figures) / name)


def cmd_seed_bands(args):
    from .analysis.seed_bands import compute
    from .analysis.tables import write_outputs
    from .variants import seeded_runs

    paper = _paper(args)
    write_outputs(compute(paper, args.results, seeded_runs(paper, args.seeds)), args.results)


def cmd_readings(args):
    from .analysis.reading_fits import compute, draw
    from .analysis.tables import write_outputs
    from .paper.readings import touched
    from .variants import seeded_runs, variant

    paper = _paper(args)
    variants = {r: variant(args.paper_config, reading=r) for r in args.runs}
    outputs = compute(paper, variants, args.results, seeded_runs(paper, args.seeds),
                      {r: touched(paper, v) for r, v in variants.items()})
    write_outputs(outputs, args.results)
    draw(outputs[paths.READINGS], paper, Path(args.figures) / paths.READINGS_FIGURE)


def cmd_out_of_sample(args):
    """Each claim's verdict in and out of sample; with the main table's two files, that table with the
    pool's rows under the paper's, each method's mean rank on both sides, and their figure."""
    from .io import atomic_path
    from .variants.out_of_sample import compare_claims

    written = [(compare_claims(read_csv(args.in_sample), read_csv(args.out_of_sample)), args.out)]
    if args.in_table:
        from .analysis.tables import label_metric, rank_decimals
        from .paper import read_paper
        from .report.comparison_figures import rank_shift_figure
        from .variants.out_of_sample import extended_table, main_table, rank_shift

        paper, derived = read_paper(args.paper_config), read_paper(args.derived_config)
        name = main_table(paper)
        spec = paper.tables[name]
        table = extended_table(read_csv(args.in_table), read_csv(args.out_table), derived.derived_from["user_datasets"])
        higher = {m: label_metric(paper, spec, m).higher_is_better for m in dict.fromkeys(table["metric"])}
        ranks = rank_shift(table, higher, paper.significance.alpha, rank_decimals(paper, name))
        written += [(table, args.table_out), (ranks, args.ranks_out)]
        rank_shift_figure(ranks, f"{paper.name}, {name}: mean ranks on its data sets and out of sample",
                          Path(args.figure))
    for frame, path in written:
        with atomic_path(path) as tmp:
            frame.to_csv(tmp, index=False, lineterminator="\n")


def cmd_figure(args):

    from .report.comparison_figures import reproduced_vs_published

    t = read_csv(args.table)
    reproduced_vs_published(
        t, f"{Path(args.table).parent.parent.name} {Path(args.table).stem}: reproduced vs published", Path(args.out)
    )


def cmd_report(args):
    import pandas as pd

    from . import __version__
    from .analysis.paper_stats import output_files
    from .report.html import cpu_time, paper_report, run_report
    from .report.shown_figures import copy_shown, shown_figures

    paper = _paper(args)
    res = Path(args.results)
    outputs, counts = {}, []
    for name, table in _read_tables(paper, res).items():
        outputs[paths.table(name)] = table
    for name in paper.tables:
        counts.append(read_csv(res / paths.match_counts(name)))
    outputs["stats/match_counts.csv"] = pd.concat(counts, ignore_index=True)
    for extra in paper.captioned_files():
        outputs[extra.file] = pd.read_csv(Path(args.root) / extra.file)
    stats_files, figures = output_files(paper)
    for f in stats_files:
        outputs[paths.stats(f)] = read_csv(res / paths.stats(f), keep_default_na=False, na_values=[""])
    if args.seeds:  # the reseeding run's bands and stability (rule seed_bands_{paper})
        from .variants.reseed import reseed

        for f in (paths.SEED_BANDS, paths.NOISE_FLOOR, paths.SEED_STABILITY):
            if (res / f).is_file() or f != paths.SEED_STABILITY:
                outputs[f] = read_csv(res / f, keep_default_na=False, na_values=[""])
        outputs["seed_changes"] = list(reseed(paper, 1).changes)
    if args.readings:  # the readings run's summary (rule readings_{paper})
        for f in (paths.READINGS, paths.READING_CLAIMS):
            outputs[f] = read_csv(res / f, keep_default_na=False, na_values=[""])
    if args.out_of_sample:  # the out-of-sample run's comparison (rule out_of_sample_{paper})
        from .paper import read_paper
        from .variants.out_of_sample import main_table

        derived = read_paper(args.out_of_sample)
        outputs["out_of_sample"] = (read_csv(res / paths.CLAIMS_OUT_OF_SAMPLE, keep_default_na=False,
                                             na_values=[""]), derived)
        if main_table(paper) is not None:   # the main table extended by the pool's rows, and the ranks on both
            for f in (paths.TABLE_OUT_OF_SAMPLE, paths.RANKS_OUT_OF_SAMPLE):
                outputs[f] = read_csv(res / f, keep_default_na=False, na_values=[""])
            outputs["out_of_sample_table_name"] = main_table(paper)
    outputs["data_sources"] = _data_sources(paper, Path(args.raw), Path(args.registry))
    outputs["config_sha256"] = hashlib.sha256(Path(args.paper_config).read_bytes()).hexdigest()
    outputs["nbrepro_version"] = __version__
    timings = res / paths.TIMINGS
    timings = (
        read_csv(timings)
        if timings.is_file()
        else pd.DataFrame(columns=["dataset", "method", "fit_seconds", "predict_seconds"])
    )
    provenance, commit = _run_provenance(args)
    provenance["data sets read from"] = _fetched_from(paper, Path(args.raw))
    outputs["run"] = (
        f"made {provenance['report made (UTC)']} UTC after {cpu_time(_seconds(timings))} of fitting "
        "and predicting" + (f", commit {commit[:12]}" if commit else "")
    )
    # the figures the page shows, copied beside it (results/{paper}/figures/): results/ stands alone
    shown = copy_shown(shown_figures(paper, figures, args.readings, "out_of_sample_table_name" in outputs),
                       Path(args.figures), res)
    if paths.READINGS_FIGURE in shown:
        outputs["readings_figure"] = shown.pop(paths.READINGS_FIGURE)
    if paths.RANKS_OUT_OF_SAMPLE_FIGURE in shown:
        outputs["out_of_sample_figure"] = shown.pop(paths.RANKS_OUT_OF_SAMPLE_FIGURE)
    paper_report(paper, outputs, list(shown.values()), res / paths.REPORT)
    run_report(paper, timings, res / paths.RUN_PAGE, provenance)


def _seconds(timings) -> float:
    """Fitting and predicting, summed over a paper's ``stats/timings.csv``."""
    return float(timings["fit_seconds"].sum() + timings["predict_seconds"].sum())


def _git_commit(root) -> tuple[str, bool]:
    """The checkout's commit ("" outside a git checkout) and whether tracked files differ from it."""
    import subprocess

    def git(*cmd):
        try:
            out = subprocess.run(["git", *cmd], cwd=root, capture_output=True, text=True, timeout=10)
            return out.stdout.strip() if out.returncode == 0 else ""
        except OSError:
            return ""

    commit = git("rev-parse", "HEAD")
    return commit, bool(git("status", "--porcelain", "--untracked-files=no")) if commit else False


def _run_provenance(args) -> tuple[dict, str]:
    """When and on what the report was made (machine-dependent, for run.html), and the commit
    ("" outside a git checkout)."""
    import datetime
    import platform

    from . import __version__

    commit, dirty = _git_commit(args.root)
    return (
        {
            "report made (UTC)": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S"),
            "nbrepro": __version__,
            "commit": (commit + (" (with uncommitted changes)" if dirty else "")) if commit else "not a git checkout",
            "paper config": str(args.paper_config),
            "python": platform.python_version(),
            "machine": f"{platform.machine()}, {platform.system()}",
        },
        commit,
    )


def _data_sources(paper, raw: Path, registry: Path):
    """Per dataset: where its data come from and under which licence (the registry's origin and
    licence) and the sha256 of the file used. Not which copy was read (shipped, mirror, OpenML):
    the same bytes from another place are the same result, so that is in run.html."""
    import pandas as pd

    from .data.fetch import read_source
    from .data.registry import load_registry

    entries = load_registry(registry)
    rows = []
    for ds in paper.datasets:
        info = read_source(raw / f"{ds}.arff")
        spec = entries.get(ds)
        extra = spec.extra if spec is not None else {}
        origin = extra.get("origin") or ("generated by nbrepro.data.synthetic" if extra.get("generator") else "")
        rows.append(
            {"dataset": ds, "origin": origin, "licence": extra.get("licence", ""), "sha256": info.get("sha256", "")}
        )
    return pd.DataFrame(rows)


def _fetched_from(paper, raw: Path) -> str:
    """Which copies this run read, counted by kind (shipped 12, mirror 3 …), for run.html."""
    from collections import Counter

    from .data.fetch import read_source

    kinds = Counter(
        str(read_source(raw / f"{ds}.arff").get("source", "unknown:")).partition(":")[0] for ds in paper.datasets
    )
    return ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items()))


def cmd_index(args):
    import pandas as pd

    from .paper import read_paper
    from .report.claims_page import claims_page
    from .report.html import index_report

    rows = []
    results = Path(args.results)
    configs = list(args.paper_configs) + _earlier_papers(results, args.paper_configs, args.paper_dirs)
    earlier = set(configs[len(args.paper_configs):])
    for cfg in configs:
        p = read_paper(cfg)
        res = results / p.name
        counts = pd.concat([read_csv(res / paths.match_counts(t)) for t in p.tables], ignore_index=True)
        row = {"name": p.name, "title": (p.title or p.name) + (" (an earlier run)" if cfg in earlier else ""),
               "counts": counts}
        if (res / paths.stats("claims")).is_file():
            row["claims"] = read_csv(res / paths.stats("claims"))
        if (res / paths.stats("printed_audit")).is_file():
            row["audit"] = read_csv(res / paths.stats("printed_audit"))
        if (res / paths.TIMINGS).is_file():
            row["seconds"] = _seconds(read_csv(res / paths.TIMINGS))
        if args.seeds and (res / paths.SEED_STABILITY).is_file():
            row["seeds"] = read_csv(res / paths.SEED_STABILITY)
        if args.out_of_sample and (res / paths.CLAIMS_OUT_OF_SAMPLE).is_file():   # the out-of-sample run's
            row["out_of_sample"] = read_csv(res / paths.CLAIMS_OUT_OF_SAMPLE, keep_default_na=False, na_values=[""])
        if args.readings and (res / paths.READINGS).is_file():   # the readings run's
            row["readings"] = read_csv(res / paths.READING_CLAIMS)
            row["reading_fit"] = read_csv(res / paths.READINGS)
        cells = [t for t, spec in p.tables.items() if spec.compared_cells]
        if cells:  # the report's copy of figures/{paper}/{table}_reproduced_vs_published.svg, in results/{paper}/
            figure = results / p.name / paths.SHOWN_FIGURES / f"{paths.reproduced_vs_published(cells[0])}.svg"
            if figure.is_file():
                row["figure"] = os.path.relpath(figure, results)
        rows.append(row)
    speed = pd.read_csv(args.speed) if args.speed else None
    suite_run = pd.read_csv(args.suite_run) if args.suite_run else None
    index_report(rows, results / paths.INDEX_PAGE, speed, suite_run)
    claims_page(
        [dict(r, gaps=read_paper(cfg).gaps) for r, cfg in zip(rows, configs, strict=True)],
        results / paths.CLAIMS_PAGE,
        results / paths.CLAIMS_CSV,
    )


def _earlier_papers(results: Path, configs, paper_dirs) -> list[str]:
    """The configs of papers whose report an earlier run left in ``results`` (built one at a time,
    ``papers=[a]`` then ``papers=[b]``): found by name in ``paper_dirs``, in name order."""
    named = {Path(c).stem for c in configs}
    out = []
    for report in sorted(results.glob(f"*/{paths.REPORT}")):
        name = report.parent.name
        if name in named:
            continue
        found = [Path(d) / f"{name}.yaml" for d in paper_dirs if (Path(d) / f"{name}.yaml").is_file()]
        if found and all((report.parent / paths.match_counts(t)).is_file() for t in _table_names(found[0])):
            out.append(str(found[0]))
    return out


def _table_names(config: Path) -> list[str]:
    from .paper import load_yaml

    return list((load_yaml(config) or {}).get("tables") or {})


def cmd_crate(args):
    from .data.registry import load_registry
    from .paper import read_paper
    from .report.crate import copy_inputs, write_crate

    papers = {p.name: p for p in (read_paper(cfg) for cfg in args.paper_configs)}
    results = Path(args.results)
    copy_inputs(
        results,
        {"config.yaml": Path(args.config), **{f"papers/{name}.yaml": p.path for name, p in papers.items()}},
        registry=Path(args.registry),
        datasets=sorted({d for p in papers.values() for d in p.datasets}),
    )
    commit, dirty = _git_commit(args.root)
    out = write_crate(
        results,
        papers,
        load_registry(args.registry),
        Path(args.raw),
        commit + (" (with uncommitted changes)" if dirty else ""),
        f"nbrepro: {', '.join(p.title or n for n, p in papers.items())}",
    )
    print(f"wrote {out}")


def cmd_worker(args):
    """Serve this run's jobs, each forked from here (``nbrepro.runtime.worker``; started by the workflow's onstart)."""
    from .runtime import worker

    def preload():  # what a job imports, imported once
        import pyarrow.parquet  # noqa: F401

        from . import libm  # noqa: F401
        from .analysis import paper_stats  # noqa: F401
        from .evaluation import experiment  # noqa: F401

    worker.serve(args.socket, _main, preload, args.parent)


def cmd_fingerprint(args):
    from .fingerprint import CORRUPT, fingerprint, missing_files

    if not Path(args.results).is_dir():   # an empty fingerprint would read as "no results", not as a typo
        raise FileNotFoundError(2, "No such directory", str(args.results))
    corrupt = []
    for path, digest in fingerprint(args.results):
        print(f"{digest}  {path}")
        if digest == CORRUPT:
            corrupt.append(path)
    if corrupt:
        print(
            f"nbrepro: error: {len(corrupt)} result file(s) cannot be read or are not what their job wrote, "
            f"e.g. {corrupt[0]}: delete them and rerun snakemake to make them again",
            file=sys.stderr,
        )
        return 1
    if args.config and Path(args.config).exists():
        split = lambda text: text.split(",") if text else None  # noqa: E731
        missing, unchecked = missing_files(args.results, args.config, split(args.papers), args.seeds,
                                           split(args.datasets))
        for path in missing:
            print(f"MISSING  {path}")
        if unchecked:   # a run of some papers: the others' files are not asked for, and said so in one line
            print(f"nbrepro fingerprint: {args.results} holds no folder of {', '.join(unchecked)}: their files are not "
                  f"checked (name the papers a run built with --papers, a cut's data sets with --datasets)",
                  file=sys.stderr)
        if missing:
            print(
                f"nbrepro: error: {len(missing)} result file(s) that {args.config} asks for are missing "
                f"(rerun snakemake)",
                file=sys.stderr,
            )
            return 1
    return 0


def _shift(text: str) -> int:
    """A reseeding shift: a whole number, 0 or more."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number 0 or more, got {text!r}")
    return int(text)


def main(argv=None):
    from .runtime import worker

    job = not worker.in_child() and (worker.ENV in os.environ or worker.CPU_ENV in os.environ)
    if job and worker.ENV in os.environ:
        # a job of a local Snakemake run: forked from the run's warm worker when one answers (nbrepro.runtime.worker)
        code = worker.delegate(sys.argv[1:] if argv is None else list(argv))
        if code is not None:
            return code
    try:
        return _main(argv)
    finally:
        if job:  # a job of a Snakemake run in its own process: its log ends with its CPU time too
            worker.report_cpu()


def _main(argv=None):
    from .runtime._malloc import keep_freed_memory

    keep_freed_memory()  # a job's process: freed arrays reused, not faulted in afresh (nbrepro.runtime._malloc)
    ap = argparse.ArgumentParser(prog="nbrepro", description=__doc__)
    ap.add_argument("-v", "--verbose", action="store_true")
    sub = ap.add_subparsers(dest="cmd", required=True)

    def paper_args(p):
        p.add_argument("--paper-config", required=True, help="config/papers/{paper}.yaml")
        p.add_argument(
            "--seed",
            type=_shift,
            default=0,
            metavar="K",
            help="the paper with every seed shifted by K (nbrepro.variants.reseed): a reseeded run "
                 "(default 0: as configured)",
        )
        p.add_argument("--reading", default="", metavar="CHOICE/READING",
                       help="the paper under this reading of one of its choices (nbrepro.paper.readings; "
                       "default: the main run)")

    p = sub.add_parser("fetch", help="put a dataset in the cache: the shipped copy, else a mirror's, else OpenML's")
    p.add_argument("--dataset", required=True)
    p.add_argument("--registry", default="config/datasets.yaml")
    p.add_argument(
        "--mirror",
        action="append",
        help="folder with ARFF copies (repeatable; default: $NBREPRO_MIRRORS, folders separated by ':')",
    )
    p.add_argument("--no-openml", action="store_true", help="do not ask OpenML (also: NBREPRO_OPENML=0)")
    p.add_argument("--openml-cache", default="resources/openml")
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_fetch)

    p = sub.add_parser("ship", help="compress ARFF files into the data sets nbrepro ships; print their registry lines")
    p.add_argument("arff", nargs="+", help="ARFF files, or CSV files (with --class) converted to ARFF")
    p.add_argument("--to", help="folder to write the .xz files to (default, in a checkout only: the shipped files)")
    p.add_argument("--class", dest="class_column", metavar="COLUMN", help="a CSV file's class column")
    p.set_defaults(func=cmd_ship)

    p = sub.add_parser("prepare", help="validate, preprocess and fix the folds of one dataset")
    paper_args(p)
    p.add_argument("--dataset", required=True)
    p.add_argument("--registry", default="config/datasets.yaml")
    p.add_argument("--raw", required=True)
    p.add_argument("--out-data", required=True)
    p.add_argument("--out-folds", required=True)
    p.set_defaults(func=cmd_prepare)

    p = sub.add_parser("evaluate", help="run classifiers over the folds of one dataset")
    paper_args(p)
    p.add_argument("--dataset", required=True)
    p.add_argument(
        "--classifier",
        required=True,
        action="append",
        help="the paper's label, e.g. NB; repeat it to run several in one process, with "
        "{classifier} in the output paths",
    )
    p.add_argument("--prepared", required=True)
    p.add_argument("--folds", required=True)
    p.add_argument(
        "--raw",
        default=None,
        help="prepare first from this raw ARFF, writing --prepared and --folds (as `prepare` does)",
    )
    p.add_argument(
        "--make-folds", action="store_true", help="write --folds first from the prepared data (a reseeded run's folds)"
    )
    p.add_argument("--registry", default="config/datasets.yaml", help="with --raw")
    p.add_argument("--out-folds", required=True)
    p.add_argument("--out-predictions", required=True)
    p.add_argument(
        "--out-fitted", default=None, help="fitted attributes per fold (for classifiers whose spec has record:)"
    )
    p.set_defaults(func=cmd_evaluate)

    p = sub.add_parser("analyse", help="tables and statistics of one paper")
    paper_args(p)
    p.add_argument("--results", required=True, help="results/{paper}")
    p.add_argument("--table", action="append", help="only this table (repeatable); default all")
    p.add_argument("--timings", action="store_true", help="write stats/timings.csv (only that, unless --table)")
    p.add_argument("--registry", default="config/datasets.yaml", help="for tables filtered by a dataset property")
    p.add_argument("--base-results", default=None,
                   help="a reading's run: the run it patches, whose files of the classifiers it leaves alone it reads")
    p.set_defaults(func=cmd_analyse)

    p = sub.add_parser("paper-stats", help="a paper's Table 1 and the statistics quoted in its text")
    paper_args(p)
    p.add_argument("--results", required=True, help="results/{paper}")
    p.add_argument("--raw", default="resources/raw", help="folder of the raw ARFF files")
    p.add_argument("--figures", default=None, help="figures/{paper} (none: the figures are not drawn)")
    p.add_argument("--registry", default="config/datasets.yaml")
    p.add_argument("--base-results", default=None,
                   help="a reading's run: the run it patches, whose files of the classifiers it leaves alone it reads")
    p.set_defaults(func=cmd_paper_stats)

    p = sub.add_parser(
        "seed-bands", help="each printed cell's band over the reseeding run, each claim's seed stability"
    )
    paper_args(p)
    p.add_argument("--results", required=True, help="results/{paper}, with the reseeded runs in its seeds/{k}/")
    p.add_argument("--seeds", type=_shift, required=True, help="K, the reseeded runs 1..K")
    p.set_defaults(func=cmd_seed_bands)

    p = sub.add_parser("readings", help="which reading of each choice fits the printed cells, which claims change")
    p.add_argument("--paper-config", required=True, help="config/papers/{paper}.yaml")
    p.add_argument("--results", required=True, help="results/{paper}, each reading's run in its readings/")
    p.add_argument("--seeds", type=_shift, default=0, help="K, the reseeded runs 1..K of every run")
    p.add_argument("--reading", action="append", required=True, dest="runs", metavar="CHOICE/READING",
                   help="a reading run (repeat)")
    p.add_argument("--figures", required=True, help="figures/{paper}")
    p.set_defaults(func=cmd_readings)

    p = sub.add_parser("out-of-sample", help="each claim's verdict on the paper's data sets beside the pool's")
    p.add_argument("--in-sample", required=True, help="results/{paper}/stats/claims.csv")
    p.add_argument("--out-of-sample", required=True, help="results/{paper}_out_of_sample/stats/claims.csv")
    p.add_argument("--out", required=True, help=f"results/{{paper}}/{paths.CLAIMS_OUT_OF_SAMPLE}")
    p.add_argument("--paper-config", help="the paper's config (with the table options)")
    p.add_argument("--derived-config", help="the out-of-sample run's config")
    p.add_argument("--in-table", help="results/{paper}/tables/{main}.csv: the table the pool's rows extend")
    p.add_argument("--out-table", help="results/{paper}_out_of_sample/tables/{main}.csv")
    p.add_argument("--table-out", help=f"results/{{paper}}/{paths.TABLE_OUT_OF_SAMPLE}")
    p.add_argument("--ranks-out", help=f"results/{{paper}}/{paths.RANKS_OUT_OF_SAMPLE}")
    p.add_argument("--figure", help=f"figures/{{paper}}/{paths.RANKS_OUT_OF_SAMPLE_FIGURE} (the stem: .png and .svg)")
    p.set_defaults(func=cmd_out_of_sample)

    p = sub.add_parser("folds", help="a reseeded run's folds of a prepared data set")
    paper_args(p)
    p.add_argument("--dataset", required=True)
    p.add_argument("--prepared", required=True, help="resources/prepared/{paper}/{dataset}.parquet")
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_folds)

    p = sub.add_parser("figure", help="reproduced-vs-published figure of one table")
    p.add_argument("--table", required=True, help="results/{paper}/tables/{table}.csv")
    p.add_argument("--out", required=True, help="output stem; .png and .svg are written")
    p.set_defaults(func=cmd_figure)

    p = sub.add_parser("report", help="figures and HTML report of one paper")
    paper_args(p)
    p.add_argument("--results", required=True)
    p.add_argument("--figures", required=True)
    p.add_argument(
        "--root",
        default=".",
        help="project folder that the paper's benchmarks: and investigations: files are relative to",
    )
    p.add_argument("--seeds", type=_shift, default=0, help="K of the reseeding run whose seed bands to show (0: none)")
    p.add_argument("--readings", action="store_true", help="show the readings run's summary (stats/readings.csv)")
    p.add_argument("--out-of-sample", metavar="CONFIG", help="the out-of-sample run's config: show its claims "
                   f"beside the paper's ({paths.CLAIMS_OUT_OF_SAMPLE})")
    p.add_argument("--raw", default="resources/raw", help="folder of the raw ARFF files and their .source.json")
    p.add_argument("--registry", default="config/datasets.yaml")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("crate", help="the run's provenance as an RO-Crate: results/ro-crate-metadata.json")
    p.add_argument("--results", default="results")
    p.add_argument("--config", default="config/config.yaml", help="the workflow config (copied into the crate)")
    p.add_argument("--registry", default="config/datasets.yaml")
    p.add_argument("--raw", default="resources/raw", help="folder of the raw ARFF files and their .source.json")
    p.add_argument("--root", default=".", help="the project folder (its git commit is recorded)")
    p.add_argument("paper_configs", nargs="+")
    p.set_defaults(func=cmd_crate)

    p = sub.add_parser("index", help="results/index.html over papers")
    p.add_argument("--results", default="results")
    p.add_argument("--figures", default="figures",
                   help="the figures folder (each paper's first reproduced-vs-published figure, linked)")
    p.add_argument("--speed", help="the suite's heaviest jobs as measured (benchmarks/results/suite_top_jobs.csv)")
    p.add_argument("--suite-run", help="the last whole-suite run from a clean clone (benchmarks/results/suite_run.csv)")
    p.add_argument(
        "--seeds", type=_shift, default=0, help="K of the reseeding run whose seed stability the claims page shows"
    )
    p.add_argument("--readings", action="store_true", help="show the readings run's (each paper's stats/readings.csv)")
    p.add_argument("--out-of-sample", action="store_true",
                   help=f"show the out-of-sample run's (each paper's {paths.CLAIMS_OUT_OF_SAMPLE})")
    p.add_argument("--paper-dir", action="append", dest="paper_dirs", default=[],
                   help="where the configs of papers an earlier run left reports of are (repeatable)")
    p.add_argument("paper_configs", nargs="+")
    p.set_defaults(func=cmd_index)

    p = sub.add_parser("worker", help="serve a local run's jobs, each forked from this process (the workflow "
                       "starts it: nbrepro.runtime.worker)")
    p.add_argument("--socket", required=True)
    p.add_argument("--parent", type=int, default=None, help="stop when this process (Snakemake) is gone")
    p.set_defaults(func=cmd_worker)

    p = sub.add_parser("fingerprint", help="sha256 of every result file, timing columns left out")
    p.add_argument("results", nargs="?", default="results")
    p.add_argument(
        "--config",
        default="config/config.yaml",
        help="list the files this workflow config expects that are missing (exit 1 if any)",
    )
    p.add_argument("--papers", default=None, help="comma-separated papers, as --config papers=[...] ran them "
                   "(default: the config's papers that the results folder holds)")
    p.add_argument("--seeds", type=_shift, default=None, help="K, as --config seeds=K ran them (default: the config's)")
    p.add_argument("--datasets", default=None, help="comma-separated data sets, as --config datasets=[...] cut them")
    p.set_defaults(func=cmd_fingerprint)

    args = ap.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO, format="nbrepro: %(levelname)s: %(message)s"
    )
    from .errors import USER_ERRORS

    try:
        rc = args.func(args)
    except USER_ERRORS as exc:
        print(f"nbrepro: error: {exc}", file=sys.stderr)
        return 2
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as exc:
        if args.verbose:   # a path the code itself got wrong: its traceback
            raise
        # a path given to the command that is not there (or not a file): one line, no traceback
        print(f"nbrepro: error: {exc.filename}: {exc.strerror.lower()}", file=sys.stderr)
        return 2
    return rc or 0


if __name__ == "__main__":
    sys.exit(main())
