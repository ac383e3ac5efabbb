"""lexpy.html5lib's API: html5lib's own walker checks (test_treewalkers.py's
expectations), filters and the serializer on lexpy trees, parse() and
parseFragment() arguments, and the tree-events stream under a change."""
import io
import sys
import xml.dom.minidom
import xml.etree.ElementTree as ElementTree

import pytest

html5lib = pytest.importorskip("html5lib")

from html5lib.filters import alphabeticalattributes, optionaltags, whitespace  # noqa: E402
from html5lib.filters.lint import Filter as Lint  # noqa: E402
from html5lib.serializer import HTMLSerializer  # noqa: E402

import lexpy  # noqa: E402
import lexpy.html5lib  # noqa: E402
from lexpy.dom.dom import _tree_events  # noqa: E402

XHTML = "http://www.w3.org/1999/xhtml"


def test_all_tokens_as_html5libs_walkers_give_them():
    # html5lib 1.1's test_treewalkers.test_all_tokens, with lexpy's walker
    expected = [
        {'data': {}, 'type': 'StartTag', 'namespace': XHTML, 'name': 'html'},
        {'data': {}, 'type': 'StartTag', 'namespace': XHTML, 'name': 'head'},
        {'type': 'EndTag', 'namespace': XHTML, 'name': 'head'},
        {'data': {}, 'type': 'StartTag', 'namespace': XHTML, 'name': 'body'},
        {'data': 'a', 'type': 'Characters'},
        {'data': {}, 'type': 'StartTag', 'namespace': XHTML, 'name': 'div'},
        {'data': 'b', 'type': 'Characters'},
        {'type': 'EndTag', 'namespace': XHTML, 'name': 'div'},
        {'data': 'c', 'type': 'Characters'},
        {'type': 'EndTag', 'namespace': XHTML, 'name': 'body'},
        {'type': 'EndTag', 'namespace': XHTML, 'name': 'html'}]
    doc = lexpy.parse("<html><head></head><body>a<div>b</div>c</body></html>")
    assert list(Lint(lexpy.html5lib.TreeWalker(doc))) == expected


@pytest.mark.parametrize("char", ["x", "\u1234"])
def test_fragment_single_char(char):
    fragment = lexpy.parse_fragment(char, "div")
    assert list(Lint(lexpy.html5lib.TreeWalker(fragment))) == [
        {'data': char, 'type': 'Characters'}]


def test_attribute_order_kept_and_adjusted():
    fragment = lexpy.parse_fragment("<svg a=1 refx=2 b=3 xml:lang=4 c=5>", "div")
    start = list(Lint(lexpy.html5lib.TreeWalker(fragment)))[0]
    assert list(start["data"].items()) == [
        ((None, 'a'), '1'), ((None, 'refX'), '2'), ((None, 'b'), '3'),
        (('http://www.w3.org/XML/1998/namespace', 'lang'), '4'), ((None, 'c'), '5')]


def test_element_root_and_void_elements():
    doc = lexpy.parse("<div id=d>x<br><img src=i></div>")
    tokens = list(Lint(lexpy.html5lib.TreeWalker(doc.get_element_by_id("d"))))
    assert [t["type"] for t in tokens] == [
        "StartTag", "Characters", "EmptyTag", "EmptyTag", "EndTag"]
    with pytest.raises(TypeError, match="lexpy Node"):
        list(lexpy.html5lib.TreeWalker("<p>"))


def test_filters_and_serializer_run_unchanged():
    doc = lexpy.parse("<!DOCTYPE html><html><head><title>t</title></head>"
                      "<body><p b=2 a=1>one  <i>two</i>\n\n</p><?pi x?></body></html>")
    walker = lexpy.html5lib.TreeWalker(doc)
    stream = whitespace.Filter(alphabeticalattributes.Filter(optionaltags.Filter(walker)))
    html = HTMLSerializer(omit_optional_tags=False).render(stream)
    assert html == ('<!DOCTYPE html><title>t</title><p a=1 b=2>one <i>two</i> '
                    '</p><!--?pi x?-->')
    # the sanitizer filter and inject_meta_charset too
    from html5lib.filters import sanitizer
    doc = lexpy.parse("<p onclick=x>ok<script>bad()</script>")
    out = HTMLSerializer().render(sanitizer.Filter(lexpy.html5lib.TreeWalker(doc)))
    assert "onclick" not in out and "&lt;script&gt;" in out
    out = HTMLSerializer().render(lexpy.html5lib.TreeWalker(lexpy.parse("<head><title>x")),
                                  encoding="utf-8")
    assert b'<meta charset=utf-8>' in out


