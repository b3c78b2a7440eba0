"""Made-up pages for ``language_id.py``: a paragraph of running text in each of 30
languages (written for this benchmark, about 40-70 words each), and the mixes a crawl
gives: the paragraph under an English menu and footer, its first sentence alone and between
the same menu and footer, a one-line snippet, a menu alone.

Each sample is ``(name, expected, text)``; ``expected`` is None where an honest answer
is "cannot tell" (too little text)."""
from __future__ import annotations

PARAGRAPHS: dict[str, str] = {
    "en": "The city council met on Tuesday evening to discuss the new budget for the public "
          "libraries. After a long debate, the members agreed to keep the branches open on "
          "Sundays and to hire two more librarians, although several residents said that the "
          "funding would not be enough to repair the old building near the river.",
    "fr": "Le conseil municipal s'est réuni mardi soir pour discuter du nouveau budget des "
          "bibliothèques publiques. Après un long débat, les élus ont accepté de laisser les "
          "annexes ouvertes le dimanche et d'embaucher deux bibliothécaires de plus, même si "
          "plusieurs habitants ont estimé que les crédits ne suffiraient pas à rénover le vieux "
          "bâtiment près du fleuve.",
    "de": "Der Stadtrat traf sich am Dienstagabend, um über den neuen Haushalt der öffentlichen "
          "Bibliotheken zu beraten. Nach einer langen Debatte einigten sich die Mitglieder darauf, "
          "die Zweigstellen auch sonntags zu öffnen und zwei weitere Bibliothekare einzustellen, "
          "obwohl mehrere Anwohner meinten, das Geld reiche nicht, um das alte Gebäude am Fluss "
          "zu sanieren.",
    "es": "El ayuntamiento se reunió el martes por la noche para discutir el nuevo presupuesto de "
          "las bibliotecas públicas. Tras un largo debate, los concejales acordaron abrir las "
          "sucursales los domingos y contratar a dos bibliotecarios más, aunque varios vecinos "
          "dijeron que el dinero no alcanzaría para reparar el viejo edificio junto al río.",
    "it": "Il consiglio comunale si è riunito martedì sera per discutere il nuovo bilancio delle "
          "biblioteche pubbliche. Dopo un lungo dibattito, i consiglieri hanno deciso di tenere "
          "aperte le sedi anche la domenica e di assumere altri due bibliotecari, anche se diversi "
          "cittadini hanno detto che i fondi non basteranno per restaurare il vecchio edificio "
          "vicino al fiume.",
    "pt": "A câmara municipal reuniu-se na terça-feira à noite para discutir o novo orçamento das "
          "bibliotecas públicas. Depois de um longo debate, os vereadores concordaram em manter as "
          "filiais abertas aos domingos e contratar mais dois bibliotecários, embora vários "
          "moradores tenham dito que o dinheiro não chegaria para reformar o velho prédio perto do rio.",
    "nl": "De gemeenteraad kwam dinsdagavond bijeen om de nieuwe begroting voor de openbare "
          "bibliotheken te bespreken. Na een lang debat besloten de leden de vestigingen ook op "
          "zondag open te houden en twee extra bibliothecarissen aan te nemen, hoewel verschillende "
          "bewoners zeiden dat het geld niet genoeg zou zijn om het oude gebouw bij de rivier te "
          "herstellen.",
    "sv": "Kommunfullmäktige sammanträdde på tisdagskvällen för att diskutera den nya budgeten för "
          "de offentliga biblioteken. Efter en lång debatt enades ledamöterna om att hålla filialerna "
          "öppna på söndagar och anställa ytterligare två bibliotekarier, även om flera invånare sa "
          "att pengarna inte skulle räcka för att renovera den gamla byggnaden vid floden.",
    "da": "Byrådet mødtes tirsdag aften for at drøfte det nye budget for de offentlige biblioteker. "
          "Efter en lang debat blev medlemmerne enige om at holde filialerne åbne om søndagen og "
          "ansætte to bibliotekarer mere, selv om flere borgere sagde, at pengene ikke ville være "
          "nok til at istandsætte den gamle bygning ved åen.",
    "nb": "Bystyret møttes tirsdag kveld for å diskutere det nye budsjettet for de offentlige "
          "bibliotekene. Etter en lang debatt ble medlemmene enige om å holde filialene åpne på "
          "søndager og ansette to bibliotekarer til, selv om flere innbyggere sa at pengene ikke "
          "ville strekke til for å pusse opp den gamle bygningen ved elva.",
    "fi": "Kaupunginvaltuusto kokoontui tiistai-iltana keskustelemaan yleisten kirjastojen uudesta "
          "talousarviosta. Pitkän keskustelun jälkeen valtuutetut sopivat, että sivukirjastot "
          "pidetään auki myös sunnuntaisin ja että palvelukseen otetaan kaksi uutta kirjastonhoitajaa, "
          "vaikka monet asukkaat sanoivat, ettei raha riitä joen rannalla olevan vanhan rakennuksen "
          "korjaamiseen.",
    "pl": "Rada miasta zebrała się we wtorek wieczorem, aby omówić nowy budżet bibliotek publicznych. "
          "Po długiej debacie radni zgodzili się, aby filie były otwarte także w niedziele, oraz "
          "zatrudnić dwóch kolejnych bibliotekarzy, choć kilku mieszkańców mówiło, że pieniędzy nie "
          "wystarczy na remont starego budynku nad rzeką.",
    "cs": "Zastupitelstvo města se sešlo v úterý večer, aby projednalo nový rozpočet veřejných "
          "knihoven. Po dlouhé debatě se členové dohodli, že pobočky budou otevřené i v neděli a že "
          "přijmou další dva knihovníky, přestože několik obyvatel upozornilo, že peníze nebudou "
          "stačit na opravu staré budovy u řeky.",
    "hu": "A városi képviselő-testület kedd este ülésezett, hogy megvitassa a közkönyvtárak új "
          "költségvetését. Hosszú vita után a képviselők megállapodtak abban, hogy a fiókkönyvtárak "
          "vasárnap is nyitva tartanak, és két új könyvtárost vesznek fel, bár több lakos szerint a "
          "pénz nem lesz elég a folyóparti régi épület felújítására.",
    "ro": "Consiliul local s-a întrunit marți seara pentru a discuta noul buget al bibliotecilor "
          "publice. După o dezbatere lungă, consilierii au hotărât să țină filialele deschise și "
          "duminica și să angajeze încă doi bibliotecari, deși mai mulți locuitori au spus că banii "
          "nu vor ajunge pentru renovarea clădirii vechi de lângă râu.",
    "tr": "Belediye meclisi salı akşamı halk kütüphanelerinin yeni bütçesini görüşmek için toplandı. "
          "Uzun bir tartışmanın ardından üyeler, şubelerin pazar günleri de açık kalmasına ve iki "
          "kütüphaneci daha işe alınmasına karar verdi; ancak birçok vatandaş, paranın nehir "
          "kenarındaki eski binayı onarmaya yetmeyeceğini söyledi.",
    "ru": "Городской совет собрался во вторник вечером, чтобы обсудить новый бюджет публичных "
          "библиотек. После долгих споров депутаты решили оставить филиалы открытыми по воскресеньям "
          "и нанять ещё двух библиотекарей, хотя несколько жителей заявили, что денег не хватит на "
          "ремонт старого здания у реки.",
    "uk": "Міська рада зібралася у вівторок увечері, щоб обговорити новий бюджет публічних "
          "бібліотек. Після тривалої дискусії депутати погодилися залишити філії відкритими в неділю "
          "та найняти ще двох бібліотекарів, хоча кілька мешканців сказали, що грошей не вистачить на "
          "ремонт старої будівлі біля річки.",
    "bg": "Общинският съвет се събра във вторник вечерта, за да обсъди новия бюджет на обществените "
          "библиотеки. След дълъг дебат съветниците решиха клоновете да работят и в неделя и да бъдат "
          "назначени още двама библиотекари, въпреки че няколко жители казаха, че парите няма да "
          "стигнат за ремонта на старата сграда край реката.",
    "el": "Το δημοτικό συμβούλιο συνεδρίασε την Τρίτη το βράδυ για να συζητήσει τον νέο προϋπολογισμό "
          "των δημόσιων βιβλιοθηκών. Μετά από μακρά συζήτηση, τα μέλη συμφώνησαν να μένουν ανοιχτά τα "
          "παραρτήματα και τις Κυριακές και να προσληφθούν δύο ακόμη βιβλιοθηκονόμοι, αν και αρκετοί "
          "κάτοικοι είπαν ότι τα χρήματα δεν θα φτάσουν για την επισκευή του παλιού κτιρίου δίπλα στο ποτάμι.",
    "ar": "اجتمع المجلس البلدي مساء الثلاثاء لمناقشة الميزانية الجديدة للمكتبات العامة. وبعد نقاش طويل، "
          "اتفق الأعضاء على إبقاء الفروع مفتوحة أيام الأحد وتوظيف أمينين إضافيين للمكتبة، رغم أن عددا من "
          "السكان قالوا إن الأموال لن تكفي لترميم المبنى القديم قرب النهر.",
    "he": "מועצת העיר התכנסה ביום שלישי בערב כדי לדון בתקציב החדש של הספריות הציבוריות. לאחר דיון ארוך "
          "הסכימו החברים להשאיר את הסניפים פתוחים בימי ראשון ולהעסיק שני ספרנים נוספים, אף שכמה תושבים "
          "אמרו שהכסף לא יספיק לשיפוץ הבניין הישן ליד הנהר.",
    "fa": "شورای شهر سه‌شنبه شب برای بررسی بودجه جدید کتابخانه‌های عمومی تشکیل جلسه داد. پس از بحثی "
          "طولانی، اعضا توافق کردند که شعبه‌ها روزهای یکشنبه نیز باز بمانند و دو کتابدار دیگر استخدام "
          "شوند، هرچند چند نفر از ساکنان گفتند که این پول برای تعمیر ساختمان قدیمی کنار رودخانه کافی نیست.",
    "hi": "नगर परिषद ने मंगलवार शाम सार्वजनिक पुस्तकालयों के नए बजट पर चर्चा करने के लिए बैठक की। लंबी "
          "बहस के बाद सदस्यों ने शाखाओं को रविवार को भी खुला रखने और दो और पुस्तकालयाध्यक्षों को नियुक्त "
          "करने पर सहमति जताई, हालांकि कई निवासियों ने कहा कि नदी के पास की पुरानी इमारत की मरम्मत के "
          "लिए पैसा काफी नहीं होगा।",
    "zh": "市议会周二晚上召开会议，讨论公共图书馆的新预算。经过长时间的辩论，议员们同意周日继续开放各分馆，"
          "并再聘用两名图书管理员。不过，几位居民表示，这笔资金不足以修缮河边那座老建筑。",
    "ja": "市議会は火曜日の夜に会合を開き、公立図書館の新しい予算について話し合った。長い議論の末、議員たちは"
          "日曜日も分館を開館し、司書を二人追加で採用することで合意したが、何人かの住民は、その予算では川沿いの"
          "古い建物を修理するには足りないと述べた。",
    "ko": "시의회는 화요일 저녁 공공 도서관의 새 예산을 논의하기 위해 회의를 열었다. 긴 토론 끝에 의원들은 "
          "일요일에도 분관을 열고 사서 두 명을 추가로 채용하기로 합의했지만, 일부 주민들은 그 돈으로는 강가에 "
          "있는 오래된 건물을 고치기에 부족하다고 말했다.",
    "vi": "Hội đồng thành phố đã họp vào tối thứ Ba để thảo luận về ngân sách mới cho các thư viện công "
          "cộng. Sau một cuộc tranh luận dài, các thành viên đồng ý mở cửa các chi nhánh vào Chủ nhật và "
          "tuyển thêm hai thủ thư, mặc dù nhiều cư dân cho rằng số tiền này không đủ để sửa chữa tòa nhà "
          "cũ gần bờ sông.",
    "id": "Dewan kota bertemu pada Selasa malam untuk membahas anggaran baru perpustakaan umum. Setelah "
          "perdebatan panjang, para anggota sepakat untuk tetap membuka cabang pada hari Minggu dan "
          "merekrut dua pustakawan lagi, meskipun beberapa warga mengatakan bahwa dana tersebut tidak "
          "akan cukup untuk memperbaiki gedung tua di dekat sungai.",
    "th": "สภาเมืองประชุมกันเมื่อเย็นวันอังคารเพื่อหารือเกี่ยวกับงบประมาณใหม่ของห้องสมุดประชาชน "
          "หลังจากการถกเถียงกันเป็นเวลานาน สมาชิกตกลงที่จะเปิดสาขาในวันอาทิตย์และจ้างบรรณารักษ์เพิ่มอีกสองคน "
          "แม้ว่าชาวบ้านหลายคนจะบอกว่าเงินจำนวนนี้ไม่เพียงพอที่จะซ่อมแซมอาคารเก่าริมแม่น้ำ",
}

