"""Count issue 18's text defects on the shared corpora (run it on two checkouts to compare).

    python benchmarks/text_defects.py [--corpora .cache/corpora] [--every 1]
    PYTHONPATH=/path/to/other/checkout python benchmarks/text_defects.py   # another version

Per kind, over every ``--every``-th page of every shared corpus: default-ignorable
characters in the output (soft hyphen, zero-width space ...; ZWJ/ZWNJ not counted),
abbreviation expansions whose title is an ISO date or time, expansions repeated in a
page (pages with one, and expansions beyond the first), a full stop after 。, and lines
that are only an expansion in brackets (a logo ``<abbr>`` without text).
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("cleaneval-dev", "cleaneval-final", "dragnet", "cleanportaleval", "readability", "modern")
IGNORABLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b\u200e\u200f"
                       "\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8]")
ISO = re.compile(r"\(\d{4}-\d\d-\d\d(?:[T ][\d:.]+)?[^)]{0,8}\)$")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpora", type=Path, default=ROOT / ".cache" / "corpora")
    ap.add_argument("--every", type=int, default=1)
    args = ap.parse_args(argv)
    from kitten.config import Config
    from kitten.page import Page
    from kitten.pipeline import run_page

    pages = [p for n in NAMES for p in sorted((args.corpora / n / "html").iterdir())][::args.every]
    counts: Counter = Counter()
    for p in pages:
        r = run_page(Page(p.read_bytes(), p.name), Config(), "text")
        text = r.output or ""
        invisible = len(IGNORABLE.findall(text))
        counts["invisible characters"] += invisible
        counts["pages with invisible characters"] += bool(invisible)
        expanded = Counter(e.message for e in r.log if e.kind in ("abbr", "acronym"))
        counts["ISO date/time expansions"] += sum(n for m, n in expanded.items() if ISO.search(m))
        repeats = sum(n - 1 for n in expanded.values())
        counts["repeated expansions"] += repeats
        counts["pages with a repeated expansion"] += bool(repeats)
        counts["。."] += text.count("。.")
        titles = {m.rsplit(" (", 1)[1][:-1] for m in expanded if " (" in m}
        counts["expansion-only lines"] += sum(1 for line in text.splitlines()
                                              if line.startswith("(") and line.rstrip(".")[1:-1] in titles)
    import kitten

    print(f"{len(pages)} pages, kitten from {Path(kitten.__file__).parent}")
    for kind in ("invisible characters", "pages with invisible characters", "ISO date/time expansions",
                 "repeated expansions", "pages with a repeated expansion", "。.", "expansion-only lines"):
        print(f"  {kind:<34} {counts[kind]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
