# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark: the Gaussian kernel sum per (query, value) pair, compiled (``nbrepro.kde._kernels``)
against the numpy passes it replaced (subtract, square, scale, ``np.exp``, sum per sample).

1000 distinct queries against 10 samples of 100 values each (one attribute of mfeat-fourier's
2-fold half, the heaviest case of Liu et al.), one thread, best of ``--repeats``. Also checks
the compiled exponential against numpy's on 10⁶ arguments. Writes
benchmarks/results/kde_kernel_speed.csv.

    python benchmarks/kde_kernel_speed.py [--repeats 5]
"""
from __future__ import annotations

import argparse  # noqa: E402
import time  # noqa: E402

import _pipeline_env  # noqa: F401  (before numpy: one thread, as a pipeline job)
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

ROOT = _pipeline_env.ROOT

from nbrepro.kde._kernels import dense_attributes, gauss_array  # noqa: E402


def numpy_sums(q, v, half_inv_h2, starts):
    d = q[:, None] - v[None, :]
    np.square(d, out=d)
    d *= -np.repeat(half_inv_h2, np.diff(starts))
    np.exp(d, out=d)
    return np.add.reduceat(d, starts[:-1], axis=1)


def best(fn, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    q = np.sort(rng.normal(size=1000))
    v = np.concatenate([np.sort(rng.normal(size=100)) for _ in range(10)])
    starts = np.arange(0, 1001, 100, dtype=np.int64)
    half_inv_h2 = 0.5 / rng.uniform(0.1, 0.5, 10) ** 2
    w = np.ones(len(v))
    sums = np.zeros(10 * len(q))

    def compiled_sums():  # one attribute, its 10 samples; never the whole-number table
        dense_attributes(q, np.array([0, len(q)]), v, w, starts, half_inv_h2, np.array([0]), np.arange(10),
                         np.array([0, 10]), np.arange(0, 10 * len(q) + 1, len(q)), sums, -1.0)
        return sums.reshape(10, len(q)).T

    compiled = compiled_sums()  # compiles (or loads the cache)
    reference = numpy_sums(q, v, half_inv_h2, starts)
    pairs = len(q) * len(v)
    t_compiled = best(compiled_sums, args.repeats)
    t_numpy = best(lambda: numpy_sums(q, v, half_inv_h2, starts), args.repeats)
    z = np.random.default_rng(0).random(1_000_000) * 800
    mine, libm = gauss_array(z), np.exp(-z)
    normal = libm >= np.finfo(float).tiny
    row = {"pairs": pairs, "compiled_ns_per_pair": round(t_compiled / pairs * 1e9, 2),
           "numpy_ns_per_pair": round(t_numpy / pairs * 1e9, 2),
           "speedup": round(t_numpy / t_compiled, 2),
           "max_relative_difference_of_sums": float(np.max(np.abs(compiled / reference - 1))),
           "exp_max_ulp_normal": float(np.max(np.abs(mine[normal] - libm[normal]) / np.spacing(libm[normal]))),
           "exp_max_units_subnormal": float(np.max(np.abs(mine[~normal] - libm[~normal]) / 5e-324)),
           **_pipeline_env.thread_columns()}
    out = ROOT / "benchmarks" / "results" / "kde_kernel_speed.csv"
    pd.DataFrame([row]).to_csv(out, index=False, lineterminator="\n")
    print(pd.Series(row).to_string())


if __name__ == "__main__":
    main()
