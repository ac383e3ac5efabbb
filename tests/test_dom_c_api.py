"""The C API of dom.pxd as the tree builder uses it (through the module's
test hooks): linking without checks, cloning, reclaim rules."""
import lexpy
from lexpy.dom import Document, dom

HTML = "http://www.w3.org/1999/xhtml"
SVG = "http://www.w3.org/2000/svg"


def test_linking():
    doc = Document()
    html = dom._test_element(doc, HTML, "html")
    dom._test_append(doc, html)
    a, b, c = (dom._test_element(doc, HTML, n) for n in "abc")
    dom._test_append(html, b)
    dom._test_insert_before(html, a, b)
    dom._test_insert_before(html, c, None)
    assert [n.local_name for n in html.child_nodes] == ["a", "b", "c"]
    dom._test_insert_before(html, c, a)          # a child that has a parent moves
    assert [n.local_name for n in html.child_nodes] == ["c", "a", "b"]
    dom._test_insert_before(html, a, a)          # before itself: stays
    assert [n.local_name for n in html.child_nodes] == ["c", "a", "b"]
    dom._test_append(a, c)                       # moved under a
    assert [n.local_name for n in html.child_nodes] == ["a", "b"]
    assert c.parent is a
    dom._test_remove(b)
    dom._test_remove(b)                          # no parent: nothing
    assert [n.local_name for n in html.child_nodes] == ["a"]
    assert (b.parent, b.next_sibling, b.previous_sibling) == (None, None, None)


def test_clone_in_the_same_document():
    doc = Document()
    div = dom._test_element(doc, HTML, "div")
    dom._test_add_attribute(div, None, None, "id", "x")
    template = dom._test_element(doc, HTML, "template")
    dom._test_append(div, template)
    dom._test_append(template.content, dom._test_character_data(doc, 3, "in"))
    svg = dom._test_element(doc, SVG, "svg")
    dom._test_add_attribute(svg, "http://www.w3.org/1999/xlink", "xlink", "href", "h")
    dom._test_append(div, svg)
    dom._test_append(div, dom._test_doctype(doc, "d", None, "s"))   # no checks here
    dom._test_append(div, dom._test_character_data(doc, 7, "d", target="t"))
    shallow = dom._test_clone(div, False)
    assert shallow.outer_html == '<div id="x"></div>'
    deep = dom._test_clone(div, True)
    assert lexpy.dump(deep) == lexpy.dump(div)
    assert deep.outer_html == div.outer_html
    assert deep.first_child.content.first_child.data == "in"


def test_doctype_with_missing_identifiers():
    doc = Document()
    doctype = dom._test_doctype(doc, None, None, None)
    assert (doctype.name, doctype.public_id, doctype.system_id) == ("", "", "")
    dom._test_append(doc, doctype)
    assert lexpy.dump(doc) == "| <!DOCTYPE >"


def test_dynamic_names_and_namespaces_survive_adoption():
    doc, other = Document(), Document()
    element = dom._test_element(doc, "urn:made-up", "x-unknown-name")
    dom._test_add_attribute(element, "urn:attr-ns", "p", "never-seen", "v")
    dom._test_add_attribute(element, None, None, "=odd", "w")
    other.append_child(element)
    assert element.owner_document is other
    assert element.namespace_uri == "urn:made-up"
    assert element.local_name == "x-unknown-name"
    assert element.attribute_nodes() == [("urn:attr-ns", "p", "never-seen", "v"),
                                         (None, None, "=odd", "w")]


def test_scripting_flag_reaches_the_serializer():
    doc = Document()
    noscript = dom._test_element(doc, HTML, "noscript")
    dom._test_append(noscript, dom._test_character_data(doc, 3, "<b>"))
    assert noscript.outer_html == "<noscript>&lt;b&gt;</noscript>"
    dom._test_set_scripting(doc, True)
    assert noscript.outer_html == "<noscript><b></noscript>"
