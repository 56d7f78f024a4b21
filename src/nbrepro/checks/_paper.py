# SPDX-License-Identifier: GPL-3.0-or-later
"""A paper checked whole, once, when a run is planned (``check_paper``): what it names against the
registries (the schema with each registry's names), each section against the others, its plug-ins'
entries, its declared claims, its gaps, its data sets against the data-set registry and their files,
and every reading of every choice the same way."""
from __future__ import annotations

from pathlib import Path

from ..errors import ConfigError
from ..paper import Paper, paper_of, read_paper, read_written, validate
from ..paper import readings as rd
from ._data import check_attribute_kinds, check_copies, check_positive_classes, check_registry
from ._names import named_schema
from ._sections import check_gap_cells, check_plugins, check_sections


def check_paper(paper: Paper, registry: dict | None = None) -> None:
    """Every check of a paper (read by ``nbrepro.paper.read_paper``, or a variant of it); with the
    data-set ``registry`` (``config/datasets.yaml``'s entries), also its data sets against the registry
    and their files' headers. Raises ``ConfigError``, one line naming the file and the key."""
    from ..analysis.claim_records import known_methods
    from ..analysis.declared import check_declared

    where = str(paper.path or paper.name)
    written = read_written(paper.path) if paper.path is not None else None
    if written is not None:
        validate(written, "paper", where, against=named_schema())
    check_sections(paper, where)  # estimators, parameters, protocol, metrics, names: before any job runs
    check_plugins(paper, where)
    check_declared(paper, where, known_methods(paper))
    check_gap_cells(paper, where)
    if registry is not None:
        check_registry(paper, registry, where)
        check_attribute_kinds(paper, registry, where)
    if written is not None and not paper.reading:
        check_readings(written, paper, registry, where)


def checked_paper(path: str | Path, registry: dict | None = None) -> Paper:
    """The paper config at ``path``, read and checked (``check_paper``)."""
    paper = read_paper(path)
    check_paper(paper, registry)
    return paper


def check_readings(written: dict, default: Paper, registry: dict | None, where: str) -> None:
    """Every reading of every choice: ids and names once each, its patch a valid config that changes
    something, checked as the paper is (its estimators and parameters, protocol, steps, and the
    attribute kinds its classifiers take), with errors naming the choice and the reading."""

    def once(names, what):
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ConfigError(f"{where}, {what.format(twice)}")

    once([c["id"] for c in written.get("choices") or () if "id" in c],
         "choices: id(s) {} are given to more than one choice")
    for i, c in enumerate(written.get("choices") or ()):
        once([r["name"] for r in c.get("readings") or ()], f"choices[{i}] ({c.get('id')}): reading name(s) {{}} "
             "are used twice")
    once([c["name"] for c in written.get("reading_combinations") or ()],
         "reading_combinations: name(s) {} are used twice")
    for choice, name in rd.declared(written):
        at = rd.where_declared(written, choice, name, where)
        reading = rd.reading_id(choice, name)
        variant = paper_of(rd.patched(written, reading, where, named_schema()), default.path, reading=reading,
                           where=at)
        check_sections(variant, at)
        if not rd.touched(default, variant).classifiers:
            raise ConfigError(f"{at}: the patch changes nothing the experiment runs (its classifiers, protocol "
                              "and preprocessing are the default's)")
        if registry is not None:
            check_copies(variant, registry, at)
            check_positive_classes(variant, registry, at)
            check_attribute_kinds(variant, registry, at)
