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


@dataclass
class Model:
    tagger: object
    settings: FeatureSettings
    path: Path

    def tag(self, features: list[list[str]]) -> list[str]:
        return list(self.tagger.tag(features)) if features else []  # type: ignore[attr-defined]


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
