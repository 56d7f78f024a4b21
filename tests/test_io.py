# SPDX-License-Identifier: GPL-3.0-or-later
"""Result files recorded when written and checked when read (nbrepro.io)."""
import hashlib
import os
import time
from pathlib import Path

import pandas as pd
import pytest

from nbrepro.cli import main as cli
from nbrepro.errors import ResultChanged
from nbrepro.fingerprint import CORRUPT, fingerprint
from nbrepro.io import atomic_path, changed_files, check_recorded, read_csv, read_parquet, recorded, sidecar


def _write(path, text="a\n1\n"):
    with atomic_path(path) as tmp:
        tmp.write_text(text)


def test_a_written_file_has_its_sha256_recorded_in_sha256sums_format(tmp_path):
    f = tmp_path / "sub/t.csv"
    _write(f)
    line = sidecar(f).read_text()
    assert sidecar(f).name == ".t.csv.sha256" and line.endswith("  t.csv\n")
    assert recorded(f) == hashlib.sha256(b"a\n1\n").hexdigest()
    check_recorded(f)   # as written: no error
    assert read_csv(f)["a"].tolist() == [1]
    assert not list(tmp_path.rglob("*.part"))


def test_an_interrupted_write_leaves_the_old_file_and_its_record(tmp_path):
    f = tmp_path / "t.csv"
    _write(f)
    with pytest.raises(RuntimeError), atomic_path(f) as tmp:
        tmp.write_text("half")
        raise RuntimeError("killed")
    assert f.read_text() == "a\n1\n"
    check_recorded(f)


@pytest.mark.parametrize("damage", ["cut", "edit"])
def test_a_file_changed_after_it_was_written_is_not_read(tmp_path, damage):
    """Was (issue 43): a results parquet truncated in place was read (or reused) as a result."""
    f = tmp_path / "r.parquet"
    with atomic_path(f) as tmp:
        pd.DataFrame({"accuracy": [0.5, 0.75] * 500}).to_parquet(tmp)
    data = f.read_bytes()
    if damage == "cut":
        f.write_bytes(data[: len(data) // 2])
    else:   # an edit that still reads as parquet: another value, same length
        with atomic_path(tmp_path / "other.parquet") as tmp:
            pd.DataFrame({"accuracy": [0.5, 0.25] * 500}).to_parquet(tmp)
        os.replace(tmp_path / "other.parquet", f)
        assert len(f.read_bytes()) == len(data)
    with pytest.raises(ResultChanged, match=r"r\.parquet is not the file its job wrote .*recorded .* in "
                                            r"\.r\.parquet\.sha256.*delete it and run snakemake again"):
        read_parquet(f)
    assert [m.split(" is not")[0] for m in changed_files(tmp_path)] == [str(f)]
    assert dict(fingerprint(tmp_path))["r.parquet"] == CORRUPT


def test_files_without_a_record_are_read_unchecked_and_the_start_up_pass_only_hashes_what_changed(tmp_path):
    plain = tmp_path / "old.csv"   # an older run's file, or a published table: nothing to check against
    plain.write_text("a\n2\n")
    assert read_csv(plain)["a"].tolist() == [2]
    f = tmp_path / "t.csv"
    _write(f)
    assert changed_files(tmp_path) == []
    # rewritten with the same bytes: modified after its record, hashed, and found to be what was written
    f.write_text(f.read_text())
    os.utime(f, ns=(sidecar(f).stat().st_mtime_ns + 10**9,) * 2)
    assert changed_files(tmp_path) == []
    f.unlink()   # deleted: the workflow makes it again; no message
    assert changed_files(tmp_path) == []


def test_a_file_cut_short_with_its_old_mtime_kept_is_still_caught(tmp_path):
    """Was: a copy cut short whose mtime was set back before its record's (cp -p, rsync -a, touch -d)
    passed the start-up check; its ctime, which no user can set back, now counts too (issue 64).
    A file hashed and found whole has its record touched, so the next start skips it."""
    f = tmp_path / "r.csv"
    _write(f, "a\n" + "1\n" * 100)
    side_ns = sidecar(f).stat().st_mtime_ns
    time.sleep(0.05)   # past the file system's clock tick (a real copy comes later still)
    f.write_bytes(f.read_bytes()[:10])
    os.utime(f, ns=(side_ns - 10**9,) * 2)   # the mtime put back before the record's
    assert [m.split(" is not")[0] for m in changed_files(tmp_path)] == [str(f)]
    g = tmp_path / "whole.csv"
    _write(g)
    os.utime(g, ns=(sidecar(g).stat().st_mtime_ns - 10**9,) * 2)   # a whole copy made with cp -p
    time.sleep(0.05)
    g.chmod(0o644)   # moves the ctime past the record's, as the copy did
    before = sidecar(g).stat().st_mtime_ns
    assert [m for m in changed_files(tmp_path) if "whole.csv" in m] == []
    assert sidecar(g).stat().st_mtime_ns > before   # hashed once: the record is newer than the copy now


def test_fingerprint_leaves_out_the_records(tmp_path, capsys):
    _write(tmp_path / "p/t.csv")
    assert [p for p, _ in fingerprint(tmp_path)] == ["p/t.csv"]
    (tmp_path / "p/t.csv").write_text("a\n3\n")
    assert cli(["fingerprint", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert "CORRUPT  p/t.csv" in out and "are not what their job wrote, e.g. p/t.csv" in err


def test_a_result_whose_record_was_deleted_is_not_read(tmp_path, monkeypatch):
    """Was (issue 64): a table edited and its sidecar deleted was read unchecked, and the report
    rebuilt from it showed the edited number. In the workflow's output folders every job records
    what it writes, so a file there without a record is refused; outside them (a published table,
    a user's file) it is read as it is."""
    monkeypatch.chdir(tmp_path)
    f = Path("results/p/tables/table2.csv")
    _write(f)
    f.write_text("a\n99\n")
    sidecar(f).unlink()
    with pytest.raises(ResultChanged, match=r"table2\.csv has no sha256 record \(\.table2\.csv\.sha256\).*"
                                            r"delete it and run snakemake again"):
        read_csv(f)
    with pytest.raises(ResultChanged, match="has no sha256 record"):
        read_csv(tmp_path / f)   # the same file by its absolute path
    outside = Path("config/published/t.csv")
    outside.parent.mkdir(parents=True)
    outside.write_text("a\n2\n")
    assert read_csv(outside)["a"].tolist() == [2]