def test_parse_tree_types():
    markup = b"<!DOCTYPE html><!--c--><p class=x>caf\xc3\xa9"
    root = lexpy.html5lib.parse(markup)
    assert isinstance(root, ElementTree.Element) and root.tag == "{%s}html" % XHTML
    assert root.find(".//{%s}p" % XHTML).text == "caf\u00e9"
    full = lexpy.html5lib.parse(markup, fullTree=True)
    assert [c.tag for c in full][:2] == ["<!DOCTYPE>", ElementTree.Comment]
    plain = lexpy.html5lib.parse(io.BytesIO(markup), namespaceHTMLElements=False)
    assert plain.tag == "html"
    dom = lexpy.html5lib.parse(markup, treebuilder="dom")
    assert isinstance(dom, xml.dom.minidom.Document)
    assert dom.getElementsByTagName("p")[0].getAttribute("class") == "x"
    etree = pytest.importorskip("lxml.etree")
    tree = lexpy.html5lib.parse(markup, treebuilder="lxml")
    assert isinstance(tree, etree._ElementTree)
    assert tree.getroot().tag == "{%s}html" % XHTML
    # (as with html5lib, an ElementTree-like module without "<!DOCTYPE>"
    # elements takes documents without a doctype)
    lxml_root = lexpy.html5lib.parse(b"<p>x", treebuilder="etree", implementation=etree)
    assert isinstance(lxml_root, etree._Element)
    # html5lib.parse's own result types, for comparison
    assert type(html5lib.parse(markup)) is type(root)
    assert type(html5lib.parse(markup, treebuilder="dom")) is type(dom)


def test_parse_fragment_types():
    fragment = lexpy.html5lib.parseFragment("x<b>y</b>", "div")
    assert fragment.tag == "DOCUMENT_FRAGMENT" and fragment.text == "x"
    cells = lexpy.html5lib.parseFragment("<td>1<td>2", container="tr",
                                         namespaceHTMLElements=False)
    assert [c.tag for c in cells] == ["td", "td"]
    assert lexpy.html5lib.parseFragment("<p>", "div", treebuilder="dom").nodeType == 11
    items = lexpy.html5lib.parseFragment("x<b>y</b>", "div", treebuilder="lxml")
    assert items[0] == "x" and items[1].text == "y"


def test_parse_arguments():
    koi8 = "<p>\u0430".encode("koi8-r")
    root = lexpy.html5lib.parse(koi8, transport_encoding="koi8-r", namespaceHTMLElements=False)
    assert root.find(".//p").text == "\u0430"
    root = lexpy.html5lib.parse(koi8, default_encoding="koi8-r", useChardet=False,
                                namespaceHTMLElements=False)
    assert root.find(".//p").text == "\u0430"
    noscript = "<body><noscript><p>x</p></noscript>"
    assert lexpy.html5lib.parse(noscript, namespaceHTMLElements=False).find(".//p") is not None
    assert lexpy.html5lib.parse(noscript, scripting=True,
                                namespaceHTMLElements=False).find(".//p") is None
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        lexpy.html5lib.parse("<p>", colour=1)
    with pytest.raises(ValueError, match="treebuilder 'simpletree'"):
        lexpy.html5lib.parse("<p>", treebuilder="simpletree")
    with pytest.raises(TypeError, match="doc must be"):
        lexpy.html5lib.parse(12)


def test_html5lib_version_check(monkeypatch):
    import importlib
    monkeypatch.setattr(html5lib, "__version__", "1.0.1")
    monkeypatch.delitem(sys.modules, "lexpy.html5lib")
    with pytest.raises(ImportError, match=r"html5lib >= 1\.1 \(found 1\.0\.1\)"):
        importlib.import_module("lexpy.html5lib")
    monkeypatch.undo()


def test_tree_events_refuse_a_changing_tree():
    doc = lexpy.parse("<p>a</p><p>b</p>")
    events = _tree_events(doc)
    next(events)
    doc.body.first_child.remove()
    with pytest.raises(RuntimeError, match="changed"):
        next(events)
