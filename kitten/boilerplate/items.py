"""Repeated items: the posts of a thread, the cards of a listing, the products of a category.

A page that lists things writes each of them in the same markup: siblings with the same
tag and ``class`` (``<article class="post">`` twenty times, ``<li class="card">`` under
one ``<ul>``). :func:`repeated_items` finds, for each unit the gate labels, the lowest
ancestor of its element that is such an item (its parent has at least :data:`MIN_ITEMS`
element children with the same tag and class), and groups the units by that parent: a
*run* of items. The gate reads a run as one thing (:func:`kitten.boilerplate.keep_rules.with_items`):
on a page whose kind is a list of things (a thread, a listing, a category) the run that
holds its main content is kept whole, item by item, not the one post or card the CRF was
sure of.

Cost: one walk up from each unit's element, each element's siblings counted once (a
dictionary per parent), no XPath.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from kitten.document import Block

#: a parent whose children include at least this many of the same tag and class holds a run
MIN_ITEMS = 3
#: how far up from a unit's element an item is looked for
MAX_DEPTH = 12


@dataclass(frozen=True, slots=True)
class Run:
    """The units of one run of repeated items: ``parent`` the element holding the items,
    ``units`` the indices of the gate's units inside them, ``item_of`` the item (0, 1, ...
    in document order) of each of those units, ``items`` how many items hold a unit."""

    parent: object
    units: tuple[int, ...]
    item_of: tuple[int, ...]
    items: int


def _signature(el) -> tuple[str, str]:
    return el.tag, " ".join(sorted((el.get("class") or "").split()))


def repeated_items(units: list[Block]) -> list[Run]:
    """The runs of repeated items of a page, each with the units inside it, in the order of
    their first unit; a unit belongs to the run of its lowest repeated ancestor only."""
    counts: dict[int, Counter] = {}  # id(parent) -> signatures of its element children

    def repeated(el) -> bool:
        parent = el.getparent()
        if parent is None:
            return False
        key = id(parent)
        c = counts.get(key)
        if c is None:
            c = counts[key] = Counter(_signature(ch) for ch in parent if isinstance(ch.tag, str))
        return c[_signature(el)] >= MIN_ITEMS

    runs: dict[int, tuple[object, list[int], list[int], dict[int, int]]] = {}
    item_cache: dict[int, object | None] = {}  # id(element) -> its lowest repeated ancestor-or-self
    for i, u in enumerate(units):
        el = u.source
        if el is None:
            continue
        seen = []
        found = None
        depth = 0
        while el is not None and depth < MAX_DEPTH:
            key = id(el)
            if key in item_cache:
                found = item_cache[key]
                break
            seen.append(key)
            if el.getparent() is not None and el.getparent().getparent() is not None and repeated(el):
                found = el
                break
            el = el.getparent()
            depth += 1
        for key in seen:
            item_cache[key] = found
        if found is None:
            continue
        parent = found.getparent()
        entry = runs.get(id(parent))
        if entry is None:
            entry = runs[id(parent)] = (parent, [], [], {})
        order = entry[3]
        item = order.setdefault(id(found), len(order))
        entry[1].append(i)
        entry[2].append(item)
    return [Run(parent, tuple(us), tuple(items), len(order)) for parent, us, items, order in runs.values()]
