# SPDX-License-Identifier: GPL-3.0-or-later
"""A paper's variants, each a paper of its own that the plan runs as it runs the paper: a reading of
its choices (``nbrepro.paper.readings``), a reseeded run (``reseed``: every seed shifted by k), a cut to
some of its data sets (``cut``: a quick look) and its claims asked of data sets its authors did not use
(``out_of_sample``). ``variant(path, seed, reading)`` reads the paper as a reading and a reseeding
write it; the reader itself knows no variant."""
from __future__ import annotations

from pathlib import Path

from ..paper import Paper, paper_of, read_written
from ..paper import readings as rd
from .reseed import draws_random_numbers, reseed, seeded_runs


def variant(path: str | Path, seed: int = 0, reading: str = "") -> Paper:
    """The paper config at ``path`` under ``reading`` ("choice/reading"; "" or a choice's default: as
    written), in run ``seed`` of the reseeding (0: the main run)."""
    written = read_written(path)
    if reading and rd.split_id(reading)[1] == rd.DEFAULT:   # the main run, named as a choice's default reading
        rd.patched(written, reading, str(path))   # the choice must exist
        reading = ""
    data = rd.patched(written, reading, str(path)) if reading else written
    paper = paper_of(data, path, reading=reading)
    if not seed:
        return paper
    return paper_of(reseed(paper.as_written(), seed).spec, path, seed, reading)


__all__ = ["draws_random_numbers", "reseed", "seeded_runs", "variant"]
