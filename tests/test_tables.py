"""Tables step: grid model and its bounds, classifiers, heuristics, clauses, JSON output."""
from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

import pytest

import kitten
from kitten.config import Config, TablesConfig
from kitten.log import PageLog
from kitten.normalizer import to_xhtml
from kitten.structure import build_document, parse_xhtml
from kitten.tables import models, read_tables
from kitten.tables.clauses import build_clauses
from kitten.tables.collect import leaf_tables
from kitten.tables.collect import fill_text
from kitten.tables.features import view
from kitten.tables.grid import GridTooLarge, build_grid
from kitten.tables.heuristics import (fix_types, header_row,
                                      narrow_thema, numeric_th, repeated_header, value_row)
from kitten.tables.model import model_from_dict

FIXTURES = Path(__file__).parent / "fixtures" / "tables"
from _corpora import ABSENT, AVAILABLE, CORPORA, fixture_pages  # noqa: E402  (the shared corpora: tests/_corpora.py)


def _doc(html: str):
    config = Config()
    return build_document(parse_xhtml(to_xhtml(html, config.normalize, PageLog())), config.structure, PageLog())


def _grid(html: str, **bounds):
    tb = leaf_tables(_doc(html))[0]
    return fill_text(build_grid(tb.element, **bounds), tb)


def _typed(html: str, types: list[list[str]]):
    """A grid whose cells get ``types`` row by row (cells in the order they start)."""
    g = _grid(html)
    by_row: dict[int, list] = {}
    for c in sorted(g.cells, key=lambda c: (c.row, c.col)):
        by_row.setdefault(c.row, []).append(c)
    for r, row_types in enumerate(types):
        for c, t in zip(by_row.get(r, []), row_types):
            c.type = t
    return g


def _lines(html: str, config: Config | None = None) -> list[str]:
    return kitten.extract(html, config=config).splitlines()


# ---- grid model ----------------------------------------------------------------------------

def test_grid_places_spans_as_the_html_table_model():
    g = _grid("<table><tr><td rowspan=2>a</td><td colspan=2>b</td></tr><tr><td>c</td><td>d</td></tr></table>")
    assert (g.n_rows, g.n_cols) == (2, 3)
    assert [(c.text, c.row, c.col, c.rowspan, c.colspan) for c in g.cells] == [
        ("a", 0, 0, 2, 1), ("b", 0, 1, 1, 2), ("c", 1, 1, 1, 1), ("d", 1, 2, 1, 1)]
    assert g.slots[1][0].text == "a"


_TABLE_PAGES = [
    "<table><caption>Sizes <b>2024</b></caption><thead><tr><th>Name</th><th>A</th></tr></thead><tbody>"
    "<tr><th>x</th><td>1<!--c--></td></tr><tr><td><p>one</p><p>two</p></td></tr><tr></tr></tbody>"
    "<tbody><tr><td>a<br>b</td><td><ul><li>i</li><li>j</li></ul> tail</td><td>\u00a0 3 </td></tr></tbody>"
    "<tfoot><tr><td>Source: us</td></tr></tfoot></table>",
    "<table><tr><th>Name</th>" + "".join(f"<th>C{c}</th>" for c in range(6)) + "</tr>"
    + "".join(f"<tr><th>Item {r}</th>" + "".join(f"<td>{r * c}</td>" for c in range(6 - r % 3)) + "</tr>"
              for r in range(12)) + "</table><table><tr><td>a</td><td colspan=2>b</td></tr></table>",
]


def _table_pages() -> list[str]:
    """Pages with tables: real ones (the shared Wikipedia table pages, else the generated
    stand-ins) and made-up ones (captions, row groups, ragged and empty rows, a cell of
    paragraphs, of a list, of a line break, comments, a span)."""
    paths = sorted((CORPORA / "wikipedia-tables").rglob("*.html"))[:15] if AVAILABLE else fixture_pages()
    return [p.read_text(encoding="utf-8") for p in paths] + _TABLE_PAGES


def test_a_grid_without_spans_is_the_grid_placed_cell_by_cell():
    """``build_grid`` gives a table without spans the grid of ``_plain_grid`` (made in C
    loops): the same as ``_placed_grid`` (cell by cell, the HTML table model), cell for
    cell and slot for slot."""
    from kitten.tables.grid import _HAS_SPANS, _placed_grid, _plain_grid, row_elements

    def fields(g):
        cells = [(c.row, c.col, c.rowspan, c.colspan, c.tag, c.section, c.element, c.text, c.type, c.index)
                 for c in g.cells]
        slots = [[None if c is None else c.index for c in row] for row in g.slots]
        return cells, slots, g.n_rows, g.n_cols, g.rows, g.caption, g.clipped, g.spanning

    plain = 0
    for html in _table_pages():
        for tb in leaf_tables(_doc(html)):
            rows = row_elements(tb.element)
            if _HAS_SPANS(tb.element):
                continue
            grid = _plain_grid(tb.element, rows, 100)
            assert fields(grid) == fields(_placed_grid(tb.element, rows, 100, 100)) == fields(build_grid(tb.element))
            if grid.n_cols > 1:
                with pytest.raises(GridTooLarge):
                    _plain_grid(tb.element, rows, grid.n_cols - 1)
            plain += 1
    assert plain > 10


def test_the_cells_of_a_run_of_blocks_are_read_as_block_by_block(monkeypatch):
    """``leaf_tables`` reads a run of plain cell blocks in C loops (``_add_cells``): the
    same texts, line breaks, captions and block ranges as block by block."""
    import kitten.tables.collect as collect

    def found(html):
        return [(tb.element, tb.first, tb.last, tb.index, tb.embedded, list(tb.cell_text.items()),
                 list(tb.cell_breaks.items()), tb.caption) for tb in leaf_tables(doc)]

    runs = 0
    for html in _table_pages():
        doc = _doc(html)
        fast = found(html)
        with monkeypatch.context() as m:
            m.setattr(collect, "_add_cells", lambda tb, run: False)
            assert found(html) == fast
        runs += bool(fast)
    assert runs > 10


def test_rowspan_zero_extends_to_the_end_of_its_row_group():
    g = _grid("<table><thead><tr><th>h</th><th>k</th></tr></thead><tbody><tr><td rowspan=0>x</td><td>1</td></tr>"
              "<tr><td>2</td></tr><tr><td>3</td></tr></tbody></table>")
    x = next(c for c in g.cells if c.text == "x")
    assert (x.row, x.rowspan) == (1, 3)
    assert [c.section for c in g.cells[:2]] == ["thead", "thead"]


