"""The boilerplate step: features, alignment, the CRF gate, its settings and command line."""
from __future__ import annotations

import contextlib
import dataclasses
import io
import sys
from pathlib import Path

import pytest

from kitten.boilerplate import gate
from kitten.boilerplate.align import align_labels
from kitten.boilerplate.crf import CrfUnavailable, crfsuite, load_model
from kitten.boilerplate.features import COUNTS, RATIOS, FeatureSettings, block_features, bucket
from kitten.cli import main
from kitten.config import BoilerplateConfig, Config, ConfigError
from kitten.evaluation.gold import parse_cleaneval, parse_dragnet
from kitten.log import PageLog
from kitten.page import Page
from kitten.pipeline import run_page

from _corpora import CORPORA, corpus_pages  # noqa: E402  (the shared corpora: tests/_corpora.py)

NAV = ('<div id="nav" class="navigation"><ul><li><a href="/">Home</a></li><li><a href="/a">About us</a></li>'
       '<li><a href="/c">Contact</a></li></ul></div>')
FOOT = '<div class="footer"><p>Copyright 2007 Example Inc. All rights reserved.</p></div>'
ARTICLE = ('<div class="content"><h1>The annual report of the club</h1>'
           '<p>The club met on Monday and it was agreed that the accounts would be published in the spring.</p>'
           '<p>These are the results of the season, which was the best the club has had for years:</p>'
           '<table><tr><th>Team</th><th>Won</th><th>Lost</th></tr><tr><th>Seniors</th><td>12</td><td>3</td></tr>'
           '<tr><th>Juniors</th><td>9</td><td>6</td></tr><tr><th>Veterans</th><td>4</td><td>11</td></tr></table>'
           '<p>The members who will be on the board next year are the following:</p>'
           '<ul><li>Ann</li><li>Bob</li><li>Cid</li></ul></div>')
PAGE = f"<html><body>{NAV}{ARTICLE}{FOOT}</body></html>"


def document(html: str):
    return run_page(Page(html.encode(), "t.html"), Config(), "json").products["structure"]


def test_bucket_takes_the_largest_threshold_less_or_equal() -> None:
    assert bucket(0.0, RATIOS) == 0.0 and bucket(0.55, RATIOS) == 0.5 and bucket(1.0, RATIOS) == 1.0
    assert bucket(6, COUNTS) == 5 and bucket(10**6, COUNTS) == COUNTS[-1] and bucket(-3, COUNTS) == 0


def test_features_of_a_hand_made_page() -> None:
    doc = document(PAGE.replace("</ul></div>", "</ul><p>Home</p></div>"))
    feats = block_features(doc.blocks)
    texts = [" ".join(b.text().split()) for b in doc.blocks]
    home = feats[texts.index("Home")]
    assert "link-density=1.0" in home and "container.kw.nav" in home
    assert not any(f.startswith("container.div.") for f in home)  # raw class tokens are not features
    assert "container.ul" in home and "split.open.ul" in home and "duplicate-count=3" in home
    assert "first-duplicate" in home and "-1:BOS" in home
    about = feats[texts.index("About us")]
    assert "split.close.li" in about and "+1:link-density=1.0" in about and "-1:link-density=1.0" in about
    para = feats[[i for i, t in enumerate(texts) if t.startswith("The club met")][0]]
    assert "link-density=0.0" in para and "container.kw.content" in para and "end.stop" in para
    assert "begin.upper" in para and "sentences=1" in para and "tok.stopword=0.7" in para
    # the page family: after the title (the h1: the page has no <title>), in the densest region
    assert {"title.after", "region.in", "ld.none"} <= set(para) and "title.before" in home
    assert "region.before" in home and "title.at" in feats[texts.index("The annual report of the club")]
    foot = feats[[i for i, t in enumerate(texts) if t.startswith("Copyright")][0]]
    assert "regexp.copyright" in foot and "container.kw.footer" in foot and "+1:EOS" in foot
    assert any(f.startswith("div-group.word-ratio=") for f in para)
    # a family switched off leaves no feature of its own
    no_markup = block_features(doc.blocks, FeatureSettings(families=("content",)))
    assert not any(f.startswith(("container.", "split.", "link-density")) for f in no_markup[0])
    # the date and time patterns
    dated = block_features(document("<p>Posted on 12/05/2006 at 10:45 by http://x.org</p>").blocks)[0]
    assert {"regexp.date", "regexp.time", "regexp.url"} <= set(dated)


def test_alignment_on_a_tiny_gold() -> None:
    doc = document("<html><body><p>Home | News</p><h1>Big storm</h1><p>The storm came<br/><br/>at night.</p>"
                   "<ul><li>first point</li></ul><p>Share this</p></body></html>")
    gold = parse_cleaneval("URL: x\n<h>Big storm\n<p>The storm came at night.\n<l>first point")
    assert align_labels(doc.blocks, gold) == ["other", "header", "paragraph", "list", "other"]
    # a gold without kinds (Dragnet): the block's own kind; "continuation" for a cut block
    doc = document("<div>The storm came<div>at night, and left.</div></div><p>Tags: storm</p>")
    assert align_labels(doc.blocks, parse_dragnet("The storm came at night, and left.\n")) == \
        ["paragraph", "continuation", "other"]


# --------------------------------------------------------------------------- the gate

NOISE = {"Home", "About us", "Contact"}


def _labels(doc) -> list[str]:
    out = []
    for b in doc.blocks:
        t = " ".join(b.text().split())
        out.append("other" if t in NOISE or t.startswith("Copyright") else
                   "header" if b.kind == "heading" else "list" if b.kind == "list_item" else "paragraph")
    return out


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> Path:
    """A CRF trained on the hand-made page (navigation and footer: other)."""
    pycrfsuite = pytest.importorskip("pycrfsuite")
    trainer = pycrfsuite.Trainer(verbose=False)
    for variant in (PAGE, PAGE.replace("annual", "yearly"), PAGE.replace("Monday", "Friday")):
        doc = document(variant)
        trainer.append(block_features(doc.blocks), _labels(doc))
    trainer.set_params({"c1": 0.0, "c2": 0.01, "max_iterations": 50})
    path = tmp_path_factory.mktemp("model") / "boilerplate.crfsuite"
    trainer.train(str(path))
    return path


def test_gating_drops_other_and_keeps_structure(tiny_model: Path) -> None:
    config = Config.from_dict({"boilerplate": {"method": "crf", "model": str(tiny_model)}})
    result = run_page(Page(PAGE.encode(), "t.html"), config, "text")
    text = result.output
    assert "Home" not in text and "Copyright" not in text and "About us" not in text
    assert "The club met on Monday" in text
    assert "Team: Veterans / Won ; Veterans: 4 / Lost ; Veterans: 11." in text  # the data table still read as clauses
    assert "the following: Ann, Bob, Cid." in text  # the list still flattened
    labelled = result.products["gate"]
    assert {x.label for x in labelled} >= {"other", "header", "paragraph"}
    assert any(e.step == "gate" and "dropped" in e.message for e in result.log)
    # the gate does not change the document it is given
    doc = document(PAGE)
    n = len(doc.blocks)
    kept, _ = gate(doc, config.boilerplate, PageLog())
    assert len(doc.blocks) == n and len(kept.blocks) < n


def test_gate_off_by_default_keeps_every_block() -> None:
    result = run_page(Page(PAGE.encode(), "t.html"), Config(), "text")
    assert "gate" not in result.products and "Copyright" in result.output


def test_config_validation() -> None:
    assert Config().boilerplate.method == "none"
    c = Config.from_dict({"boilerplate": {"method": "crf", "ratio_thresholds": [0, 0.5, 1], "families": ["content"]}})
    assert c.boilerplate.ratio_thresholds == (0, 0.5, 1)
    for bad in ({"method": "svm"}, {"ratio_thresholds": [0.5, 0.1]}, {"families": ["colour"]},
                {"count_thresholds": "1,2"}, {"threshold": 1}, {"model": 3}):
        with pytest.raises(ConfigError):
            Config.from_dict({"boilerplate": bad})
    with pytest.raises(ConfigError):
        BoilerplateConfig(count_thresholds=(1, 1))


def test_missing_dependency_is_a_clear_error(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "pycrfsuite", None)  # import fails
    load_model.cache_clear()
    with pytest.raises(CrfUnavailable, match="pip install 'kitten-text\\[crf\\]'"):
        crfsuite()
    page = tmp_path / "p.html"
    page.write_text(PAGE)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["extract", str(page), "--boilerplate", "crf"]) == 2
    assert "python-crfsuite" in err.getvalue()
    load_model.cache_clear()


def test_cli_flag(tiny_model: Path, tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_text(PAGE)
    config = tmp_path / "c.toml"
    config.write_text(f'[boilerplate]\nmodel = "{tiny_model}"\n')
    for extra, noise in (([], True), (["--boilerplate", "crf"], False)):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["extract", str(page), "--config", str(config), *extra]) == 0
        assert ("Copyright" in out.getvalue()) is noise
    # the dump of the labels
    dump = tmp_path / "dump"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["extract", str(page), "--config", str(config), "--boilerplate", "crf",
                     "--dump-dir", str(dump)]) == 0
    assert '"label": "other"' in next(dump.rglob("*.boilerplate.json")).read_text()
    # a model that does not exist: usage error, not a fallback on every page
    config.write_text('[boilerplate]\nmodel = "/nonexistent.crfsuite"\n')
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["extract", str(page), "--config", str(config), "--boilerplate", "crf"]) == 2
    assert "no boilerplate model" in err.getvalue()


def test_menu_container_holding_most_of_the_page_is_kept() -> None:
    """``class="menu-container"`` around the article (dragnet R403) is not a menu."""
    html = ('<html><body><div class="menu-container"><div class="menu"><a href="/">Home</a></div>'
            '<p>The whole article is here, and it is long enough to be most of the page.</p></div></body></html>')
    result = run_page(Page(html.encode(), "m.html"), Config(), "text")
    assert result.output == "The whole article is here, and it is long enough to be most of the page.\n"
    assert [e.kind for e in result.log if "menu" in e.kind] == ["removed-menu", "kept-menu-container"]
    strict = Config.from_dict({"structure": {"menu_max_share": 1.0}})
    assert run_page(Page(html.encode(), "m.html"), strict, "text").output == ""
    with pytest.raises(ConfigError):
        Config.from_dict({"structure": {"menu_max_share": 0}})