#: an English menu and footer, as an ungated page keeps them around its text
MENU = "Home\nNews\nSports\nBusiness\nContact us\nSign in\nSubscribe\nSearch"
FOOTER = "Privacy Policy\nTerms of Use\nCookie settings\n© 2024 Example Media. All rights reserved."
#: one short line per language (a title or a caption: a few words)
SHORT: dict[str, str] = {
    "en": "Library opening hours extended on Sundays",
    "fr": "Les bibliothèques ouvriront aussi le dimanche",
    "de": "Bibliotheken öffnen künftig auch sonntags",
    "es": "Las bibliotecas abrirán también los domingos",
    "ru": "Библиотеки будут открыты и по воскресеньям",
    "zh": "图书馆周日也将开放",
    "ja": "図書館は日曜日も開館します",
}
#: texts where no language should be claimed: menus, numbers, a name
NO_LANGUAGE = {
    "menu": "Home | News | Contact",
    "numbers": "1 2 3 4 5 … 42 Next »",
    "date": "2024-05-14 10:21",
}


def samples() -> list[tuple[str, str, str | None, str]]:
    """``(set, name, expected, text)`` for every made-up page."""
    out: list[tuple[str, str, str | None, str]] = []
    for lang, para in PARAGRAPHS.items():
        out.append(("paragraph", lang, lang, para))
        out.append(("with English menu", lang, lang, f"{MENU}\n{para}\n{FOOTER}"))
        first = para.split(". ")[0].split("。")[0].split("।")[0]
        out.append(("one sentence", lang, lang, first))
        out.append(("sentence in menus", lang, lang, f"{MENU}\n{first}\n{FOOTER}"))
    for lang, line in SHORT.items():
        out.append(("short line", lang, lang, line))
    for name, text in NO_LANGUAGE.items():
        out.append(("no language", name, None, text))
    return out
