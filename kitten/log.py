"""Per-page event log: every decision and removal a step makes is recorded here."""
from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, field
from typing import Callable


#: the event kind of a page whose boilerplate-gate labels were overridden
#: (``kitten.boilerplate.fallback``); here so that the steps and the batch that count it
#: need not import the gate, which runs only when configured
GATE_FALLBACK = "boilerplate-fallback"


class Event:
    """One logged decision. ``kind`` is a short machine-readable key (e.g. ``encoding``,
    ``sitemap``, ``fallback``, ``dropped-element``); ``message`` is for people. Immutable,
    compared and hashed by its four fields, as a frozen dataclass.

    The message and the locator may be given as functions of no arguments that make
    them: each is called the first time it is read (or the event pickled, copied,
    compared), and the text kept; a removal's message and a list's locator name elements
    by their locators, which most runs never read and which cost more than the rest of
    the event."""

    __slots__ = ("step", "kind", "_message", "_where")

    step: str
    kind: str

    def __init__(self, step: str, kind: str, message: str | Callable[[], str],
                 where: str | Callable[[], str] = "") -> None:
        init = object.__setattr__
        init(self, "step", step)
        init(self, "kind", kind)
        init(self, "_message", message)
        init(self, "_where", where)

    def _made(self, slot: str) -> str:
        """The text of ``slot``, made (and kept) if it is a function."""
        value = object.__getattribute__(self, slot)
        if not isinstance(value, str):
            value = value()
            object.__setattr__(self, slot, value)
        return value

    @property
    def message(self) -> str:
        return self._made("_message")

    @property
    def where(self) -> str:
        """The locator of the element concerned, when there is one."""
        return self._made("_where")

    def __setattr__(self, name: str, value) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _fields(self) -> tuple[str, str, str, str]:
        return self.step, self.kind, self.message, self.where

    def __eq__(self, other) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return "Event(step={!r}, kind={!r}, message={!r}, where={!r})".format(*self._fields())

    def __reduce__(self):
        return self.__class__, self._fields()

    def as_dict(self) -> dict:
        d = {"step": self.step, "kind": self.kind, "message": self.message}
        if self.where:
            d["where"] = self.where
        return d


@dataclass(slots=True)
class PageLog:
    """Mutable collector of events for one page (never shared between pages)."""

    events: list[Event] = field(default_factory=list)

    def add(self, step: str, kind: str, message: str | Callable[[], str], where: str | Callable[[], str] = "") -> None:
        """Record an event (``message``, ``where``: texts, or functions making them when
        first read)."""
        self.events.append(Event(step, kind, message, where))

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def of_kind(self, kind: str) -> list[Event]:
        return [e for e in self.events if e.kind == kind]
