"""Sinks: where outcomes go, in input order, and what a resumed run may skip.

``FolderSink``: one file per page under the output folder (``OUT/a/b/page.txt``), the
batch log ``kitten-log.jsonl`` (one line per input) and the removal log of link-list
items. ``JsonlSink``: one JSON Lines record per input, in one file (``.jsonl`` or
``.jsonl.gz``), on standard output, or in shards ``part-00000.jsonl.gz`` ... of
``shard_size`` records, each renamed into place when complete and listed in
``_manifest.jsonl``. The record layout is ``kitten/schema/record.schema.json``.

A sink writes an outcome and flushes its log line before the next one, so that after
any interruption what a resumed run trusts (``skip``) is complete: a page file with its
log line, a shard in the manifest.
"""
from __future__ import annotations

import dataclasses
import gzip
import hashlib
import io
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import IO, Any

from kitten.engine import Outcome
from kitten.io.files import atomic_write, output_path
from kitten.io.records import InputError, Record
from kitten.language import count_words
from kitten.lists import LINK_ITEM_REMOVED
from kitten.metadata import PageMetadata

LOG_NAME = "kitten-log.jsonl"
REMOVED_NAME = "kitten-removed-links.tsv"  # page, list locator, item text of removed link items
MANIFEST_NAME = "_manifest.jsonl"
#: event kinds the compact log keeps whole (the others are counted)
LOGGED_KINDS = frozenset({"excluded", "fallback", "failed", "timeout", "encoding-override",
                          "boilerplate-fallback", "note"})
#: the metadata fields of a record, in order (kitten/metadata.py)
METADATA_FIELDS = tuple(f.name for f in dataclasses.fields(PageMetadata))
#: schema version of the JSON Lines records (kitten/schema/record.schema.json)
SCHEMA_VERSION = 3


class ResumeMismatch(InputError):
    """The inputs of a resumed run are not those of the run it resumes."""


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

    def __init__(self, out_dir: Path, *, removed_log: bool, detail: bool = False, overwrite: bool = False):
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create the output folder {out_dir}: {exc.strerror or exc}") from exc
        self.out_dir, self.detail = out_dir, detail
        self.log_path = out_dir / LOG_NAME
        kept = [] if overwrite else self._previous()
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


