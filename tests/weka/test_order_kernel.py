# SPDX-License-Identifier: GPL-3.0-or-later
"""Weka's quicksort, compiled with the values moving beside their positions, against Weka 3.6's
``Utils.quickSort`` read literally (positions moved, values looked up)."""
import numpy as np

from nbrepro.weka._order_kernel import weka_quicksort_in_place, weka_quicksort_index


def _weka_utils_quicksort(array):
    """Utils.sortWithNoMissingValues → quickSort(array, index, 0, n − 1), recursive as in Java."""
    index = list(range(len(array)))

    def cswap(i, j):
        if array[index[i]] > array[index[j]]:
            index[i], index[j] = index[j], index[i]

    def partition(left, right):
        center = (left + right) // 2
        cswap(left, center)
        cswap(left, right)
        cswap(center, right)
        index[center], index[right - 1] = index[right - 1], index[center]
        pivot = array[index[right - 1]]
        i, j = left, right - 1
        while True:
            i += 1
            while array[index[i]] < pivot:
                i += 1
            j -= 1
            while array[index[j]] > pivot:
                j -= 1
            if i >= j:
                break
            index[i], index[j] = index[j], index[i]
        index[i], index[right - 1] = index[right - 1], index[i]
        return i

    def quicksort(left, right):
        diff = right - left
        if diff <= 0:
            return
        if diff == 1:
            cswap(left, right)
        elif diff == 2:
            cswap(left, left + 1)
            cswap(left, right)
            cswap(left + 1, right)
        else:
            middle = partition(left, right)
            quicksort(left, middle - 1)
            quicksort(middle + 1, right)

    quicksort(0, len(array) - 1)
    return np.array(index, dtype=np.int64)


def test_quicksort_is_wekas_order_with_ties():
    rng = np.random.default_rng(0)
    for trial in range(200):
        n = int(rng.integers(0, 300))
        values = np.round(rng.normal(size=n) * rng.choice([0.5, 3, 100]), 0)  # many ties: the order shows
        want = _weka_utils_quicksort(values.tolist())
        assert np.array_equal(weka_quicksort_index(values), want), trial
        start = rng.permutation(n)
        vals = values.copy()
        weka_quicksort_in_place(vals, start_copy := start.copy())
        assert np.array_equal(start_copy, start[want]) and np.array_equal(vals, values[want]), trial


def test_quicksort_partitions_in_blocks_as_wekas_scans():
    # the partition finds its scans' stops a block at a time; longer arrays (several blocks), runs of
    # one value, sorted and reversed input and Weka's stand-in for a missing value (the largest double)
    rng = np.random.default_rng(5)
    for trial in range(300):
        n = int(rng.integers(0, 700))
        values = rng.integers(0, int(rng.integers(1, 40)), n).astype(float) if trial % 3 else rng.random(n)
        if trial % 4 == 0:
            values[rng.random(n) < 0.4] = np.finfo(np.float64).max
        if trial % 5 == 0:
            values = np.sort(values) if trial % 2 else np.sort(values)[::-1].copy()
        want = _weka_utils_quicksort(values.tolist())
        assert np.array_equal(weka_quicksort_index(values), want), trial


def test_sorts_in_turn_are_wekas_quicksorts_one_after_the_other():
    # NBTree's node orders: each column's sort starts from the order the one before left, twice
    # each; a sort of distinct values already in order is skipped, which must leave the same order
    from nbrepro.weka._order_kernel import weka_sorts_in_turn

    rng = np.random.default_rng(7)
    for trial in range(100):
        n, m = int(rng.integers(1, 120)), int(rng.integers(1, 5))
        Z = np.round(rng.normal(size=(n + 5, m)) * rng.choice([0.5, 3, 1000], m), 0)
        Z[rng.random(Z.shape) < 0.05] = np.nan
        rows = rng.permutation(n + 5)[:n]
        columns = rng.permutation(m)
        times = int(rng.integers(1, 3))
        order = np.arange(n)
        want = []
        for j in columns:
            for _ in range(times):
                x = Z[rows[order], j]
                order = order[_weka_utils_quicksort(np.where(np.isnan(x), np.finfo(np.float64).max, x))]
            want.append(order)
        got = weka_sorts_in_turn(Z, rows, columns, times)
        assert np.array_equal(got, np.array(want).reshape(len(columns), n)), trial
