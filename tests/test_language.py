"""Language identification (``kitten.language.identify``), declared languages, and the
JSON Lines fields built on them: ``lang``, ``lang_score``, ``declared_lang``, ``--lang``;
with the other fields to deduplicate and filter on (``text_hash``, ``words``, ids)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kitten.cli import main
from kitten.io.sinks import text_hash
from kitten.io.sources import InputStats, input_files
from kitten.language import Identified, count_words, identify, normalize_code, sample

ZH = "市议会周二晚上召开会议，讨论公共图书馆的新预算。经过长时间的辩论，议员们同意周日继续开放各分馆，并再聘用两名图书管理员。"
DE = ("Der Stadtrat traf sich am Dienstagabend, um über den neuen Haushalt der öffentlichen Bibliotheken "
      "zu beraten. Nach einer langen Debatte einigten sich die Mitglieder darauf, die Zweigstellen auch "
      "sonntags zu öffnen.")
EN = ("The city council met on Tuesday evening to discuss the new budget for the public libraries. After a "
      "long debate, the members agreed to keep the branches open on Sundays.")
RU = ("Городской совет собрался во вторник вечером, чтобы обсудить новый бюджет публичных библиотек. "
      "После долгих споров депутаты решили оставить филиалы открытыми по воскресеньям.")
JA = "市議会は火曜日の夜に会合を開き、公立図書館の新しい予算について話し合った。長い議論の末、日曜日も分館を開館することで合意した。"
MENU = "Home\nNews\nSports\nBusiness\nContact us\nSign in\nSubscribe\nSearch\nPrivacy Policy\nTerms of Use"


@pytest.mark.parametrize("value, code", [
    ("en", "en"), ("en-GB", "en"), ("EN_us", "en"), ("zh-Hant-TW", "zh"), ("deu", "de"), ("ger", "de"),
    ("German", "de"), (" english ", "en"), ("iw", "he"), ("yue", "yue"), ("fil-PH", "fil"),
    ("", ""), ("und", ""), ("x-klingon", ""), ("*", ""), ("1234", ""),
])
def test_declared_codes_are_normalized(value: str, code: str) -> None:
    assert normalize_code(value) == code


@pytest.mark.parametrize("text, lang", [(EN, "en"), (DE, "de"), (ZH, "zh"), (RU, "ru"), (JA, "ja")])
def test_identify_running_text(text: str, lang: str) -> None:
    found = identify(text)
    assert found.lang == lang and found.score >= 0.8


def test_an_english_menu_does_not_make_a_chinese_page_english() -> None:
    text = "\n".join([MENU, *ZH.split("。")[:2], MENU])
    assert identify(text).lang == "zh"
    assert "Subscribe" not in sample(text)  # the running-text lines only


def test_too_little_text_has_no_language() -> None:
    assert identify("Home | Contact") == Identified(None, None)
    assert identify("") == Identified(None, None)
    unsure = identify("OK 42 x 1 2 3")
    assert unsure.lang is None and unsure.score is not None and unsure.score < 0.5


def test_capitals_are_read_as_lower_case() -> None:
    assert identify(EN.upper()).lang == "en"


def test_words_and_text_hash() -> None:
    assert count_words("Don't stop: a well-known 2024 case.") == 6
    assert count_words("東京は晴れ。") == 5
    assert text_hash("One sentence.\nAnother one.\n") == text_hash("One sentence. Another one.")
    assert text_hash("One sentence.") != text_hash("One sentence!")


def _records(tmp_path: Path, pages: dict[str, str], *args: str) -> dict[str, dict]:
    for name, html in pages.items():
        (tmp_path / "in" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "in" / name).write_text(html, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["extract", str(tmp_path / "in"), "--format", "jsonl", "-o", str(out), "-q", *args]) == 0
    return {r["id"]: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}


PAGES = {
    "zh.html": f"<html><body><ul>{''.join(f'<li><a href=/{m}>{m}</a></li>' for m in MENU.split())}</ul>"
               f"<p>{ZH}</p></body></html>",
    "en.html": f"<html lang='en-GB'><body><p>{EN}</p></body></html>",
    "de.html": f"<html lang='en'><body><p>{DE}</p></body></html>",  # a template's lang around German
    "short.html": "<html lang='fr'><body><p>Accueil</p></body></html>",
}


def test_records_carry_the_identified_and_the_declared_language(tmp_path: Path, capsys) -> None:
    recs = _records(tmp_path, PAGES)
    capsys.readouterr()
    assert (recs["zh.html"]["lang"], recs["zh.html"]["declared_lang"]) == ("zh", None)
    assert (recs["en.html"]["lang"], recs["en.html"]["declared_lang"]) == ("en", "en")
    assert (recs["de.html"]["lang"], recs["de.html"]["declared_lang"]) == ("de", "en")
    short = recs["short.html"]
    assert short["lang"] is None and short["lang_score"] is None and short["declared_lang"] == "fr"
    assert recs["zh.html"]["words"] == count_words(recs["zh.html"]["text"]) > 50


def test_lang_option_keeps_only_those_languages(tmp_path: Path, capsys) -> None:
    recs = _records(tmp_path, PAGES, "--lang", "EN,deu")
    capsys.readouterr()
    assert {k: r["status"] for k, r in recs.items()} == {"de.html": "done", "en.html": "done",
                                                         "short.html": "excluded", "zh.html": "excluded"}
    assert recs["zh.html"]["reason"] == "language: zh (kept: en, de)" and recs["zh.html"]["text"] is None
    assert recs["short.html"]["reason"].startswith("language: not identified")
    # a folder output: no file for an excluded page, the reason in the log
    out = tmp_path / "folder"
    assert main(["extract", str(tmp_path / "in"), "-o", str(out), "--lang", "zh"]) == 0
    err = capsys.readouterr().err
    assert "excluded x3: language" in err
    assert sorted(p.name for p in out.glob("*.txt")) == ["zh.txt"]
    log = [json.loads(x) for x in (out / "kitten-log.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {x["page"]: x["status"] for x in log}["en.html"] == "excluded"


def test_lang_option_takes_codes(tmp_path: Path, capsys) -> None:
    page = tmp_path / "p.html"
    page.write_text("<p>x</p>", encoding="utf-8")
    assert main(["extract", str(page), "--lang", "en,x-none"]) == 2
    assert "--lang takes language codes" in capsys.readouterr().err


def test_ids_do_not_depend_on_the_path_form(tmp_path: Path, monkeypatch) -> None:
    for folder in ("ce", "other"):
        (tmp_path / "set" / folder).mkdir(parents=True)
        (tmp_path / "set" / folder / "1.html").write_text("<p>x</p>", encoding="utf-8")
    monkeypatch.chdir(tmp_path)

    def ids(*paths: str) -> list[str]:
        return [r.id for r in input_files(list(paths), InputStats())]
    assert ids("set") == ["ce/1.html", "other/1.html"]
    assert ids("set/ce") == ids("./set/ce/") == ids(str(tmp_path / "set" / "ce")) == ["1.html"]
    assert ids("set/ce/1.html") == ids("./set/ce/../ce/1.html") == ["1.html"]
    # two arguments giving the same relative path: the folders' own names tell them apart
    assert ids("set/ce", "set/other") == ids("./set/ce", str(tmp_path / "set" / "other")) \
        == ["ce/1.html", "other/1.html"]
    assert ids("set/ce/1.html", "./set/other/1.html") == ["ce/1.html", "other/1.html"]
