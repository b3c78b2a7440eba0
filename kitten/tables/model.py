"""Decision trees (and forests of them) loaded from portable JSON files, without scikit-learn.

File format (written by ``kitten train tables``, ``kitten/train/trees.py``)::

    {"kind": "tree" | "forest", "features": [names...], "classes": [labels...],
     "trees": [{"left": [...], "right": [...], "feature": [...], "threshold": [...],
                "value": [[class shares at a leaf], [] at an inner node, ...]}, ...],
     "trained_on": {...}, "cross_validation": {...}}

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
from pathlib import Path

try:
    from kitten.tables import _forest
except ImportError:  # not built (no C compiler at install): the Python loop does it
    _forest = None


@dataclass(frozen=True, slots=True)
class Tree:
    """One tree's node arrays, as typed arrays (``array``): a model of 120,000 nodes is a
    few flat buffers, not 120,000 lists that every full garbage collection of the process
    would visit (90 ms each, 7% of a batch with the gate)."""

    left: array  # "i"
    right: array  # "i"
    feature: array  # "i"
    threshold: array  # "d"
    value: array  # "d": node n's class shares at [n * k, (n + 1) * k), zeros at inner nodes
    n_classes: int

    def leaf(self, x: list[float]) -> Sequence[float]:
        node = 0
        left, right, feature, threshold = self.left, self.right, self.feature, self.threshold
        while left[node] != -1:
            node = left[node] if x[feature[node]] <= threshold[node] else right[node]
        k = self.n_classes
        return self.value[node * k:(node + 1) * k]


def tree_from_dict(t: dict, n_classes: int) -> Tree:
    """A tree of the model file: its lists as typed arrays, its leaves' class shares end
    to end (an inner node's empty list as zeros)."""
    zeros = [0.0] * n_classes
    values = array("d")  # filled in place: no list of every share on the way
    for v in t["value"]:
        if len(v) not in (0, n_classes):
            raise ValueError("a leaf's class shares do not match the model's classes")
        values.extend(v if v else zeros)
    return Tree(array("i", t["left"]), array("i", t["right"]), array("i", t["feature"]),
                array("d", t["threshold"]), values, n_classes)


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


def model_from_dict(data: dict, expected_features: tuple[str, ...] | None = None) -> Model:
    features = tuple(data["features"])
    if expected_features is not None and features != tuple(expected_features):
        raise ValueError("model features do not match the code's features: retrain with `kitten train tables`")
    classes = tuple(data["classes"])
    trees = tuple(tree_from_dict(t, len(classes)) for t in data["trees"])
    return Model(features, classes, trees, _pack(trees, len(classes)))


def _pack(trees: tuple[Tree, ...], n_classes: int) -> object:
    """The trees end to end for ``_forest.proba`` (None without the extension)."""
    if _forest is None or not trees:
        return None
    # typed arrays, which _forest.pack copies as they are (no Python number per node)
    left, right, feature, threshold, values, roots = (array("i"), array("i"), array("i"), array("d"),
                                                      array("d"), array("i"))
    for t in trees:
        base = len(left)
        roots.append(base)
        left.extend(-1 if n == -1 else n + base for n in t.left)
        right.extend(-1 if n == -1 else n + base for n in t.right)
        feature.extend(max(f, 0) for f in t.feature)
        threshold.extend(t.threshold)
        values.extend(t.value)
    return _forest.pack(left, right, feature, threshold, values, roots, n_classes)


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
        expected2 = None if expected_features is None else tuple(expected_features) + tuple(context_features or ())
        return Stacked(model_from_dict(data["stage1"], expected_features), model_from_dict(data["stage2"], expected2))
    return model_from_dict(data, expected_features)
