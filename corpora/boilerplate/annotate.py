"""Main-text gold for shared pages that have none, by hand (``corpora/boilerplate/README.md``).

    python corpora/boilerplate/annotate.py dump  [--corpora .cache/corpora] [--corpus modern] OUT_DIR
    python corpora/boilerplate/annotate.py gold  [--corpora .cache/corpora] [--corpus modern] RANGES_DIR

``dump`` writes, for every page of the corpus without a shared gold file, the units the
gate labels (the structure step's blocks cut by the unit rules, as ``kitten train
boilerplate`` sees them), one per line: ``number <TAB> kind <TAB> text`` (cut at 400
characters), with the page's file, URL, title and language above. An annotator reads
each page and writes ``RANGES_DIR/<page>.txt``: the numbers of the main text's units,
one number or range (``7-41``) per line, ``#`` lines for notes (the guidelines are in
the README).

``gold`` turns those files into gold texts, ``corpora/boilerplate/gold/<corpus>/<page>.txt``:
the listed units' whole texts, one paragraph each, blank lines between (the plain gold
format). Training aligns them back to the units (``kitten/boilerplate/align.py``) like
any gold, so the gold stays valid when the unit rules change. The unit count of each
page is checked against the dump's (a change of the structure step between dump and
gold is an error, not a shifted gold).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from kitten.config import Config  # noqa: E402
from kitten.evaluation.gold import corpus_pages  # noqa: E402
from kitten.train.boilerplate import page_units  # noqa: E402

GOLD = ROOT / "corpora" / "boilerplate" / "gold"
CUT = 400
_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+))?\s*$")


def _meta(corpora: Path, corpus: str) -> dict[str, dict]:
    listing = corpora / corpus / "snippets.jsonl"
    if not listing.is_file():
        return {}
    return {r["file"]: r for r in map(json.loads, listing.read_text(encoding="utf-8").splitlines())}


def dump(corpora: Path, corpus: str, out: Path) -> int:
    config = Config()
    meta = _meta(corpora, corpus)
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for name, path, gold in corpus_pages(corpora, corpus):
        if gold is not None:
            continue
        r = meta.get(name, {})
        lines = [f"# page: {path}", f"# url: {r.get('url')}", f"# title: {r.get('title')}",
                 f"# lang: {r.get('lang')}", "# unit<TAB>kind<TAB>text (long texts cut at 400 chars)"]
        for i, u in enumerate(page_units(path.read_bytes(), config)):
            text = " ".join(u.text().split())
            lines.append(f"{i}\t{u.kind}\t{text if len(text) <= CUT else text[:CUT] + ' […]'}")
        (out / f"{path.stem}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        n += 1
    print(f"{n} pages dumped to {out}")
    return 0


def parse_ranges(text: str) -> list[int]:
    """The unit numbers of a ranges file.

    >>> parse_ranges("3\\n7-9\\n# a note\\n")
    [3, 7, 8, 9]
    """
    out: list[int] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _RANGE.match(line)
        if not m:
            raise ValueError(f"not a number or range: {line!r}")
        a, b = int(m.group(1)), int(m.group(2) or m.group(1))
        out.extend(range(a, b + 1))
    return sorted(set(out))


def gold(corpora: Path, corpus: str, ranges: Path, dumps: Path | None = None) -> int:
    config = Config()
    folder = GOLD / corpus
    folder.mkdir(parents=True, exist_ok=True)
    n = 0
    for name, path, shared in corpus_pages(corpora, corpus):
        file = ranges / f"{path.stem}.txt"
        if shared is not None or not file.is_file():
            continue
        units = page_units(path.read_bytes(), config)
        if dumps is not None and (dumps / file.name).is_file():
            dumped = sum(1 for line in (dumps / file.name).read_text(encoding="utf-8").splitlines()
                         if not line.startswith("#"))
            if dumped != len(units):
                raise SystemExit(f"{name}: {len(units)} units now, {dumped} in the dump: dump again")
        numbers = parse_ranges(file.read_text(encoding="utf-8"))
        if numbers and numbers[-1] >= len(units):
            raise SystemExit(f"{file}: unit {numbers[-1]} of {len(units)}")
        text = "\n\n".join(" ".join(units[i].text().split()) for i in numbers)
        (folder / f"{path.stem}.txt").write_text(text + "\n" if text else "", encoding="utf-8")
        n += 1
    print(f"{n} gold files written to {folder}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=("dump", "gold"))
    ap.add_argument("folder", type=Path, help="dump: where the dumps go; gold: the ranges files")
    ap.add_argument("--corpora", type=Path, default=ROOT / ".cache" / "corpora")
    ap.add_argument("--corpus", default="modern")
    ap.add_argument("--dumps", type=Path, help="gold: the dumps, to check the unit counts")
    args = ap.parse_args(argv)
    if args.command == "dump":
        return dump(args.corpora, args.corpus, args.folder)
    return gold(args.corpora, args.corpus, args.folder, args.dumps)


if __name__ == "__main__":
    raise SystemExit(main())
