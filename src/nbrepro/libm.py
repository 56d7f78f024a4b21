# SPDX-License-Identifier: GPL-3.0-or-later
"""exp, log and their kin on float64 arrays, computed by the C library on every machine.

Why not numpy's: numpy dispatches its float64 ``exp`` and ``log`` to its own AVX-512 loops, and
``log1p``, ``expm1``, ``log2``, ``log10`` and ``power`` to Intel's SVML, on a CPU that has AVX-512
(numpy's ``X86_V4``). Those loops differ from the C library's functions in the last bit on a few
percent of values (measured on 200 000 normal values × 30 with numpy 2.4.6: ``exp`` on 9 315,
``log10`` on 17 030, ``power(x, 5.0)`` on 10 549; ``log`` on 92). On a CPU without AVX-512 numpy
calls the C library, and so do numba's compiled kernels, CPython's ``math``, R and (to the
rounding Weka's printed numbers show) Java. A result computed with numpy's functions would
therefore depend on the CPU's vector width, and the numpy form of a computation would part from
its compiled form on some machines and not on others.

Each function here is a numpy ufunc compiled by numba whose loop calls the C library's scalar
function (``math.exp`` in numba lowers to a call of libm's ``exp``), so it gives the bits that
numpy gives on a machine without AVX-512, on any x86-64 machine: ``libm.exp(x)`` is
``np.exp(x)`` there, value for value, with numpy's broadcasting, ``out=`` and ``where=``, and
numpy's floating-point warnings (``np.errstate`` governs them). What numpy computes exactly
(``sqrt``, ``square``, ``x ** 2``, ``x ** 0.5`` and ``x ** -1``, which numpy turns into a
square, a square root and a reciprocal; sums, products, sorting) is left to numpy: its bits do
not depend on the vector width (checked by ``tests/test_libm.py`` in a process with numpy's
AVX-512 loops switched off).

Use these wherever a result's bits matter (every estimator, bandwidth selector and statistic of
the package); ``ruff`` bans the numpy names in ``src/`` outside compiled kernels
(``pyproject.toml``, ``[tool.ruff.lint.flake8-tidy-imports.banned-api]``).
"""
from __future__ import annotations

import math
import warnings

import numba

from .runtime._numba_cache import vectorize  # numba's, its cache locks installed first

if numba.config.USING_SVML:  # icc_rt is installed: numba vectorises exp and log with Intel's SVML
    warnings.warn("numba uses Intel's SVML here (the icc_rt package is installed): compiled exp, log and pow "
                  "are not the C library's and results may differ from other machines' in their last bits; "
                  "set NUMBA_DISABLE_INTEL_SVML=1", RuntimeWarning, stacklevel=2)

__all__ = ["exp", "expm1", "log", "log1p", "log2", "log10", "power"]

_FLOAT64 = ["float64(float64)"]

# numba's vectorize gives a DUFunc; its ``.ufunc`` (bound at the end) is the plain numpy ufunc with
# the compiled loop, which costs numpy's call overhead (0.09 µs) rather than the DUFunc's (0.9 µs).


@vectorize(_FLOAT64, cache=True)
def exp(x):
    return math.exp(x)


@vectorize(_FLOAT64, cache=True)
def expm1(x):
    return math.expm1(x)


@vectorize(_FLOAT64, cache=True)
def log(x):
    return math.log(x)  # −inf at 0 and NaN below, with numpy's warnings


@vectorize(_FLOAT64, cache=True)
def log1p(x):
    return math.log1p(x)


@vectorize(_FLOAT64, cache=True)
def log2(x):
    return math.log2(x)


@vectorize(_FLOAT64, cache=True)
def log10(x):
    return math.log10(x)


@vectorize(["float64(float64, float64)"], cache=True)
def power(x, y):
    # libm's pow for every exponent. numpy's own ``x ** 2`` is x·x, which pow may round
    # otherwise (on 196 of 200 000 values): keep numpy's operator where x·x is the intended value
    return x ** y


exp, expm1, log, log1p, log2, log10, power = (f.ufunc for f in (exp, expm1, log, log1p, log2, log10, power))
