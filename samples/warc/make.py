"""Writes crawl.warc.gz beside this file: the sample pages as a small crawl (a WARC of
gzip members, as Common Crawl writes them), with an image and a 404 that Kitten counts
and does not convert.

    python samples/warc/make.py
"""
from __future__ import annotations

from pathlib import Path

from kitten.io.warc import warc_record

HERE = Path(__file__).resolve().parent
SAMPLES = HERE.parent


def main() -> None:
    pages = [("https://news.example.com/handhelds", (SAMPLES / "news" / "handhelds.html").read_bytes(), "text/html"),
             ("https://www.example.fr/consoles", (SAMPLES / "fr" / "consoles.html").read_bytes(), "text/html"),
             ("https://news.example.com/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(40), "image/png")]
    members = [warc_record(url, body, http_headers={"Content-Type": kind}) for url, body, kind in pages]
    members.append(warc_record("https://news.example.com/gone", b"<p>gone</p>", status="404 Not Found"))
    (HERE / "crawl.warc.gz").write_bytes(b"".join(members))


if __name__ == "__main__":
    main()
