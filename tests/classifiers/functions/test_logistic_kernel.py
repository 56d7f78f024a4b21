# SPDX-License-Identifier: GPL-3.0-or-later
"""Weka Logistic's objective and gradient: the compiled sums against their numpy form (bit for bit)."""
import numpy as np
import pytest
import weka_optimization_reference as wo

from nbrepro import libm

pytestmark = pytest.mark.bits  # compares bits: .ci/run repeats it with numpy's AVX-512 loops off


def _cumulative(start, terms):
    return float(np.cumsum(np.concatenate(([start], terms)))[-1])


class _NumpyLikelihood:
    """The numpy form the kernel replaced: the same sums in the same order, exp and log the C
    library's (nbrepro.libm), as the kernel's."""

    def __init__(self, S, y, w, K, ridge):
        self.S, self.ST, self.y, self.w, self.K, self.ridge, self.dim = (
            S,
            np.ascontiguousarray(S.T),
            y,
            w,
            K,
            ridge,
            S.shape[1],
        )
        self._rows = np.arange(len(y))
        self._own = np.zeros((K - 1, len(y)), dtype=bool)
        mine = y < K - 1
        self._own[y[mine], self._rows[mine]] = True
        self._minus_ws = -(w[:, None] * S)

    def _shifted(self, x):
        B = x.reshape(self.K - 1, self.dim)
        eta = np.zeros((self.K - 1, len(self.y)))
        for j in range(self.dim):
            eta += B[:, j][:, None] * self.ST[j][None, :]
        top = eta.max(axis=0)
        with np.errstate(over="ignore"):
            denom = libm.exp(-top)
        expo = np.empty_like(eta)
        for c in range(self.K - 1):
            expo[c] = libm.exp(eta[c] - top)
            denom = denom + expo[c]
        return eta, top, expo, denom

    def value(self, x):
        eta, top, _, denom = self._shifted(x)
        B = x.reshape(self.K - 1, self.dim)
        own = np.where(self.y == self.K - 1, -top, eta[np.minimum(self.y, self.K - 2), self._rows] - top)
        nll = _cumulative(0.0, -(self.w * (own - libm.log(denom))))
        return _cumulative(nll, (self.ridge * B[:, 1:] * B[:, 1:]).ravel())

    def gradient(self, x):
        _, _, expo, denom = self._shifted(x)
        B = x.reshape(self.K - 1, self.dim)
        first = (self.w[None, :] * (expo / denom[None, :])).T
        width = (self.K - 1) * self.dim
        terms = np.empty((2 * len(self.y) + 1, self.K - 1, self.dim))
        terms[0] = 0.0
        terms[1::2] = first[:, :, None] * self.S[:, None, :]
        terms[2::2] = np.where(self._own.T[:, :, None], self._minus_ws[:, None, :], 0.0)
        grad = np.cumsum(terms.reshape(len(terms), width), axis=0)[-1].reshape(self.K - 1, self.dim)
        grad[:, 1:] += 2.0 * self.ridge * B[:, 1:]
        return grad.ravel()


@pytest.mark.parametrize("K,dim,n", [(2, 1, 1), (2, 3, 40), (3, 4, 257), (8, 9, 302), (5, 17, 90)])
def test_compiled_objective_and_gradient_have_the_numpy_bits(K, dim, n):
    from nbrepro.classifiers.functions import _logistic_kernel as lk

    rng = np.random.default_rng(K * 100 + dim)
    S = rng.normal(size=(n, dim))
    S[:, 0] = 1.0
    y = rng.integers(0, K, n)
    w = rng.choice([1.0, 0.5, 2.0, 0.3], n)
    reference = _NumpyLikelihood(S, y, w, K, 1e-8)
    data = (S, np.ascontiguousarray(S.T), y.astype(np.int64), w, 1e-8)
    state = (
        np.empty((K - 1, n)),
        np.empty(n),
        np.empty((K - 1, n)),
        np.empty(n),
        np.empty((K - 1) * dim),
        np.zeros(1, dtype=np.bool_),
    )
    for scale in (0.0, 0.1, 3.0, 400.0):  # 400: exp(−max) overflows, as on a long line-search step
        x = rng.normal(size=(K - 1) * dim) * scale
        with np.errstate(all="ignore"):
            want_f, want_g = reference.value(x), reference.gradient(x)
        got_f, got_g = lk._objective(x, data, state), lk._gradient(x, data, state)
        assert got_f == want_f or (np.isnan(got_f) and np.isnan(want_f))
        assert np.array_equal(got_g, want_g, equal_nan=True)


def test_compiled_sums_of_the_optimiser_are_left_to_right():
    rng = np.random.default_rng(5)
    for n in (0, 1, 7, 130):
        a, b = rng.normal(size=n) * 1e3, rng.normal(size=n)
        assert wo.sequential_sum(0.25, a) == _cumulative(0.25, a)
        assert wo._dot(a, b) == _cumulative(0.0, a * b)


def _problem(K, dim, n, seed, separable=False):
    rng = np.random.default_rng(seed)
    S = rng.normal(size=(n, dim))
    S[:, 0] = 1.0
    y = rng.integers(0, K, n)
    if separable:  # the class follows a column: the likelihood has no finite optimum (restarts)
        y = (S[:, 1] > 0).astype(int) * (K - 1)
    w = rng.choice([1.0, 0.5, 2.0], n)
    counts = np.bincount(y, minlength=K).astype(float)
    x0 = np.zeros((K - 1, dim))
    x0[:, 0] = libm.log(counts[:-1] + 1.0) - libm.log(counts[-1] + 1.0)
    return S, y, w, x0.ravel()


@pytest.mark.parametrize(
    "K,dim,n,separable",
    [(2, 3, 60, False), (3, 4, 200, False), (8, 9, 150, False), (5, 6, 80, False), (2, 3, 40, True), (3, 2, 30, True)],
)
def test_compiled_fit_takes_the_reference_optimisers_path(K, dim, n, separable):
    from nbrepro.classifiers.functions._logistic import minimize_likelihood

    S, y, w, x0 = _problem(K, dim, n, K * dim + n, separable)
    for max_iter in (-1, 3):
        reference = wo.weka_minimize(
            *(lambda L: (L.value, L.gradient))(_NumpyLikelihood(S, y, w, K, 1e-8)), x0, max_iter=max_iter
        )
        x, fun, iterations = minimize_likelihood(S, y, w, 1e-8, x0, max_iter)
        assert np.array_equal(x, reference.x) and fun == reference.fun and iterations == reference.n_iter


def test_compiled_exp_and_log_are_the_c_librarys():
    # the compiled fit takes exp and log from the C library, and so does the numpy reference
    # through nbrepro.libm: the same functions by construction, whatever numpy's own loops do
    import math

    from numba import njit

    @njit
    def both(a):
        out = np.empty((2, a.shape[0]))
        for i in range(a.shape[0]):
            out[0, i] = np.exp(a[i])
            out[1, i] = np.log(abs(a[i]))
        return out

    a = np.random.default_rng(0).normal(size=200_000) * 30
    a[:4] = [800.0, -800.0, 0.0, 1e-300]
    with np.errstate(all="ignore"):
        assert np.array_equal(both(a), np.vstack([libm.exp(a), libm.log(np.abs(a))]))
    assert all(both(a[4:2000])[0] == [math.exp(v) for v in a[4:2000]])  # CPython's math: the C library's
