"""Kitten as an extractor step of Hugging Face's datatrove (the library of the FineWeb
pipelines, which call trafilatura there).

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter
    from kitten.datatrove import KittenExtractor

    LocalPipelineExecutor(pipeline=[WarcReader("crawl/"), KittenExtractor(), JsonlWriter("out/")],
                          tasks=4).run()

It takes datatrove ``Document``s whose ``text`` is the HTML (as datatrove's readers give
it, decoded) and ``metadata["url"]`` the URL, and gives back Kitten's text (one sentence
per line) with Kitten's ``status`` (``kitten_status``) and the language identified in the
text (``language``, as the JSON Lines record's ``lang``: None when unsure) in the metadata;
documents with no text are dropped, as datatrove's extractors do. The gate and the settings are those of the ``Config`` given (``Config.from_toml(path)``). Each
page runs in datatrove's sandbox process under its time limit (``timeout``, seconds).

Needs the ``datatrove`` extra: ``pip install 'kitten-text[datatrove]'``.
"""
from __future__ import annotations

from datatrove.data import DocumentsPipeline
from datatrove.pipeline.extractors.base import BaseExtractor, ExtractorSandbox
from datatrove.utils.typeshelper import StatHints

from kitten.api import extract_result
from kitten.config import Config
from kitten.engine import page_text
from kitten.language import identify


class KittenExtractor(BaseExtractor):
    """Kitten's ``extract`` as a datatrove pipeline step."""

    name = "🐱 Kitten"
    _requires_dependencies = []

    def __init__(self, config: Config | None = None, timeout: float = 60.0):
        super().__init__(timeout)
        self.config = config or Config()

    def extract(self, text: str) -> str:
        return self.extract_with_status(text)[0]

    def extract_with_status(self, text: str, url: str | None = None) -> tuple[str, str, str | None]:
        """(text, Kitten's status, language) of one page."""
        result = extract_result(text, url=url, config=self.config)
        page = page_text(result)
        return result.output or "", result.status, identify(page).lang if page else None

    def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1) -> DocumentsPipeline:
        with ExtractorSandbox(timeout=self.timeout, warmup_text=("", None)) as sandbox:
            for doc in data:
                self.stat_update(StatHints.total)
                with self.track_time():
                    try:
                        text, status, lang = sandbox.process_document((doc.text, doc.metadata.get("url")),
                                                                      self.extract_with_status)
                    except TimeoutError:
                        self.stat_update("timeout")
                        continue
                    except EOFError:  # the sandbox process died (memory): the next page gets a new one
                        self.stat_update("broken_process")
                        continue
                doc.text = text
                doc.metadata["kitten_status"] = status
                doc.metadata["language"] = lang
                self.stat_update(status)
                if text:
                    self.stat_update(StatHints.forwarded)
                    self.update_doc_stats(doc)
                    yield doc
                else:
                    self.stat_update(StatHints.dropped)


__all__ = ["KittenExtractor"]