def test_huge_spans_are_clipped_and_cheap():
    g = _grid("<table><tr><td colspan=1000>a</td></tr>" + "<tr><td rowspan=65534>b</td><td>c</td></tr>" * 50
              + "</table>")
    assert (g.n_rows, g.n_cols) == (51, 100) and g.clipped == 51
    assert g.cells[1].rowspan == 50  # clipped at the end of its row group
    html = "<table>" + "<tr><td rowspan=65534 colspan=1000>a</td><td>b</td></tr>" * 200 + "</table>"
    t0 = time.perf_counter()
    lines = _lines(html)
    assert time.perf_counter() - t0 < 3
    assert lines.count("a.") == 200 and lines.count("b.") == 200  # past the bounds: read linearly


def test_tables_past_the_bounds_are_read_linearly_and_logged():
    html = "<table>" + "".join(f"<tr><td>r{i}</td><td>{i}</td></tr>" for i in range(30)) + "</table>"
    with pytest.raises(GridTooLarge):
        _grid(html, max_rows=10)
    config = Config.from_dict({"tables": {"max_rows": 10}})
    lines = _lines(html, config)
    assert "r0." in lines and "29." in lines
    log = PageLog()
    out = read_tables(_doc(html), config.tables, log)
    assert out.tables[0].label == "too-large" and out.tables[0].text.startswith("r0 | 0 | r1")
    assert "table-too-large" in log.kinds()


def test_only_leaf_tables_are_read_and_outer_tables_stay_linear():
    inner = "<table><tr><th>Name</th><th>Age</th></tr><tr><td>Ann</td><td>31</td></tr><tr><td>Bob</td><td>45</td></tr></table>"
    doc = _doc(f"<table><tr><td>Outer text</td><td>{inner}</td></tr></table>")
    found = leaf_tables(doc)
    assert len(found) == 1 and found[0].embedded
    out = read_tables(doc, TablesConfig(), PageLog())
    texts = [b.text() for b in out.blocks]
    assert "Outer text" in texts


# ---- reading: the paper's Figure 6 and other clauses -----------------------------------------

FIGURE6 = [
    "Dimensions comparison ;; DS Lite ; Length: 133.0mm / PSP ; Length: 170.0mm.",
    "Dimensions comparison ;; DS Lite ; Width: 73.9mm / Original DS ; Width: 84.7mm / PSP ; Width: 74.0mm.",
    "Dimensions comparison ;; DS Lite ; Depth: 21.5mm / Original DS ; Depth: 28.9mm / PSP ; Depth: 23.0mm.",
    "Dimensions comparison ;; DS Lite ; Weight: 218g / Original DS ; Weight: 275g / PSP ; Weight: 260g.",
]


def test_figure6_gives_exactly_its_four_sentences():
    lines = _lines((FIXTURES / "figure6.html").read_text(encoding="utf-8"))
    assert lines == ["Handheld consoles compared.", "The three consoles differ mostly in size.", *FIGURE6,
                     "Source: manufacturers."]


def test_clauses_join_multi_level_headers_and_skip_empty_data():
    g = _typed("<table><tr><td>Year</td><td colspan=2>Chart positions</td></tr>"
               "<tr><td></td><td>UK</td><td>US</td></tr><tr><td>1969</td><td>60</td><td></td></tr></table>",
               [["header", "header"], ["neutral", "header", "header"], ["data", "data", "neutral"]])
    assert [c.text for c in build_clauses(g, TablesConfig())] == ["Year: 1969 / Chart positions - UK: 60"]


def test_each_value_is_bound_to_its_rows_entity():
    """The paper's form: column header ; row header: value (the row's entity is a header,
    a td or a th), after the entity with the name of its column."""
    g = _typed("<table><tr><th>Rank</th><th>Name</th><th>Time (s)</th></tr>"
               "<tr><td>1</td><td>Anna Meares (AUS)</td><td>11.291</td></tr></table>",
               [["header"] * 3, ["data", "header", "data"]])
    assert [c.text for c in build_clauses(g, TablesConfig())] == [
        "Name: Anna Meares (AUS) / Rank ; Anna Meares (AUS): 1 / Time (s) ; Anna Meares (AUS): 11.291"]
    g = _typed("<table><tr><th>Country</th><th>Capital</th></tr><tr><th>France</th><td>Paris</td></tr></table>",
               [["header", "header"], ["header", "data"]])
    assert [c.text for c in build_clauses(g, TablesConfig())] == ["Country: France / Capital ; France: Paris"]


def test_section_headers_prefix_the_rows_below_legends_stand_alone_repeats_go():
    g = _typed("<table><tr><th colspan=2>Results</th></tr><tr><th>Team</th><th>Points</th></tr>"
               "<tr><td colspan=2>Group A</td></tr><tr><th>Reds</th><td>7</td></tr>"
               "<tr><td colspan=2>Group B</td></tr><tr><th>Blues</th><td>5</td></tr>"
               "<tr><th>Team</th><th>Points</th></tr><tr><th>Greens</th><td>4</td></tr>"
               "<tr><td colspan=2>* after extra time</td></tr></table>",
               [["thema"], ["header", "header"], ["header"], ["header", "data"], ["header"], ["header", "data"],
                ["finalNonImportant", "finalNonImportant"], ["header", "data"], ["finalImportant"]])
    clauses = build_clauses(g, TablesConfig())
    assert [(c.kind, c.text) for c in clauses] == [
        ("row", "Results ;; Group A ;; Team: Reds / Points ; Reds: 7"),
        ("row", "Results ;; Group B ;; Team: Blues / Points ; Blues: 5"),
        ("row", "Results ;; Group B ;; Team: Greens / Points ; Greens: 4"), ("note", "* after extra time")]
    from kitten.tables.clauses import unused_cells
    assert unused_cells(g, clauses) == []  # the repeated header row is not written


def test_a_header_ending_with_a_colon_does_not_double_it():
    g = _typed("<table><tr><td>Start:</td><td>$100</td></tr><tr><td>End:</td><td>$90</td></tr></table>",
               [["header", "data"], ["header", "data"]])
    assert [c.text for c in build_clauses(g, TablesConfig())] == ["Start: $100", "End: $90"]


def test_a_big_table_gives_every_row_its_clause_with_its_headers():
    """Issue 39's page (``benchmarks/growth.py``, ``words``): 1,900 rows of 50 columns, a
    ``th`` header row and a ``th`` naming each row, numbers and words in the other cells.
    Every row is a clause (a sentence), in order, each value bound to its column's header and to the
    row's entity, the entity named by its column's header."""
    words = ("red", "green", "blue", "yes", "no", "north", "south", "open", "closed", "high")

    def value(r: int, c: int) -> str:
        return words[(r + c) % len(words)] if c % 3 == 0 else str(r * c)

    head = "<tr><th>Name</th>" + "".join(f"<th>Column {c}</th>" for c in range(49)) + "</tr>"
    body = "".join(f"<tr><th>Item {r}</th>" + "".join(f"<td>{value(r, c)}</td>" for c in range(49)) + "</tr>"
                   for r in range(1900))
    lines = _lines(f"<html><body><table>{head}{body}</table></body></html>")
    assert lines == [f"Name: Item {r} / " + " / ".join(f"Column {c} ; Item {r}: {value(r, c)}" for c in range(49)) + "."
                     for r in range(1900)]


