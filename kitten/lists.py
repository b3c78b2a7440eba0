"""Lists step (placeholder until the rules land): the document passes unchanged."""
from __future__ import annotations

from kitten.config import ListsConfig
from kitten.document import Document
from kitten.log import PageLog


#: event kind of a removed link-list item (message: the item text; where: the list locator)
LINK_ITEM_REMOVED = "link-item-removed"


def read_lists(doc: Document, config: ListsConfig, log: PageLog, rules: str = "") -> Document:
    return doc
