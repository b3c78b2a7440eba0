"""Where Kitten finds its data files: language rules (``rules/``) and models (``classifiers/``).

Both folders sit at the top of the repository (a linguist edits ``rules/`` without
touching code; ``kitten train`` rewrites ``classifiers/``). A configured folder wins;
otherwise the folder of the checkout is used, and in a non-editable install the copy
installed in ``<prefix>/share/kitten/`` (``[tool.setuptools.data-files]`` of pyproject.toml).
"""
from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_INSTALLED = Path(sys.prefix) / "share" / "kitten"


def _data_dir(name: str) -> Path:
    checkout = ROOT / name
    return checkout if checkout.is_dir() else _INSTALLED / name


RULES = _data_dir("rules")
CLASSIFIERS = _data_dir("classifiers")


def rules_dir(configured: str = "") -> Path:
    return Path(configured) if configured else RULES


def classifiers_dir(configured: str = "") -> Path:
    return Path(configured) if configured else CLASSIFIERS


@lru_cache(maxsize=64)
def word_list(rules: str, lang: str, name: str) -> frozenset[str]:
    """The entries of ``rules/<lang>/<name>`` (English when the language has none),
    lower-cased; ``#`` starts a comment."""
    return frozenset(line.lower() for line in lines(rules, lang, name))


@lru_cache(maxsize=64)
def lines(rules: str, lang: str, name: str) -> tuple[str, ...]:
    """The non-empty lines of ``rules/<lang>/<name>`` (``lang`` may be ``""`` for a file
    at the top of ``rules/``), comments removed, in file order."""
    base = rules_dir(rules)
    path = base / lang / name
    if lang and not path.is_file():
        path = base / "en" / name
    if not path.is_file():
        raise FileNotFoundError(f"no {name} under {base} (set [rules] dir)")
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split(" #", 1)[0] if not line.startswith("#") else ""
        line = line.strip()
        if line:
            out.append(line)
    return tuple(out)
