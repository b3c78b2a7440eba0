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


def repeated_items(units: list[Block]) -> list[Run]:
    """The runs of repeated items of a page, each with the units inside it, in the order of
    their first unit; a unit belongs to the run of its lowest repeated ancestor only.
    Elements are alike when they have the same tag and the same class words in any order."""
    # keyed by the elements themselves, not id(): an lxml proxy that nothing holds is freed
    # and its id reused; the dictionaries keep each element they read alive
    counts: dict = {}  # parent -> the signatures of its element children
    item_of: dict = {}  # element -> its lowest repeated ancestor-or-self (None: none)
    classes: dict = {None: ""}  # class attribute -> its words sorted (read once per value)

    def signature(el) -> tuple:
        cls = el.get("class")
        words = classes.get(cls)
        if words is None:
            words = classes[cls] = " ".join(sorted(cls.split()))
        return el.tag, words

    def repeated(el) -> bool:
        parent = el.getparent()
        if parent is None or parent.getparent() is None:  # the root and its children (head, body)
            return False
        c = counts.get(parent)
        if c is None:
            c = counts[parent] = Counter(signature(ch) for ch in parent if isinstance(ch.tag, str))
        return c[signature(el)] >= MIN_ITEMS

    runs: dict = {}  # parent of the items -> (units, their items, item -> its number)
    for i, u in enumerate(units):
        el, seen, found = u.source, [], None
        for _ in range(MAX_DEPTH):
            if el is None:
                break
            if el in item_of:
                found = item_of[el]
                break
            seen.append(el)
            if repeated(el):
                found = el
                break
            el = el.getparent()
        for e in seen:
            item_of[e] = found
        if found is None:
            continue
        us, items, order = runs.setdefault(found.getparent(), ([], [], {}))
        us.append(i)
        items.append(order.setdefault(found, len(order)))
    return [Run(parent, tuple(us), tuple(items), len(order)) for parent, (us, items, order) in runs.items()]