def test_aria_role_menu_is_not_a_menu_class() -> None:
    """``role="menu"`` becomes the class token ``kitten.role-menu`` for the gate; the
    structure step's ``remove_containers`` still matches only the page's own names."""
    html = ('<html><body><div role="menu"><p>The article text is long enough to count as prose here.</p></div>'
            '<div class="menu"><p>Home</p></div></body></html>')
    result = run_page(Page(html.encode(), "m.html"), Config(), "text")
    assert result.output == "The article text is long enough to count as prose here.\n"


def test_stop_words_follow_the_page_not_its_declaration() -> None:
    """A German article under a template's ``lang="en"`` gets the German list; a page in
    a script without spaces gets none (``tok.stopword=na``), and its words are counted
    per two characters."""
    from kitten.boilerplate.features import word_count
    from kitten.language import page_stop_words

    german = "Die Regierung hat am Montag beschlossen, dass die Steuern im nächsten Jahr nicht steigen werden."
    assert page_stop_words(german.lower().split(), "en")[0] == "de"
    assert page_stop_words("the government said on monday that taxes will not rise".split(), "fr")[0] == "en"
    assert page_stop_words(["東京都の天気は晴れです"], "ja") is None
    doc = document(f'<html lang="en"><body><p>{german}</p></body></html>')
    (feats,) = block_features(doc.blocks)
    assert "tok.stopword=0.6" in feats and "stopwords=10" in feats  # as under lang="de"
    doc = document("<html><body><p>東京都の天気は晴れです。明日は雨が降るでしょう。</p></body></html>")
    (feats,) = block_features(doc.blocks)
    # no list for Japanese: its function characters (hiragana) stand for stop words
    assert "tok.stopword=0.5" in feats and "sentences=2" in feats and "end.stop" in feats
    assert word_count("東京都の天気は晴れです") == 6


def test_shipped_model_drops_the_navigation_keeps_the_article() -> None:
    pytest.importorskip("pycrfsuite")
    result = run_page(Page(PAGE.encode(), "t.html"), Config.from_dict({"boilerplate": {"method": "crf"}}), "text")
    assert "Home" not in result.output and "About us" not in result.output
    assert "The club met on Monday" in result.output and "Team: Veterans / Won ; Veterans: 4 / Lost ; Veterans: 11." in result.output


def test_feature_lists_are_the_trained_ones(tiny_model: Path) -> None:
    """The gate's own features (the scorer adds the neighbours) are the lists the model
    was trained on, and CRFsuite's items give the same labels as those lists."""
    pytest.importorskip("pycrfsuite")
    from kitten.boilerplate.crf import model_path
    from kitten.boilerplate.features import crf_items, own_features
    for path in (tiny_model, model_path()):
        model = load_model(str(path))
        for html in (PAGE, PAGE.replace("<p>", "<p>Home ") + NAV + FOOT, f"<html><body>{NAV}{FOOT}</body></html>"):
            blocks = document(html).blocks
            labels = model.tag(block_features(blocks, model.settings))  # what the model was trained on
            assert model.tag(crf_items(blocks, model.settings)) == labels
            no_window = dataclasses.replace(model.settings, window=())
            assert [["bias", *f] for f in own_features(blocks, model.settings)] == \
                block_features(blocks, no_window)


def _all_other(model_self, own):
    """Marginals saying every block is ``other`` (0.96), the first block less so (0.8)."""
    import numpy as np

    labels = model_self.labels
    m = np.zeros((len(own), len(labels)))
    m[:, labels.index("other")], m[:, labels.index("paragraph")] = 0.96, 0.04
    m[0, labels.index("other")], m[0, labels.index("paragraph")] = 0.8, 0.2
    return m


def test_fallback_when_the_labels_keep_no_prose(tiny_model: Path, monkeypatch) -> None:
    """Every block labelled other on a page with prose: the densest text region is kept
    and the page says so (log event, JSON Lines log field, batch summary)."""
    from kitten.boilerplate import FALLBACK
    from kitten.boilerplate.crf import Model

    monkeypatch.setattr(Model, "marginals_own", _all_other)
    config = Config.from_dict({"boilerplate": {"method": "crf", "model": str(tiny_model),
                                               "unsure_below": 0.0}})  # (made-up probabilities)
    doc = document(PAGE)
    log = PageLog()
    kept, labelled = gate(doc, config.boilerplate, log)
    texts = [" ".join(b.text().split()) for b in kept.blocks]
    assert any(t.startswith("The club met on Monday") for t in texts)
    assert not any(t in NOISE or t.startswith("Copyright") for t in texts)
    (event,) = [e for e in log.events if e.kind == FALLBACK]
    assert event.message.startswith("no-sentence: 0% of the page's prose kept; kept the densest text region")
    assert all(0.0 <= x.probability <= 1.0 for x in labelled)
    # a page without prose, every block other: the likeliest block is kept, never nothing
    doc = document("<html><body><ul><li><a href='/a'>Alpha</a></li><li><a href='/b'>Beta</a></li></ul></body></html>")
    log = PageLog()
    kept, _ = gate(doc, config.boilerplate, log)
    assert [b.text() for b in kept.blocks] == ["Alpha"]
    assert any(e.kind == FALLBACK and e.message.startswith("all-other") for e in log.events)


def test_data_tables_and_introduced_lists_are_kept_whole(tiny_model: Path, monkeypatch) -> None:
    """Short cells and items look like navigation to the CRF: a data table is kept whole
    (``keep_data_tables``), a list or table right after a kept clause ending with a
    colon too."""
    import numpy as np

    from kitten.boilerplate.crf import Model

    texts = [" ".join(b.text().split()) for b in document(PAGE).blocks]
    kept = {i for i, t in enumerate(texts) if t.startswith(("The club met", "The members who"))}

    def marginals(model_self, own):
        labels = model_self.labels
        m = np.zeros((len(own), len(labels)))
        for i in range(len(own)):
            m[i, labels.index("paragraph" if i in kept else "other")] = 1.0
        return m

    monkeypatch.setattr(Model, "marginals_own", marginals)
    for keep_tables in (True, False):
        config = Config.from_dict({"boilerplate": {"method": "crf", "model": str(tiny_model),
                                                   "keep_data_tables": keep_tables}})
        text = run_page(Page(PAGE.encode(), "t.html"), config, "text").output
        assert "the following: Ann, Bob, Cid." in text  # introduced by a kept clause ending with ":"
        assert ("Team: Veterans / Won ; Veterans: 4 / Lost ; Veterans: 11." in text) is keep_tables  # nothing introduces it
        assert "Home" not in text and "Copyright" not in text


def test_the_tables_of_dropped_units_are_classified_as_on_the_whole_page() -> None:
    """The gate classifies only the tables whose units it dropped (``_tables_only``): each
    of them gets the answer ``data_tables`` gives on the whole page."""
    from kitten.boilerplate.keep_rules import tables_only as _tables_only
    from kitten.tables import data_tables
    from kitten.tables.collect import leaf_tables

    layout = '<table><tr><td><a href="/x">Menu</a></td><td><ul><li>One</li><li>Two</li></ul></td></tr></table>'
    doc = document(f"<html><body>{layout}{ARTICLE}{layout}</body></html>")
    config = Config().tables
    whole = data_tables(doc, config)
    tables = [tb.element for tb in leaf_tables(doc)]
    assert len(tables) == 3 and len(whole) == 1
    for chosen in ({tables[0]}, {tables[1]}, {tables[0], tables[2]}, set(tables)):
        part = _tables_only(doc, chosen)
        assert all(b.group is not None for b in part.blocks)
        assert {tb.element for tb in leaf_tables(part)} == chosen
        assert data_tables(part, config) == whole & chosen


def test_no_empty_output_when_later_steps_remove_what_the_gate_kept(tiny_model: Path, monkeypatch) -> None:
    """The gate keeps only a link list, which the lists step removes: the page is read
    without the gate rather than come out empty (logged)."""
    import numpy as np

    from kitten.boilerplate import FALLBACK
    from kitten.boilerplate.crf import Model

    html = ("<html><body><ul><li><a href='/'>Home</a></li><li><a href='/a'>About</a></li></ul>"
            "<p>Opening hours Monday to Friday</p></body></html>")

    def marginals(model_self, own):  # the two items content, the paragraph other
        labels = model_self.labels
        m = np.zeros((len(own), len(labels)))
        m[:, labels.index("list")] = 1.0
        m[-1] = 0.0
        m[-1, labels.index("other")] = 1.0
        return m

    monkeypatch.setattr(Model, "marginals_own", marginals)
    config = Config.from_dict({"boilerplate": {"method": "crf", "model": str(tiny_model)}})
    result = run_page(Page(html.encode(), "t.html"), config, "text")
    assert "Opening hours Monday to Friday" in result.output
    assert [e.message.split(":")[0] for e in result.log if e.kind == FALLBACK] == ["empty-output"]


def test_readers_comments_under_an_article_are_dropped(tiny_model: Path, monkeypatch) -> None:
    """Blocks in containers named for comments go when the kept blocks outside them hold an
    article; ``drop_comments = false`` keeps them; a page of comments alone keeps them."""
    import numpy as np

    from kitten.boilerplate.crf import Model

    def everything(model_self, own):
        m = np.zeros((len(own), len(model_self.labels)))
        m[:, model_self.labels.index("paragraph")] = 1.0
        return m

    monkeypatch.setattr(Model, "marginals_own", everything)
    article = "".join(f"<p>The council met on day {i} and agreed that the new library would open in the spring.</p>"
                      for i in range(5))
    thread = ('<div id="comments"><div class="comment-body"><p>Great news for the town, I will be there on the '
              'first day with my children.</p></div></div>')
    for html, drop, kept in ((article + thread, True, False), (article + thread, False, True), (thread, True, True)):
        config = Config.from_dict({"boilerplate": {"method": "crf", "model": str(tiny_model), "drop_comments": drop}})
        text = run_page(Page(f"<html><body>{html}</body></html>".encode(), "t.html"), config, "text").output
        assert ("Great news for the town" in text) is kept


def test_batch_counts_gate_fallbacks(tiny_model: Path, monkeypatch, tmp_path: Path) -> None:
    import json

    from kitten.boilerplate.crf import Model

    monkeypatch.setattr(Model, "marginals_own", _all_other)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "p.html").write_text(PAGE)
    config = tmp_path / "c.toml"
    config.write_text(f'[boilerplate]\nmodel = "{tiny_model}"\n')
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["extract", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--config", str(config),
                     "--boilerplate", "crf", "--jobs", "1"]) == 0
    assert "boilerplate gate overridden on 1 pages: no-sentence x1" in err.getvalue()
    (line,) = (tmp_path / "out" / "kitten-log.jsonl").read_text().splitlines()
    assert json.loads(line)["gate"] == "fallback"


