# SPDX-License-Identifier: GPL-3.0-or-later
"""OpenML as a source of a data set's ARFF file, through the ``openml`` client.

The client is asked for the ARFF file itself (its parquet copy is skipped: the ARFF file is what
the papers' tools read, and the registry's checksums are of it). Two things are added around it:
a timeout on every request, because openml-python 0.15 sends its requests without one (a server
that accepts a connection and never answers would hold a fetch job forever); one attempt per
request, because the client's own retries wait between attempts (with no network, its default
five took 158 s before the error); and, on any
failure, the removal of what it had cached for the data set, so that a failed or refused download
leaves nothing behind for the next try to trust.
"""
from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable
from pathlib import Path

from ..errors import DatasetInvalid, DatasetUnavailable


@contextlib.contextmanager
def _watched_requests(seconds: float):
    """Every request the client sends gets a timeout, and is recorded as [url, HTTP status or
    None]: the client's own errors do not always say which URL failed or how (a 404 page reaches
    it as "KeyError: 'oml:error'")."""
    import requests

    original = requests.Session.request
    seen: list[list] = []

    def request(self, method, url, **kwargs):
        if kwargs.get("timeout") is None:
            kwargs["timeout"] = seconds
        seen.append([url, None])
        response = original(self, method, url, **kwargs)
        seen[-1][1] = response.status_code
        return response

    requests.Session.request = request
    try:
        yield seen
    finally:
        requests.Session.request = original


@contextlib.contextmanager
def _environ(**values: str):
    before = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in before.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _cached_copy(did: int) -> Path:
    import openml

    return Path(openml.config.get_cache_directory()) / "datasets" / str(did)


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")


@contextlib.contextmanager
def _one_attempt():
    """The client's retries off for the fetch: the workflow reruns a failed job if asked to, and
    a machine with no network should hear so at once."""
    import openml

    before = openml.config.connection_n_retries
    openml.config.connection_n_retries = 1
    try:
        yield
    finally:
        openml.config.connection_n_retries = before


def fetch_openml(name: str, did: int, out: Path, cache: Path | None = None, timeout: float = 10.0,
                 check: Callable[[Path, str], dict] | None = None) -> tuple[str, dict | None]:
    """Download OpenML data set ``did``'s ARFF file to ``out``. ``check(out, where)`` may refuse it
    (raising). Returns the file's URL and what ``check`` returned. Errors name the data set and
    the URL; nothing is left in ``out`` or in OpenML's cache after one."""
    import openml

    if cache is not None:
        openml.config.set_root_cache_directory(str(cache))
    url = f"{openml.config.server.rstrip('/')}/data/{did}"
    out = Path(out)
    seen: list[list] = []
    try:
        with _watched_requests(timeout) as seen, _environ(OPENML_SKIP_PARQUET="true"), _one_attempt():
            ds = openml.datasets.get_dataset(int(did), download_data=True, download_qualities=False,
                                             download_features_meta_data=False)
        url = ds.url or url
        if not ds.data_file or Path(ds.data_file).suffix != ".arff":
            raise DatasetUnavailable(f"dataset {name!r}: OpenML dataset {did} ({url}) gave no ARFF file")
        shutil.copyfile(ds.data_file, out)
        checked = check(out, f"OpenML's copy ({url})") if check is not None else None
    except BaseException as exc:
        out.unlink(missing_ok=True)
        shutil.rmtree(_cached_copy(did), ignore_errors=True)
        if isinstance(exc, (DatasetInvalid, DatasetUnavailable)) or not isinstance(exc, Exception):
            raise
        last, status = seen[-1] if seen else (url, None)
        how = (f"answered HTTP {status}" if status not in (None, 200)
               else f"failed ({_reason(exc)}; timeout {timeout:g} s)")
        raise DatasetUnavailable(f"dataset {name!r}: OpenML dataset {did} could not be fetched: GET {last} {how}"
                                 + (f" ({_reason(exc)})" if status not in (None, 200) else "")) from None
    return url, checked
