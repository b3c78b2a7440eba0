"""Run the normalizer over every page of the shared corpora and measure its output.

    python benchmarks/corpus_check.py [--corpora .cache/corpora] [--jobs 2]
                                      [--limit N] [--every K] [--report out.json]

Per corpus and overall it prints: pages; % with output (status ``done`` or
``fallback``, or ``excluded`` with a logged reason); % normal path (``done``); among
the XHTML outputs, % that parse strictly, % valid against the XHTML 1.0 Transitional
DTD and % with text fidelity (visible text of the output == visible text html5lib
reads in ``r.decoded``); % of pages where Lexbor builds the same tree as html5lib;
and the time spent in ``kitten.normalize``. Then the 15 most frequent DTD error
messages and the first 10 fidelity mismatches with context. All per-page details
go to the JSON report.

Targets: 100% output, >= 99.9% normal path, 100% strict parse, >= 98% DTD-valid,
fidelity for every page. Each page runs in its own ``try``: a crash or a timeout is
recorded as a failure and the run goes on.
"""
from __future__ import annotations

import argparse
import collections
import json
import multiprocessing
import signal
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: corpus name -> glob (relative to the corpora directory) of its HTML pages
CORPORA: dict[str, str] = {
    "cleaneval-dev": "cleaneval-dev/html/*",
    "cleaneval-final": "cleaneval-final/html/*",
    "cleanportaleval": "cleanportaleval/html/*",
    "dragnet": "dragnet/html/*",
    "readability": "readability/html/*",
    "wikipedia-tables": "wikipedia-tables/pages/*/*.html",
}
MAX_ERRORS_PER_PAGE = 50


@dataclass(frozen=True, slots=True)
class PageRef:
    """One page to check: its corpus, path relative to the corpora dir, absolute path."""

    corpus: str
    name: str
    path: str


@dataclass(slots=True)
class PageResult:
    """Everything measured on one page (``None`` = not applicable / not reached)."""

    corpus: str
    name: str
    size: int = 0
    status: str | None = None
    encoding: str | None = None
    excluded_reason: str | None = None
    fallback_reason: str | None = None  # the ``fallback`` / ``failed`` log message
    has_output: bool = False
    normal: bool = False
    strict: bool | None = None
    strict_error: str | None = None
    dtd_valid: bool | None = None
    dtd_errors: list[str] = field(default_factory=list)
    fidelity: bool | None = None
    fidelity_diff: dict[str, Any] | None = None
    fidelity_whitespace_only: bool | None = None  # the texts differ only in spaces
    agreement: bool | None = None
    agreement_diff: str | None = None
    normalize_seconds: float = 0.0
    check_seconds: float = 0.0
    crash: str | None = None  # traceback when kitten.normalize raised / timed out
    check_error: str | None = None  # traceback when a measurement raised


class PageTimeout(Exception):
    """Raised by the alarm handler when one page takes longer than --timeout."""


def discover(corpora: Path, every: int = 1, limit: int | None = None) -> list[PageRef]:
    """Pages of all corpora in a deterministic order (every ``every``-th, at most ``limit`` per corpus)."""
    pages: list[PageRef] = []
    for corpus, pattern in CORPORA.items():
        paths = sorted(p for p in corpora.glob(pattern) if p.is_file())
        selected = paths[::every]
        if limit is not None:
            selected = selected[:limit]
        pages.extend(
            PageRef(corpus, str(p.relative_to(corpora)), str(p)) for p in selected
        )
    return pages


def _reason(result: Any, kinds: frozenset[str]) -> str | None:
    """``"kind: message"`` of the first log event of one of ``kinds`` (None if none)."""
    for event in result.log or []:
        if event.kind in kinds:
            return f"{event.kind}: {event.message}"
    return None


EXCLUDED_KINDS = frozenset({"excluded", "sitemap", "binary", "empty"})
FALLBACK_KINDS = frozenset({"fallback", "failed"})


