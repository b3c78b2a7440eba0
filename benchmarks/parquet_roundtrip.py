"""Parquet beside JSON Lines (issue 38, part 8): the same records, typed, as fast.

    python benchmarks/parquet_roundtrip.py [--pages 1000] [--files 4] [--rounds 3] [--jobs 1]

The page set: the first ``--pages`` pages of CLEANEVAL final, Dragnet and the other shared
corpora written as ``--files`` WARC.gz files (``dask_scaling.warc_set``: records with a
URL, a record id, an offset and a date). The corpora are read from ``.cache/corpora``;
without them: ``mkdir -p .cache/corpora && for f in ../shared/corpora/*.tar.xz; do tar
-xJf "$f" -C .cache/corpora; done``.

1. Throughput: ``kitten extract SET --format jsonl --shard-size 250 -o J`` and the same
   with ``--format parquet``, ``--rounds`` rounds, the two formats alternating (which one
   goes first alternates too). Prints the batch's docs/s (Kitten's summary: from the
   first input to the last shard closed), the whole process's (start, imports, the
   pyarrow import included) and docs per CPU second (user + system time of the command
   and its worker processes: the figure that holds on a machine others are using too),
   their medians, the ratios of the medians Parquet / JSON Lines and the median of each
   round's ratio.
2. Writing only: the pages converted once in this process (``kitten.batch.run`` into a
   ``MemorySink``, with every extra), then the same outcomes written ``--rounds`` times by
   each sink (``JsonlShardSink``, ``ParquetShardSink``; shards of 250): the format's own
   cost, free of the conversion's noise on a shared machine, in ms a page and as a share
   of the conversion's time.
3. Round trip: the last round's outputs, and one more pair with every extra (``--fields
   blocks,sentences,tables,lists,gate,events``), read back (JSON Lines: the shards' lines;
   Parquet: ``pyarrow.dataset`` on the folder, JSON text columns decoded) and compared
   record by record: the same ids in the same order, the same values (a field JSON Lines
   leaves out must be null in Parquet), and for each field the same Python types. Also
   counts the rows ``pandas.read_parquet`` and ``datasets.load_dataset("parquet", ...)``
   read (the latter when datasets is installed).

Exit 1 when a round trip differs.
"""
from __future__ import annotations

import argparse
import gzip
import json
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _pages import DEFAULT_CORPORA  # noqa: E402
from dask_scaling import warc_set  # noqa: E402

from kitten.batch import run  # noqa: E402
from kitten.config import Config  # noqa: E402
from kitten.engine import JSONL_FIELDS, Job  # noqa: E402
from kitten.io.jsonl import JsonlShardSink  # noqa: E402
from kitten.io.sinks import MemorySink  # noqa: E402
from kitten.io.sources import InputStats, records  # noqa: E402

SHARD = 250
SUMMARY = re.compile(r"(\d+) pages in ([\d.]+) s")


def extract(src: Path, fmt: str, out: Path, jobs: int, fields: tuple[str, ...] = ()) -> tuple[float, float, float]:
    """One run: (batch docs/s, whole-process docs/s, docs per CPU second)."""
    argv = [sys.executable, "-m", "kitten", "extract", str(src), "--format", fmt, "--shard-size", str(SHARD),
            "-o", str(out), "-j", str(jobs), "--overwrite"] + (["--fields", ",".join(fields)] if fields else [])
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    whole = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    found = SUMMARY.search(done.stderr)
    assert found, done.stderr
    pages, seconds = int(found[1]), float(found[2])
    return pages / seconds, pages / whole, pages / (after.ru_utime - cpu.ru_utime + after.ru_stime - cpu.ru_stime)


def writing_only(src: Path, work: Path, rounds: int) -> None:
    """Step 2 of the module's docstring."""
    from kitten.io.parquet import ParquetShardSink

    for fields in ((), JSONL_FIELDS):
        memory = MemorySink()
        summary = run(records([str(src)], InputStats()), Job("text", Config(), fields=fields), memory)
        convert_ms = summary.seconds * 1000 / len(memory.outcomes)
        sinks = {"jsonl": lambda out: JsonlShardSink(out, SHARD, overwrite=True),
                 "parquet": lambda out: ParquetShardSink(out, SHARD, fields, overwrite=True)}
        times: dict[str, list[float]] = {fmt: [] for fmt in sinks}
        for n in range(rounds):
            for fmt in (sinks if n % 2 == 0 else reversed(list(sinks))):
                start = time.perf_counter()
                sink = sinks[fmt](work / f"write-{fmt}")
                for outcome in memory.outcomes:
                    sink.write(outcome)
                sink.close(complete=True)
                times[fmt].append((time.perf_counter() - start) * 1000 / len(memory.outcomes))
        label = "default fields" if not fields else "every extra"
        print(f"writing only ({label}; converting took {convert_ms:.1f} ms a page here): " + ", ".join(
            f"{fmt} {statistics.median(t):.3f} ms a page ({statistics.median(t) / convert_ms:.1%} of converting)"
            for fmt, t in times.items()))


def jsonl_records(folder: Path) -> list[dict]:
    out = []
    for shard in sorted(folder.glob("part-*.jsonl.gz")):
        with gzip.open(shard, "rt", encoding="utf-8") as fh:
            out += [json.loads(line) for line in fh]
    return out


def parquet_records(folder: Path) -> tuple[list[dict], object]:
    """The records as ``pyarrow.dataset`` reads the folder (JSON text decoded), and its schema."""
    import pyarrow.dataset as ds

    from kitten.io.arrow import from_rows

    table = ds.dataset(folder, format="parquet").to_table()
    return from_rows(table.to_pylist(), table.schema), table.schema


