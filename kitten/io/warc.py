"""WARC files: recognised by content, read with FastWARC (the WARC reader of Resiliparse,
the fastest maintained one).

Every ``response`` and ``resource`` record whose content type is HTML-like becomes a
``Record`` that keeps its identity (``WARC-Target-URI``, ``WARC-Record-ID``, ``WARC-Date``,
``WARC-Payload-Digest``, source file, byte offset), its HTTP status and its HTTP
``Content-Type`` (the decode step reads the charset there). FastWARC undoes chunked transfer and ``Content-Encoding`` (gzip, deflate, br).
Other records are counted in ``WarcCounts`` (by reason), not converted. A corrupt record
is counted and logged, and the records after it are still read where the format allows
(per-record gzip, as Common Crawl writes it, lets the reader find the next one).
"""
from __future__ import annotations

import gzip
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Iterator

from kitten.io.records import Record

#: content types read as pages (an absent one too: triage judges the bytes)
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml", "application/xml", "text/xml",
                        "application/vnd.wap.xhtml+xml"})


def is_warc(head: bytes) -> bool:
    """Whether ``head`` (the first bytes of a file, 512 are enough) starts a WARC file:
    plain, or gzip-compressed (whole file or per record)."""
    if head.startswith(b"WARC/"):
        return True
    if head[:2] == b"\x1f\x8b":
        try:
            return zlib.decompressobj(wbits=31).decompress(head, 5).startswith(b"WARC/")
        except zlib.error:
            return False
    return False  # zstd and lz4 WARC files are recognised by suffix (files.is_warc_name)


@dataclass
class WarcCounts:
    """What a WARC reader saw besides the pages it yielded (reason -> records)."""

    skipped: Counter = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)


def read_warc(stream: BinaryIO | str, source: str, stem: Path, counts: WarcCounts,
              max_bytes: int) -> Iterator[Record]:
    """The page records of the WARC ``stream`` (a binary file object or a path).
    ``stem`` is the output folder of its records (a record's output is named by its offset).
    A truncated record, or one whose encoding cannot be undone, is yielded with a ``skip``
    reason (it is accounted for); corrupt compressed data ends the file with an error in
    ``counts`` unless the reader can resynchronise at the next record (``_resync``)."""
    try:
        from fastwarc.warc import ArchiveIterator, WarcRecordType
    except ImportError as exc:  # a broken install: FastWARC is a dependency
        raise OSError(f"reading WARC needs FastWARC ({exc})") from exc
    wanted = WarcRecordType.response | WarcRecordType.resource

    def records():  # offsets stay those of the file when the stream was moved (FastWARC asks it)
        return ArchiveIterator(stream, record_types=WarcRecordType.any_type, parse_http=True,
                               auto_decode="none", quirks_mode=True, fsspec_args=False)

    iterator = records()
    last = resumed = -1
    while True:
        try:
            rec = next(iterator)
        except StopIteration:
            return
        except (OSError, ValueError) as exc:
            after = max(last, resumed, 0)
            resumed = _resync(stream, max(last, resumed) + 1)
            rest = "the rest of the file is unreadable" if resumed is None else f"reading on at {resumed}"
            reason = f"corrupt WARC data after offset {after}; {rest} ({exc})"
            counts.errors.append(f"{source}: {reason}")
            # accounted for as an input of its own (its URL is unknown)
            yield Record(f"{source}@{after}+corrupt", stem / f"{after}+corrupt", source, skip=reason)
            if resumed is None:
                return
            iterator = records()
            continue
        offset = rec.stream_pos
        last = offset
        kind = rec.record_type
        if not kind & wanted:
            counts.skipped[f"{kind} record"] += 1
            continue
        rid = f"{source}@{offset}"
        head = rec.headers
        http = rec.http_headers if rec.is_http else None
        ctype = http.get("Content-Type") if http is not None else head.get("Content-Type")
        ident = dict(url=head.get("WARC-Target-URI") or None, record_id=rec.record_id or None,
                     offset=offset, date=head.get("WARC-Date") or None, content_type=ctype,
                     http_status=http.status_code or None if http is not None else None,
                     payload_digest=head.get("WARC-Payload-Digest") or None)
        stem_of = stem / str(offset)
        if http is not None and not http.status_code:
            reason = "truncated or malformed HTTP message"
            counts.errors.append(f"{rid}: {reason}")
            yield Record(rid, stem_of, source, **ident, skip=reason)
            continue
        if http is not None and not 200 <= http.status_code < 300:
            counts.skipped[f"HTTP status {http.status_code // 100}xx"] += 1
            continue
        mime = (ctype or "").split(";")[0].strip().lower()
        if mime and mime not in HTML_TYPES:
            counts.skipped[f"not HTML ({mime})"] += 1
            continue
        try:
            expected = rec.content_length - rec.reader.tell()
            data = rec.reader.read(max_bytes + 1)
            if len(data) < expected and len(data) <= max_bytes:
                raise _Undecodable(f"truncated WARC record ({len(data)} of {expected} bytes)")
            if len(data) <= max_bytes and http is not None:
                data = _decoded(data, http.get("Transfer-Encoding") or "",
                                http.get("Content-Encoding") or "", max_bytes)
        except (OSError, ValueError, _Undecodable) as exc:
            counts.errors.append(f"{rid}: {exc}")
            yield Record(rid, stem_of, source, **ident, skip=str(exc))
            continue
        if len(data) > max_bytes:
            yield Record(rid, stem_of, source, **ident, skip=f"larger than the size cap of {max_bytes} bytes")
            continue
        yield Record(rid, stem_of, source, data=bytes(data), **ident)


