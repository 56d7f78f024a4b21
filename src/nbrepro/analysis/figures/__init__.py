# SPDX-License-Identifier: GPL-3.0-or-later
"""The figure kinds a paper's config may declare (``figures:``), each one plug-in holding its
numbers and its drawing.

A kind computes, from the reproduced tables (and Table 1, the recorded fitted state), a
``FigureData``: the frame the paper-stats job writes as ``stats/{figure}{data_suffix}.csv`` (when
the kind has a suffix) and what its drawing needs beyond it; then it draws that into
``figures/{paper}/{figure}.png`` and ``.svg``. Adding a kind is one ``FigureKind`` class under
``@figure_kind`` in a module here, imported below; the schema's ``kind`` enum is read from
``FIGURE_KINDS``.
"""
from . import _ranks, _recorded, _sweep  # noqa: F401  (each module registers its kinds)
from ._base import FIGURE_KINDS, FigureData, FigureKind, draw_note, figure_kind, higher_is_better
from ._recorded import recorded

__all__ = ["FIGURE_KINDS", "FigureData", "FigureKind", "draw_note", "figure_kind", "higher_is_better", "recorded"]
