"""How far a run is, on standard error: a bar on a terminal, a status line every
``INTERVAL`` seconds otherwise (a log file, a batch scheduler's output), or nothing
(``--progress none|bar|lines``; default: ``bar`` on a terminal, ``lines`` otherwise).

The bar is tqdm's: one pure-Python package without dependencies of its own, maintained
since 2013, and already installed with Kitten (FastWARC, the WARC reader, depends on
it); rich draws finer bars but would bring pygments and markdown-it-py. It is imported
only when a bar is drawn. Both show what is done of the total
when the total is known (the input files of a run, or their bytes when some are WARC
files: ``kitten.io.sources.Extent``; the tasks of a Dask run), with the percentage, the
rate and the time left; without a total (standard input) the count and the rate. A
status line reads::

    kitten: 120/400 pages (30.0%), 12.3 pages/s, 23 s left; done 110, fallback 5, excluded 3, failed 2, timeout 0

``Steps`` reports the steps of a long command (``kitten train``): one line when a step
starts, one with its time when it ends.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TextIO

from kitten.engine import STATUSES

#: the values of ``--progress``
MODES = ("none", "bar", "lines")
#: seconds between two status lines (``lines``)
INTERVAL = 30.0
#: seconds between two redraws of the bar
BAR_INTERVAL = 0.2


def choose(mode: str | None, stream: TextIO) -> str:
    """``mode`` when given, else ``bar`` when ``stream`` is a terminal and ``lines`` when not."""
    if mode:
        return mode
    try:
        return "bar" if stream.isatty() else "lines"
    except (AttributeError, ValueError):
        return "lines"


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``2 h 07 min``."""
    s = int(seconds + 0.5)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def _amount(n: float, unit: str) -> str:
    if unit != "bytes":
        return f"{int(n)}"
    for scale, name in ((1e9, "GB"), (1e6, "MB"), (1e3, "kB")):
        if n >= scale:
            return f"{n / scale:.1f} {name}"
    return f"{int(n)} B"


class Progress:
    """The progress of one run, drawn as ``mode`` says on ``stream``. ``begin`` is called
    when the run starts, ``update`` after each outcome with how much is done (in ``unit``: pages, bytes or tasks), the
    total when known, the pages converted and their counts by status; ``close`` at the
    end (``lines`` then writes the last status)."""

    def __init__(self, mode: str, stream: TextIO | None = None, *, interval: float = INTERVAL,
                 clock: Callable[[], float] = time.monotonic):
        if mode not in MODES:
            raise ValueError(f"progress mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.mode = mode
        self.stream = stream if stream is not None else sys.stderr
        self.interval = interval
        self.clock = clock
        self.start = clock()
        self.last = self.start
        self.state: tuple[int, int | None, str, int, Mapping[str, int]] = (0, None, "pages", 0, {})
        self.bar = None

    def begin(self) -> None:
        """The run starts now (rates and times count from here)."""
        self.start = self.last = self.clock()

    def update(self, done: int, total: int | None, unit: str, pages: int, counts: Mapping[str, int]) -> None:
        if self.mode == "none":
            return
        if total is not None and done > total:  # more than the listing said (a WARC file not named so)
            total = None
        self.state = (done, total, unit, pages, counts)
        now = self.clock()
        if self.mode == "lines":
            if now - self.last >= self.interval:
                self.last = now
                self._write(self.line(now))
            return
        self._draw(now)

    def close(self, complete: bool = True) -> None:
        """The end of the run (``complete``: every input read): the bar is taken away (the
        summary follows), or the last status line written (not after an interrupt: the
        summary's one line says how far the run went)."""
        done, total, unit, pages, counts = self.state
        if complete and total:
            self.state = (total, total, unit, pages, counts)
        if self.mode == "lines" and complete and (pages or done):
            self._write(self.line(self.clock()))
        elif self.bar is not None:
            self.bar.close()
            self.bar = None

    def line(self, now: float) -> str:
        """The status line of the run so far."""
        done, total, unit, pages, counts = self.state
        elapsed = max(now - self.start, 1e-9)
        what = "tasks" if unit == "tasks" else "pages"
        head = f"{_amount(done, unit)}/{_amount(total, unit)}" if total else _amount(done, unit)
        if unit == "bytes":
            head += f" ({done / total:.1%})" if total else ""
            head += f", {_amount(done / elapsed, unit)}/s, {pages} pages ({pages / elapsed:.1f} pages/s)"
        else:
            head += f" {what}" + (f" ({done / total:.1%})" if total else "") + f", {done / elapsed:.1f} {what}/s"
            if unit == "tasks":
                head += f", {pages} pages"
        if total and 0 < done < total:
            head += f", {duration((total - done) * elapsed / done)} left"
        else:
            head += f" in {duration(elapsed)}"
        return f"kitten: {head}; " + _counts(counts)

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text + "\n")
            self.stream.flush()
        except (OSError, ValueError):  # standard error closed: the run goes on without it
            self.mode = "none"

    def _draw(self, now: float) -> None:
        done, total, unit, pages, counts = self.state
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit="B" if unit == "bytes" else " " + unit, unit_scale=unit == "bytes",
                            unit_divisor=1000, file=self.stream, dynamic_ncols=True, leave=False,
                            mininterval=BAR_INTERVAL, smoothing=0.1, desc="kitten")
        if total != self.bar.total:
            self.bar.total = total
        postfix = (f"{pages} pages, " if unit != "pages" else "") + _counts(counts)
        self.bar.set_postfix_str(postfix, refresh=False)
        self.bar.update(done - self.bar.n)


def _counts(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{s} {counts.get(s, 0)}" for s in STATUSES)


class Steps:
    """The steps of a long command on ``stream``: ``with steps.step("reading pages"):``
    writes ``kitten train: reading pages ...`` when it starts and ``kitten train: reading
    pages: 12.3 s`` when it ends."""

    def __init__(self, name: str, stream: TextIO | None = None, clock: Callable[[], float] = time.perf_counter):
        self.name = name
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock

    def note(self, text: str) -> None:
        self.stream.write(f"{self.name}: {text}\n")
        self.stream.flush()

    @contextmanager
    def step(self, what: str, announce: bool = True) -> Iterator[None]:
        """A step (``announce``: also a line when it starts; a short step, a fold of a
        cross validation, has only its end line)."""
        if announce:
            self.note(f"{what} ...")
        start = self.clock()
        yield
        self.note(f"{what}: {self.clock() - start:.1f} s")
