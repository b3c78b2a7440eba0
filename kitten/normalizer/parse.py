"""HTML5 parsing with lexbor (through selectolax).

lexbor implements the WHATWG parsing algorithm (tokenizer, tree construction with
the adoption agency and foster parenting, named and numeric character references
with the windows-1252 remapping of ``&#128;``-``&#159;``, raw text for ``script``
and ``style``). html5lib implements the same algorithm and is the reference:
``benchmarks/corpus_check.py`` reports how often the two trees agree on the shared
corpora. lexbor is used because it is about 100 times faster.
"""
from __future__ import annotations


from selectolax.lexbor import LexborHTMLParser

from kitten.log import PageLog



def parse_html(text: str, log: PageLog):
    """Parse ``text``; return the root (``html``) node of the tree."""
    tree = LexborHTMLParser(text)
    root = tree.root
    if root is None:  # lexbor always builds html/head/body; guard anyway
        raise ValueError("parser returned no document element")
    _warn_unterminated_comment(text, log)
    _warn_unterminated_raw_text(root, log)
    return root


# Elements whose content is read as text up to their end tag: left open, they swallow
# the rest of the page (browsers read it the same way).
_RAW_TEXT = frozenset({"title", "textarea", "script", "style", "xmp", "iframe", "noembed", "noframes"})


def _warn_unterminated_raw_text(root, log: PageLog) -> None:
    """Log a raw-text element that runs to the end of the page over markup-like text."""
    node = root
    while node.last_child is not None:  # the last node in document order
        node = node.last_child
    parent = node.parent
    if node.tag != "-text" or parent is None or parent.tag not in _RAW_TEXT:
        return
    text = node.text_content or ""
    if len(text) > 200 and "</" in text:
        log.add("normalize", "unterminated-element",
                f"<{parent.tag}> is never closed: the last {len(text)} characters of the page "
                f"are its text, as browsers read them")


def _warn_unterminated_comment(text: str, log: PageLog) -> None:
    """An unterminated ``<!--`` hides the rest of the page (as in browsers): say so."""
    last = text.rfind("<!--")
    if last != -1 and text.find("-->", last + 4) == -1 and text.find("--!>", last + 4) == -1:
        hidden = len(text) - last
        if hidden > 200:
            log.add("normalize", "unterminated-comment",
                    f"a comment opened at character {last} is never closed: "
                    f"the last {hidden} characters are a comment, as browsers read them")
