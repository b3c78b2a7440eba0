"""The Python API: ``kitten.normalize`` and ``kitten.extract``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from kitten.config import Config
from kitten.log import Event
from kitten.page import Page
from kitten.pipeline import PageResult, Status, run_page


@dataclass(frozen=True)
class NormalizeResult:
    """The normalized page.

    ``xhtml`` is the UTF-8 XHTML 1.0 Transitional document (a str) when ``status`` is
    ``"done"``; when a step failed, ``status`` is ``"fallback"`` and ``text`` holds the
    plain-text dump; sitemaps, binary and empty input are ``"excluded"``.
    """

    status: Status
    xhtml: str | None
    text: str | None
    encoding: str | None
    decoded: str | None
    log: list[Event]

    @classmethod
    def from_result(cls, r: PageResult) -> "NormalizeResult":
        d = r.decoded
        return cls(
            status=r.status,
            xhtml=r.xhtml if r.status == "done" else None,
            text=r.products.get("fallback"),
            encoding=d.encoding if d else None,
            decoded=d.text if d else None,
            log=list(r.log),
        )


def _page(data: bytes | str, url: str | None, headers: Mapping[str, str] | None) -> Page:
    if isinstance(data, str):
        data = data.encode("utf-8", "replace")  # a lone surrogate becomes "?"
        headers = {**(headers or {}), "Content-Type": "text/html; charset=utf-8"}
    return Page(data=data, url=url, headers=headers)


def normalize(data: bytes | str, *, url: str | None = None,
              headers: Mapping[str, str] | None = None, config: Config | None = None) -> NormalizeResult:
    """Normalize one page (bytes as crawled, or an already decoded str) to XHTML."""
    result = run_page(_page(data, url, headers), config or Config(), target="xhtml")
    return NormalizeResult.from_result(result)


def extract(data: bytes | str, *, url: str | None = None,
            headers: Mapping[str, str] | None = None, config: Config | None = None) -> str:
    """Text of one page ("" for excluded input such as sitemaps or binary files)."""
    return extract_result(data, url=url, headers=headers, config=config).output or ""


def extract_result(data: bytes | str, *, url: str | None = None,
                   headers: Mapping[str, str] | None = None, config: Config | None = None) -> PageResult:
    """``extract`` with everything the pipeline knows of the page: ``status``, ``output``
    (the text), ``log`` and each step's product (``products["structure"].lang``...)."""
    return run_page(_page(data, url, headers), config or Config(), target="text")
