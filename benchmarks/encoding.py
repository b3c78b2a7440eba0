#!/usr/bin/env python
"""Encoding benchmark: how often ``kitten.normalizer.encoding.decode`` recovers the exact text of
pages re-encoded into legacy charsets, with a correct, a wrong and no ``<meta>`` declaration,
compared with charset-normalizer alone; and how fast ``decode`` is on the real corpus pages.

    python benchmarks/encoding.py [--corpora .cache/corpora] [--out report.json] [--verbose]

The test pages are built in memory (never written to disk) from the visible text of the
shared corpora (paragraphs sorted by language with a stop-word / script test), plus a few
paragraphs written for this benchmark for the languages the corpora lack (Russian, Korean,
Polish, Hungarian, German, Japanese, traditional Chinese). Each page is a realistic HTML
document of a few KB, encoded into each legacy charset of its language, UTF-8 and UTF-16
(without BOM, alternately little and big endian).

A second set is the shared pages themselves, whole, re-encoded into the legacy encodings of
their script (:mod:`kitten.evaluation.reencode`), with Kitten beside chardetng (Firefox's
detector, ``chardetng-py``) and charset-normalizer, each used the browser's way: a
``<meta>`` declaration wins, the detector decides when there is none.
"""
from __future__ import annotations

import argparse
import glob
import html
import json
import os
import random
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Callable, Iterator, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kitten.config import DecodeConfig  # noqa: E402
from kitten.evaluation import reencode  # noqa: E402
from kitten.evaluation.reencode import WHATWG_DIFFERENCES  # noqa: E402
from kitten.log import PageLog  # noqa: E402
from kitten.normalizer.encoding import decode  # noqa: E402