def test_keep_threshold_trades_noise_for_text(tiny_model: Path) -> None:
    """Threshold 0 keeps every block, 1 keeps only what the fallback adds back; JSON gives
    each unit's label and probability, the dump its features too."""
    import json

    doc = document(PAGE)
    everything = Config.from_dict({"boilerplate": {"method": "crf", "model": str(tiny_model), "keep_threshold": 0}})
    kept, labelled = gate(doc, everything.boilerplate, PageLog())
    assert len(kept.blocks) == len(doc.blocks) and "other" not in {x.label for x in labelled}
    config = Config.from_dict({"boilerplate": {"method": "crf", "model": str(tiny_model)}})
    data = json.loads(run_page(Page(PAGE.encode(), "t.html"), config, "json").output)
    gate_json = data["gate"]
    assert len(gate_json) == len(doc.blocks) and {"label", "probability", "locator", "text"} <= set(gate_json[0])
    home = next(x for x in gate_json if x["text"] == "Home")
    para = next(x for x in gate_json if x["text"].startswith("The club met"))
    assert home["label"] == "other" and home["probability"] < 0.5 <= para["probability"]
    assert "features" not in home and "features" in labelled[0].as_dict(doc.locate, features=True)
    for bad in (-0.1, 1.5, "high", True):
        with pytest.raises(ConfigError):
            Config.from_dict({"boilerplate": {"keep_threshold": bad}})


def test_keep_thresholds_by_kind_of_page(tiny_model: Path) -> None:
    """A page of a kind ``keep_thresholds`` names is gated at that kind's threshold, the
    others at ``keep_threshold``; ``--keep-threshold`` is one threshold for every kind."""
    from kitten.cli import _with_boilerplate

    doc = document(PAGE)
    config = Config.from_dict({"boilerplate": {"method": "crf", "model": str(tiny_model),
                                               "keep_threshold": 1.0, "keep_thresholds": ["listing=0"]}})
    assert config.boilerplate.thresholds_by_kind() == {"listing": 0.0}
    listing, _ = gate(doc, config.boilerplate, PageLog(), page_type="listing")
    article, _ = gate(doc, config.boilerplate, PageLog(), page_type="article")
    assert len(listing.blocks) == len(doc.blocks) > len(article.blocks)
    from kitten.page_type import PageType

    hesitant = dataclasses.replace(doc, page_type=PageType("listing", 0.4, {"listing": 0.4, "article": 0.3}))
    kept, _ = gate(hesitant, config.boilerplate, PageLog(), page_type="listing")
    one = dataclasses.replace(config.boilerplate, keep_thresholds=())
    assert kept.blocks == gate(hesitant, one, PageLog(), page_type="listing")[0].blocks != listing.blocks
    shipped = Config().boilerplate.thresholds_by_kind()
    assert set(shipped) == {"collection", "documentation", "listing", "service"}
    assert _with_boilerplate(Config(), None, 0.6).boilerplate.keep_thresholds == ()
    for bad in (["listing"], ["listing=high"], ["listing=2"], ["=0.3"], [{"listing": 0.3}], [0.3]):
        with pytest.raises(ConfigError):
            Config.from_dict({"boilerplate": {"keep_thresholds": bad}})


def test_threshold_of_a_page_the_crf_is_unsure_of() -> None:
    """On a page whose third likeliest prose block is under ``unsure_below``, the threshold
    is ``unsure_share`` of its probability (not under ``unsure_floor``); a sure page, a page
    read as an article, and ``--keep-threshold`` keep their threshold."""
    from kitten.boilerplate.thresholds import page_threshold
    from kitten.cli import _with_boilerplate

    config = Config().boilerplate
    probs, prose = [0.3, 0.2, 0.25, 0.01, 0.6], [20, 15, 30, 0, 0]  # the 0.6 holds no sentence
    assert page_threshold(config, "product", 0.1, probs, prose) == pytest.approx(0.4 * 0.2)
    assert page_threshold(config, "listing", 0.1, [0.1, 0.05, 0.02], [9, 9, 9]) == 0.05  # the floor
    assert page_threshold(config, "product", 0.1, [0.9, 0.95, 0.85], [9, 9, 9]) == 0.5  # sure
    assert page_threshold(config, "listing", 0.1, [0.9, 0.95, 0.85], [9, 9, 9]) == 0.3  # by kind
    assert page_threshold(config, "listing", 0.3, probs, prose) == 0.5  # read as an article too
    assert page_threshold(config, "product", 0.1, probs, [0, 0, 0, 0, 0]) == 0.5  # no prose
    one = _with_boilerplate(Config(), None, 0.6).boilerplate
    assert page_threshold(one, "product", 0.1, probs, prose) == 0.6
    for bad in (-0.1, 1.5, "high", True):
        with pytest.raises(ConfigError):
            Config.from_dict({"boilerplate": {"unsure_share": bad}})


def test_link_lists_the_gate_keeps_on_documentation_pages_stay(tiny_model: Path, monkeypatch) -> None:
    """On a kind of page of ``link_items_kept_on`` (documentation), the link items of a list
    the gate kept are content (a tutorial index); on the others the lists step removes
    them as ever."""
    import kitten.page_type
    from kitten.page import Page
    from kitten.page_type import PageType
    from kitten.pipeline import run_page

    html = ("<html><body><h1>Messaging quickstart</h1><p>Follow these steps to send your first message "
            "from your new phone number with the SDK.</p><h2>Next steps</h2><ul><li><a href='/a'>Send "
            "MMS</a></li><li><a href='/b'>Receive SMS</a></li><li><a href='/c'>Webhooks</a></li></ul>"
            "</body></html>").encode()
    config = Config.from_dict({"boilerplate": {"method": "crf", "model": str(tiny_model), "keep_threshold": 0.0}})
    for kind, kept in (("documentation", True), ("article", False)):
        monkeypatch.setattr(kitten.page_type, "classify", lambda doc, url, kind=kind: PageType(kind, 0.9, {kind: 0.9}))
        out = run_page(Page(html, "d.html"), config, "text").output
        assert ("Receive SMS" in out) is kept, (kind, out)


def test_marginals_are_crfsuites(tiny_model: Path) -> None:
    """The scorer's forward-backward gives CRFsuite's marginal probabilities."""
    pytest.importorskip("pycrfsuite")
    from kitten.boilerplate.crf import model_path
    from kitten.boilerplate.features import crf_items, own_features
    for path in (tiny_model, model_path()):
        model = load_model(str(path))
        blocks = document(PAGE.replace("<p>", "<p>Home ") + NAV + FOOT).blocks
        mine = model.marginals_own(own_features(blocks, model.settings))
        model.tagger.set(crf_items(blocks, model.settings))
        for i in range(len(blocks)):
            for k, lab in enumerate(model.labels):
                assert abs(mine[i, k] - model.tagger.marginal(lab, i)) < 1e-4


def test_victor_protocol_parameters_are_chosen_on_other_pages() -> None:
    """select_small_params cross validates each candidate on groups of the pages it is
    given, prints each one's accuracies and returns the best (on a tie, the first: here
    every candidate labels the near-identical pages perfectly)."""
    pytest.importorskip("pycrfsuite")
    import io

    from kitten.train import boilerplate as tb

    pages = []
    for i in range(48):
        doc = document(PAGE.replace("annual", f"annual{i}"))
        pages.append(tb.PageData("cleaneval-final", f"{i}.html", block_features(doc.blocks), _labels(doc),
                                 [1] * len(doc.blocks)))
    out = io.StringIO()
    best = tb.select_small_params(pages, out)
    lines = out.getvalue().splitlines()
    # the shipped parameters, then each L2 weight without and with CRFsuite's possible states
    assert [line.split(":")[0].strip() for line in lines] == \
        [f"c1 {tb.PARAMS['c1']} c2 {tb.PARAMS['c2']}"] + [f"c1 0.0 c2 {c2}" for c2 in tb.SMALL_C2] + \
        [f"c1 0.0 c2 {c2}, possible states" for c2 in tb.SMALL_C2]
    assert all("labels 100.0%, content/noise 100.0%" in line for line in lines)
    assert best == tb.PARAMS


def test_two_label_pages_keep_which_blocks_are_noise() -> None:
    """Victor's content/noise figure is also computed from a model trained on two labels:
    every content label becomes one label, ``other`` stays, the features are untouched."""
    from kitten.train import boilerplate as tb

    doc = document(PAGE)
    labels = _labels(doc)
    page = tb.PageData("cleaneval-dev", "0.html", block_features(doc.blocks), labels, [1] * len(labels))
    (two,) = tb.two_labels([page])
    assert set(labels) - {"other"} and set(two.labels) == {"paragraph", "other"}
    assert [lab == "other" for lab in two.labels] == [lab == "other" for lab in labels]
    assert two.features == page.features and page.labels == labels  # the input page unchanged


PRE_PAGE = ("<html><body><pre>Home | Forum | Search | Log in\n\n"
            "The club met on Monday and it was agreed that the accounts would be published.\n"
            "The members thanked the treasurer for the work of the year.</pre>"
            '<p>The meeting ended <img src="a.gif" alt="Advertisement: cheap flights to Paris"/> at nine.</p>'
            "</body></html>")


def _structure(html: str, img_alt: bool = False):
    config = Config.from_dict({"structure": {"img_alt": img_alt}})
    return run_page(Page(html.encode(), "t.html"), config, "json").products["structure"]


def test_unit_rules_cut_pre_lines_and_alt_texts_and_rebuild_kept_blocks() -> None:
    from kitten.boilerplate.units import crf_units, kept_blocks
    from kitten.document import AltText

    doc = _structure(PRE_PAGE, img_alt=True)
    pre, para = doc.blocks
    assert pre.kind == "preformatted" and any(isinstance(x, AltText) for x in para.inlines)
    # no rules: the blocks as they are
    units, owner = crf_units(doc.blocks)
    assert units == doc.blocks and owner == [0, 1]
    units, owner = crf_units(doc.blocks, ("pre-lines", "img-alt"))
    assert [" ".join(u.text().split()) for u in units] == [
        "Home | Forum | Search | Log in",
        "The club met on Monday and it was agreed that the accounts would be published.",
        "The members thanked the treasurer for the work of the year.",
        "The meeting ended", "Advertisement: cheap flights to Paris", "at nine."]
    assert owner == [0, 0, 0, 1, 1, 1] and all(u.source is pre.source for u in units[:3])
    kept = kept_blocks(doc.blocks, units, owner, ["other", "paragraph", "continuation", "paragraph", "other",
                                                  "continuation"])
    assert [b.kind for b in kept] == ["preformatted", "paragraph"]
    assert kept[0].text() == ("The club met on Monday and it was agreed that the accounts would be published.\n"
                              "The members thanked the treasurer for the work of the year.\n")
    assert " ".join(kept[1].text().split()) == "The meeting ended at nine."
    # every unit of a block other: the block goes; the document given is unchanged
    assert kept_blocks(doc.blocks, units, owner, ["other"] * 3 + ["paragraph"] * 3) == [para]
    assert "Home" in pre.text() and "Advertisement" in para.text()
    # alt text only with [structure] img_alt; without it nothing to cut
    assert len(crf_units(_structure(PRE_PAGE).blocks, ("img-alt",))[0]) == 2


