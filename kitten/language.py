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
from functools import lru_cache

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
