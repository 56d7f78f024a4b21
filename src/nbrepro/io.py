# SPDX-License-Identifier: GPL-3.0-or-later
"""Result files written whole and recorded, and read only as written.

Every file a job writes goes through ``atomic_path``: it is written under a temporary name and
renamed when whole, so an interrupted job never leaves one that looks finished, and its sha256
is then recorded beside it in a hidden sidecar, ``.{name}.sha256``, in ``sha256sum``'s format
(``sha256sum -c .x.parquet.sha256`` checks it by hand). Readers of results go through
``read_parquet``/``read_csv``/``check_recorded``, which stop with ``ResultChanged`` naming the
file when its bytes are not the recorded ones (a copy cut short, a full disk, an edit): a file
changed after its job wrote it is never read as a result. ``changed_files`` is the workflow's
start-up pass over every recorded file.
"""
from __future__ import annotations

import hashlib
import os
from contextlib import contextmanager
from pathlib import Path

from .errors import ResultChanged

_CHUNK = 1 << 20


def sha256_of(path: str | Path) -> str:
    """The sha256 of a file's bytes (also the data cache's, ``nbrepro.data.checksums``)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def sidecar(path: str | Path) -> Path:
    """Where the sha256 of ``path`` is recorded: ``.{name}.sha256`` beside it."""
    path = Path(path)
    return path.with_name(f".{path.name}.sha256")


def is_sidecar(path: str | Path) -> bool:
    name = Path(path).name
    return name.startswith(".") and name.endswith(".sha256")


# Snakemake's mark in a directory() output (a report's copied figures): the job's, not a result
SNAKEMAKE_MARK = ".snakemake_timestamp"


def is_bookkeeping(path: str | Path) -> bool:
    """A file beside the results that is none: a sha256 record, or Snakemake's directory mark."""
    return is_sidecar(path) or Path(path).name == SNAKEMAKE_MARK


def record(path: str | Path) -> str:
    """Record the sha256 of ``path`` as it is now; returns it."""
    path = Path(path)
    digest = sha256_of(path)
    side = sidecar(path)
    tmp = side.with_name(side.name + ".part")
    tmp.write_text(f"{digest}  {path.name}\n")
    tmp.replace(side)
    return digest


def recorded(path: str | Path) -> str | None:
    """The sha256 recorded for ``path`` when it was written, or None (no record)."""
    try:
        text = sidecar(path).read_text()
    except OSError:
        return None
    return text.split(" ", 1)[0] or None


@contextmanager
def atomic_path(path: str | Path):
    """Yield a temporary sibling of ``path``; when the block succeeds, rename it to ``path`` and
    record its sha256. The old record goes first, so a kill in between leaves a file with no
    record (which readers in the output folders refuse) rather than one with another file's."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    try:
        yield tmp
        sidecar(path).unlink(missing_ok=True)
        tmp.replace(path)
        record(path)
    finally:
        tmp.unlink(missing_ok=True)


def _changed_message(path: Path, got: str, want: str) -> str:
    return (f"{path} is not the file its job wrote (sha256 {got[:16]}…, recorded {want[:16]}… in "
            f"{sidecar(path).name}): it was cut short or edited; delete it and run snakemake again to rebuild it")


def checked_sha256(path: str | Path) -> str:
    """The sha256 of ``path``; ``ResultChanged`` when it has a record and is not the recorded one,
    or when it lies in one of the workflow's output folders (``paths.OUTPUT_ROOTS`` under the
    working directory), where every job records what it writes, and has no record: its record was
    deleted (after an edit, say). A job killed between its rename and its record leaves the same,
    but Snakemake marks that output incomplete and runs the job again before anything reads it."""
    path = Path(path)
    got = sha256_of(path)
    want = recorded(path)
    if want is not None and got != want:
        raise ResultChanged(_changed_message(path, got, want))
    if want is None and _in_output_folders(path):
        raise ResultChanged(f"{path} has no sha256 record ({sidecar(path).name}): the file its job wrote cannot be "
                            "told from an edit; delete it and run snakemake again to rebuild it")
    return got


def _in_output_folders(path: Path) -> bool:
    from .paths import OUTPUT_ROOTS

    try:
        rel = path.absolute().relative_to(Path.cwd())
    except ValueError:
        return False
    return len(rel.parts) > 1 and rel.parts[0] in OUTPUT_ROOTS


def check_recorded(path: str | Path) -> Path:
    """``path``, after checking it against its record (``checked_sha256``)."""
    checked_sha256(path)
    return Path(path)


def read_parquet(path, **kwargs):
    import pandas as pd

    return pd.read_parquet(check_recorded(path), **kwargs)


def read_csv(path, **kwargs):
    import pandas as pd

    return pd.read_csv(check_recorded(path), **kwargs)


def changed_files(*roots) -> list[str]:
    """Every recorded file under ``roots`` whose bytes are no longer the recorded ones, as one
    message each. Only a file changed after its record was written is hashed (a finished job
    renames the file into place, then writes the record), so a pass over a whole results tree
    costs a stat per file. "Changed" is the later of the file's mtime and its ctime: a copy that
    keeps the old mtime (``cp -p``, ``rsync -a``, ``touch -d``) still moves the ctime, which no
    user can set back. A file hashed and found whole has its record touched, so a copied tree is
    hashed once, not at every start."""
    out = []
    for root in roots:
        for folder, _dirs, names in os.walk(root):
            for name in names:
                if not is_sidecar(name):
                    continue
                side = Path(folder, name)
                path = side.with_name(name[1:-len(".sha256")])
                try:
                    st = path.stat()
                    if max(st.st_mtime_ns, st.st_ctime_ns) <= side.stat().st_mtime_ns:
                        continue
                except FileNotFoundError:   # deleted: the workflow makes it again
                    continue
                want = recorded(path)
                got = sha256_of(path)
                if want is not None and got != want:
                    out.append(_changed_message(path, got, want))
                elif want is not None:
                    os.utime(side)   # whole: its record is newer than the copy now
    return sorted(out)
