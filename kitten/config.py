"""One configuration object, with documented defaults, loadable from TOML.

A TOML file mirrors the sections below, e.g.::

    [triage]
    xml_containers = ["header", "document", "textfield", "page"]

    [decode]
    default_encoding = "windows-1252"

    [normalize]
    max_depth = 200

Unknown sections or keys are an error (a typo must not silently do nothing).
"""
from __future__ import annotations

import dataclasses
import functools
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from kitten.whatwg_encodings import resolve_label


def toml_module():
    """``tomllib`` (``tomli`` before Python 3.11), imported when a TOML file is read: a run
    without ``--config`` does not need it."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    return tomllib


class ConfigError(ValueError):
    """A configuration file or value that cannot be used."""


@dataclass(frozen=True)
class TriageConfig:
    #: Root elements of pre-converted XML documents whose text is extracted directly.
    xml_containers: tuple[str, ...] = ("header", "document", "textfield", "page")
    #: Exclude XML sitemaps (``urlset``, ``sitemapindex``) and plain-text URL lists.
    exclude_sitemaps: bool = True
    #: A text file is a URL list when at least this share of its non-empty lines are URLs.
    url_list_ratio: float = 0.9

    def __post_init__(self) -> None:
        if not 0.0 < self.url_list_ratio <= 1.0:
            raise ConfigError("[triage] url_list_ratio must be in (0, 1]")


@dataclass(frozen=True)
class DecodeConfig:
    #: Encoding used when nothing is declared and detection is not conclusive
    #: (the WHATWG default for Western locales).
    default_encoding: str = "windows-1252"
    #: Run charset-normalizer when no BOM, header or declaration decides.
    detect: bool = True
    #: Check a declared charset against the bytes and override it when it is wrong.
    verify_declared: bool = True
    #: How many bytes the <meta> pre-scan reads (browsers use 1024; many pages
    #: declare later, so Kitten reads more).
    prescan_bytes: int = 4096

    def __post_init__(self) -> None:
        if resolve_label(self.default_encoding) is None:
            raise ConfigError(f"[decode] default_encoding: unknown encoding {self.default_encoding!r}")
        if self.prescan_bytes < 64:
            raise ConfigError("[decode] prescan_bytes must be at least 64")


@dataclass(frozen=True)
class NormalizeConfig:
    #: Element nesting deeper than this is flattened (children hoisted, text kept),
    #: so that any XML parser accepts the output (libxml2 refuses depth > 256).
    max_depth: int = 200
    #: Write the subtrees that need no decision with the C writer (``_fastwrite``; the
    #: same output, about three times faster). Off: the Python writer does everything.
    fast_writer: bool = True

    def __post_init__(self) -> None:
        if not MIN_DEPTH <= self.max_depth <= MAX_DEPTH:
            raise ConfigError(f"[normalize] max_depth must be between {MIN_DEPTH} and {MAX_DEPTH} "
                              f"(libxml2 refuses documents deeper than 256), not {self.max_depth}")


MIN_DEPTH, MAX_DEPTH = 16, 250


@dataclass(frozen=True)
class StructureConfig:
    #: Language of pages without a ``lang`` attribute (selects rules/<lang>/).
    default_language: str = "en"
    #: Containers (div, ul, table ...) whose id or class matches one of these regular
    #: expressions (case-insensitive) are removed with their content, as the original
    #: system removed ``menu`` divs. An empty list keeps them.
    #: A pattern must match a whole name token: ids and classes are split on white
    #: space, ``-``, ``_``, camelCase and digits (``tab-menu--product`` has the token
    #: ``menu``; ``pane-taxomenu-1`` has none).
    remove_containers: tuple[str, ...] = ("menu", "(?:main|top|sub|side|nav|mega|drop|foot|header)menu")
    #: ... but a matching container is kept (logged ``kept-menu-container``) when it does
    #: not read like navigation (under half of its letters in links, and a run of text
    #: longer than 80 characters) or holds more than this share of the page's visible
    #: letters (``class="menu-container"`` around the whole page is not a menu).
    #: 1.0: remove every match, as the original system.
    menu_max_share: float = 0.5
    #: Remove cookie and consent banners (``rules/consent.txt``: container names and
    #: phrases), logged ``removed-consent``.
    remove_consent: bool = True
    #: Add the title of <abbr>/<acronym> in brackets after its text, at its first
    #: occurrence in the page: "NSW (New South Wales)" (never for a date, time, number or
    #: URL title, nor for a symbol or an element without letters).
    expand_abbreviations: bool = True
    #: Extract the alt text of images.
    img_alt: bool = False
    #: Elements with one of these classes are left out: text the site's style sheet
    #: hides (Wikipedia's sort keys: ``<span class="sortkey">Slavin, Mark</span>``) or
    #: moves off screen for screen readers (the class names of Bootstrap, WordPress,
    #: Drupal, HTML5 Boilerplate, the BBC, Jetpack's share buttons ...: "Skip to content",
    #: "(opens in a new tab)", "Image caption" before a caption), and the honeypot
    #: fields of form plugins, hidden by their style sheets (Gravity Forms' "This field is
    #: for validation purposes and should be left unchanged.", WPForms'), the messages a
    #: Webflow form shows only once sent ("Thank you! Your submission has been received!",
    #: "Oops! Something went wrong while submitting the form.": on 14 of web2025's 859
    #: pages, never in the gold).
    hidden_classes: tuple[str, ...] = ("sortkey", "sr-only", "sr-only-focusable", "visually-hidden", "visuallyhidden",
                                       "u-visually-hidden", "screen-reader-text", "assistive-text",
                                       "element-invisible", "off-screen", "offscreen", "offScreen",
                                       "sharing-screen-reader-text", "gform_validation_container",
                                       "wpforms-field-hp", "w-form-done", "w-form-fail")
    #: Leave out the phrases share and link plugins write for screen readers where they
    #: stand, in whatever element ("Click to share on Twitter (Opens in new window)",
    #: "Wird in neuem Fenster geöffnet"): ``rules/<lang>/screen-reader.txt``, the phrases of
    #: every language on every page (``kitten/screen_reader.py``), logged
    #: ``removed-screen-reader-phrase``.
    remove_screen_reader_phrases: bool = True

    def __post_init__(self) -> None:
        import re

        if not 0.0 < self.menu_max_share <= 1.0:
            raise ConfigError("[structure] menu_max_share must be in (0, 1]")
        for p in self.remove_containers:
            try:
                re.compile(p)
            except re.error as exc:
                raise ConfigError(f"[structure] remove_containers: bad pattern {p!r}: {exc}") from exc


@dataclass(frozen=True)
class SegmentConfig:
    #: Split each block into sentences, one a line (``--format blocks``: false, one
    #: block a line). Abbreviations that do not end a sentence: rules/<lang>/abbreviations.txt.
    split_sentences: bool = True
    #: Join a line cut by a single <br> to the next when the clause goes on.
    join_br: bool = True
    #: Leave out segments with no letter or digit ("|", "»").
    drop_symbol_only: bool = True


#: the text styles (``[output] style``, ``kitten extract --style``)
STYLES = ("parser", "faithful")


@dataclass(frozen=True)
class OutputConfig:
    """The text written (``--format text`` and ``jsonl``; the sentences of ``json`` and
    ``cleaneval``)."""

    #: ``parser``: one sentence a line, every boundary the page shows by layout written
    #: as punctuation (full stops after headings, items and cells; lists flattened with
    #: their introductory clause; data tables as clauses; abbreviations expanded).
    #: ``faithful``: the page's text as written, paragraphs separated by a blank line,
    #: list items and table rows one a line (cells joined by " | "), nothing added
    #: (``kitten/faithful.py``). The same removals and gate in both.
    style: str = "parser"

    def __post_init__(self) -> None:
        if self.style not in STYLES:
            raise ConfigError(f"[output] style must be one of {', '.join(STYLES)}, not {self.style!r}")


@dataclass(frozen=True)
class RulesConfig:
    #: Folder of the language resources (default: ``rules/`` of the checkout).
    dir: str = ""
    #: Folder of the models (default: ``classifiers/`` of the checkout).
    classifiers: str = ""


@dataclass(frozen=True)
class TablesConfig:
    """Leaf tables: data/layout classification, cell typing and one clause per data row.
    The clause pattern is ``thema ;; finalImportant ;; (column ; row: data / ...)``; a
    part that is empty is left out with the separator after it."""

    #: Read data tables as clauses (false: every table is read linearly, cell by cell).
    enabled: bool = True
    #: A leaf table is data when the classifier's probability of "data" is at least this.
    data_threshold: float = 0.5
    #: Fix inconsistent cell types after the cell classifier (see kitten/tables/heuristics.py).
    heuristics: bool = True
    #: Bounds of the grid model: spans are clipped to these, and a table with more rows
    #: or columns than this is read linearly (logged).
    max_rows: int = 2000
    max_columns: int = 100
    max_span: int = 100
    #: Separators of the clause pattern.
    thema_separator: str = " ;; "
    header_separator: str = " ; "
    value_separator: str = ": "
    cell_separator: str = " / "
    #: Joins the levels of multi-level headers (top to bottom) and several row headers.
    level_separator: str = " - "

    def __post_init__(self) -> None:
        if not 0.0 <= self.data_threshold <= 1.0:
            raise ConfigError("[tables] data_threshold must be in [0, 1]")
        for name in ("max_rows", "max_columns", "max_span"):
            if getattr(self, name) < 1:
                raise ConfigError(f"[tables] {name} must be at least 1")


@dataclass(frozen=True)
class ListsConfig:
    """Lists (ul, ol, dl, menu, dir): typology and rewriting rules, the original's
    behaviour by default (the rules are in the docstring of ``kitten/lists.py``)."""

    #: Apply the list rules (false: every item is read as its own segment).
    enabled: bool = True
    #: Remove items made only of links with fewer than ``link_item_words`` words (logged).
    remove_link_items: bool = True
    link_item_words: int = 5
    #: A list is a link list (its short link items removed, never flattened) when at
    #: least this share of its items (those of the lists inside it included) are link
    #: items: items with at least ``link_text_share`` of their letters inside links.
    link_list_share: float = 0.5
    link_text_share: float = 0.75
    #: Remove hand-written bullets (patterns in rules/bullets.txt).
    remove_bullets: bool = True
    #: Flatten one-level lists introduced by a clause ending with a colon.
    flatten: bool = True
    #: Below this median item length (characters) the list becomes one sentence.
    short_item_chars: int = 60
    #: Repeat the introductory clause before each item when it ends with a trigger word
    #: (rules/<lang>/triggers.txt).
    repeat_clause: bool = True
    #: Read definition lists as "term: definition." sentences (false: one segment per
    #: dt and per dd).
    definitions: bool = True

    def __post_init__(self) -> None:
        if self.link_item_words < 0 or self.short_item_chars < 0:
            raise ConfigError("[lists] link_item_words and short_item_chars must be >= 0")
        for name in ("link_list_share", "link_text_share"):
            if not 0.0 < getattr(self, name) <= 1.0:
                raise ConfigError(f"[lists] {name} must be in (0, 1]")


#: the boilerplate CRF's feature families (``kitten.boilerplate.features`` computes them)
FAMILIES = ("markup", "split", "content", "duplicate", "group", "document", "shallow", "page")
#: the rules that split blocks into the CRF's units (``kitten.boilerplate.units`` applies them)
UNIT_RULES = ("pre-lines", "img-alt", "br-paragraphs")


@dataclass(frozen=True)
class BoilerplateConfig:
    """The optional boilerplate step (``kitten/boilerplate/``): a CRF labels each block
    header / paragraph / list / continuation / other, and ``other`` blocks are dropped
    before tables, lists and segmentation. Needs python-crfsuite (the ``crf`` extra)."""

    #: ``none`` (default: every block kept) or ``crf``.
    method: str = "none"
    #: The CRF model file (default: ``boilerplate.crfsuite`` in the classifiers folder);
    #: its feature settings are read from the JSON file beside it (same name, ``.json``).
    model: str = ""
    #: Feature settings for ``kitten train boilerplate`` (empty: the defaults of
    #: ``kitten/boilerplate/features.py``). Extraction always uses the settings the
    #: model was trained with (its JSON file), so a model and its features never differ.
    #: Numbers are mapped to the largest threshold less than or equal to them.
    ratio_thresholds: tuple[float, ...] = ()
    count_thresholds: tuple[float, ...] = ()
    quotient_thresholds: tuple[float, ...] = ()
    #: Feature families to compute (empty: all; see the features module docstring).
    families: tuple[str, ...] = ()
    #: For ``kitten train boilerplate``: Victor's unit rules, applied before labelling
    #: (``kitten/boilerplate/units.py``): ``pre-lines`` (each line of a ``<pre>`` a unit),
    #: ``img-alt`` (each alt text a unit; needs ``[structure] img_alt``),
    #: ``br-paragraphs`` (a block cut after each ``<br><br>``); ``[]``: the structure
    #: step's blocks as they are. The shipped model uses ``br-paragraphs`` only (held-out
    #: mean F1 over every page CLEANEVAL 0.907 -> 0.924, Dragnet 0.933 -> 0.932; the
    #: other two lowered it, see docs/gate.md). Extraction applies the rules the model was
    #: trained with (its JSON file), whatever this setting says.
    units: tuple[str, ...] = ("br-paragraphs",)
    #: A block is kept when its probability of being content (the CRF's marginals) is at
    #: least this: lower keeps more of the main text and more noise (the curve on the
    #: held-out sites is in docs/gate.md; the default was chosen there).
    keep_threshold: float = 0.5
    #: The threshold on pages of some kinds (``kitten.page_type``), as ``"kind=P"``
    #: entries; the other kinds use ``keep_threshold``. On the pages of web2025's training
    #: sites, each read by a model that never saw its site (``benchmarks/gate_folds.py``),
    #: the kinds whose main content is varied text the CRF learnt from few pages of (a
    #: category's or a listing's items, a service's offer, a documentation page) keep more
    #: of it at a lower threshold, word F1 at 0.5 / 0.4 / 0.3 / 0.25 / 0.2: collection 0.634
    #: / 0.644 / 0.649 / 0.654 / 0.654, listing 0.625 / 0.634 / 0.651 / 0.662 / 0.664,
    #: documentation 0.867 / 0.873 / 0.880 / 0.883 / 0.884, service 0.783 / 0.799 / 0.807 /
    #: 0.811 / 0.818 (must-drop snippets absent 0.94-0.98 -> 0.92-0.96 at 0.3); articles,
    #: threads and products gain nothing (article 0.930 / 0.930 / 0.929 / 0.927 / 0.925).
    #: ``--keep-threshold`` sets one threshold for every kind (this list emptied).
    keep_thresholds: tuple[str, ...] = ("collection=0.3", "documentation=0.3", "listing=0.3", "service=0.3")
    #: ... unless the page-type classifier gives ``article`` at least this probability: a
    #: news page it hesitates over keeps ``keep_threshold``. On web2025's training sites,
    #: the 12 articles read as one of those kinds had 0.14-0.36 (median 0.24), the 154
    #: pages of those kinds read right a median of 0.11 (three quarters under 0.16); 16 of
    #: the 85 held-out hand-annotated news pages of ``modern`` are read as a listing, a
    #: service or documentation, 12 of them with 0.2 or more.
    keep_thresholds_article: float = 0.2
    #: On a page the CRF is unsure of, whose third likeliest block holding a sentence has
    #: a content probability under this, the threshold is at most ``unsure_share`` of that
    #: probability, not under ``unsure_floor`` (``kitten/boilerplate/thresholds.py``; not
    #: on a page read as an article, as above; 0 turns it off). Out of fold on web2025's
    #: training sites (516 pages), word F1 0.835 -> 0.841 (listing 0.644 -> 0.684,
    #: collection 0.649 -> 0.676, product 0.664 -> 0.679, service 0.807 -> 0.809, article
    #: 0.931 -> 0.930); held out 0.842 -> 0.846; 0.6-1.0 / 0.3-0.5 / 0.02-0.1 within 0.002
    #: of each other. It keeps a little more noise on old pages the classifier reads as
    #: listings (Dragnet 0.919 -> 0.916; every other set within 0.002).
    unsure_below: float = 0.8
    #: ... the share of that probability the threshold is at most on such a page ...
    unsure_share: float = 0.4
    #: ... and the least it is lowered to there.
    unsure_floor: float = 0.05
    #: Keep every data table whole (the tables step's data/layout classifier decides):
    #: its short cells look like navigation to the CRF, which dropped most Wikipedia
    #: tables (facts of benchmarks/table_facts.py kept: 56.8% without this, 98.3% with
    #: it, as without the gate); it costs a little on the held-out golds, which count
    #: sidebar tables as noise (mean F1 Dragnet 0.919 -> 0.912, CLEANEVAL 0.930 -> 0.926).
    keep_data_tables: bool = True
    #: Drop the blocks inside containers named for comments (comment, reply, discussion,
    #: disqus ...) when the blocks kept outside them hold an article (50 words of prose):
    #: readers' comments are not the article (held-out Dragnet 0.915 -> 0.931, CLEANEVAL
    #: 0.926 -> 0.924). False keeps what the CRF keeps there (forums whose replies are
    #: named so).
    drop_comments: bool = True
    #: Keep the page's headline (the block the page's title names: ``og:title``, else
    #: ``<title>``, else the first ``h1``; the ``page`` features' ``title.at``) when the
    #: CRF keeps it. Golds differ: CLEANEVAL's, Dragnet's and the hand-annotated recent
    #: pages keep it; newspaper4k's and Readability's expected texts leave it out (their
    #: tools give the title apart, as Kitten's metadata does). False leaves it out.
    keep_title: bool = True
    #: Keep figure captions and photo credits (``figcaption`` and text inside a
    #: ``figure``) when the CRF or the lead-image rule keeps them. The hand-annotated
    #: recent pages and Postlight's snippets keep them; newspaper4k's golds leave them
    #: out. False leaves them out (table captions stay: they head a table's clauses).
    keep_captions: bool = True
    #: The kinds of page (``kitten.page_type``) whose lists of links the gate keeps are
    #: content: the lists step keeps their link items (``[lists] remove_link_items`` off
    #: there): a documentation page's "Next steps" and its index of tutorials, which the
    #: gate kept as main content. On web2025's held-out sites documentation 0.874 ->
    #: 0.879, out of fold unchanged; on every kind, documentation 0.883 (pages read as
    #: other kinds) but threads and service pages lose precision to their link lines
    #: (must-drop 91.2% -> 90.9%, out of fold 0.843 -> 0.842).
    link_items_kept_on: tuple[str, ...] = ("documentation",)

    def __post_init__(self) -> None:
        if self.method not in ("none", "crf"):
            raise ConfigError(f"[boilerplate] method must be \"none\" or \"crf\", not {self.method!r}")
        if isinstance(self.keep_threshold, bool) or not isinstance(self.keep_threshold, (int, float)) \
                or not 0.0 <= self.keep_threshold <= 1.0:
            raise ConfigError(f"[boilerplate] keep_threshold must be a number from 0 to 1, not {self.keep_threshold!r}")
        if not all(isinstance(e, str) for e in self.keep_thresholds):
            raise ConfigError("[boilerplate] keep_thresholds must be a list of \"KIND=P\" strings")
        self.thresholds_by_kind()  # raises on a malformed entry
        if isinstance(self.keep_thresholds_article, bool) or not isinstance(self.keep_thresholds_article, (int, float)) \
                or not 0.0 <= self.keep_thresholds_article <= 1.0:
            raise ConfigError("[boilerplate] keep_thresholds_article must be a number from 0 to 1, "
                              f"not {self.keep_thresholds_article!r}")
        if not all(isinstance(k, str) for k in self.link_items_kept_on):
            raise ConfigError("[boilerplate] link_items_kept_on must be a list of kinds of page (strings)")
        for name in ("unsure_below", "unsure_share", "unsure_floor"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
                raise ConfigError(f"[boilerplate] {name} must be a number from 0 to 1, not {value!r}")
        for name in ("ratio_thresholds", "count_thresholds", "quotient_thresholds"):
            values = getattr(self, name)
            if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in values) \
                    or list(values) != sorted(set(values)):
                raise ConfigError(f"[boilerplate] {name} must be increasing numbers")
        unknown = set(self.families) - set(FAMILIES)
        if unknown:
            raise ConfigError(f"[boilerplate] families: unknown {', '.join(sorted(unknown))}; "
                              f"known: {', '.join(FAMILIES)}")
        unknown = set(self.units) - set(UNIT_RULES)
        if unknown:
            raise ConfigError(f"[boilerplate] units: unknown {', '.join(sorted(unknown))}; "
                              f"known: {', '.join(UNIT_RULES)}")


    def thresholds_by_kind(self) -> Mapping[str, float]:
        """``keep_thresholds`` as a read-only mapping: page kind -> threshold (parsed once
        per distinct setting, not at every page).

        >>> dict(BoilerplateConfig(keep_thresholds=("listing=0.3",)).thresholds_by_kind())
        {'listing': 0.3}
        """
        return _thresholds(self.keep_thresholds)


@functools.lru_cache(maxsize=32)
def _thresholds(entries: tuple[str, ...]) -> Mapping[str, float]:
    out = {}
    for entry in entries:
        kind, _, value = str(entry).partition("=")
        try:
            p = float(value)
        except ValueError:
            p = -1.0
        if not kind.strip() or not 0.0 <= p <= 1.0:
            raise ConfigError(f"[boilerplate] keep_thresholds: {entry!r} is not KIND=P with P from 0 to 1")
        out[kind.strip()] = p
    return MappingProxyType(out)


@dataclass(frozen=True)
class Config:
    triage: TriageConfig = field(default_factory=TriageConfig)
    decode: DecodeConfig = field(default_factory=DecodeConfig)
    normalize: NormalizeConfig = field(default_factory=NormalizeConfig)
    structure: StructureConfig = field(default_factory=StructureConfig)
    tables: TablesConfig = field(default_factory=TablesConfig)
    lists: ListsConfig = field(default_factory=ListsConfig)
    boilerplate: BoilerplateConfig = field(default_factory=BoilerplateConfig)
    segment: SegmentConfig = field(default_factory=SegmentConfig)
    output: OutputConfig = field(default_factory=OutputConfig)
    rules: RulesConfig = field(default_factory=RulesConfig)

    @classmethod
    def from_toml(cls, path: str | Path) -> "Config":
        tomllib = toml_module()
        try:
            with open(path, "rb") as fh:
                data = tomllib.load(fh)
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"cannot read config {path}: {exc}") from exc
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Config":
        sections = {}
        for f in dataclasses.fields(cls):
            sections[f.name] = _build(f.default_factory, data.get(f.name, {}), f.name)  # type: ignore[misc]
        unknown = set(data) - set(sections)
        if unknown:
            raise ConfigError(f"unknown config section(s): {', '.join(sorted(unknown))}")
        return cls(**sections)


#: Named settings a user switches on with one word (``kitten extract --preset NAME``), applied
#: over the configuration file and under the other options:
#:
#: - ``main``: the boilerplate gate on (``[boilerplate] method = "crf"``): the main content of
#:   any kind of page (an article, a thread, a listing, a product, a documentation page);
#: - ``article``: the gate on, without the page's headline and figure captions: running
#:   text only, the convention of article extractors' expected outputs (newspaper4k,
#:   Mozilla Readability), for a corpus whose documents take their title from the metadata.
PRESETS: dict[str, dict[str, dict[str, Any]]] = {
    "main": {"boilerplate": {"method": "crf"}},
    "article": {"boilerplate": {"method": "crf", "keep_title": False, "keep_captions": False}},
}


def with_preset(config: Config, name: str) -> Config:
    """``config`` with the settings of the preset ``name`` (:data:`PRESETS`) replaced.

    >>> c = with_preset(Config(), "article").boilerplate
    >>> c.method, c.keep_title, c.keep_captions
    ('crf', False, False)
    """
    if name not in PRESETS:
        raise ConfigError(f"unknown preset {name!r}; known: {', '.join(PRESETS)}")
    for section, values in PRESETS[name].items():
        current = getattr(config, section)
        config = dataclasses.replace(config, **{section: dataclasses.replace(current, **values)})
    return config


def _build(section_cls, values: dict[str, Any], section: str):
    if not isinstance(values, dict):
        raise ConfigError(f"[{section}] must be a table")
    fields = {f.name: f for f in dataclasses.fields(section_cls)}
    unknown = set(values) - set(fields)
    if unknown:
        raise ConfigError(f"unknown key(s) in [{section}]: {', '.join(sorted(unknown))}")
    kwargs = {}
    for name, value in values.items():
        default = getattr(section_cls(), name)
        if isinstance(default, tuple):
            if not isinstance(value, list):
                raise ConfigError(f"[{section}] {name} must be a list")
            value = tuple(value)
        elif isinstance(default, bool) and not isinstance(value, bool):
            raise ConfigError(f"[{section}] {name} must be true or false")
        elif isinstance(default, (int, float)) and not isinstance(default, bool):
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise ConfigError(f"[{section}] {name} must be a number")
        elif isinstance(default, str) and not isinstance(value, str):
            raise ConfigError(f"[{section}] {name} must be a string")
        kwargs[name] = value
    try:
        return section_cls(**kwargs)
    except ConfigError:
        raise
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"[{section}] {exc}") from exc


def _toml_value(value: Any) -> str:
    import json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return repr(value)


def _field_docs(section_cls) -> dict[str, str]:
    """The ``#:`` comments written above each field of a section's class, by field name
    (a comment above several fields without their own belongs to each of them)."""
    import inspect
    import re

    docs: dict[str, str] = {}
    pending: list[str] = []
    last = ""
    for line in inspect.getsource(section_cls).splitlines()[1:]:
        stripped = line.strip()
        if stripped.startswith("#:"):
            pending.append(stripped[2:].strip())
            continue
        match = re.match(r"(\w+)\s*:", stripped)
        if match and match.group(1) in {f.name for f in dataclasses.fields(section_cls)}:
            last = " ".join(pending) if pending else (last if not stripped.startswith("def ") else "")
            docs[match.group(1)] = last
        pending = []
    return docs


def reference() -> str:
    """The configuration reference in Markdown: each section, each key with its default
    and its documentation, read from the dataclasses above (``docs/configuration.md``
    holds it; ``tests/test_docs.py`` checks that it is current and rewrites it with
    ``KITTEN_UPDATE_DOCS=1``)."""
    import textwrap

    out = []
    for section in dataclasses.fields(Config):
        cls = section.default_factory  # type: ignore[misc]
        doc = textwrap.dedent(cls.__doc__ or "").strip() if cls.__doc__ and "(" not in cls.__doc__[:len(cls.__name__) + 1] else ""
        out.append(f"### [{section.name}]\n")
        if doc:
            out.append(" ".join(doc.split()) + "\n")
        out.append("| key | default | what it does |\n|---|---|---|")
        docs = _field_docs(cls)
        defaults = cls()
        for f in dataclasses.fields(cls):
            text = docs.get(f.name, "").replace("|", "\\|")
            value = _toml_value(getattr(defaults, f.name)).replace("|", "\\|")
            out.append(f"| `{f.name}` | `{value}` | {text} |")
        out.append("")
    return "\n".join(out)

