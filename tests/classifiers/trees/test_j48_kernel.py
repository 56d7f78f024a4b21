# SPDX-License-Identifier: GPL-3.0-or-later
"""J48's compiled grower and split selection against the Python recursion and numpy selection they
replaced: the same trees, bit for bit."""
import numpy as np
import pytest
from conftest import DATA_DIR

from nbrepro.classifiers import J48, Bagging
from nbrepro.classifiers.trees import _builder as builder_module
from nbrepro.classifiers.trees import _j48 as j48_module
from nbrepro.data.arff import read_arff

pytestmark = pytest.mark.bits  # compares bits: .ci/run repeats it with numpy's AVX-512 loops off


def _data(name):
    frame, _ = read_arff(DATA_DIR / f"{name}.arff")
    c = frame.columns[-1]
    return frame.drop(columns=[c]), frame[c]


def _nbtree_same_with(name, monkeypatch, owner, attribute, replacement):
    """NBTree on the whole of ``name``, as is and with ``owner.attribute`` replaced by the path
    it stands for: the same probabilities."""
    from nbrepro.classifiers import NBTree

    X, y = _data(name)
    fast = NBTree().fit(X, y)
    with monkeypatch.context() as m:
        m.setattr(owner, attribute, replacement)
        reference = NBTree().fit(X, y)
    assert np.array_equal(fast.predict_proba(X), reference.predict_proba(X))


def _grow_in_python(builder, w, keep_rows, ranks=None):
    """``TreeBuilder.grow`` as the Python recursion it compiles: ``build``, then ``collapse``."""
    root = builder.build(np.arange(len(builder.y)), w)
    builder.collapse(root)
    return root


def _grow_nodes_instead(self, builder, w, ranks=None, depths_only=False):
    """An unpruned tree as nodes (the reference its arrays are tested against)."""
    return self._grow_nodes(builder, w, ranks)


def _branch_errors_stepwise(self, rows, w, rnd, presorted=None):
    """``NBTree._branch_errors`` step by step, the reference the fused kernel is tested against:
    the branch's cuts, Weka's randomize-then-stratify of its rows, 5-fold naive Bayes errors."""
    from nbrepro.classifiers.trees._nbtree import _FOLDS, _cv_errors, _DiscretizedNB
    from nbrepro.weka._random_kernel import shuffled_stratified_order

    Z, y = self._Z[rows], self._y[rows]
    disc = _DiscretizedNB(self, Z, y, w, fit=False, rows=rows, presorted=presorted)  # cuts: independent of row order
    order, state = shuffled_stratified_order(np.asarray(y, dtype=np.int64), _FOLDS, rnd._state)
    rnd._state = int(state)
    return _cv_errors(disc, y[order], w[order], disc.codes[order])


def _fit_both(make, X, y, monkeypatch):
    """The compiled grower against the Python recursion with the numpy split selection."""
    compiled = make().fit(X, y)
    with monkeypatch.context() as m:
        m.setattr(builder_module.TreeBuilder, "_select", builder_module.TreeBuilder._select_numpy)
        m.setattr(builder_module.TreeBuilder, "grow", _grow_in_python)
        m.setattr(J48, "_grow_arrays", _grow_nodes_instead)
        reference = make().fit(X, y)
    return compiled, reference


def _assert_same_nodes(a, b):
    """Every node's test, split point, distributions and emptiness, bit for bit."""
    stack = [(a, b)]
    while stack:
        p, q = stack.pop()
        assert (p.split is None) == (q.split is None) and p.is_empty == q.is_empty
        for name in ("per_class_per_bag", "per_bag", "per_class"):
            assert np.array_equal(getattr(p.model_dist(), name), getattr(q.model_dist(), name))
        assert p.model_dist().total == q.model_dist().total
        if p.split is not None:
            assert (p.split.attribute, p.split.split_point, p.split.gain_ratio) == \
                (q.split.attribute, q.split.split_point, q.split.gain_ratio)
            assert len(p.sons) == len(q.sons)
            stack.extend(zip(p.sons, q.sons, strict=True))