# Short natural paragraphs written for this benchmark, for the languages the corpora lack.
WRITTEN: dict[str, list[str]] = {
    "ru": [
        "Утром в городе шёл мелкий дождь, и улицы были почти пустыми. Только у булочной на углу стояла небольшая очередь: люди ждали, когда откроются двери и можно будет купить свежий хлеб.",
        "Городской совет в среду утвердил новый план развития общественного транспорта. По словам чиновников, в ближайшие три года на линии выйдут более двухсот новых автобусов и около сорока трамваев.",
        "Учёные из Новосибирска сообщили о необычной находке: в пещере на Алтае обнаружены кости древнего животного, которое, по их мнению, жило здесь более ста тысяч лет назад.",
        "Мы долго спорили о том, куда поехать летом. Сестра хотела на море, отец мечтал о рыбалке на озере, а я предлагал отправиться в горы. В конце концов решили бросить жребий.",
        "Эксперты предупреждают, что цены на продукты могут вырасти уже осенью. Причиной называют засуху в южных регионах и рост стоимости топлива, которое нужно для перевозки урожая.",
        "Библиотека имени Чехова после ремонта снова открыта для читателей. Теперь здесь есть читальный зал с бесплатным интернетом, детская комната и небольшое кафе на первом этаже.",
        "В субботу на центральном стадионе состоялся финал кубка. Хозяева поля весь первый тайм атаковали, но забить смогли только на восемьдесят второй минуте, после подачи углового.",
        "Каждую осень бабушка варила варенье из яблок и рябины. Весь дом пах корицей, а мы, дети, терпеливо ждали, когда нам разрешат снять пенку с большого медного таза.",
        "Новая версия программы работает заметно быстрее: разработчики переписали модуль поиска и исправили ошибку, из-за которой приложение иногда закрывалось при сохранении файлов.",
        "Врачи советуют больше гулять на свежем воздухе, пить достаточно воды и ложиться спать в одно и то же время. Эти простые привычки помогают справиться с усталостью и стрессом.",
        "Музей современного искусства готовит большую выставку молодых художников. Организаторы получили почти тысячу заявок из разных стран и отобрали работы шестидесяти авторов.",
        "Поезд опоздал на два часа, и на вокзале собралась толпа встречающих. Дежурный по станции объяснил, что задержка связана с ремонтом пути между двумя соседними городами.",
    ],
    "ko": [
        "오늘 아침 서울에는 올해 첫눈이 내렸다. 출근길 시민들은 두꺼운 외투를 입고 조심스럽게 걸었으며, 일부 도로에서는 차량 정체가 빚어지기도 했다.",
        "정부는 내년부터 대중교통 요금을 동결하기로 결정했다. 관계자는 물가 상승으로 어려움을 겪는 서민들의 부담을 덜기 위한 조치라고 설명했다.",
        "지난 주말 부산에서 열린 국제 영화제에는 세계 여러 나라의 감독과 배우들이 참석했다. 올해는 특히 젊은 감독들의 작품이 많은 관심을 받았다.",
        "우리 가족은 여름마다 할머니 댁이 있는 시골에 간다. 마당에는 커다란 감나무가 있고, 저녁이면 평상에 앉아 수박을 먹으며 별을 보곤 했다.",
        "연구팀은 새로운 배터리 소재를 개발했다고 밝혔다. 이 소재를 사용하면 전기 자동차의 충전 시간을 절반 가까이 줄일 수 있을 것으로 기대된다.",
        "도서관에서는 이번 달부터 어린이를 위한 독서 교실을 운영한다. 매주 토요일 오전에 열리며, 참가를 원하는 사람은 누리집에서 신청하면 된다.",
        "전문가들은 규칙적인 운동과 충분한 수면이 건강을 지키는 가장 좋은 방법이라고 말한다. 하루 삼십 분 정도 걷는 것만으로도 큰 도움이 된다고 한다.",
        "어제 열린 축구 경기에서 우리 팀은 후반전에 두 골을 넣으며 역전승을 거두었다. 경기가 끝나자 관중들은 자리에서 일어나 오랫동안 박수를 보냈다.",
        "이 식당은 삼대째 같은 자리에서 국밥을 팔고 있다. 주인은 매일 새벽 네 시에 일어나 뼈를 고아 국물을 만들며, 맛의 비결은 정성이라고 말한다.",
        "새로 나온 휴대전화는 화면이 더 커지고 사진 기능이 좋아졌다. 하지만 가격이 크게 올라 소비자들의 반응은 엇갈리고 있다.",
        "봄이 되면 이 공원에는 벚꽃을 보러 온 사람들로 가득하다. 가족과 함께 도시락을 싸 와서 나무 아래에서 점심을 먹는 모습도 쉽게 볼 수 있다.",
        "박물관은 이번 전시에서 조선 시대 생활 도구 이백여 점을 선보인다. 전시는 다음 달 말까지 계속되며 입장료는 무료이다.",
    ],
    "pl": [
        "W środę rano nad Warszawą przeszła gwałtowna burza. Strażacy wyjeżdżali kilkadziesiąt razy, głównie do połamanych drzew, które zablokowały ulice i przewróciły się na samochody.",
        "Rząd zapowiedział, że od przyszłego roku zwiększy dopłaty do komunikacji miejskiej w mniejszych miejscowościach. Dzięki temu autobusy mają znów dojeżdżać do wielu wsi.",
        "Naukowcy z Krakowa opisali nowy gatunek chrząszcza, który znaleźli w Bieszczadach. Owad ma zaledwie kilka milimetrów długości i żyje pod korą starych buków.",
        "Każdego lata jeździliśmy nad jezioro do dziadków. Babcia piekła drożdżowe ciasto ze śliwkami, a dziadek uczył nas łowić ryby z drewnianego pomostu.",
        "Ceny mieszkań w dużych miastach wciąż rosną, choć tempo wzrostu jest już wyraźnie mniejsze niż rok temu. Eksperci uważają, że sytuacja może się ustabilizować jesienią.",
        "Biblioteka miejska otworzyła nową czytelnię dla dzieci. Są tam wygodne pufy, kolorowe półki i kącik, w którym w soboty odbywa się głośne czytanie bajek.",
        "Piłkarze gospodarzy przegrywali do przerwy jednym golem, ale po zmianie stron zdobyli dwie bramki i zapewnili sobie awans do półfinału pucharu.",
        "Lekarze przypominają, że zimą warto dbać o odpowiednią ilość snu, jeść dużo warzyw i codziennie choć przez pół godziny spacerować na świeżym powietrzu.",
        "Żółta łódź kołysała się na falach, a rybacy powoli zwijali sieci. Słońce chyliło się ku zachodowi i na plaży robiło się coraz chłodniej.",
        "Nowa wersja aplikacji działa szybciej i zużywa mniej pamięci. Programiści poprawili też błąd, przez który zdjęcia czasem znikały po ponownym uruchomieniu telefonu.",
    ],
    "hu": [
        "Szerdán reggel erős vihar vonult át Budapest felett. A tűzoltók több tucat helyszínre vonultak ki, főleg kidőlt fák és leszakadt ágak miatt, amelyek elzárták az utakat.",
        "A kormány bejelentette, hogy jövőre növeli a vidéki buszjáratok támogatását. Így sok kisebb településre ismét rendszeresen eljuthatnak a helyközi járatok.",
        "Debreceni kutatók egy új bogárfajt írtak le, amelyet a Bükk hegységben találtak. A rovar mindössze néhány milliméter hosszú, és öreg bükkfák kérge alatt él.",
        "Minden nyáron a Balatonhoz utaztunk a nagyszülőkhöz. Nagymama szilvás lepényt sütött, nagyapa pedig megtanított minket horgászni a régi fastégről.",
        "A lakásárak a nagyvárosokban továbbra is emelkednek, bár a növekedés üteme jóval lassabb, mint egy évvel ezelőtt. A szakértők szerint ősszel stabilizálódhat a piac.",
        "A városi könyvtár új olvasótermet nyitott a gyerekeknek. Kényelmes babzsákok, színes polcok és egy mesesarok várja a kicsiket, ahol szombatonként felolvasást tartanak.",
        "A hazai csapat a szünetben még egygólos hátrányban volt, de a második félidőben két gólt szerzett, és bejutott a kupa elődöntőjébe.",
        "Az orvosok figyelmeztetnek, hogy télen különösen fontos a megfelelő alvás, a sok zöldség és a napi legalább félórás séta a friss levegőn.",
        "Az új alkalmazás gyorsabban működik és kevesebb memóriát használ. A fejlesztők kijavították azt a hibát is, amely miatt a fényképek néha eltűntek.",
        "Őszi délután volt, a fűzfák levelei sárgán hullottak a patakba. Az öreg halász csendesen ült a parton, és a távoli harangszót hallgatta.",
    ],
    "de": [
        "Am Mittwochmorgen zog ein heftiges Gewitter über München. Die Feuerwehr musste zu Dutzenden Einsätzen ausrücken, vor allem wegen umgestürzter Bäume, die Straßen blockierten.",
        "Die Bundesregierung kündigte an, den Nahverkehr in ländlichen Gemeinden stärker zu fördern. Künftig sollen Busse auch kleinere Dörfer wieder regelmäßig anfahren.",
        "Forscher aus Göttingen haben eine neue Käferart beschrieben, die sie im Schwarzwald entdeckten. Das Insekt ist nur wenige Millimeter groß und lebt unter der Rinde alter Buchen.",
        "Jeden Sommer fuhren wir zu den Großeltern an den See. Oma backte Zwetschgenkuchen, und Opa brachte uns bei, wie man vom alten Holzsteg aus angelt.",
        "Die Mieten in den Großstädten steigen weiter, wenn auch deutlich langsamer als im Vorjahr. Fachleute erwarten, dass sich der Markt im Herbst beruhigt.",
        "Die Stadtbücherei hat einen neuen Lesesaal für Kinder eröffnet. Es gibt bequeme Sitzsäcke, bunte Regale und eine Märchenecke, in der samstags vorgelesen wird.",
        "Die Gastgeber lagen zur Pause mit einem Tor zurück, drehten das Spiel aber nach dem Seitenwechsel und zogen ins Halbfinale des Pokals ein.",
        "Ärzte empfehlen, im Winter auf ausreichend Schlaf zu achten, viel Gemüse zu essen und täglich mindestens eine halbe Stunde an der frischen Luft spazieren zu gehen.",
    ],
    "ja": [
        "今朝、東京では今年初めての雪が降りました。通勤中の人々は傘を差しながら、滑らないように気をつけて駅まで歩いていました。",
        "政府は来年度から、地方の路線バスへの補助金を増やすと発表しました。これにより、利用者の少ない地域でも運行を続けられるようになる見込みです。",
        "京都の大学の研究チームは、新しい種類の甲虫を発見したと発表しました。体長はわずか数ミリで、古いブナの木の皮の下で暮らしているということです。",
        "毎年夏になると、私たちは祖父母の住む田舎へ遊びに行きました。祖母はスイカを冷やしておいてくれて、夜には縁側で花火を楽しみました。",
        "市立図書館では、今月から子ども向けの読書教室を始めます。毎週土曜日の午前中に開かれ、参加を希望する人はホームページから申し込むことができます。",
        "専門家によると、規則正しい運動と十分な睡眠が健康を保つ一番の方法だそうです。一日三十分ほど歩くだけでも、大きな効果があると言われています。",
        "昨日の試合で、地元のチームは後半に二点を入れて逆転勝ちしました。試合が終わると、観客は立ち上がって長い間拍手を送りました。",
        "この店は三代にわたって同じ場所でうどんを作り続けています。店主は毎朝四時に起きて出汁を取り、おいしさの秘密は手間を惜しまないことだと話します。",
    ],
    "zh-Hant": [
        "今天早上台北下起了大雨，許多上班族都被困在捷運站裡，等待雨勢稍微變小之後才離開。氣象局表示，這波鋒面將持續影響北部地區到週末。",
        "政府宣布明年起將增加偏遠地區公車的補助，讓居民能夠更方便地前往市區就醫與購物。交通部官員表示，相關計畫已經完成初步規劃。",
        "研究團隊在中央山脈發現了一種新的甲蟲，體長只有幾毫米，生活在老樹的樹皮底下。學者認為，這項發現有助於了解高山生態的變化。",
        "每年暑假，我們全家都會回到鄉下的外婆家。外婆總是準備好冰涼的西瓜，晚上大家坐在院子裡一邊聊天，一邊看著滿天的星星。",
        "市立圖書館從這個月開始舉辦兒童閱讀班，每週六上午上課，有興趣的家長可以在網站上替孩子報名，名額有限，額滿為止。",
        "醫師提醒，規律運動和充足睡眠是維持健康最好的方法。每天只要走路三十分鐘左右，就能明顯改善體力，也能減輕工作帶來的壓力。",
        "昨天的比賽中，主場球隊在下半場連進兩球，成功逆轉獲勝。比賽結束後，觀眾們紛紛起立，久久不停地為球員鼓掌。",
        "這家麵店已經在同一個地方經營了三代。老闆每天清晨四點起床熬湯，他說好吃的祕訣就是不怕麻煩，用心對待每一碗麵。",
    ],
}

