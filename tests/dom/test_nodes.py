"""The node classes: one block of tests per node type, navigation, text."""
import copy

import pytest

import lexpy
from lexpy.dom import (Comment, Document, DocumentFragment, DocumentType,
                       Element, InvalidCharacterError, NamespaceError, Node,
                       ProcessingInstruction, Text)

HTML = "http://www.w3.org/1999/xhtml"
SVG = "http://www.w3.org/2000/svg"
MATHML = "http://www.w3.org/1998/Math/MathML"


def small_document():
    """<!DOCTYPE html><html><head><title>T</title></head><body><p>a<b>b</b>c</p>
    <!--x--></body></html>, built through the API."""
    doc = Document()
    doc.append_child(doc.create_document_type("html"))
    html = doc.append_child(doc.create_element("html"))
    head = html.append_child(doc.create_element("head"))
    title = head.append_child(doc.create_element("title"))
    title.append_child(doc.create_text_node("T"))
    body = html.append_child(doc.create_element("body"))
    p = body.append_child(doc.create_element("p"))
    p.append_child(doc.create_text_node("a"))
    b = p.append_child(doc.create_element("b"))
    b.append_child(doc.create_text_node("b"))
    p.append_child(doc.create_text_node("c"))
    body.append_child(doc.create_comment("x"))
    return doc


# -- Document ---------------------------------------------------------------

def test_document_basics():
    doc = small_document()
    assert isinstance(doc, Node)
    assert doc.node_type == Node.DOCUMENT_NODE == 9
    assert doc.node_name == "#document"
    assert doc.owner_document is None
    assert doc.parent is None
    assert doc.text_content is None
    assert doc.document_element.local_name == "html"
    assert doc.head.local_name == "head"
    assert doc.body.local_name == "body"
    assert doc.doctype.name == "html"
    assert doc.quirks_mode == "no-quirks"
    assert doc.encoding == "UTF-8"
    assert doc.errors == []
    assert doc.scripting is False
    assert repr(doc) == "<Document>"


def test_empty_document():
    doc = Document()
    assert doc.document_element is None
    assert doc.head is None and doc.body is None and doc.doctype is None
    assert doc.child_nodes == []
    assert doc.to_html() == ""
    assert lexpy.dump(doc) == ""


def test_head_and_body_need_an_html_document_element():
    doc = Document()
    svg = doc.append_child(doc.create_element_ns(SVG, "svg"))
    svg.append_child(doc.create_element_ns(SVG, "head"))
    assert doc.document_element is svg
    assert doc.head is None and doc.body is None


def test_body_is_body_or_frameset():
    doc = Document()
    html = doc.append_child(doc.create_element("html"))
    frameset = html.append_child(doc.create_element("frameset"))
    html.append_child(doc.create_element("body"))
    assert doc.body is frameset


def test_quirks_mode_values():
    doc = Document()
    for mode in ("quirks", "limited-quirks", "no-quirks"):
        doc.quirks_mode = mode
        assert doc.quirks_mode == mode
    with pytest.raises(ValueError):
        doc.quirks_mode = "almost-standards"


def test_document_clone():
    doc = small_document()
    doc.quirks_mode = "quirks"
    shallow = doc.clone_node()
    assert isinstance(shallow, Document) and shallow is not doc
    assert shallow.child_nodes == [] and shallow.quirks_mode == "quirks"
    deep = doc.clone_node(deep=True)
    assert lexpy.dump(deep) == lexpy.dump(doc)
    assert deep.to_html() == doc.to_html()
    assert deep.body.owner_document is deep


# -- Element ----------------------------------------------------------------

def test_element_names():
    doc = Document()
    div = doc.create_element("DiV")
    assert isinstance(div, Element)
    assert div.node_type == Node.ELEMENT_NODE
    assert div.local_name == "div"
    assert div.namespace_uri == HTML
    assert div.prefix is None
    assert div.tag_name == div.node_name == "DIV"
    assert repr(div) == "<Element div>"
    custom = doc.create_element("my-Element")
    assert custom.local_name == "my-element" and custom.tag_name == "MY-ELEMENT"


