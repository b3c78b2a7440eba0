"""Where the shared corpora are, for every test that reads them: the one place that decides.

The corpora are looked for in ``.cache/corpora`` of the checkout. The environment
variable ``KITTEN_CORPORA`` changes that: a folder to use instead, or ``off`` (also
``0``, ``none``, ``no``, ``false`` or empty) to run as on a fresh machine without them,
whatever is unpacked.

Without the corpora:

- a test marked ``corpus``, a test that asks for the ``corpora`` fixture and a test that
  calls :func:`require` skip, with the reason :data:`REASON`;
- a test that compares a C path with its Python reference on real pages reads the pages
  of :func:`corpus_pages` / :func:`fixture_pages` instead: the repository's generated
  pages (``tests/fixtures/pages/``, written by its ``make.py``).
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENV = "KITTEN_CORPORA"
FIXTURE_PAGES = ROOT / "tests" / "fixtures" / "pages"
_OFF = ("", "0", "off", "none", "no", "false")


def _location() -> tuple[Path | None, str]:
    value = os.environ.get(ENV)
    if value is None:
        return ROOT / ".cache" / "corpora", f"the shared corpora are not unpacked in {ROOT / '.cache' / 'corpora'}"
    if value.strip().lower() in _OFF:
        return None, f"the shared corpora are turned off ({ENV}={value})"
    path = Path(value) if Path(value).is_absolute() else ROOT / value
    return path, f"the shared corpora are not in {path} ({ENV})"


_FOUND, _ABSENT = _location()
#: True when the corpora are there (and not turned off).
AVAILABLE = _FOUND is not None and _FOUND.is_dir() and any(_FOUND.iterdir())
#: The corpora's folder; without them a path that does not exist, so that a test that
#: looks for a corpus file finds none.
CORPORA = _FOUND if AVAILABLE else ROOT / ".cache" / "corpora-absent"
#: Why the corpus tests skip (None when the corpora are there).
REASON = None if AVAILABLE else _ABSENT + ": test skipped"

#: The reason a corpus test gives when it skips: :data:`REASON`, or, with the corpora
#: there, that the part it reads is missing.
ABSENT = REASON or "a part of the shared corpora this test reads is missing: test skipped"

#: ``@needs_corpora`` on a test: skip it without the corpora.
needs_corpora = pytest.mark.skipif(not AVAILABLE, reason=REASON or "")


def require(*parts: str) -> Path:
    """The corpora's path ``CORPORA/parts...``; skips the calling test when the corpora
    (or that part of them) are absent."""
    if not AVAILABLE:
        pytest.skip(REASON)
    path = CORPORA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is not in the shared corpora")
    return path


def fixture_pages() -> list[Path]:
    """The repository's stand-in pages (UTF-8): the generated pages of ``tests/fixtures/pages``."""
    return sorted(FIXTURE_PAGES.glob("*.html"))


def corpus_pages(corpus: str, limit: int, subdir: str = "html", pattern: str = "*") -> list[Path]:
    """The first ``limit`` pages of ``CORPORA/corpus/subdir`` (sorted by name); without the
    corpora, the first ``limit`` pages of :func:`fixture_pages`."""
    if not AVAILABLE:
        pages = fixture_pages()
        start = sum(map(ord, corpus)) % len(pages)  # another share of them for another corpus
        return (pages[start:] + pages[:start])[:limit]
    return sorted((CORPORA / corpus / subdir).glob(pattern))[:limit]
