# SPDX-License-Identifier: GPL-3.0-or-later
"""Fetching a data set: the shipped copy, a mirror's, OpenML's (the real ``openml`` client against a
server on 127.0.0.1), each checked against the registry; where a copy came from changes nothing."""
import json
import lzma
import os

import pytest
import yaml
from conftest import DATA_DIR, ROOT
from openml_server import LocalOpenML, Served

from nbrepro.cli import main as cli
from nbrepro.data.checksums import data_digests, file_digests
from nbrepro.data.fetch import SHIPPED, fetch, read_source, verify_cached
from nbrepro.data.registry import load_registry, parse_registry
from nbrepro.errors import DatasetInvalid, DatasetUnavailable

REGISTRY = ROOT / "config/datasets.yaml"
PAPER = {
    "paper": "tiny",
    "title": "t",
    "datasets": ["iris"],
    "preprocessing": {"scope": "dataset", "steps": [{"discretize_equal_width": {"n_bins": 10}}]},
    "protocol": {"name": "weka_cv", "folds": 3, "runs": {"first": 1, "last": 1}, "train_order": "weka"},
    "classifiers": {"NB": {"estimator": "NaiveBayes"}},
    "metrics": ["accuracy"],
    "tables": {"table2": {"metric": "accuracy", "methods": ["NB"], "published": "config/published/lcwnb_table2.csv"}},
}
IRIS = (DATA_DIR / "iris.arff").read_bytes()


def _iris_entry(**changes) -> dict:
    """iris's registry entry under another file name (so that no shipped copy answers for it)."""
    entry = dict(yaml.safe_load(REGISTRY.read_text())["datasets"]["iris"], file="elsewhere.arff", openml_id=None)
    entry.update(changes)
    return entry


def _spec(name="elsewhere", **changes):
    return parse_registry({"datasets": {name: _iris_entry(**changes)}}, "test registry")[name]


def _registry_file(tmp_path, **entries):
    path = tmp_path / "datasets.yaml"
    path.write_text(yaml.safe_dump({"datasets": entries}))
    return str(path)


def _swapped_iris(path):
    lines = IRIS.decode().splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    lines[first], lines[first + 1] = lines[first + 1], lines[first]
    path.write_text("".join(lines))


# ---- the shipped files ---------------------------------------------------------------------------
def test_every_registry_file_ships_and_matches_its_digests():
    reg = load_registry(REGISTRY)
    for name, spec in reg.items():
        if spec.extra["generator"]:
            continue
        shipped = SHIPPED / f"{spec.file}.xz"
        assert shipped.exists(), name
        assert spec.extra["origin"] and spec.extra["licence"], name
        plain = DATA_DIR / spec.file  # the tests' copy, decompressed from the shipped file
        got = file_digests(plain)
        assert (got["sha256"], got["data_sha256"], got["rows_sha256"]) == (
            spec.sha256,
            spec.data_sha256,
            spec.rows_sha256,
        ), name
        assert (got["n_rows"], got["n_columns"] - 1) == (spec.n_instances, spec.n_attributes), name
    assert sum(p.stat().st_size for p in SHIPPED.glob("*.xz")) < 6e6


def test_shipped_copy_is_read_first_and_recorded(tmp_path):
    spec = load_registry(REGISTRY)["iris"]
    assert (
        fetch(spec, tmp_path / "iris.arff", mirrors=[tmp_path / "nowhere"], use_openml=False) == "shipped:iris.arff.xz"
    )
    assert (tmp_path / "iris.arff").read_bytes() == IRIS
    assert read_source(tmp_path / "iris.arff")["source"] == "shipped:iris.arff.xz"