def test_cells_no_clause_carries_are_kept():
    from kitten.tables.clauses import unused_cells

    g = _typed("<table><tr><th>A</th><th>B</th><th>C</th></tr><tr><td>1</td><td>see notes</td><td>-</td></tr></table>",
               [["header", "header", "header"], ["data", "neutral", "neutral"]])
    clauses = build_clauses(g, TablesConfig())
    assert [c.text for c in clauses] == ["A: 1"]
    assert [c.text for c in unused_cells(g, clauses)] == ["B", "C", "see notes"]


def test_separators_are_settings():
    g = _typed("<table><tr><th></th><th>A</th></tr><tr><th>x</th><td>1</td></tr></table>",
               [["neutral", "header"], ["header", "data"]])
    config = TablesConfig(header_separator=" | ", value_separator=" = ")
    assert [c.text for c in build_clauses(g, config)] == ["A | x = 1"]


# ---- heuristics ------------------------------------------------------------------------------

def test_the_values_of_a_row_with_one_row_header_read_as_value_by_value():
    """``_values`` (the values of a row whose headers are all left of them, the separators
    joined once per row) writes each as the general case does: ``column ; row: value``,
    without the column or the row header where it is empty, the text alone with neither."""
    from kitten.tables.clauses import _values

    def one(column, row_header, text):
        label = column + " ; " + row_header if column and row_header else column or row_header
        return f"{label}: {text}" if label else text

    columns, texts = ["Age", "", "Town - Now", ""], ["3", "x", "Oslo", ""]
    for row_header in ("Anna", "", "A - B"):
        assert _values(columns, iter(texts), row_header, " ; ", ": ") == \
            [one(c, row_header, t) for c, t in zip(columns, texts)]


def test_thema_on_a_narrow_cell_is_a_header():
    v = view(_typed("<table><tr><td>a</td><td>b</td><td>c</td></tr><tr><td>1</td><td>2</td><td>3</td></tr></table>",
                    [["thema", "header", "header"], ["data", "data", "data"]]))
    assert narrow_thema(v) == 1 and v.grid.cells[0].type == "header"


def test_a_repeated_header_keeps_the_column_headers_above_it():
    """A header row repeated under a section row, one column renamed: the repeated cells
    (finalNonImportant) leave their columns the headers of the first header row."""
    g = _typed("<table><tr><th>Year</th><th>Film</th><th>Role</th></tr><tr><td>1985</td><td>King David</td>"
               "<td>Tamar</td></tr><tr><td colspan=3>Television</td></tr><tr><th>Year</th><th>Title</th>"
               "<th>Role</th></tr><tr><td>1982</td><td>Labyrinth</td><td>Christine</td></tr></table>",
               [["header"] * 3, ["data", "header", "data"], ["header"],
                ["finalNonImportant", "header", "finalNonImportant"], ["data", "header", "data"]])
    assert [c.text for c in build_clauses(g, TablesConfig())] == [
        "Film: King David / Year ; King David: 1985 / Role ; King David: Tamar",
        "Television ;; Title: Labyrinth / Year ; Labyrinth: 1982 / Role ; Labyrinth: Christine"]


def test_a_row_of_headers_with_a_missing_value_is_no_header_row():
    """Values the classifier took for headers, with an empty data cell right of them, do
    not rename the columns below; an empty cell left of the headers is a corner, and a
    lone header over empty cells a section header."""
    from kitten.tables.clauses import header_rows

    g = _typed("<table><tr><th>Date</th><th>Opponent</th><th>Notes</th></tr>"
               "<tr><td>13 July</td><td>Albatros</td><td></td></tr>"
               "<tr><td>3 August</td><td>Fokker</td><td>shared</td></tr></table>",
               [["header"] * 3, ["header", "header", "data"], ["header", "data", "data"]])
    assert header_rows(g) == [True, False, False]
    assert [c.text for c in build_clauses(g, TablesConfig())] == [
        "Date: 3 August / Opponent ; 3 August: Fokker / Notes ; 3 August: shared"]
    g = _typed("<table><tr><th>Rank</th><th colspan=2>Level</th></tr><tr><td></td><td>m</td><td>ft</td></tr>"
               "<tr><td>1</td><td>24.55</td><td>80.5</td></tr></table>",
               [["header", "header"], ["data", "header", "header"], ["data"] * 3])
    assert header_rows(g) == [True, True, False]
    g = _typed("<table><tr><th>Town</th><th>Code</th></tr><tr><td>01: Ain</td><td></td></tr>"
               "<tr><td>Belley</td><td>LFKY</td></tr></table>",
               [["header"] * 2, ["header", "data"], ["header", "data"]])
    assert header_rows(g) == [True, True, False]


def test_a_body_row_of_headers_with_a_missing_value_becomes_values():
    html = ("<table><tr><th>Date</th><th>Opponent</th><th>Location</th><th>Notes</th></tr>"
            "<tr><td>26 June</td><td>Pfalz</td><td>Albert</td><td></td></tr>"
            "<tr><td>13 July</td><td>Albatros</td><td>Poperinghe</td><td></td></tr>"
            "<tr><td>5 Sept</td><td>Fokker</td><td>Roye</td><td>shared</td></tr></table>")
    v = view(_typed(html, [["header"] * 4, ["header", "data", "data", "data"], ["header"] * 3 + ["data"],
                           ["header", "data", "data", "data"]]))
    assert value_row(v) == 2
    assert [c.type for c in v.grid.row_cells(2)] == ["header", "data", "data", "data"]
    assert v.grid.cells[0].type == "header"  # the top row is left alone
    # an empty cell left of the headers is a corner: a header row stays
    v = view(_typed(html, [["header"] * 4, ["header", "data", "data", "data"], ["data"] + ["header"] * 3,
                           ["header", "data", "data", "data"]]))
    assert value_row(v) == 0


