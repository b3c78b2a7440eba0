"""Kitten's optional C functions, taken only when they answer as their Python references.

The C extensions (``kitten._structure``, ``kitten._links``, built by setup.py when a
compiler and lxml's headers are there at install) read lxml's element and libxml2's node
structs as the headers of their build declare them. A function of theirs is used only
when the module imports and gives the same answers as its Python reference on a probe
chosen by the caller; otherwise the caller keeps its Python code (a warning says so when
the module is built but disagrees). One way of doing it for every such function; the
callers cache the answer (``functools.lru_cache``).
"""
from __future__ import annotations

import importlib
from typing import Callable


def checked(module: str, name: str, agrees: Callable[[Callable], bool]) -> Callable | None:
    """``module.name``, or None when the module is not built (or built against another
    lxml's C API) or when ``agrees(function)``, the caller's comparison with its Python
    reference on a probe, is false (logged)."""
    try:
        function = getattr(importlib.import_module(module), name)
    except Exception:  # noqa: BLE001 - not built, or built against another lxml's C API
        return None
    if not agrees(function):
        import logging  # here: importing it costs more than every check that passes

        logging.getLogger(__name__).warning(f"{module}.{name} answers otherwise than its Python reference: not used")
        return None
    return function
