# SPDX-License-Identifier: GPL-3.0-or-later
"""nbrepro: reproducible benchmarks of naive-Bayes variants."""

__version__ = "0.1.0"