def types(records: list[dict]) -> dict[str, set[str]]:
    """Per field, the type names of its values (``absent`` where a record lacks it)."""
    seen: dict[str, set[str]] = defaultdict(set)
    names = {k for r in records for k in r}
    for r in records:
        for k in names:
            seen[k].add(type(r[k]).__name__ if k in r else "absent")
    return seen


def compare(jsonl: list[dict], parquet: list[dict]) -> list[str]:
    """What differs between the two readings (empty: the same)."""
    problems = []
    if len(jsonl) != len(parquet):
        problems.append(f"records: {len(jsonl)} JSON Lines, {len(parquet)} Parquet")
    for a, b in zip(jsonl, parquet):
        if a["id"] != b["id"]:
            problems.append(f"order: {a['id']} against {b['id']}")
            break
        bad = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k) or (k in a and k not in b))
        if bad:
            problems.append(f"{a['id']}: {', '.join(bad)}")
    ta, tb = types(jsonl), types(parquet)
    for k in sorted(ta.keys() | tb.keys()):
        left = {"NoneType" if t == "absent" else t for t in ta.get(k, {"absent"})}  # Parquet: null
        if left != tb.get(k, {"absent"}):
            problems.append(f"types of {k}: JSON Lines {sorted(ta.get(k, {'absent'}))}, Parquet {sorted(tb.get(k, {'absent'}))}")
    return problems


def round_trip(work: Path, label: str) -> bool:
    jsonl = jsonl_records(work / "jsonl")
    parquet, schema = parquet_records(work / "parquet")
    problems = compare(jsonl, parquet)
    statuses = sorted({r["status"] for r in jsonl})
    print(f"\nround trip ({label}): {len(jsonl)} JSON Lines records, {len(parquet)} Parquet rows "
          f"({len(list((work / 'parquet').glob('*.parquet')))} shards; statuses {', '.join(statuses)}): "
          + ("the same, record by record" if not problems else f"{len(problems)} DIFFERENCES"))
    for p in problems[:20]:
        print(f"  {p}")
    ta = types(jsonl)
    print(f"  {'field':24} {'Arrow type':10} JSON Lines value types = Parquet value types")
    for f in schema:
        arrow_type = "json text" if (f.metadata or {}).get(b"kitten.encoding") == b"json" else str(f.type)
        print(f"  {f.name:24} {arrow_type:10} {', '.join(sorted(ta.get(f.name, {'absent'})))}")
    import pandas

    frame = pandas.read_parquet(work / "parquet")
    print(f"  pandas.read_parquet: {len(frame)} rows, offset {frame['offset'].dtype}, text {frame['text'].dtype}")
    try:
        import datasets
    except ImportError:
        print("  datasets: not installed (pip install datasets), not tried")
    else:
        datasets.disable_progress_bars()
        got = datasets.load_dataset("parquet", data_files=str(work / "parquet" / "*.parquet"), split="train",
                                    cache_dir=str(work / "hf"))
        print(f"  datasets.load_dataset('parquet'): {got.num_rows} rows, offset {got.features['offset'].dtype}")
        problems += [] if got.num_rows == len(jsonl) else ["datasets rows"]
    problems += [] if len(frame) == len(jsonl) else ["pandas rows"]
    return not problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA)
    ap.add_argument("--pages", type=int, default=1000)
    ap.add_argument("--files", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    if not args.corpora.is_dir():
        raise SystemExit(f"no corpora in {args.corpora}: mkdir -p .cache/corpora && for f in ../shared/corpora/*.tar.xz; "
                         'do tar -xJf "$f" -C .cache/corpora; done')
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        src = work / "set"
        src.mkdir()
        warc_set(args.corpora, args.pages, args.files, src)
        print(f"{args.pages} pages in {args.files} WARC files; -j {args.jobs}; shards of {SHARD}; "
              f"{args.rounds} rounds")
        rates: dict[str, list[tuple[float, float, float]]] = {"jsonl": [], "parquet": []}
        for n in range(args.rounds):
            order = ("jsonl", "parquet") if n % 2 == 0 else ("parquet", "jsonl")
            for fmt in order:
                rates[fmt].append(extract(src, fmt, work / fmt, args.jobs))
            print(f"round {n + 1}: " + ", ".join(f"{fmt} {r[0]:.1f} docs/s (whole process {r[1]:.1f}; "
                                                 f"{r[2]:.1f} docs per CPU second)"
                                                 for fmt, r in ((f, rates[f][-1]) for f in rates)))
        medians = {fmt: [statistics.median(r[i] for r in runs) for i in range(3)] for fmt, runs in rates.items()}
        for fmt, (batch, whole, cpu) in medians.items():
            print(f"median {fmt:8} {batch:.1f} docs/s, whole process {whole:.1f} docs/s, {cpu:.1f} docs per CPU second")
        print("Parquet / JSON Lines: " + ", ".join(f"{label} {medians['parquet'][i] / medians['jsonl'][i]:.3f}"
                                                   for i, label in enumerate(("batch", "whole process", "CPU"))))
        paired = [statistics.median(p[i] / j[i] for p, j in zip(rates["parquet"], rates["jsonl"])) for i in range(3)]
        print("  median of the rounds' ratios: " + ", ".join(
            f"{label} {r:.3f}" for label, r in zip(("batch", "whole process", "CPU"), paired)))
        writing_only(src, work, args.rounds)
        ok = round_trip(work, "default fields")
        for fmt in ("jsonl", "parquet"):
            extract(src, fmt, work / fmt, args.jobs, JSONL_FIELDS)
        ok = round_trip(work, "--fields " + ",".join(JSONL_FIELDS)) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
