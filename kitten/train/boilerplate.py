"""``kitten train boilerplate``: the boilerplate CRF from the shared gold standards.

Pages: CLEANEVAL development and final, Dragnet, cleanportaleval, Readability, web2025
(pages of every kind, 2024-2026) and the modern pages with a full gold (newspaper4k's, or written by hand:
``corpora/boilerplate/gold/``, :data:`ANNOTATED`), minus the held-out pages of
``corpora/boilerplate/heldout.txt`` (whole sites, never trained on:
``corpora/boilerplate/make_heldout.py``); some corpora weigh more (:data:`WEIGHTS`). Each page
goes through Kitten's steps up to structure (the configuration given, the boilerplate
step off), its blocks (cut into units by the unit rules of the feature settings, as the
gate cuts them: ``kitten/boilerplate/units.py``) are labelled from the gold by
``kitten/boilerplate/align.py``, and their features computed by
``kitten/boilerplate/features.py``.

Deterministic: pages in sorted order, folds by position, CRFsuite's L-BFGS with fixed
parameters (:data:`PARAMS`). Prints Victor's protocol first: 6-fold cross validation on
the CLEANEVAL development set (58 pages), block labelling accuracy on the full label set
and on content/noise (Victor: 75.0% and 82.9%) with their 95% intervals over the pages
(:func:`page_interval`), also weighted by tokens, with the
parameters for training sets of that size (:data:`SMALL_PARAMS`: a stronger L2 prior,
chosen on CLEANEVAL final pages by :func:`select_small_params`, ``--select-small`` runs
the choice again); content/noise both as the five-label model's labels read as content
or noise and from a model trained on the two labels (:func:`two_labels`, its parameters
:data:`SMALL_BINARY_PARAMS` chosen the same way): Victor's paper does not say which of
the two its 82.9% is; then the same folds with the shipped model's parameters; then
the same folds with the CLEANEVAL final training pages added to each fold's training
pages (the tested dev pages are never trained on); then trains on everything and writes
``classifiers/boilerplate.crfsuite`` and ``classifiers/boilerplate.json`` (feature
settings, labels, figures).
"""
from __future__ import annotations

import json
import multiprocessing as mp
import random
import signal
import sys
import tempfile
import time
from contextlib import nullcontext
from dataclasses import dataclass, replace
from pathlib import Path

from kitten.boilerplate.align import CONTENT, LABELS, align_labels
from kitten.boilerplate.crf import MODEL_NAME, crfsuite, settings_path
from kitten.boilerplate.features import FeatureSettings, block_features
from kitten.boilerplate.units import crf_units
from kitten.config import Config
from kitten.document import Document
from kitten.evaluation.gold import corpus_pages
from kitten.evaluation.overlap import tokenize
from kitten.log import PageLog
from kitten.normalizer import to_xhtml
from kitten.normalizer.encoding import decode
from kitten.progress import Steps
from kitten.resources import ROOT
from kitten.structure import build_document, parse_xhtml

