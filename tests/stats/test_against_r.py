# SPDX-License-Identifier: GPL-3.0-or-later
"""nbrepro's rank and signed-rank tests against R, the tool most of the papers' statistics come
from, on 300 seeded tables (3–40 data sets, 2–7 methods, with and without ties): Friedman
(`friedman.test`), Iman–Davenport (its F from R's χ², `pf`), Quade (`quade.test`), Wilcoxon's
signed-rank test (`wilcox.test`, paired, without continuity correction as scipy and Demšar),
Holm's step-down (`p.adjust`) and the Nemenyi and Bonferroni–Dunn critical values (`qtukey`,
`qnorm`). One Rscript answers all of them. One table in five misses a cell or two: R drops the
incomplete data sets (friedman.test and quade.test its blocks, the paired wilcox.test its pairs),
and so does nbrepro (for Quade's test with the count of the complete blocks, as Conover's formula
has it, where R's quade.test keeps counting the dropped ones: R is asked for the complete blocks)."""
import shutil

import numpy as np
import pytest
from oracles import run_r

from nbrepro import stats

pytestmark = [pytest.mark.skipif(shutil.which("Rscript") is None, reason="R not installed"),
              pytest.mark.xdist_group("r_stats")]   # one worker asks R once for the module

N_TABLES = 300


def _tables() -> list[np.ndarray]:
    out = []
    for seed in range(N_TABLES):
        rng = np.random.default_rng(seed)
        n, k = int(rng.integers(3, 41)), int(rng.integers(2, 8))
        table = rng.normal(size=(n, k)) + rng.normal(size=k)   # methods that differ a little
        if seed % 3 == 0:
            table = np.round(table, 1)   # ties within a data set, and between the two Wilcoxon columns
        if seed % 5 == 2:   # missing cells, leaving at least 2 complete data sets
            for i in rng.choice(n - 2, size=min(2, n - 2), replace=False):
                table[i, rng.integers(k)] = np.nan
        out.append(table)
    return out


R_SCRIPT = r"""
args <- commandArgs(trailingOnly = TRUE)
lines <- readLines(args[1])
for (line in lines) {
  parts <- strsplit(line, " ")[[1]]
  n <- as.integer(parts[1]); k <- as.integer(parts[2])
  m <- matrix(as.numeric(parts[-(1:2)]), nrow = n, ncol = k, byrow = TRUE)
  fr <- friedman.test(m)
  n <- sum(complete.cases(m))
  chi <- unname(fr$statistic)
  f <- (n - 1) * chi / (n * (k - 1) - chi)
  id_p <- pf(f, k - 1, (k - 1) * (n - 1), lower.tail = FALSE)
  # quade.test drops the incomplete blocks but keeps their count in B and the df (R 4.x's
  # b <- nlevels(blocks)): Conover's formula over the complete blocks is R's on those blocks alone
  qu <- quade.test(m[complete.cases(m), , drop = FALSE])
  wi <- suppressWarnings(wilcox.test(m[, 1], m[, 2], paired = TRUE, correct = FALSE))
  cat(sprintf("%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", chi, fr$p.value, f, id_p,
              unname(qu$statistic), qu$p.value, unname(wi$statistic), wi$p.value))
}
"""


