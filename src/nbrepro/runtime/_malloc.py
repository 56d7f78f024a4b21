# SPDX-License-Identifier: GPL-3.0-or-later
"""Keep freed memory in the process for reuse, in a pipeline job (the CLI and the warm worker).

Why: glibc's malloc serves a block above its mmap threshold (128 kB to start, raised as such
blocks are freed, at most 32 MB) with a fresh mapping, and gives it back when it is freed, so the
next array of that size starts as untouched pages the kernel must fault in and zero. A classifier
that allocates temporaries of a few MB per fold (a 4 500 × 40 float64 array is 1.4 MB) pays that
on every fold: NaiveBayes on waveform's ten folds took 87 ms against 56 ms with the memory kept
(benchmarks/weka_learners_speed.py). With a fixed mmap threshold of 64 MB and a trim threshold of
256 MB, such blocks come from the heap and freed ones stay for the next; at most 256 MB more is
kept than in use. Nothing computed changes: only where the bytes live.

Only the command line and the worker call this (a job is its own process); importing the
classifiers into another program leaves that program's allocator alone.
"""
from __future__ import annotations

import ctypes
import ctypes.util

_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_THRESHOLD = -1, -2, -3   # glibc's malloc.h
_DONE = []


def keep_freed_memory() -> bool:
    """Set glibc's thresholds (once per process); False where the C library is not glibc."""
    if _DONE:
        return _DONE[0]
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        _DONE.append(False)
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    ok = all(mallopt(option, value) == 1 for option, value in (
        (_M_MMAP_THRESHOLD, 64 << 20), (_M_TRIM_THRESHOLD, 256 << 20), (_M_TOP_PAD, 16 << 20)))
    _DONE.append(ok)
    return ok
