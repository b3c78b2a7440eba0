"""Sentence segmentation quality against a gold with block structure.

GUIDE section 3. A parser reads punctuation, not layout, so the output text is
read as one line: every run of white space (newlines included) becomes one space,
and a standard splitter (pysbd, English, ``clean=False``) cuts it into sentences.
Output tokens are aligned to gold tokens (the tokenizer and the matching blocks of
:mod:`kitten.evaluation.overlap`); each token keeps its output sentence, and each
gold token its gold block and gold sentence (the gold blocks are split into
sentences with the same splitter, block by block). Then:

- a **missed boundary** is a pair of consecutive gold blocks whose joining tokens
  (last token of block *i*, first of block *i+1*) are both aligned and land in one
  output sentence; pairs whose first block ends with a colon, and pairs of items of
  the list such a block introduces, are counted apart (a
  flattened list joins them on purpose). Missed rate = missed / countable pairs.
- a **false boundary** is a sentence break between two consecutive aligned output
  tokens that are consecutive tokens of one gold sentence. False rate = false /
  such pairs.
- **long sentences**: the share of aligned tokens that sit in output sentences of
  more than 80 tokens.

The **floor** (:func:`floor_text`) scores the gold itself, one block per line with
a full stop added where a block lacks final punctuation: the splitter still misses
some boundaries and still finds long sentences, so an extractor is judged against
the floor, not against zero.

The splitter is a parameter (:data:`Splitter`: text -> offsets where a new sentence
starts) so tests can use a toy one and benchmarks can cache pysbd's answers;
:func:`pysbd_splitter` is the standard one (pysbd is imported only when it is made).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

import regex

from kitten.evaluation.gold import GoldBlock
from kitten.evaluation.overlap import matching_blocks, tokenize

__all__ = [
    "Splitter",
    "pysbd_splitter",
    "sentence_offsets",
    "collapse_whitespace",
    "floor_text",
    "GoldSide",
    "prepare_gold",
    "SegmentationScore",
    "SegmentationSummary",
    "score_segmentation",
    "score_output",
    "summarize_segmentation",
    "LONG_SENTENCE_TOKENS",
]

#: ``text -> offsets`` of the characters where a sentence other than the first
#: starts, ascending (``[]`` for one sentence or none).
Splitter = Callable[[str], Sequence[int]]

#: An output sentence of more tokens than this is "long".
LONG_SENTENCE_TOKENS = 80

_SPACES = regex.compile(r"\s+")
# A block "has final punctuation" when it ends with . ! ? or an ellipsis, maybe
# followed by closing quotes or brackets.
_FINAL_PUNCT = regex.compile(r"[.!?\u2026\u3002\uff01\uff1f][\"'\u2019\u201d\u00bb)\]]*\Z")


def collapse_whitespace(text: str) -> str:
    """Every run of white space (newlines included) to one space, ends stripped.

    >>> collapse_whitespace(" Title\\n\\nFirst  line\\tsecond ")
    'Title First line second'
    """
    return _SPACES.sub(" ", text).strip()


def sentence_offsets(text: str, sentences: Iterable[str]) -> list[int]:
    """Map a splitter's sentences back onto ``text``: the start offset of each sentence
    after the first. Sentences are searched in order from the end of the previous
    one (stripped of surrounding white space), so a splitter that drops or alters a
    little text (pysbd does, rarely) still yields boundaries at the right places;
    a sentence that cannot be found adds no boundary.

    >>> sentence_offsets("A b. C d. E.", ["A b. ", "C d. ", "E."])
    [5, 10]
    """
    offsets: list[int] = []
    pos = 0
    lead = len(text) - len(text.lstrip())
    for sentence in sentences:
        s = sentence.strip()
        if not s:
            continue
        at = text.find(s, pos)
        if at < 0:
            continue
        if at > lead and (not offsets or at > offsets[-1]):
            offsets.append(at)
        pos = at + len(s)
    return offsets


def pysbd_splitter(language: str = "en") -> Splitter:
    """The standard splitter: ``pysbd.Segmenter(language, clean=False)`` (imported
    here, so Kitten never needs pysbd at run time)."""
    import pysbd

    segmenter = pysbd.Segmenter(language=language, clean=False)

    def split(text: str) -> list[int]:
        if not text.strip():
            return []
        return sentence_offsets(text, segmenter.segment(text))

    return split


def floor_text(blocks: Sequence[GoldBlock] | Sequence[str]) -> str:
    """The gold rendered as the ideal linear extractor would: one block per line, a
    full stop added where a block lacks final punctuation.

    >>> floor_text([GoldBlock("h", "Title"), GoldBlock("p", "Done!"), GoldBlock("l", "Say (it.)")])
    'Title.\\nDone!\\nSay (it.)'
    """
    lines = []
    for block in blocks:
        text = collapse_whitespace(block if isinstance(block, str) else block.text)
        if not text:
            continue
        lines.append(text if _FINAL_PUNCT.search(text) else text + ".")
    return "\n".join(lines)


def _sentence_tokens(text: str, split: Splitter) -> tuple[list[str], list[int], list[int]]:
    """Tokens of ``text`` (split first), the sentence index of each, and the token
    count of each sentence."""
    tokens: list[str] = []
    sentence_of: list[int] = []
    lengths: list[int] = []
    bounds = [0, *split(text), len(text)]
    for n in range(len(bounds) - 1):
        part = tokenize(text[bounds[n]:bounds[n + 1]])
        if not part:
            continue
        index = len(lengths)
        lengths.append(len(part))
        tokens.extend(part)
        sentence_of.extend([index] * len(part))
    return tokens, sentence_of, lengths


@dataclass(frozen=True)
class GoldSide:
    """What the metric needs from a gold, computed once and reused for every
    extractor: the tokens of the non-empty blocks in order, each token's block and
    (global) gold sentence index, and for each block its first token and whether it
    ends with a colon."""

    tokens: list[str]
    block_of: list[int]
    sentence_of: list[int]
    block_starts: list[int]
    colon_ended: list[bool]
    #: the block is a list item (``<l>``) of a run introduced by a block ending with a
    #: colon: Kitten joins such a list on purpose, so pairs inside it count apart
    introduced_item: list[bool] = None  # type: ignore[assignment]

    @property
    def blocks(self) -> int:
        return len(self.block_starts)


def prepare_gold(blocks: Sequence[GoldBlock] | Sequence[str], split: Splitter) -> GoldSide:
    """Tokenize the gold blocks and split each into sentences with ``split``.

    >>> g = prepare_gold(["Intro:", "One. Two three"], lambda t: [t.find("Two")] if "Two" in t else [])
    >>> g.tokens, g.block_of, g.sentence_of, g.colon_ended
    (['intro', 'one', 'two', 'three'], [0, 1, 1, 1], [0, 1, 2, 2], [True, False])
    """
    tokens: list[str] = []
    block_of: list[int] = []
    sentence_of: list[int] = []
    block_starts: list[int] = []
    colon_ended: list[bool] = []
    introduced: list[bool] = []
    sentences = 0
    for block in blocks:
        text = collapse_whitespace(block if isinstance(block, str) else block.text)
        part, part_sentences, lengths = _sentence_tokens(text, split)
        if not part:
            continue
        index = len(block_starts)
        block_starts.append(len(tokens))
        is_item = not isinstance(block, str) and block.kind == "l"
        introduced.append(is_item and bool(colon_ended) and (colon_ended[-1] or introduced[-1]))
        colon_ended.append(text.endswith(":"))
        tokens.extend(part)
        block_of.extend([index] * len(part))
        sentence_of.extend(sentences + s for s in part_sentences)
        sentences += len(lengths)
    return GoldSide(tokens, block_of, sentence_of, block_starts, colon_ended, introduced)


@dataclass(frozen=True)
class SegmentationScore:
    """The segmentation counts of one output against one gold.

    ``boundary_pairs``: consecutive gold block pairs whose joining tokens are both
    aligned, the first block not ending with a colon; ``missed``: those whose
    joining tokens share an output sentence; ``colon_pairs``: aligned pairs left out
    because the first block ends with a colon; ``list_pairs``/``list_missed``: pairs of
    items of a list introduced by such a block (a flattened list joins them on purpose),
    counted apart too (the strict missed rate adds them back). ``within_pairs``: consecutive aligned
    output tokens that are consecutive tokens of one gold sentence; ``false``:
    those with a sentence break between them. ``long_tokens``: aligned tokens in
    output sentences of more than ``LONG_SENTENCE_TOKENS`` tokens. ``failed``: the
    extractor raised (everything else is 0).
    """

    gold_tokens: int
    output_tokens: int
    aligned_tokens: int
    sentences: int
    boundary_pairs: int
    missed: int
    colon_pairs: int
    within_pairs: int
    false: int
    long_tokens: int
    failed: bool = False
    list_pairs: int = 0
    list_missed: int = 0

    @property
    def missed_rate(self) -> float | None:
        return self.missed / self.boundary_pairs if self.boundary_pairs else None

    @property
    def strict_missed_rate(self) -> float | None:
        pairs = self.boundary_pairs + self.list_pairs
        return (self.missed + self.list_missed) / pairs if pairs else None

    @property
    def false_rate(self) -> float | None:
        return self.false / self.within_pairs if self.within_pairs else None

    @property
    def long_share(self) -> float | None:
        return self.long_tokens / self.aligned_tokens if self.aligned_tokens else None

    @property
    def coverage(self) -> float | None:
        return self.aligned_tokens / self.gold_tokens if self.gold_tokens else None


def score_output(gold: GoldSide, output: str | None, split: Splitter,
                 long_sentence: int = LONG_SENTENCE_TOKENS) -> SegmentationScore:
    """Score one output text (``None``: the extractor failed) against a prepared gold."""
    if output is None:
        return SegmentationScore(len(gold.tokens), 0, 0, 0, 0, 0, 0, 0, 0, 0, failed=True)
    tokens, out_sentence, lengths = _sentence_tokens(collapse_whitespace(output), split)
    g2o = [-1] * len(gold.tokens)
    o2g = [-1] * len(tokens)
    aligned = 0
    for i, j, k in matching_blocks(gold.tokens, tokens):
        for d in range(k):
            g2o[i + d] = j + d
            o2g[j + d] = i + d
        aligned += k

    pairs = missed = colon = list_pairs = list_missed = 0
    introduced = gold.introduced_item or [False] * gold.blocks
    for b in range(gold.blocks - 1):
        last = gold.block_starts[b + 1] - 1
        o1, o2 = g2o[last], g2o[last + 1]
        if o1 < 0 or o2 < 0:
            continue
        if gold.colon_ended[b]:
            colon += 1
            continue
        joined = out_sentence[o1] == out_sentence[o2]
        if introduced[b] and introduced[b + 1]:
            list_pairs += 1
            list_missed += joined
            continue
        pairs += 1
        missed += joined

    within = false = 0
    gold_sentence = gold.sentence_of
    for k in range(len(tokens) - 1):
        g = o2g[k]
        if g < 0 or o2g[k + 1] != g + 1 or gold_sentence[g] != gold_sentence[g + 1]:
            continue
        within += 1
        if out_sentence[k] != out_sentence[k + 1]:
            false += 1

    long_tokens = sum(1 for k in range(len(tokens)) if o2g[k] >= 0 and lengths[out_sentence[k]] > long_sentence)
    return SegmentationScore(
        gold_tokens=len(gold.tokens), output_tokens=len(tokens), aligned_tokens=aligned,
        sentences=len(lengths), boundary_pairs=pairs, missed=missed, colon_pairs=colon,
        within_pairs=within, false=false, long_tokens=long_tokens, list_pairs=list_pairs,
        list_missed=list_missed,
    )


def score_segmentation(blocks: Sequence[GoldBlock] | Sequence[str], output: str | None,
                       split: Splitter | None = None,
                       long_sentence: int = LONG_SENTENCE_TOKENS) -> SegmentationScore:
    """Score ``output`` against gold ``blocks`` in one call (``split`` defaults to
    :func:`pysbd_splitter`; when scoring several outputs against one gold, call
    :func:`prepare_gold` once and :func:`score_output` for each)."""
    split = split or pysbd_splitter()
    return score_output(prepare_gold(blocks, split), output, split, long_sentence)


@dataclass(frozen=True)
class SegmentationSummary:
    """Corpus totals (micro averages: sums of counts, then rates), the number of
    pages scored and of pages where the extractor failed or output nothing."""

    pages: int
    failed: int
    empty: int
    gold_tokens: int
    aligned_tokens: int
    boundary_pairs: int
    missed: int
    within_pairs: int
    false: int
    long_tokens: int
    list_pairs: int = 0
    list_missed: int = 0

    @property
    def missed_rate(self) -> float:
        return self.missed / self.boundary_pairs if self.boundary_pairs else 0.0

    @property
    def strict_missed_rate(self) -> float:
        """Missed boundaries counting the pairs inside colon-introduced lists too."""
        pairs = self.boundary_pairs + self.list_pairs
        return (self.missed + self.list_missed) / pairs if pairs else 0.0

    @property
    def false_rate(self) -> float:
        return self.false / self.within_pairs if self.within_pairs else 0.0

    @property
    def long_share(self) -> float:
        return self.long_tokens / self.aligned_tokens if self.aligned_tokens else 0.0

    @property
    def coverage(self) -> float:
        return self.aligned_tokens / self.gold_tokens if self.gold_tokens else 0.0


def summarize_segmentation(scores: Iterable[SegmentationScore]) -> SegmentationSummary:
    """Sum per-page scores into corpus rates.

    >>> s = summarize_segmentation([score_segmentation(["A b", "C d"], "A b C d", lambda t: [])])
    >>> s.missed, s.boundary_pairs, s.missed_rate
    (1, 1, 1.0)
    """
    pages = failed = empty = 0
    totals = dict(gold_tokens=0, aligned_tokens=0, boundary_pairs=0, missed=0,
                  within_pairs=0, false=0, long_tokens=0, list_pairs=0, list_missed=0)
    for s in scores:
        pages += 1
        failed += s.failed
        empty += not s.failed and not s.output_tokens
        for key in totals:
            totals[key] += getattr(s, key)
    return SegmentationSummary(pages=pages, failed=failed, empty=empty, **totals)
