"""A parse from a bytes object shares its input: the Document keeps the
bytes, and the Text nodes, comments and attribute values whose text is
their bytes (UTF-8 the decoder passed through, nothing to convert) point
into them instead of holding a copy (CDocument.source_begin). Every change
must then copy first: the bytes never change, another document parsed
from the same bytes never changes, and the document reads the same as one
parsed from a buffer that is copied (bytearray)."""
import gc
import sys

import pytest

import lexpy
from tests.helpers import require_test_build

dom_testing = require_test_build("lexpy.dom._testing")

UTF8 = b"<meta charset=utf-8>"
PAGES = [
    UTF8 + b"<title>t</title><p>first</p><p class=a id=b>one <b>two</b> three</p>"
    b"<a href='/x?y=1'>link</a>\n  <ul>\n  <li>i\n  <li>ii\n</ul>",
    # what needs conversion sits beside what does not: CRLF, references,
    # U+0000, upper case, a value cut by the end of the input
    UTF8 + b"<p>x</p><div TITLE=\"A&amp;B\" data-x=plain>\r\nline&nbsp;one\r\n"
    b"<span>\x00x</span><img alt='caf\xc3\xa9' src=/i.png>t\xc3\xa9xt</div>"
    b"<p title=\"unfinished",
    # foster parenting, the adoption agency, template contents, foreign content
    UTF8 + b"<p>x</p><table><tr><td>cell</td></tr>loose<b>bold<p>para</b>after</table>"
    b"<template><i class=c>in template</i></template>"
    b"<svg viewBox='0 0 1 1'><text x=1>svg text</text></svg>",
    # comments and processing instructions, with and without conversion
    b"<!-- a comment --><html><!--in\r\nhtml--><head>" + UTF8 + b"<body><!---->x"
    b"<!-- \x00 --><?target data?><p>y<!--last-->",
    # a legacy encoding: decoded into the stream's own buffer (nothing to
    # share)
    b"<meta charset=windows-1252><p>x</p><p class=abc>caf\xe9</p><!--c-->",
]


def _texts_and_values(document):
    out = []
    for node in document.query_selector_all("*"):
        out.append((node.local_name, sorted(node.attributes.items())))
        for child in node.child_nodes:
            if isinstance(child, (lexpy.Text, lexpy.Comment)):
                out.append(child.data)
    return out


def _shared(document):
    """The Text nodes, comments and attribute values that point into the
    input."""
    shared = []
    for element in document.query_selector_all("*"):
        names = list(element.attributes)
        shared += [(element.local_name, names[i])
                   for i in dom_testing.shared_with_input(element)]
        shared += [child.data for child in element.child_nodes
                   if isinstance(child, (lexpy.Text, lexpy.Comment))
                   and dom_testing.shared_with_input(child)]
    return shared


def test_what_needs_no_conversion_is_shared():
    shared = _shared(lexpy.parse(PAGES[0]))
    assert ("p", "class") in shared and ("a", "href") in shared
    assert "one " in shared and "link" in shared
    shared = _shared(lexpy.parse(PAGES[1]))
    assert ("div", "data-x") in shared and ("img", "alt") in shared
    assert ("div", "title") not in shared           # &amp;
    assert "t\u00e9xt" in shared
    assert not [text for text in shared if isinstance(text, str) and "line" in text]
    shared = _shared(lexpy.parse(PAGES[3]))
    assert "last" in shared and "in\nhtml" not in shared
    assert _shared(lexpy.parse(PAGES[4])) == []
    # Undeclared: what the sniffer held while it waited for 1024 bytes is a
    # copy; past them the input goes on as it came (ASCII reads the same in
    # windows-1252 and UTF-8).
    undeclared = b"<p>x</p><p class=abc>plain</p><!--c-->"
    assert _shared(lexpy.parse(undeclared)) == []
    assert {("p", "class"), "plain", "c"} <= set(_shared(lexpy.parse(undeclared + b" " * 1024)))
    for page in PAGES:
        assert _shared(lexpy.parse(bytearray(page))) == []


@pytest.mark.parametrize("page", PAGES)
def test_a_shared_input_reads_as_a_copied_one(page):
    shared = lexpy.parse(page)
    copied = lexpy.parse(bytearray(page))
    assert shared.to_html() == copied.to_html()
    assert _texts_and_values(shared) == _texts_and_values(copied)


def test_the_document_keeps_its_input():
    page = UTF8 + b"<p>x</p><p class=kept>" + b"text " * 1000 + b"</p>"
    before = sys.getrefcount(page)
    document = lexpy.parse(page)
    assert sys.getrefcount(page) == before + 1
    expected = lexpy.parse(bytearray(page)).to_html()
    del page
    gc.collect()
    assert document.to_html() == expected
    assert document.query_selector("p.kept").get_attribute("class") == "kept"


def test_a_mutable_buffer_is_copied():
    page = bytearray(UTF8 + b"<p>x</p><p class=abc>text</p>")
    document = lexpy.parse(page)
    page[-25:] = b"<p>x</p><p class=XYZ>TEXT</p>"[-25:]
    p = document.query_selector("p.abc")
    assert p.get_attribute("class") == "abc"
    assert p.text_content == "text"


@pytest.mark.parametrize("page", PAGES)
def test_changes_copy_and_leave_the_input_alone(page):
    original = bytearray(page)          # (bytes(page) would be page itself)
    shared = lexpy.parse(page)
    untouched = lexpy.parse(page)       # shares the same bytes
    expected = untouched.to_html()
    copied = lexpy.parse(bytearray(page))
    for document in (shared, copied):
        for element in document.query_selector_all("*"):
            for name, value in list(element.attributes.items()):
                # other bytes, as long and shorter (a value is overwritten
                # in place when it fits), then longer
                element.set_attribute(name, "#" * len(value))
                element.set_attribute(name, "#")
                element.set_attribute(name, value + "+changed")
            for child in list(element.child_nodes):
                if isinstance(child, (lexpy.Text, lexpy.Comment)):
                    child.data = "#" * len(child.data)
                    child.data = "#"
                    child.append_data("|appended")
        document.body.normalize()
    assert page == original
    assert untouched.to_html() == expected
    assert shared.to_html() == copied.to_html()
    assert _texts_and_values(shared) == _texts_and_values(copied)


def test_moved_and_cloned_nodes_outlive_the_input():
    page = UTF8 + b"<div id=d title=shared><p>moved text</p><i>kept</i></div>"
    source = lexpy.parse(page)
    assert _shared(source)
    target = lexpy.parse(b"<main></main>")
    div = source.query_selector("div")
    clone = div.clone_node(True)
    target.query_selector("main").append_child(target.adopt_node(div))
    target.body.append_child(target.adopt_node(clone))
    del source, page, div, clone
    gc.collect()
    assert target.body.inner_html == (
        '<main><div id="d" title="shared"><p>moved text</p><i>kept</i></div></main>'
        '<div id="d" title="shared"><p>moved text</p><i>kept</i></div>')
