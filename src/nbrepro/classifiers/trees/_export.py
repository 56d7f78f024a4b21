# SPDX-License-Identifier: GPL-3.0-or-later
"""A J48 tree as Weka 3.6's ``J48.toString()`` prints it: the tests indented by depth, each leaf's
class with its training weight (and misclassified weight), Weka's number formats."""
from __future__ import annotations

from ...weka import utils as wu
from ._c45 import Distribution, Node


def weka_tree_text(root: Node, unpruned: bool, feature_names, categories, classes) -> str:
    """The whole printout: header, tree, and the counts of leaves and nodes."""
    head = "J48 unpruned tree\n------------------\n" if unpruned else "J48 pruned tree\n------------------\n"
    if root.is_leaf:
        body = ": " + _label(root.dist, 0, classes)
    else:
        lines = []
        _dump(root, 0, lines, feature_names, categories, classes)
        body = "".join(lines)
    n_leaves, n_nodes = _count(root)
    return f"{head}{body}\n\nNumber of Leaves  : \t{n_leaves}\n\nSize of the tree : \t{n_nodes}\n"


def _dump(node: Node, depth: int, lines: list, feature_names, categories, classes) -> None:
    split = node.split
    name = str(feature_names[split.attribute]) if feature_names is not None else f"x{split.attribute}"
    for b, son in enumerate(node.sons):
        lines.append("\n" + "|   " * depth + name)
        if split.numeric:
            lines.append((" <= " if b == 0 else " > ") + wu.double_to_string(split.split_point, 6))
        else:
            lines.append(" = " + str(categories[split.attribute][b]))
        if son.is_leaf:
            lines.append(": " + _label(split.dist, b, classes))
        else:
            _dump(son, depth + 1, lines, feature_names, categories, classes)


def _label(d: Distribution, bag: int, classes) -> str:
    text = f"{classes[d.max_class(bag)]} ({wu.java_double(wu.round_double(d.per_bag[bag], 2))}"
    wrong = d.num_incorrect(bag)
    if wu.gr(wrong, 0.0):
        text += "/" + wu.java_double(wu.round_double(wrong, 2))
    return text + ")"


def _count(node: Node) -> tuple[int, int]:
    if node.is_leaf:
        return 1, 1
    leaves, nodes = 0, 1
    for son in node.sons:
        son_leaves, son_nodes = _count(son)
        leaves += son_leaves
        nodes += son_nodes
    return leaves, nodes

