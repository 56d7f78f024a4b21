# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``kinds`` parameter of the steps that act on some kinds of attribute."""
from __future__ import annotations

from sklearn.utils._param_validation import InvalidParameterError


def validate_kinds(step) -> None:
    """``kinds`` lists 'nominal' and/or 'numeric': a typo would otherwise select no column, silently.
    The error is scikit-learn's, as for the other declared parameters."""
    unknown = sorted(set(step.kinds) - {"nominal", "numeric"})
    if unknown:
        raise InvalidParameterError(f"The 'kinds' parameter of {type(step).__name__} must list 'nominal' "
                                    f"and/or 'numeric'. Got {unknown!r} instead.")
