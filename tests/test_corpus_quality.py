"""Quality of the normalizer's output on the shared corpora, and unit tests of the
measuring functions in ``kitten.quality``.

The corpus tests are marked ``corpus`` and skip when ``.cache/corpora`` is absent.
They run on a deterministic sample (every 25th page of each corpus) and assert:
every XHTML output parses strictly, text fidelity holds on every page, and at least
98% of the sample is valid XHTML 1.0 Transitional (skipped if the DTD is missing).
``benchmarks/corpus_check.py`` measures the same things on every page.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kitten import quality

ROOT = Path(__file__).resolve().parent.parent
from _corpora import ABSENT, CORPORA  # noqa: E402  (the shared corpora: tests/_corpora.py)
SAMPLE_EVERY = 25
DTD_VALID_TARGET = 0.98

XHTML_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" '
    '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">\n'
)


def xhtml_doc(body: str, title: str = "t") -> str:
    """A complete XHTML 1.0 Transitional document around ``body``."""
    return (
        f'{XHTML_HEAD}<html xmlns="http://www.w3.org/1999/xhtml">'
        f"<head><title>{title}</title></head><body>{body}</body></html>"
    )


# ------------------------------------------------------------ unit tests: text


def test_visible_text_excludes_script_style_template_and_comments() -> None:
    html = (
        "<title>T</title><p>a<script>var x = 1;</script>b<style>p{}</style>c"
        "<template><i>hidden</i></template>d<!-- comment -->e"
    )
    assert quality.visible_text_html5lib(html) == "Tabcde"  # no separator between nodes, by definition


def test_visible_text_joins_inline_boundaries_without_separator() -> None:
    assert quality.visible_text_html5lib("<b>un</b>known") == "unknown"


def test_visible_text_keeps_noscript_textarea_option() -> None:
    html = "<noscript>ns</noscript><textarea>ta</textarea><select><option>op</select>"
    text = quality.visible_text_html5lib(html)
    assert "ns" in text and "ta" in text and "op" in text


def test_normalize_text_controls_and_whitespace() -> None:
    assert quality.normalize_text("  a\x0bb\x0cc\x00d\ufffde\x01f \t\r\n g  ") == "a b cdef g"
    assert quality.normalize_text("\u00a0a\u00a0b ") == "\u00a0a\u00a0b"  # NBSP is text
    assert quality.normalize_text("a\ufffeb\uffff\ud800c") == "abc"


def test_visible_text_xhtml_uses_xhtml_namespace() -> None:
    doc = xhtml_doc("<p>a<b>un</b>known<script>x</script><!-- c --> z</p>")
    assert quality.visible_text_xhtml(doc) == "taunknown z"


def test_fidelity_holds_for_renamed_elements() -> None:
    html = "<title>t</title><article><p>un<mark>known</mark> word</p></article>"
    doc = xhtml_doc("<div><p>un<span>known</span> word</p></div>")
    assert quality.visible_text_xhtml(doc) == quality.visible_text_html5lib(html)


def test_unresolved_entity_is_not_silently_text() -> None:
    doc = xhtml_doc("<p>a&nbsp;b</p>")
    assert quality.visible_text_xhtml(doc) != quality.visible_text_html5lib("<title>t</title><p>a&nbsp;b")


# -------------------------------------------------- unit tests: XML and DTD


def test_parses_strict() -> None:
    assert quality.parses_strict(xhtml_doc("<p>ok</p>")) == (True, None)
    ok, error = quality.parses_strict(xhtml_doc("<p>bad<br></p>"))
    assert not ok and error


def dtd_available() -> bool:
    return quality.DEFAULT_DTD_PATH.is_file()


needs_dtd = pytest.mark.skipif(
    not dtd_available(), reason=f"XHTML 1.0 Transitional DTD not found at {quality.DEFAULT_DTD_PATH}"
)


@needs_dtd
def test_validate_dtd() -> None:
    assert quality.validate_dtd(xhtml_doc("<p>ok <b>bold</b></p>")) == (True, None)
    ok, error = quality.validate_dtd(xhtml_doc("<p><div>block in p</div></p>"))
    assert not ok and "div" in error


def test_error_signature_strips_numbers_keeps_names() -> None:
    msg = "Element ul content does not follow the DTD, expecting (li)+, got (li li div)"
    assert quality.error_signature(msg).endswith("got (li+ div)")
    assert quality.error_signature("line 12: Element h1 x") == "line N: Element hN x"


def test_diff_context() -> None:
    d = quality.diff_context("abcdef", "abcxef", width=2)
    assert d["index"] == 3 and d["expected"] == "bcde" and d["actual"] == "bcxe"
    assert quality.diff_context("same", "same")["index"] == -1


# ----------------------------------------------------- unit tests: trees


def test_tree_agreement_on_simple_and_misnested_markup() -> None:
    for html in (
        "<p>one<p>two",
        "<table><td>a</table>",
        "<b><i>x</b>y</i>",
        "<svg viewBox='0 0 1 1'><foreignObject><b>f</b></foreignObject></svg>",
    ):
        assert quality.tree_agreement(html) == (True, ""), html


def test_canonical_tree_ignores_comments_and_merges_text() -> None:
    a = quality.canonical_etree(quality.parse_html5lib("<p>a<!--c-->b</p>"))
    b = quality.canonical_etree(quality.parse_html5lib("<p>ab</p>"))
    assert a == b


def test_compare_trees_reports_first_difference() -> None:
    ok, message = quality.compare_trees([(0, "element", "p", ())], [(0, "element", "div", ())])
    assert not ok and "<p>" in message and "<div>" in message


def test_minimize_keeps_predicate_true() -> None:
    html = "<p>keep</p>\n" * 3 + "<p>NEEDLE</p>\n" + "<div>x</div>\n" * 5
    small = quality.minimize(html, lambda s: "NEEDLE" in s)
    assert "NEEDLE" in small and len(small) < 20


# ------------------------------------------------------- corpus sample tests


def load_corpus_check():
    """Import ``benchmarks/corpus_check.py`` (not a package) by path."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "corpus_check", ROOT / "benchmarks" / "corpus_check.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("corpus_check", module)
    spec.loader.exec_module(module)
    return module