def test_a_shipped_file_cut_short_is_named_not_a_decoder_error(tmp_path, monkeypatch):
    """A shipped .xz cut short (or replaced by other bytes) is one error naming the data set and the
    file, and leaves nothing in the cache (was: lzma's LZMAError with no data set named)."""
    import nbrepro.data.fetch as fetch_module

    shipped = tmp_path / "files"
    shipped.mkdir()
    whole = (SHIPPED / "iris.arff.xz").read_bytes()
    (shipped / "iris.arff.xz").write_bytes(whole[: len(whole) // 2])
    monkeypatch.setattr(fetch_module, "SHIPPED", shipped)
    spec = load_registry(REGISTRY)["iris"]
    with pytest.raises(DatasetInvalid, match=r"dataset 'iris': the shipped file .*iris.arff.xz is not a whole xz"):
        fetch(spec, tmp_path / "cache/iris.arff", mirrors=[], use_openml=False)
    assert not any((tmp_path / "cache").iterdir())


def test_a_cached_file_that_checks_is_left_alone(tmp_path):
    """A re-fetch naming another source leaves the file and its modification time as they are."""
    spec = load_registry(REGISTRY)["iris"]
    dest = tmp_path / "iris.arff"
    fetch(spec, dest, use_openml=False)
    os.utime(dest, ns=(1_000_000_000, 1_000_000_000))
    assert fetch(spec, dest, mirrors=[DATA_DIR], use_openml=False) == "cache:iris.arff"
    assert dest.stat().st_mtime_ns == 1_000_000_000


def test_data_digests_tell_formatting_from_order():
    from nbrepro.data.arff import read_arff

    frame, _ = read_arff(DATA_DIR / "iris.arff")
    data, rows = data_digests(frame)
    assert data_digests(frame.iloc[::-1].reset_index(drop=True))[1] == rows
    assert data_digests(frame.iloc[::-1].reset_index(drop=True))[0] != data
    changed = frame.copy()
    changed.iloc[0, 0] += 0.1
    assert data_digests(changed)[1] != rows
    renamed = frame.rename(columns={"sepallength": "sepal"})
    assert data_digests(renamed)[0] != data


def test_ship_writes_the_same_bytes_and_the_registry_lines(tmp_path, capsys):
    assert cli(["ship", str(DATA_DIR / "iris.arff"), "--to", str(tmp_path)]) == 0
    assert (tmp_path / "iris.arff.xz").read_bytes() == (SHIPPED / "iris.arff.xz").read_bytes()
    assert lzma.decompress((tmp_path / "iris.arff.xz").read_bytes()) == IRIS
    out = capsys.readouterr().out
    assert f"sha256: {load_registry(REGISTRY)['iris'].sha256}" in out and "n_instances: 150" in out


# ---- mirrors and the cache (moved from the pipeline tests) -----------------------------------------
def test_missing_dataset_without_network(tmp_path, capsys):
    reg = _registry_file(tmp_path, elsewhere=_iris_entry())
    rc = cli(
        [
            "fetch",
            "--dataset",
            "elsewhere",
            "--registry",
            reg,
            "--no-openml",
            "--mirror",
            str(tmp_path / "empty"),
            "--out",
            str(tmp_path / "e.arff"),
        ]
    )
    err = capsys.readouterr().err
    assert rc == 2
    assert "dataset 'elsewhere' (elsewhere.arff) not found" in err and "the files nbrepro ships" in err
    assert str(tmp_path / "empty") in err and "mirror" in err


def test_checksum_mismatch(tmp_path, capsys):
    (tmp_path / "m").mkdir()
    (tmp_path / "m/elsewhere.arff").write_bytes(IRIS + b"\n% edited\n")
    reg = _registry_file(tmp_path, elsewhere=_iris_entry())
    rc = cli(
        [
            "fetch",
            "--dataset",
            "elsewhere",
            "--registry",
            reg,
            "--no-openml",
            "--mirror",
            str(tmp_path / "m"),
            "--out",
            str(tmp_path / "e.arff"),
        ]
    )
    assert rc == 2 and "checksum mismatch" in capsys.readouterr().err
    assert not (tmp_path / "e.arff").exists() and not list(tmp_path.glob("*.part"))


def test_fetch_without_openml_names_the_openml_id(tmp_path, capsys):
    reg = _registry_file(tmp_path, elsewhere=_iris_entry(openml_id=61))
    rc = cli(["fetch", "--dataset", "elsewhere", "--registry", reg, "--no-openml", "--out", str(tmp_path / "e.arff")])
    err = capsys.readouterr().err
    assert rc == 2 and "OpenML switched off (it has the set as dataset 61)" in err


def test_edited_cache_is_refused_not_used(tmp_path, capsys):
    """A cached iris with two rows swapped gave NB 94.6 instead of 94.33 with exit code 0; now prepare stops."""
    raw = tmp_path / "iris.arff"
    _swapped_iris(raw)
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(PAPER))
    rc = cli(
        [
            "prepare",
            "--paper-config",
            str(tmp_path / "p.yaml"),
            "--dataset",
            "iris",
            "--registry",
            str(REGISTRY),
            "--raw",
            str(raw),
            "--out-data",
            str(tmp_path / "d.parquet"),
            "--out-folds",
            str(tmp_path / "f.parquet"),
        ]
    )
    err = capsys.readouterr().err
    assert rc == 2 and "the cached file" in err and "it was edited or is stale" in err
    rc = cli(["fetch", "--dataset", "iris", "--registry", str(REGISTRY), "--no-openml", "--out", str(raw)])
    assert rc == 2 and "it was edited or is stale" in capsys.readouterr().err


def test_an_openml_copy_in_the_cache_is_used_only_if_its_data_are_the_registrys(tmp_path):
    spec = load_registry(REGISTRY)["iris"]
    _swapped_iris(tmp_path / "o.arff")  # rows in another order: other folds
    got = file_digests(tmp_path / "o.arff")
    (tmp_path / "o.arff.source.json").write_text(json.dumps({"source": "openml:61", **got}))
    with pytest.raises(DatasetInvalid, match="it was edited or is stale"):
        verify_cached(spec, tmp_path / "o.arff")
    # the same data written otherwise (CRLF line endings): used
    (tmp_path / "c.arff").write_bytes(IRIS.replace(b"\n", b"\r\n"))
    got = file_digests(tmp_path / "c.arff")
    assert got["data_sha256"] == spec.data_sha256 and got["sha256"] != spec.sha256
    (tmp_path / "c.arff.source.json").write_text(json.dumps({"source": "openml:61", **got}))
    assert verify_cached(spec, tmp_path / "c.arff")["sha256"] == got["sha256"]


# ---- OpenML, through the openml client, against a local server -------------------------------------
def _lines(body: bytes) -> tuple[list[bytes], list[bytes]]:
    lines = body.splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    return lines[:first], lines[first:]


def _reordered(body):
    head, rows = _lines(body)
    return b"".join(head + rows[::-1])


def _one_row_less(body):
    head, rows = _lines(body)
    return b"".join(head + rows[1:])


def _written_otherwise(body):
    """The same data with every number written with a trailing zero and CRLF line endings."""
    head, rows = _lines(body)
    rows = [b",".join(v + b"0" if b"." in v else v for v in r.rstrip(b"\r\n").split(b",")) + b"\r\n" for r in rows]
    return b"".join(head + rows)


SERVED = {
    61: Served("iris", IRIS),
    62: Served("iris", _reordered(IRIS)),
    63: Served("iris", _one_row_less(IRIS)),
    64: Served("iris", _written_otherwise(IRIS)),
    65: Served("labor", (DATA_DIR / "labor.arff").read_bytes()),
    66: Served("iris", IRIS, file_status=404),
    67: Served("iris", IRIS, delay=3.0),
    68: Served("iris", IRIS, truncate_at=2000),
}


@pytest.fixture
def openml_server(tmp_path, monkeypatch):
    import openml

    with LocalOpenML(SERVED) as server:
        monkeypatch.setattr(openml.config, "server", server.api)
        monkeypatch.setattr(openml.config, "connection_n_retries", 1)  # no retries and no waits between them
        monkeypatch.setattr(openml.config, "apikey", "")
        yield server


def _fetch_openml(tmp_path, did, spec=None, timeout=60.0):
    spec = spec or _spec(openml_id=did)
    return fetch(spec, tmp_path / "raw" / "e.arff", openml_cache=tmp_path / "openml", openml_timeout=timeout)


def _left_behind(tmp_path):
    raw = [p.name for p in (tmp_path / "raw").iterdir()] if (tmp_path / "raw").exists() else []
    cached = [p for p in (tmp_path / "openml").rglob("*") if p.is_file()] if (tmp_path / "openml").exists() else []
    return raw + [str(p) for p in cached]


def test_openml_copy_equal_to_the_shipped_file_is_used(tmp_path, openml_server):
    assert _fetch_openml(tmp_path, 61) == "openml:61"
    assert (tmp_path / "raw/e.arff").read_bytes() == IRIS
    info = read_source(tmp_path / "raw/e.arff")
    assert info["source"] == f"openml:61 {openml_server.file_url(61)}" and info["sha256"] == _spec().sha256
    assert "/api/v1/xml/data/61" in openml_server.requests


def test_openml_copy_written_otherwise_with_the_same_data_is_used(tmp_path, openml_server):
    assert _fetch_openml(tmp_path, 64) == "openml:64"
    assert verify_cached(_spec(openml_id=64), tmp_path / "raw/e.arff")["data_sha256"] == _spec().data_sha256


def test_openml_copy_in_another_row_order_is_named_and_refused(tmp_path, openml_server):
    with pytest.raises(
        DatasetInvalid,
        match=r"dataset 'elsewhere': OpenML's copy \(http://127\.0\.0\.1:\d+/data/v1/"
        r"download/62/iris\.arff\) holds the registry's rows in another order",
    ):
        _fetch_openml(tmp_path, 62)
    assert _left_behind(tmp_path) == []


def test_openml_copy_of_another_shape_is_refused(tmp_path, openml_server):
    with pytest.raises(DatasetInvalid, match="has another shape than the registry's: 149 rows, expected 150"):
        _fetch_openml(tmp_path, 63)
    assert _left_behind(tmp_path) == []


@pytest.mark.parametrize(
    "did, reason",
    [
        (66, "GET {base}/data/v1/download/66/iris.arff answered HTTP 404"),  # a file the server does not have
        (67, "GET {base}/data/v1/download/67/iris.arff failed (ReadTimeout"),  # no answer within the timeout
        (68, "GET {base}/data/v1/download/68/iris.arff failed (ChunkedEncodingError"),  # a body cut short
        (69, "GET {base}/api/v1/xml/data/69 answered HTTP 412 (OpenMLServerNoResult"),  # an id the server does not know
    ],
)
def test_openml_failures_name_the_data_set_and_url_and_leave_nothing(tmp_path, openml_server, did, reason):
    with pytest.raises(DatasetUnavailable) as err:
        _fetch_openml(tmp_path, did, timeout=1.0)
    message = str(err.value)
    assert message.startswith(f"dataset 'elsewhere': OpenML dataset {did} could not be fetched: ")
    assert reason.format(base=openml_server.base) in message and "\n" not in message
    assert "the files nbrepro ships" in message  # and where else it looked
    assert _left_behind(tmp_path) == []


def test_a_data_set_given_by_its_openml_id_alone_is_fetched_and_pinned(tmp_path, openml_server, caplog, capsys):
    reg = {"datasets": {"new": {"openml_id": 65}}}
    spec = parse_registry(reg, "test registry")["new"]
    assert spec.file == "new.arff" and spec.n_instances is None
    assert _fetch_openml(tmp_path, 65, spec) == "openml:65"
    info = read_source(tmp_path / "raw/e.arff")
    want = file_digests(DATA_DIR / "labor.arff")
    assert info["sha256"] == want["sha256"] and info["data_sha256"] == want["data_sha256"]
    assert f"to pin this copy, add to its entry in config/datasets.yaml: sha256: {want['sha256']}" in caplog.text
    assert "n_instances: 57" in caplog.text
    # through the command (what the fetch job runs), the console is told what to pin
    reg = tmp_path / "reg.yaml"
    reg.write_text(yaml.safe_dump({"datasets": {"new": {"openml_id": 65}}}))
    assert (
        cli(
            [
                "fetch",
                "--dataset",
                "new",
                "--registry",
                str(reg),
                "--out",
                str(tmp_path / "raw2/new.arff"),
                "--openml-cache",
                str(tmp_path / "openml2"),
            ]
        )
        == 0
    )
    assert f"new: not pinned; add to its entry in {reg}: sha256: {want['sha256']}" in capsys.readouterr().out
    # the cached copy is pinned by its sidecar until the registry pins it
    verify_cached(spec, tmp_path / "raw/e.arff")
    (tmp_path / "raw/e.arff").write_bytes((DATA_DIR / "labor.arff").read_bytes() + b"% edited\n")
    with pytest.raises(DatasetInvalid, match="not the .* recorded when it was fetched"):
        verify_cached(spec, tmp_path / "raw/e.arff")


def test_no_network_fails_at_once_in_one_line(tmp_path, monkeypatch):
    """A server nobody answers at (connection refused, as on a machine with no network): one line
    naming the data set and the URL, at once, although the client's own default is five attempts
    with waits between them (158 s here before)."""
    import time

    import openml

    monkeypatch.setattr(openml.config, "server", "http://127.0.0.1:9/api/v1/xml")
    monkeypatch.setattr(openml.config, "apikey", "")
    start = time.monotonic()
    with pytest.raises(DatasetUnavailable) as err:
        _fetch_openml(tmp_path, 61, timeout=10.0)
    assert time.monotonic() - start < 10
    message = str(err.value)
    assert message.startswith("dataset 'elsewhere': OpenML dataset 61 could not be fetched: GET http://127.0.0.1:9/")
    assert "\n" not in message and openml.config.connection_n_retries == 5   # the client's setting restored
    assert _left_behind(tmp_path) == []


def test_a_copy_with_the_registrys_rows_in_another_order_says_so(tmp_path, capsys):
    """Was (issue 63): a re-shipped file with the same rows in another order said only "checksum
    mismatch", though the rows digest tells exactly that; the folds would differ."""
    (tmp_path / "m").mkdir()
    _swapped_iris(tmp_path / "m/elsewhere.arff")
    reg = _registry_file(tmp_path, elsewhere=_iris_entry())
    rc = cli(["fetch", "--dataset", "elsewhere", "--registry", reg, "--no-openml", "--mirror", str(tmp_path / "m"),
              "--out", str(tmp_path / "e.arff")])
    err = capsys.readouterr().err
    assert rc == 2 and "checksum mismatch" in err and "it has the registry's rows in another order" in err
    assert (tmp_path / "m/elsewhere.arff").is_file()   # the mirror's file is the user's: left where it is


def test_a_class_attribute_is_checked_against_the_files_header_before_any_job():
    """Was (issue 63): a wrong class_attribute failed only at the evaluation step, without the file's attributes."""
    from dataclasses import replace

    from nbrepro.data.fetch import class_attribute_problem

    iris = load_registry(REGISTRY)["iris"]
    assert class_attribute_problem(iris) is None
    assert class_attribute_problem(replace(iris, class_attribute="species")) == (
        "dataset 'iris': class_attribute 'species' is not an attribute of iris.arff.xz (its attributes: "
        "sepallength, sepalwidth, petallength, petalwidth, class)")
    assert class_attribute_problem(replace(iris, class_attribute="petallength")) == (
        "dataset 'iris': the class attribute 'petallength' of iris.arff.xz is numeric, not nominal")
