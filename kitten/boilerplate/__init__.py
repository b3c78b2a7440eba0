"""Gate step (optional): a CRF labels each block, and boilerplate blocks are dropped.

Runs between the structure and the tables steps when ``[boilerplate] method = "crf"``
(``kitten extract --boilerplate crf``). After Marek, Pecina and Spousta's "Victor"
(CLEANEVAL 2007): cleaning as sequence labelling. Each block of the structure step gets
a label: ``header``, ``paragraph``, ``list``, ``continuation`` (goes on with the
previous content block) or ``other`` (navigation, footers, ads ...), from a
linear-chain CRF (``crf.py``, python-crfsuite) over the features of ``features.py``.
The ``other`` blocks are dropped: the new ``Document`` keeps the remaining blocks as
they were (kinds, groups, sources), so the tables, lists and segmentation steps read
what stays as usual. The labels go to the ``.boilerplate.json`` dump and the counts
to the page log. Training: ``kitten train boilerplate`` (``kitten/train/boilerplate.py``),
labels from the gold standards by ``align.py``.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from kitten.boilerplate.crf import load_model, model_path
from kitten.boilerplate.features import crf_items
from kitten.config import BoilerplateConfig
from kitten.document import Block, Document
from kitten.log import PageLog

__all__ = ["gate", "Labelled"]


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
    labels = model.tag(crf_items(doc.blocks, model.settings, doc.lang, rules))
    labelled = [Labelled(b, lab) for b, lab in zip(doc.blocks, labels)]
    kept = [x.block for x in labelled if x.label != "other"]
    counts: dict[str, int] = {}
    for lab in labels:
        counts[lab] = counts.get(lab, 0) + 1
    log.add("gate", "labels", ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
            + f"; {len(doc.blocks) - len(kept)} of {len(doc.blocks)} blocks dropped")
    return dataclasses.replace(doc, blocks=kept), labelled
