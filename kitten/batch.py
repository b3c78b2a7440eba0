"""Batch conversion of many files, in worker processes, never stopping on a bad page.

Each page is read, run through the pipeline and written (atomically) by a worker;
the parent only collects small records, shows progress and writes the batch log
(``kitten-log.jsonl`` in the output folder: one JSON line per page with its status,
encoding and events). If a worker process dies (a crash in native code), the pages
it had in hand are retried one by one in a fresh process, and a page that kills its
worker again gets the plain-text fallback, written by the parent.
"""
from __future__ import annotations

import json
import sys
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, TextIO

from kitten.boilerplate import FALLBACK as GATE_FALLBACK
from kitten.config import Config
from kitten.fallback import plain_text_dump
from kitten.lists import LINK_ITEM_REMOVED
from kitten.io.files import InputFile, atomic_write, output_path, read_page
from kitten.page import Page
from kitten.pipeline import DUMPS, PageResult, Target, run_page


@dataclass(frozen=True)
class Job:
    """What every worker needs to know (sent once per page; small and picklable)."""

    out_dir: Path | None  # None: write nothing (the caller prints the single result)
    target: Target
    config: Config
    dump_dir: Path | None = None


@dataclass(frozen=True)
class PageRecord:
    """What a worker reports back for one page."""

    rel: str
    status: str  # done, excluded, fallback, failed
    size: int
    encoding: str | None
    output: str | None  # the path written, if any
    events: list[dict]
    text: str | None = None  # the output itself, only when out_dir is None
    source: str = ""  # the input file as found (unambiguous when several folders are given)


@dataclass
class Summary:
    counts: Counter = field(default_factory=Counter)
    pages: int = 0
    bytes: int = 0
    seconds: float = 0.0
    excluded_reasons: Counter = field(default_factory=Counter)
    fallback_reasons: Counter = field(default_factory=Counter)
    expansions: Counter = field(default_factory=Counter)  # "abbr: NSW (New South Wales)" -> count
    removals: Counter = field(default_factory=Counter)  # removal reason -> count
    link_items: Counter = field(default_factory=Counter)  # removed link-list item text -> count
    gate_fallbacks: Counter = field(default_factory=Counter)  # boilerplate-fallback reason -> count

    def add(self, rec: PageRecord) -> None:
        self.pages += 1
        self.bytes += rec.size
        self.counts[rec.status] += 1
        for e in rec.events:
            if e["kind"] == "excluded":
                self.excluded_reasons[e["message"]] += 1
            elif e["kind"] == "fallback":
                self.fallback_reasons[e["message"].split(":")[0]] += 1
            elif e["kind"] in ("abbr", "acronym"):
                self.expansions[f"{e['kind']}: {e['message']}"] += 1
            elif e["kind"].startswith("removed-"):
                self.removals[e["kind"][8:]] += 1
            elif e["kind"] == LINK_ITEM_REMOVED:
                self.link_items[e["message"]] += 1
            elif e["kind"] == GATE_FALLBACK:
                self.gate_fallbacks[e["message"].split(":")[0]] += 1

    def line(self) -> str:
        rate = self.pages / self.seconds if self.seconds else 0.0
        mbs = self.bytes / 1e6 / self.seconds if self.seconds else 0.0
        c = self.counts
        return (f"{self.pages} pages in {self.seconds:.1f} s ({rate:.1f} pages/s, {mbs:.2f} MB/s): "
                f"done {c['done']}, excluded {c['excluded']}, fallback {c['fallback']}, failed {c['failed']}")


def process(item: InputFile, job: Job) -> PageRecord:
    """Read, convert and write one page (runs in a worker process)."""
    rel = str(item.rel)
    try:
        data = read_page(item.path)
    except OSError as exc:
        return PageRecord(rel, "failed", 0, None, None,
                          [{"step": "read", "kind": "failed", "message": str(exc)}])
    result = run_page(Page(data=data, name=rel), job.config, job.target)
    written = None
    if result.output is not None and job.out_dir is not None:
        path = output_path(job.out_dir, item, result.output_suffix)
        atomic_write(path, result.output)
        written = str(path)
    if job.dump_dir is not None:
        write_dumps(result, job.dump_dir, item)
    decoded = result.decoded
    return PageRecord(rel, result.status, len(data), decoded.encoding if decoded else None, written,
                      [e.as_dict() for e in result.log],
                      result.output if job.out_dir is None else None, str(item.path))


def write_dumps(result: PageResult, dump_dir: Path, item: InputFile) -> None:
    """Every intermediate product of the page, one file each, plus its log."""
    for step, product in result.products.items():
        suffix, to_text = DUMPS[step]
        atomic_write(output_path(dump_dir, item, suffix), product if to_text is None else to_text(product))
    log = {"name": result.name, "status": result.status, "error": result.error,
           "events": [e.as_dict() for e in result.log]}
    atomic_write(output_path(dump_dir, item, ".log.json"), json.dumps(log, ensure_ascii=False, indent=1))


def _crashed(item: InputFile, job: Job, reason: str) -> PageRecord:
    """The parent's last resort for a page that killed its worker twice."""
    events = [{"step": "worker", "kind": "fallback", "message": f"worker crashed: {reason}"}]
    try:
        data = read_page(item.path)
        text = plain_text_dump(data)
    except Exception as exc:  # noqa: BLE001
        events.append({"step": "fallback", "kind": "failed", "message": str(exc)})
        return PageRecord(str(item.rel), "failed", 0, None, None, events)
    written = None
    if job.out_dir is not None:
        path = output_path(job.out_dir, item, ".txt")
        atomic_write(path, text)
        written = str(path)
    return PageRecord(str(item.rel), "fallback", len(data), None, written, events,
                      text if job.out_dir is None else None)