def test_br_paragraphs_cut_a_cell_written_with_double_breaks() -> None:
    """The whole article in one table cell, paragraphs separated by <br><br> (CLEANEVAL
    final 313): each paragraph a unit, a single <br> does not cut, nothing is lost when
    every unit is kept."""
    from kitten.boilerplate.units import crf_units, kept_blocks

    html = ("<html><body><table><tr><td>The first paragraph of the article.<br/><br/>"
            "The second paragraph,<br/>which goes on after a break.<br/> <br/><br/>"
            "Home | About | Contact</td></tr></table></body></html>")
    (cell,) = _structure(html).blocks
    units, owner = crf_units([cell], ("br-paragraphs",))
    assert [" ".join(u.text().split()) for u in units] == [
        "The first paragraph of the article.", "The second paragraph, which goes on after a break.",
        "Home | About | Contact"]
    assert kept_blocks([cell], units, owner, ["paragraph"] * 3)[0].inlines == cell.inlines
    kept = kept_blocks([cell], units, owner, ["paragraph", "continuation", "other"])
    assert "Home" not in kept[0].text() and kept[0].text().startswith("The first paragraph")
    # a <pre> is left to pre-lines; one break never cuts
    assert len(crf_units(_structure("<p>a<br/>b</p>").blocks, ("br-paragraphs",))[0]) == 1


def test_unit_rules_are_validated() -> None:
    assert Config.from_dict({"boilerplate": {"units": ["pre-lines"]}}).boilerplate.units == ("pre-lines",)
    with pytest.raises(ConfigError, match="units: unknown pre"):
        Config.from_dict({"boilerplate": {"units": ["pre"]}})


def test_gate_labels_the_units_of_the_model_settings(tmp_path: Path) -> None:
    """A model trained on pre lines (its JSON names the rule) drops the navigation line
    of a <pre> and keeps the rest of it; the same page's units are what training labels."""
    pycrfsuite = pytest.importorskip("pycrfsuite")
    import json

    from kitten.boilerplate.units import crf_units

    settings = FeatureSettings(units=("pre-lines",))
    trainer = pycrfsuite.Trainer(verbose=False)
    for variant in (PRE_PAGE, PRE_PAGE.replace("Monday", "Friday"), PRE_PAGE.replace("nine", "ten")):
        units, _ = crf_units(_structure(variant).blocks, settings.units)
        labels = ["other" if u.text().startswith("Home") else "paragraph" for u in units]
        trainer.append(block_features(units, settings), labels)
    trainer.set_params({"c1": 0.0, "c2": 0.01, "max_iterations": 50})
    model = tmp_path / "pre.crfsuite"
    trainer.train(str(model))
    model.with_suffix(".json").write_text(json.dumps({"features": settings.as_dict()}), encoding="utf-8")
    config = Config.from_dict({"boilerplate": {"method": "crf", "model": str(model)}})
    out = run_page(Page(PRE_PAGE.encode(), "t.html"), config, "text").output
    assert "Home" not in out and "Log in" not in out
    assert "The club met on Monday" in out and "the work of the year" in out and "at nine" in out


def test_accuracy_has_an_interval_over_pages() -> None:
    """The protocol's figures come with a 95% interval from resampling pages: pages all
    labelled alike give a point, pages labelled unlike give a range around the figure
    that the same seed draws the same way every time."""
    from kitten.train import boilerplate as tb

    def page(labels, predicted):
        return tb.PageData("cleaneval-dev", "p.html", [[]] * len(labels), labels, [1] * len(labels)), predicted

    alike = [page(["paragraph", "other"], ["paragraph", "list"]) for _ in range(10)]
    scores = tb.accuracy([p for p, _ in alike], [y for _, y in alike])
    assert scores["labels"] == 0.5 and scores["labels interval"] == (0.5, 0.5)
    assert scores["content/noise"] == 0.5 and scores["content/noise interval"] == (0.5, 0.5)
    mixed = [page(["paragraph"] * 4, ["paragraph"] * 4 if i % 2 else ["other"] * 4) for i in range(20)]
    scores = tb.accuracy([p for p, _ in mixed], [y for _, y in mixed])
    low, high = scores["labels interval"]
    assert low < scores["labels"] == 0.5 < high and 0.2 < low and high < 0.8
    assert tb.accuracy([p for p, _ in mixed], [y for _, y in mixed])["labels interval"] == (low, high)
    assert tb.page_interval([]) == (0.0, 0.0)


def _probabilities(by_start: dict[str, float], default: float = 0.0):
    """A ``Model.marginals_own`` replacement: each unit's content probability from the
    start of its text (``by_start``), else ``default``."""
    import numpy as np

    def marginals(model_self, own):
        raise AssertionError("replaced per document below")

    def for_doc(doc):
        texts = [" ".join(b.text().split()) for b in doc.blocks]

        def marginals(model_self, own):
            labels = model_self.labels
            m = np.zeros((len(own), len(labels)))
            for i, t in enumerate(texts):
                p = next((v for k, v in by_start.items() if t.startswith(k)), default)
                m[i, labels.index("paragraph")], m[i, labels.index("other")] = p, 1.0 - p
            return m
        return marginals
    return for_doc


def _gated(html: str, by_start: dict[str, float], tiny_model: Path, monkeypatch, **options) -> list[str]:
    from kitten.boilerplate.crf import Model

    doc = document(f"<html><body>{html}</body></html>")
    monkeypatch.setattr(Model, "marginals_own", _probabilities(by_start)(doc))
    # (the probabilities are made up: the threshold of unsure pages, a rule of its own, off)
    options = {"unsure_below": 0.0, **options}
    config = Config.from_dict({"boilerplate": {"method": "crf", "model": str(tiny_model), **options}})
    kept, _ = gate(doc, config.boilerplate, PageLog())
    return [" ".join(b.text().split()) for b in kept.blocks]


def test_an_author_box_under_an_article_is_dropped(tiny_model: Path, monkeypatch) -> None:
    """A writer's biography in an author box is not the article's text; an author's own
    page, all biography, keeps it."""
    bio = ("<div class='saboxplugin-wrap'><div class='author-bio'><p>Irene is an experienced writer with "
           "five years of experience in the tech and food niches, and she loves gaming.</p></div></div>")
    probs = {"Drivers": 0.9, "The council": 0.9, "Irene": 0.9}
    assert not any(t.startswith("Irene") for t in _gated(f"<article>{BODY * 3}</article>{bio}", probs, tiny_model,
                                                         monkeypatch))
    assert _gated(bio, probs, tiny_model, monkeypatch)[0].startswith("Irene")


def test_a_cookie_settings_dialog_under_an_article_is_dropped(tiny_model: Path, monkeypatch) -> None:
    """A dialog that speaks of consent (its declaration table too long for the structure
    step's consent rule) is not the article; a dialog of the article's own is kept."""
    rows = "".join(f"<tr><td>Cookie: _ga{i}</td><td>Duration: 1 year</td></tr>" for i in range(3))
    dialog = ("<div role='dialog'><p>Manage cookies: we use cookies to improve your experience on this "
              f"site.</p><table>{rows}</table></div>")
    probs = {"Drivers": 0.9, "The council": 0.9, "Manage": 0.9, "Cookie": 0.9, "Duration": 0.9, "Zoom": 0.9}
    kept = _gated(f"<article>{BODY * 3}</article>{dialog}", probs, tiny_model, monkeypatch)
    assert kept and not any(t.startswith(("Manage", "Cookie")) for t in kept)
    own = "<div role='dialog'><p>Zoom in on the map of the bridge and the ring road around the town.</p></div>"
    assert any(t.startswith("Zoom") for t in _gated(f"<article>{BODY * 3}</article>{own}", probs, tiny_model,
                                                     monkeypatch))


def test_a_footer_under_an_article_is_dropped(tiny_model: Path, monkeypatch) -> None:
    """A site's legal notice in the page's ``<footer>`` (or ``role="contentinfo"``) reads
    as prose but is not the article's; a page whose only prose is in its footer keeps it."""
    notice = ("<footer><p>This material is not intended to replace the advice of a qualified advisor and is "
              "for informational purposes only.</p></footer>")
    info = ("<div role='contentinfo'><p>Investment products are not insured by any federal agency and may "
            "lose value over time.</p></div>")
    probs = {"Drivers": 0.9, "The council": 0.9, "This material": 0.9, "Investment": 0.9}
    kept = _gated(f"<article>{BODY * 3}</article>{notice}{info}", probs, tiny_model, monkeypatch)
    assert kept and not any(t.startswith(("This material", "Investment")) for t in kept)
    assert _gated(notice, probs, tiny_model, monkeypatch)[0].startswith("This material")


def test_a_button_is_dropped_and_a_link_in_a_sentence_kept(tiny_model: Path, monkeypatch) -> None:
    """A kept unit whose text is all one button's (a ``<button>``, a link styled as one, a
    ``role="button"``) is a call to act, not text; a link inside a sentence stays."""
    buttons = ("<p><button type='button'>Subscribe</button></p><div><a class='btn btn-primary' href='/join'>"
               "Sign Up</a></div><div><a role='button' href='/demo'>Book Your Free Demo</a></div>")
    linked = "<p>Drivers can <a class='btn' href='/map'>read the map</a> of the ring road before they set off.</p>"
    probs = {"Drivers": 0.9, "The council": 0.9, "Subscribe": 0.9, "Sign": 0.9, "Book": 0.9}
    kept = _gated(f"<article>{BODY}{buttons}{linked}</article>", probs, tiny_model, monkeypatch)
    assert not any(t.startswith(("Subscribe", "Sign", "Book")) for t in kept)
    assert "Drivers can read the map of the ring road before they set off." in kept


