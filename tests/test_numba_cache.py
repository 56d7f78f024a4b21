# SPDX-License-Identifier: GPL-3.0-or-later
"""Two processes compiling one kernel's signatures at once keep numba's cache consistent
(nbrepro.runtime._numba_cache): each save reads, numbers and writes the index with no other save in
between, so no data-file number is handed out twice."""
import subprocess
import sys
import textwrap

CHILD = textwrap.dedent("""
    import os, sys, time
    lock = sys.argv[3] == "locked"
    if lock:
        import nbrepro.runtime._numba_cache  # installs the locks (every kernel module imports it first)
    import numba.core.caching as c

    log = open(sys.argv[2], "a", buffering=1)
    load_index, save_data = c.IndexDataCacheFile._load_index, c.IndexDataCacheFile._save_data

    def slow_load_index(self):  # widen the window between reading the index and writing the data
        index = load_index(self)
        log.write(f"{os.getpid()} read\\n")
        time.sleep(0.4)
        return index

    def logged_save_data(self, name, data):
        save_data(self, name, data)
        log.write(f"{os.getpid()} wrote {name}\\n")

    c.IndexDataCacheFile._load_index, c.IndexDataCacheFile._save_data = slow_load_index, logged_save_data
    sys.path.insert(0, sys.argv[4])
    import numpy as np
    import kernel
    print(kernel.twice_plus_one(np.arange(3, dtype=sys.argv[1])).tolist())
""")
KERNEL = "from numba import njit\n\n\n@njit(cache=True)\ndef twice_plus_one(x):\n    return x * 2 + 1\n"


def _race(tmp_path, mode):
    (tmp_path / "kernel.py").write_text(KERNEL)
    log = tmp_path / "log.txt"
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, dtype, str(log), mode, str(tmp_path)],
                              stdout=subprocess.PIPE, text=True) for dtype in ("int64", "float64")]
    outs = [p.communicate(timeout=120)[0].strip() for p in procs]
    return outs, [line.split() for line in log.read_text().splitlines()]


def _saves(events):
    """Each process's save: the index read just before its data file was written."""
    return [(events[i - 1][0], e[0]) for i, e in enumerate(events) if e[1] == "wrote"]


def test_concurrent_compiles_number_their_data_files_in_turn(tmp_path):
    outs, events = _race(tmp_path, "locked")
    assert outs == ["[1, 3, 5]", "[1.0, 3.0, 5.0]"]
    # every data file was written by the process whose index read came right before it
    assert all(reader == writer for reader, writer in _saves(events)), events
    names = [e[2] for e in events if e[1] == "wrote"]
    assert len(names) == len(set(names)) == 2, events   # two signatures, two numbers


def test_a_kernel_is_stale_when_any_source_of_the_package_changes():
    """numba stamps a cached kernel with its own file only; a kernel calling another module's kernel
    kept the callee's old machine code after an edit. nbrepro's kernels carry the whole package's
    stamp too, and the stamp follows any source file's time stamp."""
    import os

    from nbrepro.runtime import _numba_cache
    from nbrepro.weka._kernel_walk import normal_probability

    stamp = normal_probability._cache._cache_file._source_stamp
    assert isinstance(stamp, tuple) and stamp[1] == _numba_cache.package_stamp()
    source = __import__("pathlib").Path(_numba_cache.__file__).parents[1] / "libm.py"
    before = _numba_cache.package_stamp()
    st = source.stat()
    try:
        os.utime(source, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
        _numba_cache._PACKAGE_STAMP.clear()
        assert _numba_cache.package_stamp() != before
    finally:
        os.utime(source, ns=(st.st_atime_ns, st.st_mtime_ns))
        _numba_cache._PACKAGE_STAMP.clear()
    assert _numba_cache.package_stamp() == before


COMPILE_CHILD = textwrap.dedent("""
    import sys, time
    if sys.argv[1] == "locked":
        import nbrepro.runtime._numba_cache  # installs the compile locks
    from numba.core import dispatcher

    compile_ = dispatcher._FunctionCompiler.compile

    def slow_compile(self, args, return_type):  # hold the compile long enough for the other to ask
        time.sleep(1.0)
        return compile_(self, args, return_type)

    dispatcher._FunctionCompiler.compile = slow_compile
    sys.path.insert(0, sys.argv[2])
    import os
    import numpy as np
    import kernel
    open(os.path.join(sys.argv[2], f"ready-{os.getpid()}"), "w").close()
    while sum(name.startswith("ready-") for name in os.listdir(sys.argv[2])) < 2:  # both call at once
        time.sleep(0.01)
    kernel.twice_plus_one(np.arange(3))
    print(sum(kernel.twice_plus_one.stats.cache_misses.values()))
""")


def _compile_side_by_side(tmp_path, mode):
    (tmp_path / "kernel.py").write_text(KERNEL)
    procs = [subprocess.Popen([sys.executable, "-c", COMPILE_CHILD, mode, str(tmp_path)], stdout=subprocess.PIPE,
                              text=True) for _ in range(2)]
    return sorted(int(p.communicate(timeout=120)[0]) for p in procs)


def test_processes_needing_one_new_kernel_at_once_compile_it_once(tmp_path):
    # the jobs that start a cold run together: one compiles, the other waits and loads its code
    assert _compile_side_by_side(tmp_path, "locked") == [0, 1]


def test_without_the_compile_lock_both_would_compile(tmp_path):
    # the race the lock removes, shown by the same children without nbrepro's locks
    assert _compile_side_by_side(tmp_path, "plain") == [1, 1]
