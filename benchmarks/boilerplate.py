"""Main-content extraction on the held-out pages: Kitten beside the boilerplate removers.

    python benchmarks/boilerplate.py [--corpora .cache/corpora] [--out .cache/boilerplate-eval]
                                     [--jobs 2] [--systems kitten,readability,...] [--reuse-peers]
                                     [--limit N] [--corpora-list cleaneval-final,dragnet,readability,modern,cleanportaleval]

The pages are those of ``corpora/boilerplate/heldout.txt`` (never used to train the
boilerplate CRF; whole sites held out, see ``corpora/boilerplate/make_heldout.py``)
that have a gold file, scored per corpus: CLEANEVAL final, Dragnet, Readability,
modern (its pages with a full gold file: newspaper4k's expected texts, plain text) and
CleanPortalEval (news portals in several languages, CLEANEVAL-style gold).
Every system writes its output for each page to
``<out>/<corpus>/<system>/<page base name>.txt`` (nothing for a page where it
failed), then the folders are scored with the code of ``kitten eval`` (SOW token
overlap, GUIDE section 3; Dragnet gold: main content before the comment delimiter)
and one table per corpus is printed: mean P, R, F1 and the boundary cases; then
``modern-annotated``: the held-out modern pages whose gold was written by hand
(``corpora/boilerplate/gold/modern``, ``corpora/boilerplate/annotate.py``: 85 recent
pages of 74 sites, many languages), scored the same way, and scored as the trafilatura
project scores its evaluation: must-keep and must-drop snippets (each unit of six words
or more of those pages, in the gold or not: :func:`keep_drop_pages`) found or absent in
each system's output. The
per-document scores go to ``<out>/<corpus>/report.json`` and the histograms to
``<out>/<corpus>/histograms/<system>.svg``; the equivalent ``kitten eval`` command is
printed under each table.

Two tables follow:

- modern snippets: the systems also run on every modern page that has snippets
  (``with`` in ``snippets.jsonl``: the first words of the main text, asserted by
  Postlight Parser's tests), held out or not (the pages of training sites have a
  hand-annotated gold and are trained on: read the held-out column); per system the
  share of snippets found in its output
  (white space and punctuation ignored in both, entities of the snippet unescaped:
  :func:`snippet_found`), the pages with
  an empty output, and the same on the pages of held-out sites only;
- empty outputs: per corpus and system, the pages whose output is missing or blank
  among the pages whose gold is not.

Systems:

- Kitten, once per entry of :data:`KITTEN_CONFIGS` (arguments of ``kitten extract``):
  the default pipeline, ``kitten-crf`` (``--boilerplate crf``) and ``kitten-crf-article``
  (the gate without the headline and figure captions: ``gate_article.toml``).
- the peers of ``benchmarks/peers.py``: readability-lxml, trafilatura, jusText and
  resiliparse in main-content mode (the boilerplate removers), html-text and
  inscriptis (whole-page text: the precision floor).

The peers' outputs do not change from run to run: ``--reuse-peers`` keeps a peer's
folder when it was completed for the same pages (a ``.complete`` stamp in it), and
scores such folders even when ``--systems`` does not name the peer, so that
``--systems kitten-crf --reuse-peers`` after retraining the model reruns Kitten only
and still compares it with the peers.
"""
from __future__ import annotations

import argparse
import html
import json
import re
import multiprocessing as mp
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _pages import DEFAULT_CORPORA  # noqa: E402
from peers import load_peer, missing_reason, run_peer  # noqa: E402

from kitten.cli import main as kitten_main  # noqa: E402
from kitten.evaluation.histogram import write_histograms  # noqa: E402
from kitten.evaluation.report import (  # noqa: E402
    Report,
    evaluate,
    format_table,
    output_files,
    read_output,
    report_dict,
)
from kitten.io.files import atomic_write, output_stem  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HELDOUT = ROOT / "corpora" / "boilerplate" / "heldout.txt"
#: hand-annotated gold files of shared pages without one (``corpora/boilerplate/annotate.py``)
ANNOTATED = ROOT / "corpora" / "boilerplate" / "gold"
DEFAULT_OUT = DEFAULT_CORPORA.parent / "boilerplate-eval"
#: The corpora scored by default (``--corpora-list``).
CORPORA = ("cleaneval-final", "dragnet", "readability", "modern", "cleanportaleval")
#: The corpus whose ``snippets.jsonl`` gives the snippets table.
SNIPPETS = "modern"

