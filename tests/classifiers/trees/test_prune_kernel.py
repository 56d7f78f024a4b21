# SPDX-License-Identifier: GPL-3.0-or-later
"""Subtree raising's estimated errors, compiled (``_prune_kernel.branch_errors``), equal the
Python walk's (``TreeBuilder._errors_for_branch_python``) at every node J48 prunes: with missing
values (spread over branches), fractional weights, nominal and numeric splits, many classes."""
import numpy as np
import pytest
from conftest import DATA_DIR

from nbrepro.classifiers import J48
from nbrepro.classifiers.trees import _builder as builder_module
from nbrepro.data.arff import read_arff

pytestmark = pytest.mark.bits  # compares bits: .ci/run repeats it with numpy's AVX-512 loops off


def _data(name, rows=None):
    df, _ = read_arff(DATA_DIR / f"{name}.arff")
    X, y = df.iloc[:, :-1], df.iloc[:, -1]
    return (X, y) if rows is None else (X.iloc[:rows], y.iloc[:rows])


@pytest.mark.parametrize("name, rows, weighted", [("colic", None, False), ("hepatitis", None, True),
                                                  ("credit-a", None, False), ("letter", 3000, False),
                                                  ("vote", None, True), ("anneal", None, False)])
def test_compiled_branch_errors_equal_the_python_walk(monkeypatch, name, rows, weighted):
    X, y = _data(name, rows)
    compiled = builder_module.TreeBuilder._errors_for_branch
    seen = []

    def both(self, node, r_rows, w):
        got = compiled(self, node, r_rows, w)
        want = self._errors_for_branch_python(node, r_rows, w)
        seen.append((got, want))
        return got

    monkeypatch.setattr(builder_module.TreeBuilder, "_errors_for_branch", both)
    weight = np.random.default_rng(3).choice([0.5, 1.0, 1.5], len(y)) if weighted else None
    J48().fit(X, y, sample_weight=weight) if weighted else J48().fit(X, y)
    assert len(seen) > 3
    got, want = np.array(seen).T
    assert np.array_equal(got.view(np.int64), want.view(np.int64))