def _measure(out: PageResult, result: Any, dtd_path: str) -> None:
    """Fill the quality fields of ``out`` from a normalizer result (may raise)."""
    from kitten import quality

    reference = quality.read_reference(result.decoded) if result.decoded is not None else None
    if reference is not None:
        out.agreement, out.agreement_diff = quality.compare_trees(
            reference.tree, quality.canonical_lexbor(quality.lexbor_root(result.decoded))
        )
        out.agreement_diff = out.agreement_diff or None
    if result.status != "done" or result.xhtml is None:
        return
    out.strict, out.strict_error = quality.parses_strict(result.xhtml)
    if not out.strict:
        out.dtd_valid, out.fidelity = False, False
        out.dtd_errors = [f"not well-formed: {out.strict_error}"]
        return
    out.dtd_errors = quality.dtd_errors(result.xhtml, dtd_path)[:MAX_ERRORS_PER_PAGE]
    out.dtd_valid = not out.dtd_errors
    if reference is None:
        out.fidelity = False
        out.fidelity_diff = {"index": 0, "expected": "<r.decoded is None>", "actual": ""}
        return
    actual = quality.visible_text_xhtml(result.xhtml)
    out.fidelity = actual == reference.visible_text
    if not out.fidelity:
        out.fidelity_diff = quality.diff_context(reference.visible_text, actual)
        out.fidelity_whitespace_only = quality.whitespace_only_difference(
            reference.visible_text, actual
        )


def _on_alarm(signum: int, frame: Any) -> None:
    raise PageTimeout()


def check_page(page: PageRef, dtd_path: str, timeout: int) -> PageResult:
    """Normalize one page and measure the output; never raises."""
    out = PageResult(page.corpus, page.name)
    try:  # a per-page alarm works only in the main thread of a process
        previous_handler = signal.signal(signal.SIGALRM, _on_alarm)
        signal.alarm(timeout)
    except ValueError:
        previous_handler = None
    try:
        import kitten

        data = Path(page.path).read_bytes()
        out.size = len(data)
        start = time.perf_counter()
        try:
            result = kitten.normalize(data)
        except BaseException as exc:  # noqa: BLE001 - a crash is a measured failure
            if isinstance(exc, KeyboardInterrupt):
                raise
            out.crash = traceback.format_exc(limit=8)
            return out
        finally:
            out.normalize_seconds = time.perf_counter() - start
        out.status = result.status
        out.encoding = result.encoding
        out.normal = result.status == "done" and result.xhtml is not None
        out.fallback_reason = _reason(result, FALLBACK_KINDS)
        if result.status == "excluded":
            out.excluded_reason = _reason(result, EXCLUDED_KINDS)
            out.has_output = out.excluded_reason is not None
        else:
            out.has_output = (result.status == "done" and result.xhtml is not None) or (
                result.status == "fallback" and result.text is not None
            )
        start = time.perf_counter()
        try:
            _measure(out, result, dtd_path)
        except PageTimeout:
            out.check_error = f"measurement timed out after {timeout}s"
        except Exception:  # noqa: BLE001
            out.check_error = traceback.format_exc(limit=8)
        finally:
            out.check_seconds = time.perf_counter() - start
    except PageTimeout:
        out.crash = out.crash or f"timed out after {timeout}s"
    except Exception:  # noqa: BLE001
        out.crash = traceback.format_exc(limit=8)
    finally:
        if previous_handler is not None:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous_handler)
    return out


def _check_star(args: tuple[PageRef, str, int]) -> PageResult:
    return check_page(*args)


def run(pages: list[PageRef], jobs: int, dtd_path: str, timeout: int) -> Iterator[PageResult]:
    """Check pages with ``jobs`` worker processes, yielding results as they come."""
    tasks = [(p, dtd_path, timeout) for p in pages]
    if jobs <= 1:
        yield from map(_check_star, tasks)
        return
    with multiprocessing.get_context("fork").Pool(jobs, maxtasksperchild=200) as pool:
        yield from pool.imap_unordered(_check_star, tasks, chunksize=1)


# ------------------------------------------------------------------- summaries


def _pct(num: int, den: int) -> float | None:
    return None if den == 0 else 100.0 * num / den


