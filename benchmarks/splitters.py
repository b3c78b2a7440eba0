#!/usr/bin/env python
"""Speed of Kitten's sentence splitter beside the maintained ones, on the texts it splits.

    python benchmarks/splitters.py [--corpora .cache/corpora] [--per-corpus 200] [--rounds 3]

The texts are those Kitten's splitter is given on the 400 benchmark pages (the segments of
their blocks that hold an end mark before their last character), collected by running
Kitten once. Each splitter (Kitten's ``Splitter``, pysbd, sentencex, syntok, blingfire:
the ``bench`` extra) splits all of them; printed: CPU seconds (best of ``--rounds``),
characters per second, sentences found, and how many texts each splits exactly as
Kitten does. Quality is measured by ``benchmarks/segmentation.py --systems
kitten,kitten-pysbd,...`` (the same splitters inside Kitten, scored against the gold).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _pages import DEFAULT_CORPORA, benchmark_pages  # noqa: E402
import peers  # noqa: E402

SPLITTERS = ("pysbd", "sentencex", "syntok", "blingfire")


def collect(corpora: Path, per_corpus: int) -> list[str]:
    """The texts Kitten's splitter is asked to split on the benchmark pages."""
    import kitten
    from kitten.segment import Splitter

    texts: list[str] = []
    original = Splitter.spans

    def recording(self: Splitter, text: str) -> list[tuple[int, int]]:
        texts.append(text)
        return original(self, text)

    with peers.splitter_replaced(recording):
        for _, data in benchmark_pages(corpora, per_corpus):
            kitten.extract(data)
    return texts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA)
    ap.add_argument("--per-corpus", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    from kitten.segment import Splitter, abbreviations

    texts = collect(args.corpora, args.per_corpus)
    chars = sum(map(len, texts))
    print(f"{len(texts)} texts, {chars / 1e6:.1f} M characters (the segments Kitten splits on "
          f"{2 * args.per_corpus} benchmark pages); English rules\n")
    kitten_splitter = Splitter("en", abbreviations("", "en"))
    splitters = {"kitten": kitten_splitter.spans}
    for name in SPLITTERS:
        try:
            splitters[name] = getattr(peers, f"_split_{name}")()
        except ImportError as e:
            print(f"{name}: not installed ({e.name}); pip install -e '.[bench]'")
    reference = [kitten_splitter.spans(text) for text in texts]
    print(f"{'splitter':<12}{'CPU s':>8}{'chars/s':>12}{'sentences':>11}{'same as kitten':>16}")
    for name, split in splitters.items():
        best = float("inf")
        for _ in range(args.rounds if name in ("kitten", "blingfire") else 1):
            start = time.process_time()
            result = [split(text) for text in texts]
            best = min(best, time.process_time() - start)
        same = sum(a == b for a, b in zip(result, reference))
        print(f"{name:<12}{best:>8.2f}{chars / best:>12,.0f}{sum(map(len, result)):>11}"
              f"{f'{same} ({100 * same / len(texts):.0f}%)':>16}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
