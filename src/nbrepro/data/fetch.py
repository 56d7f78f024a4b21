# SPDX-License-Identifier: GPL-3.0-or-later
"""Find a dataset: local cache → the copy shipped with nbrepro → mirror folders → OpenML; then
read and validate it.

The cache (``resources/raw/{name}.arff``) is what every later step reads, so the pipeline's
other rules never touch the network or the mirror. Every source is checked the same way against
the registry (``checksums.py``): a copy is used when its bytes are the registry's (sha256), or,
from OpenML, when its data are (data_sha256: the same values in the same order, written
otherwise). Where a copy came from is recorded beside it (``{file}.source.json``) and is not part
of any result: the same bytes from another place change nothing.
"""
from __future__ import annotations

import datetime
import json
import logging
import lzma
import os
import shutil
from pathlib import Path

import pandas as pd

from ..errors import ArffError, DatasetInvalid, DatasetUnavailable
from .arff import read_arff
from .checksums import file_digests, sha256_of
from .registry import DatasetSpec

__all__ = [
    "SHIPPED",
    "cached_file",
    "check_copy",
    "fetch",
    "fetch_dataset",
    "load_dataset",
    "pin_lines",
    "read_source",
    "ship",
    "shipped_path",
    "source_path",
    "verify_cached",
]

log = logging.getLogger("nbrepro")

# The data sets nbrepro ships: each registry file xz-compressed (package data, as scikit-learn
# ships its small data sets), 4.6 MB for the 73 files of the five papers.
SHIPPED = Path(__file__).parent / "files"
REGISTRY_FILE = "config/datasets.yaml"


def shipped_path(spec: DatasetSpec) -> Path:
    return SHIPPED / f"{spec.file}.xz"


def source_path(dest: Path) -> Path:
    """The sidecar that records where a cached raw file came from: ``{file}.source.json``."""
    return Path(str(dest) + ".source.json")


