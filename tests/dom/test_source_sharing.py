"""A parse from a bytes object shares its input: the Document keeps the
bytes, and the Text nodes and attribute values that need no conversion
point into them instead of holding a copy (CDocument.source_begin). Every
change must then copy first: the bytes never change, and the document reads
the same as one parsed from a buffer that is copied (bytearray,
memoryview)."""
import gc
import sys

import pytest

import lexpy

PAGES = [
    b"<!DOCTYPE html><title>t</title><p class=a id=b>one <b>two</b> three</p>"
    b"<a href='/x?y=1'>link</a>\n  <ul>\n  <li>i\n  <li>ii\n</ul>",
    # what needs conversion sits beside what does not: CRLF, references,
    # U+0000, upper case, a value split by the end of the input
    b"<div TITLE=\"A&amp;B\" data-x=plain>\r\nline&nbsp;one\r\n<span>\x00x</span>"
    b"<img alt='caf\xc3\xa9' src=/i.png>t\xc3\xa9xt</div><p title=\"unfinished",
    # foster parenting, the adoption agency, template contents, foreign content
    b"<table><tr><td>cell</td></tr>loose<b>bold<p>para</b>after</table>"
    b"<template><i class=c>in template</i></template>"
    b"<svg viewBox='0 0 1 1'><text x=1>svg text</text></svg>",
]


def _texts_and_values(document):
    out = []
    for node in document.query_selector_all("*"):
        out.append((node.local_name, sorted(node.attributes.items())))
        for child in node.child_nodes:
            if isinstance(child, lexpy.Text):
                out.append(child.data)
    return out


@pytest.mark.parametrize("page", PAGES)
def test_a_shared_input_reads_as_a_copied_one(page):
    shared = lexpy.parse(page)
    copied = lexpy.parse(bytearray(page))
    assert shared.to_html() == copied.to_html()
    assert _texts_and_values(shared) == _texts_and_values(copied)


def test_the_document_keeps_its_input():
    page = b"<p class=kept>" + b"text " * 1000 + b"</p>"
    before = sys.getrefcount(page)
    document = lexpy.parse(page)
    assert sys.getrefcount(page) == before + 1
    expected = lexpy.parse(bytearray(page)).to_html()
    del page
    gc.collect()
    assert document.to_html() == expected
    assert document.query_selector("p").get_attribute("class") == "kept"


def test_a_mutable_buffer_is_copied():
    page = bytearray(b"<p class=abc>text</p>")
    document = lexpy.parse(page)
    page[:] = b"<p class=XYZ>TEXT</p>"
    p = document.query_selector("p")
    assert p.get_attribute("class") == "abc"
    assert p.text_content == "text"


@pytest.mark.parametrize("page", PAGES)
def test_changes_copy_and_leave_the_input_alone(page):
    original = bytes(page)
    shared = lexpy.parse(page)
    copied = lexpy.parse(bytearray(page))
    for document in (shared, copied):
        for element in document.query_selector_all("*"):
            for name, value in list(element.attributes.items()):
                # shorter (the in-place path for a value of the document's
                # own), then longer, then removed for one in two
                element.set_attribute(name, value[:1])
                element.set_attribute(name, value[:1] + "+changed")
            for child in list(element.child_nodes):
                if isinstance(child, lexpy.Text):
                    if len(child.data) > 1:
                        child.data = child.data[:1]
                    child.append_data("|appended")
        document.body.normalize()
    assert page == original
    assert shared.to_html() == copied.to_html()
    assert _texts_and_values(shared) == _texts_and_values(copied)


def test_moved_and_cloned_nodes_outlive_the_input():
    page = b"<div id=d title=shared><p>moved text</p><i>kept</i></div>"
    source = lexpy.parse(page)
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
