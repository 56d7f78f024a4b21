# SPDX-License-Identifier: GPL-3.0-or-later
"""Bandwidth rules against R 4.2 itself (``Rscript``), on vectors chosen to reach every branch:
ties, tiny n, n on both sides of R's binning threshold (500), n ≥ 5000, zero IQR, and
constant data (where R stops with an error, so must we)."""
import math
import shutil

import numpy as np
import pytest
from oracles import needs_r, run_r

from nbrepro.kde import RULES, BandwidthError, bandwidth
from nbrepro.kde.bandwidth import bw_weka

# compares bits: .ci/run repeats it with numpy's AVX-512 loops off; one worker builds the module fixture
pytestmark = [pytest.mark.bits, pytest.mark.xdist_group("r_bandwidths")]


_rng = np.random.default_rng(0)
CASES = {
    "normal-50": _rng.normal(size=50),
    "normal-300": _rng.normal(3, 2, size=300),
    "normal-500": _rng.normal(size=500),
    "normal-501": _rng.normal(size=501),
    "normal-2000": _rng.normal(size=2000),
    "exponential-6000": _rng.exponential(size=6000),
    "rounded-400": np.round(_rng.normal(size=400), 1),
    "rounded-3000": np.round(_rng.normal(size=3000) * 3),
    "two-values": np.array([1.0, 2.5]),
    "three-values": np.array([0.1, 0.4, 0.35]),
    "normal-5": _rng.normal(size=5),
    "bimodal-800": np.concatenate([_rng.normal(0, 1, 400), _rng.normal(8, 0.5, 400)]),
    "uniform-18000": _rng.uniform(-5, 100, 18000),
    "negative-small-200": -np.abs(_rng.normal(size=200)) * 1e-3,
    "integers-20": _rng.integers(0, 5, 20).astype(float),
    "two-clumps-60": np.array([0.0] * 30 + [1.0] * 30),
    "outlier-101": np.concatenate([_rng.normal(size=100), [1e6]]),
    "seven-values-700": np.repeat(_rng.normal(size=7), 100),
    "zero-iqr-50": np.concatenate([np.zeros(45), _rng.normal(size=5)]),
    "zero-iqr-900": np.concatenate([np.zeros(800), _rng.normal(size=100)]),
    "constant-10": np.full(10, 3.0),
    "constant-600": np.full(600, -2.0),
}
R_RULES = {"nrd0": "bw.nrd0(x)", "nrd": "bw.nrd(x)", "ucv": "suppressWarnings(bw.ucv(x))",
           "bcv": "suppressWarnings(bw.bcv(x))", "ste": 'bw.SJ(x, method = "ste")', "dpi": 'bw.SJ(x, method = "dpi")',
           # R's own upper argument, four times its default hmax (our search_upper = 4)
           "ucv*4": "suppressWarnings(bw.ucv(x, upper = 1.144 * sqrt(var(x)) * length(x)^(-1/5) * 4))",
           "bcv*4": "suppressWarnings(bw.bcv(x, upper = 1.144 * sqrt(var(x)) * length(x)^(-1/5) * 4))"}

_R_SCRIPT = """
lines <- readLines(file(commandArgs(TRUE)[1]))
f <- function(e) tryCatch(sprintf("%.17g", eval(e)), error = function(err) "ERROR")
for (ln in lines) {
  p <- strsplit(ln, " ")[[1]]; x <- as.numeric(p[-1])
  out <- sapply(list(RULES), f)
  cat(p[1], out, "\\n")
}
"""


@pytest.fixture(scope="module")
def r_bandwidths(tmp_path_factory):
    if shutil.which("Rscript") is None:
        pytest.skip("R not installed")
    tmp = tmp_path_factory.mktemp("r")
    (tmp / "in.txt").write_text("".join(f"{k} {' '.join(repr(float(v)) for v in x)}\n" for k, x in CASES.items()))
    exprs = ", ".join(f"quote({e})" for e in R_RULES.values())
    (tmp / "bw.R").write_text(_R_SCRIPT.replace("RULES", exprs))
    out = run_r(tmp / "bw.R", tmp / "in.txt")
    return {
        line.split()[0]: dict(zip(R_RULES, line.split()[1:], strict=True)) for line in out.splitlines() if line.strip()
    }


@needs_r
@pytest.mark.parametrize("rule", list(R_RULES))
@pytest.mark.parametrize("case", list(CASES))
def test_rule_equals_r(r_bandwidths, case, rule):
    expected = r_bandwidths[case][rule]
    rule, _, upper = rule.partition("*")
    options = {"search_upper": float(upper)} if upper else {}
    if expected == "ERROR":
        with pytest.raises(BandwidthError):
            bandwidth(CASES[case], rule, **options)
        return
    got = bandwidth(CASES[case], rule, **options)
    assert math.isclose(got, float(expected), rel_tol=1e-8, abs_tol=0.0), (got, expected)