CORPORA = ("cleaneval-dev", "cleaneval-final", "dragnet", "cleanportaleval", "readability", "modern", "web2025")
HELDOUT = ROOT / "corpora" / "boilerplate" / "heldout.txt"
#: gold files written by hand for shared pages without one (``corpora/boilerplate/annotate.py``),
#: one folder per corpus
ANNOTATED = ROOT / "corpora" / "boilerplate" / "gold"
VICTOR = {"labels": 0.750, "content/noise": 0.829}
FOLDS = 6
#: CRFsuite L-BFGS parameters (fixed: training is deterministic) of the shipped model,
#: trained on ~1,400 pages. Chosen on the held-out sites (``benchmarks/boilerplate.py``,
#: mean F1 CLEANEVAL final / Dragnet / Readability / modern full gold, threshold 0.5,
#: before the sibling and comment rules): c1 0.05 c2 0.01 (the earlier model's)
#: 0.922 / 0.887 / 0.916 / 0.896; c1 0.5 c2 0.1 0.925 / 0.895 / 0.915 / 0.933; c2 1
#: 0.929 / 0.901 / 0.922 / 0.942; c2 5 0.926 / 0.902 / 0.899 / 0.940; c2 20 0.928 /
#: 0.903 / 0.905 / 0.939: a weak prior learns the training sites.
PARAMS = {"c1": 0.0, "c2": 1.0, "max_iterations": 150, "feature.possible_transitions": True}
#: Each page of these corpora counts this many times in the shipped model's training.
#: With 11 modern pages (newspaper4k's golds) modern weighed 4: on the held-out sites
#: 0.928 / 0.904 / 0.933 / 0.934 against 0.929 / 0.901 / 0.922 / 0.942 unweighted.
#: With the 86 hand-annotated modern training pages (``corpora/boilerplate/gold``),
#: mean F1 CLEANEVAL final / Dragnet / Readability / modern full gold / modern
#: hand-annotated, modern snippets found on held-out sites (before the rules of the
#: gate were revised): modern 4: 0.925 / 0.922 / 0.914 / 0.919 / 0.930, 87.0%; 2:
#: 0.926 / 0.925 / 0.937 / 0.906 / 0.935, 88.3%; 1: 0.927 / 0.926 / 0.941 / 0.926 /
#: 0.929, 89.6% (c2 2: within 0.005 of c2 1 on every set).
#: web2025 (2024-2026 pages of seven kinds: forums, shops, listings, documentation ...):
#: on its held-out sites, mean word F1 of the gate before the rules for page kinds 0.741
#: without it, 0.816 with it weighing 2. With the final rules, weight 2 / 1: web2025
#: 0.832 / 0.831; CLEANEVAL final 0.924 / 0.924, Dragnet 0.914 / 0.921, Readability
#: 0.924 / 0.935, modern full 0.961 / 0.953, modern hand-annotated 0.931 / 0.939,
#: CleanPortalEval 0.952 / 0.956, modern snippets held out 89.6% / 97.4%: 1.
WEIGHTS = {"modern": 1, "readability": 2, "web2025": 1}
#: the L2 weights tried for training sets of Victor's size (48 pages a fold)
SMALL_C2 = (1.0, 5.0, 20.0, 50.0)
#: the parameters for Victor's protocol (48 training pages a fold: a stronger prior than
#: for ~1,400 pages), chosen by :func:`select_small_params` on CLEANEVAL final training
#: pages (4 groups of 60, every 8th page, each cross validated by the same 6-fold
#: protocol), never on the development pages, with the shipped unit rules
#: (``br-paragraphs``): mean labels / content-noise accuracy c2 0.01 (PARAMS) 68.8 / 80.9,
#: c2 1 69.9 / 80.8, 5 71.0 / 80.7, 20 72.0 / 81.2, 50 72.2 / 81.0; with CRFsuite's
#: ``possible_states`` (weights also for the feature/label pairs never seen together in
#: training, which the prior then makes negative) c2 1 69.9 / 80.7, 5 71.4 / 81.3,
#: 20 72.3 / 81.4, 50 72.1 / 80.9 (without unit rules the choice was c2 50, no possible
#: states) (``kitten train boilerplate --select-small`` prints them again)
SMALL_PARAMS = {"c1": 0.0, "c2": 20.0, "max_iterations": 150, "feature.possible_transitions": True,
                "feature.possible_states": True}
#: the same choice for the model trained on content/noise (:func:`two_labels`): mean
#: content/noise accuracy c2 0.01 (PARAMS) 80.5, c2 1 82.1, 5 83.3, 20 84.1, 50 84.5;
#: with possible states 82.1, 83.3, 84.3, 84.6
SMALL_BINARY_PARAMS = {"c1": 0.0, "c2": 50.0, "max_iterations": 150, "feature.possible_transitions": True,
                       "feature.possible_states": True}
SELECT_GROUPS = 4


@dataclass
class PageData:
    corpus: str
    name: str
    features: list[list[str]]
    labels: list[str]
    tokens: list[int]  # tokens of each block (the overlap metric's), for token-weighted accuracy


def settings_from(config: Config) -> FeatureSettings:
    """The feature settings of ``[boilerplate]`` (empty settings: the defaults)."""
    bp, s = config.boilerplate, FeatureSettings()
    changes = {k: getattr(bp, k) for k in ("ratio_thresholds", "count_thresholds", "quotient_thresholds",
                                           "families") if getattr(bp, k)}
    changes["units"] = bp.units  # empty: no rule
    return replace(s, **changes)


def page_document(data: bytes, config: Config) -> Document:
    """The structure step's document of a page (no tables, lists or gate)."""
    log = PageLog()
    decoded = decode(data, config.decode, log)
    return build_document(parse_xhtml(to_xhtml(decoded.text, config.normalize, log)), config.structure, log,
                          config.rules.dir)


def page_units(data: bytes, config: Config) -> list:
    """The units the gate labels on a page (:func:`page_document`'s blocks cut by the
    unit rules of ``config``): what annotators mark and what the snippets are made of."""
    units, _ = crf_units(page_document(data, config).blocks, settings_from(config).units)
    return units


