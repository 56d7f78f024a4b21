# SPDX-License-Identifier: GPL-3.0-or-later
"""Java's and Weka 3.6's numerics, which the Weka-exact learners, folds and filters share.

Each module reproduces one part of Weka or the JVM bit for bit, and imports only numpy, numba,
scipy.special (Cephes ``ndtr``, which Weka's ``normalProbability`` ports) and ``nbrepro.libm``:

- ``random``: ``java.util.Random`` and Weka's shuffle (compiled in ``_random_kernel``, with
  ``Instances.stratify`` and the draws of ``resampleWithWeights``);
- ``utils``: Weka's ``Utils`` comparisons (tolerance 1e-6), ``log2`` and number formats;
- ``special``: ``Statistics.lnGamma``, ``normalProbability``, ``normalInverse``;
- ``summary``: ``weka.experiment.Stats``'s mean and standard deviation, Java's left-to-right sums;
- ``estimators``: ``NormalEstimator`` and ``KernelEstimator`` as naive Bayes fits them, and
  the precision of a numeric attribute;
- ``_order_kernel``: Weka's quicksort order and its order-sensitive running sums (compiled).
"""
from .estimators import KernelEstimators, NormalEstimators, numeric_precision, numeric_precisions
from .random import JavaRandom, java_shuffle
from .special import weka_ln_gamma, weka_normal_inverse, weka_normal_probability
from .summary import java_sequential_sum, weka_mean_std

__all__ = ["JavaRandom", "java_shuffle", "KernelEstimators", "NormalEstimators", "numeric_precision",
           "numeric_precisions", "weka_ln_gamma", "weka_normal_inverse", "weka_normal_probability",
           "java_sequential_sum", "weka_mean_std"]