needs_corpora = pytest.mark.skipif(
    not CORPORA.is_dir() or not any(CORPORA.iterdir()),
    reason=ABSENT,
)


@pytest.fixture(scope="module")
def sample_results() -> list:
    """Normalize and measure every SAMPLE_EVERY-th page of each corpus, once per module."""
    corpus_check = load_corpus_check()
    pages = corpus_check.discover(CORPORA, every=SAMPLE_EVERY)
    path = str(quality.DEFAULT_DTD_PATH)
    return [corpus_check.check_page(page, path, timeout=120) for page in pages]


def _describe(results: list, field: str) -> str:
    return "\n".join(f"{r.name}: {getattr(r, field)}" for r in results[:10])


def _fail_if(failing: list, what: str, field: str, total: int) -> None:
    if failing:
        pytest.fail(f"{len(failing)}/{total} sample pages {what}:\n" + _describe(failing, field))


@pytest.mark.corpus
@needs_corpora
def test_sample_has_output_without_crashes(sample_results: list) -> None:
    assert sample_results, "empty sample"
    total = len(sample_results)
    _fail_if([r for r in sample_results if r.crash], "crashed", "crash", total)
    _fail_if([r for r in sample_results if r.check_error], "broke a measurement", "check_error", total)
    _fail_if([r for r in sample_results if not r.has_output], "have no output", "status", total)


@pytest.mark.corpus
@needs_corpora
def test_sample_outputs_parse_strictly(sample_results: list) -> None:
    failing = [r for r in sample_results if r.strict is False]
    _fail_if(failing, "are not well-formed XML", "strict_error", len(sample_results))


@pytest.mark.corpus
@needs_corpora
def test_sample_text_fidelity(sample_results: list) -> None:
    failing = [r for r in sample_results if r.status == "done" and not r.fidelity]
    _fail_if(failing, "lose or change visible text", "fidelity_diff", len(sample_results))


@pytest.mark.corpus
@needs_corpora
@needs_dtd
def test_sample_dtd_validity(sample_results: list) -> None:
    outputs = [r for r in sample_results if r.strict is not None]
    assert outputs, "no XHTML output in the sample"
    invalid = [r for r in outputs if not r.dtd_valid]
    share = 1 - len(invalid) / len(outputs)
    if share < DTD_VALID_TARGET:
        details = "\n".join(f"{r.name}: {r.dtd_errors[:1]}" for r in invalid[:10])
        pytest.fail(f"{share:.1%} of the sample is DTD-valid < {DTD_VALID_TARGET:.0%}:\n{details}")
