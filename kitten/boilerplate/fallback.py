"""Never an empty page, never a silent loss: what the gate keeps when its labels cannot be
a page's main text (:func:`plausible`), each override logged as :data:`FALLBACK`."""
from __future__ import annotations

from typing import Callable

from kitten.boilerplate.features import word_count
from kitten.document import Block
from kitten.log import GATE_FALLBACK, PageLog

#: the log event of a page whose labels were overridden
FALLBACK = GATE_FALLBACK

#: when every block is labelled ``other`` on a page without prose, the blocks kept are
#: those whose content probability is at least this share of the page's highest
KEEP_SHARE = 0.5

#: the kept prose (words of blocks holding a sentence) must be at least this share of
#: the page's, else the densest region is kept too
MIN_PROSE_SHARE = 0.2

#: ... unless it has this many words (an article above a long comment thread)
ENOUGH_PROSE = 100

#: the fallback keeps the blocks of the densest region that hold a sentence or whose
#: content probability is at least this (not the region's tag lists and buttons). With
#: the region's exclusions (``features.NOT_MAIN``), on the held-out sites: modern
#: hand-annotated 0.940 -> 0.950, Dragnet 0.927 -> 0.930, modern snippets 92.2% -> 93.5%
REGION_FLOOR = 0.05


def plausible(units: list[Block], labels: list[str], probs: list[float], prose: list[int],
               log: PageLog, prose_region: Callable[[], list[bool] | None]) -> list[str]:
    """``labels``, or better ones when what they keep cannot be a page's main text
    (each override logged as :data:`FALLBACK` with its reason; ``prose``: each unit's
    :func:`sentence_words`; ``prose_region``: the units' ``features.prose_region``, called
    only when needed)."""
    total = sum(prose)
    kept = sum(w for w, lab in zip(prose, labels) if lab != "other")
    if total and (kept >= MIN_PROSE_SHARE * total or kept >= ENOUGH_PROSE):
        return labels
    anything = any(lab != "other" for lab in labels)
    region = prose_region() if total else None  # readers' comments left out
    if region is None or not any(w for w, r in zip(prose, region) if r):
        # no prose, or all of it in comments: what the labels keep (a short post above a
        # long thread), else the likeliest blocks; never every block
        if anything or not any(word_count(u.text()) for u in units):
            return labels
        best = max(probs)
        out = [lab if lab != "other" else "paragraph" if p >= best * KEEP_SHARE else "other"
               for lab, p in zip(labels, probs)]
        log.add("gate", FALLBACK, f"all-other: every block labelled other, no text region; kept the "
                                  f"{len(out) - out.count('other')} likeliest (content probability "
                                  f"{best:.2f} at most)")
        return out
    reason = "no-sentence" if not kept else "low-share"
    out = [lab if lab != "other" or not r or not (w or p >= REGION_FLOOR) else "paragraph"
           for lab, r, w, p in zip(labels, region, prose, probs)]
    added = sum(1 for a, b in zip(labels, out) if a != b)
    log.add("gate", FALLBACK, f"{reason}: {kept / total:.0%} of the page's prose kept; kept the densest "
                              f"text region too ({added} blocks)")
    return out
