# SPDX-License-Identifier: GPL-3.0-or-later
"""Walker's alias table of Weka 3.6's ``Instances.resampleWithWeights``, compiled, against the Java
method transcribed line by line in Python (``Bagging`` draws every bag from it)."""
import numpy as np

from nbrepro.weka._random_kernel import alias_table


def _resample_table_as_java(weights):
    n = len(weights)
    total = 0.0
    for v in weights:
        total += float(v)
    Q = [n * (float(v) / total) for v in weights]  # Utils.normalize, then × n
    A, W = [0] * n, [0] * n
    small, large = -1, n
    for i in range(n):
        if Q[i] < 1.0:
            small += 1
            W[small] = i
        else:
            large -= 1
            W[large] = i
    if small > -1 and large < n:
        for i in range(n - 1):
            k, j = W[i], W[large]
            A[k] = j
            Q[j] += Q[k] - 1.0
            if Q[j] < 1.0:
                large += 1
            if large >= n:
                break
    return np.array([q + i for i, q in enumerate(Q)]), np.array(A, dtype=np.int64)


def test_alias_table_is_javas():
    rng = np.random.default_rng(5)
    cases = [np.ones(1), np.ones(7), np.array([0.0, 1.0, 0.0]), np.array([3.0, 1.0])]
    cases += [rng.random(int(rng.integers(1, 300))) * rng.choice([1, 7, 1e-3]) for _ in range(200)]
    cases += [np.round(rng.random(50) * 4) + 1 for _ in range(20)]  # whole weights, many ties
    for w in cases:
        Q, A = alias_table(np.ascontiguousarray(w, dtype=np.float64))
        Qj, Aj = _resample_table_as_java(w)
        assert np.array_equal(Q, Qj) and np.array_equal(A, Aj)