#: Kitten configurations: system name -> extra arguments of ``kitten extract``.
#: ``kitten-crf``: the boilerplate step on.
KITTEN_CONFIGS: dict[str, list[str]] = {
    "kitten": [],
    "kitten-crf": ["--boilerplate", "crf"],
    # without the headline and figure captions ([boilerplate] keep_title, keep_captions)
    "kitten-crf-article": ["--config", str(Path(__file__).resolve().parent / "gate_article.toml")],
}
#: The peers (names of ``benchmarks/peers.py``), boilerplate removers first.
PEER_SYSTEMS = ("readability", "trafilatura", "justext", "resiliparse-main", "html-text", "inscriptis")
#: ``kitten-crf@<threshold>``: the gate with ``--keep-threshold <threshold>`` (the curve)
THRESHOLD_SYSTEM = "kitten-crf@"


def kitten_args(name: str) -> list[str] | None:
    """The ``kitten extract`` arguments of a Kitten system name, ``None`` for a peer.

    >>> kitten_args("kitten-crf"), kitten_args("kitten-crf@0.3"), kitten_args("trafilatura")
    (['--boilerplate', 'crf'], ['--boilerplate', 'crf', '--keep-threshold', '0.3'], None)
    """
    if name in KITTEN_CONFIGS:
        return KITTEN_CONFIGS[name]
    if name.startswith(THRESHOLD_SYSTEM):
        return ["--boilerplate", "crf", "--keep-threshold", name[len(THRESHOLD_SYSTEM):]]
    return None


STAMP = ".complete"


def heldout_pages(corpora: Path, names: Sequence[str] = CORPORA, heldout: Path = HELDOUT,
                  limit: int = 0) -> dict[str, list[Path]]:
    """The held-out HTML pages of each corpus that have a gold file, in the list's
    order (first ``limit`` only)."""
    pages: dict[str, list[Path]] = {c: [] for c in names}
    for line in heldout.read_text(encoding="utf-8").split():
        corpus = line.split("/", 1)[0]
        if corpus in pages and (not limit or len(pages[corpus]) < limit):
            path = corpora / line
            if not path.is_file():
                raise SystemExit(f"missing {path}: unpack ../shared/corpora/{corpus}.tar.xz into {corpora}")
            if (corpora / corpus / "gold" / f"{output_stem(Path(path.name)).name}.txt").is_file():
                pages[corpus].append(path)
    for corpus, paths in pages.items():
        if not paths:
            raise SystemExit(f"{heldout} names no page of {corpus} with a gold file")
    return pages


def annotated_pages(corpora: Path, names: Sequence[str], heldout: Path = HELDOUT,
                    limit: int = 0) -> dict[str, list[Path]]:
    """The held-out HTML pages of each corpus that have a hand-annotated gold
    (:data:`ANNOTATED`) and no shared one, in the list's order (first ``limit`` only)."""
    pages: dict[str, list[Path]] = {}
    for line in heldout.read_text(encoding="utf-8").split():
        corpus = line.split("/", 1)[0]
        stem = output_stem(Path(Path(line).name)).name
        if corpus in names and (ANNOTATED / corpus / f"{stem}.txt").is_file() \
                and not (corpora / corpus / "gold" / f"{stem}.txt").is_file():
            group = pages.setdefault(corpus, [])
            if not limit or len(group) < limit:
                group.append(corpora / line)
    return pages


# --------------------------------------------------------------------------- snippets


@dataclass(frozen=True)
class SnippetPage:
    """A page with snippets its main text must contain (entities unescaped)."""

    path: Path
    snippets: tuple[str, ...]
    heldout: bool


