# SPDX-License-Identifier: GPL-3.0-or-later
"""Readings: where a paper is silent, every defensible alternative, each a typed patch of its spec.

A choice of a paper config (``choices:``) may give an ``id`` and ``readings:``, each a ``name``, a
one-line ``why`` and a ``patch`` of the config as written. The main run is the reading ``default`` of
every choice; a reading's run changes only what its patch writes:

    classifiers: {LABEL: {params: {...}, estimator: …, variants: …, steps: [...]}}
    protocol: {...}
    preprocessing: {steps: [...], per_dataset: {...}}
    dataset_copies: {DATASET: REGISTRY_ENTRY}   (another copy of a data set, read under its name)

A mapping of the patch is merged into the config's (a classifier's ``params``, a nested estimator's
``params``, key by key); anything else (a list, a number, a string) replaces what was written, and
``null`` removes the key (its default applies: another protocol drops the old one's ``runs``). A
label is a classifier as the config writes it (a grid's label patches every point of the grid).

What a reading touches decides what its run recomputes (``touched``): the classifiers whose spec it
changes, on the paper's own prepared data and folds; a patch of the protocol or the preprocessing
changes the data or the folds, so every classifier runs again on the reading's own; another copy
of a data set makes that data set's data and folds, and every classifier runs again on it alone.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import ConfigError

DEFAULT = "default"   # the main run: every choice as the config writes it
COMBINED = "combined"  # the runs of reading_combinations: combined/{name}, several choices' readings at once
PATCH_KEYS = ("classifiers", "protocol", "preprocessing", "dataset_copies")
DATA_KEYS = ("protocol", "preprocessing")   # a patch of these makes the reading's own data and folds


def merged(base, patch):
    """``base`` with ``patch`` written over it: mappings key by key, ``None`` removing a key, anything
    else replaced."""
    if isinstance(base, Mapping) and isinstance(patch, Mapping):
        out = dict(base)
        for key, value in patch.items():
            if value is None:
                out.pop(key, None)
            else:
                out[key] = merged(base[key], value) if key in base else copy.deepcopy(value)
        return out
    return copy.deepcopy(patch)


def reading_id(choice: str, reading: str) -> str:
    """How a run names a reading: ``choice/reading``."""
    return f"{choice}/{reading}"


def split_id(text: str) -> tuple[str, str]:
    choice, sep, reading = str(text).partition("/")
    if not sep or not choice or not reading:
        raise ConfigError(f"a reading is named choice/reading, got {text!r}")
    return choice, reading


def declared(data: Mapping) -> list[tuple[str, str]]:
    """Every (choice, reading) a config as written declares, the default left out, in its order, then
    its combinations as (``combined``, name)."""
    return ([(c["id"], r["name"]) for c in data.get("choices") or () if "id" in c for r in c.get("readings") or ()]
            + [(COMBINED, c["name"]) for c in data.get("reading_combinations") or ()])


def where_declared(data: Mapping, choice: str, reading: str, where: str) -> str:
    """Where a reading is written, for an error: ``{where}, choices[i] (id), reading 'name'`` or
    ``{where}, reading_combinations[i] (name)``."""
    if choice == COMBINED:
        names = [c["name"] for c in data.get("reading_combinations") or ()]
        return f"{where}, reading_combinations[{names.index(reading)}] ({reading})" if reading in names else where
    ids = [c.get("id") for c in data.get("choices") or ()]
    return f"{where}, choices[{ids.index(choice)}] ({choice}), reading {reading!r}" if choice in ids else where


def _find(data: Mapping, choice: str, reading: str, where: str) -> tuple[int, dict | None]:
    for i, c in enumerate(data.get("choices") or ()):
        if c.get("id") == choice:
            if reading == DEFAULT:
                return i, None
            for r in c.get("readings") or ():
                if r["name"] == reading:
                    return i, r
            names = [DEFAULT] + [r["name"] for r in c.get("readings") or ()]
            raise ConfigError(f"{where}: choice {choice!r} has no reading {reading!r} (it has {names})")
    ids = [c["id"] for c in data.get("choices") or () if "id" in c]
    raise ConfigError(f"{where}: no choice with id {choice!r} (ids: {ids})")


def _check_patch(data: Mapping, patch: Mapping, at: str) -> None:
    """The patch's own shape; the patched config is then checked as a paper (``nbrepro.checks``)."""
    unknown = sorted(set(patch) - set(PATCH_KEYS))
    if unknown:
        raise ConfigError(f"{at}: patch key(s) {unknown} are not patchable (a patch writes {list(PATCH_KEYS)})")
    for key in PATCH_KEYS:
        if key in patch and not isinstance(patch[key], Mapping):
            raise ConfigError(f"{at}: patch.{key} must be a mapping, got {patch[key]!r}")
    labels = data.get("classifiers") or {}
    for label, value in (patch.get("classifiers") or {}).items():
        if label not in labels:
            raise ConfigError(f"{at}: patch.classifiers names {label!r}, which is not a classifier of the paper "
                              f"(have: {sorted(labels)})")
        if not isinstance(value, Mapping):
            raise ConfigError(f"{at}: patch.classifiers.{label} must be a mapping, got {value!r}")