def test_a_section_of_teasers_under_an_article_is_dropped_up_to_the_next_heading(tiny_model: Path,
                                                                                 monkeypatch) -> None:
    """A kept heading that starts with a cue of rules/related.txt ("You may also like",
    "Ähnliche Artikel") opens a section of other pages' teasers: it goes with what the
    gate kept under it, up to the next heading; a section of the article stays."""
    teasers = ("<h2>You may also like</h2><p>Ring roads of the region: a short history of the bypasses "
               "built since the war.</p><h2>Works on the bridge</h2><p>The works start in March and the "
               "crews will work at night to keep the bridge open by day.</p>")
    probs = {"Drivers": 0.9, "The council": 0.9, "You may": 0.9, "Ring": 0.9, "Works": 0.9, "The works": 0.9}
    kept = _gated(f"<article>{BODY * 3}{teasers}</article>", probs, tiny_model, monkeypatch)
    assert not any(t.startswith(("You may", "Ring")) for t in kept)
    assert "Works on the bridge" in kept and any(t.startswith("The works start") for t in kept)
    german = teasers.replace("You may also like", "Ähnliche Artikel")
    assert not any(t.startswith("Ring") for t in _gated(f"<article>{BODY * 3}{german}</article>",
                                                        {**probs, "Ähnliche": 0.9}, tiny_model, monkeypatch))


def test_the_headline_is_kept_above_a_kept_article_unless_the_configuration_leaves_it_out(
        tiny_model: Path, monkeypatch) -> None:
    """On a page read as an article the page's headline (its ``h1``) is kept when the gate
    keeps the article, across the byline and share line the CRF drops; the article preset
    (``keep_title = false``) leaves it out, and a headline over no article is not kept."""
    from kitten.boilerplate.crf import Model
    from kitten.boilerplate.keep_rules import with_headline

    html = (f"<article><h1>Bridge closed for repairs</h1><p>By Ann Lee</p><p>Share this</p>{BODY * 3}</article>")
    probs = {"Drivers": 0.9, "The council": 0.9, "Bridge": 0.01, "By Ann": 0.01, "Share": 0.01}
    doc = document(f"<html><body>{html}</body></html>")
    monkeypatch.setattr(Model, "marginals_own", _probabilities(probs)(doc))

    def kept(keep_title: bool, page_type: str | None = "article") -> list[str]:
        config = Config.from_dict({"boilerplate": {"method": "crf", "model": str(tiny_model), "unsure_below": 0.0,
                                                   "keep_title": keep_title}})
        out, _ = gate(doc, config.boilerplate, PageLog(), page_type=page_type)
        return [" ".join(b.text().split()) for b in out.blocks]

    assert kept(True)[0] == "Bridge closed for repairs" and "Share this" not in kept(True)
    assert "Bridge closed for repairs" not in kept(False)
    assert "Bridge closed for repairs" not in kept(True, page_type="product")
    # over a few words of prose (no article), the headline stays out
    own = [["title.at"], ["kind.paragraph"], ["kind.paragraph"]]
    assert with_headline(["other", "paragraph", "other"], own, [0, 30, 0]) == ["other", "paragraph", "other"]
    assert with_headline(["other", "paragraph", "paragraph"], own, [0, 30, 30])[0] == "header"


LEAD = "<p>The mayor said on Monday that the bridge over the river would be closed for repairs until June.</p>"
BODY = ("<p>Drivers will have to use the ring road, which adds about twenty minutes to the trip into town.</p>"
        "<p>The council expects the repairs to cost less than the new bridge it had planned to build.</p>")


def test_sentences_of_a_parent_holding_kept_text_are_kept(tiny_model: Path, monkeypatch) -> None:
    """A paragraph the CRF doubts, separated from the kept body by a "Related:" line and
    an ad label, is kept when its parent holds kept sentences; the short lines are not."""
    html = (f'<div class="story">{LEAD}<p><a href="/r">Related: Bridge repairs start soon</a></p>'
            f'<p>Advertisement</p>{BODY}</div>')
    kept = _gated(html, {"Drivers": 0.9, "The council": 0.9, "The mayor": 0.2}, tiny_model, monkeypatch)
    assert kept[0].startswith("The mayor said") and not any(t.startswith(("Related", "Advert")) for t in kept)


def test_a_byline_paragraph_of_the_article_is_kept_when_the_crf_gives_it_some_chance(
        tiny_model: Path, monkeypatch) -> None:
    """A ``<p>`` without a sentence in the article's parent (the byline "Un texte de
    ...") is kept at a content probability of ``PARAGRAPH_FLOOR``; an ad label the CRF
    rules out is not, nor a short line written as a ``div``."""
    from kitten.boilerplate.keep_rules import PARAGRAPH_FLOOR

    html = (f'<div class="story"><p>Un texte de Marie Roy</p><div>Photo: Paul Dion</div>{LEAD}'
            f'<p>Advertisement</p>{BODY}</div>')
    probs = {"Drivers": 0.9, "The council": 0.9, "The mayor": 0.9, "Un texte": PARAGRAPH_FLOOR,
             "Photo": 0.4, "Advert": PARAGRAPH_FLOOR / 2}
    kept = _gated(html, probs, tiny_model, monkeypatch)
    assert kept[0] == "Un texte de Marie Roy" and kept[1].startswith("The mayor said")
    assert not any(t.startswith(("Photo", "Advert")) for t in kept)


def test_teaser_lines_inside_the_article_are_dropped(tiny_model: Path, monkeypatch) -> None:
    """A kept "RELATED: <linked headline>" line (or "Lire aussi ...") is dropped; a
    sentence that starts with a cue but is not a link stays, and so does a link line
    without a cue."""
    html = (f'<div class="story">{LEAD}<p>RELATED: <a href="/a">Bridge closures in the region cost '
            f'drivers an hour a day, a study finds</a></p><p>» Lire aussi <a href="/b">Le pont ferme '
            f'pour six mois</a></p><p>Related to the closure, the council said that buses would run '
            f'every ten minutes during the works.</p><p><a href="/c">The full report of the council on '
            f'the state of the bridge.</a></p>{BODY}</div>')
    kept = _gated(html, {"": 0.9}, tiny_model, monkeypatch)
    assert not any(t.startswith(("RELATED", "» Lire")) for t in kept)
    assert any(t.startswith("Related to the closure") for t in kept)
    assert any(t.startswith("The full report") for t in kept)


def test_a_linked_headline_between_paragraphs_of_the_article_is_dropped(tiny_model: Path, monkeypatch) -> None:
    """A kept paragraph that is all link, between two kept paragraphs of prose, is a teaser
    of another article: dropped. A linked sentence (full stop), a linked name and a run of
    link lines (a list of deals, not between prose) stay."""
    teaser = '<p><a href="/a">Bridge closures in the region cost drivers an hour a day</a></p>'
    sentence = '<p><a href="/b">Read the council report on the state of the bridge.</a></p>'
    name = '<p><a href="/c">Ann Lee</a></p>'
    middle = "<p>The works will start in March and the bridge will reopen to cyclists first.</p>"
    html = f'<div class="story">{LEAD}{teaser}{middle}{sentence}{middle}{name}{BODY}</div>'
    kept = _gated(html, {"": 0.9}, tiny_model, monkeypatch)
    assert not any(t.startswith("Bridge closures") for t in kept)
    assert any(t.startswith("Read the council report") for t in kept) and "Ann Lee" in kept
    deals = "".join(f'<p><a href="/d{i}">Deal number {i} of the day for your kitchen</a></p>' for i in range(3))
    kept = _gated(f'<div class="story">{LEAD}{deals}{BODY}</div>', {"": 0.9}, tiny_model, monkeypatch)
    assert sum(t.startswith("Deal number") for t in kept) == 3


def test_a_dateline_is_dropped_a_byline_and_a_sentence_with_a_time_are_not(tiny_model: Path, monkeypatch) -> None:
    """A kept line with a time of day and a year is a dateline: dropped, in any language;
    one with an author's word ("By", "Par") stays, and so does a sentence."""
    lines_ = ("<p>Dec. 20, 2016, 12:44 PM UTC / Updated Dec. 20, 2016, 1:00 PM UTC</p>"
              "<div>15.05.2020, 07:11 | Lesedauer: 8 Minuten</div>"
              "<p>By Ann Lee on November 8, 2012, 12:43 PM</p><p>Par Marie Roy, le 3 mai 2019 à 14h30 UTC</p>"
              "<p>The bridge closed at 10:30 on 3 May 2019.</p>")
    kept = _gated(f'<div class="story">{LEAD}{lines_}{BODY}</div>', {"": 0.9}, tiny_model, monkeypatch)
    assert not any(t.startswith(("Dec. 20", "15.05.2020")) for t in kept)
    assert any(t.startswith("By Ann Lee") for t in kept) and any(t.startswith("Par Marie") for t in kept)
    assert "The bridge closed at 10:30 on 3 May 2019." in kept


def test_a_lead_in_a_box_of_its_own_is_kept_across_an_ad_label(tiny_model: Path, monkeypatch) -> None:
    html = f'<div class="lead">{LEAD}</div><div class="ad">Advertisement</div><div class="body">{BODY}</div>'
    probs = {"Drivers": 0.9, "The council": 0.9, "The mayor": 0.3}
    assert _gated(html, probs, tiny_model, monkeypatch)[0].startswith("The mayor said")
    # two long blocks between (a teaser box): no longer the lead of that body
    teaser = ("<div class='more'><p>More news from the region and the rest of the country every day</p>"
              "<p>Sign up for our morning briefing and never miss a story from your town</p></div>")
    html = f'<div class="lead">{LEAD}</div>{teaser}<div class="body">{BODY}</div>'
    assert not _gated(html, probs, tiny_model, monkeypatch)[0].startswith("The mayor said")


def test_the_lead_images_caption_is_kept_a_far_one_is_not(tiny_model: Path, monkeypatch) -> None:
    figure = '<figure><img src="a.jpg" alt=""/><figcaption>Photo by Ann Lee/Getty Images</figcaption></figure>'
    html = f'<h1>Bridge to close for repairs</h1><div class="share"><a href="/s">Share</a></div>{figure}{BODY}'
    probs = {"Bridge to close": 0.9, "Drivers": 0.9, "The council": 0.9}
    assert "Photo by Ann Lee/Getty Images" in _gated(html, probs, tiny_model, monkeypatch)
    # a figure of a teaser far from the article's kept text
    far = "".join(f'<div class="teaser"><a href="/{i}">Teaser {i}</a></div>' for i in range(12))
    html = f"{BODY}{far}{figure}<p>Closing words of the page that the reader should see.</p>"
    assert "Photo by Ann Lee/Getty Images" not in _gated(
        html, {"Drivers": 0.9, "The council": 0.9, "Closing words": 0.9}, tiny_model, monkeypatch)


