# SPDX-License-Identifier: GPL-3.0-or-later
"""The ARFF reader: every mirror file, Weka's quirks, and clear errors on malformed input."""
import numpy as np
import pandas as pd
import pytest
from conftest import DATA_DIR, ROOT

from nbrepro.data import ArffError, load_registry, read_arff
from nbrepro.data.arff import write_arff
from nbrepro.data.fetch import DatasetInvalid, load_dataset


def _write(tmp_path, text, name="t.arff"):
    p = tmp_path / name
    p.write_bytes(text.encode())
    return p


def test_quirks(tmp_path):
    p = _write(tmp_path, "% comment\r\n@relation 'my rel'\r\n@attribute\ta\tINTEGER [0,9]\r\n"
               "@attribute 'b c' { x, 'y z', '?'}\r\n@attribute cls {p,n}\r\n\r\n@data\r\n"
               "1,x,p\r\n?,'y z',n\r\n% inside data\r\n3,'?',p\r\n4,?,n\r\n")
    df, rel = read_arff(p)
    assert rel == "my rel"
    assert list(df.columns) == ["a", "b c", "cls"]
    assert np.isnan(df["a"][1]) and df["a"][2] == 3.0
    assert list(df["b c"].cat.categories) == ["x", "y z", "?"]
    # a quoted '?' is a value (as in Weka), an unquoted one is missing
    assert df["b c"].tolist()[:3] == ["x", "y z", "?"] and pd.isna(df["b c"][3])


def test_declared_but_unused_values_are_kept(tmp_path):
    p = _write(tmp_path, "@relation r\n@attribute a {u,v,w}\n@attribute c {p,n,q}\n@data\nu,p\nv,p\n")
    df, _ = read_arff(p)
    assert list(df["a"].cat.categories) == ["u", "v", "w"]
    assert list(df["c"].cat.categories) == ["p", "n", "q"]


@pytest.mark.parametrize("text,msg", [
    ("@relation r\n@attribute a numeric\n", "no @data"),
    ("@attribute a numeric\n@data\n1\n", "no @relation"),
    ("@relation r\n@attribute a numeric\n@attribute b {x}\n@data\n1\n", r"t.arff:5: expected 2 values, found 1"),
    ("@relation r\n@attribute a {x,y}\n@data\nz\n", r"t.arff:4: value 'z' of nominal attribute 'a' is not declared"),
    ("@relation r\n@attribute a numeric\n@data\nabc\n", r"t.arff:4: attribute 'a': 'abc' is not a number"),
    # Python's float() reads these; Weka's reader (Java's Double.valueOf) does not
    ("@relation r\n@attribute x numeric\n@data\n5_1\n", r"t.arff:4: attribute 'x': '5_1' is not a number"),
    ("@relation r\n@attribute x numeric\n@data\ninf\n", r"t.arff:4: attribute 'x': 'inf' is not a number"),
    ("@relation r\n@attribute x numeric\n@data\nnan\n", r"attribute 'x': 'nan' is not a number"),
    # Java reads these, but an infinite value would break every later step: refused by name
    ("@relation r\n@attribute x numeric\n@data\n-Infinity\n", r"t.arff:4: attribute 'x': '-Infinity' is not a finite"),
    ("@relation r\n@attribute a {x,y\n@data\nx\n", "missing closing"),
    ("@relation r\n@attribute a date\n@data\nx\n", "unsupported type"),
    ("@relation r\n@attribute a {x}\n@data\n'x\n", "unterminated quote"),
    ("@relation r\nhello\n", "expected @relation, @attribute or @data"),
])
def test_malformed(tmp_path, text, msg):
    with pytest.raises(ArffError, match=msg):
        read_arff(_write(tmp_path, text))


def test_numbers_as_java_reads_them(tmp_path):
    df, _ = read_arff(_write(tmp_path, "@relation r\n@attribute x numeric\n@data\n1.5e3\n-.5\n2f\n7D\n0x1p3\n+4.\n"))
    assert df["x"].tolist() == [1500.0, -0.5, 2.0, 7.0, 8.0, 4.0]


def test_latin1_byte_is_an_encoding_error(tmp_path):
    p = tmp_path / "t.arff"
    p.write_bytes("@relation r\n@attribute a {caf\u00e9,x}\n@data\nx\n".encode("latin-1"))
    with pytest.raises(ArffError, match=r"t.arff:2: byte 0xe9 is not UTF-8 \(an encoding problem"):
        read_arff(p)


def test_write_read_roundtrip(tmp_path):
    cats = lambda v: pd.Index(v, dtype=object)  # noqa: E731  (the reader keeps declared values as objects)
    df = pd.DataFrame({"a": pd.Categorical.from_codes([0, 1, -1], cats(["x y", "it's"])),
                       "n": [1.5, np.nan, -2.0], "c": pd.Categorical.from_codes([0, 0, 1], cats(["p", "q"]))})
    write_arff(df, tmp_path / "o.arff")
    back, _ = read_arff(tmp_path / "o.arff")
    pd.testing.assert_frame_equal(back, df, check_categorical=True)


def test_every_mirror_file_matches_the_registry():
    reg = load_registry(ROOT / "config/datasets.yaml")
    reg = {k: v for k, v in reg.items() if not v.extra.get("generator")}   # synthetic sets are generated
    assert len(reg) == 73
    for name, spec in reg.items():
        X, y = load_dataset(spec, DATA_DIR / spec.file)
        assert len(X) == spec.n_instances, name


def test_class_first_attribute():
    reg = load_registry(ROOT / "config/datasets.yaml")
    X, y = load_dataset(reg["wine"], DATA_DIR / "wine.arff")
    assert y.name == "class" and len(y.cat.categories) == 3


def test_shape_mismatch_is_named():
    reg = load_registry(ROOT / "config/datasets.yaml")
    with pytest.raises(DatasetInvalid, match=r"dataset 'iris'.*150 instances, expected 151"):
        from dataclasses import replace
        load_dataset(replace(reg["iris"], n_instances=151), DATA_DIR / "iris.arff")


def test_a_utf8_byte_order_mark_is_read_as_weka_reads_it(tmp_path):
    from nbrepro.data.checksums import data_digests

    text = "% a comment\n@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,x\n2,y\n"
    plain, marked = tmp_path / "plain.arff", tmp_path / "marked.arff"
    plain.write_text(text, encoding="utf-8")
    marked.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    (a, rel_a), (b, rel_b) = read_arff(plain), read_arff(marked)
    assert rel_a == rel_b == "r" and data_digests(a) == data_digests(b)


@pytest.mark.parametrize("name, entry, message", [
    ("..", {"file": "x.arff"}, "dataset name '..' is not a plain name"),
    ("a/b", {"file": "x.arff"}, "dataset name 'a/b' is not a plain name"),
    ("ok", {"file": "../../etc/hostname"}, "dataset 'ok': file '../../etc/hostname' must be a file name"),
    ("ok", {"file": "x.arff", "n_instances": "many"}, "dataset 'ok': n_instances must be a whole number, got 'many'"),
])
def test_a_registry_entry_stays_in_the_data_folders(name, entry, message):
    from nbrepro.data.registry import parse_registry

    full = {"n_instances": 1, "n_attributes": 1, "n_classes": 2, **entry}
    with pytest.raises(ValueError) as err:
        parse_registry({"datasets": {name: full}}, "reg.yaml")
    assert message in str(err.value) and "\n" not in str(err.value)
