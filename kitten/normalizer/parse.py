"""HTML5 parsing with lexbor (through selectolax).

lexbor implements the WHATWG parsing algorithm (tokenizer, tree construction with
the adoption agency and foster parenting, named and numeric character references
with the windows-1252 remapping of ``&#128;``-``&#159;``, raw text for ``script``
and ``style``). html5lib implements the same algorithm and is the reference:
``benchmarks/corpus_check.py`` reports how often the two trees agree on the shared
corpora. lexbor is used because it is about 100 times faster.
"""
from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser

from kitten.log import PageLog
from kitten.normalizer import holders

#: attributes kept on one element; lexbor checks each new attribute against those
#: before it (32,000 on one element: 2 s, 200,000: minutes), and no real page comes
#: near this
MAX_ATTRIBUTES = 1000
_ATTRIBUTE = re.compile(r"""[\s/]*[^\s/>=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]*))?""")


def parse_html(text: str, log: PageLog):
    """Parse ``text``; return the root (``html``) node of the tree. Elements with more
    than :data:`MAX_ATTRIBUTES` attributes keep the first ones (logged). Content that
    React's streaming scripts or declarative shadow roots show is moved into place
    (``holders.py``, logged)."""
    text = _cap_attributes(text, log)
    tree = LexborHTMLParser(text)
    root = tree.root
    if root is None:  # lexbor always builds html/head/body; guard anyway
        raise ValueError("parser returned no document element")
    _warn_unterminated_comment(text, log)
    _warn_unterminated_raw_text(root, log)
    if holders.may_hold(text):  # React streaming holders, declarative shadow roots
        holders.reveal(root, text, log)
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


def _may_hold_long_tag(text: str) -> bool:
    """False when ``text`` certainly has no run of 20,000 characters without a ``<`` (no
    room for a start tag long enough to be capped, :func:`_long_start_tags`): every aligned block of
    10,000 characters holds a ``<`` (such a run would hold a whole block). True: maybe
    (:func:`_long_start_tags` then looks)."""
    if len(text) <= 20000:
        return False
    return not all(text.find("<", i, i + 10000) >= 0 for i in range(0, len(text) - 10000 + 1, 10000))


def _long_runs(text: str):
    """``(start, end)`` of each ``<`` followed by more than 20,000 characters without ``<``
    (up to the next ``<`` or the end), where a start tag that long can be: the matches of
    ``<[^<]{20000,}`` (a test compares them), found from the aligned blocks of 10,000
    characters that hold no ``<`` (each such run holds one, :func:`_may_hold_long_tag`)
    rather than by trying the pattern at every ``<`` of the page."""
    last = -1  # the start of the run found last (a long run holds several blocks)
    for i in range(0, len(text) - 10000 + 1, 10000):
        if text.find("<", i, i + 10000) >= 0:
            continue
        start = text.rfind("<", 0, i)
        if start < 0 or start == last:
            continue
        end = text.find("<", i + 10000)
        if end < 0:
            end = len(text)
        if end - start > 20000:
            last = start
            yield start, end


_NAME_END = re.compile(r"[\s/]")
_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _long_start_tags(text: str):
    r"""``(start, end, name, attributes)`` of each start tag of over 20,000 characters in
    ``text`` (one that may carry more than :data:`MAX_ATTRIBUTES` attributes), in order:
    the matches of ``<([a-zA-Z][^\s/<>]*)([^<>]{20000,})>``, found without that pattern's
    backtracking (a name of thousands of characters before a run without ``>`` made its
    search quadratic: 60 ms on a 2.9 MB page; a test compares the two).

    A match starts at a ``<`` followed by an ASCII letter, ends at the first ``>`` after it,
    and has over 20,000 characters between the two, none of them ``<``; its name is the
    longest run of characters other than white space and ``/`` that leaves 20,000 for the
    attributes (the pattern's greedy name)."""
    for start, run_end in _long_runs(text):
        close = text.find(">", start + 1, run_end)
        if close < 0 or close - start - 1 < 20001 or text[start + 1] not in _ASCII_LETTERS:
            continue
        limit = close - 20000
        name_end = _NAME_END.search(text, start + 2, limit)
        cut = name_end.start() if name_end else limit
        yield start, close + 1, text[start + 1:cut], text[cut:close]


def _first_attributes(attrs: str) -> str | None:
    """The first :data:`MAX_ATTRIBUTES` attributes of a start tag's ``attrs``, or None
    when it has no more than that (or they do not read as attributes)."""
    pos = 0
    for _ in range(MAX_ATTRIBUTES):
        a = _ATTRIBUTE.match(attrs, pos)
        if a is None or a.end() == pos:
            return None
        pos = a.end()
    if not attrs[pos:].strip(" \t\n\r\f/"):
        return None
    return attrs[:pos]


def _cap_attributes(text: str, log: PageLog) -> str:
    """``text`` with every start tag cut after :data:`MAX_ATTRIBUTES` attributes."""
    if not _may_hold_long_tag(text):
        return text  # no start tag can be that long (the search below takes longer)
    capped = []
    out: list[str] = []
    done = 0  # text before this is in out
    for start, end, name, attrs in _long_start_tags(text):
        kept = _first_attributes(attrs)
        if kept is not None:
            capped.append(name)
            out += (text[done:start], f"<{name}{kept}>")
            done = end
    out.append(text[done:])
    out = "".join(out)
    if capped:
        log.add("normalize", "attributes-capped",
                f"{len(capped)} element(s) with more than {MAX_ATTRIBUTES} attributes (<{capped[0]}>): "
                f"the first {MAX_ATTRIBUTES} kept")
    return out
