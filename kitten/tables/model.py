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

``load_model`` reads a file's trees from a binary cache of their arrays in the user's
cache folder when one was made from the same bytes (``_read_cache``: 0.2 s -> 0.04 s for
``cells.json``); the JSON files stay the models, the cache is never shipped.

``Model.proba_many`` evaluates the trees in C (``kitten/tables/_forest.c``, built at
install like the normalizer's writer) when the extension is there, the same numbers as
the Python ``Model.proba``, operation for operation (``tests/test_tables.py`` checks it);
a big table's cells cost microseconds each, not the tens of the Python loop.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import zlib
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
    ``array("d")`` or a list of ``n`` values, ``(values, index)`` (vector r's value is
    ``values[index[r]]``: a value of the cell's row, column or text) or ``(values, index,
    index2, stride)`` (``values[index[r] * stride + index2[r]]``); values are numbers
    (``array("d")`` or a list), indexes ints (``array("i")`` or a list)."""
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


def _check_features(features: tuple[str, ...], expected_features: tuple[str, ...] | None) -> None:
    if expected_features is not None and tuple(expected_features)[:len(features)] != features:
        # the code may add features after the model's (they are the last of each vector,
        # which the model's trees never read): any other difference needs a new model
        raise ValueError("model features do not match the code's features: retrain with `kitten train tables`")


def model_from_dict(data: dict, expected_features: tuple[str, ...] | None = None) -> Model:
    features = tuple(data["features"])
    _check_features(features, expected_features)
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
    return _pack_end_to_end(_end_to_end(trees), n_classes, shares)


def _pack_end_to_end(arrays: tuple[array, ...], n_classes: int, shares: array) -> object:
    """:func:`_pack` of trees already end to end (:func:`_end_to_end`'s arrays: typed
    arrays, which _forest.pack copies as they are, no Python number per node)."""
    if _forest is None or not arrays[5]:
        return None
    left, right, feature, threshold, leaves, starts = arrays
    return _forest.pack(left, right, feature, threshold, shares, starts, n_classes, leaves)


def _end_to_end(trees: tuple[Tree, ...]) -> tuple[array, ...]:
    """The trees' arrays end to end (child indexes counted from each tree's first node):
    left, right, feature, threshold, leaves, and each tree's first node."""
    left, right, feature, threshold, leaves, starts = (array("i"), array("i"), array("i"), array("d"),
                                                       array("i"), array("i"))
    for t in trees:
        starts.append(len(left))
        left.extend(t.left)
        right.extend(t.right)
        feature.extend(t.feature)
        threshold.extend(t.threshold)
        leaves.extend(t.leaves)
    return left, right, feature, threshold, leaves, starts


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
    """The model of the JSON file ``path``, read from its binary cache (``_cached``) when
    one was made from the same bytes: the same arrays, the same checks of the features."""
    raw = Path(path).read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    stages = _read_cache(Path(path).stem, digest)
    if stages is None:
        data = json.loads(raw)
        stages = [model_from_dict(d) for d in ((data["stage1"], data["stage2"]) if data.get("kind") == "stacked"
                                               else (data,))]
        _write_cache(Path(path).stem, digest, stages)
    _check_features(stages[0].features, expected_features)
    if len(stages) == 2:
        # the second stage reads the first's features, then the context features
        expected2 = None if expected_features is None else stages[0].features + tuple(context_features or ())
        _check_features(stages[1].features, expected2)
        return Stacked(stages[0], stages[1])
    return stages[0]


# ---- the binary cache of the model files ---------------------------------------------------
#
# A model file of 3 MB takes ~0.2 s to parse (JSON numbers, then lists to typed arrays): a
# big table's page in a new process paid it every time. The cache holds the same arrays as
# they are in memory, written when a file is first read, in the user's cache folder
# (``$XDG_CACHE_HOME/kitten/models``, by default ``~/.cache/kitten/models``); never in the
# checkout, never shipped: the JSON files stay the models. A cache file is named by the
# SHA-256 of the JSON file's bytes (another model, retrained or edited, is another name),
# the cache layout's version and the machine's byte order and int size; its content
# carries a CRC-32 of the arrays, checked when read. A file that is missing, unreadable,
# of another layout, truncated or damaged is ignored (the JSON is parsed, the cache
# written again); a folder that cannot be written leaves the JSON parsed every time.

