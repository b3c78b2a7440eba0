"""Normalization: decoded HTML text -> valid UTF-8 XHTML 1.0 Transitional."""
from __future__ import annotations

from kitten.config import NormalizeConfig
from kitten.log import PageLog
from kitten.normalizer.fastwrite import fast_writer
from kitten.normalizer.parse import parse_html
from kitten.normalizer.xhtml import walk


def to_xhtml(text: str, config: NormalizeConfig, log: PageLog) -> str:
    """Parse ``text`` as HTML5 and write it as XHTML 1.0 Transitional (a str)."""
    fast = fast_writer() if config.fast_writer else None
    writer = walk(parse_html(text, log), max_depth=config.max_depth, fast=fast)  # the tree dies here
    return writer.finish(log)


__all__ = ["to_xhtml"]
