"""Preprocessing steps as scikit-learn transformers on DataFrames, named as in the paper configs."""
from .missing import ReplaceMissingValues
from .discretize import EqualWidthDiscretizer
from .id_like import RemoveIdLike
from .pipeline import build_steps, STEP_NAMES

__all__ = ["ReplaceMissingValues", "EqualWidthDiscretizer", "RemoveIdLike", "build_steps", "STEP_NAMES"]
