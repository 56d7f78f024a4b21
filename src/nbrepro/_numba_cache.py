"""numba's on-disk cache made safe for processes that compile at the same time.

Why: numba 0.68's ``IndexDataCacheFile.save`` reads a function's cache index, picks the first
unused data-file number, writes the index and then the data file, with nothing held between
the steps. Two processes that compile two signatures of one kernel at once (two Snakemake jobs,
or a job beside the tests, from one checkout) both pick number 1: one's index then names the
other's machine code, and a later process loads code compiled for other argument types. That
gave LPM-BC NaN probabilities and other selections (numba issues 4807 and 10128 describe
relatives of this race). Here each index is read, numbered and written under an exclusive
``flock`` on a lock file beside it, and read under a shared one, so numbers are never handed
out twice. Installed when nbrepro is imported, before any kernel is compiled or loaded.
"""
from __future__ import annotations

import contextlib
import fcntl
import os

from numba.core import caching

_save, _load = caching.IndexDataCacheFile.save, caching.IndexDataCacheFile.load


@contextlib.contextmanager
def _locked(cache_file, mode):
    path = cache_file._index_path + ".lock"
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:  # a read-only cache folder: numba falls back to another locator or none
        yield
        return
    try:
        fcntl.flock(fd, mode)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _save_locked(self, key, data):
    with _locked(self, fcntl.LOCK_EX):
        return _save(self, key, data)


def _load_locked(self, key):
    with _locked(self, fcntl.LOCK_SH):
        return _load(self, key)


def install() -> None:
    """Wrap numba's cache index reads and writes in the locks (once)."""
    if caching.IndexDataCacheFile.save is not _save_locked:
        caching.IndexDataCacheFile.save = _save_locked
        caching.IndexDataCacheFile.load = _load_locked