class JsonlSink:
    """JSON Lines records: in ``target`` (a ``.jsonl`` or ``.jsonl.gz`` file, or ``-``),
    or, with ``shard_size``, in shards under the folder ``target``."""

    def __init__(self, target: str, *, shard_size: int = 0, overwrite: bool = False):
        self.stdout = target == "-"
        self.shard_size = shard_size
        self.target = Path(target)
        self.fh: IO[str] | None = None
        self.tmp: str | None = None
        self.count = 0  # records in the open shard
        self.shard = 0
        self.first_id = ""
        self.expected: list[dict] = []  # complete shards of an earlier run, in order
        self.position = 0  # records seen by skip()
        if self.stdout:
            return
        if shard_size:
            try:
                self.target.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise InputError(f"cannot create the output folder {self.target}: {exc.strerror or exc}") from exc
            self.manifest = self.target / MANIFEST_NAME
            if overwrite:
                self._write_manifest([])
            else:
                self.expected = self._complete_shards()
                self._write_manifest(self.expected)
            self.shard = len(self.expected)
        else:
            if not self.target.name.endswith((".jsonl", ".jsonl.gz")):
                raise InputError(f"{target}: a JSON Lines output is a .jsonl or .jsonl.gz file "
                                 "(or a folder with --shard-size)")
            if self.target.is_dir():
                raise InputError(f"{target} is a folder")
            if self.target.exists() and not overwrite:
                self.expected = [{"shard": self.target.name, **_scan(self.target)}]
        _check_writable(self.target if shard_size else self.target.parent)

    # -- resuming ---------------------------------------------------------------
    def _complete_shards(self) -> list[dict]:
        shards = []
        if self.manifest.is_file():
            for raw in self.manifest.read_text(encoding="utf-8", errors="replace").splitlines(True):
                try:
                    entry = json.loads(raw)
                except ValueError:
                    break
                if not raw.endswith("\n") or entry.get("shard") != _shard_name(len(shards)) \
                        or not (self.target / entry["shard"]).is_file():
                    break
                shards.append(entry)
        return shards

    def _write_manifest(self, entries: list[dict]) -> None:
        atomic_write(self.manifest, "".join(json.dumps(e) + "\n" for e in entries))

    def skip(self, record: Record) -> bool:
        """Whether ``record`` is in a complete shard of an earlier run (records come in
        input order; a shard whose first or last id differs from this run's inputs
        stops the run)."""
        done = sum(e["records"] for e in self.expected)
        if self.position >= done:
            if self.expected and not self.shard_size:
                raise ResumeMismatch(f"{self.target} exists and holds fewer inputs than given "
                                     "(use --overwrite to write it again, or --shard-size to resume by shard)")
            return False
        start = 0
        for e in self.expected:
            if start == self.position and record.id != e["first"] or \
                    start + e["records"] - 1 == self.position and record.id != e["last"]:
                raise ResumeMismatch(f"{self.target}: {e['shard']} of an earlier run holds other inputs "
                                     "(use --overwrite to start again)")
            start += e["records"]
        self.position += 1
        return True

    # -- writing ----------------------------------------------------------------
    def _open(self, first: str) -> None:
        if self.stdout:
            self.fh = sys.stdout
            return
        final = self.target / _shard_name(self.shard) if self.shard_size else self.target
        fd, self.tmp = tempfile.mkstemp(prefix=".kitten-", suffix=".tmp", dir=final.parent)
        raw = os.fdopen(fd, "wb")
        # mtime 0 in the gzip header: the same pages give the same shard, byte for byte
        # (a shard rewritten by a resumed batch included)
        self.fh = io.TextIOWrapper(gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=3, mtime=0), encoding="utf-8") \
            if final.name.endswith(".gz") else open(raw.fileno(), "w", encoding="utf-8", closefd=False)
        self._raw = raw
        self.final = final
        self.first_id = first
        self.count = 0

    def write(self, outcome: Outcome) -> None:
        if self.fh is None:
            self._open(outcome.record.id)
        assert self.fh is not None
        self.fh.write(json.dumps(jsonl_record(outcome), ensure_ascii=False) + "\n")
        self.count += 1
        self.last_id = outcome.record.id
        if self.stdout:
            self.fh.flush()
        elif self.shard_size and self.count >= self.shard_size:
            self._finish()

    def _finish(self) -> None:
        """Close the open shard and rename it into place (and list it in the manifest)."""
        assert self.fh is not None and self.tmp is not None
        self.fh.close()
        self._raw.close()
        os.chmod(self.tmp, 0o644)
        os.replace(self.tmp, self.final)
        if self.shard_size:
            entry = {"shard": self.final.name, "records": self.count, "first": self.first_id, "last": self.last_id}
            with open(self.manifest, "a", encoding="utf-8") as m:
                m.write(json.dumps(entry) + "\n")
            self.shard += 1
        self.fh, self.tmp = None, None

    def close(self, complete: bool) -> None:
        """Finish the last shard when the run is complete; drop it when it is not (a
        resumed run redoes it)."""
        if self.stdout or self.fh is None:
            if complete and not self.stdout and not self.shard_size and not self.expected:
                atomic_write(self.target, gzip.compress(b"", mtime=0) if self.target.name.endswith(".gz") else b"")
            return
        if complete:
            self._finish()
        else:
            self.fh.close()
            self._raw.close()
            os.unlink(self.tmp)  # type: ignore[arg-type]
            self.fh = None


def _check_writable(folder: Path) -> None:
    """Stop the run at start, with a one-line error, when ``folder`` cannot take files."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".kitten-", suffix=".tmp", dir=folder)
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        raise InputError(f"cannot write in {folder}: {exc.strerror or exc}") from exc


def _shard_name(n: int) -> str:
    return f"part-{n:05d}.jsonl.gz"


def _scan(path: Path) -> dict:
    """Records, first and last id of a complete JSON Lines file."""
    opener = gzip.open if path.name.endswith(".gz") else open
    n, first, last = 0, "", ""
    try:
        with opener(path, "rt", encoding="utf-8") as fh:
            for raw in fh:
                rid = json.loads(raw)["id"]
                first = first or rid
                last = rid
                n += 1
    except (OSError, ValueError, KeyError, EOFError) as exc:
        raise InputError(f"{path} exists but cannot be read as Kitten's JSON Lines ({exc}): "
                         "use --overwrite") from exc
    return {"records": n, "first": first, "last": last}


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
