"""Batch runs: sources -> skip what a resumed run has -> worker pool -> sink, with its
progress (``kitten.progress``) and a summary in which every input is counted once.

``run`` is what ``kitten extract`` and ``kitten normalize`` call with an output (a folder,
or JSON Lines). Outcomes reach the sink in input order, so ``-j 1`` and ``-j 4`` write the
same files and the same log.
"""
from __future__ import annotations

import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Protocol, TextIO

from kitten.boilerplate import FALLBACK as GATE_FALLBACK
from kitten.engine import Job, Outcome
from kitten.io.records import Record
from kitten.io.sources import InputStats
from kitten.lists import LINK_ITEM_REMOVED
from kitten.progress import Progress
from kitten.workers import Interrupted, run_records


class Sink(Protocol):
    def skip(self, record: Record) -> bool: ...
    def write(self, outcome: Outcome) -> None: ...
    def close(self, complete: bool) -> None: ...


@dataclass
class Summary:
    counts: Counter = field(default_factory=Counter)  # status -> records
    pages: int = 0  # records with an outcome in this run
    resumed: int = 0  # records an earlier run had done (skipped)
    bytes: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    signal: int = 0  # the signal that stopped the run (when interrupted)
    excluded_reasons: Counter = field(default_factory=Counter)
    fallback_reasons: Counter = field(default_factory=Counter)
    failed_reasons: Counter = field(default_factory=Counter)
    expansions: Counter = field(default_factory=Counter)  # "abbr: NSW (New South Wales)" -> count
    removals: Counter = field(default_factory=Counter)  # removal reason -> count
    link_items: Counter = field(default_factory=Counter)  # removed link-list item text -> count
    gate_fallbacks: Counter = field(default_factory=Counter)  # boilerplate-fallback reason -> count
    inputs: InputStats = field(default_factory=InputStats)

    def add(self, o: Outcome) -> None:
        self.pages += 1
        self.bytes += o.size
        self.counts[o.status] += 1
        if o.status == "excluded":
            self.excluded_reasons[_short(o.reason)] += 1
        elif o.status in ("failed", "timeout"):
            self.failed_reasons[_short(o.reason)] += 1
        for e in o.events:
            kind = e["kind"]
            if kind == "fallback":
                self.fallback_reasons[e["message"].split(":")[0]] += 1
            elif kind in ("abbr", "acronym"):
                self.expansions[f"{kind}: {e['message']}"] += 1
            elif kind.startswith("removed-"):
                self.removals[kind[8:]] += 1
            elif kind == LINK_ITEM_REMOVED:
                self.link_items[e["message"]] += 1
            elif kind == GATE_FALLBACK:
                self.gate_fallbacks[e["message"].split(":")[0]] += 1

    def line(self) -> str:
        rate = self.pages / self.seconds if self.seconds else 0.0
        mbs = self.bytes / 1e6 / self.seconds if self.seconds else 0.0
        c = self.counts
        head = f"{self.pages} pages in {self.seconds:.1f} s ({rate:.1f} docs/s, {mbs:.2f} MB/s): " \
               f"done {c['done']}, fallback {c['fallback']}, excluded {c['excluded']}, " \
               f"failed {c['failed']}, timeout {c['timeout']}"
        if self.resumed:
            head += f"; {self.resumed} done by an earlier run"
        if self.interrupted:
            head += "; INTERRUPTED (run the same command again to resume)"
        return head


def _short(reason: str) -> str:
    """A reason without the page-specific part (for counting)."""
    return reason.split(" (")[0].split(": ")[0][:80]


def run(records: Iterable[Record], job: Job, sink: Sink, *, jobs: int = 1, page_timeout: float = 60.0,
        memory_limit: int = 0, progress: Progress | None = None, inputs: InputStats | None = None) -> Summary:
    """Convert every record not done by an earlier run and write its outcome to ``sink``.
    Ctrl-C, SIGTERM and SIGHUP stop the run within a second or two with the summary so
    far (``summary.interrupted``, ``summary.signal``); the pages in flight then have no
    outcome (a re-run converts them)."""
    summary = Summary(inputs=inputs or InputStats())
    start = time.perf_counter()
    bar = progress or Progress("none")
    bar.begin()
    position = 0

    def advance(record: Record) -> None:  # how much of the input is read, for the progress
        nonlocal position
        extent = summary.inputs.extent
        count = summary.pages + summary.resumed
        done, total, unit = extent.measure(record, count, position) if extent else (count, None, "pages")
        position = done
        bar.update(done, total, unit, summary.pages, summary.counts)

    def todo() -> Iterator[Record]:
        for record in records:
            if sink.skip(record):
                summary.resumed += 1
                advance(record)
            else:
                yield record

    def done(outcome: Outcome) -> None:
        sink.write(outcome)
        summary.add(outcome)
        advance(outcome.record)

    complete = False
    try:
        run_records(todo(), job, done, jobs=jobs, page_timeout=page_timeout, memory_limit=memory_limit)
        complete = True
    except Interrupted as stop:
        summary.interrupted, summary.signal = True, stop.signal
    finally:
        sink.close(complete)
        summary.seconds = time.perf_counter() - start
        bar.close(complete)
    return summary


def print_summary(summary: Summary, stream: TextIO | None = None, top_items: int = 20) -> None:
    stream = stream or sys.stderr
    stream.write(summary.line() + "\n")
    inputs = summary.inputs
    if inputs.duplicates:
        stream.write(f"  inputs named more than once, converted once: {inputs.duplicates}\n")
    if inputs.names_skipped:
        stream.write(f"  files left out of folders (not page or WARC names): {sum(inputs.names_skipped.values())} ("
                     + ", ".join(f"{k} x{n}" for k, n in inputs.names_skipped.most_common(8)) + ")\n")
    if inputs.warc_files:
        skipped = inputs.warc.skipped
        stream.write(f"  WARC files: {inputs.warc_files}; records not converted: {sum(skipped.values())}"
                     + (" (" + ", ".join(f"{k} x{n}" for k, n in skipped.most_common(8)) + ")" if skipped else "")
                     + "\n")
        for error in inputs.warc.errors[:10]:
            stream.write(f"    {error}\n")
    for title, counter in (("excluded", summary.excluded_reasons), ("fallback", summary.fallback_reasons),
                           ("failed or timeout", summary.failed_reasons)):
        for reason, n in counter.most_common(5):
            stream.write(f"  {title} x{n}: {reason}\n")
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