_WORKER: dict = {}


def ignore_ctrl_c() -> None:
    """In a worker reading pages: Ctrl-C stops the parent, which stops the pool (no
    traceback from each worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _init(config: Config, settings: FeatureSettings) -> None:
    ignore_ctrl_c()
    _WORKER["config"], _WORKER["settings"] = config, settings


def _one(task) -> PageData | None:
    corpus, name, path, gold = task
    try:
        config = _WORKER["config"]
        doc = page_document(Path(path).read_bytes(), config)
    except Exception as exc:  # noqa: BLE001 - a page the pipeline falls back on teaches nothing
        print(f"skipped {corpus}/{name}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return None
    if not doc.blocks:
        return None
    settings = _WORKER["settings"]
    units, _ = crf_units(doc.blocks, settings.units)  # what the gate labels
    features = block_features(units, settings, doc.lang, config.rules.dir)
    tokens = [len(tokenize(b.text())) for b in units]
    return PageData(corpus, name, features, align_labels(units, gold), tokens)


def load_pages(corpora: Path, config: Config, settings: FeatureSettings, jobs: int = 0,
               heldout: Path = HELDOUT, names: tuple[str, ...] = CORPORA) -> list[PageData]:
    """Every training page with a gold, in sorted order, the held-out ones left out."""
    held = set(heldout.read_text(encoding="utf-8").split()) if heldout.is_file() else set()
    tasks = []
    for corpus in names:
        for name, path, gold in corpus_pages(corpora, corpus, ANNOTATED / corpus):
            if gold is not None and f"{corpus}/html/{name}" not in held:
                tasks.append((corpus, name, str(path), gold))
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    with ctx.Pool(jobs or None, initializer=_init, initargs=(config, settings)) as pool:
        pages = pool.map(_one, tasks, chunksize=4)
    return [p for p in pages if p is not None]


def two_labels(pages: list[PageData]) -> list[PageData]:
    """``pages`` labelled content/noise only: every content label becomes ``paragraph``
    (a model trained on these tells content from noise and nothing else)."""
    return [replace(p, labels=["paragraph" if lab in CONTENT else "other" for lab in p.labels]) for p in pages]


def weighted(pages: list[PageData]) -> list[PageData]:
    """``pages`` with those of the corpora of :data:`WEIGHTS` repeated (page order kept)."""
    return [p for p in pages for _ in range(WEIGHTS.get(p.corpus, 1))]


def fit(pages: list[PageData], path: Path, params: dict = PARAMS) -> None:
    trainer = crfsuite().Trainer(verbose=False)
    for p in pages:
        trainer.append(p.features, p.labels)
    trainer.set_params(params)
    trainer.train(str(path))


def tag_all(model: Path, pages: list[PageData]) -> list[list[str]]:
    tagger = crfsuite().Tagger()
    tagger.open(str(model))
    try:
        return [list(tagger.tag(p.features)) for p in pages]
    finally:
        tagger.close()


def accuracy(pages: list[PageData], predicted: list[list[str]]) -> dict:
    """Block accuracy on the full label set and on content/noise (each with its 95%
    interval over pages: :func:`page_interval`), the same weighted by the blocks'
    tokens, and per-label F1 (blocks)."""
    total = full = binary = 0
    t_total = t_full = t_binary = 0
    stats = {lab: [0, 0, 0] for lab in LABELS}  # tp, predicted, gold
    per_page: list[tuple[int, int, int]] = []  # blocks, right labels, right content/noise
    for p, pred in zip(pages, predicted):
        before = (total, full, binary)
        for g, y, n in zip(p.labels, pred, p.tokens):
            total += 1
            full += g == y
            binary += (g in CONTENT) == (y in CONTENT)
            t_total += n
            t_full += n * (g == y)
            t_binary += n * ((g in CONTENT) == (y in CONTENT))
            stats[y][1] += 1
            stats[g][2] += 1
            if g == y:
                stats[g][0] += 1
        per_page.append((total - before[0], full - before[1], binary - before[2]))
    out = {"blocks": total, "labels": full / total if total else 0.0,
           "labels interval": page_interval([(n, r) for n, r, _ in per_page]),
           "content/noise": binary / total if total else 0.0,
           "content/noise interval": page_interval([(n, r) for n, _, r in per_page]),
           "tokens": t_total, "labels (tokens)": t_full / t_total if t_total else 0.0,
           "content/noise (tokens)": t_binary / t_total if t_total else 0.0}
    for lab, (tp, npred, ngold) in stats.items():
        pr, rc = tp / npred if npred else 0.0, tp / ngold if ngold else 0.0
        out[f"F1 {lab}"] = 2 * pr * rc / (pr + rc) if pr + rc else 0.0
    return out


def page_interval(pages: list[tuple[int, int]], rounds: int = 2000, seed: int = 0) -> tuple[float, float]:
    """The 95% interval of an accuracy over pages, ``(blocks, right)`` each: the 2.5th
    and 97.5th percentiles of the accuracy of ``rounds`` resamples of the pages (drawn
    with replacement, a fixed seed). Pages, not blocks, are drawn: a page's blocks are
    labelled together, and how far a figure on 58 pages can move is the question."""
    if not pages:
        return (0.0, 0.0)
    rng = random.Random(seed)
    k = len(pages)
    figures = []
    for _ in range(rounds):
        sample = [pages[rng.randrange(k)] for _ in range(k)]
        n = sum(b for b, _ in sample)
        figures.append(sum(r for _, r in sample) / n if n else 0.0)
    figures.sort()
    return (figures[int(0.025 * rounds)], figures[min(rounds - 1, int(0.975 * rounds))])


def cross_validate(pages: list[PageData], folds: int = FOLDS, extra: list[PageData] = (),
                   params: dict = PARAMS, steps: Steps | None = None, what: str = "cross validation") -> dict:
    """``folds``-fold cross validation, page ``i`` in fold ``i % folds``; ``extra``
    pages are added to the training pages of every fold (never tested on). ``steps``
    reports each fold (as ``what``)."""
    predicted: list[list[str]] = [[] for _ in pages]
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(folds):
            with steps.step(f"{what}: fold {k + 1}/{folds} fitted and tagged", announce=False) if steps else nullcontext():
                train = [p for i, p in enumerate(pages) if i % folds != k] + list(extra)
                test = [i for i in range(len(pages)) if i % folds == k]
                model = Path(tmp) / f"fold{k}.crfsuite"
                fit(train, model, params)
                for i, pred in zip(test, tag_all(model, [pages[i] for i in test])):
                    predicted[i] = pred
    return accuracy(pages, predicted)


def select_small_params(pages: list[PageData], out=sys.stdout) -> dict:
    """The parameters for training sets of Victor's size, chosen on ``pages`` (CLEANEVAL
    final training pages, not the development pages Victor's protocol tests on): the
    pages in :data:`SELECT_GROUPS` groups of every 8th page (about 60, the size of the
    development set), each cross validated by Victor's protocol; the best mean of the
    label and content/noise accuracies wins (for pages of :func:`two_labels`, the two
    are the same figure)."""
    groups = [pages[g::8] for g in range(SELECT_GROUPS)]
    best, best_score = PARAMS, -1.0
    for params in _candidates():
        scores = [cross_validate(g, params=params) for g in groups]
        lab = sum(x["labels"] for x in scores) / len(scores)
        cn = sum(x["content/noise"] for x in scores) / len(scores)
        out.write(f"  {_params_name(params)}: labels {lab:.1%}, content/noise {cn:.1%} "
                  f"(mean of {len(groups)} groups of ~{len(groups[0])} pages)\n")
        if (lab + cn) / 2 > best_score:
            best, best_score = params, (lab + cn) / 2
    return best


def _candidates() -> list[dict]:
    """The parameters :func:`select_small_params` tries: the shipped model's, then each
    L2 weight of :data:`SMALL_C2` without and with CRFsuite's ``possible_states``."""
    return [PARAMS] + [{**SMALL_PARAMS, "c1": 0.0, "c2": c2, "feature.possible_states": states}
                       for states in (False, True) for c2 in SMALL_C2]


