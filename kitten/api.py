"""The Python API: ``kitten.normalize`` and ``kitten.extract``."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal, Mapping

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


#: the values of ``extract(..., output=...)``
OUTPUTS = ("text", "json")


def extract(data: bytes | str, *, url: str | None = None, headers: Mapping[str, str] | None = None,
            config: Config | None = None, output: Literal["text", "json"] = "text") -> str | dict[str, Any]:
    """Text of one page ("" for excluded input such as sitemaps or binary files), or with
    ``output="json"`` the dict that ``kitten extract --format json`` writes (blocks,
    sentences, tables with their ``records``, lists with their ``item_texts`` ...). A page
    that is not ``done`` gives ``{"status", "reason", "text"}`` instead (``text``: the
    plain-text dump of a fallback, None for excluded input)."""
    if output not in OUTPUTS:
        raise ValueError(f"output must be one of {', '.join(map(repr, OUTPUTS))}, not {output!r}")
    result = run_page(_page(data, url, headers), config or Config(), target=output)
    if output == "text":
        return result.output or ""
    if result.status == "done":
        return json.loads(result.output)
    reason = next((e.message for e in result.log if e.kind in ("excluded", "fallback", "failed")), "")
    return {"status": result.status, "reason": reason, "text": result.output}


def extract_result(data: bytes | str, *, url: str | None = None,
                   headers: Mapping[str, str] | None = None, config: Config | None = None) -> PageResult:
    """``extract`` with everything the pipeline knows of the page: ``status``, ``output``
    (the text), ``log`` and each step's product (``products["structure"].lang``...)."""
    return run_page(_page(data, url, headers), config or Config(), target="text")
