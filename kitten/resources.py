"""Where Kitten finds its data files: language rules (``rules/``) and models (``classifiers/``).

Both folders sit at the top of the repository (a linguist edits ``rules/`` without
touching code; ``kitten train`` rewrites ``classifiers/``). An installed wheel carries them
inside the package (``kitten/rules``, ``kitten/classifiers``: the package-dir mapping of
pyproject.toml), found with ``importlib.resources`` wherever the package was installed
(a virtual environment, ``--user``, ``--target``). A configured folder wins; then the
checkout's folder (a source tree or an editable install); then the package's copy.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _data_dir(name: str) -> Path:
    checkout = ROOT / name
    if checkout.is_dir() and (ROOT / "pyproject.toml").is_file():
        return checkout
    beside = Path(__file__).resolve().parent / name
    if beside.is_dir():  # the package's copy on the file system (importlib.resources not needed: its import is dear)
        return beside
    try:
        from importlib import resources

        packaged = Path(str(resources.files("kitten") / name))
    except (ModuleNotFoundError, TypeError):
        packaged = beside
    return packaged


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
