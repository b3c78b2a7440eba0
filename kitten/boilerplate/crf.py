"""The CRF behind the boilerplate step: python-crfsuite (CRFsuite's linear-chain CRF).

The model is CRFsuite's own model file (``classifiers/boilerplate.crfsuite``: a portable
binary any CRFsuite binding reads; ``crfsuite dump`` prints its weights) with a JSON
file beside it (``boilerplate.json``): the feature settings it was trained with, its
labels and the cross-validation figures printed when it was trained.
"""
from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat
from pathlib import Path

from kitten.boilerplate.features import FeatureSettings
from kitten.resources import classifiers_dir

MODEL_NAME = "boilerplate.crfsuite"
MISSING = ("the boilerplate step (--boilerplate crf) needs python-crfsuite and numpy: "
           "pip install 'kitten[crf]' (or pip install python-crfsuite numpy)")


class CrfUnavailable(RuntimeError):
    """python-crfsuite is not installed, or the model file is missing."""


def _required(name: str):
    """The module ``name`` of the ``crf`` extra, or :class:`CrfUnavailable` with what to install."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise CrfUnavailable(MISSING) from exc


def crfsuite():
    """The ``pycrfsuite`` module (CRFsuite: training, marginals)."""
    return _required("pycrfsuite")


def numpy():
    """The ``numpy`` module (the scorer's vectorized sums)."""
    return _required("numpy")


def model_path(configured: str = "", classifiers: str = "") -> Path:
    return Path(configured) if configured else classifiers_dir(classifiers) / MODEL_NAME


def settings_path(model: Path) -> Path:
    return model.with_suffix(".json")


class Scorer:
    """The model's weights as one matrix, and Viterbi over them: the labels CRFsuite's
    tagger gives for the lists :func:`~kitten.boilerplate.features.block_features`
    builds (what the model was trained on: a repeated feature counts each time),
    without building them. Each feature name has one row: its own weights, then its
    weights as a neighbour's feature (``-1:name``, ``+1:name``; none for the page-wide
    features, which the neighbours never see), so a block's own list is looked up once
    and a page's blocks are summed in one vectorized call (numpy). Weights as
    ``Tagger.info()`` reads them (6 decimals): near-ties could differ from CRFsuite's
    own tagger (the tests compare the two)."""

    def __init__(self, info, window: tuple[int, ...]) -> None:
        np = numpy()
        labels = sorted(info.labels, key=lambda k: int(info.labels[k]))
        self.labels = labels
        self.window = window
        pos = {lab: k for k, lab in enumerate(labels)}
        n = len(labels)
        prefixes = {f"{d:+d}:": w for w, d in enumerate(window, 1)}
        # row 0: unknown features (zeros); columns: own weights, then one band per offset
        self.index: dict[str, int] = {}
        cells: list[tuple[int, int, float]] = []
        for (attr, lab), weight in info.state_features.items():
            band = 0
            head, sep, rest = attr.partition(":")
            if sep and head + ":" in prefixes:
                band, attr = prefixes[head + ":"], rest
            row = self.index.setdefault(attr, len(self.index) + 1)
            cells.append((row, band * n + pos[lab], weight))
        self.weights = np.zeros((len(self.index) + 1, n * (1 + len(window))))
        if cells:
            rows, cols, values = zip(*cells)
            self.weights[list(rows), list(cols)] = values
        zero = np.zeros(n)

        def own_row(name: str):
            return self.weights[self.index[name], :n] if name in self.index else zero

        self.bias = own_row("bias")
        self.ends = []
        for w, d in enumerate(window, 1):
            end = "BOS" if d < 0 else "EOS"
            self.ends.append(self.weights[self.index[end], w * n:(w + 1) * n] if end in self.index else zero)
        self.trans = np.zeros((n, n))
        for (a, b), weight in info.transitions.items():
            self.trans[pos[a], pos[b]] = weight

    def tag(self, own: list[list[str]]) -> list[str]:
        """Labels of the blocks whose own features (no neighbours) are ``own``."""
        m = len(own)
        if not m:
            return []
        np = numpy()
        n = len(self.labels)
        get = self.index.get
        # each block's rows, after a leading zero row (so that an empty list sums to zero)
        ids: list[int] = []
        starts: list[int] = []
        for feats in own:
            starts.append(len(ids))
            ids.append(0)
            ids.extend(map(get, feats, repeat(0)))
        sums = np.add.reduceat(self.weights.take(ids, axis=0), starts, axis=0)
        unary = sums[:, :n] + self.bias
        for w, d in enumerate(self.window, 1):
            band = sums[:, w * n:(w + 1) * n]
            if d < 0:
                unary[-d:] += band[:d] if -d < m else 0
                unary[:min(-d, m)] += self.ends[w - 1]
            elif d > 0:
                unary[:-d] += band[d:] if d < m else 0
                unary[max(m - d, 0):] += self.ends[w - 1]
            else:
                unary += band
        trans = self.trans
        score = unary[0]
        back = np.empty((m, n), dtype=np.intp)
        for i in range(1, m):
            cand = score[:, None] + trans  # cand[a, k]: from label a to label k
            back[i] = cand.argmax(axis=0)  # the first best on ties, as CRFsuite
            score = cand.max(axis=0) + unary[i]
        k = int(score.argmax())
        path = [k]
        for i in range(m - 1, 0, -1):
            k = int(back[i, k])
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
    numpy()  # the scorer's; checked now rather than on the first page
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
