"""J48's compiled split selection against the numpy one it replaced: the same trees, bit for bit."""
import numpy as np
import pytest

from conftest import MIRROR, needs_mirror
from nbrepro.classifiers import Bagging, J48
from nbrepro.classifiers import j48 as j48_module
from nbrepro.data.arff import read_arff


def _fit_both(make, X, y, monkeypatch):
    compiled = make().fit(X, y)
    with monkeypatch.context() as m:
        m.setattr(j48_module._TreeBuilder, "_select", j48_module._TreeBuilder._select_numpy)
        reference = make().fit(X, y)
    return compiled, reference


@needs_mirror
@pytest.mark.parametrize("name", ["labor", "colic", "vehicle", "hepatitis", "splice"])
@pytest.mark.parametrize("unpruned", [True, False])
def test_compiled_selection_grows_the_numpy_trees(name, unpruned, monkeypatch):
    # colic and hepatitis have missing values (fractional weights below their splits), vehicle is
    # numeric, splice nominal with many attributes; bags give repeated rows
    frame, _ = read_arff(MIRROR / f"{name}.arff")
    c = frame.columns[-1]
    X, y = frame.drop(columns=[c]), frame[c]
    for make in (lambda: J48(unpruned=unpruned),
                 lambda: Bagging(J48(unpruned=unpruned), n_estimators=3, bag_size_percent=50)):
        compiled, reference = _fit_both(make, X, y, monkeypatch)
        assert np.array_equal(compiled.predict_proba(X), reference.predict_proba(X))
        trees = getattr(compiled, "estimators_", [compiled])
        for a, b in zip(trees, getattr(reference, "estimators_", [reference])):
            assert a.export_text() == b.export_text()
            assert np.array_equal(a.min_test_depth_, b.min_test_depth_)