def test_the_introduction_of_a_kept_list_is_kept(tiny_model: Path, monkeypatch) -> None:
    """A clause ending with a colon, or a heading, right before a kept list is kept with
    it (the lists step reads the list with its introduction); not when the CRF rules it
    out, not a teaser heading, and not before a list that is dropped."""
    items = "".join(f"<li>Party {c} won {n} seats</li>" for c, n in (("A", 12), ("B", 9)))
    html = (f'{LEAD}<div><p>The standings were as follows:</p><ul>{items}</ul></div>'
            f'<div><h2>Related stories</h2><ul><li>Other news of the day</li></ul></div>'
            f'<div><h2>Results by town</h2><ul><li>Town C: party A</li></ul></div>{BODY}')
    probs = {"The mayor": 0.9, "Drivers": 0.9, "The council": 0.9, "Party": 0.9, "Other news": 0.9,
             "Town C": 0.9, "The standings": 0.3, "Related": 0.3, "Results by": 0.3}
    kept = _gated(html, probs, tiny_model, monkeypatch)
    assert "The standings were as follows:" in kept and "Results by town" in kept
    assert "Related stories" not in kept and "Other news of the day" in kept
    assert "The standings were as follows:" not in _gated(
        html, {**probs, "The standings": 0.1}, tiny_model, monkeypatch)
    assert "The standings were as follows:" not in _gated(
        html, {**probs, "Party": 0.0}, tiny_model, monkeypatch)


def test_headline_and_captions_can_be_left_out(tiny_model: Path, monkeypatch) -> None:
    """By default the headline and a figure's caption and credit the CRF keeps stay;
    ``keep_title = false`` drops the headline (the block the page's title names),
    ``keep_captions = false`` the figure's text (the lead-image rule does not bring it
    back); a table's caption stays, and so does the article."""
    figure = ('<figure><img src="a.jpg" alt=""/><figcaption>The old bridge at dawn</figcaption>'
              '<span class="credit">Photo: Ann Lee</span></figure>')
    table = ("<table><caption>Traffic on the bridge</caption><tr><th>Year</th><th>Cars</th></tr>"
             "<tr><td>2018</td><td>12,000</td></tr><tr><td>2019</td><td>13,500</td></tr></table>")
    html = f"<h1>Bridge to close for repairs</h1>{LEAD}{figure}{BODY}{table}"  # no <title>: the h1
    probs = {"": 0.9}
    everything = _gated(html, probs, tiny_model, monkeypatch)
    assert {"Bridge to close for repairs", "The old bridge at dawn", "Photo: Ann Lee", "Traffic on the bridge"} \
        <= set(everything)
    bare = _gated(html, probs, tiny_model, monkeypatch, keep_title=False, keep_captions=False)
    assert not {"Bridge to close for repairs", "The old bridge at dawn", "Photo: Ann Lee"} & set(bare)
    assert "Traffic on the bridge" in bare and bare[0].startswith("The mayor said")
    assert [t for t in everything if t not in bare] == [
        "Bridge to close for repairs", "The old bridge at dawn", "Photo: Ann Lee"]
    # the lead-image rule keeps a caption the CRF doubts, unless captions are left out
    doubted = {"": 0.9, "The old bridge": 0.1, "Photo": 0.1}
    assert "The old bridge at dawn" in _gated(html, doubted, tiny_model, monkeypatch)
    assert "The old bridge at dawn" not in _gated(html, doubted, tiny_model, monkeypatch, keep_captions=False)
    with pytest.raises(ConfigError, match="keep_title must be true or false"):
        Config.from_dict({"boilerplate": {"keep_title": "no"}})


def test_a_share_bar_between_kept_blocks_is_not_kept_a_likely_list_is(tiny_model: Path, monkeypatch) -> None:
    share = '<ul class="share"><li><a href="/f">Facebook</a></li><li><a href="/t">Twitter</a></li></ul>'
    html = f"<p>By Ann Lee, 3 May 2019</p>{share}{BODY}"
    probs = {"By Ann Lee": 0.8, "Drivers": 0.9, "The council": 0.9}
    kept = _gated(html, probs, tiny_model, monkeypatch)
    assert "Facebook" not in kept and "Twitter" not in kept
    kept = _gated(html, {**probs, "Twitter": 0.1}, tiny_model, monkeypatch)
    assert "Facebook" in kept and "Twitter" in kept


def test_the_fallback_region_leaves_out_footers_and_buttons(tiny_model: Path, monkeypatch) -> None:
    """Every block other: the fallback keeps the article's region, not a longer footer,
    and of that region the sentences and the blocks the CRF does not rule out."""
    footer = ("<footer><p>" + "This site is published by Example Media Group and its partners in many countries. " * 6
              + "</p></footer>")
    html = f'<div class="story"><h1>Bridge to close</h1>{LEAD}<p>Print</p>{BODY}</div>{footer}'
    kept = _gated(html, {"Bridge to close": 0.1}, tiny_model, monkeypatch)
    assert kept[0] == "Bridge to close" and kept[1].startswith("The mayor said")
    assert "Print" not in kept and not any(t.startswith("This site is published") for t in kept)


def test_the_fallback_region_of_the_features_is_the_one_read_alone() -> None:
    """The gate's fallback region comes from the contexts and facts the features read
    (``own_features_and_words``): the same as ``prose_region`` reading the page alone."""
    from kitten.boilerplate.features import FeatureSettings, own_features_and_words, prose_region

    comments = ('<div class="comments"><p>' + "I read this and I think the mayor is right about the bridge. " * 4
                + '</p></div>')
    doc = document(f"<html><body>{NAV}{ARTICLE}{comments}{FOOT}</body></html>")
    for families in (FeatureSettings().families, ("markup", "content")):
        _, _, region = own_features_and_words(doc.blocks, FeatureSettings(families=families))
        alone = prose_region(doc.blocks)
        assert alone is not None and any(alone) and not all(alone)
        assert region() == alone


def test_thai_sentences_without_an_end_mark_are_prose(tiny_model: Path, monkeypatch) -> None:
    """Thai writes no full stop: a long block of Thai holds a sentence (the parent rule
    keeps it beside a kept one)."""
    thai = "ผู้สื่อข่าวรายงานว่าสะพานข้ามแม่น้ำจะปิดซ่อมแซมจนถึงเดือนมิถุนายนตามที่นายกเทศมนตรีแถลงเมื่อวันจันทร์"
    html = f'<div class="story"><p>{thai}</p><p>{thai} ที่ผ่านมา</p></div>'
    kept = _gated(html, {thai + " ที่": 0.9}, tiny_model, monkeypatch)
    assert len(kept) == 2


def test_japanese_blocks_count_function_characters_as_stop_words() -> None:
    from kitten.boilerplate.features import own_features

    doc = document("<html><body><p>ニュース</p><p>スポーツ</p><p>東京都は月曜日に、川にかかる橋を六月まで修理のため閉鎖すると発表しました。</p>"
                   "</body></html>")
    feats = own_features(doc.blocks)
    stop = [next(f for f in fs if f.startswith("tok.stopword")) for fs in feats]
    assert stop[0] == stop[1] == "tok.stopword=0.0"  # katakana nouns: no function character
    assert stop[2] not in ("tok.stopword=0.0", "tok.stopword=na")


def test_character_counts_split_at_ascii_are_the_counts_of_the_whole_text() -> None:
    from kitten.boilerplate.features import _ASCII_ALPHA, _ASCII_DIGIT, _ASCII_UPPER, _count, _split_ascii

    texts = ["Ünïcödé Straße 12", "Ǆemal ǅ ǆ İstanbul ², ١٢٣ Ⅻ", "中文，日本語のテキスト 2024年", "plain ASCII 42", "",
             "Ελληνικά ΚΕΦΑΛΑΙΑ 𝟘𝟙 — «quotes»", "हिन्दी १२३ Русский ТЕКСТ"]
    for text in texts:
        data, rest = _split_ascii(text)
        assert _count(data, _ASCII_ALPHA) + sum(map(str.isalpha, rest)) == sum(map(str.isalpha, text))
        assert _count(data, _ASCII_DIGIT) + sum(map(str.isdigit, rest)) == sum(map(str.isdigit, text))
        assert _count(data, _ASCII_UPPER) + sum(map(str.isupper, rest)) == sum(map(str.isupper, text))
        assert _count(data, _ASCII_ALPHA) + _count(data, _ASCII_DIGIT) + sum(map(str.isalnum, rest)) \
            == sum(map(str.isalnum, text))


def test_text_facts_in_c_are_those_of_python(monkeypatch) -> None:
    """``_facts.text_facts`` and ``_facts.block_facts`` (C) give what the Python fallbacks
    of ``text_facts`` and ``block_facts`` give, on made-up texts and on the blocks of 20
    Dragnet and 20 modern pages."""
    import random

    from kitten.boilerplate import features

    if features._facts is None:
        pytest.skip("kitten.boilerplate._facts is not built")
    rnd = random.Random(0)
    alphabet = "aAzZ09 .,;:!?\"'()[]«»“”‘’ǅǄǆİıΣσςß²½Ⅻ١𝟘中の。！？｡ไ\u00a0\u2003\u3000\t\n\r\x1c\x85ÉéÿĀ-_/@"
    texts = ["Ünïcödé Straße 12", "Ǆemal ǅ ǆ İstanbul ², ١٢٣ Ⅻ", "中文，日本語のテキスト 2024年", "plain ASCII 42", "",
             "  \n\t ", "Ελληνικά ΚΕΦΑΛΑΙΑ 𝟘𝟙 — «quotes»", "“Hello,” she said. (OK) ''", "ǅA Aǅ ÀB 1½ ⅷ ΣΑΣ ﬁ İİ"]
    texts += ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 30))) for _ in range(3000)]
    texts += ["ÿ\u00a0x", "é\u2003é", " a  b ", "a b", "a\tb", "\u3000中\u3000", "Ā é"]
    ascii_only = "aAzZ09 .,;:!?\"'()[]-_/@#~\x7f\t\n\r\x0b\x0c\x1c\x1f"  # the ASCII paths of the C code
    texts += ["".join(rnd.choice(ascii_only) for _ in range(rnd.randint(0, 40))) for _ in range(3000)]
    for corpus in ("dragnet", "modern"):
        for path in corpus_pages(corpus, 20):
            texts += [b.text() for b in run_page(Page(path.read_bytes(), path.name), Config(), "json")
                      .products["structure"].blocks]
    in_c = [features.text_facts(t) for t in texts]
    sources = [object() for _ in texts]  # link letters: some over, some under the letters
    links = {el: k % 7 for k, el in enumerate(sources) if k % 3}
    facts_in_c = features.block_facts(texts, sources, links)
    assert all(type(f) is features._Facts for f in facts_in_c)
    monkeypatch.setattr(features, "_facts", None)
    assert [features.text_facts(t) for t in texts] == in_c
    assert features.block_facts(texts, sources, links) == facts_in_c