def test_foreign_element_names_keep_their_case():
    doc = Document()
    fo = doc.create_element_ns(SVG, "foreignObject")
    assert fo.local_name == "foreignObject"
    assert fo.tag_name == "foreignObject"
    assert fo.namespace_uri == SVG
    assert repr(fo) == "<Element svg foreignObject>"
    mi = doc.create_element_ns(MATHML, "mi")
    assert mi.namespace_uri == MATHML and repr(mi) == "<Element math mi>"
    prefixed = doc.create_element_ns("urn:x", "x:Thing")
    assert prefixed.prefix == "x" and prefixed.local_name == "Thing"
    assert prefixed.tag_name == prefixed.qualified_name == "x:Thing"
    assert prefixed.namespace_uri == "urn:x"
    none = doc.create_element_ns(None, "plain")
    assert none.namespace_uri is None
    assert doc.create_element_ns("", "plain").namespace_uri is None


def test_create_element_ns_in_html_namespace_keeps_case():
    doc = Document()
    el = doc.create_element_ns(HTML, "DIV")
    assert el.local_name == "DIV" and el.to_html() == "<DIV></DIV>"


@pytest.mark.parametrize("name", ["", "1a", "a b", "a>b", "a/b", "a\0", "-a", "a\tb"])
def test_create_element_rejects_invalid_names(name):
    doc = Document()
    with pytest.raises(InvalidCharacterError):
        doc.create_element(name)
    with pytest.raises(ValueError):
        doc.create_element_ns(HTML, name)


@pytest.mark.parametrize("name", ["a", "a-b", "a1", "_x", ":x", "\u00e9l\u00e9ment",
                                  "a.b", "a\u00b7b", "A<b", "x:y"])
def test_create_element_accepts_valid_names(name):
    doc = Document()
    assert doc.create_element(name).local_name == name.lower()


@pytest.mark.parametrize("namespace,name", [
    (None, "x:a"), ("urn:x", "xml:a"), ("urn:x", "xmlns"), ("urn:x", "xmlns:a"),
    ("http://www.w3.org/2000/xmlns/", "a"), (HTML, ":a"), (HTML, "a:"),
])
def test_create_element_ns_namespace_errors(namespace, name):
    doc = Document()
    with pytest.raises((NamespaceError, InvalidCharacterError)):
        doc.create_element_ns(namespace, name)


def test_create_element_type_errors():
    doc = Document()
    for bad in (None, 1, b"div", ["div"]):
        with pytest.raises(TypeError):
            doc.create_element(bad)
    with pytest.raises(TypeError):
        doc.create_element_ns(1, "div")
    with pytest.raises(TypeError):
        doc.create_element_ns(HTML, None)


def test_template_content():
    doc = Document()
    template = doc.create_element("template")
    content = template.content
    assert isinstance(content, DocumentFragment)
    assert content is template.content              # cached proxy
    assert content.host is template
    assert content.parent is None
    assert content.owner_document is doc
    assert doc.create_element("div").content is None
    # Only an HTML template has contents.
    assert doc.create_element_ns(SVG, "template").content is None
    span = content.append_child(doc.create_element("span"))
    assert template.child_nodes == []
    assert template.inner_html == "<span></span>"
    assert span.parent is content
    # The contents survive the template's proxy.
    del template, content
    assert span.parent.host.local_name == "template"


def test_template_contents_cannot_take_their_template():
    doc = Document()
    template = doc.create_element("template")
    with pytest.raises(ValueError):
        template.content.append_child(template)
    div = template.content.append_child(doc.create_element("div"))
    with pytest.raises(ValueError):
        div.append_child(template)


