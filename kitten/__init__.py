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

from kitten.api import extract, normalize  # noqa: E402

__all__ = ["__version__", "normalize", "extract"]
