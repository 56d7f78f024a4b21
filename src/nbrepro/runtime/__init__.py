# SPDX-License-Identifier: GPL-3.0-or-later
"""How the workflow's jobs run, apart from what they compute: the warm worker they fork from
(``worker``), a killed run's stale locks (``locks``), the allocator kept warm (``_malloc``), numba's
cache stamped with the package's sources (``_numba_cache``), a long job's progress (``progress``),
where the package runs from (``location``).
None of it imports the rest of the package, and none of it changes a result."""
