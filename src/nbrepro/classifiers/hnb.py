"""Hidden naive Bayes, exactly as Weka 3.6's ``HNB``."""
from __future__ import annotations

import numpy as np

from ._joint import JointCountsMixin, diagonal, flat_index, log2_ratio, ordered_sum, row_chunks, value_layout, with_sentinel
from ._nominal import normalize_or_uniform


class HNB(JointCountsMixin):
    """Hidden naive Bayes (Zhang, Jiang & Su 2005), as Weka 3.6 ``HNB``.

        P(c | x) ∝ P̂(c) ∏_i Σ_{j ≠ i} W_ij P̂(x_i | x_j, c) / Σ_{j ≠ i} W_ij

    Each attribute i has a hidden parent that mixes one-dependence estimates over the
    other attributes j, weighted by the conditional mutual information W_ij = I(X_i; X_j | C)
    (bits; a term counts as 0 when either probability product is below 1e-6, as in Weka).
    P̂(c) = (n_c + 1/r)/(n + 1) and P̂(x_i | x_j, c) = (n(c, x_j, x_i) + 1/q_i)/(n(c, x_j) + 1);
    when all W_ij are 0 the factor is P̂(x_i | c) = (n(c, x_i) + 1/q_i)/(n_c + 1).

    Weka's HNB refuses missing values; so does ``fit`` here. At predict time a missing or
    undeclared value leaves its attribute out (as child, and as a parent of the others);
    with complete data the probabilities equal Weka's to the last bit.

    Parameters
    ----------
    handle_unknown : {"ignore", "error"}
        An undeclared test value is left out, or raises ``ValueError``.
    """

    complete_training = True

    def __init__(self, handle_unknown: str = "ignore"):
        self.handle_unknown = handle_unknown

    def _fit_counts(self, counts: dict) -> None:
        r = len(self.classes_)
        q = self.n_values_.astype(np.float64)
        self.offsets_, T, owner, miss = value_layout(self.n_values_)
        joint = counts["joint"]  # (T, T, r)
        class_count = counts["class"]
        n = int(class_count.sum())
        self.conditional_mutual_information_ = _conditional_mutual_information(
            joint, class_count, self.offsets_, self.n_values_, n)

        parent = diagonal(joint)  # n(c, u) as (T, r)
        w = self.conditional_mutual_information_[owner][:, owner].T  # w[u, v] = W[child of v, parent of u]
        term = (w[:, :, None] * (joint + (1.0 / q[owner])[None, :, None])) / (parent[:, None, :] + 1.0)
        term[miss] = 0.0  # a missing parent adds nothing
        self._term = with_sentinel(term.reshape(T * T, r), 0.0)
        self._alone = (parent + (1.0 / q[owner])[:, None]) / (class_count + 1.0)[None, :]
        self._prior = (class_count + 1.0 / r) / (n + 1.0)
        self._n_total = T

    def _proba_codes(self, codes: np.ndarray) -> np.ndarray:
        n, d = codes.shape
        r = len(self.classes_)
        T = self._n_total
        zero = self._term.shape[0] - 1
        idx = flat_index(codes, self.offsets_, self.n_values_)
        known = codes >= 0
        W = self.conditional_mutual_information_  # zero diagonal
        probs = np.empty((n, r))
        for rows in row_chunks(n, d * r):
            I, ok = idx[rows], known[rows]
            mix = np.zeros((len(I), d, r))  # per child attribute s: Σ_p W[s,p] P(x_s | x_p, c), p first to last
            weight_sum = np.zeros((len(I), d))
            for p in range(d):
                pair = I[:, p:p + 1] * T + I
                pair[:, p] = zero  # an attribute is not its own parent
                mix += np.take(self._term, pair, axis=0)
                weight_sum += np.where(ok[:, p:p + 1], W[:, p][None, :], 0.0)
            mixed = weight_sum > 0
            with np.errstate(invalid="ignore", divide="ignore"):
                factor = np.where(mixed[..., None], mix / weight_sum[..., None], self._alone[I])
            factor[~ok] = 1.0  # a missing child is left out
            stacked = np.concatenate([np.broadcast_to(self._prior, (len(I), 1, r)), factor], axis=1)
            probs[rows] = np.multiply.reduce(stacked, axis=1)  # prior, then children first to last
        return normalize_or_uniform(probs)


def _conditional_mutual_information(joint, class_count, offsets, n_values, n) -> np.ndarray:
    """W[i, j] = I(X_i; X_j | C) in bits, summed class, parent value, child value first to last (Weka's order)."""
    r = joint.shape[2]
    d = len(n_values)
    vmax = int(n_values.max())
    grid = np.arange(vmax)
    valid = grid[None, :] < n_values[:, None]  # (d, vmax)
    flat = np.where(valid, offsets[:, None] + grid[None, :], 0)  # padded flat index per (attribute, value)
    nn = float(n)
    p_class = class_count / nn
    p_value = diagonal(joint).T[:, flat] / nn  # (r, d, vmax): P(c, x_a = v)
    W = np.zeros((d, d))
    # one child attribute at a time keeps memory at r·d·vmax·q_s values
    for s in range(d):
        qs = int(n_values[s])
        child = flat[s, :qs]
        p_pair = np.moveaxis(joint[flat[:, :, None], child[None, None, :]], 3, 0) / nn  # (r, d, vp, vs)
        x = p_pair * p_class[:, None, None, None]
        y = p_value[:, :, :, None] * p_value[:, s, None, None, :qs]
        terms = p_pair * log2_ratio(x, y)
        terms *= valid[None, :, :, None]
        # order of Weka's loops: class, parent value, child value; parents vectorised
        W[s] = ordered_sum(terms.transpose(0, 2, 3, 1).reshape(-1, d), axis=0)
    np.fill_diagonal(W, 0.0)
    return W
