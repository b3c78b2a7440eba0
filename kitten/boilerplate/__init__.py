"""Gate step (optional): a CRF labels each block, and boilerplate blocks are dropped.

Runs between the structure and the tables steps when ``[boilerplate] method = "crf"``
(``kitten extract --boilerplate crf``). After Marek, Pecina and Spousta's "Victor"
(CLEANEVAL 2007): cleaning as sequence labelling. Each block of the structure step gets
a label: ``header``, ``paragraph``, ``list``, ``continuation`` (goes on with the
previous content block) or ``other`` (navigation, footers, ads ...), from a
linear-chain CRF (``crf.py``, python-crfsuite) over the features of ``features.py``.
The ``other`` blocks are dropped: the new ``Document`` keeps the remaining blocks as
they were (kinds, groups, sources), so the tables, lists and segmentation steps read
what stays as usual. With the unit rules the model was trained with (``units.py``:
``<br><br>`` paragraphs, ``<pre>`` lines, image alt texts), the CRF labels those units
and a block keeps the text of its units not labelled ``other``. The labels go to the
``.boilerplate.json`` dump and the counts
to the page log. Training: ``kitten train boilerplate`` (``kitten/train/boilerplate.py``),
labels from the gold standards by ``align.py``.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from kitten.boilerplate.crf import load_model, model_path
from kitten.boilerplate.features import crf_items, own_features
from kitten.boilerplate.units import crf_units, kept_blocks
from kitten.config import BoilerplateConfig
from kitten.document import Block, Document
from kitten.log import PageLog

__all__ = ["gate", "Labelled"]

#: when every block is labelled ``other``, the blocks kept are those whose content
#: probability is at least this share of the page's highest
KEEP_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class Labelled:
    """One block and its label (the gate step's product, for the dump)."""

    block: Block
    label: str

    def as_dict(self) -> dict:
        return {"label": self.label, "kind": self.block.kind, "locator": self.block.locator,
                "text": " ".join(self.block.text().split())}


def gate(doc: Document, config: BoilerplateConfig, log: PageLog, classifiers: str = "",
         rules: str = "") -> tuple[Document, list[Labelled]]:
    """Label the blocks of ``doc`` and drop the ``other`` ones (``doc`` itself unchanged)."""
    if config.method == "none" or not doc.blocks:
        return doc, []
    model = load_model(str(model_path(config.model, classifiers)))
    units, owner = crf_units(doc.blocks, model.settings.units)
    labels = model.tag_own(own_features(units, model.settings, doc.lang, rules))
    if all(lab == "other" for lab in labels):
        if config.keep_likeliest:
            labels = _least_noisy(units, doc.lang, model, labels, log, rules)
        else:
            log.add("gate", "all-other", "every block labelled other: nothing kept "
                                         "([boilerplate] keep_likeliest = true keeps the likeliest content)")
    labelled = [Labelled(u, lab) for u, lab in zip(units, labels)]
    kept = kept_blocks(doc.blocks, units, owner, labels)
    counts: dict[str, int] = {}
    for lab in labels:
        counts[lab] = counts.get(lab, 0) + 1
    cut = f" ({len(units)} units)" if len(units) != len(doc.blocks) else ""
    log.add("gate", "labels", ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
            + f"; {len(doc.blocks) - len(kept)} of {len(doc.blocks)} blocks{cut} dropped")
    return dataclasses.replace(doc, blocks=kept), labelled


def _least_noisy(units: list[Block], lang: str, model, labels: list[str], log: PageLog, rules: str) -> list[str]:
    """Every unit labelled ``other``: rather than output nothing, keep the units the
    CRF finds most likely content (marginal probability of not ``other``, at least
    :data:`KEEP_SHARE` of the page's highest), each with its likeliest content label."""
    probs = model.content_probabilities(crf_items(units, model.settings, lang, rules))
    best = max(p for p, _ in probs)
    out = [lab if p >= best * KEEP_SHARE else "other" for p, lab in probs]
    log.add("gate", "all-other", f"every block labelled other: kept the {len(out) - out.count('other')} "
                                 f"likeliest content (content probability {best:.2f} at most)")
    return out