def run_batch(items: Iterable[InputFile], job: Job, jobs: int = 1,
              on_record: Callable[[PageRecord], None] | None = None,
              progress: TextIO | None = None, total: int | None = None) -> Summary:
    """Convert every item; return the summary. ``on_record`` sees each page's record."""
    summary = Summary()
    start = time.perf_counter()
    bar = _Progress(progress, total)

    def done(rec: PageRecord) -> None:
        summary.add(rec)
        if on_record is not None:
            on_record(rec)
        bar.update(summary, time.perf_counter() - start)

    if jobs <= 1:
        for item in items:
            done(process(item, job))
    else:
        _run_parallel(list(items), job, jobs, done)
    summary.seconds = time.perf_counter() - start
    bar.close(summary)
    return summary


def _run_parallel(items: list[InputFile], job: Job, jobs: int, done: Callable[[PageRecord], None]) -> None:
    pending = list(reversed(items))
    suspects: list[InputFile] = []
    while pending:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            inflight: dict[Future, InputFile] = {}
            try:
                while pending or inflight:
                    while pending and len(inflight) < jobs * 4:
                        item = pending.pop()
                        inflight[pool.submit(process, item, job)] = item
                    finished, _ = wait(inflight, return_when=FIRST_COMPLETED)
                    for fut in finished:
                        item = inflight.pop(fut)
                        done(fut.result())
            except BrokenProcessPool:
                suspects.extend(inflight.values())
    for item in suspects:  # each alone in a fresh process
        try:
            with ProcessPoolExecutor(max_workers=1) as solo:
                done(solo.submit(process, item, job).result())
        except BrokenProcessPool as exc:
            done(_crashed(item, job, str(exc) or "process died"))


class _Progress:
    """A one-line progress bar on a terminal (nothing when not a terminal)."""

    def __init__(self, stream: TextIO | None, total: int | None):
        self.stream = stream if stream is not None and stream.isatty() else None
        self.total = total
        self.last = 0.0

    def update(self, s: Summary, elapsed: float) -> None:
        if self.stream is None or elapsed - self.last < 0.2:
            return
        self.last = elapsed
        of = f"/{self.total}" if self.total else ""
        c = s.counts
        self.stream.write(f"\r{s.pages}{of} pages  {s.pages / elapsed:.1f} pages/s  "
                          f"done {c['done']} excluded {c['excluded']} fallback {c['fallback']} "
                          f"failed {c['failed']}   ")
        self.stream.flush()

    def close(self, s: Summary) -> None:
        if self.stream is not None:
            self.stream.write("\r" + " " * 100 + "\r")
            self.stream.flush()


def write_log_line(fh: TextIO, rec: PageRecord) -> None:
    """One JSON line for a page; ``gate`` is ``"fallback"`` when the boilerplate gate's
    labels were overridden (``boilerplate-fallback`` event), ``"labelled"`` when they
    were applied, absent without the gate."""
    line = {"page": rec.rel, "status": rec.status, "encoding": rec.encoding, "output": rec.output}
    kinds = {e["kind"] for e in rec.events if e["step"] == "gate"}
    if kinds:
        line["gate"] = "fallback" if GATE_FALLBACK in kinds else "labelled"
    line["events"] = rec.events
    fh.write(json.dumps(line, ensure_ascii=False) + "\n")


def write_removed_items(fh: TextIO, rec: PageRecord) -> None:
    """The removal log of link-list items: page (the input file as found), list locator,
    item text (tab-separated)."""
    for e in rec.events:
        if e["kind"] == LINK_ITEM_REMOVED:
            fh.write(f"{rec.source or rec.rel}\t{e.get('where', '')}\t{e['message']}\n")


def print_summary(summary: Summary, stream: TextIO | None = None, top_items: int = 20) -> None:
    stream = stream or sys.stderr
    stream.write(summary.line() + "\n")
    for reason, n in summary.excluded_reasons.most_common(5):
        stream.write(f"  excluded x{n}: {reason}\n")
    for reason, n in summary.fallback_reasons.most_common(5):
        stream.write(f"  fallback x{n}: {reason}\n")
    if summary.gate_fallbacks:
        stream.write(f"  boilerplate gate overridden on {sum(summary.gate_fallbacks.values())} pages: "
                     + ", ".join(f"{r} x{n}" for r, n in summary.gate_fallbacks.most_common()) + "\n")
    if summary.removals:
        stream.write("  removed: " + ", ".join(f"{r} x{n}" for r, n in summary.removals.most_common()) + "\n")
    if summary.expansions:
        abbr = sum(n for k, n in summary.expansions.items() if k.startswith("abbr"))
        acronym = sum(summary.expansions.values()) - abbr
        stream.write(f"  expanded: {abbr} abbr, {acronym} acronym; most frequent:\n")
        for text, n in summary.expansions.most_common(10):
            stream.write(f"    x{n} {text}\n")
    if summary.link_items and top_items:
        total = sum(summary.link_items.values())
        stream.write(f"  link-list items removed: {total} ({len(summary.link_items)} distinct); "
                     "most frequent:\n")
        for text, n in summary.link_items.most_common(top_items):
            stream.write(f"    x{n} {text}\n")