_CACHE_LAYOUT = 1
_MAGIC = b"kitten-model-cache\n"


def _cache_path(stem: str, digest: str) -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    machine = f"{sys.byteorder[0]}{array('i').itemsize}{array('d').itemsize}"
    return Path(base) / "kitten" / "models" / f"{stem}-{digest[:40]}-v{_CACHE_LAYOUT}{machine}.bin"


def _stage_arrays(m: Model) -> list[array]:
    """The model's trees end to end (:func:`_end_to_end`) and its class shares."""
    return [*_end_to_end(m.trees), m.trees[0].shares if m.trees else array("d")]


def _write_cache(stem: str, digest: str, stages: list[Model]) -> None:
    import tempfile  # (only when a cache is written)

    header, blobs = [], []
    for m in stages:
        arrays = _stage_arrays(m)
        header.append({"features": m.features, "classes": m.classes, "lengths": [len(a) for a in arrays]})
        blobs += [a.tobytes() for a in arrays]
    payload = b"".join(blobs)
    head = json.dumps({"stages": header, "crc32": zlib.crc32(payload)}).encode() + b"\n"
    path = _cache_path(stem, digest)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(_MAGIC + head + payload)
            os.replace(tmp, path)  # whole or not at all, also with workers writing it at once
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass  # a folder that cannot be written: the JSON is parsed next time too


def _read_cache(stem: str, digest: str) -> list[Model] | None:
    try:
        data = _cache_path(stem, digest).read_bytes()
    except OSError:
        return None
    try:
        if not data.startswith(_MAGIC):
            return None
        end = data.index(b"\n", len(_MAGIC)) + 1
        head = json.loads(data[len(_MAGIC):end])
        payload = memoryview(data)[end:]
        if zlib.crc32(payload) != head["crc32"]:
            return None
        stages, at = [], 0
        for stage in head["stages"]:
            arrays = []
            for code, n in zip("iiidiid", stage["lengths"]):
                a = array(code)
                size = n * a.itemsize
                a.frombytes(payload[at:at + size])
                if len(a) != n:
                    return None
                arrays.append(a)
                at += size
            stages.append(_from_arrays(tuple(stage["features"]), tuple(stage["classes"]), *arrays))
        return stages if at == len(payload) and stages else None
    except (ValueError, KeyError, TypeError, IndexError):
        return None


def _from_arrays(features: tuple[str, ...], classes: tuple[str, ...], left: array, right: array, feature: array,
                 threshold: array, leaves: array, starts: array, shares: array) -> Model:
    """The model of the cached arrays (:func:`_stage_arrays`), its trees checked as a
    model file's (:func:`tree_from_dict`)."""
    k = len(classes)
    if k == 0 or len(shares) % k or not len(left) == len(right) == len(feature) == len(threshold):
        raise ValueError("the cached arrays do not agree")
    trees, leaf = [], 0
    ends = [*starts[1:], len(left)]
    for start, end in zip(starts, ends):
        t_left = left[start:end]
        n_leaves = t_left.count(-1)
        t = {"left": t_left, "right": right[start:end], "feature": feature[start:end],
             "threshold": threshold[start:end], "leaves": leaves[leaf:leaf + n_leaves]}
        leaf += n_leaves
        trees.append(tree_from_dict(t, k, shares))
    if leaf != len(leaves):
        raise ValueError("the cached arrays do not agree")
    return Model(features, classes, tuple(trees),
                 _pack_end_to_end((left, right, feature, threshold, leaves, starts), k, shares))
