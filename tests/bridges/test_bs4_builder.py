"""lexpy.bs4 under BeautifulSoup's own builder smoke tests.

TestLexpyBuilder subclasses HTML5TreeBuilderSmokeTest of beautifulsoup4
4.15.0's test suite (../shared/peer-tests/bs4-4.15.0/tests/, imported from
there) with lexpy's builder as default_builder, exactly as bs4's
test_html5lib.py does for html5lib. A smoke test whose expectation only
html5lib's older standard (or html5lib's own limits) gives is overridden
below with the tree of the current standard, its reason in the docstring.
"""
import warnings

import pytest

from tests.peers import bs4_tests

bs4 = pytest.importorskip("bs4")  # noqa: F841 - the test extra installs it

import lexpy.bs4  # noqa: E402
from bs4 import BeautifulSoup  # noqa: E402
from bs4.element import ProcessingInstruction  # noqa: E402

_peer = bs4_tests()


class TestLexpyBuilder(_peer.HTML5TreeBuilderSmokeTest):
    """bs4's HTML5 smoke tests with LexpyTreeBuilder."""

    @property
    def default_builder(self):
        return lexpy.bs4.LexpyTreeBuilder

    def test_processing_instruction(self):
        """The current standard parses ``<?target data?>`` as a processing
        instruction node (the 2026 change; html5lib 1.1's standard made it a
        bogus comment, and html.parser keeps it without a tree): it is a
        ProcessingInstruction before the document element, and serializes
        back as it came."""
        for markup in ("<?PITarget PIContent?>", b"<?PITarget PIContent?>"):
            soup = self.soup(markup)
            pi = soup.contents[0]
            assert isinstance(pi, ProcessingInstruction)
            assert soup.decode() == self.document_for("").replace(
                "<html>", "<?PITarget PIContent?><html>", 1)
            assert soup.encode("utf8").startswith(b"<?PITarget PIContent?><html>")

    def test_correctly_nested_tables(self):
        """The standard inserts the <tbody> of a <tr> directly in a table
        ("in table" insertion mode), as html5lib does; the smoke test's
        expectation is that of the builders that build no HTML5 tree."""
        markup = ('<table id="1"><tr><td>Here\'s another table:'
                  '<table id="2"><tr><td>foo</td></tr></table></td>')
        self.assert_soup(
            markup,
            '<table id="1"><tbody><tr><td>Here\'s another table:'
            '<table id="2"><tbody><tr><td>foo</td></tr></tbody></table>'
            "</td></tr></tbody></table>")
        self.assert_soup(
            "<table><thead><tr><td>Foo</td></tr></thead>"
            "<tbody><tr><td>Bar</td></tr></tbody>"
            "<tfoot><tr><td>Baz</td></tr></tfoot></table>")


_html5lib_tests = __import__("bs4_peer_tests.test_html5lib", fromlist=["x"])


class TestLexpyAsHtml5libBuilder(_html5lib_tests.TestHTML5LibBuilder):
    """bs4's tests of its html5lib builder (test_html5lib.py: the
    reparenting, foster-parenting and linkage cases) with LexpyTreeBuilder:
    the trees are the same standard's. The cases about what html5lib's
    builder lacks are overridden with what lexpy's does."""

    @property
    def default_builder(self):
        return lexpy.bs4.LexpyTreeBuilder

    test_processing_instruction = TestLexpyBuilder.test_processing_instruction

    def test_soupstrainer(self):
        """html5lib's builder ignores parse_only (with a warning); lexpy's
        applies it while building, as bs4's other builders do."""
        from bs4.filter import SoupStrainer
        markup = "<p>A <b>bold</b> statement.</p>"
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            soup = self.soup(markup, parse_only=SoupStrainer("b"))
        assert soup.decode() == "<b>bold</b>"
        assert caught == []

    def test_tracking_line_numbers(self):
        """lexpy's nodes record no source positions (TRACKS_LINE_NUMBERS is
        False): sourceline and sourcepos are None, with or without
        store_line_numbers, and the tree is still right."""
        markup = "\n   <p>\n\n<sourceline>\n<b>text</b></sourceline><sourcepos></p>"
        for store in (True, False):
            soup = self.soup(markup, store_line_numbers=store)
            assert soup.p.sourceline is None and soup.p.sourcepos is None
            assert "sourceline" == soup.p.find("sourceline").name

    def test_special_string_containers(self):
        """html5lib's builder cannot know where a string ends up; lexpy's
        builds from the finished tree, so script and style strings get
        bs4's container classes (the HTML smoke test's expectation)."""
        _peer.HTMLTreeBuilderSmokeTest.test_special_string_containers(self)

    @pytest.mark.parametrize(
        "name,value",
        [("document_declared_encoding", "utf8"), ("exclude_encodings", ["utf8"])],
    )
    def test_prepare_markup_warnings(self, name, value):
        """html5lib's builder warns that it ignores these arguments; lexpy's
        uses them (no warning): an excluded encoding is never the one used,
        a declared one is the default before windows-1252."""
        builder = self.default_builder()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            list(builder.prepare_markup(b"caf\xc3\xa9", **{name: value}))
        assert caught == []
        soup = BeautifulSoup(b"<p>caf\xc3\xa9", builder=self.default_builder,
                             exclude_encodings=["utf-8"])
        assert soup.original_encoding == "windows-1252"
        assert soup.p.string == "caf\xc3\xa9"

    def test_doctype_filtered(self):
        """html5lib's builder skips this smoke test (no parse_only); lexpy's
        passes the smoke test's own version."""
        _peer.TreeBuilderSmokeTest.test_doctype_filtered(self)
