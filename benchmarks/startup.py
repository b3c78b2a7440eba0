"""Whole-process time of the ``kitten`` command beside trafilatura's (issue 38, part 7).

    python benchmarks/startup.py                  # 7 rounds, one page and a batch of 200 pages
    python benchmarks/startup.py --rounds 11 --page .cache/corpora/modern/html/some.html
    python benchmarks/startup.py --root /path/to/other/checkout   # the same figures for another checkout

What is timed, each a fresh process, the commands of a round run one after the other
(interleaved, so that a busy machine weighs on each alike), the median of the rounds
shown with the fastest:

Each line gives the median and the fastest wall-clock time, and the median CPU time.

- ``python -c pass`` and ``python -c 'import kitten'``: the interpreter, and Kitten's import;
- one page: ``kitten extract PAGE`` (the text on standard output), ``kitten extract PAGE
  -o DIR`` (an output folder, its log and run file), and ``trafilatura < PAGE``;
- a batch: ``kitten extract DIR -o OUT`` and ``trafilatura --input-dir DIR --output-dir OUT``
  on the first 200 pages (sorted by name) of a corpus (default: dragnet, news articles),
  copied into a temporary folder; each tool with its default number of processes.

Kitten runs as ``python -m kitten`` from ``--root`` (default: this checkout), so the
figures are those of that checkout's code whatever is installed. Compiled modules are
cached (``PYTHONPYCACHEPREFIX`` in a temporary folder, filled by a first round that is
not counted) as they are for an installed package, also when ``PYTHONDONTWRITEBYTECODE``
is set.

The pages come from the shared corpora, in ``.cache/corpora`` of the checkout; when they
are missing, unpack them::

    mkdir -p .cache/corpora && for f in ../shared/corpora/*.tar.xz; do tar -xJf "$f" -C .cache/corpora; done

(``--page FILE`` and ``--batch DIR`` take any page and any folder instead.) trafilatura
is in the ``bench`` extra: ``pip install -e '.[bench]'``; without it its lines are left out.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / ".cache" / "corpora"
#: a recent news article of the modern corpus (250 KB, no table)
DEFAULT_PAGE = CORPORA / "modern" / "html" / "n4k_time_001.html"
DEFAULT_BATCH = CORPORA / "dragnet" / "html"
BATCH_PAGES = 200
HOW_TO_GET = ("unpack the shared corpora: mkdir -p .cache/corpora && "
              "for f in ../shared/corpora/*.tar.xz; do tar -xJf \"$f\" -C .cache/corpora; done")


def timed(cmd: list[str], env: dict, cwd: Path, stdin: Path | None = None) -> tuple[float, float]:
    """Seconds the command takes as a whole process (its output thrown away), run in
    ``cwd`` (not a checkout: ``python -m`` looks for modules there first): wall-clock
    time, and CPU time (user and system, its child processes included: on a machine
    shared with other work, the steadier figure)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(stdin, "rb") if stdin else open(os.devnull, "rb") as fh:
        done = subprocess.run(cmd, stdin=fh, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.decode(errors='replace')[-500:]}")
    return took, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--page", type=Path, default=DEFAULT_PAGE)
    parser.add_argument("--batch", type=Path, default=DEFAULT_BATCH, help="folder whose first 200 pages are the batch")
    parser.add_argument("--no-batch", action="store_true", help="time the one-page commands only")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose kitten is timed")
    args = parser.parse_args()
    args.page, args.batch = args.page.resolve(), args.batch.resolve()
    for path in (args.page, *(() if args.no_batch else (args.batch,))):
        if not path.exists():
            raise SystemExit(f"missing {path}: {HOW_TO_GET}")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(args.root.resolve())
    py = sys.executable
    kitten = [py, "-m", "kitten", "extract"]
    trafilatura = shutil.which("trafilatura")
    with tempfile.TemporaryDirectory(prefix="kitten-startup-") as tmp:
        out = Path(tmp)
        # compiled modules cached as an installed package has them (written by the
        # warm-up round, outside both checkouts)
        env["PYTHONPYCACHEPREFIX"] = str(out / "pycache")
        commands: dict[str, tuple[list[str], Path | None]] = {
            "python -c pass": ([py, "-c", "pass"], None),
            "python -c 'import kitten'": ([py, "-c", "import kitten"], None),
            "kitten extract PAGE": (kitten + [str(args.page)], None),
            "kitten extract PAGE -o DIR": (kitten + [str(args.page), "-o", str(out / "one"), "--overwrite"], None),
        }
        if trafilatura:
            commands["trafilatura < PAGE"] = ([trafilatura], args.page)
        if not args.no_batch:
            batch = out / "batch"
            batch.mkdir()
            pages = sorted(p for p in args.batch.iterdir() if p.is_file())[:BATCH_PAGES]
            for p in pages:
                shutil.copyfile(p, batch / p.name)
            commands[f"kitten extract DIR -o OUT ({len(pages)} pages)"] = (
                kitten + [str(batch), "-o", str(out / "batch-out"), "--overwrite", "-q"], None)
            if trafilatura:
                commands[f"trafilatura --input-dir DIR ({len(pages)} pages)"] = (
                    [trafilatura, "--input-dir", str(batch), "--output-dir", str(out / "traf-out")], None)
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for n in range(-1, args.rounds):  # round -1: the warm-up (modules compiled, files in the page cache)
            for name, (cmd, stdin) in commands.items():
                if "trafilatura --input-dir" in name:
                    shutil.rmtree(out / "traf-out", ignore_errors=True)
                took = timed(cmd, env, out, stdin)
                if n >= 0:
                    times[name].append(took)
            print(f"round {n + 1}/{args.rounds}" if n >= 0 else "warm-up round", file=sys.stderr, end="\r")
    print(f"kitten from {args.root}; page {args.page} ({args.page.stat().st_size // 1024} KB); "
          f"{args.rounds} rounds, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    width = max(map(len, times))
    print(f"{'command':{width}}  median  fastest   CPU (median)")
    for name, got in times.items():
        wall = [w for w, _ in got]
        cpu = [c for _, c in got]
        print(f"{name:{width}}  {statistics.median(wall):5.2f} s  {min(wall):5.2f} s  {statistics.median(cpu):5.2f} s")
    if not trafilatura:
        print("(trafilatura not installed: pip install -e '.[bench]')")


if __name__ == "__main__":
    main()
