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
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Tree:
    left: tuple[int, ...]
    right: tuple[int, ...]
    feature: tuple[int, ...]
    threshold: tuple[float, ...]
    value: tuple[tuple[float, ...], ...]

    def leaf(self, x: list[float]) -> tuple[float, ...]:
        node = 0
        left, right, feature, threshold = self.left, self.right, self.feature, self.threshold
        while left[node] != -1:
            node = left[node] if x[feature[node]] <= threshold[node] else right[node]
        return self.value[node]


@dataclass(frozen=True, slots=True)
class Model:
    features: tuple[str, ...]
    classes: tuple[str, ...]
    trees: tuple[Tree, ...]

    def proba(self, x: list[float]) -> list[float]:
        if len(self.trees) == 1:
            return list(self.trees[0].leaf(x))
        sums = [0.0] * len(self.classes)
        for t in self.trees:
            for i, p in enumerate(t.leaf(x)):
                sums[i] += p
        return [s / len(self.trees) for s in sums]

    def predict(self, x: list[float]) -> tuple[str, float]:
        p = self.proba(x)
        best = max(range(len(p)), key=p.__getitem__)
        return self.classes[best], p[best]


def model_from_dict(data: dict, expected_features: tuple[str, ...] | None = None) -> Model:
    features = tuple(data["features"])
    if expected_features is not None and features != tuple(expected_features):
        raise ValueError("model features do not match the code's features: retrain with `kitten train tables`")
    trees = tuple(Tree(tuple(t["left"]), tuple(t["right"]), tuple(t["feature"]), tuple(t["threshold"]),
                       tuple(tuple(v) for v in t["value"])) for t in data["trees"])
    return Model(features, tuple(data["classes"]), trees)


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
