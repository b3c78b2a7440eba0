"""``kitten eval``: score output folders against a gold folder, side by side.

The evaluation framework of Kovačič (2012), GUIDE section 3. Each output folder is a
*system* (Kitten in some configuration, or any other extractor) holding one text
file per page, ``<base name>.txt``, the base name of the page's gold file (found
anywhere below the folder, so ``kitten extract corpus/html -o OUT`` and
``kitten extract corpus -o OUT`` both work). A gold folder holds ``<base name>.txt``
gold files in one of the formats of :mod:`kitten.evaluation.gold` (CLEANEVAL,
Dragnet with its comment delimiters, Readability HTML), chosen by ``--corpus`` or
guessed from the folder's name and files.

Every system is scored on the same documents (the gold files, or those named by a
page list) with the SOW token overlap of :mod:`kitten.evaluation.overlap`: per
document P, R, F1 and its boundary case (``failed`` when the system has no output
file for the page), then the means and case counts of :func:`summarize`.

An output file in the CLEANEVAL format (``kitten extract --format cleaneval``: a
``URL:`` line, ``<p>``/``<h>``/``<l>`` markers) is read with the CLEANEVAL reader, so
its URL line and markers are not counted as tokens.

>>> system_names([Path("a/kitten"), Path("b/kitten"), Path("b/trafilatura")])
['a/kitten', 'b/kitten', 'trafilatura']
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable, Sequence

from kitten.evaluation.gold import (
    GOLD_FORMATS,
    Gold,
    decode_gold,
    guess_format,
    looks_cleaneval,
    natural_key,
    parse_cleaneval,
)
from kitten.evaluation.overlap import OverlapScore, OverlapSummary, overlap_tokens, summarize, tokenize
from kitten.io.files import atomic_write, output_stem

__all__ = [
    "EvalError",
    "GoldSet",
    "SystemReport",
    "Report",
    "CASES",
    "load_gold",
    "read_page_list",
    "read_output",
    "output_files",
    "score_system",
    "evaluate",
    "system_names",
    "format_table",
    "report_dict",
    "run",
]

#: The boundary cases in the order the table prints them, with their column titles.
CASES: dict[str, str] = {
    "ok": "ok",
    "no_overlap": "no overlap",
    "gold_empty": "gold empty",
    "output_empty": "out empty",
    "both_empty": "both empty",
    "failed": "failed",
}
GOLD_SUFFIX = OUTPUT_SUFFIX = ".txt"
FORMAT_CHOICES = (*GOLD_FORMATS, "auto")


class EvalError(Exception):
    """An input ``kitten eval`` cannot use (missing folder, empty gold, bad page list)."""


# --------------------------------------------------------------------------- gold


@dataclass(frozen=True)
class GoldSet:
    """The documents every system is scored on: ``golds`` (base name -> gold, in
    natural order) and their tokens, read once."""

    folder: Path
    corpus: str  # the shared corpus name of the folder (``cleaneval-final`` ...)
    format: str  # cleaneval, dragnet or readability
    golds: dict[str, Gold]
    tokens: dict[str, list[str]]
    pages_file: Path | None = None
    unmatched: tuple[str, ...] = ()  # listed pages of this corpus without a gold file


def corpus_name(folder: Path) -> str:
    """``.../cleaneval-final/gold`` -> ``cleaneval-final``; any other folder: its name."""
    folder = Path(os.path.abspath(folder))
    return folder.parent.name if folder.name == "gold" else folder.name


def _txt_files(folder: Path) -> Iterable[Path]:
    """``.txt`` files below ``folder`` (hidden entries skipped), sorted."""
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(OUTPUT_SUFFIX) and not name.startswith("."):
                yield Path(dirpath) / name


def read_page_list(path: Path, corpus: str) -> set[str]:
    """The base names of the pages of ``corpus`` that a page list names.

    One page path a line (``cleaneval-final/html/67.html``: a path under the corpora
    root, its first part the corpus; blank lines and ``#`` comments skipped); a line
    of one part (``67.html``) names that page in any corpus. Raises :class:`EvalError`
    when the file is missing or names no page of ``corpus``.
    """
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise EvalError(f"cannot read the page list {path}: {exc.strerror or exc}") from None
    names: set[str] = set()
    corpora: set[str] = set()
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = Path(line).parts
        if len(parts) > 1:
            corpora.add(parts[0])
            if parts[0] != corpus:
                continue
        names.add(output_stem(Path(parts[-1])).name)
    if not names:
        known = f" (it names pages of: {', '.join(sorted(corpora))})" if corpora else ""
        raise EvalError(f"the page list {path} names no page of corpus {corpus!r}{known}")
    return names


def load_gold(folder: Path, fmt: str = "auto", pages_file: Path | None = None) -> GoldSet:
    """Read the gold files of ``folder`` (a corpus folder with a ``gold/`` subfolder
    also works), in format ``fmt`` (``auto``: :func:`guess_format`), restricted to
    the pages of ``pages_file`` if given."""
    folder = Path(folder)
    if not folder.is_dir():
        raise EvalError(f"no such gold folder: {folder}")
    if not any(folder.glob("*" + GOLD_SUFFIX)) and (folder / "gold").is_dir():
        folder = folder / "gold"
    paths = {p.stem: p for p in sorted(folder.glob("*" + GOLD_SUFFIX), key=natural_key)}
    if not paths:
        raise EvalError(f"no gold file (*{GOLD_SUFFIX}) in {folder}")
    corpus = corpus_name(folder)
    unmatched: tuple[str, ...] = ()
    if pages_file is not None:
        listed = read_page_list(pages_file, corpus)
        unmatched = tuple(sorted(listed - paths.keys()))
        paths = {stem: p for stem, p in paths.items() if stem in listed}
    texts = {stem: decode_gold(p.read_bytes()) for stem, p in paths.items()}
    if fmt == "auto":
        fmt = guess_format(corpus, list(texts.values())[:50])
    try:
        parse = GOLD_FORMATS[fmt]
    except KeyError:
        raise EvalError(f"unknown gold format {fmt!r}; known: {', '.join(GOLD_FORMATS)}") from None
    golds = {stem: parse(text) for stem, text in texts.items()}
    return GoldSet(folder, corpus, fmt, golds, {s: tokenize(g.text) for s, g in golds.items()},
                   Path(pages_file) if pages_file is not None else None, unmatched)


# --------------------------------------------------------------------------- systems


def read_output(path: Path) -> str:
    """An output file's text: decoded like a gold file; the URL line and block
    markers of a CLEANEVAL-format file are left out."""
    text = decode_gold(Path(path).read_bytes())
    return parse_cleaneval(text).text if looks_cleaneval(text) else text


def output_files(folder: Path, wanted: Iterable[str]) -> dict[str, Path]:
    """The output file of each wanted base name found below ``folder``. Raises
    :class:`EvalError` when the folder is missing or two files claim one wanted name."""
    folder = Path(folder)
    if not folder.is_dir():
        raise EvalError(f"no such output folder: {folder}")
    wanted = set(wanted)
    found: dict[str, Path] = {}
    for path in _txt_files(folder):
        stem = path.name[: -len(OUTPUT_SUFFIX)]
        if stem not in wanted:
            continue
        if stem in found:
            raise EvalError(f"two outputs for page {stem!r} in {folder}: {found[stem]} and {path}")
        found[stem] = path
    return found


def _tokens(text: str | None) -> list[str] | None:
    return None if text is None else tokenize(text)


@dataclass(frozen=True)
class SystemReport:
    """One system's scores: per document (in the gold's order) and summarized."""

    name: str
    folder: Path
    scores: list[tuple[str, OverlapScore]]
    summary: OverlapSummary


def score_system(folder: Path, gold: GoldSet, name: str | None = None) -> SystemReport:
    """Score the output folder of one system on every document of ``gold``."""
    files = output_files(folder, gold.golds)
    scores = [(page, overlap_tokens(tokens, _tokens(read_output(files[page])) if page in files else None))
              for page, tokens in gold.tokens.items()]
    return SystemReport(name or Path(folder).name, Path(folder), scores, summarize(s for _, s in scores))


def system_names(folders: Sequence[Path]) -> list[str]:
    """Short unique names: the folder's name, with as many parents as it takes to tell
    two systems apart (``a/kitten``, ``b/kitten``)."""
    parts = [Path(os.path.abspath(f)).parts for f in folders]
    depth = [1] * len(folders)
    while True:
        names = ["/".join(p[-d:]) for p, d in zip(parts, depth)]
        clashing = [i for i, n in enumerate(names) if names.count(n) > 1 and depth[i] < len(parts[i])]
        if not clashing:
            return names
        for i in clashing:
            depth[i] += 1


@dataclass(frozen=True)
class Report:
    gold: GoldSet
    systems: list[SystemReport]


def evaluate(outputs: Sequence[Path], gold_dir: Path, fmt: str = "auto",
             pages_file: Path | None = None) -> Report:
    """Score every output folder against the gold folder (the ``kitten eval`` command)."""
    for folder in outputs:  # fail on a missing folder before reading anything
        if not Path(folder).is_dir():
            raise EvalError(f"no such output folder: {folder}")
    gold = load_gold(gold_dir, fmt, pages_file)
    names = system_names(outputs)
    return Report(gold, [score_system(f, gold, n) for f, n in zip(outputs, names)])


# --------------------------------------------------------------------------- output


def format_table(report: Report) -> str:
    """The summary table: one row per system (means, then each boundary case's count),
    with a heading that says what was scored and a note on the means."""
    g = report.gold
    listed = f", pages listed in {g.pages_file}" if g.pages_file else ""
    lines = [f"{len(g.golds)} documents of {g.corpus} (gold format {g.format}: {g.folder}{listed})"]
    width = max([len("system"), *(len(s.name) for s in report.systems)])
    head = f"{'system':<{width}}  {'P':>6} {'R':>6} {'F1':>6} {'F1 all':>7}" + "".join(
        f" {title:>{max(len(title), 4)}}" for title in CASES.values())
    lines += [head, "-" * len(head)]
    for s in report.systems:
        m = s.summary
        row = f"{s.name:<{width}}  {m.precision:6.3f} {m.recall:6.3f} {m.f1:6.3f} {m.f1_all:7.3f}"
        row += "".join(f" {m.cases.get(case, 0):>{max(len(title), 4)}}" for case, title in CASES.items())
        lines.append(row)
    lines.append("P, R, F1: means over the documents where gold and output both have tokens (ok, no overlap); "
                 "F1 all: mean over every document (both empty 1, failed and other empty cases 0); "
                 "failed: no output file.")
    return "\n".join(lines) + "\n"


def report_dict(report: Report) -> dict:
    """Everything, per document included, as JSON-ready data."""
    g = report.gold
    return {
        "gold": str(g.folder),
        "corpus": g.corpus,
        "format": g.format,
        "pages_file": str(g.pages_file) if g.pages_file else None,
        "documents": len(g.golds),
        "systems": [{
            "name": s.name,
            "folder": str(s.folder),
            "summary": asdict(s.summary),
            "documents": [{"page": page, **asdict(score)} for page, score in s.scores],
        } for s in report.systems],
    }


# --------------------------------------------------------------------------- command


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``kitten eval``."""
    p.add_argument("outputs", nargs="+", metavar="OUTPUT_DIR",
                   help="output folders, one per system: <gold base name>.txt files (found recursively)")
    p.add_argument("--gold", required=True, type=Path, metavar="GOLD_DIR",
                   help="folder of gold files <base name>.txt (or a corpus folder with gold/)")
    p.add_argument("--corpus", choices=FORMAT_CHOICES, default="auto",
                   help="gold format (default auto: by the corpus name of the folder, else its files)")
    p.add_argument("--pages", type=Path, metavar="LIST",
                   help="score only these pages: one path a line under the corpora root "
                        "(e.g. corpora/boilerplate/heldout.txt), matched by base name within the gold's corpus")
    p.add_argument("--histograms", type=Path, metavar="DIR",
                   help="write <system>.svg per system: histograms of per-document F1, P and R")
    p.add_argument("--json", type=Path, metavar="FILE", help="write every per-document score as JSON")


def run(args: argparse.Namespace) -> int:
    """``kitten eval``: print the table; 2 (with a message) for unusable input."""
    try:
        report = evaluate(args.outputs, args.gold, args.corpus, args.pages)
    except EvalError as exc:
        print(f"kitten: {exc}", file=sys.stderr)
        return 2
    g = report.gold
    if g.unmatched:
        print(f"kitten: {len(g.unmatched)} listed pages of {g.corpus} have no gold file, not scored: "
              f"{', '.join(g.unmatched[:10])}{' ...' if len(g.unmatched) > 10 else ''}", file=sys.stderr)
    for s in report.systems:
        if s.summary.cases.get("failed", 0) == len(s.scores):
            print(f"kitten: {s.folder} has no output for any of the {len(s.scores)} documents "
                  f"(expected <gold base name>{OUTPUT_SUFFIX})", file=sys.stderr)
    sys.stdout.write(format_table(report))
    if args.json:
        atomic_write(args.json, json.dumps(report_dict(report), ensure_ascii=False, indent=1) + "\n")
    if args.histograms:
        from kitten.evaluation.histogram import write_histograms

        for path in write_histograms(report, args.histograms):
            print(f"histograms: {path}", file=sys.stderr)
    return 0