def test_element_clone_copies_attributes_and_template_contents():
    doc = Document()
    template = doc.create_element("template")
    template.set_attribute("id", "t")
    template.content.append_child(doc.create_element("b")).append_child(
        doc.create_text_node("x"))
    template.append_child(doc.create_element("i"))
    shallow = template.clone_node()
    assert shallow.get_attribute("id") == "t"
    assert shallow.content.child_nodes == [] and shallow.child_nodes == []
    deep = template.clone_node(True)
    assert lexpy.dump(deep) == lexpy.dump(template)
    assert deep.content is not template.content
    assert deep.content.host is deep
    deep.content.first_child.set_attribute("changed", "1")
    assert template.content.first_child.get_attribute("changed") is None
    assert copy.deepcopy(template).outer_html == template.outer_html
    assert copy.copy(template).outer_html == "<template id=\"t\"></template>"


# -- CharacterData --------------------------------------------------------

@pytest.mark.parametrize("factory,cls,node_type,name", [
    ("create_text_node", Text, 3, "#text"),
    ("create_comment", Comment, 8, "#comment"),
])
def test_text_and_comment(factory, cls, node_type, name):
    doc = Document()
    node = getattr(doc, factory)("d\u00e9j\u00e0 \U0001F600")
    assert isinstance(node, cls)
    assert node.node_type == node_type and node.node_name == name
    assert node.data == node.text_content == "d\u00e9j\u00e0 \U0001F600"
    assert node.length == len(node.data) == 6   # code points, not UTF-16 units
    node.data = "new"
    assert node.data == "new"
    node.text_content = "other"
    assert node.data == "other"
    node.text_content = None
    assert node.data == ""
    node.append_data("ab")
    node.append_data("cd")
    assert node.data == "abcd"
    assert node.child_nodes == [] and node.first_child is None
    assert node.owner_document is doc
    with pytest.raises(TypeError):
        node.data = 5
    with pytest.raises(TypeError):
        getattr(doc, factory)(None)
    assert repr(node) == "<%s 'abcd'>" % cls.__name__


def test_lone_surrogates_round_trip():
    doc = Document()
    text = doc.create_text_node("a\ud800b")
    assert text.data == "a\ud800b"


def test_processing_instruction():
    doc = Document()
    pi = doc.create_processing_instruction("xml-stylesheet", "href='a.css'")
    assert isinstance(pi, ProcessingInstruction)
    assert pi.node_type == Node.PROCESSING_INSTRUCTION_NODE == 7
    assert pi.target == pi.node_name == "xml-stylesheet"
    assert pi.data == "href='a.css'"
    assert pi.to_html() == "<?xml-stylesheet href='a.css'?>"
    empty = doc.create_processing_instruction("t", "")
    assert empty.to_html() == "<?t ?>"
    for target in ("", "1a", "a b", "a?"):
        with pytest.raises(InvalidCharacterError):
            doc.create_processing_instruction(target, "d")
    with pytest.raises(InvalidCharacterError):
        doc.create_processing_instruction("t", "a?>b")
    with pytest.raises(TypeError):
        doc.create_processing_instruction("t", None)


def test_document_type():
    doc = Document()
    doctype = doc.create_document_type("html", "-//W3C//DTD HTML 4.01//EN",
                                       "http://www.w3.org/TR/html4/strict.dtd")
    assert isinstance(doctype, DocumentType)
    assert doctype.node_type == Node.DOCUMENT_TYPE_NODE == 10
    assert doctype.name == doctype.node_name == "html"
    assert doctype.public_id == "-//W3C//DTD HTML 4.01//EN"
    assert doctype.system_id == "http://www.w3.org/TR/html4/strict.dtd"
    assert doctype.text_content is None
    assert doctype.to_html() == "<!DOCTYPE html>"
    assert repr(doctype) == "<DocumentType html>"
    with pytest.raises(InvalidCharacterError):
        doc.create_document_type("a b")
    with pytest.raises(TypeError):
        doc.create_document_type("html", None)


