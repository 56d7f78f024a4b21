# SPDX-License-Identifier: GPL-3.0-or-later
"""Least-squares locally weighted naive Bayes (Orhan, Adem & Comert 2012): FrequencyGaussianNB with
each factor raised to a weight fitted by least squares.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import StrOptions

from .._nominal import refuse_fit_params
from ._gaussian_nb import FrequencyGaussianNB


class LSLWNB(FrequencyGaussianNB):
    """Least-squares locally weighted naive Bayes (Orhan, Adem & Comert 2012).

        score(c | x) = w_0 log10(P(c) + ε)·[use_prior] + Σ_i w_i log10(P(x_i | c) + ε)

    i.e. NB with every factor raised to a power w_i. Each training row j gives one
    equation per class: E_j(c) = (log10 factors of row j under class c), target D = +1
    for the row's own class and −1 for the other (Eq. 5–7; for more than two classes,
    −1 for each other class — the paper is two-class only). The weights are Eq. 10:

        w_i = Σ_eq E_i D / Σ_eq E_i²

    each factor's least-squares slope on its own, through the origin. Eq. 9 writes an
    intercept and Eq. 10 has none; we follow Eq. 10 (``solver="per_factor"``).
    ``solver="joint"`` solves the multivariate least squares of Eq. 8 instead (no
    intercept), for comparison. A factor with Σ E_i² = 0 gets weight 0. With
    ``use_prior=False`` the class-prior factor is left out of the fit and the score
    (Table 3's TCA*). The prior factors, then the attributes in column order.

    ``ignored_attribute`` (a column name, or a position for an array): the model is fitted on
    every attribute, and that attribute's factor is then left out of the score (its weight set
    to 0) without refitting the others: Table 4 read as dropping a factor from the fitted model,
    against refitting without the attribute.

    Parameters
    ----------
    epsilon : float
        Added to every probability before its log, as in FrequencyGaussianNB.
    use_prior : bool
        Whether the class-prior factor is fitted and scored.
    std_ddof : int
        Delta degrees of freedom of the per-class standard deviation (1: sample sd).
    solver : {"per_factor", "joint"}
        Eq. 10's slope per factor, or Eq. 8's multivariate least squares.
    ignored_attribute : str, int or None
        An attribute whose factor is left out of the score after fitting (Table 4's second reading).

    Attributes
    ----------
    classes_ : ndarray
        The class labels, in the order of ``predict_proba``'s columns.
    class_count_ : ndarray
        Training rows per class.
    class_prior_ : ndarray
        The class prior the model uses.
    n_features_in_ : int
        The number of attributes seen in ``fit``.
    feature_names_in_ : ndarray
        The attribute names, when ``fit`` was given a DataFrame.
    nominal_ : ndarray of bool
        Which attributes are nominal.
    categories_ : list
        Per attribute, its declared values in code order (None for a numeric one).
    frequencies_ : list
        Per nominal attribute, the (values, classes) relative frequencies P(x | c) (None for a numeric one).
    means_, stds_ : list
        Per numeric attribute, the per-class mean and standard deviation (None for a nominal one).
    weights_ : ndarray
        The least-squares weight of each factor, the class prior's first (0 when it is not used).

    Examples
    --------
    >>> import pandas as pd
    >>> from nbrepro.classifiers import LSLWNB
    >>> X = pd.DataFrame({"x": [1.0, 1.3, 0.9, 1.1, 3.0, 3.4, 2.8, 3.1], "z": [0.5, 0.1, 0.4, 0.2, 0.9, 0.6, 0.8, 0.7]})
    >>> y = pd.Series(["a", "a", "a", "a", "b", "b", "b", "b"])
    >>> clf = LSLWNB().fit(X, y)
    >>> clf.predict(X).tolist()
    ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b']
    >>> clf.predict_proba(X[:2]).round(3)
    array([[0.94 , 0.06 ],
           [0.999, 0.001]])
    """

    _parameter_constraints: dict = {
        **FrequencyGaussianNB._parameter_constraints,
        "solver": [StrOptions({"per_factor", "joint"})],
        "ignored_attribute": [str, Integral, None],
    }

    def __init__(
        self,
        *,
        epsilon: float = 1e-9,
        use_prior: bool = True,
        std_ddof: int = 1,
        solver: str = "per_factor",
        ignored_attribute=None,
    ):
        super().__init__(epsilon=epsilon, use_prior=use_prior, std_ddof=std_ddof)
        self.solver = solver
        self.ignored_attribute = ignored_attribute

    def fit(self, X, y, **params):
        refuse_fit_params(self, params)
        ycodes = self._fit_model(X, y)
        F = self.log_factors(X)
        keep = ycodes >= 0
        F, ycodes = F[keep], ycodes[keep]
        n, m1, r = F.shape
        target = np.where(np.arange(r)[None, :] == ycodes[:, None], 1.0, -1.0)  # (rows, classes)
        first = 0 if self.use_prior else 1
        E = F[:, first:, :].transpose(0, 2, 1).reshape(n * r, m1 - first)  # one equation per (row, class)
        D = target.reshape(n * r)
        # numpy's einsum and the compiled least squares sum in one order on every CPU; BLAS
        # (E.T @ D, np.linalg.lstsq) picks its kernels, and so its sums' order, for the CPU
        if self.solver == "per_factor":
            num = np.einsum("ei,e->i", E, D)
            den = np.einsum("ei,ei->i", E, E)
            w = np.divide(num, den, out=np.zeros_like(num), where=den > 0)
        else:
            from ._least_squares_kernel import least_squares  # numba: imported where first needed

            w = least_squares(np.ascontiguousarray(E, dtype=np.float64), np.ascontiguousarray(D, dtype=np.float64))
        self.weights_ = np.concatenate([[0.0] * first, w])  # weights_[0] is the prior's (0 when unused)
        if self.ignored_attribute is not None:
            self.weights_[1 + self._attribute_position(self.ignored_attribute, m1 - 1)] = 0.0
        return self

    def _attribute_position(self, attribute, n_attributes: int) -> int:
        names = getattr(self, "feature_names_in_", None)
        if names is not None:
            found = [i for i, name in enumerate(names) if name == attribute]
            if not found:
                raise ValueError(f"LSLWNB: ignored_attribute {attribute!r} is not a column (columns: {list(names)})")
            return found[0]
        if not isinstance(attribute, (int, np.integer)) or not 0 <= attribute < n_attributes:
            raise ValueError(
                f"LSLWNB: ignored_attribute must be a column position 0 … {n_attributes - 1} for an array, "
                f"got {attribute!r}"
            )
        return int(attribute)

    def _scores(self, F: np.ndarray) -> np.ndarray:
        return np.einsum("nic,i->nc", F, self.weights_)