# --------------------------------------------------------------------------------------------
# Text harvest
# --------------------------------------------------------------------------------------------

STOPWORDS: dict[str, frozenset[str]] = {
    "en": frozenset("the and of to in is that for with was on are it as be by this have from".split()),
    "fr": frozenset("le les des est une et dans pour qui sur pas du au avec il elle sont ce cette nous vous "
                    "mais ou leur été être".split()),
    "es": frozenset("el los las del y en por con para una se es lo al más como su pero este fue".split()),
    "pt": frozenset("o os do da e em para com uma não no na dos das é ao mais foi pelo pela".split()),
    "de": frozenset("der die das und ist nicht mit den von zu ein eine auf sich dem für auch".split()),
    "it": frozenset("il di che e per un gli del della non sono nel con è alla questo".split()),
    "cs": frozenset("je se na že jako ale jsou jsem ve pro byl bylo které také jen už".split()),
}
#: language -> (charsets it is encoded into); every text also goes to UTF-8 and UTF-16.
LANGUAGE_CHARSETS: dict[str, tuple[str, ...]] = {
    "en": ("windows-1252",), "fr": ("windows-1252",), "es": ("windows-1252",), "pt": ("windows-1252",),
    "de": ("windows-1252",), "it": ("windows-1252",),
    "cs": ("ISO-8859-2",), "pl": ("ISO-8859-2",), "hu": ("ISO-8859-2",),
    "ru": ("windows-1251", "KOI8-R"),
    "ja": ("Shift_JIS", "EUC-JP"), "ko": ("EUC-KR",), "zh-Hans": ("GB18030", "GBK"), "zh-Hant": ("Big5",),
}
#: Python encoder of each test charset.
ENCODERS = {
    "windows-1252": "cp1252", "ISO-8859-2": "iso8859_2", "windows-1251": "cp1251", "KOI8-R": "koi8_r",
    "Shift_JIS": "cp932", "EUC-JP": "euc_jp", "EUC-KR": "euc_kr", "GB18030": "gb18030", "GBK": "gbk",
    "Big5": "big5", "UTF-8": "utf-8",
    "UTF-16": "utf-16",
}
CHARSETS = ("windows-1252", "ISO-8859-2", "windows-1251", "KOI8-R", "Shift_JIS", "EUC-JP", "EUC-KR", "GB18030",
            "GBK", "Big5", "UTF-8", "UTF-16")
