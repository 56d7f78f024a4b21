# SPDX-License-Identifier: GPL-3.0-or-later
"""Weka's minimiser: the compiled triangular solves and Cholesky update against the numpy ones."""
import numpy as np
import pytest
import weka_optimization_reference as wo

pytestmark = pytest.mark.bits  # compares bits: .ci/run repeats it with numpy's AVX-512 loops off


def test_compiled_steps_have_the_numpy_bits():
    rng = np.random.default_rng(3)
    for n in (1, 2, 5, 17, 48):
        L = np.asfortranarray(np.tril(rng.normal(size=(n, n)) * 0.3, -1) + np.eye(n))
        D = rng.uniform(0.5, 2.0, n)
        b = rng.normal(size=n)
        LD = np.asfortranarray(np.tril(L * D[None, :]))
        assert np.array_equal(wo._solve_lower(LD, b), wo._solve_lower_reference(LD, b))
        assert np.array_equal(wo._solve_upper_transposed(L, b), wo._solve_upper_transposed_reference(L, b))
        t = float((wo._solve_lower_reference(L, b) ** 2 / D).sum())
        for coeff in (0.7, -0.5 / t):  # a downdate that keeps the factor positive definite
            L1, D1, L2, D2 = L.copy(order="F"), D.copy(), L.copy(order="F"), D.copy()
            wo._update_cholesky(L1, D1, b, coeff)
            wo._update_cholesky_reference(L2, D2, b, coeff)
            assert np.array_equal(L1, L2) and np.array_equal(D1, D2)


def test_a_division_by_zero_at_the_last_step_gives_infinity_as_in_java():
    # a downdate that exactly cancels: theta = rho = 0 at the only (last) step, where Weka
    # divides by zero without checking; Java's doubles give inf there, Python floats would raise
    for update in (wo._update_cholesky, wo._update_cholesky_reference):
        L, D = np.asfortranarray(np.eye(1)), np.ones(1)
        update(L, D, np.array([2.0]), -0.25)
        assert D.tolist() == [0.0] and L.tolist() == [[1.0]]


def test_compiled_positive_rank_sum_is_the_sum_of_rankdatas_ranks():
    from scipy.stats import rankdata

    from nbrepro.stats._rank_kernel import positive_rank_sum

    rng = np.random.default_rng(1)
    for t in range(400):
        n = int(rng.integers(1, 300))
        s = rng.integers(0, int(rng.integers(1, 20)), n) / 7.0 if t % 2 else rng.random(n)  # with and without ties
        if t % 5 == 0:  # -0.0 ties with 0.0
            s[rng.random(n) < 0.3] = rng.choice([0.0, -0.0])
        pos = rng.random(n) < 0.4
        assert positive_rank_sum(s, pos) == rankdata(s, method="average")[pos].sum()


def test_compiled_selective_scores_equal_the_numpy_scores():
    # SelectiveNB scores each candidate attribute by training accuracy or two-class AUC; the
    # compiled scores must be the numpy path's, ties of probabilities (hence of ranks) included
    from nbrepro.classifiers.weighted._selective_kernel import correct_with, first_class_auc_with
    from nbrepro.classifiers.weighted._selective_nb import SelectiveNB

    rng = np.random.default_rng(2)
    for t in range(200):
        n = int(rng.integers(2, 120))
        base = np.log(rng.dirichlet([1.0, 1.0], n))
        add = np.log(rng.integers(1, 4, (n, 2)) / 4.0) if t % 2 else np.log(rng.dirichlet([2.0, 1.0], n))
        truth = rng.integers(0, 2, n)
        if t % 3 == 0:  # a class ruled out (log 0), in one row or both classes, and an infinite score
            base[rng.random(n) < 0.2, int(rng.integers(0, 2))] = -np.inf
            base[rng.random(n) < 0.05] = rng.choice([-np.inf, np.inf])
        want = SelectiveNB(metric="auc")._score(base + add, truth)
        got = first_class_auc_with(base, add, truth)
        assert got == want or (np.isnan(got) and want == -np.inf)
        count = correct_with(base, add, truth)
        assert float(100.0 * count / n) == SelectiveNB(metric="accuracy")._score(base + add, truth)


def test_training_accuracy_without_exp_where_a_class_clearly_leads():
    # correct_with skips the probabilities where one log score leads by more than CLEAR_LEAD:
    # rows whose scores are equal, a few ulps apart, or just around the lead, against numpy's path
    from nbrepro.classifiers.weighted._selective_kernel import CLEAR_LEAD, correct_with
    from nbrepro.classifiers.weighted._selective_nb import SelectiveNB

    rng = np.random.default_rng(4)
    for t in range(300):
        n, r = int(rng.integers(1, 80)), int(rng.integers(2, 8))
        base = np.log(rng.dirichlet(np.ones(r), n))
        gaps = rng.choice([0.0, 1e-300, 1e-16, 1e-13, 0.5 * CLEAR_LEAD, CLEAR_LEAD, 2 * CLEAR_LEAD, 1e-6, 1.0], (n, r))
        add = -gaps - base + base[:, :1]  # every score near the first class's
        add[rng.random((n, r)) < 0.3] = np.log(rng.random())
        truth = rng.integers(0, r, n)
        want = SelectiveNB(metric="accuracy")._score(base + add, truth)
        assert float(100.0 * correct_with(base, add, truth) / n) == want, t
