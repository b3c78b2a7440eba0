"""Gold text -> block labels, for training the boilerplate CRF.

The page's blocks (as the structure step makes them) and the gold text are tokenized
with the overlap metric's tokenizer (``kitten.evaluation.overlap.tokenize``), and the
two token sequences are aligned with the metric's matcher (``matching_blocks``: what
difflib's ``SequenceMatcher`` finds, faster). Then, block by block:

- a block is content when at least ``share`` (half) of its tokens are aligned to gold
  tokens, else ``other``;
- a content block takes the kind of the gold block most of its aligned tokens fall in:
  ``<h>`` -> ``header``, ``<l>`` -> ``list``, ``<p>`` -> ``paragraph``; a gold without
  kinds (Dragnet, Readability) uses the block's own kind (heading -> ``header``, list
  item/term/definition -> ``list``, else ``paragraph``);
- a content block whose first aligned token lies in the same gold block as the last
  aligned token of the previous content block is ``continuation`` (it continues that
  gold block: a paragraph cut by a ``<br><br>`` or an inline-turned-block element).

>>> from kitten.document import Block
>>> from kitten.evaluation.gold import parse_cleaneval
>>> blocks = [Block("paragraph", "p", None, [t]) for t in
...           ["Home | About", "Big news", "It happened today in town", "and then it rained.", "Copyright"]]
>>> gold = parse_cleaneval("<h>Big news\\n<p>It happened today in town and then it rained.")
>>> align_labels(blocks, gold)
['other', 'header', 'paragraph', 'continuation', 'other']
"""
from __future__ import annotations

from kitten.document import Block
from kitten.evaluation.gold import Gold, GoldBlock
from kitten.evaluation.overlap import matching_blocks, tokenize

LABELS = ("header", "paragraph", "list", "continuation", "other")
CONTENT = frozenset(LABELS[:4])
_GOLD_KIND = {"h": "header", "l": "list", "p": "paragraph"}
_BLOCK_KIND = {"heading": "header", "list_item": "list", "term": "list", "definition": "list"}


def align_labels(blocks: list[Block], gold: Gold, share: float = 0.5) -> list[str]:
    """One label of :data:`LABELS` per block."""
    out_tokens: list[str] = []
    owner: list[int] = []  # block index of each output token
    for i, b in enumerate(blocks):
        toks = tokenize(b.text())
        out_tokens += toks
        owner += [i] * len(toks)
    gold_tokens: list[str] = []
    gold_block: list[int] = []
    gold_kinds: list[str | None] = []
    gblocks = gold.blocks or [GoldBlock(None, line) for line in gold.text.splitlines() if line.strip()]
    for k, g in enumerate(gblocks):
        toks = tokenize(g.text)
        gold_tokens += toks
        gold_block += [k] * len(toks)
        gold_kinds.append(g.kind)
    aligned: list[int] = [-1] * len(out_tokens)  # gold block of each output token, -1 none
    for i, j, n in matching_blocks(out_tokens, gold_tokens):
        for d in range(n):
            aligned[i + d] = gold_block[j + d]
    per_block: list[list[int]] = [[] for _ in blocks]
    sizes = [0] * len(blocks)
    for t, i in enumerate(owner):
        sizes[i] += 1
        if aligned[t] >= 0:
            per_block[i].append(aligned[t])
    labels: list[str] = []
    last_gold = None
    for i, b in enumerate(blocks):
        hits = per_block[i]
        if not sizes[i] or len(hits) < share * sizes[i]:
            labels.append("other")
            continue
        if last_gold is not None and hits[0] == last_gold:
            labels.append("continuation")
        else:
            counts: dict[int, int] = {}
            for k in hits:
                counts[k] = counts.get(k, 0) + 1
            main = max(counts, key=counts.__getitem__)
            kind = gold_kinds[main]
            labels.append(_GOLD_KIND[kind] if kind else _BLOCK_KIND.get(b.kind, "paragraph"))
        last_gold = hits[-1]
    return labels
