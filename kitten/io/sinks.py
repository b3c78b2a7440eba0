"""Sinks: where outcomes go, in input order, and what a resumed run may skip.

``FolderSink``: one file per page under the output folder (``OUT/a/b/page.txt``), the
batch log ``kitten-log.jsonl`` (one line per input), the removal log of link-list
items and the run's fingerprint (``kitten-run.json``: a re-run resumes only under the
same settings, ``kitten.io.fingerprint``). ``StreamSink``: every page's output on
standard output, each followed by a line holding only ``RECORD_SEPARATOR``. The JSON
Lines sinks are in ``kitten.io.jsonl``; ``jsonl_record`` makes their records
(``kitten/schema/record.schema.json``).

A sink writes an outcome and flushes its log line before the next one, so that after
any interruption what a resumed run trusts (``skip``) is complete: a page file with its
log line, a record in a JSON Lines file, a shard in the manifest.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import IO, Any

from kitten.engine import Outcome
from kitten.io.files import atomic_write, output_path
from kitten.io.fingerprint import RUN_NAME, Fingerprint, read_fingerprint, write_fingerprint
from kitten.io.records import InputError, Record
from kitten.language import count_words
from kitten.lists import LINK_ITEM_REMOVED
from kitten.metadata import PageMetadata

LOG_NAME = "kitten-log.jsonl"
REMOVED_NAME = "kitten-removed-links.tsv"  # page, list locator, item text of removed link items
#: what follows each page's output on standard output (``-o -``): the ASCII record
#: separator on a line of its own
RECORD_SEPARATOR = "\x1e\n"
#: event kinds the compact log keeps whole (the others are counted)
LOGGED_KINDS = frozenset({"excluded", "fallback", "failed", "timeout", "encoding-override",
                          "boilerplate-fallback", "note"})
#: the metadata fields of a record, in order (kitten/metadata.py)
METADATA_FIELDS = tuple(f.name for f in dataclasses.fields(PageMetadata))


def log_line(outcome: Outcome, written: str | None, detail: bool) -> dict:
    """The batch log's line for an outcome: compact (the events that explain the status
    in full, the others counted by kind) unless ``detail``."""
    r = outcome.record
    line: dict[str, Any] = {"page": r.id, "status": outcome.status}
    if outcome.reason:
        line["reason"] = outcome.reason
    line["encoding"] = outcome.encoding
    line["output"] = written
    if r.url:
        line["url"] = r.url
    if outcome.gate:
        line["gate"] = outcome.gate
    if detail:
        line["events"] = outcome.events
    else:
        line["events"] = [e for e in outcome.events if e["kind"] in LOGGED_KINDS]
        counts: dict[str, int] = {}
        for e in outcome.events:
            if e["kind"] not in LOGGED_KINDS:
                counts[e["kind"]] = counts.get(e["kind"], 0) + 1
        if counts:
            line["counts"] = counts
    return line


class FolderSink:
    """One output file per page, mirrored under ``out_dir``, with the batch log."""

    def __init__(self, out_dir: Path, *, removed_log: bool, detail: bool = False, overwrite: bool = False,
                 fingerprint: Fingerprint | None = None):
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create the output folder {out_dir}: {exc.strerror or exc}") from exc
        self.out_dir, self.detail = out_dir, detail
        self.log_path = out_dir / LOG_NAME
        kept = [] if overwrite else self._previous()
        if kept and fingerprint is not None:
            fingerprint.check(read_fingerprint(out_dir / RUN_NAME), str(out_dir))
        self.done = {line["page"] for line in kept}
        removed_path = out_dir / REMOVED_NAME
        removed_kept: list[str] = []
        if removed_log and not overwrite and removed_path.is_file():
            sources = {line.get("source", line["page"]) for line in kept}
            removed_kept = [x for x in removed_path.read_text(encoding="utf-8", errors="replace").splitlines(True)
                            if x.split("\t", 1)[0] in sources and x.endswith("\n")]
        try:
            atomic_write(self.log_path, "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in kept))
            self.log = open(self.log_path, "a", encoding="utf-8")
            if removed_log:
                atomic_write(removed_path, "".join(removed_kept))
            self.removed = open(removed_path if removed_log else os.devnull, "a", encoding="utf-8")
            if fingerprint is not None:  # after the log: what it trusts is never older than this
                write_fingerprint(out_dir / RUN_NAME, fingerprint)
        except OSError as exc:
            raise InputError(f"cannot write in the output folder {out_dir}: {exc.strerror or exc}") from exc

    def _previous(self) -> list[dict]:
        """The log lines of an earlier run whose pages need no redoing: complete lines
        whose output file (if any) is there."""
        if not self.log_path.is_file():
            return []
        kept = []
        for raw in self.log_path.read_text(encoding="utf-8", errors="replace").splitlines(True):
            if not raw.endswith("\n"):
                continue  # a line torn by a kill
            try:
                line = json.loads(raw)
            except ValueError:
                continue
            if isinstance(line, dict) and "page" in line and (not line.get("output") or Path(line["output"]).is_file()):
                kept.append(line)
        return kept

    def skip(self, record: Record) -> bool:
        return record.id in self.done

    def write(self, outcome: Outcome) -> None:
        written = None
        if outcome.output is not None:
            path = output_path(self.out_dir, outcome.record.stem, outcome.suffix)
            try:
                atomic_write(path, outcome.output)
                written = str(path)
            except OSError as exc:
                reason = f"output not written: {path}: {exc.strerror or exc}"
                outcome.events.append({"step": "write", "kind": "failed", "message": reason})
                outcome.status, outcome.reason = "failed", reason
        for e in outcome.events:
            if e["kind"] == LINK_ITEM_REMOVED:
                self.removed.write(f"{outcome.record.source}\t{e.get('where', '')}\t{e['message']}\n")
        self.removed.flush()
        line = log_line(outcome, written, self.detail)
        line["source"] = outcome.record.source
        self.log.write(json.dumps(line, ensure_ascii=False) + "\n")
        self.log.flush()

    def close(self, complete: bool) -> None:  # noqa: ARG002 - every write is final already
        self.log.close()
        self.removed.close()


def text_hash(text: str) -> str:
    """The record's ``text_hash``: SHA-256 (hex) of the UTF-8 text with every run of white
    space made one space and the ends stripped, so that the same words in the same order
    give the same hash whatever the line breaks."""
    return hashlib.sha256(" ".join(text.split()).encode("utf-8", "surrogatepass")).hexdigest()


def jsonl_record(outcome: Outcome) -> dict:
    """The JSON Lines record of an outcome (kitten/schema/record.schema.json)."""
    r = outcome.record
    text = outcome.output if outcome.status != "excluded" else None
    rec: dict[str, Any] = {
        "id": r.id, "url": r.url, "host": r.host, "record_id": r.record_id, "source": r.source,
        "offset": r.offset, "date": r.date, "http_status": r.http_status, "content_type": r.content_type,
        "warc_payload_digest": r.payload_digest, "status": outcome.status, "reason": outcome.reason or None,
        "encoding": outcome.encoding, "lang": outcome.lang, "lang_score": outcome.lang_score,
        "declared_lang": outcome.declared_lang, "title": outcome.title or None,
    }
    for key in METADATA_FIELDS:
        rec[key] = outcome.metadata.get(key) or None
    rec["page_type"], rec["page_type_probability"] = outcome.page_type, outcome.page_type_probability
    rec["words"] = count_words(text) if text is not None else None
    rec["chars"] = len(text) if text is not None else None
    rec["text_hash"] = text_hash(text) if text is not None else None
    rec["text"] = text
    rec.update(outcome.extra)
    return rec


class StreamSink:
    """Each page's output on ``stream`` (standard output), followed by a line holding only
    ``RECORD_SEPARATOR``, flushed; pages without output write nothing (nothing is resumed)."""

    def __init__(self, stream: IO[str] | None = None):
        self.stream = stream or sys.stdout

    def skip(self, record: Record) -> bool:  # noqa: ARG002
        return False

    def write(self, outcome: Outcome) -> None:
        if outcome.output is None:
            return
        self.stream.write(outcome.output if outcome.output.endswith("\n") or not outcome.output
                          else outcome.output + "\n")
        self.stream.write(RECORD_SEPARATOR)
        self.stream.flush()

    def close(self, complete: bool) -> None:  # noqa: ARG002
        pass


class MemorySink:
    """Outcomes kept in a list, in input order (for code that runs a batch in-process)."""

    def __init__(self) -> None:
        self.outcomes: list[Outcome] = []

    def skip(self, record: Record) -> bool:  # noqa: ARG002
        return False

    def write(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)

    def close(self, complete: bool) -> None:  # noqa: ARG002
        pass
