"""nbrepro: reproducible benchmarks of naive-Bayes variants."""
from ._numba_cache import install as _install_numba_cache_locks

_install_numba_cache_locks()  # before any compiled kernel is loaded: see _numba_cache.py
__version__ = "0.1.0"
