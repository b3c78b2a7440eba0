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

try:
    from kitten.boilerplate import _facts  # the feature sums and forward-backward in C (Scorer)
except ImportError:  # not built: numpy adds the rows and scans
    _facts = None

MODEL_NAME = "boilerplate.crfsuite"
MISSING = ("the boilerplate step (--boilerplate crf) needs python-crfsuite and numpy: "
           "pip install 'kitten-text[crf]' (or pip install python-crfsuite numpy)")


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
    """The model's weights as one matrix, and forward-backward over them: the marginal
    probabilities CRFsuite's tagger gives for the lists
    :func:`~kitten.boilerplate.features.block_features` builds (what the model was
    trained on: a repeated feature counts each time), without building them. Each
    feature name has one row: its own weights, then its
    weights as a neighbour's feature (``-1:name``, ``+1:name``; none for the page-wide
    features, which the neighbours never see), so a block's own list is looked up once
    and a page's blocks are summed in one call (:meth:`sums`: in C, else numpy). Weights as
    ``Tagger.info()`` reads them (6 decimals; the tests compare the marginals with
    CRFsuite's)."""

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

    def sums(self, own: list[list[str]]):
        """Each block's sum of the weight rows of its features (blocks x columns): in C
        (``_facts.feature_sums``, the same sums to the last bit) when the extension is
        built, else the rows taken and added by numpy."""
        np = numpy()
        if _facts is not None:
            out = np.zeros((len(own), self.weights.shape[1]))
            _facts.feature_sums(own, self.index, self.weights, out)
            return out
        get = self.index.get
        # each block's rows, after a leading zero row (so that an empty list sums to zero)
        ids: list[int] = []
        starts: list[int] = []
        for feats in own:
            starts.append(len(ids))
            ids.append(0)
            ids.extend(map(get, feats, repeat(0)))
        return np.add.reduceat(self.weights.take(ids, axis=0), starts, axis=0)

    def unary(self, own: list[list[str]]):
        """The state scores (blocks x labels) of the blocks whose own features are ``own``."""
        m = len(own)
        n = len(self.labels)
        sums = self.sums(own)
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
        return unary

    def marginals(self, own: list[list[str]]):
        """Each block's probability of each label (blocks x labels, rows summing to 1):
        forward-backward over the same scores (CRFsuite's ``Tagger.marginal``, without
        building items): in C (``_facts.forward_backward``, block after block) when the
        extension is built, else :func:`_scan_marginals` (numpy), the same probabilities
        to about 1e-15."""
        np = numpy()
        m = len(own)
        n = len(self.labels)
        if not m:
            return np.zeros((0, n))
        unary = self.unary(own)
        u = np.ascontiguousarray(np.exp(unary - unary.max(axis=1, keepdims=True)))
        t = np.exp(self.trans - self.trans.max())
        if _facts is not None:
            out = np.empty_like(u)
            _facts.forward_backward(u, t, out)
            return out
        return _scan_marginals(u, t, np)


def _scan_marginals(u, t, np):
    """The marginals of :meth:`Scorer.marginals` from the blocks' state potentials ``u``
    (blocks x labels) and the transition potentials ``t`` (labels x labels): the forward
    and backward products of the per-block matrices computed as parallel prefix scans
    (a page's blocks at once, log2(blocks) numpy steps, each product rescaled: a
    position's vector is needed only up to its scale)."""
    m = len(u)
    alpha = u.copy()
    beta = np.ones_like(u)
    if m > 1:
        steps = t[None, :, :] * u[1:, None, :]  # steps[i][a, b]: label a at i, b at i + 1
        forward = _scan(steps, np, left=False)  # steps[0] ... steps[i]
        alpha[1:] = np.einsum("a,iab->ib", u[0], forward)
        backward = _scan(steps[::-1], np, left=True)  # steps[i] ... steps[m - 2]
        beta[:-1] = backward[::-1].sum(axis=2)
    p = alpha * beta
    return p / p.sum(axis=1, keepdims=True)


def _scan(mats, np, left: bool):
    """Inclusive prefix products of a stack of square matrices (Hillis and Steele):
    ``out[i] = mats[0] @ ... @ mats[i]``, or with ``left`` ``mats[i] @ ... @ mats[0]``;
    each product divided by its largest entry."""
    out = mats / mats.max(axis=(1, 2), keepdims=True)
    d = 1
    while d < len(out):
        new = out[d:] @ out[:-d] if left else out[:-d] @ out[d:]
        new /= new.max(axis=(1, 2), keepdims=True)
        out[d:] = new
        d *= 2
    return out


@dataclass
class Model:
    tagger: object
    settings: FeatureSettings
    path: Path
    scorer: Scorer | None = None

    def tag(self, features: list[list[str]]) -> list[str]:
        """CRFsuite's tagger on full items (neighbour features included)."""
        return list(self.tagger.tag(features)) if features else []  # type: ignore[attr-defined]

    def marginals_own(self, own: list[list[str]]):
        """Each block's probability of each label of :attr:`labels` (:meth:`Scorer.marginals`)."""
        return self.get_scorer().marginals(own)

    @property
    def labels(self) -> list[str]:
        return self.get_scorer().labels

    def get_scorer(self) -> Scorer:
        if self.scorer is None:
            self.scorer = Scorer(self.tagger.info(), self.settings.window)  # type: ignore[attr-defined]
        return self.scorer


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
