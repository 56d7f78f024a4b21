"""Build the preprocessing steps a paper config names."""
from __future__ import annotations

from .columns import RemoveColumns
from .constant import RemoveConstant
from .discretize import EqualWidthDiscretizer
from .id_like import RemoveIdLike
from .mdl import MDLDiscretizer
from .missing import ReplaceMissingValues
from .standardize import Standardize
from .to_numeric import ToNumeric

STEP_NAMES = {
    "remove_id_like": RemoveIdLike,
    "replace_missing": ReplaceMissingValues,
    "discretize_equal_width": EqualWidthDiscretizer,
    "remove_constant": RemoveConstant,
    "to_numeric": ToNumeric,
    "remove_columns": RemoveColumns,
    "standardize": Standardize,
    "discretize_mdl": MDLDiscretizer,
}


def build_steps(spec: list[dict]) -> list[tuple[str, object]]:
    """``[{"replace_missing": {}}, {"discretize_equal_width": {"n_bins": 10}}]`` → transformer list."""
    steps = []
    for i, item in enumerate(spec):
        if not isinstance(item, dict) or len(item) != 1:
            raise ValueError(f"preprocessing step {i}: expected a one-key mapping, got {item!r}")
        (name, params), = item.items()
        if name not in STEP_NAMES:
            raise ValueError(f"preprocessing step {i}: unknown step {name!r}; known: {sorted(STEP_NAMES)}")
        try:
            steps.append((name, STEP_NAMES[name](**(params or {}))))
        except TypeError as exc:
            raise ValueError(f"preprocessing step {name!r}: bad parameters {params!r} ({exc})") from None
    return steps


def apply_steps(steps, X, *others, y=None) -> tuple:
    """Fit each step on ``X`` (and its class ``y``, for supervised steps) and transform ``X`` and
    ``others`` (e.g. a test fold) with it."""
    frames = (X, *others)
    for _, step in steps:
        step.fit(frames[0], y)
        frames = tuple(step.transform(f) for f in frames)
    return frames
