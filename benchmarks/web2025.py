"""Main content of every kind of page: Kitten beside the boilerplate removers on web2025.

    python benchmarks/web2025.py [--corpora .cache/corpora] [--out .cache/web2025-eval]
                                 [--jobs 2] [--systems kitten,kitten-crf,trafilatura,...]
                                 [--reuse-peers] [--split heldout|train|all] [--limit N]
                                 [--config NAME=FILE.toml ...]

The pages: the held-out pages of web2025 (``corpora/boilerplate/heldout.txt``: 40% of
each page type's pages, whole sites, never trained on; ``--split train``: the pages of
the training sites, to tune a rule on; ``--split all``). 2024-2026 pages of seven types (article,
service, product, forum, listing, collection, documentation), gold
``web2025/gold/<id>.json``.

Scores (the metric the corpus's README and ``../shared/GUIDE.md`` define): word F1 over
the ``\\w+`` tokens of the lower-cased texts, the overlap the size of the multiset
intersection; precision, recall and F1 per page, an empty gold scoring 1 for an empty
output and 0 otherwise; the mean over pages per page type and overall. Beside it the
snippet rates: the share of the gold's ``with`` snippets found in the output and of its
``without`` snippets absent (case-insensitive substring, white space collapsed), and the
pages whose output is empty while their gold is not. With ``kitten-crf`` among the
systems, the page-type classifier's accuracy per type is printed too (the
``page_type`` of Kitten's JSON).

Each system writes its output of a page to ``<out>/<system>/<id>.txt`` (nothing when it
failed); ``--reuse-peers`` keeps a peer's folder completed for the same pages (a
``.complete`` stamp) and scores it, named or not, so that after a change to Kitten
``--systems kitten-crf --reuse-peers`` reruns Kitten only. The per-page scores go to
``<out>/report.json``.

Systems: Kitten's configurations (:data:`KITTEN_CONFIGS`, and ``--config NAME=FILE``
for a TOML file of your own) and the peers of ``benchmarks/peers.py``: trafilatura,
resiliparse in main-content mode, readability-lxml, jusText (and html-text, inscriptis).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _pages import DEFAULT_CORPORA  # noqa: E402
from peers import load_peer, missing_reason, run_peer  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HELDOUT = ROOT / "corpora" / "boilerplate" / "heldout.txt"
DEFAULT_OUT = DEFAULT_CORPORA.parent / "web2025-eval"
TYPES = ("article", "forum", "product", "collection", "listing", "documentation", "service")
#: Kitten configurations: system name -> configuration (``Config.from_dict``)
KITTEN_CONFIGS: dict[str, dict] = {
    "kitten": {},
    "kitten-crf": {"boilerplate": {"method": "crf"}},
    "kitten-crf-article": {"boilerplate": {"method": "crf", "keep_title": False, "keep_captions": False}},
}
PEERS = ("trafilatura", "resiliparse-main", "readability", "justext")
STAMP = ".complete"
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class GoldPage:
    id: str
    path: Path
    page_type: str
    main: str
    with_: tuple[str, ...]
    without: tuple[str, ...]
    url: str


def pages(corpora: Path, split: str = "heldout", limit: int = 0) -> list[GoldPage]:
    """The web2025 pages of ``split`` (``heldout``: of the held-out sites, ``train``: the
    others, ``all``), sorted by id."""
    folder = corpora / "web2025"
    if not (folder / "html").is_dir():
        raise SystemExit(f"missing {folder / 'html'}: unpack ../shared/corpora/web2025.tar.xz into {corpora}")
    held = {line.split("/")[-1] for line in HELDOUT.read_text(encoding="utf-8").split() if line.startswith("web2025/")}
    out = []
    for path in sorted((folder / "html").glob("*.html")):
        if (split == "heldout" and path.name not in held) or (split == "train" and path.name in held):
            continue
        g = json.loads((folder / "gold" / f"{path.stem}.json").read_text(encoding="utf-8"))
        out.append(GoldPage(path.stem, path, g.get("page_type", ""), g.get("main_content") or "",
                            tuple(g.get("with") or ()), tuple(g.get("without") or ()), g.get("url") or ""))
    return out[:limit] if limit else out


def word_scores(output: str, gold: str) -> tuple[float, float, float]:
    """Precision, recall and F1 of the ``\\w+`` words of ``output`` against ``gold``
    (lower-cased, multiset overlap); an empty gold scores 1 for an empty output.

    >>> word_scores("The cat sat", "the cat sat down")
    (1.0, 0.75, 0.8571428571428571)
    >>> word_scores("", ""), word_scores("x", "")
    ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0))
    """
    out, ref = Counter(_WORD.findall(output.lower())), Counter(_WORD.findall(gold.lower()))
    if not ref:
        return (1.0, 1.0, 1.0) if not out else (0.0, 0.0, 0.0)
    overlap = sum((out & ref).values())
    p = overlap / sum(out.values()) if out else 0.0
    r = overlap / sum(ref.values())
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def _squash(text: str) -> str:
    return " ".join(text.lower().split())


def snippet_counts(output: str, page: GoldPage) -> tuple[int, int, int, int]:
    """(``with`` found, ``with`` total, ``without`` absent, ``without`` total)."""
    text = _squash(output)
    found = sum(_squash(s) in text for s in page.with_)
    absent = sum(_squash(s) not in text for s in page.without)
    return found, len(page.with_), absent, len(page.without)


# --------------------------------------------------------------------------- running

_WORKER: dict = {}


def _kitten_extractor(config: dict):
    from kitten.api import extract_result
    from kitten.config import Config

    cfg = Config.from_dict(config)

    def extract(data: bytes, url: str) -> tuple[str, str | None]:
        result = extract_result(data, url=url or None, config=cfg)
        kind = getattr(result.products.get("page_type"), "label", None)
        return result.output or "", kind

    return extract


def _init(system: str, config: dict | None) -> None:
    _WORKER["name"] = system
    if config is not None:
        _WORKER["kitten"] = _kitten_extractor(config)
    else:
        _WORKER["peer"] = load_peer(system)


def _run(task: tuple[str, str, str]) -> tuple[str, str | None, str | None]:
    page_id, path, url = task
    data = Path(path).read_bytes()
    if "kitten" in _WORKER:
        try:
            text, kind = _WORKER["kitten"](data, url)
        except Exception as exc:  # noqa: BLE001 - a failure is a missing output, reported
            print(f"{_WORKER['name']} failed on {page_id}: {type(exc).__name__}: {exc}", file=sys.stderr)
            return page_id, None, None
        return page_id, text, kind
    return page_id, run_peer(_WORKER["peer"], data), None


def run_system(system: str, config: dict | None, todo: list[GoldPage], out: Path, jobs: int) -> float:
    folder = out / system
    folder.mkdir(parents=True, exist_ok=True)
    (folder / STAMP).unlink(missing_ok=True)
    t0 = time.perf_counter()
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    kinds = {}
    with ctx.Pool(jobs, initializer=_init, initargs=(system, config), maxtasksperchild=200) as pool:
        for page_id, text, kind in pool.imap_unordered(_run, [(p.id, str(p.path), p.url) for p in todo]):
            target = folder / f"{page_id}.txt"
            if text is None:
                target.unlink(missing_ok=True)
            else:
                target.write_text(text, encoding="utf-8")
            if kind:
                kinds[page_id] = kind
    if kinds:
        (folder / "page_types.json").write_text(json.dumps(kinds, indent=0, sort_keys=True), encoding="utf-8")
    (folder / STAMP).write_text("\n".join(p.id for p in todo) + "\n", encoding="utf-8")
    return time.perf_counter() - t0


def complete(folder: Path, todo: list[GoldPage]) -> bool:
    stamp = folder / STAMP
    return stamp.is_file() and stamp.read_text(encoding="utf-8").split() == [p.id for p in todo]


# --------------------------------------------------------------------------- scoring


def score(folder: Path, todo: list[GoldPage]) -> dict:
    per_page = {}
    for p in todo:
        target = folder / f"{p.id}.txt"
        text = target.read_text(encoding="utf-8") if target.is_file() else ""
        pr, rc, f1 = word_scores(text, p.main)
        per_page[p.id] = {"type": p.page_type, "p": pr, "r": rc, "f1": f1,
                          "snippets": snippet_counts(text, p), "empty": not text.strip() and bool(p.main.strip())}
    return per_page


def summary(per_page: dict, kinds: tuple[str, ...]) -> dict[str, dict]:
    out = {}
    for kind in (*kinds, "all"):
        rows = [s for s in per_page.values() if kind == "all" or s["type"] == kind]
        if not rows:
            continue
        found, total, absent, total_not = (sum(r["snippets"][k] for r in rows) for k in range(4))
        out[kind] = {"pages": len(rows), "f1": sum(r["f1"] for r in rows) / len(rows),
                     "p": sum(r["p"] for r in rows) / len(rows), "r": sum(r["r"] for r in rows) / len(rows),
                     "with": found / total if total else 1.0, "without": absent / total_not if total_not else 1.0,
                     "empty": sum(r["empty"] for r in rows)}
    return out


def format_tables(results: dict[str, dict[str, dict]]) -> str:
    kinds = [k for k in (*TYPES, "all") if any(k in r for r in results.values())]
    sizes = next(iter(results.values()))
    head = "| system | " + " | ".join(f"{k} ({sizes[k]['pages']})" for k in kinds if k in sizes) + " |"
    lines = ["Word F1 (mean per page; P/R overall in the last column)", head,
             "|---" * (len(kinds) + 1) + "|"]
    for system, res in results.items():
        cells = [f"{res[k]['f1']:.3f}" for k in kinds if k != "all"]
        a = res["all"]
        cells.append(f"**{a['f1']:.3f}** (P {a['p']:.3f}, R {a['r']:.3f})")
        lines.append(f"| {system} | " + " | ".join(cells) + " |")
    lines += ["", "| system | must-keep found | must-drop absent | empty outputs |", "|---|---|---|---|"]
    for system, res in results.items():
        a = res["all"]
        lines.append(f"| {system} | {a['with']:.1%} | {a['without']:.1%} | {a['empty']} |")
    return "\n".join(lines)


def page_type_accuracy(folder: Path, todo: list[GoldPage]) -> str | None:
    path = folder / "page_types.json"
    if not path.is_file():
        return None
    predicted = json.loads(path.read_text(encoding="utf-8"))
    rows = []
    total = right = 0
    for kind in TYPES:
        part = [p for p in todo if p.page_type == kind]
        ok = sum(predicted.get(p.id) == kind for p in part)
        said = sum(v == kind for v in predicted.values())
        rows.append(f"{kind} {ok}/{len(part)} (said {said})")
        total, right = total + len(part), right + ok
    return f"page type ({folder.name}): accuracy {right / total:.1%}; per type recall: " + ", ".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--systems", default=",".join((*KITTEN_CONFIGS, *PEERS)))
    ap.add_argument("--config", action="append", default=[], metavar="NAME=FILE.toml",
                    help="a Kitten system of your own: its configuration file")
    ap.add_argument("--reuse-peers", action="store_true")
    ap.add_argument("--split", choices=("heldout", "train", "all"), default="heldout",
                    help="the pages scored: of the held-out sites (default), of the training sites (to tune "
                         "a rule on, never to report), or all")
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args(argv)

    configs = dict(KITTEN_CONFIGS)
    for item in args.config:
        name, _, file = item.partition("=")
        import tomllib

        configs[name] = tomllib.loads(Path(file).read_text(encoding="utf-8"))
    todo = pages(args.corpora, args.split, args.limit)
    out = args.out / args.split
    systems = [s for s in args.systems.split(",") if s]
    if args.reuse_peers:
        systems += [p for p in PEERS if p not in systems and complete(out / p, todo)]
    results: dict[str, dict] = {}
    for system in systems:
        config = configs.get(system)
        if config is None:
            reason = missing_reason(system)
            if reason:
                print(f"{system}: skipped ({reason})", file=sys.stderr)
                continue
            if args.reuse_peers and complete(out / system, todo):
                results[system] = summary(score(out / system, todo), TYPES)
                continue
        seconds = run_system(system, config, todo, out, args.jobs)
        print(f"{system}: {len(todo)} pages in {seconds:.0f} s", file=sys.stderr)
        results[system] = summary(score(out / system, todo), TYPES)
    print(f"web2025, {args.split} pages: {len(todo)} pages "
          f"({', '.join(f'{k} {v}' for k, v in Counter(p.page_type for p in todo).most_common())})\n")
    print(format_tables(results))
    for system in systems:
        line = page_type_accuracy(out / system, todo)
        if line:
            print(line)
    (out / "report.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
