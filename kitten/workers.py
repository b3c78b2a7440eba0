"""The local worker pool: records converted in worker processes, in order, each within
a time limit, and never lost.

Each worker is a process that converts one record at a time (``engine.convert``) and
sends back its outcome. The parent hands out records, collects outcomes and passes them
on in input order. A worker past the page time limit is killed and replaced (the record's
outcome is ``timeout``); a worker that dies (a crash in native code, the memory limit) is
replaced too (``failed``). Workers die with the parent (``PR_SET_PDEATHSIG`` on Linux,
and a watch on the parent's pid everywhere), ignore Ctrl-C, SIGTERM and SIGHUP (sent to
the whole process group by a terminal, ``timeout`` or a batch scheduler: the parent stops
them, and the pages they had are redone by the next run, not recorded as failed), and
run under an address-space limit (``RLIMIT_AS``, on top of the address space they start
with) where the system has one.
"""
from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from multiprocessing.connection import Connection, wait
from typing import Any

from kitten.engine import Job, Outcome, convert, prepare, stand_in
from kitten.io.records import Record

#: records handed out ahead of the oldest unfinished one (bounds the parent's memory)
WINDOW = 256
#: the worker's cyclic garbage collector, between pages, runs after this many new
#: containers (Python's default: 700), and looks at every object every 100 runs of its
#: middle generation (default: 10). During a page it does not run at all (``_page``): a
#: page makes hundreds of thousands of lists, cells and blocks and almost no cycles
#: (text, JSON and the gate on 300 corpus pages: 0 to 394 objects in cycles a page,
#: collected after it), and every collection walked them again (with the defaults 30%
#: of a 1,900-row table's time; with these thresholds still 0.15-0.25 s of its CPU).
#: Memory is freed by reference counting anyway.
GC_THRESHOLD = (10_000, 10, 100)
#: the signals that stop a run (Ctrl-C, ``kill``, ``timeout``, a closed terminal)
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def _die_with_parent(parent: int) -> None:
    """End this process when the parent dies, however it dies."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _address_space() -> int:
    """This process's address space in bytes (0 where ``/proc`` does not tell). A forked
    worker starts with the parent's, which grows over a long batch (the plain-text dump
    of a page whose worker died is made in the parent): the memory limit is counted on
    top of it, or every worker started late in a batch would fail every page."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _worker_main(conn: Connection, job: Job, memory_limit: int, parent: int) -> None:
    for sig in STOP_SIGNALS:  # the parent handles them (it kills its workers)
        signal.signal(sig, signal.SIG_IGN)
    _die_with_parent(parent)
    gc.freeze()  # what the worker inherits (a Dask worker's whole heap) is never collected again
    gc.set_threshold(*GC_THRESHOLD)
    if memory_limit > 0:
        try:
            import resource

            limit = _address_space() + memory_limit
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        except (ImportError, ValueError, OSError):
            pass
    warm = False
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        seq, record = task
        outcome = _page(record, job)
        conn.send((seq, outcome))
        if not warm:
            # what the first page loaded (models, word lists, compiled expressions) lives
            # as long as the worker: frozen too, a full collection then reads only what
            # later pages made (~35,000 objects fewer, 20-40 ms a collection)
            gc.collect()
            gc.freeze()
            warm = True


def _page(record: Record, job: Job) -> Outcome:
    """``convert`` of one record with the cyclic garbage collector paused (``GC_THRESHOLD``):
    what the page made in cycles is collected after it, by the next collection."""
    gc.disable()
    try:
        return convert(record, job)
    except MemoryError:
        return Outcome(record, "failed", "past the memory limit",
                       events=[{"step": "worker", "kind": "failed", "message": "past the memory limit"}])
    finally:
        gc.enable()


