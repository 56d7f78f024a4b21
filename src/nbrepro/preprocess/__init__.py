"""Preprocessing steps as scikit-learn transformers on DataFrames, named as in the paper configs."""
from .missing import ReplaceMissingValues
from .discretize import EqualWidthDiscretizer
from .id_like import RemoveIdLike
from .constant import RemoveConstant
from .mdl import MDLDiscretizer
from .standardize import Standardize
from .to_numeric import ToNumeric
from .pipeline import build_steps, STEP_NAMES

__all__ = ["ReplaceMissingValues", "EqualWidthDiscretizer", "RemoveIdLike", "RemoveConstant", "ToNumeric", "Standardize", "MDLDiscretizer", "build_steps", "STEP_NAMES"]