class _Undecodable(ValueError):
    """A record whose payload cannot be had."""


def _decoded(data: bytes, transfer: str, content: str, max_bytes: int) -> bytes:
    """The HTTP payload with chunked transfer and ``Content-Encoding`` undone."""
    if "chunked" in transfer.lower():
        data = _dechunked(data)
    for coding in reversed([c.strip().lower() for c in content.split(",") if c.strip()]):
        if coding in ("gzip", "x-gzip"):
            data = _inflate(data, 47, max_bytes)  # gzip or zlib header
        elif coding == "deflate":
            try:
                data = _inflate(data, 15, max_bytes)  # zlib-wrapped, as the standard says
            except _Undecodable:
                data = _inflate(data, -15, max_bytes)  # raw deflate, as some servers send
        elif coding == "br":
            import brotli  # a dependency of FastWARC

            try:
                data = brotli.decompress(data)
            except brotli.error as exc:
                raise _Undecodable(f"broken br content encoding ({exc})") from exc
        elif coding != "identity":
            raise _Undecodable(f"unknown content encoding {coding!r}")
    return data


def _inflate(data: bytes, wbits: int, max_bytes: int) -> bytes:
    try:
        d = zlib.decompressobj(wbits=wbits)
        out = d.decompress(data, max_bytes + 1)
    except zlib.error as exc:
        raise _Undecodable(f"broken compressed content ({exc})") from exc
    return out


def _dechunked(data: bytes) -> bytes:
    """The body of a chunked HTTP message (a truncated one: what arrived)."""
    out = bytearray()
    pos = 0
    while pos < len(data):
        end = data.find(b"\n", pos)
        if end < 0:
            break
        try:
            size = int(data[pos:end].split(b";")[0].strip() or b"0", 16)
        except ValueError:
            if not out:  # not chunked after all (the header lied)
                return data
            break
        if size == 0:
            break
        out += data[end + 1:end + 1 + size]
        pos = end + 1 + size
        if data[pos:pos + 2] == b"\r\n":
            pos += 2
        elif data[pos:pos + 1] == b"\n":
            pos += 1
    return bytes(out)


def _resync(stream, start: int) -> int | None:
    """The offset of the next gzip member at or after ``start`` that begins a WARC record,
    with ``stream`` positioned there; ``None`` when the stream cannot seek or has none.
    Reads the rest of the file in blocks of 1 MiB."""
    if isinstance(stream, (str, Path)) or not hasattr(stream, "seek"):
        return None
    block = 1 << 20
    pos = start
    try:
        while True:
            stream.seek(pos)
            blob = stream.read(block + 512)
            if len(blob) < 3:
                return None
            at = blob.find(b"\x1f\x8b\x08")
            while 0 <= at < block:
                if is_warc(blob[at:at + 512]):
                    stream.seek(pos + at)
                    return pos + at
                at = blob.find(b"\x1f\x8b\x08", at + 1)
            if len(blob) <= block:
                return None
            pos += block
    except (OSError, ValueError):
        return None


def warc_record(url: str, body: bytes, *, http_headers: dict[str, str] | None = None,
                record_type: str = "response", date: str = "2024-01-01T00:00:00Z",
                status: str = "200 OK", record_id: str | None = None, compress: bool = True,
                payload_digest: str | None = None) -> bytes:
    """One WARC/1.1 record (``response`` with an HTTP message around ``body``, or
    ``resource``/``revisit``... with ``body`` as it is), gzip-compressed on its own as
    Common Crawl writes them. For tests and benchmarks that build WARC files."""
    if record_type == "response":
        headers = {"Content-Type": "text/html", **(http_headers or {})}
        if "Content-Length" not in headers and "Transfer-Encoding" not in headers:
            headers["Content-Length"] = str(len(body))
        head = f"HTTP/1.1 {status}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
        block = head.encode("latin-1") + body
        ctype = "application/http; msgtype=response"
    else:
        block = body
        ctype = (http_headers or {}).get("Content-Type", "text/html")
    import uuid  # here: reading a crawl does not need it

    rid = record_id or f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, url + record_type)}>"
    warc = (f"WARC/1.1\r\nWARC-Type: {record_type}\r\nWARC-Target-URI: {url}\r\nWARC-Date: {date}\r\n"
            f"WARC-Record-ID: {rid}\r\nContent-Type: {ctype}\r\nContent-Length: {len(block)}\r\n"
            + (f"WARC-Payload-Digest: {payload_digest}\r\n" if payload_digest else "") + "\r\n")
    raw = warc.encode("utf-8") + block + b"\r\n\r\n"
    return gzip.compress(raw, mtime=0) if compress else raw