def _params_name(params: dict) -> str:
    states = ", possible states" if params.get("feature.possible_states") else ""
    return f"c1 {params['c1']} c2 {params['c2']}{states}"


def _rounded(scores: dict) -> dict:
    return {k: round(v, 4) if isinstance(v, float) else [round(x, 4) for x in v] if isinstance(v, tuple) else v
            for k, v in scores.items()}


def _interval(bounds: tuple[float, float]) -> str:
    return f"{bounds[0]:.1%}-{bounds[1]:.1%}"


def _show(scores: dict[str, float]) -> str:
    return ", ".join(f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}" for k, v in scores.items())


def train(corpora: Path, out: Path, config: Config, jobs: int = 0, select_small: bool = False) -> int:
    crfsuite()
    settings = settings_from(config)
    steps = Steps("kitten train boilerplate")
    t0 = time.perf_counter()
    with steps.step(f"reading the gold pages of {', '.join(CORPORA)} (blocks, labels, features)"):
        pages = load_pages(corpora, config, settings, jobs)
    by_corpus = {c: sum(p.corpus == c for p in pages) for c in CORPORA}
    print(f"{len(pages)} training pages ({_show(by_corpus)}), {sum(len(p.labels) for p in pages)} blocks, "
          f"read in {time.perf_counter() - t0:.0f} s")
    dev = [p for p in pages if p.corpus == "cleaneval-dev"]
    final = [p for p in pages if p.corpus == "cleaneval-final"]
    small, small_binary = SMALL_PARAMS, SMALL_BINARY_PARAMS
    if select_small:
        print("Parameters for Victor's protocol, chosen on CLEANEVAL final training pages:")
        small = select_small_params(final)
        print("The same for the model of two labels (content/noise):")
        small_binary = select_small_params(two_labels(final))
    cv = cross_validate(dev, params=small, steps=steps, what="Victor's protocol")
    print(f"Victor's protocol: {FOLDS}-fold cross validation on CLEANEVAL dev ({len(dev)} pages, "
          f"{cv['blocks']} blocks; {_params_name(small)}): accuracy labels {cv['labels']:.1%} "
          f"(Victor {VICTOR['labels']:.1%}), content/noise {cv['content/noise']:.1%} "
          f"(Victor {VICTOR['content/noise']:.1%})")
    print(f"  95% intervals over the pages (page bootstrap): labels {_interval(cv['labels interval'])}, "
          f"content/noise {_interval(cv['content/noise interval'])}")
    print(f"  weighted by tokens ({cv['tokens']} tokens): labels {cv['labels (tokens)']:.1%}, "
          f"content/noise {cv['content/noise (tokens)']:.1%}")
    print("  per label F1: " + ", ".join(f"{lab} {cv['F1 ' + lab]:.3f}" for lab in LABELS))
    cvb = cross_validate(two_labels(dev), params=small_binary, steps=steps, what="two labels")
    print(f"  a model trained on content/noise (two labels; {_params_name(small_binary)}): "
          f"accuracy {cvb['content/noise']:.1%} ({_interval(cvb['content/noise interval'])}; "
          f"Victor {VICTOR['content/noise']:.1%}); weighted by tokens "
          f"{cvb['content/noise (tokens)']:.1%}")
    cvp = cross_validate(dev, steps=steps, what="the shipped parameters")
    print(f"The same folds with the shipped model's parameters ({_params_name(PARAMS)}): "
          f"accuracy labels {cvp['labels']:.1%}, content/noise {cvp['content/noise']:.1%}")
    cvx = cross_validate(dev, extra=final, steps=steps, what="with CLEANEVAL final")
    print(f"The same folds, each also trained on the {len(final)} CLEANEVAL final training pages: "
          f"accuracy labels {cvx['labels']:.1%}, content/noise {cvx['content/noise']:.1%}; weighted by tokens "
          f"{cvx['labels (tokens)']:.1%}, {cvx['content/noise (tokens)']:.1%}")
    print("  per label F1: " + ", ".join(f"{lab} {cvx['F1 ' + lab]:.3f}" for lab in LABELS))
    out.mkdir(parents=True, exist_ok=True)
    model = out / MODEL_NAME
    t0 = time.perf_counter()
    with steps.step(f"fitting the model on all {len(pages)} pages"):
        fit(weighted(pages), model)
    print(f"trained on all {len(pages)} pages (weights {_show(WEIGHTS)}) in {time.perf_counter() - t0:.0f} s: {model}")
    meta = {"features": settings.as_dict(), "labels": list(LABELS), "params": PARAMS, "weights": WEIGHTS,
            "pages": by_corpus, "blocks": sum(len(p.labels) for p in pages),
            "cross_validation": {"protocol": f"{FOLDS}-fold on cleaneval-dev, page i in fold i % {FOLDS}",
                                 "params": small, **_rounded(cv)},
            "cross_validation_two_labels": {"protocol": "the same folds, a model trained on content/noise",
                                            "params": small_binary,
                                            **{k: v for k, v in _rounded(cvb).items()
                                               if k in ("blocks", "tokens", "content/noise", "content/noise interval",
                                                        "content/noise (tokens)")}},
            "cross_validation_shipped_params": {"protocol": "the same folds, the shipped model's parameters",
                                                **_rounded(cvp)},
            "cross_validation_with_final": {"protocol": "the same folds, each fold's training pages plus the "
                                                        "CLEANEVAL final training pages", **_rounded(cvx)}}
    settings_path(model).write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"feature settings and figures: {settings_path(model)}")
    return 0
