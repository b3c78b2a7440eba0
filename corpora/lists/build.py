"""Annotated lists of the shared corpora: pick candidates, show them for review, check the rules.

    python corpora/lists/build.py candidates --tsv /tmp/candidates.tsv [--seed 5] > /tmp/review.txt
        every list of every page is read by the rules; a stratified sample (by the type
        the rules suggest, all French lists added) is written to the TSV with the
        suggestion as the expected treatment, and a review sheet (clause, items, output)
        is printed for judging each list by hand (annotations.tsv was made so).
    python corpora/lists/build.py show PAGE LOCATOR
        the review view of one list (PAGE as corpus/relative path).
    python corpora/lists/build.py removed OUT/kitten-removed-links.tsv [--top 50]
                                          [--sample 200 --seed 7 --out removed-sample.tsv]
        the most frequent removed link items of a batch (``kitten extract DIR -o OUT``),
        and a random sample of removed items to review one by one (column judgement:
        "none" when the item carried no sentence worth keeping, "sentence" otherwise).
    python corpora/lists/build.py removed-check
        the share of reviewed removed items that carried no sentence worth keeping
        (target >= 98%).
    python corpora/lists/build.py check [-v]
        the rules against annotations.tsv: on how many lists they choose the annotated
        treatment (target >= 95%), the confusions, and stale records (a list whose
        locator or fingerprint no longer matches the page).

``annotations.tsv`` columns: page (corpus/relative path under .cache/corpora/<corpus>/html),
locator (of the list element, as ``kitten.document.locator_of``), fingerprint (first 12 hex
of the SHA-1 of the list element's text, white space collapsed), lang (of the page, as
Kitten reads it), clause (the introductory clause, "" when none), expected (one of
``kitten.lists.TYPES``), suggested (what the rules said when the list was picked), note.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import random
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from kitten.config import Config
from kitten.lists import TYPES, item_of, link_letters
from kitten.page import Page
from kitten.pipeline import run_page

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CORPORA = ROOT / ".cache" / "corpora"
ANNOTATIONS = HERE / "annotations.tsv"
CORPUS_NAMES = ("cleaneval-final", "cleaneval-dev", "dragnet", "readability", "cleanportaleval")
FIELDS = ("page", "locator", "fingerprint", "lang", "clause", "expected", "suggested", "note")
#: how many lists of each suggested type the sample takes (all French lists come on top)
QUOTAS = {"link": 45, "plain": 35, "nested": 20, "definition": 22, "flattened-sentence": 25,
          "flattened-items": 22, "repeated-clause": 25}
TARGET = 0.95
REMOVED_SAMPLE = HERE / "removed-sample.tsv"
REMOVED_TARGET = 0.98
#: the pipeline the annotations are checked with: the tables step off, so that the list
#: records do not depend on the table classifier (a list inside a data table is rare)
CONFIG = Config.from_dict({"tables": {"enabled": False}})


def fingerprint(element) -> str:
    """First 12 hex digits of the SHA-1 of the element's text, white space collapsed."""
    text = " ".join("".join(element.itertext()).split())
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


@dataclass
class PageLists:
    """A page read by the pipeline: its lists' readings and what the review needs."""

    page: str
    lang: str
    readings: list
    before: list  # blocks of the structure step
    sentences: list  # final sentences


def read_page(corpora: Path, page: str, config: Config | None = None) -> PageLists | None:
    corpus, rel = page.split("/", 1)
    path = corpora / corpus / "html" / rel
    result = run_page(Page(data=path.read_bytes(), name=page), config or CONFIG, "text")
    if result.status != "done":
        return None
    doc = result.products["structure"]
    return PageLists(page, doc.lang, result.products["lists"], doc.blocks, result.products["segment"])


def pages(corpora: Path) -> list[str]:
    out = []
    for name in CORPUS_NAMES:
        folder = corpora / name / "html"
        out += [f"{name}/{p.relative_to(folder)}" for p in sorted(folder.rglob("*")) if p.is_file()]
    return out


# --------------------------------------------------------------------------- review view


