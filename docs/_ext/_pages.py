# SPDX-License-Identifier: GPL-3.0-or-later
"""What the docs' build-time extensions share: a generated page is rewritten only when its text
changed, so Sphinx rereads only what moved."""
from pathlib import Path


def write_page(path: Path, text: str) -> None:
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