@pytest.mark.parametrize("name", ["labor", "colic", "vehicle", "hepatitis", "splice", "credit-a"])
@pytest.mark.parametrize("unpruned", [True, False])
def test_compiled_selection_grows_the_numpy_trees(name, unpruned, monkeypatch):
    # colic and hepatitis have missing values (fractional weights below their splits), vehicle is
    # numeric, splice nominal with many attributes; bags give repeated rows
    X, y = _data(name)
    for make in (lambda: J48(unpruned=unpruned),
                 lambda: Bagging(J48(unpruned=unpruned), n_estimators=3, bag_size_percent=50)):
        compiled, reference = _fit_both(make, X, y, monkeypatch)
        assert np.array_equal(compiled.predict_proba(X), reference.predict_proba(X))
        trees = getattr(compiled, "estimators_", [compiled])
        for a, b in zip(trees, getattr(reference, "estimators_", [reference]), strict=True):
            assert a.export_text() == b.export_text()
            _assert_same_nodes(a.tree_, b.tree_)
            assert np.array_equal(a.min_test_depth_, b.min_test_depth_)


@pytest.mark.parametrize("n_classes", [1, 2, 3])
def test_threshold_scan_on_counts_equals_the_float_scan(n_classes):
    # whole weights and at most three classes are scanned as integer counts in registers
    # (_scan_counts); the float scan over class arrays (whole=False looks logFunc up only where
    # the weight is whole) is the reference: gain, row, weights, bit for bit
    from nbrepro.classifiers.trees._builder import log_table
    from nbrepro.classifiers.trees._j48_kernel import numeric_gain

    rng = np.random.default_rng(n_classes)
    scratch = [np.zeros(n_classes) for _ in range(3)]
    scored = 0
    for trial in range(300):
        nk = int(rng.integers(2, 400))
        xs = np.sort(np.round(rng.normal(size=nk) * rng.choice([1, 20]), int(rng.integers(0, 3))))
        cs = np.where(rng.random(nk) < 0.5, (xs > xs[nk // 2]).astype(np.int64) % n_classes,
                      rng.integers(0, n_classes, nk))
        ws = rng.integers(1, 4, nk).astype(np.float64)
        table = log_table(int(ws.sum()) + int(rng.integers(0, 5)))
        min_leaf = int(rng.choice([1, 2, 30]))
        total = ws.sum() + float(rng.integers(0, 3))  # rows with a missing value weigh in the total
        got = numeric_gain(xs, cs, ws, nk, nk, n_classes, min_leaf, total, table, True, *scratch)
        want = numeric_gain(xs, cs, ws, nk, nk, n_classes, min_leaf, total, table, False, *scratch)
        assert np.array(got).tobytes() == np.array(want).tobytes(), trial
        init = np.bincount(cs, weights=ws, minlength=n_classes).astype(np.float64)  # as a node knows them
        given = numeric_gain(xs, cs, ws, nk, nk, n_classes, min_leaf, total, table, True, *scratch[:2], init, ws.sum())
        assert np.array(given).tobytes() == np.array(want).tobytes(), trial
        scored += got[1] >= 0
    assert scored > 50 or n_classes == 1


@pytest.mark.parametrize("name", ["vote", "colic", "hepatitis", "labor"])
def test_nbtree_compiled_cv_errors_match_numpy_with_fractional_weights(name, monkeypatch):
    # rows with missing values go down every branch with a fraction of their weight, so the
    # branches' naive Bayes counts are fractional; the compiled loop must keep numpy's sums
    import functools

    from nbrepro.classifiers.trees import _nbtree as nbtree_module

    _nbtree_same_with(name, monkeypatch, nbtree_module, "_cv_errors",
                      functools.partial(nbtree_module._cv_errors, compiled=False))


@pytest.mark.parametrize("n_classes", [1, 2, 3, 4])
def test_nbtree_cv_errors_kernel_equals_numpy(n_classes):
    # the kernel's paths: two rows at once (2 or 3 classes, every factor finite), one row at a time
    # (any other case), the folds' counts added up (whole weights) or all rows' summed (fractional);
    # many attributes underflow the product, so Weka's rescale is exercised
    from types import SimpleNamespace

    from nbrepro.classifiers.trees._nbtree import _FOLDS, _cv_errors

    rng = np.random.default_rng(n_classes)
    for trial in range(200):
        n, m = int(rng.integers(1, 60)), int(rng.choice([1, 5, 300]))
        n_values = rng.integers(1, 5, m).astype(np.int64)
        codes = (rng.random((n, m)) * n_values).astype(np.int64)
        codes[rng.random((n, m)) < 0.1] = -1  # missing
        y = rng.integers(0, n_classes, n).astype(np.int64)
        w = rng.integers(1, 4, n).astype(np.float64) if trial % 2 else rng.random(n) * 3
        model = SimpleNamespace(n_values=n_values, n_classes=n_classes, codes=codes)
        assert _cv_errors(model, y, w) == _cv_errors(model, y, w, compiled=False), trial
    assert _FOLDS == 5


def test_numpy_sum_has_numpy_bits():
    from nbrepro.classifiers.trees._nbtree_kernel import numpy_sum

    rng = np.random.default_rng(0)
    for n in list(range(0, 40)) + [127, 128, 129, 300, 1000]:
        a = rng.random(n) * rng.choice([1e-3, 1.0, 1e3], size=n)
        assert numpy_sum(a) == a.sum()


def test_nbtree_compiled_shuffle_and_stratify_are_wekas():
    from nbrepro.protocols.weka_cv import _stratify
    from nbrepro.weka._random_kernel import shuffled_stratified_order
    from nbrepro.weka.random import JavaRandom, java_shuffle

    rng = np.random.default_rng(0)
    for _ in range(500):
        n = int(rng.integers(0, 200))
        y = rng.integers(0, int(rng.integers(1, 5)), n)
        rnd = JavaRandom(int(rng.integers(0, 1 << 40)))
        start = rnd._state
        order = list(range(n))
        java_shuffle(order, rnd)
        order = _stratify(order, list(y), 5).tolist()
        compiled, state = shuffled_stratified_order(y.astype(np.int64), 5, start)
        assert compiled.tolist() == order and int(state) == rnd._state


@pytest.mark.parametrize("name", ["colic", "labor"])
def test_bagging_encodes_the_rows_once_for_its_trees(name, monkeypatch):
    from nbrepro.classifiers.trees import _bagging as bagging_module

    X, y = _data(name)
    make = lambda: Bagging(J48(unpruned=True), n_estimators=4, bag_size_percent=100)  # noqa: E731
    assert make()._shared_encoder(X, y, np.arange(len(y))) is not None
    shared = make().fit(X, y)
    with monkeypatch.context() as m:
        m.setattr(bagging_module.Bagging, "_shared_encoder", lambda self, *args: None)
        own = make().fit(X, y)
    for a, b in zip(shared.estimators_, own.estimators_, strict=True):
        assert a.export_text() == b.export_text()
        assert list(a.classes_) == list(b.classes_) and a.n_values_.tolist() == b.n_values_.tolist()
    assert np.array_equal(shared.predict_proba(X), own.predict_proba(X))
    # an object column's value set depends on the rows a bag draws: no shared encoding then
    objects = X.astype({X.columns[X.dtypes.map(lambda t: t.name == "category").argmax()]: object})
    assert make()._shared_encoder(objects, y, np.arange(len(y))) is None


@pytest.mark.parametrize("name", ["iris", "sonar", "vehicle", "kr-vs-kp", "colic"])
@pytest.mark.parametrize("percent", [100, 50])
def test_bagged_trees_grown_on_drawn_rows_once_are_the_same(name, percent, monkeypatch):
    # a row drawn k times grown on as one row of weight k: the same trees, bit for bit, where no
    # value is missing (colic has missing values: its bags are grown row by row)
    from nbrepro.classifiers.trees import _bagging as bagging_module

    X, y = _data(name)
    make = lambda: Bagging(J48(unpruned=True), n_estimators=3, bag_size_percent=percent)  # noqa: E731
    calls = []
    once = bagging_module.drawn_once
    monkeypatch.setattr(bagging_module, "drawn_once", lambda bag: calls.append(1) or once(bag))
    grouped = make().fit(X, y)
    assert bool(calls) == (name != "colic")
    monkeypatch.setattr(bagging_module, "drawn_once", lambda bag: (bag, np.ones(len(bag), dtype=np.int64)))
    one_by_one = make().fit(X, y)
    for a, b in zip(grouped.estimators_, one_by_one.estimators_, strict=True):
        for field in ("attr", "split_point", "gain", "ratio", "total", "collapsed", "alive", "sons", "per_bag",
                      "per_class_per_bag", "per_class"):
            assert np.array_equal(getattr(a.flat_tree_, field), getattr(b.flat_tree_, field), equal_nan=True), field
        assert np.array_equal(a.min_test_depth_, b.min_test_depth_)
    assert np.array_equal(grouped.predict_proba(X), one_by_one.predict_proba(X))


def test_presorted_cut_points_equal_sorting_each_subset():
    # NBTree cuts every branch of every candidate split from its node's rows sorted once
    from nbrepro.preprocess.mdl import mdl_cut_points_packed, mdl_cut_points_presorted, presort_columns

    rng = np.random.default_rng(3)
    n, m = 400, 5
    X = np.round(rng.normal(size=(n, m)), 1)  # ties, as real data have
    X[rng.random((n, m)) < 0.05] = np.nan
    y = (X[:, 0] + rng.normal(size=n) > 0).astype(np.int64) + (rng.random(n) < 0.2)
    columns = np.array([0, 2, 3, 4])
    node = rng.permutation(n)[:300]
    presorted = presort_columns(X, node, columns)
    for size in (300, 150, 40, 7, 1):
        rows = rng.permutation(node)[:size]
        got = mdl_cut_points_presorted(presorted, y, 3, rows)
        want = mdl_cut_points_packed(X[np.ix_(rows, columns)], y[rows], 3)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
        assert not presorted.member.any()


@pytest.mark.parametrize("n_classes", [1, 2, 3, 4, 7])
def test_packed_cut_points_equal_numpy(n_classes):
    # the compiled scan writes the loop over classes out for two and three classes; its entropies
    # of whole-number counts are looked up in the k ln k table
    from nbrepro.preprocess.mdl import mdl_cut_points, mdl_cut_points_packed

    rng = np.random.default_rng(n_classes)
    for trial in range(100):
        n, m = int(rng.integers(1, 300)), int(rng.integers(1, 4))
        X = np.round(rng.normal(size=(n, m)) * rng.choice([1, 5, 50]), int(rng.integers(0, 3)))
        X[rng.random((n, m)) < 0.05] = np.nan
        y = np.where(rng.random(n) < 0.6, (np.nan_to_num(X[:, 0]) > 0).astype(int), rng.integers(0, n_classes, n))
        y %= n_classes
        want = [mdl_cut_points(X[:, j], y, n_classes, compiled=False) for j in range(m)]
        flat, counts = mdl_cut_points_packed(X, y, n_classes)
        assert counts.tolist() == [len(c) for c in want], trial
        assert np.array_equal(flat, np.concatenate(want)), trial


@pytest.mark.parametrize("name", ["vehicle", "heart-statlog", "colic"])
def test_nbtree_presorted_cuts_give_the_same_tree(name, monkeypatch):
    from nbrepro.classifiers import NBTree

    # without the node's sorted rows every cut sorts its own
    _nbtree_same_with(name, monkeypatch, NBTree, "_sorted_rows", lambda self, rows, w, parent=None: None)


@pytest.mark.parametrize("name", ["vehicle", "heart-statlog", "sonar"])
def test_nbtree_node_rows_kept_from_the_parents_sort_give_the_same_tree(name, monkeypatch):
    # a node's sorted rows filtered from its parent's against each node sorting its own
    from nbrepro.classifiers import NBTree

    own = NBTree._sorted_rows
    _nbtree_same_with(name, monkeypatch, NBTree, "_sorted_rows", lambda self, rows, w, parent=None: own(self, rows, w))


@pytest.mark.parametrize("name", ["colic", "labor", "hepatitis", "vote", "heart-statlog", "vehicle"])
def test_nbtree_fused_branch_scoring_gives_the_same_tree(name, monkeypatch):
    # each branch scored in one compiled call against the steps one by one: presorted cuts
    # (unit weights), sorted cuts (no presort) and Weka-ordered weighted cuts (missing values
    # shared out: colic, labor, hepatitis, vote), nominal-only data (vote)
    from nbrepro.classifiers import NBTree

    _nbtree_same_with(name, monkeypatch, NBTree, "_branch_errors", _branch_errors_stepwise)
    with monkeypatch.context() as m:  # no presort: every branch's cuts sort their own rows
        m.setattr(NBTree, "_sorted_rows", lambda self, rows, w, parent=None: None)
        _nbtree_same_with(name, monkeypatch, NBTree, "_branch_errors", _branch_errors_stepwise)


@pytest.mark.parametrize("name", ["colic", "hepatitis", "vehicle", "heart-statlog", "credit-a", "vote"])
def test_nbtree_stops_scoring_a_split_that_cannot_be_taken(name, monkeypatch):
    # every branch of every split scored (no best_errors) against stopping once a split's errors
    # reach the best so far or miss the 5% rule: the same tree
    from nbrepro.classifiers import NBTree

    scored = NBTree._evaluate_split
    _nbtree_same_with(name, monkeypatch, NBTree, "_evaluate_split",
                      lambda self, *args: scored(self, *args[:6]))


def _c45_splits_numpy(self, rows, w, sorted_orders):
    """``NBTree._c45_splits`` attribute by attribute with the numpy C4.5 (``TreeBuilder.c45_split``),
    each attribute on the rows in the order Weka's sorts leave it."""
    from nbrepro.classifiers.trees._builder import TreeBuilder
    from nbrepro.classifiers.trees._c45 import seq_sum

    builder = TreeBuilder(self._Z, self._y, self.numeric_, self.n_values_, len(self.classes_), 2, self._Z, 0.25, False)
    total_weight, out, k = seq_sum(w), [], 0
    for a in range(self._Z.shape[1]):
        if self.numeric_[a]:  # its own sorted order
            order, k = sorted_orders[k], k + 1
        else:  # the order the numeric attributes before it left
            order = np.arange(len(rows)) if k == 0 else sorted_orders[k - 1]
        out.append(builder.c45_split(a, rows[order], w[order], self._y[rows[order]], total_weight))
    return out


@pytest.mark.parametrize("name", ["colic", "hepatitis", "vehicle", "labor", "vote", "sick"])
def test_nbtree_compiled_c45_splits_equal_numpy(name, monkeypatch):
    # every node's candidate splits (unit, whole and fractional weights: colic, hepatitis, labor, vote and
    # sick share rows with missing values out), compiled against the numpy C4.5: the same split points
    # and distributions, bit for bit
    from nbrepro.classifiers import NBTree

    compiled, nodes = NBTree._c45_splits, []

    def both(self, rows, w, sorted_orders):
        got, want = compiled(self, rows, w, sorted_orders), _c45_splits_numpy(self, rows, w, sorted_orders)
        for g, e in zip(got, want, strict=True):
            assert (g is None) == (e is None)
            if g is not None:
                assert (g.attribute, g.numeric, g.split_point, g.n_subsets) == (e.attribute, e.numeric, e.split_point,
                                                                                e.n_subsets)
                for field in ("per_class_per_bag", "per_bag", "per_class", "total"):
                    assert np.array_equal(getattr(g.dist, field), getattr(e.dist, field)), field
        nodes.append(len(rows))
        return got

    X, y = _data(name)
    with monkeypatch.context() as m:
        m.setattr(NBTree, "_c45_splits", both)
        NBTree().fit(X, y)
    assert nodes


@pytest.mark.parametrize("better_encoding", [False, True])
def test_compiled_weighted_cut_points_equal_numpy(better_encoding):
    # NBTree's branches carry fractional weights (rows with missing values shared out), and
    # every numeric attribute of every branch is cut: compiled, with numpy's sums in Weka's order
    from nbrepro.preprocess.mdl import mdl_cut_points

    rng = np.random.default_rng(11)
    for trial in range(300):
        n = int(rng.integers(1, 200))
        k = int(rng.integers(2, 5))
        values = np.round(rng.normal(size=n) * rng.choice([1, 5, 50]), int(rng.integers(0, 3)))
        values[rng.random(n) < 0.1] = np.nan
        classes = np.where(rng.random(n) < 0.6, (values > 0).astype(int), rng.integers(0, k, n))
        classes[rng.random(n) < 0.03] = -1
        weights = np.where(rng.random(n) < 0.3, rng.random(n), 1.0) if trial % 3 else None
        order = None if trial % 2 else np.argsort(np.nan_to_num(values, nan=np.inf), kind="stable")[::-1][::-1]
        got = mdl_cut_points(values, classes, k, weights, order, better_encoding=better_encoding)
        want = mdl_cut_points(values, classes, k, weights, order, better_encoding=better_encoding, compiled=False)
        assert np.array_equal(got, want), trial


@pytest.mark.parametrize("weka_order", [True, False])
def test_packed_weighted_cut_points_follow_wekas_sorts(weka_order):
    from nbrepro.preprocess.mdl import mdl_cut_points, mdl_cut_points_weighted, weka_discretize_orders

    rng = np.random.default_rng(5)
    for trial in range(60):
        n, m = int(rng.integers(2, 150)), int(rng.integers(1, 6))
        Z = np.round(rng.normal(size=(n, m)) * 3, 0)  # many ties: the sorts' orders matter
        Z[rng.random((n, m)) < 0.1] = np.nan
        numeric = rng.random(m) < 0.8
        y = np.where(rng.random(n) < 0.7, (np.nan_to_num(Z[:, 0]) > 0).astype(int), rng.integers(0, 3, n))
        w = np.where(rng.random(n) < 0.4, rng.random(n), 1.0) if weka_order else rng.integers(1, 3, n).astype(float)
        columns = np.flatnonzero(numeric)
        orders = weka_discretize_orders(Z, numeric) if weka_order else {}
        want = [mdl_cut_points(Z[:, j], y, 3, w, orders.get(int(j)), compiled=False) for j in columns]
        flat, counts = mdl_cut_points_weighted(Z, y, 3, w, columns, weka_order=weka_order)
        assert counts.tolist() == [len(c) for c in want]
        assert np.array_equal(flat, np.concatenate(want) if want else np.empty(0)), trial


def test_counting_sort_of_ranks_is_a_stable_argsort():
    # ties, -0.0 beside 0.0, missing values (last, in row order), and a bag's repeated rows
    from nbrepro.classifiers.trees._j48 import value_ranks
    from nbrepro.classifiers.trees._j48_kernel import order_by_ranks

    rng = np.random.default_rng(3)
    Z = rng.integers(-3, 4, (300, 4)).astype(float)
    Z[rng.random(Z.shape) < 0.1] = np.nan
    Z[::7, 1] = -0.0
    Z[:, 3] = rng.random(300)
    ranks = value_ranks(Z, np.array([0, 1, 3]))
    bag = rng.integers(0, 300, 400)
    expected = np.argsort(Z[bag][:, [0, 1, 3]], axis=0, kind="stable").T
    assert np.array_equal(order_by_ranks(np.ascontiguousarray(ranks[:, bag])), expected)


def test_split_point_moved_by_bisection_is_wekas_scan():
    # C45Split.setSplitPoint: the largest training value not above the threshold, by Weka's scan with
    # tolerant comparisons; bisected from the sorted values, or NaN where the scan must decide
    # (values within 1e-6 of the top: the first in row order wins; +0 and -0: the first wins)
    from nbrepro.classifiers.trees._j48_kernel import _largest_sorted_value_not_above, _largest_value_not_above

    rng = np.random.default_rng(11)
    bisected = 0
    for trial in range(3000):
        n = int(rng.integers(1, 40))
        v = np.round(rng.normal(size=n), int(rng.integers(0, 3)))
        near = rng.random(n) < 0.2
        v[near] += rng.choice([-1e-6, -4e-7, 3e-7, 1e-6, 2e-6], near.sum())
        if trial % 5 == 0:
            v[rng.random(n) < 0.3] = rng.choice([0.0, -0.0])
        v[rng.random(n) < 0.1] = np.nan
        order = np.argsort(v, kind="stable")
        known = int(np.count_nonzero(~np.isnan(v)))
        points = np.concatenate([v[~np.isnan(v)], v[~np.isnan(v)] + rng.choice([-1e-6, 5e-7, 1e-3, 0.3]), [-9.0]])
        for sp in points:
            want = _largest_value_not_above(v, sp)
            got = _largest_sorted_value_not_above(v, order, known, sp)
            if not np.isnan(got):
                bisected += 1
                assert got == want and np.signbit(got) == np.signbit(want), (trial, sp)
    assert bisected > 20000  # most thresholds are bisected, not scanned


def test_sorts_in_turn_are_the_node_sorts_one_by_one():
    # NBTree sorts a node's rows twice by each numeric attribute in turn (missing values last);
    # one compiled call gives every order the attribute loop sees
    from nbrepro.weka._order_kernel import weka_sorts_in_turn
    from nbrepro.weka.estimators import weka_quicksort

    rng = np.random.default_rng(4)
    Z = rng.integers(0, 6, size=(300, 5)).astype(float)  # many ties: the unstable order shows
    Z[rng.random(Z.shape) < 0.1] = np.nan
    rows = rng.permutation(300)[:170]
    columns = np.array([0, 2, 3])
    got = weka_sorts_in_turn(Z, rows, columns, 2)
    pos = np.arange(len(rows))
    for k, j in enumerate(columns):
        for _ in range(2):
            x = Z[rows[pos], j]
            pos = pos[weka_quicksort(np.where(np.isnan(x), np.finfo(np.float64).max, x))]
        assert np.array_equal(got[k], pos)


@pytest.mark.parametrize("name", ["splice", "colic", "vehicle", "hypothyroid"])
@pytest.mark.parametrize("percent", [50, 100])
def test_depths_read_off_the_flat_tree_are_the_nodes_depths(name, percent):
    # AWNB asks its bags' trees for their test depths only; they are read off the compiled
    # tree's arrays instead of its nodes
    X, y = _data(name)
    make = lambda: Bagging(J48(unpruned=True), n_estimators=5, bag_size_percent=percent)  # noqa: E731
    full = make().fit(X, y)
    flat = make()._fit(X, y, depths_only=True)
    assert not hasattr(flat.estimators_[0], "tree_")
    for a, b in zip(full.estimators_, flat.estimators_, strict=True):
        assert np.array_equal(a.min_test_depth_, b.min_test_depth_)
        assert np.array_equal(a.min_test_depth_, j48_module._min_test_depths(a.tree_, X.shape[1]))


@pytest.mark.parametrize(
    "name", ["splice", "colic", "hepatitis", "vote", "credit-a", "sick", "anneal", "waveform-5000"]
)
@pytest.mark.parametrize("laplace", [False, True])
def test_unpruned_trees_predict_from_their_arrays_as_from_their_nodes(name, laplace, monkeypatch):
    # an unpruned J48 keeps the kernel's arrays and predicts from them (missing values shared
    # over branches, empty branches); the reference builds the nodes and walks them
    X, y = _data(name)
    flat = J48(unpruned=True, laplace=laplace).fit(X, y)
    assert "flat_tree_" in flat.__dict__ and "tree_" not in flat.__dict__
    with monkeypatch.context() as m:
        m.setattr(J48, "_grow_arrays", _grow_nodes_instead)
        nodes = J48(unpruned=True, laplace=laplace).fit(X, y)
    assert "flat_tree_" not in nodes.__dict__
    assert np.array_equal(flat.predict_proba(X), nodes.predict_proba(X))
    holes = X.copy()
    holes.iloc[::3, ::2] = np.nan  # missing values at every depth
    assert np.array_equal(flat.predict_proba(holes), nodes.predict_proba(holes))
    assert np.array_equal(flat.min_test_depth_, nodes.min_test_depth_)
    assert flat.export_text() == nodes.export_text()