def test_nrd_i_is_silverman_with_the_sample_sd():
    x = CASES["normal-300"]
    assert bandwidth(x, "nrd-i") == pytest.approx(1.06 * np.std(x, ddof=1) * len(x) ** -0.2, rel=1e-14)


def test_sp_is_range_over_sturges():
    x = CASES["normal-300"]
    assert bandwidth(x, "sp") == pytest.approx(np.ptp(x) / (2 * (1 + np.log2(len(x)))), rel=1e-15)


def test_weka_rule_is_the_kernel_estimators_sd():
    x = np.array([1.0, 1.0, 2.0, 4.0, 4.5])
    p = np.mean(np.diff(np.unique(x)))  # Weka NB's precision: the mean gap between distinct values
    assert bw_weka(x) == pytest.approx(max((4.5 - 1.0) / np.sqrt(5), p / 6), rel=1e-15)
    assert bw_weka(np.full(4, 2.0), precision=0.3) == pytest.approx(0.05)


@pytest.mark.parametrize("rule", RULES)
def test_bad_input_is_named(rule):
    with pytest.raises(BandwidthError, match="at least"):
        bandwidth([], rule)
    if rule != "weka":
        with pytest.raises(BandwidthError, match="at least 2"):
            bandwidth([1.0], rule)
        with pytest.raises(BandwidthError, match="non-finite"):
            bandwidth([1.0, np.inf, 2.0], rule)
    with pytest.raises(ValueError, match="unknown bandwidth rule"):
        bandwidth([1.0, 2.0], "silverman")


@pytest.mark.parametrize("rule", RULES)
def test_many_samples_at_once_equal_one_at_a_time(rule):
    """``bandwidths`` runs R's optimiser and root finder for all samples in lockstep: each sample
    must take exactly its own path (identical floats), and fail where the one-sample call fails."""
    from nbrepro.kde.many import bandwidths

    rng = np.random.default_rng(7)
    samples = list(CASES.values()) + [rng.normal(size=rng.integers(2, 60)) * rng.uniform(0.1, 10) for _ in range(80)]
    samples += [np.round(rng.normal(size=rng.integers(3, 40)), 1) for _ in range(40)] + [np.array([1.0, 1.0, 2.0])]
    samples += [np.array([]), np.array([3.0]), np.array([1.0, np.inf, 2.0]), np.array([0.0, 0.0, 0.0])]
    precisions = rng.choice([None, 0.1, 1e-9, 0.37], size=len(samples))
    got, errors = bandwidths(samples, rule)
    got_p, errors_p = bandwidths(samples, rule, list(precisions))
    got_w, errors_w = bandwidths(samples, rule, search_upper=4.0)
    for x, h, err in zip(samples, got_w, errors_w, strict=True):
        try:
            want = bandwidth(x, rule, search_upper=4.0)
        except BandwidthError as exc:
            assert np.isnan(h) and err == str(exc)
        else:
            assert h == want and err is None
    for x, h, err, p, h_p, err_p in zip(samples, got, errors, precisions, got_p, errors_p, strict=True):
        try:
            want_p = bandwidth(x, rule, p)
        except BandwidthError as exc:
            assert np.isnan(h_p) and err_p == str(exc)
        else:
            assert h_p == want_p and err_p is None
        try:
            want = bandwidth(x, rule)
        except BandwidthError as exc:
            assert np.isnan(h) and err == str(exc)
            continue
        assert h == want and err is None


def test_pair_counts_of_many_samples_equal_one_at_a_time():
    """Listed pairs (≤ 100 values), the FFT of bin counts (101–500 values, and every larger
    sample after R's binning into nb bins): the same whole numbers as the one-sample counts."""
    from nbrepro.kde.bandwidth import pair_counts
    from nbrepro.kde.many import pair_counts_many

    rng = np.random.default_rng(3)
    samples = [x for x in CASES.values() if len(x) >= 2]
    samples += [rng.normal(size=m) for m in (2, 99, 100, 101, 499, 500, 501, 1200)]
    samples += [np.round(rng.normal(size=m) * 4) for m in (150, 700, 25000)]
    got = pair_counts_many(samples)
    for x, found in zip(samples, got, strict=True):
        try:
            d, k, counts = pair_counts(x)
        except BandwidthError as exc:
            assert isinstance(found, BandwidthError) and str(found) == str(exc)
            continue
        assert found[0] == d
        np.testing.assert_array_equal(found[1], k)
        np.testing.assert_array_equal(found[2], counts)
