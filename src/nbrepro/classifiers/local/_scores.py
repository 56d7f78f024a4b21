# SPDX-License-Identifier: GPL-3.0-or-later
"""What the local classifiers share: probabilities from per-class log scores, and the spread below
which an attribute counts as flat.
"""

from __future__ import annotations

import numpy as np

from ... import libm

FLAT = 1e-12  # a spread below this × the cube's half-width counts as none: that attribute is uniform


def softmax(S: np.ndarray) -> np.ndarray:
    """exp(S − max) / Σ exp(S − max) per row (a row of −inf scores: its maximum taken as 0)."""
    top = S.max(axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    E = libm.exp(S - top)
    return E / E.sum(axis=1, keepdims=True)
