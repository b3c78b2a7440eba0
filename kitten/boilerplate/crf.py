"""The CRF behind the boilerplate step: python-crfsuite (CRFsuite's linear-chain CRF).

The model is CRFsuite's own model file (``classifiers/boilerplate.crfsuite``: a portable
binary any CRFsuite binding reads; ``crfsuite dump`` prints its weights) with a JSON
file beside it (``boilerplate.json``): the feature settings it was trained with, its
labels and the cross-validation figures printed when it was trained.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kitten.boilerplate.features import FeatureSettings
from kitten.resources import classifiers_dir

MODEL_NAME = "boilerplate.crfsuite"
MISSING = ("the boilerplate step (--boilerplate crf) needs python-crfsuite: "
           "pip install 'kitten[crf]' (or pip install python-crfsuite)")


class CrfUnavailable(RuntimeError):
    """python-crfsuite is not installed, or the model file is missing."""


def crfsuite():
    """The ``pycrfsuite`` module, or :class:`CrfUnavailable` with what to install."""
    try:
        import pycrfsuite
    except ImportError as exc:
        raise CrfUnavailable(MISSING) from exc
    return pycrfsuite


def model_path(configured: str = "", classifiers: str = "") -> Path:
    return Path(configured) if configured else classifiers_dir(classifiers) / MODEL_NAME


def settings_path(model: Path) -> Path:
    return model.with_suffix(".json")


class Scorer:
    """The model's weights in Python dicts, and Viterbi over them: the labels CRFsuite's
    tagger gives for the lists :func:`~kitten.boilerplate.features.block_features`
    builds (what the model was trained on: a repeated feature counts each time),
    without building them. Each feature name has one row: its own weights, then its
    weights as a neighbour's feature (``-1:name``, ``+1:name``; none for the page-wide
    features, which the neighbours never see), so a block's own list is looked up once.
    Weights as ``Tagger.info()`` reads them (6 decimals): near-ties could differ from
    CRFsuite's own tagger (the tests compare the two)."""

    def __init__(self, info, window: tuple[int, ...]) -> None:
        labels = sorted(info.labels, key=lambda k: int(info.labels[k]))
        self.labels = labels
        self.window = window
        pos = {lab: k for k, lab in enumerate(labels)}
        n = len(labels)
        weights: dict[str, list[float]] = {}
        for (attr, lab), w in info.state_features.items():
            weights.setdefault(attr, [0.0] * n)[pos[lab]] = w
        prefixes = {d: f"{d:+d}:" for d in window}
        self.own: dict[str, tuple[float, ...]] = {}
        self.near: dict[int, dict[str, tuple[float, ...]]] = {d: {} for d in window}
        for attr, w in weights.items():
            for d, p in prefixes.items():
                if attr.startswith(p):
                    self.near[d][attr[len(p):]] = tuple(w)
                    break
            else:
                self.own[attr] = tuple(w)
        zero = (0.0,) * n
        self.ends = {d: self.near[d].get("BOS" if d < 0 else "EOS", zero) for d in window}
        self.bias = self.own.get("bias", zero)
        self.trans = [[0.0] * n for _ in range(n)]
        for (a, b), w in info.transitions.items():
            self.trans[pos[a]][pos[b]] = w
        # one row per feature name: its own weights, then its weights as seen from each offset
        self.rows: dict[str, tuple[float, ...]] = {}
        for x in set(self.own).union(*(self.near[d] for d in window)):
            row = self.own.get(x, zero)
            for d in window:
                row += self.near[d].get(x, zero)
            self.rows[x] = row

    def tag(self, own: list[list[str]]) -> list[str]:
        """Labels of the blocks whose own features (no neighbours) are ``own``."""
        m = len(own)
        if not m:
            return []
        n = len(self.labels)
        get = self.rows.get
        width = n * (1 + len(self.window))
        zero = (0.0,) * width
        sums = []
        for feats in own:
            rows = [r for r in map(get, feats) if r is not None]
            sums.append([sum(c) for c in zip(*rows)] if rows else list(zero))
        bias = self.bias
        unary = [[s[k] + bias[k] for k in range(n)] for s in sums]
        for w, d in enumerate(self.window, 1):
            end, off = self.ends[d], w * n
            for i in range(m):
                j = i + d
                add = sums[j][off:off + n] if 0 <= j < m else end
                u = unary[i]
                for k in range(n):
                    u[k] += add[k]
        trans = self.trans
        score = unary[0]
        back: list[list[int]] = []
        for i in range(1, m):
            new, arg = [], []
            for k in range(n):
                best, bk = None, 0
                for a in range(n):
                    v = score[a] + trans[a][k]
                    if best is None or v > best:
                        best, bk = v, a
                new.append(best + unary[i][k])
                arg.append(bk)
            score = new
            back.append(arg)
        k = max(range(n), key=score.__getitem__)
        path = [k]
        for arg in reversed(back):
            k = arg[k]
            path.append(k)
        path.reverse()
        return [self.labels[k] for k in path]


@dataclass
class Model:
    tagger: object
    settings: FeatureSettings
    path: Path
    scorer: Scorer | None = None

    def tag(self, features: list[list[str]]) -> list[str]:
        """CRFsuite's tagger on full items (neighbour features included)."""
        return list(self.tagger.tag(features)) if features else []  # type: ignore[attr-defined]

    def content_probabilities(self, items: list) -> list[tuple[float, str]]:
        """For each item: the marginal probability that it is not ``other``, and its
        likeliest label other than ``other`` (CRFsuite's forward-backward)."""
        t = self.tagger
        t.set(items)  # type: ignore[attr-defined]
        labels = [lab for lab in t.labels() if lab != "other"]  # type: ignore[attr-defined]
        out = []
        for i in range(len(items)):
            m = {lab: t.marginal(lab, i) for lab in labels}  # type: ignore[attr-defined]
            out.append((sum(m.values()), max(labels, key=m.__getitem__)))
        return out

    def tag_own(self, own: list[list[str]]) -> list[str]:
        """The same labels from the blocks' own features (:class:`Scorer`, faster)."""
        if self.scorer is None:
            self.scorer = Scorer(self.tagger.info(), self.settings.window)  # type: ignore[attr-defined]
        return self.scorer.tag(own)


@lru_cache(maxsize=4)
def load_model(path: str) -> Model:
    """The tagger and its feature settings (once per process)."""
    pycrfsuite = crfsuite()
    p = Path(path)
    if not p.is_file():
        raise CrfUnavailable(f"no boilerplate model at {p}: run kitten train boilerplate")
    tagger = pycrfsuite.Tagger()
    tagger.open(str(p))
    meta = settings_path(p)
    settings = FeatureSettings.from_dict(json.loads(meta.read_text(encoding="utf-8"))["features"]) \
        if meta.is_file() else FeatureSettings()
    return Model(tagger, settings, p)


def check_available(configured: str = "", classifiers: str = "") -> None:
    """Raise :class:`CrfUnavailable` now rather than on every page."""
    load_model(str(model_path(configured, classifiers)))