def test_dates_and_times_in_c_are_those_of_the_expressions() -> None:
    """``_facts.ascii_dates`` (C) answers what ``_DATE`` and ``_TIME`` answer, on ASCII
    texts made of date-like pieces (digit runs around separators, month names in every
    case, white space of every kind, word characters that break a boundary) and on the
    blocks of 20 Dragnet and 20 CLEANEVAL pages."""
    import random

    from kitten.boilerplate import features

    if features._facts is None:
        pytest.skip("kitten.boilerplate._facts is not built")
    rnd = random.Random(0)
    chars = "0123456789 ./-:aAjJnNfFeEbBmMrRpPyYuUlLgGsSoOcCtTvVdDxX_,\t\x0b\x1c\x1f"
    pieces = ["jan", "Feb", "MAR", "april", "may.", "Sept", "dec", "12", "1", "2024", "12345", "3.4.5", "10:30",
              "1:5", "123:45", "x12", "12x", "_9", "-", "/", ".", " ", "  ", "\t", "\x1c"]
    texts = ["".join(rnd.choice(chars) for _ in range(rnd.randint(0, 25))) for _ in range(20000)]
    texts += ["".join(rnd.choice(pieces) + rnd.choice(["", " ", ".", "/"]) for _ in range(rnd.randint(0, 8)))
              for _ in range(20000)]
    for corpus in ("dragnet", "cleaneval-final"):
        for path in corpus_pages(corpus, 20):
            texts += [b.text() for b in run_page(Page(path.read_bytes(), path.name), Config(), "json")
                      .products["structure"].blocks if b.text().isascii()]
    found = [0, 0]
    for text in texts:
        expected = (bool(features._DATE.search(text)), bool(features._TIME.search(text)))
        assert features._facts.ascii_dates(text) == expected, text
        found = [found[0] + expected[0], found[1] + expected[1]]
    assert min(found) > 100  # both matched often, not only refused


def test_content_family_in_c_is_that_of_python() -> None:
    """``_facts.content`` (C) adds the features ``_content_counts`` (Python) adds, on blocks
    of every kind of text (empty, white space, unspaced scripts, upper case, digits)."""
    import random

    from kitten.boilerplate import features

    if features._facts is None:
        pytest.skip("kitten.boilerplate._facts is not built")
    rnd = random.Random(0)
    alphabet = "aAzZ09 .,;:!?\"'()«»“”ǅİΣß²½中の。：\u3000\t\nÉ-@"
    words = ["the", "of", "The", "and", "OF", "x"]
    texts = ["", " ", "Hello.", "end:", "end：", "12 apples", "中文。", "the of and"]
    texts += [" ".join(rnd.choice(words) if rnd.random() < 0.3 else
                       "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 8)))
                       for _ in range(rnd.randint(0, 12))) for _ in range(2000)]
    facts = features.block_facts(texts, [None] * len(texts), {})
    settings = features.FeatureSettings()
    R, C, Q = settings.ratio_thresholds, settings.count_thresholds, settings.quotient_thresholds
    names = features._feature_names(R, C, Q)
    stop = frozenset(["the", "of", "and"])
    in_c: list[list[str]] = [[] for _ in facts]
    features._facts.content(in_c, facts, features._stop_table(stop), features._STRIP,
                            tuple(names[p] for p in features.CONTENT_NAMES),
                            features._below(R), features._below(C), features._END_STOP_CHARS)
    in_python: list[list[str]] = [[] for _ in facts]
    features._content_counts(in_python, facts, stop, names, R, C)
    assert in_c == in_python


def test_stop_words_in_c_are_those_of_python(monkeypatch) -> None:
    """The stop words counted in C on the blocks' ``lower`` texts (``_facts.stop_groups``
    for the choice of the page's list, ``_facts.content`` for each block's count) are
    those the Python fallback counts on :func:`stripped_tokens`: the same groups in the
    same order, the same list chosen for every declared language, the same features, on
    made-up pages (stop words of several languages and scripts with the punctuation of
    ``_STRIP`` at their ends, tokens of punctuation only, odd white space, pages cut at
    the sample limit inside a block) and on the blocks of 20 Dragnet and 20 modern pages."""
    import random
    from collections import Counter

    from kitten.boilerplate import features
    from kitten.language import page_stop_words, stop_word_index
    from kitten.resources import word_list

    if features._facts is None:
        pytest.skip("kitten.boilerplate._facts is not built")
    rnd = random.Random(0)
    group_of, _ = stop_word_index()
    vocabulary = sorted(word_list("", "en", "stopwords.txt"))[:60]
    for code in ("de", "fr", "ru", "el", "ar", "hi", "tr", "pl", "nl", "it", "es", "sv"):
        vocabulary += rnd.sample(sorted(word_list("", code, "stopwords.txt")), 25)
    vocabulary += ["The", "ŞI", "İ", "Straße", "中文", "x", "𝟘", "ǅ", "ﬁ", "caf\u00e9", "cafe\u0301"]
    strip = features._STRIP
    spaces = [" ", " ", " ", "  ", "\t", "\n", "\u00a0", "\u3000", "\x1c", "\u2003"]

    def token() -> str:
        word = rnd.choice(vocabulary) if rnd.random() < 0.7 else "".join(
            rnd.choice("aéZ9ß中ΣIİ-_/") for _ in range(rnd.randint(1, 6)))
        if rnd.random() < 0.1:
            return "".join(rnd.choice(strip) for _ in range(rnd.randint(1, 3)))  # empty once stripped
        left = "".join(rnd.choice(strip) for _ in range(rnd.randint(0, 2)) if rnd.random() < 0.3)
        right = "".join(rnd.choice(strip) for _ in range(rnd.randint(0, 2)) if rnd.random() < 0.3)
        return left + word + right

    pages = [[rnd.choice(spaces).join(token() for _ in range(rnd.randint(0, 30))) + rnd.choice(["", " "])
              for _ in range(rnd.randint(0, 25))] for _ in range(400)]
    pages += [["", " ", "...", "« »"], ["the of and"] * 1200, ["der die und", "the of", "le la les"] * 300]
    for corpus in ("dragnet", "modern"):
        for path in corpus_pages(corpus, 20):
            pages.append([b.text() for b in run_page(Page(path.read_bytes(), path.name), Config(), "json")
                          .products["structure"].blocks])
    settings = features.FeatureSettings()
    R, C, Q = settings.ratio_thresholds, settings.count_thresholds, settings.quotient_thresholds
    names = features._feature_names(R, C, Q)
    content_names = tuple(names[p] for p in features.CONTENT_NAMES)
    index = features._index_table("")
    in_c = []
    for texts in pages:
        facts = features.block_facts(texts, [None] * len(texts), {})
        tokens = [t for f in facts for t in features.stripped_tokens(f.lower)]
        for limit in (0, 1, 7, 50, 3000, 10 ** 6):
            groups = Counter(map(group_of.get, tokens[:limit]))
            groups.pop(None, None)
            counted = features._facts.stop_groups(facts, index, strip, limit)
            assert (list(counted[0].items()), counted[1]) == (list(groups.items()), min(limit, len(tokens)))
        chosen = [features._page_stop_words(facts, lang, "") for lang in ("en", "de", "fr", "ru", "zz")]
        lists = {c[1] for c in chosen if c} | {word_list("", "en", "stopwords.txt"), frozenset(vocabulary)}
        for stop in sorted(lists, key=len):
            own: list[list[str]] = [[] for _ in facts]
            features._facts.content(own, facts, features._stop_table(stop), strip, content_names,
                                    features._below(R), features._below(C), features._END_STOP_CHARS)
            python: list[list[str]] = [[] for _ in facts]
            features._content_counts(python, facts, stop, names, R, C)
            assert own == python
        in_c.append((texts, chosen))
    assert sum(1 for _, chosen in in_c if chosen[0] and chosen[0][0] != "en") > 20  # other lists chosen too
    monkeypatch.setattr(features, "_facts", None)
    for texts, chosen in in_c:
        facts = features.block_facts(texts, [None] * len(texts), {})
        assert [features._page_stop_words(facts, lang, "") for lang in ("en", "de", "fr", "ru", "zz")] == chosen
        tokens = features._first_tokens(facts, features.CHOICE_TOKENS)
        assert page_stop_words(tokens, "de") == chosen[1]


def test_shallow_family_and_word_hits_in_c_are_those_of_python(monkeypatch) -> None:
    """``_facts.shallow`` (C) adds the features ``_python_shallow`` adds, and
    ``_facts.word_hits`` (C) counts the words ``_WORD`` finds and those in a set as the
    Python fallback of ``_word_hits`` does, on made-up texts (empty, without words, link
    letters over and under the letters, unspaced scripts, underscores, digits of other
    scripts) and on the blocks of 20 Dragnet and 20 modern pages."""
    import random

    from kitten.boilerplate import features

    if features._facts is None:
        pytest.skip("kitten.boilerplate._facts is not built")
    rnd = random.Random(0)
    alphabet = "aAzZ09 _.,;:!?\"'()«»ǅİΣß²½١𝟘中の。\u3000\t\nÉé-@"
    texts = ["", " ", "...", "a", "a b", "the_end of 2024", "中文。日本語", "x" * 200, "ǅemal ² ١٢٣"]
    texts += ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 60))) for _ in range(3000)]
    for corpus in ("dragnet", "modern"):
        for path in corpus_pages(corpus, 20):
            texts += [b.text() for b in run_page(Page(path.read_bytes(), path.name), Config(), "json")
                      .products["structure"].blocks]
    sources = [object() for _ in texts]
    facts = features.block_facts(texts, sources, {el: k % 9 for k, el in enumerate(sources) if k % 4})
    settings = features.FeatureSettings()
    R, C, Q = settings.ratio_thresholds, settings.count_thresholds, settings.quotient_thresholds
    names = features._feature_names(R, C, Q)
    for some in (facts, facts[:1], facts[:2], []):
        in_c: list[list[str]] = [["x"] for _ in some]
        features._shallow(in_c, some, names, R, C, Q)
        in_python: list[list[str]] = [["x"] for _ in some]
        features._python_shallow(in_python, some, names, R, C, Q)
        assert in_c == in_python
    lowers = [f.lower for f in facts]
    sets = [set(), {"the", "of", "a", "2024", "the_end", "中文", "é"}, frozenset(w for t in lowers[::7]
                                                                               for w in t.split())]
    in_c = [features._word_hits(lowers, words) for words in sets]
    monkeypatch.setattr(features, "_facts", None)
    assert in_c == [features._word_hits(lowers, words) for words in sets]
    assert sum(hits for _, hits in in_c[2]) > 1000


