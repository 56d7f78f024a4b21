# SPDX-License-Identifier: GPL-3.0-or-later
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


# How each step changes the attributes' kinds, as far as its parameters say (the data decide the rest)
_DISCRETISE = ("discretize_equal_width", "discretize_mdl")
_MAY_REMOVE = ("remove_constant", "remove_id_like")


def kinds_after(steps: list[dict], kinds: dict[str, str]) -> dict[str, str]:
    """The attributes' kinds (name → "nominal" | "numeric") after ``steps``, for a check before any
    job: a discretiser makes every numeric attribute nominal, ``to_numeric`` its columns numeric,
    ``remove_columns`` drops its columns. A step that removes attributes by their values
    (``remove_constant``, ``remove_id_like``) marks those it may remove "maybe …": only the kinds
    certainly left are certain."""
    kinds = dict(kinds)
    for item in steps:
        (name, params), = item.items()
        params = params or {}
        if name in _DISCRETISE:
            kinds = {c: k.replace("numeric", "nominal") for c, k in kinds.items()}
        elif name == "to_numeric":
            kinds.update({c: "numeric" for c in params.get("columns", ()) if c in kinds})
        elif name == "remove_columns":
            kinds = {c: k for c, k in kinds.items() if c not in set(params.get("columns", ()))}
        elif name in _MAY_REMOVE:
            which = (
                set(params.get("kinds", ("nominal", "numeric")))
                if name == "remove_constant"
                else {"nominal", "numeric"}
            )
            kinds = {c: (f"maybe {k}" if k in which else k) for c, k in kinds.items()}
    return kinds