#: labels a page in that charset declares (alternately)
CORRECT_LABELS = {
    "windows-1252": ("iso-8859-1", "windows-1252"), "ISO-8859-2": ("iso-8859-2",), "windows-1251": ("windows-1251",),
    "KOI8-R": ("koi8-r",), "Shift_JIS": ("shift_jis", "Shift_JIS"), "EUC-JP": ("euc-jp", "EUC-JP"),
    "EUC-KR": ("euc-kr",), "GB18030": ("gb2312", "gb18030", "GBK"), "GBK": ("gbk", "gb2312"), "Big5": ("big5",), "UTF-8": ("utf-8",), "UTF-16": ("utf-16",),
}
#: realistic wrong declarations, used in turn
WRONG_LABELS = {
    "windows-1252": ("utf-8", "iso-8859-2", "windows-1251"),
    "ISO-8859-2": ("iso-8859-1", "utf-8", "windows-1250"),
    "windows-1251": ("iso-8859-1", "koi8-r", "utf-8"),
    "KOI8-R": ("windows-1251", "iso-8859-1", "utf-8"),
    "Shift_JIS": ("euc-jp", "utf-8", "iso-8859-1"),
    "EUC-JP": ("shift_jis", "utf-8", "windows-1255"),
    "EUC-KR": ("gb2312", "utf-8", "iso-8859-1"),
    "GB18030": ("big5", "utf-8", "iso-8859-1"),
    "GBK": ("big5", "euc-kr", "utf-8"),
    "Big5": ("gb2312", "utf-8", "iso-8859-1"),
    "UTF-8": ("iso-8859-1", "windows-1251", "shift_jis"),
    "UTF-16": ("utf-8", "iso-8859-1", "windows-1252"),
}
VARIANTS = ("correct", "wrong", "missing")

