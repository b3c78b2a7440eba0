"""Pages/s of ``kitten.dask.records`` on a local Dask cluster of 1 and 2 worker processes
beside the local batch (``kitten extract -j 1`` and ``-j 2``), on the same WARC set.

    python benchmarks/dask_scaling.py [--pages 1000] [--files 4] [--rounds 2]

The WARC set: the first ``--pages`` pages of CLEANEVAL final, Dragnet and the other
shared corpora, written as ``--files`` WARC.gz files (``warc_record``). Each run converts
them to JSON Lines records (the Dask runs as ``--engine dask``: ``write_shards``, each
task writing its shard); the cluster's start-up is not counted, the models are loaded
before the clock starts (a warm-up task per worker). Prints each run's pages/s, the
median over ``--rounds``, the ratio of 2 to 1 workers and of Dask to ``-j 2``, and
checks that every run wrote the same records. Each page runs under the time limit, in
a page process of its task, as with ``--engine dask``.
"""
from __future__ import annotations

import argparse
import gzip
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _pages import DEFAULT_CORPORA  # noqa: E402

from kitten.config import Config  # noqa: E402
from kitten.engine import Job  # noqa: E402
from kitten.io.warc import warc_record  # noqa: E402


def warc_set(corpora: Path, pages: int, files: int, folder: Path) -> None:
    paths = []
    for name in ("cleaneval-final", "dragnet", "cleaneval-dev", "readability", "cleanportaleval"):
        folder_html = corpora / name / "html"
        if folder_html.is_dir():
            paths += sorted(p for p in folder_html.iterdir() if p.is_file())
    if len(paths) < pages:
        raise SystemExit(f"only {len(paths)} pages in {corpora}")
    paths = paths[:pages]
    per = -(-pages // files)
    for f in range(files):
        with open(folder / f"set-{f}.warc.gz", "wb") as out:
            for i, p in enumerate(paths[f * per:(f + 1) * per]):
                out.write(warc_record(f"https://example.org/{f}/{i}", p.read_bytes()))


def local(folder: Path, jobs: int, out: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "kitten", "extract", str(folder), "--format", "jsonl", "-o", str(out),
                    "-j", str(jobs), "-q", "--overwrite"], check=True)
    return time.perf_counter() - start


def dask_run(folder: Path, workers: int, out: Path) -> float:
    import dask
    import distributed

    import kitten.dask

    with dask.config.set({"distributed.worker.daemon": False}), \
            distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                     dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:  # as --engine dask: page processes in tasks
        client.run(lambda: kitten.extract(b"<table><tr><th>a</th></tr><tr><td>1</td></tr></table><p>x</p>"))
        shards = out.with_suffix(".shards")
        start = time.perf_counter()
        run = kitten.dask.write_shards([folder], shards, Job("text", Config()), client, overwrite=True)
        seconds = time.perf_counter() - start
        assert not run.failed, run.failed
        with open(out, "wb") as fh:  # the shards end to end: the records, for the comparison
            for shard in sorted(shards.glob("task-*.jsonl.gz")):
                fh.write(gzip.decompress(shard.read_bytes()))
        return seconds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA)
    ap.add_argument("--pages", type=int, default=1000)
    ap.add_argument("--files", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "in").mkdir()
        warc_set(args.corpora, args.pages, args.files, tmp / "in")
        runs = {"local -j 1": lambda o: local(tmp / "in", 1, o), "local -j 2": lambda o: local(tmp / "in", 2, o),
                "dask 1 worker": lambda o: dask_run(tmp / "in", 1, o),
                "dask 2 workers": lambda o: dask_run(tmp / "in", 2, o)}
        rates: dict[str, list[float]] = {k: [] for k in runs}
        outputs = set()
        for r in range(args.rounds):
            for name, fn in runs.items():
                out = tmp / f"{name.replace(' ', '_')}.jsonl"
                seconds = fn(out)
                rates[name].append(args.pages / seconds)
                outputs.add(out.read_bytes())
                print(f"round {r + 1}  {name:15s} {args.pages / seconds:7.1f} pages/s", flush=True)
        med = {k: statistics.median(v) for k, v in rates.items()}
        print("median pages/s: " + ", ".join(f"{k} {v:.1f}" for k, v in med.items()))
        print(f"dask 2 workers / 1 worker: {med['dask 2 workers'] / med['dask 1 worker']:.2f}x; "
              f"dask 2 workers / local -j 2: {med['dask 2 workers'] / med['local -j 2']:.2f}")
        print("same records in every run" if len(outputs) == 1 else f"RECORDS DIFFER: {len(outputs)} versions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
