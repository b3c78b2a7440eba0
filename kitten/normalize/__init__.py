"""Normalization: decoded HTML text -> valid UTF-8 XHTML 1.0 Transitional."""
from __future__ import annotations

from kitten.config import NormalizeConfig
from kitten.log import PageLog
from kitten.normalize.parse import parse_html
from kitten.normalize.xhtml import serialize


def to_xhtml(text: str, config: NormalizeConfig, log: PageLog) -> str:
    """Parse ``text`` as HTML5 and write it as XHTML 1.0 Transitional (a str)."""
    root = parse_html(text, log)
    return serialize(root, log, max_depth=config.max_depth)


__all__ = ["to_xhtml"]
