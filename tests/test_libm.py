# SPDX-License-Identifier: GPL-3.0-or-later
"""nbrepro.libm is the C library's exp, log and pow on arrays, whatever numpy's loops do on this CPU.

What each test assumes, by name: ``math`` is CPython's, which calls the C library (glibc);
numpy without its AVX-512 loops calls the C library too; and what nbrepro leaves to numpy
(sums, square roots, sorting …) gives the same bits with or without those loops.
"""
import json
import math
import subprocess
import sys

import numpy as np
import pytest
from conftest import AVX512_OFF, numpy_avx512

from nbrepro import libm

pytestmark = pytest.mark.bits

RNG = np.random.default_rng(0)
WIDE = np.concatenate([RNG.normal(size=100_000) * 30, [0.0, -0.0, 1e-300, 5e-324, 709.7, 709.8, -745.2, -746.0,
                                                        np.inf, -np.inf, np.nan]])
POSITIVE = np.concatenate([np.abs(RNG.normal(size=100_000)) * 10 ** RNG.integers(-30, 30, 100_000).astype(float),
                           [0.0, 1.0, 2.0, 5e-324, np.inf, np.nan, -1.0]])
SMALL = np.concatenate([RNG.normal(size=100_000) * 1e-3, RNG.normal(size=10_000), [-1.0, -1.5, 0.0, np.nan]])


def _c_library(f, values):
    """CPython's math function (the C library's) value by value; where ``math`` raises instead
    of returning IEEE's answer, the IEEE answer."""
    out = []
    for v in values:
        try:
            out.append(f(v))
        except OverflowError:
            out.append(math.inf)
        except ValueError:  # log(0) = −inf, log of a negative = NaN, log1p(−1) = −inf
            out.append(-math.inf if v == 0 or (f is math.log1p and v == -1) else math.nan)
    return np.array(out)


CASES = [("exp", math.exp, WIDE), ("expm1", math.expm1, SMALL * 100), ("log", math.log, POSITIVE),
         ("log1p", math.log1p, SMALL), ("log2", math.log2, POSITIVE), ("log10", math.log10, POSITIVE)]


@pytest.mark.parametrize("name,f,values", CASES, ids=[c[0] for c in CASES])
def test_each_function_is_the_c_librarys(name, f, values):
    with np.errstate(all="ignore"):
        got = getattr(libm, name)(values)
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, _c_library(f, values))


@pytest.mark.parametrize("y", [3.0, 5.0, 7.0, 1 / 5, -1 / 5, 1 / 7, 5 / 7, 2.0, 0.5, -1.0, 0.0])
def test_power_is_the_c_librarys_pow_for_every_exponent(y):
    # 2, 0.5 and −1 included: numpy's np.power takes x·x, √x and 1/x for those scalar exponents,
    # libm.power is pow(x, y) always (they differ on a few hundred of these values)
    x = POSITIVE[np.isfinite(POSITIVE) & (POSITIVE > 0) & (POSITIVE < 1e30)]
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(libm.power(x, y), _c_library(lambda v: math.pow(v, y), x))
        np.testing.assert_array_equal(libm.power(10.0, SMALL), _c_library(lambda v: math.pow(10.0, v), SMALL))


def test_ufunc_behaviour_is_numpys():
    # broadcasting, out=, integer input, a numpy scalar back for a scalar, and numpy's warnings
    out = np.empty((2, 3))
    assert libm.exp(np.zeros((2, 3)), out=out) is out and (out == 1.0).all()
    assert libm.log(np.arange(1, 4)).dtype == np.float64
    assert isinstance(libm.log(2.0), np.float64) and libm.log(2.0) == math.log(2.0)
    np.testing.assert_array_equal(libm.power(np.array([[2.0], [3.0]]), np.array([3.0, 0.5])),
                                  [[8.0, math.pow(2, 0.5)], [27.0, math.pow(3, 0.5)]])
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        assert libm.log(np.array([0.0]))[0] == -np.inf
    with np.errstate(all="raise"), pytest.raises(FloatingPointError):
        libm.exp(np.array([1000.0]))


def test_numba_calls_the_c_library_not_svml():
    # numba vectorises exp and log with Intel's SVML when icc_rt is installed: other bits
    import numba

    assert not numba.config.USING_SVML, "numba uses SVML here (icc_rt installed): set NUMBA_DISABLE_INTEL_SVML=1"


_PROBE = r"""
import hashlib, json, sys
import numpy as np
from nbrepro import libm
rng = np.random.default_rng(1)
x = rng.normal(size=50_000) * 30
pos = np.abs(x) + 1e-3
small = rng.normal(size=50_000) * 1e-2
M = rng.normal(size=(300, 17))
def h(v):
    return hashlib.sha256(np.ascontiguousarray(v).tobytes()).hexdigest()
with np.errstate(all="ignore"):
    numpy_fns = {"exp": np.exp(x), "expm1": np.expm1(small), "log": np.log(pos), "log1p": np.log1p(small),
                 "log2": np.log2(pos), "log10": np.log10(pos), "power": np.power(pos, 1 / 7)}
    libm_fns = {"exp": libm.exp(x), "expm1": libm.expm1(small), "log": libm.log(pos), "log1p": libm.log1p(small),
                "log2": libm.log2(pos), "log10": libm.log10(pos), "power": libm.power(pos, 1 / 7)}
    # what nbrepro leaves to numpy: exact operations, and reductions in a fixed order
    left = {"sum": x.sum(), "sum_axis0": M.sum(axis=0), "sum_axis1": M.sum(axis=1), "mean": M.mean(axis=0),
            "var": M.var(axis=1), "std": M.std(axis=0, ddof=1), "cumsum": np.cumsum(x),
            "accumulate": np.add.accumulate(M, axis=1), "prod": np.prod(M[:5], axis=0), "sqrt": np.sqrt(pos),
            "square": np.square(x), "x**2": x ** 2, "x**0.5": pos ** 0.5,
            "x**-1": pos ** -1, "power2": np.power(x, 2.0), "divide": x / 7.1, "einsum": np.einsum("ij,ij->i", M, M),
            "einsum3": np.einsum("nic,i->nc", M.reshape(100, 3, 17), M[0, :3]), "maximum": np.maximum(x, 0.1),
            "sort": np.sort(x), "argsort": np.argsort(x, kind="stable"), "rint": np.rint(x), "floor": np.floor(x),
            "median": np.median(x), "percentile": np.percentile(x, [25, 75]), "float32": x.astype(np.float32),
            "nan_to_num": np.nan_to_num(libm.log(x))}
json.dump({"numpy": {k: h(v) for k, v in numpy_fns.items()}, "libm": {k: h(v) for k, v in libm_fns.items()},
           "left": {k: h(v) for k, v in left.items()}}, sys.stdout)
"""


def _probe(env_extra) -> dict:
    import os

    env = dict(os.environ, **env_extra)
    res = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, env=env, check=True)
    return json.loads(res.stdout)


def test_libm_is_numpy_without_avx512_and_what_is_left_to_numpy_does_not_depend_on_it():
    here, off = _probe({}), _probe(AVX512_OFF)
    # numpy without its AVX-512 loops calls the C library: libm gives its bits, with the loops or without
    assert off["numpy"] == off["libm"] == here["libm"]
    # sums, square roots, sorting … are the same bits with numpy's AVX-512 loops on and off
    assert here["left"] == off["left"]
    if numpy_avx512():  # here numpy's own loops part from the C library (all but these are known to)
        assert here["numpy"] != off["numpy"]
    else:
        print("numpy uses no AVX-512 loops on this machine: the two runs are the same configuration")
