"""The engine: one input record in, one outcome out (GUIDE section 1).

``convert`` reads a record's bytes, runs the pipeline and returns an ``Outcome``: what
the sinks write (a file per page, or a JSON Lines record) and what the batch log and
summary count. It never raises. The local worker pool (``kitten.workers``) calls it
today; a task of a distributed engine can call it the same way. ``stand_in`` is the
outcome of a record whose worker did not answer (time limit, crash).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kitten.config import Config
from kitten.document import Locators
from kitten.io.files import MAX_PAGE_BYTES, atomic_write, output_path
from kitten.io.records import InputError, Record
from kitten.io.sources import TooLarge, load
from kitten.language import identify
from kitten.log import GATE_FALLBACK
from kitten.page import Page
from kitten.pipeline import DUMPS, PageResult, Target, run_page
from kitten.render import block_dict, gate_readings, readings, sentence_dict

#: the extra parts a JSON Lines record can carry (``--jsonl-fields``)
JSONL_FIELDS = ("blocks", "sentences", "tables", "lists", "gate", "events")
#: outcomes of a record
STATUSES = ("done", "fallback", "excluded", "failed", "timeout")
#: the largest page whose plain-text dump the parent makes when a worker did not answer
STAND_IN_DUMP_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class Job:
    """What every worker needs to know (small and picklable; sent once per worker)."""

    target: Target
    config: Config
    dump_dir: Path | None = None
    max_bytes: int = MAX_PAGE_BYTES
    fields: tuple[str, ...] = ()  # JSON Lines extras, from JSONL_FIELDS
    report_dir: Path | None = None  # write each page's visual report here (kitten.report)
    #: keep only pages identified in these languages (``--lang``; empty: every page)
    languages: tuple[str, ...] = ()
    #: identify each page's language (``Outcome.lang``, ``lang_score``): what the batch log,
    #: the records and ``--lang`` read; a page's text printed on standard output shows
    #: neither, and its process need not load the language model
    identify: bool = True


@dataclass
class Outcome:
    """What became of one record."""

    record: Record
    status: str  # one of STATUSES
    reason: str = ""  # why it is not "done" (or what the fallback replaced)
    size: int = 0  # bytes read (decompressed)
    encoding: str | None = None
    output: str | None = None  # the XHTML, text, JSON or CLEANEVAL text; the dump for fallbacks
    suffix: str = ".txt"  # the output's file suffix
    events: list[dict] = field(default_factory=list)
    #: the language identified in the text (``kitten.language.identify``: ISO 639-1), None
    #: when the text is too short or the identification unsure; and its probability
    lang: str | None = None
    lang_score: float | None = None
    #: the language the page declares (ISO 639-1 when it has one), None when none
    declared_lang: str | None = None
    title: str | None = None
    metadata: dict[str, str] = field(default_factory=dict)
    #: the kind of page and its probability (``kitten.page_type``), when the gate ran
    page_type: str | None = None
    page_type_probability: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # the JSON Lines extras asked for

    @property
    def gate(self) -> str | None:
        """``"fallback"`` when the boilerplate gate's labels were overridden, ``"labelled"``
        when they were applied, ``None`` without the gate."""
        kinds = {e["kind"] for e in self.events if e["step"] == "gate"}
        if not kinds:
            return None
        return "fallback" if GATE_FALLBACK in kinds else "labelled"


def prepare(job: Job, workers: int = 1) -> None:
    """Import what the pages of ``job`` will need beyond the steps every page runs: the
    gate (``[boilerplate] method = "crf"``) and the page-type forest's code, the faithful
    style's units, the visual report; with more than one worker, the modules that read a
    table too (a page without a table needs none of them: one worker imports them at
    its first table). Called before the workers are forked, so that they start with
    these imports rather than each repeating them; ``kitten extract`` without them does
    not import them at all."""
    config = job.config
    if job.target != "xhtml" and config.tables.enabled and workers > 1:
        import kitten.tables.celltypes  # noqa: F401
        import kitten.tables.clauses  # noqa: F401
        import kitten.tables.heuristics  # noqa: F401
        import kitten.tables.records  # noqa: F401
        import kitten.tables.rows  # noqa: F401
    if job.target != "xhtml" and config.boilerplate.method != "none":
        import kitten.boilerplate  # noqa: F401
        import kitten.page_type  # noqa: F401
    if job.target != "xhtml" and config.output.style == "faithful":
        import kitten.boilerplate.units  # noqa: F401
    if job.report_dir is not None:
        import kitten.report.page  # noqa: F401


def convert(record: Record, job: Job) -> Outcome:
    """Read, convert and (with ``job.dump_dir``) dump one record. Never raises."""
    if record.skip:
        return Outcome(record, "excluded", record.skip,
                       events=[{"step": "read", "kind": "excluded", "message": record.skip}])
    try:
        data = load(record, job.max_bytes)
    except TooLarge as exc:
        return Outcome(record, "excluded", str(exc), events=[{"step": "read", "kind": "excluded", "message": str(exc)}])
    except OSError as exc:
        reason = str(exc) if isinstance(exc, InputError) else f"cannot be read: {exc.strerror or exc}"
        return Outcome(record, "failed", reason, events=[{"step": "read", "kind": "failed", "message": reason}])
    try:
        result = run_page(Page(data=data, name=record.id, url=record.url, headers=record.headers),
                          job.config, job.target,
                          provenance=job.target == "json" or job.report_dir is not None
                          or not {"blocks", "sentences"}.isdisjoint(job.fields))
        identify_language = job.identify or bool(job.languages)
        outcome = keep_languages(_outcome(record, result, len(data), job.fields, identify_language), job.languages)
    except Exception as exc:  # noqa: BLE001 - run_page never raises; a bug here must not lose the page
        reason = f"{type(exc).__name__}: {exc}"
        return Outcome(record, "failed", reason, len(data), events=[{"step": "engine", "kind": "failed", "message": reason}])
    if job.dump_dir is not None:
        try:
            write_dumps(result, job.dump_dir, record.stem)
        except OSError as exc:
            outcome.events.append({"step": "dump", "kind": "failed", "message": f"dump not written: {exc}"})
    if job.report_dir is not None:
        try:
            from kitten.report.page import write_report  # imported before the workers start (prepare)

            write_report(result, job.report_dir, record.stem)
        except Exception as exc:  # noqa: BLE001 - a report that cannot be made must not lose the page
            outcome.events.append({"step": "report", "kind": "failed",
                                   "message": f"report not written: {type(exc).__name__}: {exc}"})
    return outcome


def _outcome(record: Record, result: PageResult, size: int, fields: tuple[str, ...],
             identify_language: bool = True) -> Outcome:
    decoded = result.decoded
    events = [e.as_dict() for e in result.log]
    reason = ""
    if result.status != "done":
        reason = next((e["message"] for e in events if e["kind"] in ("excluded", "fallback", "failed")), "")
    doc = result.products.get("structure")
    outcome = Outcome(record, result.status, reason, size, decoded.encoding if decoded else None,
                      result.output, result.output_suffix, events)
    if doc is not None:
        outcome.declared_lang, outcome.title, outcome.metadata = doc.declared_lang, doc.title, doc.metadata.as_dict()
    text = page_text(result) if identify_language else None
    if text:
        found = identify(text)
        outcome.lang, outcome.lang_score = found.lang, found.score
    kind = result.products.get("page_type")
    if kind is not None:
        outcome.page_type, outcome.page_type_probability = kind.label, round(kind.probability, 4)
    locate = doc.locate if doc is not None else Locators()
    for name in fields:
        if name == "events":
            outcome.extra["events"] = events
        elif name == "sentences":
            outcome.extra["sentences"] = [sentence_dict(s, doc) for s in result.products.get("segment") or []]
        elif name == "blocks" and doc is not None:
            outcome.extra["blocks"] = [block_dict(b, doc) for b in doc.blocks]
        elif name == "gate":
            outcome.extra[name] = gate_readings(result.products.get(name) or [], locate)
        elif name in ("tables", "lists"):
            outcome.extra[name] = readings(result.products.get(name) or [])
    return outcome


def page_text(result: PageResult) -> str | None:
    """The text a page's language is identified in: its sentences, one a line (what the
    text format writes), or the plain-text dump of a fallback; None when it has none."""
    sentences = result.products.get("segment")
    if sentences is not None and result.status == "done":
        return "\n".join(s.text for s in sentences)
    return result.output if result.status == "fallback" else None


def keep_languages(outcome: Outcome, languages: tuple[str, ...]) -> Outcome:
    """``outcome``, or, when ``languages`` are given and the page's identified language is
    not one of them (or none was identified), the same excluded with the reason
    ``language: ...`` and no output."""
    if not languages or outcome.status not in ("done", "fallback") or outcome.lang in languages:
        return outcome
    found = outcome.lang or "not identified"
    reason = f"language: {found} (kept: {', '.join(languages)})"
    outcome.events.append({"step": "language", "kind": "excluded", "message": reason})
    outcome.status, outcome.reason, outcome.output = "excluded", reason, None
    return outcome


def write_dumps(result: PageResult, dump_dir: Path, stem: Path) -> None:
    """Every intermediate product of the page, one file each, plus its log."""
    doc = result.products.get("structure")
    locate = doc.locate if doc is not None else Locators()
    for step, product in result.products.items():
        suffix, to_text = DUMPS[step]
        atomic_write(output_path(dump_dir, stem, suffix), product if to_text is None else to_text(product, locate))
    log = {"name": result.name, "status": result.status, "error": result.error,
           "events": [e.as_dict() for e in result.log]}
    atomic_write(output_path(dump_dir, stem, ".log.json"), json.dumps(log, ensure_ascii=False, indent=1))


def stand_in(record: Record, status: str, reason: str, job: Job) -> Outcome:
    """The outcome of a record whose worker did not answer (``timeout``, or ``failed``
    when the worker died): the reason, and the plain-text dump of the page when it can
    be had cheaply (pages up to ``STAND_IN_DUMP_BYTES``)."""
    events = [{"step": "worker", "kind": status, "message": reason}]
    outcome = Outcome(record, status, reason, events=events)
    if record.skip:
        return outcome
    try:
        data = load(record, min(job.max_bytes, STAND_IN_DUMP_BYTES))
        outcome.size = len(data)
        from kitten.fallback import plain_text_dump

        outcome.output = plain_text_dump(data)
    except Exception as exc:  # noqa: BLE001 - the reason above stands
        events.append({"step": "fallback", "kind": "note", "message": f"no plain-text dump: {exc}"})
    return outcome