class _Worker:
    def __init__(self, ctx, job: Job, memory_limit: int):
        parent_end, child_end = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child_end, job, memory_limit, os.getpid()),
                                daemon=True, name="kitten-worker")
        self.proc.start()
        child_end.close()
        self.conn = parent_end
        self.task: tuple[int, Record] | None = None
        self.deadline = 0.0

    def give(self, seq: int, record: Record, timeout: float) -> None:
        self.task = (seq, record)
        self.deadline = time.monotonic() + timeout if timeout > 0 else float("inf")
        self.conn.send((seq, record))

    def stop(self, now: bool = False) -> None:
        try:
            if now:
                self.proc.kill()
            else:
                self.conn.send(None)
        except (OSError, ValueError):
            pass
        self.proc.join(timeout=None if now else 5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self.conn.close()


class Interrupted(Exception):
    """The run was stopped (Ctrl-C, SIGTERM, SIGHUP: ``signal``); the outcomes so far were
    delivered."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signum)
        self.signal = signum


def run_records(records: Iterable[Record], job: Job, done: Callable[[Outcome], Any], *, jobs: int = 1,
                page_timeout: float = 60.0, memory_limit: int = 0) -> None:
    """Convert every record in ``jobs`` worker processes and call ``done`` with each
    outcome, in input order. Raises ``Interrupted`` after Ctrl-C, SIGTERM or SIGHUP
    (workers stopped, outcomes so far delivered; the records in flight have none)."""
    # forked where the system can (Linux): a worker starts in no time with the parent's
    # imports (and whatever the parent loaded: a Dask task's warm-up models), also when
    # the caller has another start method set (a Dask worker process has spawn: each
    # task's worker would import Kitten and load its models again). The models are loaded
    # when a page first needs them, in the worker (kitten.tables.table_model, cell_model).
    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else None)
    prepare(job, max(1, jobs))  # what the pages will import, imported once, before the fork
    workers = [_Worker(ctx, job, memory_limit) for _ in range(max(1, jobs))]
    source = iter(records)
    exhausted = False
    next_seq = 0  # the next record's number
    next_out = 0  # the next outcome to deliver
    ready: dict[int, Outcome] = {}
    stop = _StopFlag()
    try:
        while True:
            if stop.raised:
                raise Interrupted(stop.signum)
            for w in workers:  # hand out records
                if w.task is None and not exhausted and next_seq < next_out + WINDOW:
                    record = next(source, None)
                    if record is None:
                        exhausted = True
                        break
                    w.give(next_seq, record, page_timeout)
                    next_seq += 1
            busy = [w for w in workers if w.task is not None]
            if not busy:
                break
            timeout = max(0.0, min(w.deadline for w in busy) - time.monotonic())
            by_conn = {w.conn: w for w in busy}
            for conn in wait(list(by_conn), timeout=min(timeout, 1.0)):
                w = by_conn[conn]
                seq, record = w.task  # type: ignore[misc]
                try:
                    got_seq, outcome = conn.recv()
                    w.task = None
                    ready[got_seq] = outcome
                except (EOFError, OSError):  # the worker died (wait for it to be reaped: its exit code says how)
                    if stop.raised:  # killed with the run (a signal to the process group): not an outcome
                        raise Interrupted(stop.signum) from None
                    w.proc.join(timeout=2)
                    code = w.proc.exitcode
                    ready[seq] = stand_in(record, "failed", f"worker died ({_exit_reason(code)})", job)
                    workers[workers.index(w)] = _replace(w, ctx, job, memory_limit)
            now = time.monotonic()
            for i, w in enumerate(workers):
                if w.task is not None and now >= w.deadline:
                    seq, record = w.task
                    ready[seq] = stand_in(record, "timeout", f"past the page time limit ({page_timeout:g} s)", job)
                    workers[i] = _replace(w, ctx, job, memory_limit)
            while next_out in ready:
                done(ready.pop(next_out))
                next_out += 1
    finally:
        stop.restore()
        for w in workers:
            w.stop(now=stop.raised or w.task is not None)


def _replace(w: _Worker, ctx, job: Job, memory_limit: int) -> _Worker:
    w.task = None
    w.stop(now=True)
    return _Worker(ctx, job, memory_limit)


def _exit_reason(code: int | None) -> str:
    if code is None:
        return "no answer"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


class _StopFlag:
    """Turns the stop signals (Ctrl-C, SIGTERM, SIGHUP) into a flag the loop checks
    (within a second), so that the run stops cleanly: no tracebacks, the outcomes so far
    delivered."""

    def __init__(self) -> None:
        self.raised = False
        self.signum = 0
        self.saved: dict[int, Any] = {}
        if threading.current_thread() is threading.main_thread():
            for sig in STOP_SIGNALS:
                self.saved[sig] = signal.signal(sig, self._set)

    def _set(self, signum, frame) -> None:  # noqa: ARG002
        self.raised, self.signum = True, signum

    def restore(self) -> None:
        for sig, handler in self.saved.items():
            signal.signal(sig, handler)
