"""Decision trees (and forests of them) loaded from portable JSON files, without scikit-learn.

File format (written by ``kitten train tables``, ``kitten/train/trees.py``)::

    {"kind": "tree" | "forest", "features": [names...], "classes": [labels...],
     "shares": [[class shares], ...],
     "trees": [{"left": [...], "right": [...], "feature": [...], "threshold": [...],
                "leaves": [index in "shares" of each leaf's class shares, leaves in node order]},
               ...],
     "trained_on": {...}, "cross_validation": {...}}

``shares`` holds each distinct vector of class shares once (in the order of first use,
tree by tree, node by node; a fully grown forest's 60,000 leaves have a few dozen), and a
tree names its leaves' vectors by index: the file parses in a fifth of the time of one
list per node. The earlier format, a ``"value"`` list per node (the class shares at a
leaf, ``[]`` at an inner node) and no ``shares``, is read too.

A cell model may be ``{"kind": "stacked", "stage1": <model>, "stage2": <model>}``: the
second model sees the first one's probabilities for the cell and its neighbours
(``kitten/tables/features.py``, ``CONTEXT_FEATURES``).

A leaf has ``left == -1``. A sample goes left when ``x[feature] <= threshold``. The
probability of each class is the leaf's class shares, averaged over the trees.

``Model.proba_many`` evaluates the trees in C (``kitten/tables/_forest.c``, built at
install like the normalizer's writer) when the extension is there, the same numbers as
the Python ``Model.proba``, operation for operation (``tests/test_tables.py`` checks it);
a big table's cells cost microseconds each, not the tens of the Python loop.
"""
from __future__ import annotations

import json
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate
from pathlib import Path

try:
    from kitten.tables import _forest
except ImportError:  # not built (no C compiler at install): the Python loop does it
    _forest = None


class Tree:
    """One tree's node arrays, as typed arrays (``array``): a model of 120,000 nodes is a
    few flat buffers, not 120,000 lists that every full garbage collection of the process
    would visit (90 ms each, 7% of a batch with the gate)."""

    __slots__ = ("left", "right", "feature", "threshold", "leaves", "shares", "n_classes", "_ordinal")

    def __init__(self, left: array, right: array, feature: array, threshold: array, leaves: array,
                 shares: array, n_classes: int):
        self.left, self.right, self.feature, self.threshold = left, right, feature, threshold  # "i", "i", "i", "d"
        self.leaves = leaves  # "i": the index in ``shares`` of each leaf's class shares, leaves in node order
        self.shares = shares  # "d": the model's distinct class-share vectors end to end, n_classes each
        self.n_classes = n_classes
        self._ordinal: array | None = None  # each node's rank among the leaves (made when first needed)

    def leaf(self, x: list[float]) -> Sequence[float]:
        node = 0
        left, right, feature, threshold = self.left, self.right, self.feature, self.threshold
        while left[node] != -1:
            node = left[node] if x[feature[node]] <= threshold[node] else right[node]
        if self._ordinal is None:  # the Python evaluator only: the C one counts the leaves itself
            self._ordinal = array("i", accumulate((n == -1 for n in left), initial=0))
        k = self.n_classes
        share = self.leaves[self._ordinal[node]]
        return self.shares[share * k:(share + 1) * k]


