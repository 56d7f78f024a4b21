# SPDX-License-Identifier: GPL-3.0-or-later
import lzma
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _shipped_datasets() -> Path:
    """The data sets nbrepro ships (src/nbrepro/data/files/*.arff.xz), decompressed once into
    .pytest_cache/: the tests read the files a fresh clone's run reads, with nothing beside the
    repository. A folder of plain ARFF files, so a test can also hand it to the pipeline as a mirror."""
    out = ROOT / ".pytest_cache" / "nbrepro-datasets"
    out.mkdir(parents=True, exist_ok=True)
    for xz in sorted((ROOT / "src" / "nbrepro" / "data" / "files").glob("*.arff.xz")):
        dest = out / xz.name[:-len(".xz")]
        if not dest.exists() or dest.stat().st_mtime < xz.stat().st_mtime:
            tmp = dest.with_name(f"{dest.name}.{os.getpid()}.part")
            tmp.write_bytes(lzma.decompress(xz.read_bytes()))
            tmp.replace(dest)
    return out


DATA_DIR = _shipped_datasets()

def discretized(name, replace_missing=True):
    """A mirror data set as Li & Li's Weka experiments prepare it: identifier-like attributes
    removed, missing values replaced (unless not), equal-width discretisation into 10 bins."""
    from nbrepro.data.arff import read_arff
    from nbrepro.preprocess import EqualWidthDiscretizer, RemoveIdLike, ReplaceMissingValues

    df, _ = read_arff(DATA_DIR / f"{name}.arff")
    X, y = df.iloc[:, :-1], df.iloc[:, -1]
    steps = [RemoveIdLike(0.9)] + ([ReplaceMissingValues()] if replace_missing else []) + [EqualWidthDiscretizer(10)]
    for step in steps:
        X = step.fit(X).transform(X)
    return X, y


# numpy's dispatch targets that carry its own exp/log loops and SVML (numpy 2.4 on x86-64)
_AVX512_TARGETS = ("X86_V4", "AVX512_ICL", "AVX512_SPR")


def numpy_avx512() -> list[str]:
    """The AVX-512 targets numpy dispatches to on this machine (none on a CPU without AVX-512)."""
    from numpy._core._multiarray_umath import __cpu_features__

    return [name for name in _AVX512_TARGETS if __cpu_features__.get(name)]


# a child process's environment with numpy's AVX-512 loops off (nothing to switch off where it has none);
# .ci/run reads the same list from here
_TARGETS_HERE = " ".join(numpy_avx512())
AVX512_OFF = {"NPY_DISABLE_CPU_FEATURES": _TARGETS_HERE} if _TARGETS_HERE else {}


# the oracles' fixtures (Weka 3.6, R), registered here so that every test folder sees them
from oracles import weka_oracle  # noqa: E402,F401


def checked(paper, registry=None):
    """``paper`` (a variant: a reading, a reseeded run), checked as planning checks it (``nbrepro.checks``)."""
    from nbrepro.checks import check_paper

    check_paper(paper, registry)
    return paper