def snippet_pages(corpora: Path, heldout: Path = HELDOUT, limit: int = 0) -> list[SnippetPage]:
    """Every page of :data:`SNIPPETS` with snippets (first ``limit`` only), held out
    or not, in the order of ``snippets.jsonl``."""
    held = set(heldout.read_text(encoding="utf-8").split())
    pages = []
    for line in (corpora / SNIPPETS / "snippets.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("with") and (not limit or len(pages) < limit):
            pages.append(SnippetPage(corpora / SNIPPETS / "html" / record["file"],
                                     tuple(html.unescape(s) for s in record["with"]),
                                     f"{SNIPPETS}/html/{record['file']}" in held))
    return pages


def _squeezed(text: str) -> str:
    """Letters and digits only, lower-cased: what the SOW tokens keep (GUIDE section 3:
    punctuation is a separator), without the separators."""
    return _NOT_WORD.sub("", text).lower()


_NOT_WORD = re.compile(r"[\W_]+")


def snippet_found(snippet: str, text: str) -> bool:
    """Does ``text`` contain ``snippet``, white space and punctuation ignored in both (a
    snippet runs across blocks, where an extractor writes a line break and Kitten also a
    full stop; the SOW metric reads punctuation as a separator too)?

    >>> snippet_found("The city has never b", "The  city has\\nnever been"), snippet_found("a b", "b a")
    (True, False)
    >>> snippet_found("(Photo: AP) Houston has", "(Photo: AP).\\nHouston has promoted")
    True
    """
    return _squeezed(snippet) in _squeezed(text)


@dataclass(frozen=True)
class SnippetScore:
    """Snippets found among snippets, pages with an empty output among pages."""

    found: int = 0
    snippets: int = 0
    empty: int = 0
    pages: int = 0


def score_snippets(folder: Path, pages: Sequence[SnippetPage]) -> SnippetScore:
    """How much of the pages' snippets one system's output folder holds (a missing or
    blank output finds none)."""
    files = output_files(folder, {output_stem(Path(p.path.name)).name for p in pages})
    found = empty = 0
    for page in pages:
        path = files.get(output_stem(Path(page.path.name)).name)
        text = read_output(path) if path else ""
        empty += not text.strip()
        found += sum(snippet_found(s, text) for s in page.snippets)
    return SnippetScore(found, sum(len(p.snippets) for p in pages), empty, len(pages))


def format_snippets(folders: Sequence[Path], pages: Sequence[SnippetPage]) -> str:
    """The snippets table: one row per system, on every page and on held-out sites."""
    held = [p for p in pages if p.heldout]
    width = max([len("system"), *(len(f.name) for f in folders)])
    head = f"{'system':<{width}}  {'found':>6} {'empty':>5}   {'held-out sites: found':>21} {'empty':>5}"
    lines = [f"{len(pages)} pages with {sum(len(p.snippets) for p in pages)} snippets "
             f"({len(held)} pages, {sum(len(p.snippets) for p in held)} snippets on held-out sites)", head,
             "-" * len(head)]
    for folder in folders:
        a, h = score_snippets(folder, pages), score_snippets(folder, held)
        lines.append(f"{folder.name:<{width}}  {a.found / max(1, a.snippets):6.3f} {a.empty:>5}   "
                     f"{h.found / max(1, h.snippets):>21.3f} {h.empty:>5}")
    lines.append("found: share of the snippets found in the output (white space and punctuation ignored); "
                 "empty: pages whose output is missing or blank.")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- empty outputs


def empty_outputs(report: Report) -> dict[str, tuple[int, int]]:
    """``system -> (empty, pages)``: the pages whose gold has text, and among them
    those whose output file is missing or blank."""
    pages = [page for page, gold in report.gold.golds.items() if gold.text.strip()]
    counts = {}
    for system in report.systems:
        files = output_files(system.folder, pages)
        counts[system.name] = (sum(page not in files or not read_output(files[page]).strip() for page in pages),
                               len(pages))
    return counts


#: a unit of an annotated page is a must-keep or must-drop snippet when it has this many words
SNIPPET_WORDS = 6


@dataclass(frozen=True)
class KeepDropPage:
    """An annotated page's unit texts: those of its main text and the others."""

    path: Path
    keep: tuple[str, ...]
    drop: tuple[str, ...]


def keep_drop_pages(pages: Sequence[Path], gold: Path) -> list[KeepDropPage]:
    """The must-keep and must-drop snippets of hand-annotated pages, the way the
    trafilatura project scores its evaluation: every unit of :data:`SNIPPET_WORDS` words
    or more (the units the gate labels, ``corpora/boilerplate/annotate.py``), its text
    must be in the output when the gold has it, absent otherwise (a text that is in the
    gold too, a headline repeated in a teaser, is neither)."""
    from kitten.config import Config
    from kitten.train.boilerplate import page_units

    config = Config()
    out = []
    for path in pages:
        kept = _squeezed((gold / f"{output_stem(Path(path.name)).name}.txt").read_text(encoding="utf-8"))
        keep, drop = [], []
        for unit in page_units(path.read_bytes(), config):
            text = " ".join(unit.text().split())
            if len(text.split()) < SNIPPET_WORDS or not _squeezed(text):
                continue
            (keep if _squeezed(text) in kept else drop).append(text)
        out.append(KeepDropPage(path, tuple(keep), tuple(drop)))
    return out


def format_keep_drop(folders: Sequence[Path], pages: Sequence[KeepDropPage]) -> str:
    """One row per system: the share of must-keep snippets found in its output, of
    must-drop snippets absent, and the pages with an empty output."""
    keep = sum(len(p.keep) for p in pages)
    drop = sum(len(p.drop) for p in pages)
    width = max([len("system"), *(len(f.name) for f in folders)])
    head = f"{'system':<{width}}  {'must-keep found':>15}  {'must-drop absent':>16}  {'empty':>5}"
    lines = [f"{len(pages)} pages, {keep} must-keep and {drop} must-drop snippets (units of "
             f"{SNIPPET_WORDS}+ words)", head, "-" * len(head)]
    for folder in folders:
        found = absent = empty = 0
        for page in pages:
            file = folder / f"{output_stem(Path(page.path.name)).name}.txt"
            text = _squeezed(file.read_text(encoding="utf-8")) if file.is_file() else ""
            empty += not text
            found += sum(_squeezed(t) in text for t in page.keep)
            absent += sum(_squeezed(t) not in text for t in page.drop)
        lines.append(f"{folder.name:<{width}}  {found / max(1, keep):15.3f}  {absent / max(1, drop):16.3f}  {empty:>5}")
    return "\n".join(lines) + "\n"


def format_empty(reports: dict[str, Report]) -> str:
    """The empty-output table: one row per system, one column per corpus."""
    counts = {corpus: empty_outputs(report) for corpus, report in reports.items()}
    systems = list(dict.fromkeys(s for c in counts.values() for s in c))
    width = max([len("system"), *map(len, systems)])
    head = f"{'system':<{width}}" + "".join(f"  {c:>15}" for c in counts)
    lines = [head, "-" * len(head)]
    for s in systems:
        lines.append(f"{s:<{width}}" + "".join(
            f"  {f'{c[s][0]}/{c[s][1]}' if s in c else '-':>15}" for c in counts.values()))
    lines.append("pages whose output is missing or blank / pages whose gold is not blank.")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- Kitten


def run_kitten(name: str, extra: list[str], paths: list[Path], folder: Path, jobs: int) -> float:
    """``kitten extract PATHS -o folder`` with the configuration's arguments; seconds taken."""
    shutil.rmtree(folder, ignore_errors=True)
    t0 = time.perf_counter()
    code = kitten_main(["extract", *map(str, paths), "-o", str(folder), "-q", "--jobs", str(jobs), *extra])
    if code not in (0, 1):  # 1: some page got no output (scored as failed)
        raise SystemExit(f"{name}: kitten extract {' '.join(extra)} exited with {code}")
    return time.perf_counter() - t0


# --------------------------------------------------------------------------- peers

_WORKER: dict[str, object] = {}


def _init_worker(systems: Sequence[str]) -> None:
    import warnings

    warnings.filterwarnings("ignore")
    _WORKER["extractors"] = {s: load_peer(s) for s in systems}


def _run_page(task: tuple[str, dict[str, str]]) -> dict[str, float]:
    """Run every peer on one page, writing ``<folder>/<stem>.txt`` for each that
    succeeds (a failure is scored ``failed``); ``system -> seconds``."""
    html_path, folders = task
    data = Path(html_path).read_bytes()
    stem = output_stem(Path(Path(html_path).name)).name
    result = {}
    for system, extract in _WORKER["extractors"].items():  # type: ignore[union-attr]
        t0 = time.perf_counter()
        text = run_peer(extract, data)
        result[system] = time.perf_counter() - t0
        if text is not None:
            atomic_write(Path(folders[system]) / f"{stem}.txt", text)
    return result


def _stamp(paths: list[Path]) -> str:
    return json.dumps(sorted(p.name for p in paths))


def complete(folder: Path, paths: list[Path]) -> bool:
    """Was a peer's output folder completed for these pages?"""
    return (folder / STAMP).is_file() and (folder / STAMP).read_text(encoding="utf-8") == _stamp(paths)


def run_peers(systems: list[str], paths: list[Path], root: Path, jobs: int,
              reuse: bool) -> dict[str, float | None]:
    """Write every peer's outputs under ``root/<peer>/``; ``peer -> seconds`` spent in
    its extractor (summed over pages), ``None`` for a reused folder."""
    stamp = _stamp(paths)
    kept = [s for s in systems if reuse and complete(root / s, paths)]
    todo = [s for s in systems if s not in kept]
    for s in todo:
        shutil.rmtree(root / s, ignore_errors=True)
        (root / s).mkdir(parents=True)
    totals = dict.fromkeys(todo, 0.0)
    if todo:
        folders = {s: str(root / s) for s in todo}
        # longest pages first: the pool ends together
        tasks = [(str(p), folders) for p in sorted(paths, key=lambda p: -p.stat().st_size)]
        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
        with ctx.Pool(max(1, jobs), initializer=_init_worker, initargs=(todo,)) as pool:
            for n, result in enumerate(pool.imap_unordered(_run_page, tasks), 1):
                for s, seconds in result.items():
                    totals[s] += seconds
                if sys.stderr.isatty():
                    print(f"\r{root.name}: peers {n}/{len(tasks)} pages", end="", file=sys.stderr, flush=True)
        if sys.stderr.isatty():
            print(file=sys.stderr)
        for s in todo:
            (root / s / STAMP).write_text(stamp, encoding="utf-8")
    return {s: totals.get(s) for s in systems}


# --------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where the systems' outputs go")
    ap.add_argument("--heldout", type=Path, default=HELDOUT, help="the page list")
    ap.add_argument("--corpora-list", default=",".join(CORPORA),
                    help=f"comma-separated corpora to score (default: {','.join(CORPORA)})")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--systems", default=",".join([*KITTEN_CONFIGS, *PEER_SYSTEMS]),
                    help="comma-separated, from the Kitten configurations and the peers (default: all)")
    ap.add_argument("--reuse-peers", action="store_true",
                    help="keep a peer's outputs from an earlier run on the same pages "
                         "(and score them even when --systems leaves the peer out)")
    ap.add_argument("--limit", type=int, default=0,
                    help="the first N held-out pages of each corpus only (and N snippet pages)")
    ap.add_argument("--thresholds", default="",
                    help="comma-separated keep thresholds: also run kitten-crf@T for each (the curve)")
    ap.add_argument("--config", action="append", default=[], metavar="NAME=FILE.toml",
                    help="a Kitten system of your own: kitten extract --config FILE.toml (a model in training, "
                         "a setting tried)")
    args = ap.parse_args(argv)

    for item in args.config:
        name, _, file = item.partition("=")
        KITTEN_CONFIGS[name] = ["--config", file]
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    systems += [f"{THRESHOLD_SYSTEM}{t.strip()}" for t in args.thresholds.split(",") if t.strip()]
    peers = []
    for s in systems:
        if kitten_args(s) is not None:
            continue
        reason = missing_reason(s) if s in PEER_SYSTEMS else f"unknown; known: {', '.join([*KITTEN_CONFIGS, *PEER_SYSTEMS])}"
        if reason:
            print(f"{s}: {reason}: left out", file=sys.stderr)
        else:
            peers.append(s)
    kittens = [s for s in systems if kitten_args(s) is not None]
    names = [c.strip() for c in args.corpora_list.split(",") if c.strip()]
    pages = heldout_pages(args.corpora, names, args.heldout, args.limit)
    snippets = snippet_pages(args.corpora, args.heldout, args.limit) if SNIPPETS in pages else []

    annotated = annotated_pages(args.corpora, names, args.heldout, args.limit)
    reports: dict[str, Report] = {}
    for corpus, scored in pages.items():
        root = args.out / corpus
        # modern: the snippet pages run too (scored in the snippets table), and the
        # held-out pages with a hand-annotated gold (their own table)
        extra = [*(p.path for p in snippets if corpus == SNIPPETS), *annotated.get(corpus, ())]
        paths = list(dict.fromkeys([*scored, *extra]))
        times: dict[str, float | None] = {}
        for name in kittens:
            times[name] = run_kitten(name, kitten_args(name), paths, root / name, args.jobs)
        times.update(run_peers(peers, paths, root, args.jobs, args.reuse_peers))
        reused = [s for s in PEER_SYSTEMS if args.reuse_peers and s not in peers and complete(root / s, paths)]
        times.update(dict.fromkeys(reused))
        folders = [root / s for s in [*kittens, *peers, *reused]]
        pages_file = args.heldout
        if args.limit:  # score the pages run, not the whole list
            pages_file = root / "pages.txt"
            atomic_write(pages_file, "".join(f"{corpus}/html/{p.name}\n" for p in scored))
        gold = args.corpora / corpus / "gold"
        report = reports[corpus] = evaluate(folders, gold, "auto", pages_file)
        atomic_write(root / "report.json", json.dumps(report_dict(report), ensure_ascii=False, indent=1) + "\n")
        write_histograms(report, root / "histograms")

        print(f"\n== {corpus}: {len(scored)} held-out pages of {_show(args.heldout)} with a gold file")
        sys.stdout.write(format_table(report))
        best = max((s for s in report.systems if s.name in PEER_SYSTEMS), key=lambda s: s.summary.f1, default=None)
        if best is not None:
            print(f"best peer: {best.name} F1 {best.summary.f1:.3f} (issue 16: kitten-crf at least this)")
        print(f"seconds (kitten: wall clock of kitten extract --jobs {args.jobs}, on {len(paths)} pages; peers: "
              "time in the extractor, summed): "
              + ", ".join(f"{s} {t:.1f}" if t is not None else f"{s} reused" for s, t in times.items()))
        print(f"same scores: kitten eval {' '.join(map(_show, folders))} --gold {_show(gold)} "
              f"--pages {_show(pages_file)}")
        if annotated.get(corpus):
            listed = root / "annotated-pages.txt"
            atomic_write(listed, "".join(f"{corpus}/html/{p.name}\n" for p in annotated[corpus]))
            name = f"{corpus}-annotated"
            report = reports[name] = evaluate(folders, ANNOTATED / corpus, "auto", listed)
            print(f"\n== {name}: {len(annotated[corpus])} held-out pages of {corpus} with a hand-annotated gold "
                  f"({_show(ANNOTATED / corpus)})")
            sys.stdout.write(format_table(report))
            print(f"same scores: kitten eval {' '.join(map(_show, folders))} --gold {_show(ANNOTATED / corpus)} "
                  f"--pages {_show(listed)}")
            print(f"\n== {name}: must-keep and must-drop snippets")
            sys.stdout.write(format_keep_drop(folders, keep_drop_pages(annotated[corpus], ANNOTATED / corpus)))

    if snippets:
        print(f"\n== {SNIPPETS} snippets: every page with snippets (training sites' pages are trained on: "
              "read the held-out column)")
        sys.stdout.write(format_snippets([s.folder for s in reports[SNIPPETS].systems], snippets))
    print("\n== empty outputs on the held-out pages")
    sys.stdout.write(format_empty(reports))


def _show(path: Path) -> str:
    """``path`` relative to the working folder when it is below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


if __name__ == "__main__":
    main()