def test_feature_sums_in_c_are_numpys_to_the_last_bit(monkeypatch) -> None:
    """``_facts.feature_sums`` (C) gives the sums numpy's ``add.reduceat`` gives
    (``Scorer.sums``), bit for bit: lists of every length (pairwise summation's three
    cases), unknown and repeated features, empty lists."""
    import random

    import numpy as np

    from kitten.boilerplate import crf
    from kitten.boilerplate.crf import model_path

    pytest.importorskip("pycrfsuite")
    if crf._facts is None:
        pytest.skip("kitten.boilerplate._facts is not built")
    scorer = load_model(str(model_path())).get_scorer()
    rnd = random.Random(0)
    known = sorted(scorer.index)
    own = [[rnd.choice(known) if rnd.random() < 0.9 else f"unknown.{rnd.randint(0, 9)}" for _ in range(n)]
           for n in [0, 1, 7, 8, 9, 16, 17, 128, 129, 300, 1000] + [rnd.randint(0, 400) for _ in range(200)]]
    in_c = scorer.sums(own)
    monkeypatch.setattr(crf, "_facts", None)
    assert np.array_equal(scorer.sums(own), in_c)


def test_forward_backward_in_c_is_the_scans(monkeypatch) -> None:
    """``_facts.forward_backward`` (C, block after block) gives the marginals of
    ``_scan_marginals`` (numpy prefix scans) to 1e-12, and the same content
    probabilities to 4 decimals and likeliest labels, on a made-up page and 20 Dragnet
    pages (long pages: many rescaled steps)."""
    import numpy as np

    from kitten.boilerplate import crf
    from kitten.boilerplate.crf import model_path
    from kitten.boilerplate.features import own_features

    pytest.importorskip("pycrfsuite")
    if crf._facts is None:
        pytest.skip("kitten.boilerplate._facts is not built")
    model = load_model(str(model_path()))
    scorer = model.get_scorer()
    pages = [PAGE, f"<html><body>{NAV}</body></html>"]
    pages += [p.read_text(encoding="utf-8") for p in corpus_pages("dragnet", 20)]
    owns = [own_features(document(html).blocks, model.settings) for html in pages]
    in_c = [scorer.marginals(own) for own in owns]
    monkeypatch.setattr(crf, "_facts", None)
    for own, c in zip(owns, in_c):
        scans = scorer.marginals(own)
        assert c.shape == scans.shape and np.abs(c - scans).max() < 1e-12
        assert np.array_equal(np.round(c, 4), np.round(scans, 4))
        assert np.array_equal(c.argmax(axis=1), scans.argmax(axis=1))
    assert sum(len(own) for own in owns) > 1000 or not (CORPORA / "dragnet").is_dir()


def test_contexts_in_c_are_those_of_python() -> None:
    """``kitten._structure.block_contexts`` (C, on lxml's tree) gives each block's context as
    ``_python_contexts`` does: the same chains, names, container features and nearest
    ``div`` and ``td``, on nested containers with vocabulary words, ARIA roles, renamed
    HTML5 elements, tables and a comment, and on the blocks of 20 Dragnet and 20 modern
    pages (each element's ancestors too); the proxies' cached tags read or not."""
    from kitten.boilerplate import features

    contexts = features._c_contexts()
    if contexts is None:
        pytest.skip("kitten._structure is not built")
    nested = ('<article class="post-content main"><section id="articleBody"><div class="content sidebar">'
              '<p>Deep text here.</p><nav role="navigation"><ul><li>a</li><li>b</li></ul></nav>'
              '<div class="content"><p>Again content.</p></div></div></section>'
              '<figure><figcaption id="c-12 comment-34">A caption</figcaption></figure></article>')
    docs = [document(html)
            for html in (PAGE, f"<html><body>{nested}{ARTICLE}{NAV}<!-- c -->{nested}{FOOT}</body></html>")]
    for corpus in ("dragnet", "modern"):
        for path in corpus_pages(corpus, 20):
            docs.append(run_page(Page(path.read_bytes(), path.name), Config(), "json").products["structure"])
    for doc in docs:
        body = doc.blocks[0].source.getroottree().getroot().find(features._NS + "body")
        sources = [b.source for b in doc.blocks] + [None, doc.blocks[0].source, body, *body.iter()]
        for tags_read in (False, True):
            if tags_read:
                [el.tag for el in body.iter()]
            in_c, in_python = contexts(sources, body), features._python_contexts(sources, body)
            assert in_c == in_python
            assert all(x is y for c, p in zip(in_c, in_python) for x, y in zip(c[0], p[0]))
        assert any(len(c[0]) > 3 and c[5] is not None for c in in_c)


def test_split_family_in_c_is_that_of_python() -> None:
    """``_facts.splits`` (C) adds the features ``_python_splits`` adds: the elements closed
    and opened between blocks (siblings, cousins, blocks without a source, the same
    element twice) and the line breaks, on made-up pages and 20 Dragnet and 20 modern
    pages."""
    from kitten.boilerplate import features

    if features._facts is None:
        pytest.skip("kitten.boilerplate._facts is not built")
    breaks = "<div><p>one<br/>two<br/><br/>three</p><p>x</p></div><table><tr><td>a<br/>b</td><td>c</td></tr></table>"
    docs = [document(html) for html in (PAGE, f"<html><body>{breaks}{ARTICLE}{NAV}{breaks}{FOOT}</body></html>")]
    for corpus in ("dragnet", "modern"):
        for path in corpus_pages(corpus, 20):
            docs.append(run_page(Page(path.read_bytes(), path.name), Config(), "json").products["structure"])
    settings = features.FeatureSettings()
    names = features._feature_names(settings.ratio_thresholds, settings.count_thresholds,
                                    settings.quotient_thresholds)
    C = settings.count_thresholds
    n_breaks = 0
    for doc in docs:
        blocks = doc.blocks + doc.blocks[:1] + doc.blocks[-1:]
        body = blocks[0].source.getroottree().getroot().find(features._NS + "body")
        contexts = features.block_contexts(blocks, body)
        contexts[len(contexts) // 2] = features._NO_CONTEXT
        in_c: list[list[str]] = [["x"] for _ in blocks]
        features._splits(in_c, blocks, contexts, names, C)
        in_python: list[list[str]] = [["x"] for _ in blocks]
        features._python_splits(in_python, blocks, contexts, names, C)
        assert in_c == in_python
        n_breaks += sum(f != "split.br=0" for x in in_c for f in x if f.startswith("split.br"))
    assert n_breaks >= 2


def test_link_letters_in_c_are_those_of_python() -> None:
    """``kitten._links.block_link_letters`` (C, on lxml's tree) counts each block's link
    letters as ``_python_link_letters`` does, keys in the same order: links with ``href``
    or ``onclick``, nested in inline elements and in each other, in lists and tables,
    with non-ASCII text and a link outside every block; and on 20 Dragnet and 20 modern
    pages."""
    from kitten.boilerplate import features

    count = features._c_link_letters()
    if count is None:
        pytest.skip("kitten._links is not built")
    links = ('<div class="menu"><p>Voir <a href="/x">l\'été <b>2024</b> ²</a> et <a onclick="f()">ça</a>'
             ' <a name="n">no link</a> <a href="/z">out <a href="/in">in</a><!-- c --> tail</a></p>'
             '<ul><li><a href="/y">日本語 リンク</a> text</li></ul></div>')
    docs = [document(html) for html in (PAGE, f"<html><body>{links}{ARTICLE}{NAV}{links}{FOOT}</body></html>")]
    for corpus in ("dragnet", "modern"):
        for path in corpus_pages(corpus, 20):
            docs.append(run_page(Page(path.read_bytes(), path.name), Config(), "json").products["structure"])
    for i, doc in enumerate(docs):
        body = doc.blocks[0].source.getroottree().getroot().find(features._NS + "body")
        sources = [b.source for b in doc.blocks]
        for some in (sources, sources[::2], sources[:1], [None, *sources]):
            in_c = count(some, body)
            in_python = features._python_link_letters(some, body)
            assert in_c == in_python and list(in_c) == list(in_python)
        assert i > 1 or len(count(sources, body)) >= 3




def test_gate_reads_the_json_ld_scripts_the_structure_step_found() -> None:
    """``Document.json_ld`` (the JSON-LD scripts the structure step's walk collected) holds
    the scripts a search of the whole tree finds, in the same order, in the head, the body
    and removed containers alike; the features made from them are those made from the
    search (``scripts`` None), on a page whose articleBody marks blocks and on real pages."""
    from kitten.boilerplate.crf import model_path
    from kitten.boilerplate.features import own_features_and_words
    from kitten.metadata import json_ld_scripts

    body = " ".join(f"word{i} of the declared article body" for i in range(30))
    ld = '{"@type": "NewsArticle", "articleBody": "%s"}'
    page = (f'<html><head><title>T</title><script type="application/ld+json">{ld % body}</script></head><body>'
            f'<nav><a href="/">Home</a><script type="application/ld+json">{{"@graph": [{{"name": "n"}}]}}</script></nav>'
            f'<div class="story"><p>{body}</p><p>Another paragraph, not declared anywhere at all here.</p>'
            f'<script type="application/ld+json">{{"headline": "h"}}</script>'
            f'<script type="application/ld+json">not json</script></div></body></html>')
    docs = [document(page)]
    docs += [run_page(Page(p.read_bytes(), p.name), Config(), "json").products["structure"]
             for p in corpus_pages("modern", 40)]
    settings = load_model(str(model_path())).settings
    found = 0
    for doc in docs:
        root = doc.blocks[0].source.getroottree().getroot()
        assert doc.json_ld == list(json_ld_scripts(root))
        found += len(doc.json_ld)
        own = own_features_and_words(doc.blocks, settings, doc.lang, "", doc.json_ld)[0]
        assert own == own_features_and_words(doc.blocks, settings, doc.lang, "")[0]
    assert len(docs[0].json_ld) == 4
    assert any("ld.body" in f for f in own_features_and_words(docs[0].blocks, settings, "en", "", docs[0].json_ld)[0])
    assert found > 4 or not (CORPORA / "modern").is_dir()