def _short(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _within(el, ancestor) -> bool:
    return el is ancestor or any(a is ancestor for a in el.iterancestors())


def review(pl: PageLists, reading, number: int = 0) -> str:
    """The list in words: context before, items (L = made only of links), context after,
    the sentences the rules wrote."""
    el = reading.element
    idx = [i for i, b in enumerate(pl.before) if b.source is not None and _within(b.source, el)]
    lines = [f"### {number} {pl.page} {reading.locator} lang={pl.lang} tag={reading.tag} "
             f"fp={fingerprint(el)}",
             f"suggested: {reading.type} ({reading.rule})"]
    if idx:
        first, last = idx[0], idx[-1]
        if first > 0:
            lines.append(f"before: {_short(pl.before[first - 1].text(), 220)!r}")
        shown = 0
        links: dict = {}
        for i in idx:
            b = pl.before[i]
            item = item_of(b.source, b.group)
            if item not in links:
                links[item] = link_letters(item).only()
            depth = "  " if b.group is el else "    > "
            if shown < 12:
                lines.append(f"  {depth}[{'L' if links[item] else ' '}] {_short(b.text(), 110)}")
            shown += 1
        if shown > 12:
            lines.append(f"  ... {shown - 12} more blocks")
        if last + 1 < len(pl.before):
            lines.append(f"after: {_short(pl.before[last + 1].text(), 120)!r}")
    out = [s.text for s in pl.sentences if s.block.source is el]
    for s in out[:6]:
        lines.append(f"  => {_short(s, 300)}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- candidates


def candidates(corpora: Path, seed: int) -> list[tuple[str, str]]:
    """A stratified sample of lists, as (page, locator): QUOTAS by suggested type (at most
    one list of a type per page; lists with a clause: one per page and clause, and one
    per clause text), plus every list of French pages."""
    pool: dict[str, list] = defaultdict(list)
    chosen = []
    for page in pages(corpora):
        pl = read_page(corpora, page)
        if pl is None:
            continue
        for r in pl.readings:
            if pl.lang == "fr":
                chosen.append((page, r.locator))
            else:
                pool[r.type].append((page, r.locator, r.clause))
    rng = random.Random(seed)
    for type_, quota in QUOTAS.items():
        items = pool[type_]
        rng.shuffle(items)
        taken: set = set()
        n = 0
        for page, locator, clause in items:
            keys = [(page, clause or type_)] + ([("clause", clause)] if clause else [])
            if any(k in taken for k in keys):
                continue
            taken.update(keys)
            chosen.append((page, locator))
            n += 1
            if n == quota:
                break
    return chosen


def write_tsv(path: Path, rows: list[dict]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, FIELDS, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_NONE,
                           escapechar="\\")
        w.writeheader()
        for row in rows:
            w.writerow({k: " ".join(str(row.get(k, "")).split()) for k in FIELDS})


# --------------------------------------------------------------------------- check


@dataclass
class CheckResult:
    total: int
    agree: int
    stale: list[str]
    confusions: Counter
    misses: list[str]

    @property
    def rate(self) -> float:
        return self.agree / self.total if self.total else 0.0


def check(corpora: Path, annotations: Path = ANNOTATIONS, config: Config | None = None) -> CheckResult:
    """Run the rules on every annotated page and compare each list's type."""
    # a row whose note starts "[retired" names a list the pipeline no longer reads (its
    # container is left out as hidden): kept for the record, not checked
    rows = [r for r in read_rows(annotations) if not r["note"].startswith("[retired")]
    by_page: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_page[row["page"]].append(row)
    agree, stale, misses = 0, [], []
    confusions: Counter = Counter()
    for page, page_rows in by_page.items():
        pl = read_page(corpora, page, config)
        readings = {r.locator: r for r in pl.readings} if pl else {}
        for row in page_rows:
            r = readings.get(row["locator"])
            if r is None or fingerprint(r.element) != row["fingerprint"]:
                stale.append(f"{page} {row['locator']}")
                continue
            if r.type == row["expected"]:
                agree += 1
            else:
                confusions[(row["expected"], r.type)] += 1
                misses.append(f"{page} {row['locator']}: expected {row['expected']}, rules {r.type} "
                              f"({row['note']})")
    return CheckResult(len(rows), agree, stale, confusions, misses)


def removed_items(path: Path) -> list[tuple[str, str, str]]:
    """(page, list locator, item text) of a batch's removal log."""
    with open(path, encoding="utf-8") as fh:
        return [tuple(line.rstrip("\n").split("\t", 2)) for line in fh if line.strip()]


def removed_report(path: Path, top: int, sample: int, seed: int, out: Path | None) -> None:
    items = removed_items(path)
    counts = Counter(text for _, _, text in items)
    pages = len({page for page, _, _ in items})
    print(f"{len(items)} removed link items ({len(counts)} distinct) on {pages} pages; top {top}:")
    for text, n in counts.most_common(top):
        print(f"  {n:6d}  {text}")
    if out is not None:
        chosen = random.Random(seed).sample(items, min(sample, len(items)))
        with open(out, "w", encoding="utf-8", newline="") as fh:
            w = csv.writer(fh, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_NONE, escapechar="\\")
            w.writerow(("page", "locator", "text", "judgement", "note"))
            for page, locator, text in chosen:
                w.writerow((page, locator, text, "", ""))
        print(f"sample of {len(chosen)} (seed {seed}) written to {out}")


def removed_check(path: Path = REMOVED_SAMPLE) -> tuple[int, int]:
    """(items judged "none", items judged) of the reviewed sample."""
    rows = read_rows(path)
    judged = [r for r in rows if r["judgement"] in ("none", "sentence")]
    return sum(r["judgement"] == "none" for r in judged), len(judged)


def read_rows(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE, escapechar="\\"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpora", type=Path, default=CORPORA)
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("candidates")
    c.add_argument("--seed", type=int, default=5)
    c.add_argument("--tsv", type=Path, required=True, help="where the candidate records go")
    s = sub.add_parser("show")
    s.add_argument("page")
    s.add_argument("locator")
    k = sub.add_parser("check")
    k.add_argument("-v", "--verbose", action="store_true")
    r = sub.add_parser("removed")
    r.add_argument("tsv", type=Path)
    r.add_argument("--top", type=int, default=50)
    r.add_argument("--sample", type=int, default=200)
    r.add_argument("--seed", type=int, default=7)
    r.add_argument("--out", type=Path)
    sub.add_parser("removed-check")
    args = ap.parse_args(argv)
    if args.command == "removed":
        removed_report(args.tsv, args.top, args.sample, args.seed, args.out)
        return 0
    if args.command == "removed-check":
        good, total = removed_check()
        print(f"{good}/{total} = {100 * good / total:.1f}% of the reviewed removed items carried no sentence "
              f"worth keeping (target {100 * REMOVED_TARGET:.0f}%)")
        return 0 if good >= REMOVED_TARGET * total else 1
    if not args.corpora.is_dir():
        print(f"no corpora in {args.corpora}", file=sys.stderr)
        return 2
    if args.command == "candidates":
        rows = []
        by_page: dict[str, list[str]] = defaultdict(list)
        for page, locator in candidates(args.corpora, args.seed):
            by_page[page].append(locator)
        n = 0
        for page, locators in by_page.items():
            pl = read_page(args.corpora, page)
            readings = {r.locator: r for r in pl.readings}
            for locator in locators:
                r = readings[locator]
                n += 1
                print(review(pl, r, n), end="\n\n")
                rows.append({"page": page, "locator": locator, "fingerprint": fingerprint(r.element),
                             "lang": pl.lang, "clause": r.clause, "expected": r.type, "suggested": r.type,
                             "note": ""})
        write_tsv(args.tsv, rows)
        print(f"{len(rows)} candidates written to {args.tsv}", file=sys.stderr)
        return 0
    if args.command == "show":
        pl = read_page(args.corpora, args.page)
        for r in pl.readings if pl else []:
            if r.locator == args.locator:
                print(review(pl, r))
                return 0
        print("no such list", file=sys.stderr)
        return 1
    result = check(args.corpora)
    by_lang = Counter(row["lang"] for row in read_rows(ANNOTATIONS))
    by_type = Counter(row["expected"] for row in read_rows(ANNOTATIONS))
    print(f"{result.total} annotated lists ({', '.join(f'{k} {v}' for k, v in by_lang.most_common())}; "
          f"{', '.join(f'{t} {by_type[t]}' for t in TYPES)})")
    print(f"rules choose the annotated treatment on {result.agree}/{result.total} = {100 * result.rate:.1f}% "
          f"(target {100 * TARGET:.0f}%); stale records: {len(result.stale)}")
    for (exp, got), n in result.confusions.most_common():
        print(f"  expected {exp}, rules {got}: {n}")
    if args.verbose:
        for line in result.misses + [f"stale: {s}" for s in result.stale]:
            print("  " + line)
    return 0 if result.rate >= TARGET and not result.stale else 1


if __name__ == "__main__":
    sys.exit(main())
