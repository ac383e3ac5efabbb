"""lexpy.to_etree and lexpy.to_lxml: the trees, what XML cannot hold, any
depth, and XPath over every corpus page."""
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest

import lexpy
from lexpy.etree import from_xml_name, xml_text
from tests.bridges_support import bridge_elements, corpus_pages

etree = pytest.importorskip("lxml.etree")  # the test extra installs lxml

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
XML = "http://www.w3.org/XML/1998/namespace"


def test_import_lexpy_imports_no_bridge_peer():
    code = ("import sys, lexpy; lexpy.to_etree; lexpy.to_lxml; "
            "doc = lexpy.parse('<p>x'); "
            "print([m for m in ('bs4', 'html5lib', 'lxml', 'xml.etree.ElementTree', "
            "'lexpy.bs4', 'lexpy.html5lib', 'lexpy.etree') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, check=True, cwd="/").stdout.strip()
    # lexpy.etree is loaded by the attribute access above; the peers not.
    assert out == "['lexpy.etree']"


def test_etree_tree():
    doc = lexpy.parse("<!DOCTYPE html><html lang=en><p class=k>one<b>two</b>three"
                      "<!--note--><?php echo 1 ?><svg xlink:href=u xml:lang=fr>"
                      "<circle r=1 /></svg><template><i>t</i>after</template>")
    root = lexpy.to_etree(doc)
    assert isinstance(root, ElementTree.Element)
    assert root.tag == "html" and root.get("lang") == "en"
    head, body = list(root)
    p = body[0]
    assert (p.tag, p.get("class"), p.text) == ("p", "k", "one")
    b, comment, pi, svg, template = list(p)
    assert (b.text, b.tail) == ("two", "three")
    assert comment.tag is ElementTree.Comment and comment.text == "note"
    assert pi.tag is ElementTree.ProcessingInstruction and pi.text == "php echo 1 "
    assert svg.tag == "{%s}svg" % SVG
    assert svg.attrib == {"{%s}href" % XLINK: "u", "{%s}lang" % XML: "fr"}
    assert svg[0].tag == "{%s}circle" % SVG and svg[0].get("r") == "1"
    # a template's contents are its children
    assert [(c.tag, c.text, c.tail) for c in template] == [("i", "t", "after")]
    assert ElementTree.tostring(root).startswith(b"<html")


def test_html_namespace_option():
    root = lexpy.to_etree(lexpy.parse("<p>"), html_namespace=True)
    assert root.tag == "{http://www.w3.org/1999/xhtml}html"
    assert root[1][0].tag == "{http://www.w3.org/1999/xhtml}p"


def test_element_and_fragment():
    doc = lexpy.parse("<div id=d>a<b>b</b>c</div>")
    div = lexpy.to_lxml(doc.get_element_by_id("d"))
    assert etree.tostring(div) == b'<div id="d">a<b>b</b>c</div>'
    items = lexpy.to_etree(lexpy.parse_fragment("x<b>y</b>z<!--c-->", "div"))
    assert items[0] == "x"
    assert (items[1].tag, items[1].text, items[1].tail) == ("b", "y", "z")
    assert items[2].tag is ElementTree.Comment
    with pytest.raises(TypeError, match="node must be"):
        lexpy.to_etree("<p>")
    with pytest.raises(TypeError, match="node must be"):
        lexpy.to_lxml(doc.body.first_child.first_child)   # a Text


def test_lxml_document_keeps_doctype_and_root_siblings():
    doc = lexpy.parse('<!--before--><!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" '
                      '"http://www.w3.org/TR/html4/strict.dtd"><html><p>x</html><!--after-->')
    tree = lexpy.to_lxml(doc)
    assert tree.docinfo.public_id == "-//W3C//DTD HTML 4.01//EN"
    assert tree.docinfo.system_url == "http://www.w3.org/TR/html4/strict.dtd"
    assert tree.docinfo.root_name == "html"
    root = tree.getroot()
    assert root.getprevious().text == "before"
    # the comment after </html> is in the body (the standard), the one
    # after the document element a sibling:
    doc = lexpy.parse("<!DOCTYPE html><html></html>\n<!--end-->")
    tree = lexpy.to_lxml(doc)
    assert tree.docinfo.doctype == "<!DOCTYPE html>"
    assert tree.getroot().getnext().text == "end"
    assert etree.tostring(tree).startswith(b"<!DOCTYPE html>\n<html>")


BAD_NAMES = ("<p x a:b:c=1 xmlns:foo=2 xmlns=3 1a=4 \u2603=5>"
             "<ns1:foo>t</ns1:foo><our\u2603>u</our\u2603>"
             "<svg xmlns:xlink=http://www.w3.org/1999/xlink xmlns=http://www.w3.org/2000/svg>"
             "</svg>")


@pytest.mark.parametrize("convert", ["etree", "lxml"])
def test_names_xml_cannot_hold_are_coerced_reversibly(convert):
    doc = lexpy.parse(BAD_NAMES)
    p = doc.body.first_child
    if convert == "etree":
        element = lexpy.to_etree(p)
        data = ElementTree.tostring(element)
    else:
        element = lexpy.to_lxml(p)
        data = etree.tostring(element)
    # well-formed XML, with every name coerced as the docs say
    etree.fromstring(data)
    assert list(element.attrib) == ["x", "aU0003AbU0003Ac", "U00078mlnsU0003Afoo",
                                    "U00078mlns", "U00031a", "U02603"]
    assert [from_xml_name(n) for n in element.attrib] == [
        name for name, _ in p.attributes.items()]
    assert [child.tag for child in element][:2] == ["ns1U0003Afoo", "ourU02603"]
    svg = element[2]
    assert svg.tag == "{%s}svg" % SVG
    assert sorted(svg.attrib) == ["U00078mlns", "U00078mlnsU0003Axlink"]
    # html5lib's InfosetFilter reverses the same coercion
    from html5lib._ihatexml import InfosetFilter
    assert InfosetFilter().fromXmlName("aU0003AbU0003Ac") == "a:b:c"


@pytest.mark.parametrize("convert", ["etree", "lxml"])
def test_characters_xml_cannot_hold(convert):
    doc = lexpy.parse("<p title='a\x01b\x0c'>t\x02\x0c\ufffe<!--x--y-->"
                      "<svg></svg><?x a?b?>")
    p = doc.body.first_child
    p.children[0].append(doc.create_processing_instruction("xml", "version='1.0'"))
    p.append(doc.create_comment("ends-"))
    p.append(doc.create_processing_instruction("t", "a?b"))
    text_node = doc.create_text_node("s\ud800")   # a lone surrogate from a str
    p.append(text_node)
    element = lexpy.to_etree(p) if convert == "etree" else lexpy.to_lxml(p)
    data = (ElementTree.tostring(element) if convert == "etree"
            else etree.tostring(element))
    parsed = etree.fromstring(data)          # well-formed XML
    assert parsed.get("title") == "a\ufffdb\ufffd"
    assert parsed.text == "t\ufffd\ufffd\ufffd"
    comment = parsed[0]
    assert comment.text == "x- -y"
    assert parsed[1][0].target == "U00078ml"
    assert parsed[2].target == "x" and parsed[2].text == "a?b"
    assert parsed[3].text == "ends- "
    assert parsed[4].text == "a?b"
    assert parsed[4].tail == "s\ufffd"


@pytest.mark.parametrize("convert", ["etree", "lxml"])
def test_a_million_nested_elements(convert):
    depth = 1_000_000
    doc = lexpy.parse("<div>" * depth)
    if convert == "etree":
        element = lexpy.to_etree(doc)[1]     # the body
        count = 0
        while len(element):
            element = element[0]
            count += 1
    else:
        # (lxml's element proxies cost time in the depth, so the tree is
        # counted by XPath and the serialization, both in libxml2)
        tree = lexpy.to_lxml(doc)
        count = int(tree.xpath("count(//div)"))
        assert len(etree.tostring(tree)) == len("<html><head/><body></body></html>") \
            + depth * len("<div></div>") - len("<div></div>") + len("<div/>")
    assert count == depth


def test_lxml_version_check(monkeypatch):
    import lexpy.etree as bridge
    monkeypatch.setattr(etree, "LXML_VERSION", (4, 2, 0, 0))
    with pytest.raises(ImportError, match=r"lxml >= 4\.6"):
        lexpy.to_lxml(lexpy.parse("<p>"))
    monkeypatch.undo()
    assert bridge._lxml() is etree


@pytest.mark.parametrize("path", corpus_pages(), ids=lambda p: p.name)
def test_xpath_on_corpus_page(path):
    """//* finds every element, and //a/@href the values in order: a
    template's contents count as its children in the lxml tree (lxml.html's
    model), so lexpy's elements are counted the same way."""
    doc = lexpy.parse(path.read_bytes())
    tree = lexpy.to_lxml(doc)
    elements = list(bridge_elements(doc))
    assert len(tree.xpath("//*")) == len(elements)
    if not any(e.local_name == "template" for e in elements):
        assert len(elements) == len(list(doc.iter()))
    hrefs = [a.get_attribute("href") for a in elements
             if a.local_name == "a" and a.namespace_uri == "http://www.w3.org/1999/xhtml"
             and a.has_attribute("href")]
    # (values keep their characters; one XML cannot hold would be U+FFFD)
    assert tree.xpath("//a/@href") == [xml_text(h) for h in hrefs]
