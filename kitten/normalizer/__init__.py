"""Normalization: decoded HTML text -> valid UTF-8 XHTML 1.0 Transitional."""
from __future__ import annotations

from kitten.config import NormalizeConfig
from kitten.log import PageLog
from kitten.normalizer.fastwrite import fast_writer
from kitten.normalizer.origins import mark_tree
from kitten.normalizer.parse import parse_html
from kitten.normalizer.xhtml import walk


def to_xhtml(text: str, config: NormalizeConfig, log: PageLog) -> str:
    """Parse ``text`` as HTML5 and write it as XHTML 1.0 Transitional (a str)."""
    fast = fast_writer() if config.fast_writer else None
    writer = walk(parse_html(text, log), max_depth=config.max_depth, fast=fast)  # the tree dies here
    return writer.finish(log)


def to_marked_xhtml(text: str, config: NormalizeConfig, log: PageLog,
                    names: frozenset[str] | None = None) -> tuple[str, list[str]]:
    """:func:`to_xhtml` with the elements (of ``names`` or with a ``style``, if given)
    marked with their number in the parse tree (``origins.py``), and the original path
    of each number."""
    fast = fast_writer() if config.fast_writer else None
    root = parse_html(text, log)
    paths = mark_tree(root, names)
    return walk(root, max_depth=config.max_depth, fast=fast).finish(log), paths


__all__ = ["to_xhtml", "to_marked_xhtml"]