_WS_RE = re.compile(r"\s+")
_WORD_RE = re.compile(r"[^\W\d_]+")
_GOLD_MARK_RE = re.compile(r"^\s*<[a-z]+>\s*", re.I)
_SPAM_RE = re.compile(r"порн|инцест|еб[её]т|выеб", re.I)
_CODE_RE = re.compile(r"[<>{}=\\|]|&[a-z]+;|https?:|www\.")


def _script_counts(text: str) -> Counter[str]:
    counts: Counter[str] = Counter()
    for ch in text:
        if not ch.isalpha():
            continue
        o = ord(ch)
        if o < 0x250:
            counts["latin"] += 1
        elif 0x400 <= o < 0x530:
            counts["cyrillic"] += 1
        elif 0x3040 <= o < 0x3100:
            counts["kana"] += 1
        elif 0xAC00 <= o < 0xD7B0:
            counts["hangul"] += 1
        elif 0x3400 <= o < 0xA000 or 0xF900 <= o < 0xFB00:
            counts["han"] += 1
        else:
            counts["other"] += 1
    return counts


def _encodable(text: str, codec: str) -> bool:
    try:
        text.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


def classify(paragraph: str) -> str | None:
    """The language of a paragraph (one of LANGUAGE_CHARSETS), or None if unsure."""
    scripts = _script_counts(paragraph)
    letters = sum(scripts.values())
    if letters < 20 or scripts["other"] > letters * 0.05:
        return None
    cjk = scripts["kana"] + scripts["hangul"] + scripts["han"]
    if cjk > letters * 0.5:
        if scripts["hangul"] > cjk * 0.5:
            return "ko"
        if scripts["kana"] > cjk * 0.1:
            return "ja"
        if scripts["hangul"] or scripts["kana"] or cjk < 15:
            return None
        simplified, traditional = _encodable(paragraph, "gb2312"), _encodable(paragraph, "big5")
        if simplified and not traditional:
            return "zh-Hans"
        if traditional and not simplified:
            return "zh-Hant"
        return None
    if scripts["cyrillic"] > letters * 0.7:
        if _SPAM_RE.search(paragraph):
            return None
        return "ru" if _encodable(paragraph, "koi8_r") and _encodable(paragraph, "cp1251") else None
    if scripts["latin"] < letters * 0.95 or len(paragraph) < 80:
        return None
    lowered = paragraph.lower()
    for lang, marks in (("cs", "ěřů"), ("pl", "ąęłśźż"), ("hu", "őű")):
        if sum(ch in marks for ch in lowered) >= len(paragraph) * 0.01:
            return lang
    words = [w.lower() for w in _WORD_RE.findall(paragraph)]
    hits = {lang: sum(w in stop for w in words) for lang, stop in STOPWORDS.items()}
    best = max(hits, key=hits.get)
    if best == "cs" and sum(ch in "ěščřžůňťď" for ch in paragraph.lower()) < len(paragraph) * 0.01:
        return None
    ranked = sorted(hits.values(), reverse=True)
    if ranked[0] < 5 or ranked[0] < 1.5 * ranked[1] or ranked[0] < len(words) * 0.08:
        return None
    return best


def _paragraphs_from_html(text: str) -> Iterator[str]:
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(text)
    for node in tree.css("p, li, h1, h2, h3, dd, td"):
        if node.tag in ("li", "dd", "td") and any(
                child.tag in ("p", "div", "ul", "ol", "table", "li") for child in node.iter()):
            continue
        yield _WS_RE.sub(" ", node.text(separator=" ")).strip()


def _paragraphs_from_gold(text: str) -> Iterator[str]:
    for block in re.split(r"\n\s*\n|\n(?=\s*<[ph]>)", text):
        yield _WS_RE.sub(" ", _GOLD_MARK_RE.sub("", block)).strip()


