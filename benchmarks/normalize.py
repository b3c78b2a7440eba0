"""Speed of the normalize step next to parsing alone, on one core.

    python benchmarks/normalize.py [--corpora .cache/corpora] [--per-corpus 200] [--repeat 3]

Prints MB/s (of decoded text, UTF-8 bytes) and docs/s for:
- kitten normalize: decoded text -> XHTML string (parse with lexbor + DTD-driven writer);
- kitten decode+normalize: bytes -> XHTML (what ``kitten normalize`` does per page);
- lexbor parse alone, lxml.html parse alone, html5lib parse alone (html5lib on a
  subset: it is ~100x slower), on the same pages, in the same run.
Each is the best of ``--repeat`` runs after a warm-up.
"""
from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _pages import DEFAULT_CORPORA, benchmark_pages  # noqa: E402


def measure(fn, items, repeat: int) -> float:
    fn(items[0])  # warm-up
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for it in items:
            fn(it)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA)
    ap.add_argument("--per-corpus", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--html5lib-pages", type=int, default=40)
    args = ap.parse_args()

    import html5lib
    import lxml.html
    from selectolax.lexbor import LexborHTMLParser

    from kitten.config import Config
    from kitten.log import PageLog
    from kitten.normalizer import to_xhtml
    from kitten.normalizer.encoding import decode

    config = Config()
    pages = benchmark_pages(args.corpora, args.per_corpus)
    raw = [data for _, data in pages]
    texts = [decode(data, config.decode, PageLog()).text for data in raw]
    text_mb = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    raw_mb = sum(len(b) for b in raw) / 1e6

    def kitten_normalize(text):
        to_xhtml(text, config.normalize, PageLog())

    def kitten_bytes(data):
        to_xhtml(decode(data, config.decode, PageLog()).text, config.normalize, PageLog())

    def lxml_parse(text):
        if text.strip():
            lxml.html.document_fromstring(text.encode("utf-8"), parser=lxml.html.HTMLParser(encoding="utf-8"))

    rows = [
        ("kitten normalize (str -> XHTML)", measure(kitten_normalize, texts, args.repeat), len(texts), text_mb),
        ("kitten decode+normalize (bytes)", measure(kitten_bytes, raw, args.repeat), len(raw), raw_mb),
        ("lexbor parse alone", measure(LexborHTMLParser, texts, args.repeat), len(texts), text_mb),
        ("lxml.html parse alone", measure(lxml_parse, texts, args.repeat), len(texts), text_mb),
    ]
    sub = texts[: args.html5lib_pages]
    sub_mb = sum(len(t.encode("utf-8")) for t in sub) / 1e6
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows.append(("html5lib parse alone", measure(lambda t: html5lib.parse(t, treebuilder="etree"), sub, 1),
                     len(sub), sub_mb))
    print(f"{len(pages)} pages ({raw_mb:.1f} MB raw, {text_mb:.1f} MB decoded), one core, best of {args.repeat}")
    print(f"{'':34s} {'MB/s':>8s} {'docs/s':>9s}")
    for name, seconds, n, mb in rows:
        print(f"{name:34s} {mb / seconds:8.1f} {n / seconds:9.1f}")


if __name__ == "__main__":
    main()
