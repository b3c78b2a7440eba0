"""Content a page's scripts (or the browser itself) move into view, put where it shows.

Two kinds of holders send a page's content somewhere the writer would drop or the
structure step would leave out as hidden:

- **React streaming SSR** (React 18+, Next.js): a late part of the page comes in a
  ``<div hidden id="S:n">``; a script call ``$RC("B:m","S:n")`` puts its children in
  place of the boundary whose placeholder is ``<template id="B:m">`` (the fallback
  between the ``<!--$?-->`` and ``<!--/$-->`` comments around it, "Loading...", goes),
  and ``$RS("S:n","P:m")`` puts them in place of ``<template id="P:m">``. The calls are
  run here, in document order, as React's own ``$RC``/``$RS`` do (nodes moved in
  lexbor's tree); a hidden ``S:n`` that no call names is moved to a ``B:n`` (or ``P:n``)
  placeholder of the same number when there is one. A ``$RC`` with an error digest (a
  third argument: React renders that boundary on the client) is left alone.
- **Declarative shadow DOM**: ``<template shadowrootmode="open|closed">`` is the shadow
  root of its parent, which the browser shows; its content takes the template's place
  (the writer drops every ``<template>`` with its content). Light children of the host
  stay where they are (slots are not resolved).

Both run on the parse tree before it is written, and only when the page's text holds
``$R``/``id="S:`` or ``shadowrootmode`` (a substring test: most pages hold neither).
Each move is logged (``normalize``, ``react-holder-moved`` / ``shadow-root-read``).
"""
from __future__ import annotations

import re

from kitten.log import PageLog

#: a React reveal call: ``$RC("B:0","S:0")``, ``$RS("S:1","P:1")`` (third argument: an
#: error digest)
_CALL = re.compile(r"""\$R([CS])\(\s*["']([A-Za-z]+:[0-9A-Za-z]+)["']\s*,\s*["']([A-Za-z]+:[0-9A-Za-z]+)["']\s*(,)?""")
_HOLDER_ID = re.compile(r"[SBP]:[0-9A-Za-z]+\Z")
#: boundary comments of React's streaming markup
_OPEN = frozenset({"$", "$?", "$!"})
_CLOSE = "/$"


def may_hold(text: str) -> bool:
    """A quick test: could the page hold React holders or declarative shadow roots?"""
    return ('id="S:' in text or "id=S:" in text or "id='S:" in text) or "shadowrootmode" in text


def reveal(root, text: str, log: PageLog) -> None:
    """Move held content into place in lexbor's tree ``root`` (see the module)."""
    if "shadowrootmode" in text:
        _shadow_roots(root, log)
    if 'id="S:' in text or "id=S:" in text or "id='S:" in text:
        _react(root, log)


def _shadow_roots(root, log: PageLog) -> None:
    """Each ``<template shadowrootmode>``: its content in its place. Inner shadow roots
    (in the content of another template) are reached once the outer one is moved."""
    done = 0
    for _ in range(64):  # nesting depth: each round opens the templates now in the tree
        templates = [t for t in root.css("template") if (t.attributes.get("shadowrootmode") or "").strip().lower()
                     in ("open", "closed")]
        if not templates:
            break
        for template in templates:
            fragments = template.template_fragments()
            fragment = fragments[0] if fragments else None
            if fragment is not None:
                for child in list(_children(fragment)):
                    template.insert_before(child, move=True)
            template.decompose()
            done += 1
    if done:
        log.add("normalize", "shadow-root-read",
                f"{done} declarative shadow root{'s' if done > 1 else ''} (<template shadowrootmode>) "
                "read in place: the browser shows them")


def _children(node):
    child = node.first_child
    while child is not None:
        nxt = child.next
        yield child
        child = nxt


def _react(root, log: PageLog) -> None:
    """Run the page's ``$RC``/``$RS`` calls on the tree (see the module)."""
    # the holder ids as strings: nodes are looked up when a call moves them (a node
    # kept from before could be one an earlier call removed)
    ids = {value for node in root.css("[id]") if _HOLDER_ID.match(value := node.attributes.get("id") or "")}
    segments = sorted((k for k in ids if k.startswith("S:")), key=lambda k: (len(k), k))
    if not segments:
        return
    calls: list[tuple[str, str, str, bool]] = []
    for script in root.css("script"):
        source = script.text(deep=True) or ""
        if "$R" in source:
            calls.extend((m.group(1), m.group(2), m.group(3), m.group(4) is not None) for m in _CALL.finditer(source))
    named = {c[2] if c[0] == "C" else c[1] for c in calls}
    for segment in segments:  # a segment no call names: its placeholder of the same number
        if segment not in named:
            number = segment[2:]
            if f"B:{number}" in ids:
                calls.append(("C", f"B:{number}", segment, False))
            elif f"P:{number}" in ids:
                calls.append(("S", segment, f"P:{number}", False))
    moved, skipped = [], 0
    for kind, first, second, digest in calls:
        if kind == "C":
            boundary, segment = first, second
            if digest:
                skipped += 1
                continue
        else:
            segment, boundary = first, second
        s, b = _by_id(root, segment), _by_id(root, boundary)
        if s is None or b is None or b.parent is None or s.parent is None:
            continue
        if kind == "C":
            end = _clear_boundary(b)
            if end is None:  # no boundary comments: the placeholder alone is replaced
                for child in list(_children(s)):
                    b.insert_before(child, move=True)
                b.decompose()
            else:
                for child in list(_children(s)):
                    end.insert_before(child, move=True)
        else:
            for child in list(_children(s)):
                b.insert_before(child, move=True)
            b.decompose()
        s.decompose()
        moved.append(f"{segment}>{boundary}")
    if moved:
        log.add("normalize", "react-holder-moved",
                f"{len(moved)} hidden React segment{'s' if len(moved) > 1 else ''} moved to "
                f"{'their placeholders' if len(moved) > 1 else 'its placeholder'} as the page's $RC/$RS "
                f"scripts do: {' '.join(moved[:10])}{' ...' if len(moved) > 10 else ''}")
    if skipped:
        log.add("normalize", "react-holder-client-rendered",
                f"{skipped} React boundar{'ies' if skipped > 1 else 'y'} rendered on the client (error digest): "
                "fallback kept")


def _by_id(root, value: str):
    """The first element of ``root`` with id ``value`` (a holder id: no quotes in it)."""
    return root.css_first(f'[id="{value}"]')


def _clear_boundary(template):
    """React's ``$RC`` on the tree: remove the nodes after the ``<!--$?-->`` comment
    before ``template`` (the template included) up to the matching ``<!--/$-->``, and
    return that end comment (the content goes before it); None when the template has no
    such comment before it, or no end comment follows (nothing removed)."""
    start = template.prev
    if start is None or not start.is_comment_node or (start.comment_content or "").strip() not in _OPEN:
        return None
    doomed = []
    depth = 0
    node = template
    while node is not None:
        if node.is_comment_node:
            data = (node.comment_content or "").strip()
            if data == _CLOSE:
                if depth == 0:
                    break
                depth -= 1
            elif data in _OPEN:
                depth += 1
        doomed.append(node)
        node = node.next
    if node is None:
        return None
    for d in doomed:
        d.decompose()
    return node
