"""The unit of input: one document to convert, with where it came from."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit


class InputError(OSError):
    """An input that cannot be read as a page (the message names it)."""


@dataclass(frozen=True, slots=True)
class Record:
    """One input document, as a source yields it.

    A file's bytes are read by the worker that converts it (``path``); a WARC record or
    standard input carries its bytes (``data``). ``skip`` is set for an input that is
    accounted for but not converted (a FIFO, a file past the size cap...): it becomes an
    ``excluded`` outcome with that reason.
    """

    id: str  # unique in the run and stable across runs: "a/b/page.html", "crawl.warc.gz@1234"
    stem: Path  # output path without suffix, relative to the output folder
    source: str  # the input file as given on the command line ("-": standard input)
    path: Path | None = None
    data: bytes | None = None
    url: str | None = None
    record_id: str | None = None  # WARC-Record-ID
    offset: int | None = None  # byte offset of the WARC record in its (compressed) file
    date: str | None = None  # WARC-Date
    content_type: str | None = None  # the HTTP (or WARC) Content-Type, charset included
    http_status: int | None = None  # the HTTP status code of a WARC response record
    payload_digest: str | None = None  # WARC-Payload-Digest ("sha1:BASE32...")
    skip: str = ""

    @property
    def headers(self) -> dict[str, str] | None:
        return {"Content-Type": self.content_type} if self.content_type else None

    @property
    def host(self) -> str | None:
        """The host of ``url``, lower case, without port or user (None without a URL)."""
        if not self.url:
            return None
        try:
            return urlsplit(self.url).hostname or None
        except ValueError:  # a malformed URL (an unclosed IPv6 bracket)
            return None
