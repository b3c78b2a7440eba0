"""Write ``rules/<lang>/stopwords.txt`` from jusText's stop-word lists (run once; the lists are committed).

    pip install justext && python -m kitten.train.stopwords

jusText (Pomikálek, BSD 2-Clause licence; its lists are the most frequent words of each
language's Wikipedia) ships lists for about 100 languages under ``justext/stoplists/``.
Kitten takes those of :data:`LANGUAGES` (ISO 639-1 code -> jusText's name), lower-cased,
sorted, each word once, under a header that names the source and the licence. The
boilerplate gate reads them (``kitten/boilerplate/features.py``: the stop-word ratio of
a block; ``kitten/language.py``: the list that covers a page best when its declared
language has none or does not fit its text).
"""
from __future__ import annotations

from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"  # the checkout's rules/ (the lists are committed there)
LANGUAGES = {
    "af": "Afrikaans", "ar": "Arabic", "bg": "Bulgarian", "bn": "Bengali", "bs": "Bosnian", "ca": "Catalan",
    "cs": "Czech", "cy": "Welsh", "da": "Danish", "de": "German", "el": "Greek", "en": "English",
    "eo": "Esperanto", "es": "Spanish", "et": "Estonian", "eu": "Basque", "fa": "Persian", "fi": "Finnish",
    "fr": "French", "ga": "Irish", "gl": "Galician", "he": "Hebrew", "hi": "Hindi", "hr": "Croatian",
    "hu": "Hungarian", "hy": "Armenian", "id": "Indonesian", "is": "Icelandic", "it": "Italian",
    "ka": "Georgian", "kk": "Kazakh", "ko": "Korean", "lt": "Lithuanian", "lv": "Latvian", "mk": "Macedonian",
    "ms": "Malay", "nb": "Norwegian_Bokmal", "nl": "Dutch", "nn": "Norwegian_Nynorsk", "pl": "Polish",
    "pt": "Portuguese", "ro": "Romanian", "ru": "Russian", "sk": "Slovak", "sl": "Slovenian", "sq": "Albanian",
    "sr": "Serbian", "sv": "Swedish", "sw": "Swahili", "ta": "Tamil", "te": "Telugu", "tl": "Tagalog",
    "tr": "Turkish", "uk": "Ukrainian", "ur": "Urdu", "vi": "Vietnamese",
}
HEADER = ("# Function words of {name} for the boilerplate gate's stop-word ratio (kitten/boilerplate/features.py)\n"
          "# and the choice of a page's list (kitten/language.py). From jusText's stoplists/{name}.txt\n"
          "# (Jan Pomikálek, BSD 2-Clause licence), written by kitten/train/stopwords.py.\n")


def main() -> int:
    import justext  # the bench extra; only this script needs it

    source = Path(justext.__file__).resolve().parent / "stoplists"
    for code, name in LANGUAGES.items():
        words = sorted({w.strip().lower() for w in (source / f"{name}.txt").read_text(encoding="utf-8").split()
                        if w.strip() and not w.startswith("#")})
        folder = RULES / code
        folder.mkdir(exist_ok=True)
        (folder / "stopwords.txt").write_text(HEADER.format(name=name) + "\n".join(words) + "\n", encoding="utf-8")
    print(f"{len(LANGUAGES)} lists written under {RULES}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
