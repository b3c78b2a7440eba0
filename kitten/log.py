"""Per-page event log: every decision and removal a step makes is recorded here."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Event:
    """One logged decision. ``kind`` is a short machine-readable key (e.g. ``encoding``,
    ``sitemap``, ``fallback``, ``dropped-element``); ``message`` is for people."""

    step: str
    kind: str
    message: str
    where: str = ""  # locator of the element concerned, when there is one

    def as_dict(self) -> dict:
        d = {"step": self.step, "kind": self.kind, "message": self.message}
        if self.where:
            d["where"] = self.where
        return d


@dataclass(slots=True)
class PageLog:
    """Mutable collector of events for one page (never shared between pages)."""

    events: list[Event] = field(default_factory=list)

    def add(self, step: str, kind: str, message: str, where: str = "") -> None:
        self.events.append(Event(step, kind, message, where))

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def of_kind(self, kind: str) -> list[Event]:
        return [e for e in self.events if e.kind == kind]