def test_one_data_cell_in_a_row_of_headers_becomes_a_header():
    v = view(_typed("<table><tr><td>Name</td><td>Town</td><td>Team</td></tr>"
                    "<tr><td>Ann</td><td>Ely</td><td>Reds</td></tr></table>",
                    [["header", "data", "header"], ["data", "data", "data"]]))
    assert header_row(v) == 1 and v.grid.cells[1].type == "header"
    # a number among headers stays data
    v = view(_typed("<table><tr><td>Name</td><td>1999</td><td>Team</td></tr><tr><td>a</td><td>b</td><td>c</td></tr></table>",
                    [["header", "data", "header"], ["data", "data", "data"]]))
    assert header_row(v) == 0


def test_numbers_in_th_below_numeric_data_are_data():
    html = ("<table><tr><th>Party</th><th>Votes</th><th>%</th></tr>"
            "<tr><td>Liberal</td><td>2,554</td><td>28.97</td></tr><tr><td>Green</td><td>1,732</td><td>19.64</td></tr>"
            "<tr><th>Total valid votes</th><th>4,286</th><th>100.00</th></tr></table>")
    types = [["header"] * 3, ["data"] * 3, ["data"] * 3, ["header"] * 3]
    v = view(_typed(html, types))
    assert numeric_th(v) == 2
    assert [c.type for c in v.grid.row_cells(3)] == ["header", "data", "data"]
    # numbers as column headers (years above the data) stay headers
    years = ("<table><tr><th>Team</th><th>1999</th><th>2000</th></tr>"
             "<tr><td>Reds</td><td>4</td><td>7</td></tr></table>")
    v = view(_typed(years, [["header"] * 3, ["data"] * 3]))
    assert numeric_th(v) == 0


def test_a_header_row_written_again_inside_the_table_is_final_non_important():
    """The header row repeated in a long table's body is finalNonImportant (the paper's
    definition), its cells that name other columns stay as typed; a body row that only
    shares one text with the headers is left alone."""
    html = ("<table><tr><th>Season</th><th>Club</th><th>League</th><th>Cup</th><th>Goals</th></tr>"
            "<tr><td>2001</td><td>Leeds</td><td>Premier</td><td>FA</td><td>4</td></tr>"
            "<tr><th>Season</th><th>Club</th><th>League</th><th>Cup</th><th>Total</th></tr>"
            "<tr><td>2002</td><td>Club</td><td>First</td><td>Cup</td><td>7</td></tr></table>")
    body = ["header", "data", "data", "data", "data"]
    v = view(_typed(html, [["header"] * 5, body, ["header"] * 5, body]))
    assert repeated_header(v) == 4
    assert [c.type for c in v.grid.row_cells(2)] == ["finalNonImportant"] * 4 + ["header"]
    assert [c.type for c in v.grid.row_cells(3)] == body
    assert [c.type for c in v.grid.row_cells(0)] == ["header"] * 5


def test_fix_types_names_the_rules_that_changed_something():
    v = view(_typed("<table><tr><td>a</td><td>b</td><td>c</td></tr><tr><td>1</td><td>2</td><td>3</td></tr></table>",
                    [["thema", "header", "header"], ["data", "data", "data"]]))
    assert fix_types(v) == ["narrow_thema"]
    # an empty cell under a header is a missing value: it stays data
    v = view(_typed("<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td></td></tr></table>",
                    [["header", "header"], ["data", "data"]]))
    assert fix_types(v) == [] and v.grid.cells[3].type == "data"


# ---- classifiers -------------------------------------------------------------------------------

def test_models_load_from_json_without_scikit_learn():
    table_model, cell_model = models()
    assert set(table_model.classes) == {"data", "layout"}
    assert "header" in cell_model.classes
    data = json.loads(Path(kitten.__file__).resolve().parent.parent.joinpath("classifiers", "tables.json").read_text())
    assert data["kind"] in ("tree", "forest") and "cross_validation" in data
    with pytest.raises(ValueError, match="retrain"):
        model_from_dict(data, ("not", "the", "features"))


def test_a_tree_predicts_from_its_json():
    tree = {"features": ["x"], "classes": ["data", "layout"], "trees": [
        {"left": [1, -1, -1], "right": [2, -1, -1], "feature": [0, 0, 0], "threshold": [0.5, 0, 0],
         "value": [[0.5, 0.5], [1.0, 0.0], [0.0, 1.0]]}]}
    m = model_from_dict(tree)
    assert m.predict([0.0]) == ("data", 1.0) and m.predict([1.0]) == ("layout", 1.0)


def test_the_c_forest_gives_the_python_evaluators_numbers():
    """``Model.proba_many`` and ``predict_many`` (C, ``kitten/tables/_forest.c``) equal
    ``python_proba`` and its first highest class number for number on the cells and
    tables of real pages (both shipped models)."""
    from kitten.tables.features import cell_features, table_features

    table_model, cell_model = models()
    if table_model.packed is None:
        pytest.skip("kitten.tables._forest is not built")
    pages = sorted((CORPORA / "wikipedia-tables").rglob("*.html"))[:15] if AVAILABLE else fixture_pages()
    tables = cells = 0
    for page in pages:
        doc = build_document(parse_xhtml(to_xhtml(page.read_text(encoding="utf-8"), Config().normalize, PageLog())),
                             Config().structure, PageLog())
        for tb in leaf_tables(doc):
            grid = build_grid(tb.element, 2000, 100, 100)
            fill_text(grid, tb)
            v = view(grid)
            x = table_features(v, tb.embedded)
            assert table_model.proba_many([x]) == [table_model.python_proba(x)]
            xs = cell_features(v, tb.cell_breaks)
            stage1 = getattr(cell_model, "stage1", cell_model)  # a forest, or the first of two stacked
            python = [stage1.python_proba(c) for c in xs]
            assert stage1.proba_many(xs) == python
            # predict (C: no list per vector) is the first class of the highest probability
            assert stage1.predict_many(xs) == [(stage1.classes[p.index(max(p))], max(p)) for p in python]
            tables, cells = tables + 1, cells + len(xs)
    assert (tables > 50 and cells > 2000) if AVAILABLE else (tables > 20 and cells > 500)
    with pytest.raises(ValueError, match="shorter"):
        stage1.proba_many([[0.0]])