def summarize(results: list[PageResult]) -> dict[str, Any]:
    """Counts and percentages for one group of pages."""
    xhtml = [r for r in results if r.strict is not None]
    decoded = [r for r in results if r.agreement is not None]
    times = sorted(r.normalize_seconds for r in results)
    summary = {
        "pages": len(results),
        "output": sum(r.has_output for r in results),
        "normal": sum(r.normal for r in results),
        "fallback": sum(r.status == "fallback" for r in results),
        "excluded": sum(r.status == "excluded" for r in results),
        "crashes": sum(r.crash is not None for r in results),
        "check_errors": sum(r.check_error is not None for r in results),
        "xhtml_outputs": len(xhtml),
        "strict": sum(bool(r.strict) for r in xhtml),
        "dtd_valid": sum(bool(r.dtd_valid) for r in xhtml),
        "fidelity": sum(bool(r.fidelity) for r in xhtml),
        "fidelity_whitespace_only": sum(bool(r.fidelity_whitespace_only) for r in xhtml),
        "agreement_pages": len(decoded),
        "agreement": sum(bool(r.agreement) for r in decoded),
        "normalize_seconds": sum(times),
        "normalize_p50": times[len(times) // 2] if times else 0.0,
        "normalize_max": times[-1] if times else 0.0,
    }
    summary["pct"] = {
        "output": _pct(summary["output"], len(results)),
        "normal": _pct(summary["normal"], len(results)),
        "strict": _pct(summary["strict"], len(xhtml)),
        "dtd_valid": _pct(summary["dtd_valid"], len(xhtml)),
        "fidelity": _pct(summary["fidelity"], len(xhtml)),
        "agreement": _pct(summary["agreement"], len(decoded)),
    }
    return summary


def top_dtd_errors(results: Iterable[PageResult], n: int = 15) -> list[dict[str, Any]]:
    """The ``n`` most frequent DTD error signatures: pages affected, occurrences, examples."""
    from kitten.quality import error_signature

    pages: collections.Counter[str] = collections.Counter()
    occurrences: collections.Counter[str] = collections.Counter()
    examples: dict[str, list[str]] = collections.defaultdict(list)
    for r in results:
        signatures = [error_signature(m) for m in r.dtd_errors]
        occurrences.update(signatures)
        for sig in set(signatures):
            pages[sig] += 1
            if len(examples[sig]) < 5:
                examples[sig].append(r.name)
    return [
        {"message": sig, "pages": count, "occurrences": occurrences[sig], "examples": examples[sig]}
        for sig, count in pages.most_common(n)
    ]


def _fmt_pct(value: float | None) -> str:
    return "   n/a" if value is None else f"{value:6.2f}"


def format_table(groups: dict[str, dict[str, Any]]) -> str:
    """The per-corpus table, one line per group."""
    head = (
        f"{'corpus':<17}{'pages':>6} {'output%':>7} {'normal%':>7} {'xhtml':>6} "
        f"{'strict%':>7} {'dtd%':>7} {'fidel%':>7} {'lexbor%':>7} {'crash':>5} "
        f"{'norm s':>8} {'p50 s':>6} {'max s':>6}"
    )
    lines = [head, "-" * len(head)]
    for name, s in groups.items():
        p = s["pct"]
        lines.append(
            f"{name:<17}{s['pages']:>6} {_fmt_pct(p['output']):>7} {_fmt_pct(p['normal']):>7} "
            f"{s['xhtml_outputs']:>6} {_fmt_pct(p['strict']):>7} {_fmt_pct(p['dtd_valid']):>7} "
            f"{_fmt_pct(p['fidelity']):>7} {_fmt_pct(p['agreement']):>7} {s['crashes']:>5} "
            f"{s['normalize_seconds']:>8.1f} {s['normalize_p50']:>6.2f} {s['normalize_max']:>6.2f}"
        )
    return "\n".join(lines)


def format_details(results: list[PageResult], top_errors: list[dict[str, Any]]) -> str:
    """Top DTD errors, first fidelity mismatches, crashes and non-normal pages."""
    out: list[str] = ["", "Top DTD validation errors (pages / occurrences):"]
    for e in top_errors:
        out.append(f"  {e['pages']:>5} / {e['occurrences']:>6}  {e['message'][:200]}")
        out.append(f"                  e.g. {', '.join(e['examples'][:3])}")
    mismatches = [r for r in results if r.fidelity is False and r.strict]
    spaces = sum(bool(r.fidelity_whitespace_only) for r in mismatches)
    out.append(
        f"\nFidelity mismatches (well-formed outputs): {len(mismatches)}, of which {spaces} "
        "differ only in spaces; text mismatches first, first 10:"
    )
    mismatches.sort(key=lambda r: bool(r.fidelity_whitespace_only))
    for r in mismatches[:10]:
        d = r.fidelity_diff or {}
        kind = "spaces only" if r.fidelity_whitespace_only else "text"
        out.append(f"  {r.name} at char {d.get('index')} ({kind}):")
        out.append(f"    html5lib: {d.get('expected', '')!r}")
        out.append(f"    xhtml   : {d.get('actual', '')!r}")
    disagreements = [r for r in results if r.agreement is False]
    out.append(f"\nLexbor/html5lib tree disagreements: {len(disagreements)} (first 5)")
    for r in disagreements[:5]:
        out.append(f"  {r.name}: {(r.agreement_diff or '')[:200]}")
    for label, pick in (
        ("Crashes", lambda r: r.crash is not None),
        ("Measurement errors", lambda r: r.check_error is not None),
        ("Not strictly parseable", lambda r: r.strict is False),
        ("Fallback pages", lambda r: r.status == "fallback"),
        ("Excluded pages", lambda r: r.status == "excluded"),
        ("Without output", lambda r: not r.has_output),
    ):
        picked = [r for r in results if pick(r)]
        if not picked:
            continue
        out.append(f"\n{label}: {len(picked)}")
        for r in picked[:10]:
            why = (
                r.crash or r.check_error or r.strict_error or r.excluded_reason
                or r.fallback_reason or r.status
            )
            last = (why or "").strip().splitlines()[-1:] or [""]
            out.append(f"  {r.name}: {last[0][:160]}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpora", type=Path, default=ROOT / ".cache" / "corpora")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--limit", type=int, default=None, help="at most N pages per corpus")
    ap.add_argument("--every", type=int, default=1, help="take every K-th page of each corpus")
    ap.add_argument("--report", type=Path, default=None, help="write all details as JSON")
    ap.add_argument("--dtd", default=None, help="XHTML 1.0 Transitional DTD path")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per page")
    args = ap.parse_args(argv)

    from kitten.quality import DEFAULT_DTD_PATH

    dtd_path = args.dtd or str(DEFAULT_DTD_PATH)
    pages = discover(args.corpora, args.every, args.limit)
    if not pages:
        print(f"no pages under {args.corpora}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    results: list[PageResult] = []
    for i, r in enumerate(run(pages, args.jobs, dtd_path, args.timeout), 1):
        results.append(r)
        if i % 100 == 0:
            print(f"  {i}/{len(pages)} pages, {time.perf_counter() - started:.0f}s", file=sys.stderr)
    wall = time.perf_counter() - started
    order = {(p.corpus, p.name): i for i, p in enumerate(pages)}
    results.sort(key=lambda r: order[(r.corpus, r.name)])

    groups = {c: summarize([r for r in results if r.corpus == c]) for c in CORPORA}
    groups = {c: s for c, s in groups.items() if s["pages"]}
    groups["ALL"] = summarize(results)
    top_errors = top_dtd_errors(results)
    print(format_table(groups))
    print(f"wall time {wall:.1f}s with {args.jobs} job(s)")
    print(format_details(results, top_errors))
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        report = {
            "wall_seconds": wall,
            "jobs": args.jobs,
            "summary": groups,
            "top_dtd_errors": top_dtd_errors(results, n=100),
            "pages": [asdict(r) for r in results],
        }
        args.report.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
        print(f"\nreport written to {args.report}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
