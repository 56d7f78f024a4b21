# SPDX-License-Identifier: GPL-3.0-or-later
"""Where the package runs from: a source checkout (``src/nbrepro`` beside a ``pyproject.toml``,
installed editable or not) or an installed copy (a wheel in site-packages), which nbrepro never
writes into: numba's cache goes to the user's cache folder (``_numba_cache``), and ``nbrepro ship``
needs ``--to``."""
from __future__ import annotations

import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]   # this module is in nbrepro/runtime/


def checkout() -> Path | None:
    """The checkout's root folder, or None for an installed copy."""
    root = PACKAGE.parent.parent
    return root if PACKAGE.parent.name == "src" and (root / "pyproject.toml").is_file() else None


def user_cache() -> Path:
    """nbrepro's folder in the user's cache (``$XDG_CACHE_HOME/nbrepro``, else ``~/.cache/nbrepro``)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "nbrepro"