def test_the_c_forest_reads_blocks_of_rows_as_the_python_evaluator():
    """The C evaluator walks each tree over a block of rows at a time: a big table's cells
    (more than one block, the last one partial), vectors given as tuples or with ints, and
    one vector alone get ``python_proba``'s numbers; a value that is no number is an error
    wherever it stands."""
    import random

    _, cell_model = models()
    stage1 = getattr(cell_model, "stage1", cell_model)
    if stage1.packed is None:
        pytest.skip("kitten.tables._forest is not built")
    html = "<table>" + "<tr>" + "".join(f"<th>Column {c}</th>" for c in range(9)) + "</tr>" + "".join(
        "<tr>" + "".join(f"<td>{r * c}</td>" for c in range(9)) + "</tr>" for r in range(70)) + "</table>"
    tb = leaf_tables(_doc(html))[0]
    grid = fill_text(build_grid(tb.element), tb)
    from kitten.tables.features import cell_features
    xs = cell_features(view(grid), tb.cell_breaks)
    assert len(xs) > 600 and len(xs) % 256
    rng = random.Random(7)
    xs += [[rng.choice((0, 1, rng.random(), rng.uniform(-5, 100))) for _ in x] for x in xs[:300]]
    python = [stage1.python_proba(x) for x in xs]
    assert stage1.proba_many(xs) == python
    assert stage1.proba_many([tuple(x) for x in xs]) == python
    assert stage1.predict_many(xs) == [(stage1.classes[p.index(max(p))], max(p)) for p in python]
    assert [stage1.proba(x) for x in xs[:20]] == python[:20]
    bad = [list(x) for x in xs[:300]]
    bad[280][-1] = "x"
    with pytest.raises(TypeError):
        stage1.proba_many(bad)


def test_the_c_forest_reads_feature_columns_of_lists_as_of_arrays():
    """``predict_columns`` reads a feature column's values and indexes from lists (numbers,
    ints, bools) as from ``array("d")`` and ``array("i")``: the same classes and
    probabilities as the Python evaluator of the expanded vectors; an index that is no
    int, outside its values, or a column of another length is an error."""
    from array import array

    from kitten.tables.model import expand_columns

    tree = {"left": [1, 3, -1, -1, -1], "right": [2, 4, -1, -1, -1], "feature": [0, 1, 0, 0, 0],
            "threshold": [0.5, 2.5, 0.0, 0.0, 0.0],
            "value": [[], [], [0.25, 0.75], [1.0, 0.0], [0.0, 1.0]]}
    m = model_from_dict({"kind": "forest", "features": ["a", "b", "c"], "classes": ["x", "y"], "trees": [tree] * 3})
    if m.packed is None:
        pytest.skip("kitten.tables._forest is not built")
    n = 9
    flags = [float(i % 2) for i in range(n)]
    rows = [i // 3 for i in range(n)]
    kinds = [i % 3 for i in range(n)]
    per_row = [1.0, 2.0, 3.0]
    by_kind = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]  # row * 3 + kind
    as_lists = [flags, (per_row, rows), (by_kind, rows, kinds, 3)]
    as_arrays = [array("d", flags), (array("d", per_row), array("i", rows)),
                 (array("d", by_kind), array("i", rows), array("i", kinds), 3)]
    mixed = [[i % 2 == 1 for i in range(n)], ([1, 2, 3], array("i", rows)), (array("d", by_kind), rows, kinds, 3)]
    python = m.predict_many(expand_columns(n, as_arrays))
    assert expand_columns(n, as_lists) == expand_columns(n, as_arrays)
    for columns in (as_lists, as_arrays, mixed):
        assert m.predict_columns(n, columns) == python
        assert m.label_columns(n, columns) == [label for label, _ in python]
    with pytest.raises(TypeError):
        m.predict_columns(n, [flags, (per_row, [0.0] * n), 1.0])
    with pytest.raises(IndexError):
        m.predict_columns(n, [flags, (per_row, [5] * n), 1.0])
    with pytest.raises(ValueError):
        m.predict_columns(n, [flags[:-1], (per_row, rows), 1.0])
    with pytest.raises(ValueError):
        m.predict_columns(n, [flags, (per_row, rows[:-1]), 1.0])


def test_the_c_forest_lays_out_any_node_order_and_rejects_a_cycle():
    """The C evaluator copies each tree in preorder (a left child after its parent): a
    tree whose arrays hold a right child first, or whose root is not node 0, gives
    ``python_proba``'s numbers; a node reached from two roots is in both trees; a cycle
    or a child outside the arrays is an error."""
    from array import array

    _, cell_model = models()
    if getattr(cell_model, "stage1", cell_model).packed is None:
        pytest.skip("kitten.tables._forest is not built")
    from kitten.tables import _forest

    tree = {"left": [2, -1, 3, -1, -1], "right": [1, -1, 4, -1, -1], "feature": [0, -2, 1, -2, -2],
            "threshold": [0.5, 0.0, 0.3, 0.0, 0.0], "value": [[], [0.0, 1.0], [], [1.0, 0.0], [0.25, 0.75]]}
    m = model_from_dict({"kind": "forest", "features": ["a", "b"], "classes": ["x", "y"], "trees": [tree, tree]})
    xs = [[0, 0], [0, 1], [1, 0], [0.5, 0.3], [0.6, 0.31], [float("nan"), 0.0], [0.1, float("nan")]]
    assert m.proba_many(xs) == [m.python_proba(x) for x in xs]
    ints, doubles = (lambda *v: array("i", v)), (lambda *v: array("d", v))
    shared = _forest.pack(ints(-1, 0, -1), ints(-1, 2, -1), ints(0, 0, 0), doubles(0, 0.5, 0),
                          doubles(1, 0, 0, 0, 0, 1), ints(1, 1, 2), 2)
    assert _forest.proba(shared, [[0.2], [0.7]]) == [[2 / 3, 1 / 3], [0.0, 1.0]]
    with pytest.raises(ValueError, match="outside"):
        _forest.pack(ints(0), ints(0), ints(0), doubles(0.5), doubles(1, 0), ints(0), 2)
    with pytest.raises(ValueError, match="outside"):
        _forest.pack(ints(1, -1), ints(5, -1), ints(0, 0), doubles(0.5, 0), doubles(0, 0, 1, 0), ints(0), 2)


def test_a_text_of_ascii_digits_is_typed_as_the_patterns_type_it():
    """``text_type`` types ASCII digits alone without the patterns: what _DATE and _NUMBER
    say of them (a year 1500-2099 is a date, else a number; other digits, and more than 40,
    go through the patterns)."""
    from kitten.tables.features import _DATE, _NUMBER, text_type

    def patterns(text: str) -> str:
        if len(text) <= 40:
            if _DATE.match(text):
                return "date"
            if _NUMBER.match(text):
                return "numeric"
        return "other"

    texts = [str(i) for i in range(0, 30000, 7)] + [str(y) for y in range(1400, 2200)] + ["0" * k for k in range(1, 45)]
    assert all(text_type(t) == patterns(t) for t in texts)
    assert text_type("١٢٣") == patterns("١٢٣") and text_type("²") != "date"


