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
    return root


def _warn_unterminated_comment(text: str, log: PageLog) -> None:
    """An unterminated ``<!--`` hides the rest of the page (as in browsers): say so."""
    last = text.rfind("<!--")
    if last != -1 and text.find("-->", last + 4) == -1 and text.find("--!>", last + 4) == -1:
        hidden = len(text) - last
        if hidden > 200:
            log.add("normalize", "unterminated-comment",
                    f"a comment opened at character {last} is never closed: "
                    f"the last {hidden} characters are a comment, as browsers read them")