def apply_reading(data: Mapping, choice: str, reading: str, where: str) -> dict:
    """The config as written (schema defaults applied, grids not yet expanded) under one reading."""
    out = copy.deepcopy(dict(data))
    if choice == COMBINED:
        return _combined(out, reading, where)
    i, r = _find(out, choice, reading, where)
    if r is None:   # the default reading: the config as written
        return out
    patch = r.get("patch") or {}
    _check_patch(out, patch, f"{where}, choices[{i}] ({choice}), reading {reading!r}")
    for key, value in patch.items():
        if key == "classifiers":
            out[key] = {label: merged(spec, value[label]) if label in value else spec
                        for label, spec in out[key].items()}
        else:
            out[key] = merged(out.get(key) or {}, value)
    return out


def patched(written: dict, reading: str, where: str, against: dict | None = None) -> dict:
    """The config as written under ``reading`` ("choice/reading"), the patched config checked against
    the paper schema's shape (or ``against``: the checks' schema with the registries' names) and its
    defaults applied."""
    from .reader import apply_defaults, schema, schema_errors

    choice, name = split_id(reading)
    data = apply_reading(written, choice, name, where)
    msgs = schema_errors(data, schema("paper") if against is None else against)
    if msgs:
        raise ConfigError(f"{where_declared(written, choice, name, where)}: the patched config does not "
                          f"match paper.schema.yaml: {msgs[0]}")
    apply_defaults(data, schema("paper"))
    return data


def _combined(data: dict, name: str, where: str) -> dict:
    """The config under combination ``name``: each of its readings' patches in turn."""
    combos = {c["name"]: (i, c) for i, c in enumerate(data.get("reading_combinations") or ())}
    if name not in combos:
        raise ConfigError(f"{where}: no reading combination {name!r} (have: {sorted(combos)})")
    i, combo = combos[name]
    at = f"{where}, reading_combinations[{i}] ({name})"
    choices = [split_id(r)[0] for r in combo["readings"]]
    twice = sorted({c for c in choices if choices.count(c) > 1} | ({COMBINED} & set(choices)))
    if twice:
        raise ConfigError(f"{at}: a combination takes one reading of each choice; {twice} named twice or nested")
    for r in combo["readings"]:
        data = apply_reading(data, *split_id(r), at)
    return data


@dataclass(frozen=True)
class Touched:
    """What a reading changes: ``classifiers`` (labels, in the paper's order) whose results it
    recomputes on ``datasets`` (``None``: every data set), and ``data`` (its protocol, preprocessing
    or a data set's copy differs: its own prepared data and folds of those data sets, and every
    classifier recomputed on them)."""

    classifiers: tuple[str, ...]
    data: bool
    datasets: tuple[str, ...] | None = None

    def owns(self, label: str, dataset: str) -> bool:
        """Whether the reading's run makes this classifier's results on this data set itself."""
        return label in self.classifiers and (self.datasets is None or dataset in self.datasets)


def touched(default, variant) -> Touched:
    """Compare two ``nbrepro.paper.Paper``: the paper as configured and under a reading."""
    data = any(getattr(default, k).as_written() != getattr(variant, k).as_written() for k in DATA_KEYS)
    if data:
        return Touched(tuple(variant.classifiers), True)
    copies = tuple(d for d in variant.datasets if default.dataset_entry(d) != variant.dataset_entry(d))

    def spec(paper, label):
        c = paper.classifiers.get(label)
        return None if c is None else {k: v for k, v in c.as_written().items() if k != "note"}

    labels = [label for label in variant.classifiers if spec(default, label) != spec(variant, label)]
    if copies and labels:   # a classifier on every data set and every classifier on a copy: all of it
        return Touched(tuple(variant.classifiers), True)
    if copies:
        return Touched(tuple(variant.classifiers), True, copies)
    return Touched(tuple(labels), False)


def select_readings(papers: Mapping, wanted) -> dict[str, list[str]]:
    """The readings a run makes, per paper (``--config readings=…``): ``all``, or choice ids (every
    reading of that choice) and ``choice/reading`` names; one that no paper of the run declares is an
    error, not a silent no-op."""
    if wanted in (None, "", [], False):
        return {name: [] for name in papers}
    items = [wanted] if isinstance(wanted, str) else [str(w) for w in wanted]
    out, used = {}, set()
    for name, paper in papers.items():
        chosen = []
        runs = [(c.id, r.name) for c in paper.choices if c.id for r in c.readings]
        for choice, reading in runs + [(COMBINED, c.name) for c in paper.reading_combinations]:
            rid = reading_id(choice, reading)
            hit = {i for i in items if i in ("all", choice, rid)}
            if hit:
                chosen.append(rid)
                used |= hit
        out[name] = chosen
    unknown = [i for i in items if i not in used and i != "all"]
    if unknown:
        known = sorted({c.id for p in papers.values() for c in p.choices if c.id and c.readings})
        raise ConfigError(f"config readings: {unknown} name no choice or reading of the papers run "
                          f"(choice ids with readings: {known}; or all)")
    return out


def without_readings(config: dict) -> None:
    """A derived config (out of sample, a cut) with no readings to run, in place: each choice keeps its
    words but not its id and readings, the combinations go, and a gap names no choice."""
    config["choices"] = [{k: v for k, v in c.items() if k not in ("id", "readings")}
                         for c in config.get("choices") or ()]
    config.pop("reading_combinations", None)
    if config.get("gaps"):
        config["gaps"] = [{k: v for k, v in g.items() if k != "choices"} for g in config["gaps"]]
