"""Tables step (placeholder until the classifier lands): the document passes unchanged."""
from __future__ import annotations

from kitten.config import TablesConfig
from kitten.document import Document
from kitten.log import PageLog


def read_tables(doc: Document, config: TablesConfig, log: PageLog, classifiers: str = "") -> Document:
    return doc
