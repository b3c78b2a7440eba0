"""``kitten eval`` (kitten/evaluation/report.py, histogram.py) and ``--format cleaneval``.

Hand-made gold and output folders in ``tmp_path``; the ``corpus``-marked test scores a
few real CLEANEVAL pages.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from lxml import etree

from kitten.cli import main
from kitten.config import Config
from kitten.evaluation.gold import parse_cleaneval
from kitten.evaluation.histogram import bin_counts
from kitten.evaluation.overlap import tokenize
from kitten.evaluation.report import evaluate, format_table, read_output
from kitten.page import Page
from kitten.pipeline import run_page

ROOT = Path(__file__).resolve().parent.parent
from _corpora import ABSENT, CORPORA  # noqa: E402  (the shared corpora: tests/_corpora.py)

# page -> (gold in the CLEANEVAL format, output or None for no output file), one per case
CASES = {
    "1": ("URL: http://a.org/\n<h>The cat\n<p>The cat sat on the mat.", "The cat.\nThe cat sat on the mat.\nHome."),
    "2": ("<p>Words of the gold.", "Nothing alike here."),
    "3": ("URL: http://only-the-url.org/\n", "Some output."),
    "4": ("<p>Text that was missed.", " - | "),
    "5": ("URL: http://empty.org/\n", ""),
    "6": ("<p>Text of a page the extractor failed on.", None),
}
EXPECTED_CASES = {"1": "ok", "2": "no_overlap", "3": "gold_empty", "4": "output_empty",
                  "5": "both_empty", "6": "failed"}


def write_folder(folder: Path, files: dict[str, str | None]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        if text is not None:
            (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def corpus(tmp_path: Path) -> tuple[Path, Path]:
    """``(gold folder, output folder)`` holding every boundary case."""
    gold = write_folder(tmp_path / "mycorpus" / "gold", {k: g for k, (g, _) in CASES.items()})
    out = write_folder(tmp_path / "runs" / "sys-a", {k: o for k, (_, o) in CASES.items()})
    return gold, out


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# --------------------------------------------------------------------------- scoring


def test_every_boundary_case_counted_apart(corpus):
    gold, out = corpus
    report = evaluate([out], gold)
    assert report.gold.format == "cleaneval" and report.gold.corpus == "mycorpus"
    (system,) = report.systems
    assert {page: s.case for page, s in system.scores} == EXPECTED_CASES
    m = system.summary
    assert m.cases == {case: 1 for case in EXPECTED_CASES.values()}
    # means over ok and no_overlap; page 1: 8 gold tokens, 9 output tokens, 8 shared
    assert m.precision == pytest.approx((8 / 9 + 0) / 2)
    assert m.recall == pytest.approx((1 + 0) / 2)
    f1 = 2 * (8 / 9) / (8 / 9 + 1)
    assert m.f1 == pytest.approx(f1 / 2)
    assert m.f1_all == pytest.approx((f1 + 1) / 6)  # both_empty counts 1


def test_several_systems_side_by_side(corpus, tmp_path, capsys):
    gold, out = corpus
    other = write_folder(tmp_path / "elsewhere" / "sys-a", {k: g for k, (g, _) in CASES.items()})
    code, stdout, _ = run(["eval", str(out), str(other), "--gold", str(gold)], capsys)
    assert code == 0
    rows = [line for line in stdout.splitlines() if line.startswith(("runs/", "elsewhere/"))]
    assert [r.split()[0] for r in rows] == ["runs/sys-a", "elsewhere/sys-a"]
    # the gold scored against itself: P = R = F1 = 1 where both have tokens; gold page 3 is empty
    perfect = rows[1].split()
    assert perfect[1:4] == ["1.000", "1.000", "1.000"]
    assert "6 documents of mycorpus" in stdout and "failed" in stdout


def test_outputs_found_below_the_folder_and_ambiguous_names_refused(corpus, tmp_path, capsys):
    gold, _ = corpus
    nested = write_folder(tmp_path / "nested" / "html", {"1": CASES["1"][1]})
    report = evaluate([tmp_path / "nested"], gold)
    assert dict((p, s.case) for p, s in report.systems[0].scores)["1"] == "ok"
    write_folder(tmp_path / "nested" / "copy", {"1": "again"})
    code, _, err = run(["eval", str(tmp_path / "nested"), "--gold", str(gold)], capsys)
    assert code == 2 and "two outputs for page '1'" in err


def test_pages_list_restricts_by_base_name_within_the_corpus(corpus, tmp_path, capsys):
    gold, out = corpus
    listed = tmp_path / "pages.txt"
    listed.write_text("# held out\nmycorpus/html/1.html\nmycorpus/html/2.html.gz\n"
                      "othercorpus/html/3.html\n4.htm\n\nmycorpus/html/99.html\n", encoding="utf-8")
    report = evaluate([out], gold, pages_file=listed)
    assert [p for p, _ in report.systems[0].scores] == ["1", "2", "4"]
    assert report.gold.unmatched == ("99",)
    code, stdout, err = run(["eval", str(out), "--gold", str(gold), "--pages", str(listed)], capsys)
    assert code == 0 and "3 documents of mycorpus" in stdout
    assert "1 listed pages of mycorpus have no gold file" in err


def test_json_has_every_document(corpus, tmp_path, capsys):
    gold, out = corpus
    path = tmp_path / "r" / "scores.json"
    assert run(["eval", str(out), "--gold", str(gold), "--json", str(path)], capsys)[0] == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    (system,) = data["systems"]
    assert system["name"] == "sys-a" and data["format"] == "cleaneval" and data["documents"] == 6
    docs = {d["page"]: d for d in system["documents"]}
    assert {p: d["case"] for p, d in docs.items()} == EXPECTED_CASES
    assert docs["1"]["intersection"] == 8 and docs["6"]["f1"] is None
    assert system["summary"]["cases"]["failed"] == 1


def test_histograms_are_svg(corpus, tmp_path, capsys):
    gold, out = corpus
    folder = tmp_path / "h"
    code, _, _ = run(["eval", str(out), str(gold), "--gold", str(gold), "--histograms", str(folder)], capsys)
    assert code == 0
    assert sorted(p.name for p in folder.iterdir()) == ["gold.svg", "sys-a.svg"]
    root = etree.parse(str(folder / "sys-a.svg"), etree.XMLParser(recover=False)).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    # F1 is defined for 5 pages (not the failed one), P for 4 (not output empty), R for 4 (not gold empty)
    assert "F1: n = 5" in texts and "precision: n = 4" in texts and "recall: n = 4" in texts
    assert "1 failed, not shown" in texts
    assert root.findall(".//{http://www.w3.org/2000/svg}rect")


def test_bin_counts_edges():
    assert bin_counts([0.0, 0.05, 0.999, 1.0], 20) == [1, 1] + [0] * 17 + [2]


def test_dragnet_comments_not_counted_and_format_guessed(tmp_path):
    gold = write_folder(tmp_path / "dragnet" / "gold",
                        {"7": "Main story text.\n!@#$%^&*()  COMMENTS\nFirst comment here."})
    out = write_folder(tmp_path / "k", {"7": "Main story text.\nFirst comment here."})
    report = evaluate([out], gold)
    assert report.gold.format == "dragnet"
    (_, score), = report.systems[0].scores
    assert (score.recall, score.precision) == (1.0, pytest.approx(3 / 6))
    plain = write_folder(tmp_path / "somegold", {"7": "<div><p>Main story text.</p></div>"})
    assert evaluate([out], plain).gold.format == "readability"
    assert evaluate([out], plain, "dragnet").gold.format == "dragnet"


# --------------------------------------------------------------------------- command line


@pytest.mark.parametrize("problem", ["missing output", "missing gold", "empty gold", "missing list",
                                     "list of another corpus"])
def test_bad_input_exits_2_with_a_message(corpus, tmp_path, capsys, problem):
    gold, out = corpus
    (tmp_path / "empty").mkdir()
    other = tmp_path / "other.txt"
    other.write_text("othercorpus/html/1.html\n", encoding="utf-8")
    argv, message = {
        "missing output": ([str(tmp_path / "nope"), "--gold", str(gold)], "no such output folder"),
        "missing gold": ([str(out), "--gold", str(tmp_path / "nogold")], "no such gold folder"),
        "empty gold": ([str(out), "--gold", str(tmp_path / "empty")], "no gold file"),
        "missing list": ([str(out), "--gold", str(gold), "--pages", str(tmp_path / "no.txt")],
                         "cannot read the page list"),
        "list of another corpus": ([str(out), "--gold", str(gold), "--pages", str(other)],
                                   "names no page of corpus 'mycorpus' (it names pages of: othercorpus)"),
    }[problem]
    code, stdout, err = run(["eval", *argv], capsys)
    assert code == 2 and stdout == ""
    assert err.startswith("kitten: ") and message in err


def test_usage_error_without_gold(capsys):
    with pytest.raises(SystemExit) as e:
        main(["eval", "x"])
    assert e.value.code == 2


# --------------------------------------------------------------------------- CLEANEVAL output

PAGE = ("<html><head><title>T</title></head><body><h1>Big title</h1>"
        "<p>First sentence here. Second one follows</p>"
        "<ul><li>Alpha item of a long list with words</li><li>Beta item with more words here</li></ul>"
        "<dl><dt>Term</dt><dd>Its definition text</dd></dl>"
        "<table><tr><td>A cell of a table with some text</td></tr></table>"
        "<p>How to write the &lt;p&gt; tag.</p></body></html>")


def test_cleaneval_renderer_markers():
    r = run_page(Page(PAGE.encode(), name="dir/page.html", url="http://example.org/p"), Config(), "cleaneval")
    assert r.status == "done" and r.output_suffix == ".txt"
    lines = r.output.splitlines()
    assert lines[0] == "URL: http://example.org/p"
    assert lines[1:] == [
        "<h>Big title.",
        "<p>First sentence here. Second one follows.",
        "<l>Alpha item of a long list with words.",
        "<l>Beta item with more words here.",
        "<l>Term: Its definition text.",
        "<p>A cell of a table with some text.",
        "<p>How to write the <p > tag.",
    ]
    # without a URL, the file name
    r = run_page(Page(PAGE.encode(), name="dir/page.html"), Config(), "cleaneval")
    assert r.output.startswith("URL: dir/page.html\n")
    # read back as CLEANEVAL: kinds, and the same text as the text target
    gold = parse_cleaneval(r.output)
    assert [b.kind for b in gold.blocks] == ["h", "p", "l", "l", "l", "p", "p"]
    text = run_page(Page(PAGE.encode()), Config(), "text").output
    assert tokenize(gold.text) == tokenize(text)


def test_cleaneval_output_scores_as_text_output(tmp_path, capsys):
    pages = {
        "1": PAGE,
        "2": "<p>Only a paragraph of words to read.</p><ol><li>one</li><li>two</li></ol>",
        "3": "<html><body></body></html>",  # nothing: the URL line alone
    }
    src = write_folder(tmp_path / "in", {})
    for name, html in pages.items():
        (src / f"{name}.html").write_text(html, encoding="utf-8")
    gold = write_folder(tmp_path / "mycorpus" / "gold", {
        "1": "<h>Big title\n<p>First sentence here. Second one follows.\n<p>How to write the tag.",
        "2": "URL: x\n<p>Only a paragraph of words.\n<l>one\n<l>two",
        "3": "URL: y\n",
    })
    for fmt in ("text", "cleaneval"):
        assert main(["extract", str(src), "-o", str(tmp_path / fmt), "-q", "--format", fmt]) == 0
    assert read_output(tmp_path / "cleaneval" / "3.txt") == ""
    capsys.readouterr()
    report = evaluate([tmp_path / "text", tmp_path / "cleaneval"], gold)
    text, cleaneval = report.systems
    assert text.scores == cleaneval.scores
    assert cleaneval.summary.cases == {"ok": 2, "both_empty": 1}
    assert format_table(report).count(f"{text.summary.f1:.3f}") == 2


@pytest.mark.corpus
def test_real_cleaneval_pages_same_f1_in_both_formats(tmp_path):
    if not (CORPORA / "cleaneval-final" / "html").is_dir():
        pytest.skip(ABSENT)
    heldout = (ROOT / "corpora" / "boilerplate" / "heldout.txt").read_text(encoding="utf-8").split()
    listed = tmp_path / "pages.txt"
    listed.write_text("\n".join(heldout[:8]), encoding="utf-8")
    paths = [str(CORPORA / line) for line in heldout[:8]]
    for fmt in ("text", "cleaneval"):
        assert main(["extract", *paths, "-o", str(tmp_path / fmt), "-q", "--format", fmt]) == 0
    report = evaluate([tmp_path / "text", tmp_path / "cleaneval"], CORPORA / "cleaneval-final" / "gold",
                      pages_file=listed)
    text, cleaneval = report.systems
    assert len(text.scores) == 8 and text.summary.cases.get("ok", 0) >= 6
    assert text.scores == cleaneval.scores