def _record_source(dest: Path, source: str, digests: dict | None = None) -> None:
    """Write the sidecar, unless it already records these bytes: a re-fetch of the same bytes,
    from wherever, leaves it (and what reads it) alone."""
    sha = sha256_of(dest)
    if read_source(dest).get("sha256") == sha:
        return
    info = {
        "source": source,
        "sha256": sha,
        "fetched_utc": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    if digests:
        info.update({k: digests[k] for k in ("data_sha256", "rows_sha256", "n_rows", "n_columns")})
    tmp = source_path(dest).with_suffix(".part")
    tmp.write_text(json.dumps(info, indent=1) + "\n")
    tmp.replace(source_path(dest))


def read_source(dest: Path) -> dict:
    p = source_path(dest)
    return json.loads(p.read_text()) if p.exists() else {}


def verify_cached(spec: DatasetSpec, path: Path) -> dict:
    """Check a cached raw file against the registry before it is used: its sha256 must be the
    registry's, or, for an OpenML copy, its data (recorded in the sidecar when it was fetched)
    must be. An entry with no sha256 (an OpenML id alone) pins the bytes recorded at its fetch.
    Returns the sidecar's record with the sha256 of the file as it is now."""
    path = Path(path)
    info = dict(read_source(path))
    got = sha256_of(path)
    recorded = info.get("sha256")
    info["sha256"] = got
    if spec.sha256 is None and spec.extra.get("generator") is None:
        if recorded is not None and got != recorded:
            raise DatasetInvalid(
                f"dataset {spec.name!r}: the cached file {path} has sha256 {got}, "
                f"not the {recorded} recorded when it was fetched: it was edited. Delete it "
                f"(and {source_path(path).name}) and rerun to fetch it again"
            )
        return info
    if spec.sha256 and got != spec.sha256:
        same_data = (
            str(info.get("source", "")).startswith("openml:")
            and recorded == got
            and spec.data_sha256 is not None
            and info.get("data_sha256") == spec.data_sha256
        )
        if not same_data:
            raise DatasetInvalid(
                f"dataset {spec.name!r}: the cached file {path} has sha256 {got}, the registry "
                f"({REGISTRY_FILE}) expects {spec.sha256}: it was edited or is stale. Delete it (and "
                f"{source_path(path).name}) and rerun to fetch it again"
            )
    return info


def _install(tmp: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp.replace(dest)


def _check_bytes(spec: DatasetSpec, path: Path, where: str) -> None:
    if spec.sha256:
        got = sha256_of(path)
        if got != spec.sha256:
            how = _how_it_differs(spec, path)
            path.unlink(missing_ok=True)
            raise DatasetInvalid(
                f"dataset {spec.name!r}: checksum mismatch for {where}: sha256 {got}, "
                f"registry expects {spec.sha256} ({REGISTRY_FILE}){how}"
            )


def _how_it_differs(spec: DatasetSpec, path: Path) -> str:
    """What the data digests say of a file whose bytes are not the registry's."""
    try:
        got = file_digests(path)
    except (ArffError, ValueError, OSError):
        return "; it is not a readable ARFF file"
    if spec.data_sha256 and got["data_sha256"] == spec.data_sha256:
        return "; its data are the registry's (the same values in the same order, written otherwise)"
    if spec.rows_sha256 and got["rows_sha256"] == spec.rows_sha256:
        return "; it has the registry's rows in another order (the rows digest matches), which changes the folds"
    return ""


def class_attribute_problem(spec: DatasetSpec, cache: str | Path = "resources/raw") -> str | None:
    """What is wrong with the entry's class attribute against its file's header (shipped, cached or
    in a mirror): not among the attributes (listed), or not nominal; None when it is fine or no file
    is here yet (its fetch job checks it)."""
    header = _header(spec, cache)
    if header is None:
        return None
    path, attrs, cls = header
    kinds = {a.name: a.kind for a in attrs}
    if cls not in kinds:
        return (f"dataset {spec.name!r}: class_attribute {cls!r} is not an attribute of {path.name} "
                f"(its attributes: {', '.join(kinds)})")
    if kinds[cls] != "nominal":
        return f"dataset {spec.name!r}: the class attribute {cls!r} of {path.name} is {kinds[cls]}, not nominal"
    return None


def _header(spec: DatasetSpec, cache: str | Path = "resources/raw"):
    """(the file, its attributes, the class attribute's name) from the header a check before any
    job reads; None when no file is here yet."""
    from .arff import class_name, read_attributes

    path = _header_file(spec, cache)
    if path is None:
        return None
    attrs = read_attributes(path)
    return path, attrs, class_name([a.name for a in attrs], spec.class_attribute)


def load_local_copy(spec: DatasetSpec, cache: str | Path = "resources/raw") -> tuple[pd.DataFrame, pd.Series] | None:
    """The data set read from the copy here (``_header_file``'s: shipped, cached or a mirror's, an
    ``.xz`` decompressed to a temporary file), for a check before any job; None when none is here."""
    import tempfile

    path = _header_file(spec, cache)
    if path is None:
        return None
    if path.suffix != ".xz":
        return load_dataset(spec, path)
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp) / spec.file
        plain.write_bytes(lzma.decompress(path.read_bytes()))
        return load_dataset(spec, plain)


def _header_file(spec: DatasetSpec, cache: str | Path = "resources/raw") -> Path | None:
    """The file whose header a check before any job reads: the shipped copy, the cached one, or a mirror's."""
    if not spec.file:
        return None
    mirrors = [Path(m) / spec.file for m in os.environ.get("NBREPRO_MIRRORS", "").split(os.pathsep) if m]
    mirrors += [m.with_name(m.name + ".xz") for m in mirrors]
    for path in (shipped_path(spec), Path(cache) / spec.file, *mirrors):
        if path.is_file():
            return path
    return None


def check_copy(spec: DatasetSpec, path: Path, where: str) -> dict:
    """A copy from elsewhere (OpenML) against the registry: its digests if it can be used, else a
    ``DatasetInvalid`` that says how it differs (shape, the same rows in another order, values)."""
    try:
        got = file_digests(path)
    except ArffError as exc:
        raise DatasetInvalid(f"dataset {spec.name!r}: {where} is not a readable ARFF file: {exc}") from None
    if spec.sha256 is not None and got["sha256"] == spec.sha256:
        return got
    shape = [
        (k, want, have)
        for k, want, have in (
            ("rows", spec.n_instances, got["n_rows"]),
            ("attributes besides the class", spec.n_attributes, got["n_columns"] - 1),
        )
        if want is not None and want != have
    ]
    if shape:
        raise DatasetInvalid(
            f"dataset {spec.name!r}: {where} has another shape than the registry's: "
            + "; ".join(f"{have} {k}, expected {want}" for k, want, have in shape)
        )
    if spec.sha256 is None:
        return got  # nothing pinned yet: fetch() says what to pin
    if spec.data_sha256 is not None and got["data_sha256"] == spec.data_sha256:
        return got  # the same data, written otherwise (quoting, number format): the same folds
    if spec.rows_sha256 is not None and got["rows_sha256"] == spec.rows_sha256:
        raise DatasetInvalid(
            f"dataset {spec.name!r}: {where} holds the registry's rows in another order, which would change "
            "the folds (Weka's and ours follow the file's order) and so every cell; not used. To run on it "
            "anyway, add it to the registry as a data set of its own"
        )
    raise DatasetInvalid(
        f"dataset {spec.name!r}: {where} has other values than the registry's file (sha256 {got['sha256']}, "
        f"expected {spec.sha256}"
        f"{'' if spec.data_sha256 else '; the registry gives no data_sha256 to compare the data'}); not used"
    )


def fetch(
    spec: DatasetSpec,
    dest: Path,
    mirrors: list[str | Path] = (),
    openml_cache: Path | None = None,
    use_openml: bool = True,
    openml_timeout: float = 10.0,
) -> str:
    """Put ``spec``'s ARFF at ``dest``. Returns where it came from. A cached file that checks
    is left as it is (its modification time too), whatever source is named now."""
    dest = Path(dest)
    tried = []
    if dest.exists():
        verify_cached(spec, dest)
        if not source_path(dest).exists():
            _record_source(dest, f"cache:{dest.name}")
        return f"cache:{dest.name}"
    tmp = dest.with_name(dest.name + ".part")
    dest.parent.mkdir(parents=True, exist_ok=True)
    if spec.extra.get("generator"):
        from .synthetic import generate

        try:
            generate(spec.name, spec.extra["generator"], spec.extra["params"], spec.extra["seed"], dest)
        except ValueError as exc:
            raise DatasetInvalid(str(exc)) from None
        _record_source(dest, f"generated:{spec.extra['generator']} seed {spec.extra['seed']}")
        return f"generated:{spec.extra['generator']}"
    shipped = shipped_path(spec)
    tried.append(f"the files nbrepro ships ({SHIPPED})")
    if shipped.exists():
        try:
            tmp.write_bytes(lzma.decompress(shipped.read_bytes()))
        except (lzma.LZMAError, EOFError) as exc:   # a copy cut short or replaced: name it, and how to mend it
            tmp.unlink(missing_ok=True)
            raise DatasetInvalid(f"dataset {spec.name!r}: the shipped file {shipped} is not a whole xz file ({exc}); "
                                 "restore it (git checkout) or ship the ARFF again with `nbrepro ship`") from None
        _check_bytes(spec, tmp, str(shipped))
        _install(tmp, dest)
        _record_source(dest, f"shipped:{shipped.name}")
        return f"shipped:{shipped.name}"
    for mirror in mirrors:
        cand = Path(mirror) / spec.file
        tried.append(str(cand))
        packed = cand.with_name(cand.name + ".xz")   # as `nbrepro ship --to` writes it
        if cand.exists() or packed.exists():
            if cand.exists():
                shutil.copyfile(cand, tmp)
            else:
                try:
                    tmp.write_bytes(lzma.decompress(packed.read_bytes()))
                except (lzma.LZMAError, EOFError) as exc:
                    tmp.unlink(missing_ok=True)
                    raise DatasetInvalid(f"dataset {spec.name!r}: {packed} is not a whole xz file ({exc})") from None
                cand = packed
            _check_bytes(spec, tmp, str(cand))
            _install(tmp, dest)
            _record_source(dest, f"mirror:{cand}")
            return f"mirror:{cand}"
    if not use_openml:
        tried.append(
            "OpenML switched off"
            + (f" (it has the set as dataset {spec.openml_id})" if spec.openml_id is not None else "")
        )
    elif spec.openml_id is None:
        tried.append("OpenML: the registry gives no openml_id")
    else:
        from .openml_source import fetch_openml

        try:
            url, digests = fetch_openml(
                spec.name,
                spec.openml_id,
                tmp,
                openml_cache,
                openml_timeout,
                check=lambda path, where: check_copy(spec, path, where),
            )
        except DatasetUnavailable as exc:
            raise DatasetUnavailable(f"{exc}; before OpenML, looked in: " + "; ".join(tried)) from None
        _install(tmp, dest)
        _record_source(dest, f"openml:{spec.openml_id} {url}", digests)
        if spec.sha256 is None:
            log.warning(
                "dataset %r: fetched from OpenML (%s); to pin this copy, add to its entry in %s: %s",
                spec.name,
                url,
                REGISTRY_FILE,
                pin_lines(digests),
            )
        return f"openml:{spec.openml_id}"
    raise DatasetUnavailable(
        f"dataset {spec.name!r} ({spec.file}) not found; looked in: "
        + "; ".join(tried)
        + ". To fix: add the file to a mirror folder (`snakemake --config mirror=FOLDER`) or give its "
        "openml_id in the registry"
    )


def pin_lines(digests: dict) -> str:
    """What to add to a registry entry to pin a fetched copy (sha256, digests, shape)."""
    return ", ".join(
        f"{k}: {v}"
        for k, v in (
            ("sha256", digests["sha256"]),
            ("data_sha256", digests["data_sha256"]),
            ("rows_sha256", digests["rows_sha256"]),
            ("n_instances", digests["n_rows"]),
            ("n_attributes", digests["n_columns"] - 1),
        )
    )


def ship(arff: Path, folder: Path | None = None) -> dict:
    """Compress an ARFF file into ``folder`` (default: the shipped files) as xz, preset 9e (the
    same bytes on every run), and return its registry digests and shape."""
    arff, folder = Path(arff), Path(folder or SHIPPED)
    digests = file_digests(arff)
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"{arff.name}.xz"
    tmp = out.with_name(out.name + ".part")
    tmp.write_bytes(lzma.compress(arff.read_bytes(), preset=9 | lzma.PRESET_EXTREME))
    tmp.replace(out)
    return digests


def class_column(frame: pd.DataFrame, spec: DatasetSpec) -> str:
    if spec.class_attribute == "last":
        return frame.columns[-1]
    if spec.class_attribute == "first":
        return frame.columns[0]
    if spec.class_attribute not in frame.columns:
        raise DatasetInvalid(f"dataset {spec.name!r}: class attribute {spec.class_attribute!r} not in file")
    return spec.class_attribute


def attribute_kinds(spec: DatasetSpec, cache: str | Path = "resources/raw") -> dict[str, str] | None:
    """Each attribute's kind ("nominal", "numeric", "string"), the class left out, read from the
    header of the shipped file, the cached copy or a mirror's; None when none is here yet (a data
    set fetched from OpenML on the first run)."""
    header = _header(spec, cache)
    if header is None:
        return None
    _, attrs, cls = header
    return {a.name: a.kind for a in attrs if a.name != cls}


def load_dataset(spec: DatasetSpec, path: Path) -> tuple[pd.DataFrame, pd.Series]:
    """Read and validate a dataset. Returns ``(X, y)``; ``y`` is Categorical."""
    frame, _ = read_arff(path)
    strings = [c for c in frame.columns if frame[c].dtype == object]  # read_arff's string attributes
    if strings:
        raise DatasetInvalid(
            f"dataset {spec.name!r} ({path}): {strings[0]!r} is an ARFF string attribute, which "
            "Weka's classifiers refuse ('Cannot handle string attributes'): declare it nominal with "
            "its values, or remove it"
        )
    cls = class_column(frame, spec)
    y = frame[cls]
    X = frame.drop(columns=[cls])
    problems = []
    if spec.n_instances is not None and len(frame) != spec.n_instances:
        problems.append(f"{len(frame)} instances, expected {spec.n_instances}")
    if spec.n_attributes is not None and X.shape[1] != spec.n_attributes:
        problems.append(f"{X.shape[1]} attributes besides the class, expected {spec.n_attributes}")
    if not isinstance(y.dtype, pd.CategoricalDtype):
        problems.append(f"class attribute {cls!r} is not nominal")
    elif spec.n_classes is not None and len(y.cat.categories) != spec.n_classes:
        problems.append(f"class declares {len(y.cat.categories)} values, expected {spec.n_classes}")
    if problems:
        raise DatasetInvalid(f"dataset {spec.name!r} ({path}) does not match {REGISTRY_FILE}: " + "; ".join(problems))
    return X, y


def cached_file(dataset: str, registry_path=REGISTRY_FILE, cache="resources/raw") -> Path:
    """``dataset``'s ARFF file in the cache folder, fetched there first if it is not (the shipped
    copy, else OpenML): a plain file for a script or for Weka to read."""
    dest = Path(cache) / f"{dataset}.arff"
    fetch_dataset(dataset, registry_path, dest)
    return dest


def fetch_dataset(dataset, registry_path, dest, mirrors=(), openml=True, openml_cache=None,
                  openml_timeout: float = 10.0) -> str:
    """``fetch`` by dataset name and registry file (what ``nbrepro fetch`` runs)."""
    from .registry import registry_entry

    return fetch(registry_entry(registry_path, dataset), Path(dest), [m for m in mirrors if m], openml_cache,
                 use_openml=openml, openml_timeout=openml_timeout)