def harvest(corpora: Path) -> dict[str, list[str]]:
    """Paragraphs of running text per language, from the corpora's pages and gold texts."""
    found: dict[str, dict[str, None]] = defaultdict(dict)
    for path in sorted(glob.glob(str(corpora / "*" / "html" / "*"))) + sorted(glob.glob(str(corpora / "*" / "gold" / "*"))):
        try:
            text = Path(path).read_bytes().decode("utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # only pages whose text is certain
        is_gold = os.sep + "gold" + os.sep in path
        if not is_gold or re.search(r"<(?:p|div)\b", text[:5000]):
            paras = _paragraphs_from_html(text)
        else:
            paras = _paragraphs_from_gold(text)
        for para in paras:
            if "\ufffd" in para or len(para) > 3000 or _CODE_RE.search(para):
                continue
            lang = classify(para)
            if lang is not None:
                found[lang][para] = None
    return {lang: list(paras) for lang, paras in found.items()}


# --------------------------------------------------------------------------------------------
# Test pages
# --------------------------------------------------------------------------------------------

TEMPLATE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
{meta}
<title>{title}</title>
<link rel="stylesheet" href="/static/css/site.css?v=3" type="text/css">
<script type="text/javascript">var _gaq = _gaq || []; _gaq.push(['_setAccount', 'UA-000000-1']); _gaq.push(['_trackPageview']);</script>
</head>
<body class="article">
<div id="header"><a href="/"><img src="/static/logo.png" alt="logo"></a>
<ul class="nav"><li><a href="/news/">News</a></li><li><a href="/sport/">Sport</a></li><li><a href="/contact/">Contact</a></li></ul></div>
<div id="content">
<h1>{title}</h1>
<p class="date">2014-05-12 09:41</p>
{body}
</div>
<div id="footer">&copy; 2014 Example Media. <a href="/privacy/">Privacy</a></div>
</body>
</html>
"""


class TestPage(NamedTuple):
    lang: str
    charset: str
    variant: str
    declared: str | None
    text: str
    data: bytes


def _meta(label: str, index: int) -> str:
    if index % 2:
        return f'<meta http-equiv="Content-Type" content="text/html; charset={label}">'
    return f'<meta charset="{label}">'


def build_pages(texts: dict[str, list[str]], seed: int = 7, max_pages: int = 24) -> list[TestPage]:
    """Pages of a few KB of running text per language, each in its charsets and variants."""
    rng = random.Random(seed)
    pages: list[TestPage] = []
    for lang in sorted(texts):
        charsets = (*LANGUAGE_CHARSETS[lang], "UTF-8", "UTF-16")
        legacy = [ENCODERS[c] for c in LANGUAGE_CHARSETS[lang]]
        paras = [p for p in texts[lang] if all(_encodable(p, codec) for codec in legacy)]
        if not paras:
            continue
        cjk = lang in ("ja", "ko", "zh-Hans", "zh-Hant")
        chunks: list[list[str]] = []
        for _ in range(max_pages):
            # pages draw paragraphs at random from the language's pool (the pools of some
            # languages are small): sizes from a short item to a long article
            target = rng.randint(200, 1500) if cjk else rng.randint(400, 4000)
            pool = paras[:]
            rng.shuffle(pool)
            chunk: list[str] = []
            while pool and sum(map(len, chunk)) < target:
                chunk.append(pool.pop())
            chunks.append(chunk)
        for n, chunk in enumerate(chunks[:max_pages]):
            words = chunk[0].split()
            title = " ".join(words[:8]) if len(words) > 3 else chunk[0][:24]
            body = "\n".join(f"<p>{html.escape(p, quote=False)}</p>" for p in chunk)
            for charset in charsets:
                if charset in ("UTF-8", "UTF-16") and n % 3:
                    continue  # every language is in the Unicode sets, a third of its pages suffice
                for variant in VARIANTS:
                    if variant == "correct":
                        labels = CORRECT_LABELS[charset]
                        label = labels[n % len(labels)]
                    elif variant == "wrong":
                        labels = WRONG_LABELS[charset]
                        label = labels[n % len(labels)]
                    else:
                        label = None
                    meta = _meta(label, n) if label else '<meta name="viewport" content="width=device-width">'
                    page = TEMPLATE.format(lang=lang, meta=meta, title=html.escape(title, quote=False), body=body)
                    codec = ENCODERS[charset]
                    if charset == "UTF-16":
                        codec = "utf-16-le" if n % 2 == 0 else "utf-16-be"
                    # the text a browser shows (see kitten.evaluation.reencode.WHATWG_DIFFERENCES)
                    shown = page.translate(WHATWG_DIFFERENCES.get(codec, {}))
                    pages.append(TestPage(lang, charset, variant, label, shown, page.encode(codec)))
    return pages


# --------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------


def charset_normalizer_text(data: bytes) -> str | None:
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    return None if best is None else str(best)


def score(pages: list[TestPage], config: DecodeConfig, compare: bool = True) -> dict:
    cells: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])  # n, kitten ok, cn ok
    failures = []
    for page in pages:
        result = decode(page.data, config, PageLog())
        ok = result.text == page.text
        cn_ok = compare and charset_normalizer_text(page.data) == page.text
        cell = cells[(page.charset, page.variant)]
        cell[0] += 1
        cell[1] += ok
        cell[2] += cn_ok
        if not ok:
            failures.append({"lang": page.lang, "charset": page.charset, "variant": page.variant,
                             "declared": page.declared, "chosen": result.encoding, "source": result.source,
                             "bytes": len(page.data)})
    return {"cells": {f"{c}|{v}": n for (c, v), n in cells.items()}, "failures": failures}


def print_table(report: dict) -> None:
    cells = {tuple(k.split("|")): v for k, v in report["cells"].items()}
    header = f"{'charset':<14}" + "".join(f"{v + ' (kitten / c-n)':>30}" for v in VARIANTS) + f"{'all':>22}"
    print(header)
    print("-" * len(header))
    totals = {v: [0, 0, 0] for v in VARIANTS}
    for charset in CHARSETS:
        row = f"{charset:<14}"
        rt = [0, 0, 0]
        for variant in VARIANTS:
            n, ok, cn = cells.get((charset, variant), (0, 0, 0))
            for i, x in enumerate((n, ok, cn)):
                totals[variant][i] += x
                rt[i] += x
            row += f"{_pct(ok, n):>12} / {_pct(cn, n):<7} (n={n:<3})" if n else f"{'-':>30}"
        row += f"{_pct(rt[1], rt[0]):>10} / {_pct(rt[2], rt[0]):<7}"
        print(row)
    print("-" * len(header))
    row = f"{'all':<14}"
    grand = [0, 0, 0]
    for variant in VARIANTS:
        n, ok, cn = totals[variant]
        grand = [g + x for g, x in zip(grand, (n, ok, cn))]
        row += f"{_pct(ok, n):>12} / {_pct(cn, n):<7} (n={n:<3})"
    row += f"{_pct(grand[1], grand[0]):>10} / {_pct(grand[2], grand[0]):<7}"
    print(row)
    print(f"\nKitten exact decodes: {grand[1]}/{grand[0]} = {_pct(grand[1], grand[0])}; "
          f"charset-normalizer alone: {grand[2]}/{grand[0]} = {_pct(grand[2], grand[0])}")


def _pct(ok: int, n: int) -> str:
    return f"{100.0 * ok / n:.1f}%" if n else "-"


# --------------------------------------------------------------------------------------------
# Throughput on the real corpus
# --------------------------------------------------------------------------------------------


def throughput(corpora: Path, config: DecodeConfig, verbose: bool) -> dict:
    files = sorted(p for p in glob.glob(str(corpora / "*" / "html" / "*")) if os.path.isfile(p))
    pages = [(p, Path(p).read_bytes()) for p in files]
    total = sum(len(d) for _, d in pages)
    sources: Counter[str] = Counter()
    encodings: Counter[str] = Counter()
    overrides = []
    slowest = []
    start = time.perf_counter()
    for path, data in pages:
        t0 = time.perf_counter()
        log = PageLog()
        result = decode(data, config, log)
        slowest.append((time.perf_counter() - t0, path))
        sources[result.source] += 1
        encodings[result.encoding] += 1
        if result.overridden:
            overrides.append(f"{os.path.relpath(path, corpora)}: {result.declared} -> {result.encoding} "
                             f"({log.of_kind('encoding-override')[0].message if log.of_kind('encoding-override') else ''})")
    elapsed = time.perf_counter() - start
    slowest.sort(reverse=True)
    return {"pages": len(pages), "bytes": total, "seconds": elapsed, "mb_per_s": total / elapsed / 1e6,
            "sources": dict(sources), "encodings": dict(encodings), "overrides": overrides,
            "slowest": [(round(t * 1000, 1), os.path.relpath(p, corpora)) for t, p in slowest[:10]]}


# --------------------------------------------------------------------------------------------
# The shared pages re-encoded (kitten.evaluation.reencode), detectors side by side
# --------------------------------------------------------------------------------------------


def detectors(config: DecodeConfig) -> dict[str, Callable[[bytes], str | None]]:
    """Kitten's decode step, and the two detectors it could use, each as a browser would use it
    (a declaration wins; the detector decides only when there is none) and alone."""
    from kitten.normalizer.encoding import decode_as, find_declaration, resolve_lenient

    def kitten(data: bytes) -> str:
        return decode(data, config, PageLog()).text

    def browser_with(detect: Callable[[bytes], str | None]) -> Callable[[bytes], str | None]:
        def run(data: bytes) -> str | None:
            declared = find_declaration(data, config, None).encoding
            name = declared or detect(data)
            return None if name is None else decode_as(data, name)
        return run

    systems: dict[str, Callable[[bytes], str | None]] = {"kitten": kitten}
    try:
        import chardetng_py

        systems["meta+chardetng"] = browser_with(lambda data: chardetng_py.detect(data, allow_utf8=True))
    except ImportError:
        print("chardetng-py not installed (pip install chardetng-py): its columns are left out")

    def charset_normalizer(data: bytes) -> str | None:
        from charset_normalizer import from_bytes

        best = from_bytes(data).best()
        if best is None:
            return None
        return resolve_lenient(best.encoding)

    systems["meta+charset-normalizer"] = browser_with(charset_normalizer)
    return systems


def real_pages(corpora: Path, config: DecodeConfig, verbose: bool) -> dict:
    pages = reencode.build(reencode.corpus_sources(corpora))
    groups = Counter(p.group for p in pages if p.variant == "correct" and p.charset == reencode.GROUP_CHARSETS[p.group][0])
    print(f"\nshared pages re-encoded: {len(pages)} pages from "
          + ", ".join(f"{g}={n}" for g, n in groups.most_common()) + " source pages\n")
    results = {}
    for name, run in detectors(config).items():
        start = time.perf_counter()
        results[name] = reencode.exact(pages, run)
        print(f"  {name}: {time.perf_counter() - start:.1f} s")
    print(reencode.table(results))
    failures = Counter()
    for page in pages:
        result = decode(page.data, config, PageLog())
        if result.text != page.text:
            failures[(page.charset, page.variant, page.declared, result.encoding)] += 1
    if failures:
        print(f"\nkitten: {sum(failures.values())} pages not decoded exactly")
        for (charset, variant, declared, chosen), count in failures.most_common(None if verbose else 12):
            print(f"  {count:3d} x {charset} {variant} (declared {declared}) -> {chosen}")
    return {name: {f"{c}|{v}": list(n) for (c, v), n in cells.items()} for name, cells in results.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=ROOT / ".cache" / "corpora")
    parser.add_argument("--out", type=Path, help="write the report as JSON here")
    parser.add_argument("--verbose", action="store_true", help="list every failure and override")
    parser.add_argument("--no-throughput", action="store_true", help="skip the corpus throughput run")
    parser.add_argument("--no-compare", action="store_true", help="skip charset-normalizer alone (faster)")
    parser.add_argument("--no-real", action="store_true", help="skip the re-encoded shared pages")
    args = parser.parse_args(argv)
    config = DecodeConfig()

    texts = harvest(args.corpora)
    for lang, paras in WRITTEN.items():
        texts.setdefault(lang, [])
        texts[lang] = list(dict.fromkeys([*paras, *texts[lang]]))
    texts = {lang: paras for lang, paras in texts.items() if lang in LANGUAGE_CHARSETS}
    print("paragraphs per language: " + ", ".join(f"{k}={len(v)}" for k, v in sorted(texts.items())))
    pages = build_pages(texts)
    print(f"{len(pages)} test pages, {sum(len(p.data) for p in pages) / 1e6:.1f} MB\n")
    report = score(pages, config, not args.no_compare)
    print_table(report)
    fails = report["failures"]
    if fails:
        print(f"\n{len(fails)} pages not decoded exactly:")
        grouped = Counter((f["charset"], f["variant"], f["declared"], f["chosen"]) for f in fails)
        for (charset, variant, declared, chosen), count in grouped.most_common(None if args.verbose else 15):
            print(f"  {count:3d} x {charset} {variant} (declared {declared}) -> {chosen}")
    if not args.no_real:
        report["real_pages"] = real_pages(args.corpora, config, args.verbose)
    if not args.no_throughput:
        speed = throughput(args.corpora, config, args.verbose)
        report["throughput"] = speed
        print(f"\ndecode throughput on {speed['pages']} corpus pages ({speed['bytes'] / 1e6:.1f} MB): "
              f"{speed['mb_per_s']:.1f} MB/s ({speed['seconds']:.2f} s)")
        print("sources: " + ", ".join(f"{k}={v}" for k, v in sorted(speed["sources"].items())))
        print("encodings: " + ", ".join(f"{k}={v}" for k, v in Counter(speed["encodings"]).most_common()))
        print(f"declarations overridden: {len(speed['overrides'])}")
        for line in speed["overrides"][: None if args.verbose else 10]:
            print("  " + line)
        print("slowest pages (ms): " + ", ".join(f"{p} {t}" for t, p in speed["slowest"][:5]))
    if args.out:
        args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