def test_header_typing_features_name_the_identifying_column_and_a_header_row_without_th():
    """``key_col``: the first column of distinct words left of a column of numbers (the
    names, not the towns, which repeat, nor the numbers); ``top_words``: a top row of short
    words over numbers, th or not; ``emph_vs_below``: a bold row above plain rows."""
    from kitten.tables.features import CELL_FEATURES, cell_features

    html = ("<table><tr><td><b>Name</b></td><td><b>Town</b></td><td><b>Goals</b></td></tr>"
            "<tr><td>Ann</td><td>Oslo</td><td>3</td></tr><tr><td>Bob</td><td>Oslo</td><td>5</td></tr>"
            "<tr><td>Cy</td><td>Rome</td><td>1</td></tr></table>")
    tb = leaf_tables(_doc(html))[0]
    grid = fill_text(build_grid(tb.element), tb)
    xs = cell_features(view(grid), tb.cell_breaks)
    at = {name: CELL_FEATURES.index(name) for name in ("key_col", "top_words", "emph_vs_below")}
    assert [xs[c.index][at["key_col"]] for c in grid.cells if c.row == 1] == [1.0, 0.0, 0.0]
    assert {x[at["top_words"]] for x in xs} == {1.0}
    assert [xs[c.index][at["emph_vs_below"]] for c in grid.cells if c.col == 0] == [1.0, 0.0, 0.0, 0.0]
    words = html.replace("<td>3</td>", "<td>three</td>").replace("<td>5</td>", "<td>five</td>").replace(
        "<td>1</td>", "<td>one</td>")
    tb = leaf_tables(_doc(words))[0]
    xs = cell_features(view(fill_text(build_grid(tb.element), tb)), tb.cell_breaks)
    assert {x[at["key_col"]] for x in xs} == {x[at["top_words"]] for x in xs} == {0.0}  # no column of numbers


def test_a_big_tables_features_by_column_are_the_cell_features():
    """``cell_columns`` (a big table's features given feature by feature to the forest in
    C) expanded by ``expand_columns`` is ``cell_features`` value for value, and
    ``predict_columns`` (C, and its Python twin) is ``predict_many``, on the tables of
    real pages and on made-up ones (spans, a ragged grid, markup, breaks, sections,
    repeated headers, notes)."""
    import dataclasses

    from kitten.tables.features import cell_columns, cell_features
    from kitten.tables.model import expand_columns

    _, cell_model = models()
    stage1 = getattr(cell_model, "stage1", cell_model)
    python = dataclasses.replace(stage1, packed=None)
    pages = [p.read_text(encoding="utf-8") for p in
             (sorted((CORPORA / "wikipedia-tables").rglob("*.html"))[:15] if AVAILABLE else fixture_pages())]
    pages.append("<table><thead><tr><th colspan=2>Title</th><th>x</th></tr></thead><tbody>"
                 "<tr><td rowspan=2>a<br>b</td><td><b>bold</b></td><td>1</td></tr><tr><td>Title</td></tr>"
                 "<tr><td>Key:</td><td><a href='/'>link</a><img src='i.png'></td><td>* note</td></tr>"
                 "<tr><th>x</th><th>x</th><td style='font-weight:bold'>12 May 1990</td></tr></tbody>"
                 "<tfoot><tr><td colspan=3>Source: us</td></tr></tfoot></table>")
    pages.append("<table>" + "".join("<tr><th>Item</th>" + "<td>1</td>" * (r % 4) + "</tr>" for r in range(9))
                 + "</table>")
    tables = 0
    for html in pages:
        for tb in leaf_tables(_doc(html)):
            v = view(fill_text(build_grid(tb.element, 2000, 100, 100), tb))
            xs = cell_features(v, tb.cell_breaks)
            if not xs:
                continue
            columns = cell_columns(v, tb.cell_breaks)
            assert expand_columns(len(xs), columns) == [[float(x) for x in row] for row in xs]
            assert python.predict_columns(len(xs), columns) == stage1.predict_many(xs)
            if stage1.packed is not None:
                assert stage1.predict_columns(len(xs), columns) == stage1.predict_many(xs)
                assert stage1.label_columns(len(xs), columns) == [label for label, _ in stage1.predict_many(xs)]
            tables += 1
    assert tables > 20
    if stage1.packed is None:
        return
    # vectors the trees disagree on (the classes settled early or after every tree), and
    # errors: an index outside its values, an array of another type
    import random
    from array import array

    rng = random.Random(5)
    n = 3000
    columns = [array("d", [rng.choice((0, 1, rng.random(), rng.uniform(-5, 60))) for _ in range(n)])
               for _ in stage1.features]
    columns[3] = (array("d", [0.0, 0.25, 1.0]), array("i", [rng.randrange(3) for _ in range(n)]))
    columns[7] = 1
    xs = expand_columns(n, columns)
    expected = stage1.predict_many(xs)
    assert stage1.predict_columns(n, columns) == expected
    assert stage1.label_columns(n, columns) == [label for label, _ in expected]
    assert len({label for label, _ in expected}) > 2 and min(p for _, p in expected) < 0.6
    with pytest.raises(IndexError):
        stage1.label_columns(n, columns[:3] + [(array("d", [0.0]), array("i", [1] * n))] + columns[4:])
    with pytest.raises(TypeError):
        stage1.label_columns(n, columns[:3] + [array("i", [0] * n)] + columns[4:])
    with pytest.raises(ValueError, match="fewer"):
        stage1.label_columns(n, columns[:3])


def test_the_model_file_names_each_leafs_shares_once_and_reads_the_earlier_layout():
    """``kitten train``'s files hold each distinct vector of class shares once (``shares``)
    and each tree its leaves' indexes in it (``compact``); such a file and the earlier
    layout (a ``value`` list per node) give the same numbers, in Python and in C; leaves
    that do not match the shares are refused."""
    from kitten.train.trees import compact

    trees = [{"left": [2, -1, 3, -1, -1], "right": [1, -1, 4, -1, -1], "feature": [0, 0, 1, 0, 0],
              "threshold": [0.5, -2.0, 0.3, -2.0, -2.0], "value": [[], [0, 1], [], [1, 0], [0.25, 0.75]]},
             {"left": [1, -1, -1], "right": [2, -1, -1], "feature": [1, 0, 0], "threshold": [0.1, -2.0, -2.0],
              "value": [[], [1, 0], [0, 1]]}]
    earlier = {"kind": "forest", "features": ["a", "b"], "classes": ["x", "y"], "trees": trees, "seed": 1}
    doc = compact(earlier)
    assert doc["shares"] == [[0, 1], [1, 0], [0.25, 0.75]] and [t["leaves"] for t in doc["trees"]] == [[0, 1, 2], [1, 0]]
    assert list(doc) == ["kind", "features", "classes", "shares", "trees", "seed"] and compact(earlier) == doc
    old, new = model_from_dict(earlier), model_from_dict(json.loads(json.dumps(doc)))
    xs = [[0, 0], [0, 1], [1, 0], [0.5, 0.3], [0.6, 0.31], [float("nan"), 0.0], [0.1, float("nan")]]
    assert [new.python_proba(x) for x in xs] == [old.python_proba(x) for x in xs] == old.proba_many(xs) \
        == new.proba_many(xs)
    bad = json.loads(json.dumps(doc))
    bad["trees"][1]["leaves"] = [1, 3]
    with pytest.raises(ValueError, match="leaves"):
        model_from_dict(bad)


