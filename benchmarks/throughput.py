"""Extraction speed and memory of Kitten and its peers on the same pages, one core.

    python benchmarks/throughput.py [--corpora .cache/corpora] [--per-corpus 200] [--repeat 3]
                                    [--sets cleaneval-final,dragnet]
                                    [--rounds 1] [--tools kitten,resiliparse,...]

The pages are ``benchmark_pages()`` of ``_pages.py`` (the first 200 of CLEANEVAL
final and of Dragnet: the 400 pages of GUIDE section 4). Each tool runs in a fresh
subprocess pinned to one CPU (so imports and memory of one tool do not weigh on
another): it loads the pages, warms up on the first 20, then extracts all pages
``--repeat`` times and keeps the best time. Printed side by side: docs/s (wall clock),
docs per CPU second of the process (steadier when other processes share the machine), MB/s (of
the pages as crawled, bytes), pages where the tool raised or returned nothing, and
memory: the peak RSS of the process (``ru_maxrss``) and its growth over the baseline
taken after the pages were loaded and the tool imported.

A tool written ``kitten@DIR`` is Kitten imported from another checkout (e.g. a
``git worktree`` of the commit before a change), to compare before and after in one run.

``--rounds N`` measures every tool N times, the order of the tools reversed every
other round (a machine whose speed drifts favours no tool), prints each round, then
each tool's median and range of docs/s over the rounds and in how many rounds the first
tool was faster than each other one: on a shared machine one run can be 20% off.

GUIDE section 4 gives reference figures from another machine (resiliparse ~1,490
docs/s, html-text ~370, inscriptis ~200, jusText ~90, trafilatura ~65-90); this one
is about 3-4x slower, and other processes may share its cores: compare tools within
one run, not runs across machines.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _pages import DEFAULT_CORPORA, DEFAULT_SETS, benchmark_pages  # noqa: E402
from peers import PEERS, load_peer, missing_reason, run_peer  # noqa: E402

DEFAULT_TOOLS = ("kitten", "resiliparse", "html-text", "inscriptis", "trafilatura", "readability", "justext")
WARM_UP_PAGES = 20


def _maxrss_mb() -> float:
    # ru_maxrss is in KiB on Linux (bytes on macOS).
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 1e6


def _current_rss_mb() -> float:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6
    except OSError:
        return _maxrss_mb()


def worker(tool: str, corpora: Path, per_corpus: int, repeat: int, cpu: int | None,
           sets: tuple[str, ...] = DEFAULT_SETS) -> dict:
    """Measure one tool in this process (called in a fresh subprocess)."""
    import gc
    import warnings

    warnings.filterwarnings("ignore")
    if cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu})
    pages = [data for _, data in benchmark_pages(corpora, per_corpus, sets)]
    extract = load_peer(tool)
    for data in pages[:WARM_UP_PAGES]:
        run_peer(extract, data)
    gc.collect()
    baseline = _current_rss_mb()
    best = best_cpu = float("inf")
    failed = empty = 0
    for n in range(repeat):
        failed = empty = 0
        t0, c0 = time.perf_counter(), time.process_time()
        for data in pages:
            text = run_peer(extract, data)
            if text is None:
                failed += 1
            elif not text.strip():
                empty += 1
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    return {
        "tool": tool,
        "pages": len(pages),
        "mb": sum(len(p) for p in pages) / 1e6,
        "seconds": best,
        "cpu_seconds": best_cpu,
        "failed": failed,
        "empty": empty,
        "baseline_mb": baseline,
        "peak_mb": _maxrss_mb(),
    }


def _run_tool(tool: str, args: argparse.Namespace, cpu: int | None) -> dict:
    """One tool in a fresh subprocess. ``NAME@DIR`` runs the tool with the ``kitten`` package
    of another checkout first on the path (``kitten@/tmp/before``: before/after in one run)."""
    name, _, checkout = tool.partition("@")
    cmd = [sys.executable, __file__, "--worker", name, "--corpora", str(args.corpora),
           "--per-corpus", str(args.per_corpus), "--repeat", str(args.repeat), "--sets", args.sets]
    if cpu is not None:
        cmd += ["--cpu", str(cpu)]
    env = {**os.environ, "PYTHONPATH": checkout} if checkout else None
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        return {"tool": tool, "error": (proc.stderr.strip().splitlines() or ["exit %d" % proc.returncode])[-1]}
    return {**json.loads(proc.stdout.strip().splitlines()[-1]), "tool": tool}


def _sets(args: argparse.Namespace) -> tuple[str, ...]:
    return tuple(s.strip() for s in args.sets.split(",") if s.strip())


def _pick_cpu() -> int | None:
    if not hasattr(os, "sched_getaffinity"):
        return None
    cpus = sorted(os.sched_getaffinity(0))
    return cpus[-1] if cpus else None


def _summary(tools: list[str], speeds: dict[str, list[float]]) -> None:
    """Median and range of each tool's docs/s over the rounds; the first tool against each
    other one, round by round (rounds where both ran)."""
    print(f"over the rounds: {'tool':<13}{'median':>8}{'min':>8}{'max':>8}  docs/s")
    for tool in tools:
        xs = sorted(speeds[tool])
        if xs:
            print(f"                 {tool:<13}{statistics.median(xs):>8.1f}{xs[0]:>8.1f}{xs[-1]:>8.1f}")
    first = tools[0] if tools else None
    for other in tools[1:]:
        pairs = list(zip(speeds[first], speeds[other]))
        if pairs:
            wins = sum(a > b for a, b in pairs)
            print(f"{first} faster than {other} in {wins} of {len(pairs)} rounds "
                  f"(docs/s ratio per round: {', '.join(f'{a / b:.2f}' for a, b in pairs)})")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA)
    ap.add_argument("--per-corpus", type=int, default=200)
    ap.add_argument("--sets", default=",".join(DEFAULT_SETS),
                    help="corpora of .cache/corpora to read pages from (modern: 192 recent news pages)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=1,
                    help="measure every tool this many times, alternating the order (summary at the end)")
    ap.add_argument("--tools", default=",".join(DEFAULT_TOOLS),
                    help=f"comma-separated, from: {', '.join(PEERS)}")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--cpu", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.worker:
        print(json.dumps(worker(args.worker, args.corpora, args.per_corpus, args.repeat, args.cpu, _sets(args))))
        return

    tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    pages = benchmark_pages(args.corpora, args.per_corpus, _sets(args))  # fail early if the corpora are missing
    mb = sum(len(d) for _, d in pages) / 1e6
    cpu = _pick_cpu()
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    print(f"Throughput on {len(pages)} pages ({mb:.1f} MB as crawled), one core (cpu {cpu}), "
          f"warm-up {WARM_UP_PAGES} pages, best of {args.repeat}; load average at start {load:.2f} "
          f"on {os.cpu_count()} cores")
    width = max(13, *(len(t) + 1 for t in tools))
    print(f"{'tool':<{width}}{'docs/s':>9}{'cpu d/s':>9}{'MB/s':>8}{'seconds':>9}{'failed':>8}{'empty':>7}"
          f"{'peak RSS MB':>13}{'growth MB':>11}" + ("   round" if args.rounds > 1 else ""))
    runnable = []
    for tool in tools:
        name, _, checkout = tool.partition("@")
        reason = missing_reason(name) or (f"no kitten package in {checkout}"
                                          if checkout and not (Path(checkout) / "kitten").is_dir() else None)
        if reason:
            print(f"{tool:<{width}}  skipped: {reason}")
        else:
            runnable.append(tool)
    speeds: dict[str, list[float]] = {t: [] for t in runnable}  # docs/s per round
    cpu_speeds: dict[str, list[float]] = {t: [] for t in runnable}  # docs per CPU second
    for n in range(args.rounds):
        order = runnable if n % 2 == 0 else runnable[::-1]
        for tool in order:
            r = _run_tool(tool, args, cpu)
            if "error" in r:
                print(f"{tool:<{width}}  error: {r['error']}")
                continue
            speeds[tool].append(r["pages"] / r["seconds"])
            cpu_speeds[tool].append(r["pages"] / r["cpu_seconds"])
            print(f"{tool:<{width}}{r['pages'] / r['seconds']:>9.1f}{r['pages'] / r['cpu_seconds']:>9.1f}"
                  f"{r['mb'] / r['seconds']:>8.2f}{r['seconds']:>9.2f}"
                  f"{r['failed']:>8}{r['empty']:>7}{r['peak_mb']:>13.0f}{r['peak_mb'] - r['baseline_mb']:>11.0f}"
                  + (f"{n + 1:>8}" if args.rounds > 1 else ""), flush=True)
    if args.rounds > 1:
        _summary(runnable, speeds)
        print("per CPU second of the process (less sensitive to other processes on the machine):")
        _summary(runnable, cpu_speeds)
    try:
        load = os.getloadavg()[0]
        print(f"load average at end {load:.2f}: above ~1 other processes shared the machine "
              f"and the figures are noisy" if load > 1.5 else f"load average at end {load:.2f}")
    except OSError:
        pass


if __name__ == "__main__":
    main()
