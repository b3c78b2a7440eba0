"""Kitten: crawled HTML in, parser-ready text out.

>>> import kitten
>>> r = kitten.normalize(b"<title>t</title><p>caf&eacute; &#150; ok")
>>> r.status, r.encoding
('done', 'windows-1252')
>>> print(kitten.extract(b"<h1>Title</h1><p>Body text"), end="")
Title.
Body text.
"""
from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__", "normalize", "extract"]


def __getattr__(name: str):
    """``kitten.normalize`` and ``kitten.extract``, imported when first asked for: ``import
    kitten`` (and the ``kitten`` command, which imports what its subcommand needs) does
    not load the whole pipeline."""
    if name in ("normalize", "extract"):
        from kitten import api

        return getattr(api, name)
    if name == "api":  # ``kitten.api.extract_result`` after ``import kitten``, as before
        import importlib

        return importlib.import_module("kitten.api")
    raise AttributeError(f"module 'kitten' has no attribute {name!r}")
