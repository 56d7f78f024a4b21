# SPDX-License-Identifier: GPL-3.0-or-later
"""Preprocessing steps as scikit-learn transformers on DataFrames, named as in the paper configs."""
from .constant import RemoveConstant
from .discretize import EqualWidthDiscretizer
from .id_like import RemoveIdLike
from .mdl import MDLDiscretizer
from .missing import ReplaceMissingValues
from .pipeline import STEP_NAMES, build_steps
from .standardize import Standardize
from .to_numeric import ToNumeric

__all__ = [
    "ReplaceMissingValues",
    "EqualWidthDiscretizer",
    "RemoveIdLike",
    "RemoveConstant",
    "ToNumeric",
    "Standardize",
    "MDLDiscretizer",
    "build_steps",
    "STEP_NAMES",
]