@pytest.fixture(scope="module")
def r_answers(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("r_stats")
    tables = _tables()
    def cell(v):
        return "NA" if np.isnan(v) else repr(float(v))

    (tmp / "tables.txt").write_text("".join(
        f"{t.shape[0]} {t.shape[1]} {' '.join(map(cell, t.ravel()))}\n" for t in tables))
    (tmp / "tests.R").write_text(R_SCRIPT)
    rows = [[float(v) for v in line.split()] for line in run_r(tmp / "tests.R", tmp / "tables.txt").splitlines()]
    assert len(rows) == N_TABLES
    return tables, rows


def _close(ours, r, what, seed):
    assert ours == pytest.approx(r, rel=1e-9, abs=1e-12), f"table {seed}: {what} {ours!r} vs R {r!r}"


def test_friedman_iman_davenport_and_quade_equal_r(r_answers):
    tables, rows = r_answers
    for seed, (table, r) in enumerate(zip(tables, rows, strict=True)):
        chi, p_chi, f, p_f, q, p_q = r[:6]
        fr = stats.friedman(table)
        _close(fr.statistic, chi, "Friedman χ²", seed)
        _close(fr.pvalue, p_chi, "Friedman p", seed)
        if np.isfinite(f):   # R's χ² at its maximum, N(k − 1), makes F infinite: nbrepro's own edge rule
            idv = stats.iman_davenport(table)
            _close(idv.statistic, f, "Iman–Davenport F", seed)
            _close(idv.pvalue, p_f, "Iman–Davenport p", seed)
        qu = stats.quade(table)
        _close(qu.statistic, q, "Quade F", seed)
        _close(qu.pvalue, p_q, "Quade p", seed)


def test_wilcoxon_equals_r_without_continuity_correction(r_answers):
    """Without ties or zeros both take the exact distribution (below 50 data sets) and agree.
    With tied |differences| they part: scipy's method="auto" (nbrepro's convention) stays with the
    exact distribution of untied ranks, R's wilcox.test takes the normal approximation with the
    tie-corrected variance, which is scipy's method="approx" to the last bits."""
    import scipy.stats

    tables, rows = r_answers
    untied = tied = 0
    for seed, (table, r) in enumerate(zip(tables, rows, strict=True)):
        if table.shape[0] >= 50:   # scipy goes exact up to 50 rows, R below 50
            continue
        x, y = table[:, 0], table[:, 1]
        both = ~(np.isnan(x) | np.isnan(y))
        x, y = x[both], y[both]
        d = x[x != y] - y[x != y]
        res = stats.wilcoxon(table[:, 0], table[:, 1])
        v_plus = r[6]   # R's V: the sum of the positive ranks; scipy's statistic is the smaller sum
        _close(res.statistic, min(v_plus, len(d) * (len(d) + 1) / 2 - v_plus), "Wilcoxon statistic", seed)
        if len(np.unique(np.abs(d))) == len(d) == len(x):
            _close(res.pvalue, r[7], "Wilcoxon p", seed)
            untied += 1
        else:
            _close(scipy.stats.wilcoxon(x, y, method="approx").pvalue, r[7], "Wilcoxon p (normal)", seed)
            tied += 1
    assert untied > 150 and tied > 20, (untied, tied)


def test_holm_rejects_what_r_p_adjust_rejects(tmp_path):
    """Holm's step-down over the z-tests against a control: rejected exactly where R's
    p.adjust(p, "holm") ≤ α, on the same unadjusted p-values."""
    tables = _tables()[:60]
    results = [stats.holm(t, 0) for t in tables if t.shape[1] > 2 and not np.isnan(t).any()]
    script = "".join(f"cat(paste(sprintf('%.17g', p.adjust(c({', '.join(repr(p) for p in r.pvalue.values())}), "
                     "'holm')), collapse=' '), '\\n')\n" for r in results)
    (tmp_path / "holm.R").write_text(script)
    out = run_r(tmp_path / "holm.R").splitlines()
    for res, line in zip(results, out, strict=True):
        adjusted = [float(v) for v in line.split()]
        assert [a <= res.alpha for a in adjusted] == list(res.rejected.values())


def test_critical_values_equal_r(tmp_path):
    ks, alphas = range(2, 11), (0.05, 0.10)
    expr = "\n".join(f"cat(sprintf('%.17g %.17g\\n', qtukey({1 - a}, {k}, Inf) / sqrt(2), "
                     f"qnorm(1 - {a} / (2 * ({k} - 1)))))" for a in alphas for k in ks)
    (tmp_path / "q.R").write_text(expr + "\n")
    out = run_r(tmp_path / "q.R").splitlines()
    pairs = [(a, k) for a in alphas for k in ks]
    for (a, k), line in zip(pairs, out, strict=True):
        nem, bd = (float(v) for v in line.split())
        assert stats.nemenyi_q(k, a) == pytest.approx(nem, rel=1e-6), (k, a)   # R's qtukey: 1e-6 of a digit's worth
        assert stats.bonferroni_dunn_q(k, a) == pytest.approx(bd, rel=1e-12), (k, a)
