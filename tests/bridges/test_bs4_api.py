"""lexpy.bs4 beyond the smoke tests: registration, markup of every kind
bs4 accepts, encodings, parse_only, element_classes, bad input, depth."""
import io
import sys

import pytest

bs4 = pytest.importorskip("bs4")

import lexpy  # noqa: E402
import lexpy.bs4  # noqa: E402
from bs4 import BeautifulSoup  # noqa: E402
from bs4.builder import builder_registry  # noqa: E402
from bs4.element import (  # noqa: E402
    Comment,
    Doctype,
    NamespacedAttribute,
    NavigableString,
    Script,
    Stylesheet,
    Tag,
    TemplateString,
)
from bs4.filter import SoupStrainer  # noqa: E402

from lexpy.bs4 import LexpyTreeBuilder  # noqa: E402


def test_registered_without_taking_over_other_features():
    assert builder_registry.lookup("lexpy") is LexpyTreeBuilder
    # "html5", "html" and no feature at all find what they found before
    assert builder_registry.lookup("html5") is not LexpyTreeBuilder
    assert builder_registry.lookup() is not LexpyTreeBuilder
    assert BeautifulSoup("<p>x", "lexpy").builder.__class__ is LexpyTreeBuilder
    assert set(LexpyTreeBuilder.features) == {"lexpy", "html5", "html", "permissive"}


def test_builder_class_and_instance():
    for builder in (LexpyTreeBuilder, LexpyTreeBuilder()):
        soup = BeautifulSoup("<p>a<p>b", builder=builder)
        assert [p.string for p in soup.find_all("p")] == ["a", "b"]


@pytest.mark.parametrize("kind", ["str", "bytes", "file", "binary file", "tag string"])
def test_markup_kinds(kind):
    text = "<p class='x y'>caf\u00e9</p>"
    markup = {
        "str": text,
        "bytes": text.encode("utf-8"),
        "file": io.StringIO(text),
        "binary file": io.BytesIO(text.encode("utf-8")),
        "tag string": BeautifulSoup(text, "lexpy").p.decode(),
    }[kind]
    soup = BeautifulSoup(markup, "lexpy")
    assert soup.p["class"] == ["x", "y"]
    assert soup.p.string == "caf\u00e9"


def test_encodings():
    koi8 = "<meta charset=koi8-r><p>\u0430".encode("koi8-r")
    soup = BeautifulSoup(koi8, "lexpy")
    assert soup.original_encoding == "koi8-r"
    assert soup.declared_html_encoding == "koi8-r"
    assert soup.p.string == "\u0430"
    # from_encoding is the transport layer's label
    soup = BeautifulSoup("<p>\u00e9".encode("iso-8859-1"), "lexpy", from_encoding="latin-1")
    assert soup.original_encoding == "windows-1252" and soup.p.string == "\u00e9"
    assert soup.declared_html_encoding is None
    # an excluded encoding is never the one used
    soup = BeautifulSoup(koi8, "lexpy", exclude_encodings=["KOI8-R"])
    assert soup.original_encoding == "utf-8"
    soup = BeautifulSoup(koi8, "lexpy", exclude_encodings=["koi8-r", "utf-8"])
    assert soup.original_encoding == "windows-1252"
    assert BeautifulSoup("<p>x", "lexpy").original_encoding is None
    with pytest.raises(LookupError, match="from_encoding"):
        BeautifulSoup(b"<p>", "lexpy", from_encoding="no-such-encoding")


def test_parse_only_keeps_matching_subtrees():
    markup = ("<div><p id=a>one <b>bold</b></p><span>x</span><p id=b>two</p></div>"
              "<table><tr><td><p id=c>cell</td></table>")
    soup = BeautifulSoup(markup, "lexpy", parse_only=SoupStrainer("p"))
    assert soup.decode() == ('<p id="a">one <b>bold</b></p><p id="b">two</p>'
                             '<p id="c">cell</p>')
    soup = BeautifulSoup(markup, "lexpy", parse_only=SoupStrainer(string="x"))
    assert soup.decode() == "x"
    bs4_tests = __import__("tests.peers", fromlist=["x"]).bs4_tests()
    bs4_tests.SoupTest().linkage_validator(
        BeautifulSoup(markup, "lexpy", parse_only=SoupStrainer(["b", "td"])))


def test_string_classes_and_element_classes():
    soup = BeautifulSoup("<!DOCTYPE html><style>s</style><script>j</script>"
                         "<template><p>t</p></template><!--c--><p>x</p>", "lexpy")
    assert type(soup.contents[0]) is Doctype
    assert type(soup.style.string) is Stylesheet
    assert type(soup.script.string) is Script
    assert type(soup.template.p.string) is TemplateString
    assert type(soup.head.contents[-1]) is Comment     # (in head, after the template)
    assert type(soup.body.p.string) is NavigableString

    class MyTag(Tag):
        pass

    class MyString(NavigableString):
        pass

    soup = BeautifulSoup("<p>x<b>y</b></p><script>z</script>", "lexpy",
                         element_classes={Tag: MyTag, NavigableString: MyString})
    assert all(type(tag) is MyTag for tag in soup.find_all(True))
    assert type(soup.b.string) is MyString
    assert type(soup.script.string) is MyString   # as bs4's string_container does


def test_foreign_attributes_are_namespaced():
    soup = BeautifulSoup('<svg xmlns:xlink="http://www.w3.org/1999/xlink">'
                         '<a xlink:href="u" xml:lang="en"/></svg>', "lexpy")
    keys = list(soup.find("a").attrs)
    assert all(isinstance(k, NamespacedAttribute) for k in keys)
    assert [(k.prefix, k.name, k.namespace) for k in keys] == [
        ("xlink", "href", "http://www.w3.org/1999/xlink"),
        ("xml", "lang", "http://www.w3.org/XML/1998/namespace")]
    xmlns = list(soup.svg.attrs)[0]
    assert (xmlns, xmlns.namespace) == ("xmlns:xlink", "http://www.w3.org/2000/xmlns/")
    assert soup.svg.namespace == "http://www.w3.org/2000/svg"


def test_scripting_option():
    markup = "<body><noscript><p>x</p></noscript>"
    assert BeautifulSoup(markup, "lexpy").noscript.p is not None
    soup = BeautifulSoup(markup, builder=LexpyTreeBuilder(scripting=True))
    assert soup.noscript.p is None and soup.noscript.string == "<p>x</p>"
    with pytest.raises(TypeError, match="scripting"):
        LexpyTreeBuilder(scripting="yes")


def test_bad_markup_types_raise_bs4s_or_a_clear_error():
    with pytest.raises(TypeError):
        BeautifulSoup(12, "lexpy")
    with pytest.raises(TypeError, match="markup must be str or bytes"):
        LexpyTreeBuilder().feed(12)


def test_bs4_version_check(monkeypatch):
    import importlib
    monkeypatch.setattr(bs4, "__version__", "4.12.3")
    monkeypatch.delitem(sys.modules, "lexpy.bs4")
    with pytest.raises(ImportError, match=r"beautifulsoup4 >= 4\.13 \(found 4\.12\.3\)"):
        importlib.import_module("lexpy.bs4")
    monkeypatch.undo()
    assert sys.modules["lexpy.bs4"] is lexpy.bs4


def test_deep_tree_builds_without_recursion():
    depth = 100_000
    soup = BeautifulSoup("<div>" * depth, "lexpy")
    count = sum(1 for element in soup.descendants if element.name == "div")
    assert count == depth
    assert sys.getrecursionlimit() < depth