def test_a_model_read_from_its_cache_is_the_model_of_its_json(tmp_path, monkeypatch):
    """The binary cache of a model file (``model.py``, ``_read_cache``) gives the arrays,
    the features and the numbers of the JSON file it was made from, a stacked model's
    two stages too; a damaged cache or one of other bytes is not read (the JSON is, and
    the cache is written again), a folder that cannot be written leaves the JSON read,
    and the features are checked either way."""
    from kitten.tables import features as tf
    from kitten.tables.model import Stacked, _cache_path, _read_cache, load_model

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    source = Path(kitten.__file__).resolve().parent.parent / "classifiers" / "cells.json"
    path = tmp_path / "cells.json"
    path.write_bytes(source.read_bytes())

    def fresh(p=path, expected=tf.CELL_FEATURES, context=tf.CONTEXT_FEATURES):
        load_model.cache_clear()
        return load_model(str(p), expected, context)

    def arrays(m):
        return [(t.left, t.right, t.feature, t.threshold, t.leaves, t.shares, t.n_classes) for t in m.trees]

    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    reference = model_from_dict(json.loads(path.read_text()))
    first = fresh()  # the JSON parsed, the cache written
    cache = _cache_path("cells", digest)
    assert cache.is_file() and _read_cache("cells", digest) is not None
    second = fresh()  # read from the cache
    xs = [[float((i * 7 + j * 3) % 11) / (j + 1) for j in range(len(reference.features))] for i in range(200)]
    for m in (first, second):
        assert (m.features, m.classes) == (reference.features, reference.classes)
        assert arrays(m) == arrays(reference)
        assert m.proba_many(xs) == reference.proba_many(xs) and m.python_proba(xs[3]) == reference.python_proba(xs[3])
    damaged = bytearray(cache.read_bytes())
    damaged[-5] ^= 0xFF
    cache.write_bytes(bytes(damaged))
    assert _read_cache("cells", digest) is None
    assert arrays(fresh()) == arrays(reference) and _read_cache("cells", digest) is not None  # written again
    cache.write_bytes(cache.read_bytes()[:1000])  # cut short
    assert _read_cache("cells", digest) is None and arrays(fresh()) == arrays(reference)
    with pytest.raises(ValueError, match="retrain"):  # the features checked on the cached model too
        fresh(expected=("not", "the", "features"))
    # a file of other bytes is another cache
    edited = json.loads(path.read_text())
    edited["trees"][0]["threshold"][0] += 1.0
    path.write_text(json.dumps(edited))
    assert arrays(fresh()) == arrays(model_from_dict(edited)) != arrays(reference)
    # a stacked model: both stages cached
    stacked = {"kind": "stacked", "stage1": {**json.loads(source.read_text()), "features": ["a", "b"]},
               "stage2": {"features": ["a", "b", "p"], "classes": ["x", "y"], "trees": [
                   {"left": [1, -1, -1], "right": [2, -1, -1], "feature": [2, 0, 0], "threshold": [0.5, 0, 0],
                    "value": [[], [1.0, 0.0], [0.0, 1.0]]}]}}
    stacked["stage1"]["trees"] = stacked["stage1"]["trees"][:2]
    for t in stacked["stage1"]["trees"]:
        t["feature"] = [min(f, 1) for f in t["feature"]]
    spath = tmp_path / "stacked.json"
    spath.write_text(json.dumps(stacked))
    a, b = fresh(spath, ("a", "b"), ("p",)), fresh(spath, ("a", "b"), ("p",))
    assert isinstance(b, Stacked) and _cache_path("stacked", hashlib.sha256(spath.read_bytes()).hexdigest()).is_file()
    assert [arrays(x.stage1) + arrays(x.stage2) for x in (a, b)][0] == arrays(b.stage1) + arrays(b.stage2)
    # a cache folder that cannot be written: the JSON is read every time
    monkeypatch.setenv("XDG_CACHE_HOME", str(path))  # a file, not a folder
    assert arrays(fresh()) == arrays(model_from_dict(edited))
    load_model.cache_clear()


def test_the_c_cell_markup_counts_as_the_python_walk():
    """``markup``'s C walk (``kitten/_links.c``, ``cell_markup``) gives ``walk_markup``'s
    counts for every cell holding elements of real pages (links, images, emphasis by tag
    and by style), and None (the Python walk) for a style that is not one text node."""
    from lxml import etree

    from kitten.tables.features import _BOLD_STYLE, Markup, _c_cell_markup, walk_markup

    c_markup = _c_cell_markup()
    if c_markup is None:
        pytest.skip("kitten._links is not built")
    pages = sorted((CORPORA / "wikipedia-tables").rglob("*.html"))[:15] if AVAILABLE else fixture_pages()
    cells = links = emphasis = 0
    for page in pages:
        for tb in leaf_tables(_doc(page.read_text(encoding="utf-8"))):
            for td in tb.element.iter("{http://www.w3.org/1999/xhtml}td", "{http://www.w3.org/1999/xhtml}th"):
                m = Markup()
                walk_markup(td, m)
                assert c_markup(td, _BOLD_STYLE.search) == (m.tags, m.link_chars, m.images, m.forms,
                                                            m.emphasis_chars)
                cells, links, emphasis = cells + 1, links + bool(m.link_chars), emphasis + bool(m.emphasis_chars)
    assert (cells > 2000 and links > 500 and emphasis > 50) if AVAILABLE else (cells > 500 and links > 50 and emphasis > 20)
    td = etree.fromstring('<td xmlns="http://www.w3.org/1999/xhtml"><span style="a">b</span></td>')
    td[0].attrib["style"] = "font-weight:bold"
    assert c_markup(td, _BOLD_STYLE.search) == (1, 0, 0, 0, 1)
    td = etree.fromstring('<!DOCTYPE td [<!ENTITY w "bold">]><td xmlns="http://www.w3.org/1999/xhtml">'
                          '<span style="font-weight:&w;">b</span></td>', etree.XMLParser(resolve_entities=False))
    assert c_markup(td, _BOLD_STYLE.search) is None


