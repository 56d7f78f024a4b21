# SPDX-License-Identifier: GPL-3.0-or-later
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

And made stale when any of nbrepro's sources changes. numba keys a cached kernel to its own
file's time stamp and size only: a kernel that calls a kernel of another module keeps the
callee's machine code from when it was compiled, so after an edit (or a ``git pull``) of the
callee the caller silently ran the old code (seen: NBTree's branch kernel kept the old
cross-validated naive Bayes of ``_nbtree_kernel``). Every nbrepro kernel's stamp here also
carries ``package_stamp()``, the time stamps and sizes of all the package's sources: any change
recompiles every kernel on its next use, as a fresh clone does.

And compiled once where several processes need the same new kernel at once (the jobs that start
a cold run side by side, the test workers): a kernel is compiled, or loaded, under an exclusive
``flock`` of its own, so the first process compiles and saves it while the others wait (no CPU)
and then load its machine code from the cache. Two jobs of Hall's paper starting together spent
a minute each compiling the same kernels. Callers take their callees' locks inside their own, in
the order of the call graph, which has no cycles (numba's cache does not take recursive kernels),
so no two processes wait on each other.

And kept out of site-packages: numba caches a kernel beside its source file, which for an
installed nbrepro is the user's site-packages. There the kernels are cached under
``$XDG_CACHE_HOME/nbrepro/numba`` (``~/.cache``) instead; a checkout keeps them beside its sources
(each clone its own), and ``NUMBA_CACHE_DIR``, where set, wins in both.

Every kernel module takes ``njit`` (or ``vectorize``) from here rather than from numba, so the
locks are in place before its first kernel is defined, and importing nbrepro itself (to read a
paper config, say) does not load numba at all.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
from pathlib import Path

from numba import njit, vectorize
from numba.core import caching, dispatcher, sigutils

from . import location
from .location import PACKAGE

__all__ = ["install", "njit", "package_stamp", "vectorize"]

_save, _load = caching.IndexDataCacheFile.save, caching.IndexDataCacheFile.load


@contextlib.contextmanager
def _locked(cache_file, mode, suffix=".lock"):
    path = cache_file._index_path + suffix
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


_PACKAGE_STAMP: list[str] = []


def package_stamp() -> str:
    """A digest of every source file of the package (relative path, modification time in ns,
    size), as numba stamps one file; computed once per process (a stat per file, about 1 ms)."""
    if not _PACKAGE_STAMP:
        digest = hashlib.sha256()
        for path in sorted(PACKAGE.rglob("*.py")):
            st = path.stat()
            digest.update(f"{path.relative_to(PACKAGE)}:{st.st_mtime_ns}:{st.st_size}\n".encode())
        _PACKAGE_STAMP.append(digest.hexdigest())
    return _PACKAGE_STAMP[0]


class _InstalledLocator(caching.UserProvidedCacheLocator):
    """An installed nbrepro's kernels in the user's cache folder (the module docstring says why)."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        folder = Path(py_file).resolve().parent.relative_to(PACKAGE.parent)   # nbrepro/classifiers/…
        self._cache_path = str(location.user_cache() / "numba" / folder)

    @classmethod
    def from_function(cls, py_func, py_file):
        if location.checkout() is not None or not str(getattr(py_func, "__module__", "")).startswith("nbrepro."):
            return None
        return super(caching.UserProvidedCacheLocator, cls).from_function(py_func, py_file)


_cache_init = caching.Cache.__init__


def _cache_init_stamped(self, py_func):
    _cache_init(self, py_func)
    if str(getattr(py_func, "__module__", "")).startswith("nbrepro."):
        self._cache_file._source_stamp = (self._cache_file._source_stamp, package_stamp())


_compile = dispatcher.Dispatcher.compile
_COMPILING: set[str] = set()  # the kernels whose compile lock this process holds


def _compile_once(self, sig):
    """``Dispatcher.compile`` (which loads a signature from the cache, else compiles and saves
    it) under the kernel's compile lock, where the signature is new to this process and the
    kernel is cached on disk."""
    cache_file = getattr(self._cache, "_cache_file", None)
    if cache_file is None or tuple(sigutils.normalize_signature(sig)[0]) in self.overloads:
        return _compile(self, sig)
    path = cache_file._index_path
    if path in _COMPILING:  # flock is per open file: this process already holds it
        return _compile(self, sig)
    with _locked(cache_file, fcntl.LOCK_EX, ".compiling"):
        _COMPILING.add(path)
        try:
            return _compile(self, sig)
        finally:
            _COMPILING.discard(path)


def install() -> None:
    """Wrap numba's cache index reads and writes in the locks, compile each new kernel under its
    own lock, and stamp nbrepro's kernels with the whole package's sources (once)."""
    if dispatcher.Dispatcher.compile is not _compile_once:
        dispatcher.Dispatcher.compile = _compile_once
    if caching.IndexDataCacheFile.save is not _save_locked:
        caching.IndexDataCacheFile.save = _save_locked
        caching.IndexDataCacheFile.load = _load_locked
    if caching.Cache.__init__ is not _cache_init_stamped:
        caching.Cache.__init__ = _cache_init_stamped
    locators = caching.CacheImpl._locator_classes
    if _InstalledLocator not in locators:   # after NUMBA_CACHE_DIR's, before the in-tree one
        locators.insert(locators.index(caching.UserProvidedCacheLocator) + 1, _InstalledLocator)


install()  # on first import: before any kernel of the importing module is defined