def test_document_fragment():
    doc = Document()
    fragment = doc.create_document_fragment()
    assert fragment.node_type == Node.DOCUMENT_FRAGMENT_NODE == 11
    assert fragment.node_name == "#document-fragment"
    assert fragment.host is None and fragment.parent is None
    fragment.append_child(doc.create_text_node("a"))
    fragment.append_child(doc.create_element("b"))
    assert fragment.to_html() == "a<b></b>"
    assert fragment.text_content == "a"
    fragment.text_content = "x"
    assert fragment.to_html() == "x"


# -- navigation ---------------------------------------------------------------

def test_navigation():
    doc = small_document()
    p = doc.body.first_child
    a, b, c = p.child_nodes
    assert (a.data, b.local_name, c.data) == ("a", "b", "c")
    assert p.first_child is a and p.last_child is c
    assert a.next_sibling is b and b.next_sibling is c and c.next_sibling is None
    assert c.previous_sibling is b and a.previous_sibling is None
    assert b.parent is p and b.parent_node is p and b.parent_element is p
    assert doc.document_element.parent is doc
    assert doc.document_element.parent_element is None
    assert p.children == [b]
    assert p.first_element_child is b and p.last_element_child is b
    assert list(p) == [a, b, c]
    assert p.has_child_nodes() and not a.has_child_nodes()
    assert doc.contains(b) and p.contains(p) and not b.contains(p)
    assert not p.contains(None)
    assert [n.node_name for n in doc.descendants()] == [
        "html", "HTML", "HEAD", "TITLE", "#text", "BODY", "P", "#text", "B",
        "#text", "#text", "#comment"]


def test_proxies_are_cached():
    doc = small_document()
    assert doc.body is doc.body
    assert doc.body.first_child is doc.body.first_child
    assert doc.document_element.parent is doc


def test_text_content_of_elements():
    doc = small_document()
    assert doc.body.text_content == "abc"
    assert doc.document_element.text_content == "Tabc"
    p = doc.body.first_child
    p.text_content = "new <text>"
    assert [n.node_name for n in p.child_nodes] == ["#text"]
    assert p.to_html() == "<p>new &lt;text&gt;</p>"
    p.text_content = ""
    assert p.child_nodes == []
    p.text_content = None
    assert p.child_nodes == []
    with pytest.raises(TypeError):
        p.text_content = 3


def test_text_content_skips_template_contents():
    doc = Document()
    div = doc.create_element("div")
    template = div.append_child(doc.create_element("template"))
    template.content.append_child(doc.create_text_node("hidden"))
    div.append_child(doc.create_text_node("shown"))
    assert div.text_content == "shown"
    assert template.content.text_content == "hidden"


def test_normalize_merges_adjacent_text():
    doc = Document()
    div = doc.create_element("div")
    for piece in ("a", "", "b"):
        div.append_child(doc.create_text_node(piece))
    span = div.append_child(doc.create_element("span"))
    span.append_child(doc.create_text_node(""))
    div.append_child(doc.create_text_node("c"))
    first = div.first_child
    div.normalize()
    assert [n.node_name for n in div.child_nodes] == ["#text", "SPAN", "#text"]
    assert div.first_child is first and first.data == "ab"
    assert span.child_nodes == []


def test_nodes_cannot_be_made_directly():
    for cls in (Node, Element, Text, Comment, DocumentFragment, DocumentType,
                ProcessingInstruction):
        with pytest.raises(TypeError):
            cls()


def test_unattached_proxy_objects_raise_instead_of_crashing():
    # __new__ skips __init__: the object has no node behind it.
    for cls in (Element, Text, Comment, DocumentFragment, DocumentType):
        orphan = cls.__new__(cls)
        with pytest.raises(ValueError):
            orphan.parent
        with pytest.raises(ValueError):
            orphan.to_html()
        with pytest.raises(ValueError):
            orphan.child_nodes
        with pytest.raises(ValueError):
            Document().append_child(orphan)
        with pytest.raises(ValueError):
            lexpy.dump(orphan)
    with pytest.raises(ValueError):
        Element.__new__(Element).get_attribute("a")
