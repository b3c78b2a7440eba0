"""Results for code (issue 21): tables as records, list items with their decisions,
``kitten.extract(..., output="json")``, and the README's example."""
from __future__ import annotations

import contextlib
import io
import json
import re
import sys
from pathlib import Path

import pytest

import kitten
from kitten.config import Config
from kitten.page import Page
from kitten.pipeline import run_page
from kitten.tables.records import SECTION_KEY, THEMA_KEY, column_keys, records_frame, table_records
from test_tables import _typed

ROOT = Path(__file__).resolve().parent.parent
from _corpora import ABSENT, CORPORA  # noqa: E402  (the shared corpora: tests/_corpora.py)

H, D, T, N = "header", "data", "thema", "neutral"


def test_records_keep_multi_row_headers_row_headers_thema_and_sections():
    html = """<table>
      <tr><th colspan="4">Medals</th></tr>
      <tr><th rowspan="2">Nation</th><th colspan="2">Medals</th><th></th></tr>
      <tr><th>Gold</th><th>Silver</th><th>Gold</th></tr>
      <tr><th colspan="4">Europe</th></tr>
      <tr><th>France</th><td>3</td><td rowspan="2">1</td><td>x</td></tr>
      <tr><th>Italy</th><td>2</td><td></td></tr>
      <tr><th colspan="4">Asia</th></tr>
      <tr><th>Japan</th><td>5</td><td>4</td><td>y</td></tr>
    </table>"""
    types = [[T], [H, H, H], [H, H, H], [H], [H, D, D, D], [H, D, D], [H], [H, D, D, D]]
    records = table_records(_typed(html, types))
    assert records == [
        {THEMA_KEY: "Medals", SECTION_KEY: "Europe", "Nation": "France", "Medals / Gold": "3",
         "Medals / Silver": "1", "Gold": "x"},
        {THEMA_KEY: "Medals", SECTION_KEY: "Europe", "Nation": "Italy", "Medals / Gold": "2",
         "Medals / Silver": "1", "Gold": ""},  # a rowspan gives its value to each row
        {THEMA_KEY: "Medals", SECTION_KEY: "Asia", "Nation": "Japan", "Medals / Gold": "5",
         "Medals / Silver": "4", "Gold": "y"},
    ]


def test_record_keys_number_repeated_headers_and_name_columns_without_one():
    html = """<table><tr><th>Name</th><th>Name</th><th></th></tr>
      <tr><td>a</td><td>b</td><td>c</td></tr><tr><td>d</td><td>e</td></tr></table>"""
    g = _typed(html, [[H, H, N], [D, D, D], [D, D]])
    assert column_keys(g, range(0, 1)) == ["Name", "Name (2)", "column 3"]
    assert table_records(g) == [{"Name": "a", "Name (2)": "b", "column 3": "c"},
                                {"Name": "d", "Name (2)": "e", "column 3": None}]  # no cell: None


def test_records_frame_or_a_one_line_error(monkeypatch):
    records = [{"a": "1", "b": "x"}, {"a": "2", "b": "y"}]
    if _has_pandas():
        frame = records_frame(records)
        assert list(frame.columns) == ["a", "b"] and frame["b"].tolist() == ["x", "y"]
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="needs pandas: pip install pandas"):
        records_frame(records)


def _has_pandas() -> bool:
    try:
        import pandas  # noqa: F401
    except ImportError:
        return False
    return True


PAGE = b"""<title>Sprint</title><h1>Women's sprint</h1>
<table><caption>Qualifying</caption>
<tr><th>Rank</th><th>Name</th><th>Time (s)</th></tr>
<tr><td>1</td><td>Anna Meares (AUS)</td><td>11.291</td></tr>
<tr><td>2</td><td>Guo Shuang (CHN)</td><td>11.450</td></tr>
<tr><td>3</td><td>Kristina Vogel (GER)</td><td>11.510</td></tr></table>
<ul><li><a href="/">Home</a></li><li><a href="/results">Results</a></li>
<li>* An item of prose that stays, whatever its links.</li></ul>"""


def test_extract_json_is_the_format_json_output():
    page = kitten.extract(PAGE, output="json")
    assert page == json.loads(run_page(Page(PAGE, None, None), Config(), "json").output)
    assert kitten.extract(PAGE) == kitten.extract(PAGE, output="text")
    table = page["tables"][0]
    assert table["class"] == "data" and len(table["records"]) == 3
    assert table["records"][2]["Name"] == "Kristina Vogel (GER)"
    assert page["lists"][0]["item_texts"] == [
        {"text": "Home", "decision": "link-item-removed"},
        {"text": "Results", "decision": "link-item-removed"},
        {"text": "* An item of prose that stays, whatever its links.", "decision": "kept", "bullet": True}]


def test_a_layout_table_has_no_records():
    page = kitten.extract("<table><tr><td>Home</td><td>News</td></tr></table><p>Text.</p>", output="json")
    assert [(t["class"], t["records"]) for t in page["tables"]] == [("layout", [])]


def test_extract_json_of_pages_not_done_and_unknown_outputs():
    assert kitten.extract(b"", output="json") == {
        "status": "excluded", "reason": "the page is empty or white space only", "text": None}
    with pytest.raises(ValueError, match="output must be one of 'text', 'json', not 'xml'"):
        kitten.extract(PAGE, output="xml")


def test_readme_example_runs_and_prints_what_it_says():
    """The first ``python`` block of the "Results for code" section (docs/output.md) runs,
    and each ``# ...`` line right after a ``print`` is a line it prints."""
    readme = (ROOT / "docs" / "output.md").read_text(encoding="utf-8")
    section = readme.split("## Results for code", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    if "records_frame" in code and not _has_pandas():
        pytest.skip("pandas not installed")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    printed = out.getvalue().splitlines()
    lines = code.splitlines()
    expected = [b[2:] for a, b in zip(lines, lines[1:]) if a.lstrip().startswith("print(") and b.startswith("# ")]
    assert expected and all(e in printed for e in expected), (expected, printed)


@pytest.mark.skipif(not (CORPORA / "wikipedia-tables" / "pages").is_dir(), reason=ABSENT)
def test_records_of_a_wikipedia_table_equal_its_csv():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from table_records import compare, find_table, read_csv
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    base = CORPORA / "wikipedia-tables"
    rows = read_csv(base / "tables" / "200" / "0.csv")
    result = run_page(Page((base / "pages" / "200" / "0.html").read_bytes(), None, None), Config(), "text")
    table = find_table(result.products["tables"], rows)
    assert table.label == "data"
    records = table.records()
    assert records[0] == {"Year": "1969", "Title": "Renaissance", "Chart-Positions / UK[9]": "60",
                          "Chart-Positions / US": "–", "Chart-Positions / NL[10]": "10", "Comments": ""}
    assert compare(rows, records) is None
