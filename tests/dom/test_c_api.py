"""The C API of dom.pxd as the tree builder uses it: nodes made through
the test build's hooks (lexpy.dom._testing), which make
detached nodes only; linking, cloning and the scripting flag go through
the public API, which no hook can bypass."""
import re
from pathlib import Path

import pytest

import lexpy
from lexpy.dom import Document, dom
from tests.helpers import require_test_build

dom_testing = require_test_build("lexpy.dom._testing")
from lexpy.driver.driver import TreeConstruction

HTML = "http://www.w3.org/1999/xhtml"
SVG = "http://www.w3.org/2000/svg"


def test_linking_nodes_the_tree_builder_made():
    doc = Document()
    html = dom_testing.element(doc, HTML, "html")
    doc.append_child(html)
    a, b, c = (dom_testing.element(doc, HTML, n) for n in "abc")
    html.append_child(b)
    html.insert_before(a, b)
    html.insert_before(c, None)
    assert [n.local_name for n in html.child_nodes] == ["a", "b", "c"]
    html.insert_before(c, a)                     # a child that has a parent moves
    assert [n.local_name for n in html.child_nodes] == ["c", "a", "b"]
    html.insert_before(a, a)                     # before itself: stays
    assert [n.local_name for n in html.child_nodes] == ["c", "a", "b"]
    a.append_child(c)                            # moved under a
    assert [n.local_name for n in html.child_nodes] == ["a", "b"]
    assert c.parent is a
    b.remove()
    b.remove()                                   # no parent: nothing
    assert [n.local_name for n in html.child_nodes] == ["a"]
    assert (b.parent, b.next_sibling, b.previous_sibling) == (None, None, None)


def test_no_hook_links_nodes():
    # The hooks make detached nodes and read statistics; linking is the
    # checked public API's (no cycle can be made through a hook).
    hooks = [name for name in dir(dom_testing) if not name.startswith("_")]
    assert [name for name in hooks if any(
        word in name for word in ("append_child", "insert", "remove",
                                  "clone", "scripting"))] == []
    assert "append" not in hooks and "element" in hooks
    doc = Document()
    a = dom_testing.element(doc, HTML, "a")
    b = a.append_child(dom_testing.element(doc, HTML, "b"))
    with pytest.raises(lexpy.dom.HierarchyRequestError):
        b.append_child(a)


def test_only_a_processing_instruction_gets_a_target():
    doc = Document()
    with pytest.raises(ValueError, match="target"):
        dom_testing.character_data(doc, 3, "text", target="t")
    assert dom_testing.character_data(doc, 7, "d", target="t").target == "t"


def test_the_building_hook_cannot_release_a_tree_builder():
    construction = TreeConstruction(True, True, False)
    document = construction.document_object()     # a tree builder works on it
    with pytest.raises(ValueError, match="tree builder"):
        dom_testing.set_building(document, False)
    with pytest.raises(ValueError, match="being built"):
        dom_testing.set_building(document, True)
    construction.finish()
    dom_testing.set_building(document, True)
    dom_testing.set_building(document, False)


def test_clone_in_the_same_document():
    doc = Document()
    div = dom_testing.element(doc, HTML, "div")
    dom_testing.add_attribute(div, None, None, "id", "x")
    template = dom_testing.element(doc, HTML, "template")
    div.append_child(template)
    template.content.append_child(dom_testing.character_data(doc, 3, "in"))
    svg = dom_testing.element(doc, SVG, "svg")
    dom_testing.add_attribute(svg, "http://www.w3.org/1999/xlink", "xlink", "href", "h")
    div.append_child(svg)
    div.append_child(dom_testing.character_data(doc, 7, "d", target="t"))
    shallow = div.clone_node(False)
    assert shallow.outer_html == '<div id="x"></div>'
    deep = div.clone_node(True)
    assert lexpy.dump(deep) == lexpy.dump(div)
    assert deep.outer_html == div.outer_html
    assert deep.first_child.content.first_child.data == "in"


def test_doctype_with_missing_identifiers():
    doc = Document()
    doctype = dom_testing.doctype(doc, None, None, None)
    assert (doctype.name, doctype.public_id, doctype.system_id) == ("", "", "")
    doc.append_child(doctype)
    assert lexpy.dump(doc) == "| <!DOCTYPE >"


def test_dynamic_names_and_namespaces_survive_adoption():
    doc, other = Document(), Document()
    element = dom_testing.element(doc, "urn:made-up", "x-unknown-name")
    dom_testing.add_attribute(element, "urn:attr-ns", "p", "never-seen", "v")
    dom_testing.add_attribute(element, None, None, "=odd", "w")
    other.append_child(element)
    assert element.owner_document is other
    assert element.namespace_uri == "urn:made-up"
    assert element.local_name == "x-unknown-name"
    assert element.attribute_nodes() == [("urn:attr-ns", "p", "never-seen", "v"),
                                         (None, None, "=odd", "w")]


def test_scripting_flag_reaches_the_serializer():
    for scripting, expected in [(False, "<noscript>&lt;b&gt;</noscript>"),
                                (True, "<noscript><b></noscript>")]:
        doc = Document(scripting=scripting)
        noscript = dom_testing.element(doc, HTML, "noscript")
        noscript.append_child(dom_testing.character_data(doc, 3, "<b>"))
        assert noscript.outer_html == expected


C_TYPES = re.compile(r"\*|^(inline\s+)?(const\s+)?(void|bint|int|size_t|Py_ssize_t|"
                     r"Py_UCS4|u?int\d+_t|lxp_\w+|char|double|unsigned\b.*)$")


def _cdef_functions(path):
    """(line number, return type, signature) of each cdef function."""
    lines = path.read_text(encoding="utf-8").split("\n")
    for index, line in enumerate(lines):
        match = re.match(r"\s*cdef\s+(?!class|struct|enum|extern|union|packed)"
                         r"([\w\s\*]+?)\s*\b(\w+)\(", line)
        if not match or "=" in line.split("(")[0]:
            continue
        signature, end = line, index
        while signature.count("(") > signature.count(")") and end + 1 < len(lines):
            end += 1
            signature += " " + lines[end].strip()
        yield index + 1, match.group(1).strip(), signature


def test_every_c_function_of_the_dom_declares_how_it_fails():
    # noexcept or except on every cdef function returning a C type (one
    # returning a Python object always propagates; Cython allows no clause
    # there).
    root = Path(lexpy.__file__).parent / "dom"
    missing = []
    checked = 0
    for path in sorted(root.glob("*.p[xy][xid]")):
        for number, return_type, signature in _cdef_functions(path):
            if not C_TYPES.search(return_type):
                continue
            checked += 1
            if "noexcept" not in signature and "except" not in signature:
                missing.append("%s:%d: %s" % (path.name, number, signature.strip()))
    assert checked > 100
    assert missing == []
