"""lexpy.dump(): the html5lib tree-construction test format, byte for byte.

The main check rebuilds the tree of every "#document" block of every .dat
file (html5lib-tests with the WPT overlay) through the C API the tree builder
uses, dumps it and compares the text exactly: every shape the suites know
(foreign elements, namespaced attributes, templates, PIs, doctypes, text
with newlines) goes through dump().
"""
import re

import pytest

import lexpy
from lexpy.dom import Document, dom
from tests.helpers import require_test_build

dom_testing = require_test_build("lexpy.dom._testing")
from tests.conformance import data

NAMESPACES = {
    "": "http://www.w3.org/1999/xhtml",
    "svg": "http://www.w3.org/2000/svg",
    "math": "http://www.w3.org/1998/Math/MathML",
}
ATTRIBUTE_NAMESPACES = {
    "xlink": "http://www.w3.org/1999/xlink",
    "xml": "http://www.w3.org/XML/1998/namespace",
    "xmlns": "http://www.w3.org/2000/xmlns/",
}
DOCTYPE = re.compile(r'<!DOCTYPE (.*?)(?: "(.*)" "(.*)")?>\Z', re.S)
ATTRIBUTE = re.compile(r'([^"=][^=]*|)="(.*)"\Z', re.S)


def _items(document):
    """(depth, text) per node line; lines not starting with "| " continue
    the previous item (text and attribute values keep their newlines)."""
    items = []
    for line in document.split("\n"):
        if line.startswith("| "):
            body = line[2:]
            stripped = body.lstrip(" ")
            depth = (len(body) - len(stripped)) // 2
            items.append([depth, body[depth * 2:]])
        else:
            items[-1][1] += "\n" + line
    return items


def build_from_dump(document_text):
    """A Document whose children are the tree a .dat "#document" block
    describes, its nodes made with the tree builder's C calls and linked
    with the DOM's append_child; a fragment case's block, which no Document
    may hold (text, several elements), goes into a DocumentFragment."""
    try:
        return _build_from_dump(document_text, fragment=False)
    except lexpy.dom.HierarchyRequestError:
        return _build_from_dump(document_text, fragment=True)


def _build_from_dump(document_text, fragment):
    doc = Document()
    root = doc.create_document_fragment() if fragment else doc
    # stack[d] is the node whose children are at depth d
    stack = [root]
    last_element = None
    for depth, text in _items(document_text):
        del stack[depth + 1:]
        parent = stack[depth]
        if text.startswith('"') and text.endswith('"') and len(text) >= 2 and not (
                last_element is not None and parent is last_element
                and ATTRIBUTE.match(text) and not parent.child_nodes):
            node = dom_testing.character_data(doc, 3, text[1:-1])
        elif text.startswith("<!-- ") and text.endswith(" -->"):
            node = dom_testing.character_data(doc, 8, text[5:-4])
        elif text.startswith("<!DOCTYPE "):
            name, public_id, system_id = DOCTYPE.match(text).groups()
            node = dom_testing.doctype(doc, name, public_id, system_id)
        elif text.startswith("<?") and text.endswith("?>"):
            target, _, pi_data = text[2:-2].partition(" ")
            node = dom_testing.character_data(doc, 7, pi_data, target=target)
        elif text == "content" and getattr(parent, "content", None) is not None:
            stack.append(parent.content)
            continue
        elif text.startswith("<") and text.endswith(">") and not (
                parent is last_element and ATTRIBUTE.match(text)
                and not parent.child_nodes):
            name = text[1:-1]
            prefix, space, local = name.partition(" ")
            if space and prefix in ("svg", "math"):
                node = dom_testing.element(doc, NAMESPACES[prefix], local)
            else:
                node = dom_testing.element(doc, NAMESPACES[""], name)
            parent.append_child(node)
            stack.append(node)
            last_element = node
            continue
        else:
            match = ATTRIBUTE.match(text)
            assert match, "unparsable dump line %r" % text
            assert parent is last_element and not parent.child_nodes, text
            name, value = match.groups()
            prefix, space, local = name.partition(" ")
            if space and prefix in ATTRIBUTE_NAMESPACES:
                dom_testing.add_attribute(
                    parent, ATTRIBUTE_NAMESPACES[prefix],
                    None if (prefix == "xmlns" and local == "xmlns") else prefix,
                    local, value)
            else:
                dom_testing.add_attribute(parent, None, None, name, value)
            continue
        parent.append_child(node)
        stack.append(node)
    return root


def _document_blocks():
    return list(_iter_document_blocks())


def _iter_document_blocks():
    seen = set()
    for case in data.tree_cases():
        if case.document in seen:
            continue
        seen.add(case.document)
        yield pytest.param(case.document, id=case.id)


@pytest.mark.parametrize("expected", _document_blocks())
def test_dump_reproduces_every_dat_document_block(expected):
    doc = build_from_dump(expected)
    assert lexpy.dump(doc) == expected


def test_dump_sorts_attributes_by_utf16_code_units():
    doc = Document()
    div = doc.create_element("div")
    doc.append_child(div)
    # U+FF21 sorts after U+1F600 in UTF-16 (0xFF21 > 0xD83D), before it by
    # code point; "b" and "a" check plain order, "xlink href" the namespace
    # designator.
    for name in ["\U0001F600", "\uFF21", "b", "a"]:
        div.set_attribute(name, "v")
    div.set_attribute_ns("http://www.w3.org/1999/xlink", "xlink:href", "h")
    assert lexpy.dump(doc).split("\n") == [
        "| <div>",
        '|   a="v"',
        '|   b="v"',
        '|   xlink href="h"',
        '|   \U0001F600="v"',
        '|   \uFF21="v"',
    ]


def test_dump_of_an_element_lists_its_children():
    doc = Document()
    div = doc.create_element("div")
    div.append_child(doc.create_text_node("a"))
    span = doc.create_element("span")
    div.append_child(span)
    span.append_child(doc.create_comment("c"))
    assert lexpy.dump(div) == '| "a"\n| <span>\n|   <!-- c -->'
    assert lexpy.dump(doc) == ""


def test_dump_of_template_contents_and_children():
    doc = Document()
    template = doc.create_element("template")
    doc.append_child(template)
    template.content.append_child(doc.create_element("b"))
    template.append_child(doc.create_element("i"))   # API-made: dumped after
    assert lexpy.dump(doc) == "| <template>\n|   content\n|     <b>\n|   <i>"
    assert lexpy.dump(template.content) == "| <b>"


def test_dump_of_doctypes():
    doc = Document()
    doc.append_child(doc.create_document_type("html"))
    assert lexpy.dump(doc) == "| <!DOCTYPE html>"
    other = Document()
    other.append_child(other.create_document_type("html", "", "about:legacy-compat"))
    assert lexpy.dump(other) == '| <!DOCTYPE html "" "about:legacy-compat">'


def test_dump_rejects_non_nodes():
    with pytest.raises(TypeError):
        lexpy.dump("<p>")
    with pytest.raises(TypeError):
        lexpy.dump(None)
