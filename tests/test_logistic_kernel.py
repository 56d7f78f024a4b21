"""Weka Logistic's objective and gradient: the compiled sums against their numpy form."""
import numpy as np
import pytest

from nbrepro.classifiers import weka_optimization as wo
from nbrepro.classifiers.logistic import PenalisedLikelihood


def _cumulative(start, terms):
    return float(np.cumsum(np.concatenate(([start], terms)))[-1])


class _NumpyLikelihood:
    """The numpy form the kernel replaced: the same sums in the same order."""

    def __init__(self, S, y, w, K, ridge):
        self.S, self.ST, self.y, self.w, self.K, self.ridge, self.dim = S, np.ascontiguousarray(S.T), y, w, K, ridge, S.shape[1]
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
            denom = np.exp(-top)
        expo = np.empty_like(eta)
        for c in range(self.K - 1):
            expo[c] = np.exp(eta[c] - top)
            denom = denom + expo[c]
        return eta, top, expo, denom

    def value(self, x):
        eta, top, _, denom = self._shifted(x)
        B = x.reshape(self.K - 1, self.dim)
        own = np.where(self.y == self.K - 1, -top, eta[np.minimum(self.y, self.K - 2), self._rows] - top)
        nll = _cumulative(0.0, -(self.w * (own - np.log(denom))))
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
    rng = np.random.default_rng(K * 100 + dim)
    S = rng.normal(size=(n, dim))
    S[:, 0] = 1.0
    y = rng.integers(0, K, n)
    w = rng.choice([1.0, 0.5, 2.0, 0.3], n)
    compiled, reference = PenalisedLikelihood(S, y, w, K, 1e-8), _NumpyLikelihood(S, y, w, K, 1e-8)
    for scale in (0.0, 0.1, 3.0, 400.0):  # 400: exp(−max) overflows, as on a long line-search step
        x = rng.normal(size=(K - 1) * dim) * scale
        assert compiled.value(x) == reference.value(x) or (np.isnan(compiled.value(x)) and np.isnan(reference.value(x)))
        assert np.array_equal(compiled.gradient(x), reference.gradient(x), equal_nan=True)


def test_compiled_sums_of_the_optimiser_are_left_to_right():
    rng = np.random.default_rng(5)
    for n in (0, 1, 7, 130):
        a, b = rng.normal(size=n) * 1e3, rng.normal(size=n)
        assert wo.sequential_sum(0.25, a) == _cumulative(0.25, a)
        assert wo._dot(a, b) == _cumulative(0.0, a * b)