def tree_from_dict(t: dict, n_classes: int, shares: array, known: dict | None = None) -> Tree:
    """A tree of the model file: its lists as typed arrays. ``shares``: the model's table of
    class-share vectors (``"shares"``); a tree of the earlier format (a ``"value"`` list per
    node) adds its leaves' vectors to it, ``known`` mapping those already in it to their
    index."""
    if "leaves" in t:
        leaves = array("i", t["leaves"])
    else:
        known = {} if known is None else known
        leaves = array("i")
        for v, left in zip(t["value"], t["left"]):
            if left != -1:  # an inner node's shares (``[]``) are never read
                continue
            if len(v) != n_classes:
                raise ValueError("a leaf's class shares do not match the model's classes")
            key = tuple(float(x) for x in v)
            index = known.get(key)
            if index is None:
                index = known[key] = len(shares) // n_classes
                shares.extend(key)
            leaves.append(index)
    left = array("i", t["left"])
    if len(leaves) != left.count(-1) or (leaves and not 0 <= min(leaves) <= max(leaves) < len(shares) // n_classes):
        raise ValueError("a tree's leaves do not match the model's class shares")
    return Tree(left, array("i", t["right"]), array("i", t["feature"]), array("d", t["threshold"]), leaves,
                shares, n_classes)


@dataclass(frozen=True, slots=True)
class Model:
    features: tuple[str, ...]
    classes: tuple[str, ...]
    trees: tuple[Tree, ...]
    #: the trees laid out for the C evaluator (None: not built, the Python loop is used)
    packed: object = field(default=None, repr=False, compare=False)

    def proba_many(self, xs: list[list[float]]) -> list[list[float]]:
        """Class probabilities of each feature vector of ``xs`` (in C when it is built)."""
        if self.packed is not None and xs:
            return _forest.proba(self.packed, xs)
        return [self.python_proba(x) for x in xs]

    def proba(self, x: list[float]) -> list[float]:
        """Class probabilities of one feature vector."""
        return self.proba_many([x])[0]

    def python_proba(self, x: list[float]) -> list[float]:
        """``proba`` in Python: the reference the C evaluator matches."""
        if len(self.trees) == 1:
            return [float(p) for p in self.trees[0].leaf(x)]
        sums = [0.0] * len(self.classes)
        for t in self.trees:
            for i, p in enumerate(t.leaf(x)):
                sums[i] += p
        return [s / len(self.trees) for s in sums]

    def predict(self, x: list[float]) -> tuple[str, float]:
        return self.predict_many([x])[0]

    def predict_many(self, xs: list[list[float]]) -> list[tuple[str, float]]:
        """The most probable class of each feature vector, with its probability (in C when
        it is built: no list of probabilities per vector)."""
        classes = self.classes
        if self.packed is not None and xs:
            return [(classes[i], p) for i, p in _forest.predict(self.packed, xs)]
        out = []
        for p in self.proba_many(xs):
            top = max(p)
            out.append((classes[p.index(top)], top))  # the first class of the highest probability
        return out

    def predict_columns(self, n: int, columns: Sequence) -> list[tuple[str, float]]:
        """``predict_many`` of the ``n`` vectors that ``columns`` gives feature by feature
        (:func:`expand_columns`): in C without a list per vector when it is built."""
        if self.packed is not None and n:
            classes = self.classes
            return [(classes[i], p) for i, p in _forest.predict_columns(self.packed, n, columns)]
        return self.predict_many(expand_columns(n, columns))

    def label_columns(self, n: int, columns: Sequence) -> list[str]:
        """The classes of :meth:`predict_columns` alone: in C, a vector's trees are walked
        only until its class is settled (the trees left could not change which class
        is first), half of them for a cell all trees agree on."""
        if self.packed is not None and n:
            classes = self.classes
            return [classes[i] for i in _forest.predict_columns(self.packed, n, columns, True)]
        return [label for label, _ in self.predict_many(expand_columns(n, columns))]


def expand_columns(n: int, columns: Sequence) -> list[list[float]]:
    """The ``n`` feature vectors given feature by feature (``_forest.predict_columns``
    reads them in C): each item of ``columns`` is a number (the same in every vector), an
    ``array("d")`` of ``n`` values, ``(values, index)`` (vector r's value is
    ``values[index[r]]``: a value of the cell's row, column or text) or ``(values, index,
    index2, stride)`` (``values[index[r] * stride + index2[r]]``); values are float."""
    out: list[list] = []
    for c in columns:
        if isinstance(c, (int, float)):
            out.append([float(c)] * n)
        elif isinstance(c, tuple) and len(c) == 2:
            out.append(list(map(c[0].__getitem__, c[1])))
        elif isinstance(c, tuple):
            values, index, index2, stride = c
            out.append([values[i * stride + j] for i, j in zip(index, index2)])
        else:
            out.append(list(c))
    return [list(x) for x in zip(*out)] if out else [[] for _ in range(n)]


def model_from_dict(data: dict, expected_features: tuple[str, ...] | None = None) -> Model:
    features = tuple(data["features"])
    if expected_features is not None and tuple(expected_features)[:len(features)] != features:
        # the code may add features after the model's (they are the last of each vector,
        # which the model's trees never read): any other difference needs a new model
        raise ValueError("model features do not match the code's features: retrain with `kitten train tables`")
    classes = tuple(data["classes"])
    k = len(classes)
    shares = array("d")
    for v in data.get("shares", ()):
        if len(v) != k:
            raise ValueError("a leaf's class shares do not match the model's classes")
        shares.extend(v)
    known: dict = {}  # the earlier format's vectors, each added to ``shares`` once
    trees = tuple(tree_from_dict(t, k, shares, known) for t in data["trees"])
    return Model(features, classes, trees, _pack(trees, k, shares))


def _pack(trees: tuple[Tree, ...], n_classes: int, shares: array) -> object:
    """The trees end to end for ``_forest.proba`` (None without the extension): each tree's
    arrays as they are (child indexes counted from the tree's first node), the leaves'
    indexes in ``shares``."""
    if _forest is None or not trees:
        return None
    # typed arrays, which _forest.pack copies as they are (no Python number per node)
    left, right, feature, threshold, leaves, starts = (array("i"), array("i"), array("i"), array("d"),
                                                       array("i"), array("i"))
    for t in trees:
        starts.append(len(left))
        left.extend(t.left)
        right.extend(t.right)
        feature.extend(t.feature)
        threshold.extend(t.threshold)
        leaves.extend(t.leaves)
    return _forest.pack(left, right, feature, threshold, shares, starts, n_classes, leaves)


@dataclass(frozen=True, slots=True)
class Stacked:
    stage1: Model
    stage2: Model

    @property
    def classes(self) -> tuple[str, ...]:
        return self.stage2.classes


@lru_cache(maxsize=8)
def load_model(path: str, expected_features: tuple[str, ...] | None = None,
               context_features: tuple[str, ...] | None = None) -> Model | Stacked:
    with open(Path(path), encoding="utf-8") as fh:
        data = json.load(fh)
    if data.get("kind") == "stacked":
        stage1 = model_from_dict(data["stage1"], expected_features)
        # the second stage reads the first's features, then the context features
        expected2 = None if expected_features is None else stage1.features + tuple(context_features or ())
        return Stacked(stage1, model_from_dict(data["stage2"], expected2))
    return model_from_dict(data, expected_features)
