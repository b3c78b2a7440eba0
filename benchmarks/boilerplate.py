"""Main-content extraction on the held-out pages: Kitten beside the boilerplate removers.

    python benchmarks/boilerplate.py [--corpora .cache/corpora] [--out .cache/boilerplate-eval]
                                     [--jobs 2] [--systems kitten,readability,...] [--reuse-peers]
                                     [--limit N]

The pages are those of ``corpora/boilerplate/heldout.txt`` (never used to train the
boilerplate CRF): the CLEANEVAL final part and the Dragnet part, scored separately.
Every system writes its output for each page to
``<out>/<corpus>/<system>/<page base name>.txt`` (nothing for a page where it
failed), then the folders are scored with the code of ``kitten eval`` (SOW token
overlap, GUIDE section 3; Dragnet gold: main content before the comment delimiter)
and one table per corpus is printed: mean P, R, F1 and the boundary cases. The
per-document scores go to ``<out>/<corpus>/report.json`` and the histograms to
``<out>/<corpus>/histograms/<system>.svg``; the equivalent ``kitten eval`` command is
printed under each table.

Systems:

- Kitten, once per entry of :data:`KITTEN_CONFIGS` (arguments of ``kitten extract``):
  the default pipeline, and ``kitten-crf`` (``--boilerplate crf``).
- the peers of ``benchmarks/peers.py``: readability-lxml, trafilatura, jusText and
  resiliparse in main-content mode (the boilerplate removers), html-text and
  inscriptis (whole-page text: the precision floor).

The peers' outputs do not change from run to run: ``--reuse-peers`` keeps a peer's
folder when it was completed for the same pages (a ``.complete`` stamp in it).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import shutil
import sys
import time
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _pages import DEFAULT_CORPORA  # noqa: E402
from peers import load_peer, missing_reason, run_peer  # noqa: E402

from kitten.cli import main as kitten_main  # noqa: E402
from kitten.evaluation.histogram import write_histograms  # noqa: E402
from kitten.evaluation.report import evaluate, format_table, report_dict  # noqa: E402
from kitten.io.files import atomic_write, output_stem  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HELDOUT = ROOT / "corpora" / "boilerplate" / "heldout.txt"
DEFAULT_OUT = DEFAULT_CORPORA.parent / "boilerplate-eval"
CORPORA = ("cleaneval-final", "dragnet")

#: Kitten configurations: system name -> extra arguments of ``kitten extract``.
#: ``kitten-crf``: the boilerplate step on.
KITTEN_CONFIGS: dict[str, list[str]] = {
    "kitten": [],
    "kitten-crf": ["--boilerplate", "crf"],
}
#: The peers (names of ``benchmarks/peers.py``), boilerplate removers first.
PEER_SYSTEMS = ("readability", "trafilatura", "justext", "resiliparse-main", "html-text", "inscriptis")
#: Issue 6: the CRF configuration must reach this mean F1 on both parts, above every peer.
TARGET_F1 = 0.92
STAMP = ".complete"


def heldout_pages(corpora: Path, heldout: Path = HELDOUT, limit: int = 0) -> dict[str, list[Path]]:
    """The held-out HTML pages of each corpus, in the list's order (first ``limit`` only)."""
    pages: dict[str, list[Path]] = {c: [] for c in CORPORA}
    for line in heldout.read_text(encoding="utf-8").split():
        corpus = line.split("/", 1)[0]
        if corpus in pages and (not limit or len(pages[corpus]) < limit):
            path = corpora / line
            if not path.is_file():
                raise SystemExit(f"missing {path}: unpack ../shared/corpora/{corpus}.tar.xz into {corpora}")
            pages[corpus].append(path)
    return pages


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


def run_peers(systems: list[str], paths: list[Path], root: Path, jobs: int,
              reuse: bool) -> dict[str, float | None]:
    """Write every peer's outputs under ``root/<peer>/``; ``peer -> seconds`` spent in
    its extractor (summed over pages), ``None`` for a reused folder."""
    stamp = _stamp(paths)
    kept = [s for s in systems if reuse and (root / s / STAMP).is_file()
            and (root / s / STAMP).read_text(encoding="utf-8") == stamp]
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
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--systems", default=",".join([*KITTEN_CONFIGS, *PEER_SYSTEMS]),
                    help="comma-separated, from the Kitten configurations and the peers (default: all)")
    ap.add_argument("--reuse-peers", action="store_true",
                    help="keep a peer's outputs from an earlier run on the same pages")
    ap.add_argument("--limit", type=int, default=0, help="the first N held-out pages of each corpus only")
    args = ap.parse_args(argv)

    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    peers = []
    for s in systems:
        if s in KITTEN_CONFIGS:
            continue
        reason = missing_reason(s) if s in PEER_SYSTEMS else f"unknown; known: {', '.join([*KITTEN_CONFIGS, *PEER_SYSTEMS])}"
        if reason:
            print(f"{s}: {reason}: left out", file=sys.stderr)
        else:
            peers.append(s)
    kittens = [s for s in systems if s in KITTEN_CONFIGS]
    pages = heldout_pages(args.corpora, args.heldout, args.limit)

    for corpus, paths in pages.items():
        root = args.out / corpus
        times: dict[str, float | None] = {}
        for name in kittens:
            times[name] = run_kitten(name, KITTEN_CONFIGS[name], paths, root / name, args.jobs)
        times.update(run_peers(peers, paths, root, args.jobs, args.reuse_peers))
        folders = [root / s for s in [*kittens, *peers]]
        pages_file = args.heldout
        if args.limit:  # score the pages run, not the whole list
            pages_file = root / "pages.txt"
            atomic_write(pages_file, "".join(f"{corpus}/html/{p.name}\n" for p in paths))
        gold = args.corpora / corpus / "gold"
        report = evaluate(folders, gold, "auto", pages_file)
        atomic_write(root / "report.json", json.dumps(report_dict(report), ensure_ascii=False, indent=1) + "\n")
        write_histograms(report, root / "histograms")

        print(f"\n== {corpus}: {len(paths)} held-out pages of {_show(args.heldout)}")
        sys.stdout.write(format_table(report))
        best = max((s for s in report.systems if s.name in peers), key=lambda s: s.summary.f1, default=None)
        if best is not None:
            print(f"best peer: {best.name} F1 {best.summary.f1:.3f}; issue 6 target for the CRF configuration: "
                  f"F1 >= {TARGET_F1} and above every peer")
        print(f"seconds (kitten: wall clock of kitten extract --jobs {args.jobs}; peers: time in the extractor, "
              "summed): " + ", ".join(f"{s} {t:.1f}" if t is not None else f"{s} reused" for s, t in times.items()))
        print(f"same scores: kitten eval {' '.join(map(_show, folders))} --gold {_show(gold)} "
              f"--pages {_show(pages_file)}")


def _show(path: Path) -> str:
    """``path`` relative to the working folder when it is below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


if __name__ == "__main__":
    main()
