"""nbrepro: reproducible benchmarks of naive-Bayes variants."""

__version__ = "0.1.0"