def test_the_view_types_each_text_once_and_shares_the_markup_of_plain_cells():
    """``view`` gives every cell ``text_type`` of its text and ``markup`` of its cell, the
    cells without elements or style sharing one Markup of zeros (not linked)."""
    from kitten.tables.features import markup, text_type

    html = ("<table><tr><th>Name</th><th style='font-weight:bold'>Year</th><th>Link</th></tr>"
            "<tr><td>1990</td><td><b>1990</b></td><td><a href='/x'>Home page</a></td></tr>"
            "<tr><td>1990</td><td style='color:red'>12 May 2001</td><td><img src='i.png'>x</td></tr></table>")
    grid = _grid(html)
    v = view(grid)
    assert v.types == [text_type(c.text) for c in grid.cells]
    assert v.texts == [c.text for c in grid.cells] and v.lengths == [len(c.text) for c in grid.cells]
    assert v.th == [c.tag == "th" for c in grid.cells] and v.sections == {"tbody"}
    assert v.marked == [i for i, c in enumerate(grid.cells) if len(c.element) or c.element.get("style") is not None]
    assert v.marks == [markup(c) for c in grid.cells]
    plain = [m for c, m in zip(grid.cells, v.marks) if not len(c.element) and c.element.get("style") is None]
    assert len(plain) > 2 and all(m is plain[0] for m in plain)
    assert v.links == [bool(c.text) and m.link_chars >= 0.9 * len(c.text) for c, m in zip(grid.cells, v.marks)]
    assert any(v.links)


def test_header_runs_are_the_last_header_rows_above_each_row():
    from kitten.tables.clauses import header_runs

    assert header_runs([True, True, False, False, True, False, True]) == [
        range(0), range(0, 1), range(0, 2), range(0, 2), range(0, 2), range(4, 5), range(4, 5)]
    assert header_runs([False, True, False]) == [range(0), range(0), range(1, 2)]


def test_layout_tables_stay_linear():
    html = ("<table><tr><td><a href='/'>Home</a></td><td><a href='/news'>News</a></td>"
            "<td><a href='/about'>About us</a></td></tr></table><p>Text.</p>")
    assert _lines(html) == ["Home / News / About us.", "Text."]  # one row of short cells: one sentence
    html = ("<table><tr><td><p>A cell with a whole sentence in it.</p></td><td>Another cell.</td></tr></table>"
            "<table><tr><td><p>Requirements:</p><ul><li>a diploma</li></ul></td><td>x</td></tr></table>")
    assert _lines(html) == ["A cell with a whole sentence in it.", "Another cell.", "Requirements: a diploma.", "x."]


def test_tables_can_be_switched_off():
    lines = _lines((FIXTURES / "figure6.html").read_text(encoding="utf-8"),
                   Config.from_dict({"tables": {"enabled": False}}))
    assert "Dimensions comparison." in lines and "133.0mm." in lines


# ---- JSON output --------------------------------------------------------------------------------

def test_json_lists_every_leaf_table_with_grid_and_clauses(tmp_path):
    from kitten.cli import main

    page = tmp_path / "p.html"
    page.write_text((FIXTURES / "figure6.html").read_text(encoding="utf-8")
                    + "<table><tr><td>just one cell</td></tr></table>", encoding="utf-8")
    assert main(["extract", str(page), "-o", str(tmp_path / "out"), "--format", "json", "-q"]) == 0
    data = json.loads((tmp_path / "out" / "p.json").read_text(encoding="utf-8"))
    tables = data["tables"]
    assert [t["index"] for t in tables] == [0, 1]
    data_table, layout = tables
    assert data_table["class"] == "data" and data_table["score"] >= 0.5
    assert data_table["clauses"][0] == FIGURE6[0][:-1]
    assert {"row": 2, "col": 1, "rowspan": 1, "colspan": 1, "tag": "td", "text": "133.0mm",
            "type": "data"} in data_table["cells"]
    assert layout["class"] == "layout" and layout["text"] == "just one cell" and "cells" not in layout


# ---- the annotated corpus ------------------------------------------------------------------------

@pytest.mark.corpus
@pytest.mark.slow
def test_every_table_label_still_finds_its_table():
    if not (CORPORA / "wikipedia-tables").is_dir():
        pytest.skip(ABSENT)
    from kitten.train.table_corpus import labelled_tables, read_jsonl

    labels = Path(__file__).resolve().parent.parent / "corpora" / "tables"
    records = read_jsonl(labels / "tables.jsonl")
    cells = read_jsonl(labels / "cells.jsonl")
    stale: list = []
    found = sum(1 for _ in labelled_tables(CORPORA, records + cells, stale=stale))
    assert not stale, stale[:3]  # after a change of the text steps: corpora/tables/refresh_fingerprints.py
    retired = [r for r in records + cells if r.get("retired")]
    assert found == len(records) + len(cells) - len(retired) and len(retired) <= 20
    data = [r for r in records if r["label"] == "data"]
    assert len(records) >= 1000 and len(data) >= 300 and len(cells) >= 120


def test_relabel_export_suggests_the_recorded_types(tmp_path):
    """``--relabel`` writes the cell-labelled tables with their recorded types, and the
    import of an unchanged file changes no cell."""
    if not (CORPORA / "wikipedia-tables").is_dir():
        pytest.skip(ABSENT)
    import json
    import shutil

    from kitten.cli import main
    labels = tmp_path / "labels"
    labels.mkdir()
    source = Path(__file__).resolve().parent.parent / "corpora" / "tables"
    first = (source / "cells.jsonl").read_text(encoding="utf-8").splitlines()[:2]
    (labels / "cells.jsonl").write_text("\n".join(first) + "\n", encoding="utf-8")
    shutil.copy(source / "tables.jsonl", labels / "tables.jsonl")
    review = tmp_path / "review.txt"
    assert main(["annotate", "tables", "--cells", "--relabel", "--export", str(review), "--labels", str(labels),
                 "--corpora", str(CORPORA)]) == 0
    text = review.read_text(encoding="utf-8")
    assert text.count("### ") == 2
    rec = json.loads(first[0])
    letters = {"header": "h", "data": "d", "neutral": "n", "thema": "t", "finalImportant": "i",
               "finalNonImportant": "f"}
    row0 = " ".join(letters[t] for r, c, t in sorted(rec["cells"]) if r == 0)
    assert f"cells r0: {row0}\n" in text
    assert main(["annotate", "tables", "--import", str(review), "--labels", str(labels),
                 "--corpora", str(CORPORA), "--reviewer", "t"]) == 0
    after = [json.loads(line) for line in (labels / "cells.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted(map(tuple, after[0]["cells"])) == sorted(map(tuple, rec["cells"])) and after[0]["changed"] == 0
