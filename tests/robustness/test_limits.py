"""Limits at sizes that run in seconds (tools/limits.py runs the full ones:
100 MB, a million deep, a million attributes): deep nesting, huge tags and
text nodes parse, serialize, dump and free without RecursionError or a
crash (tests/robustness/test_linearity.py times the hostile shapes' growth)."""
import pytest

import lexpy
from tests.tools import load_tool

limits = load_tool("limits")


def chunked(data, size):
    parser = lexpy.Parser()
    for i in range(0, len(data), size):
        parser.feed(data[i:i + size])
    return parser.close()


def test_deep_nesting():
    depth = 100_000
    doc = lexpy.parse(limits.deep(depth))
    html = doc.to_html()
    assert html.count("<div>") == depth and html.count("</div>") == depth
    copy = doc.document_element.clone_node(True)
    assert copy.to_html() == doc.document_element.to_html()
    # (not dump: its output for a tree this deep is 10 GB, see below)
    assert chunked(html, 4096).to_html() == html
    node, seen = doc.body, 0
    while node.first_child is not None:
        node = node.first_child
        seen += 1
    assert seen == depth
    del doc, copy, node                  # freeing is iterative too


@pytest.mark.parametrize("markup", [
    "<svg>" + "<g>" * 50_000, "<math>" + "<mrow>" * 50_000, "<template>" * 50_000,
    "<table><tr><td>" * 20_000, "<b>" * 50_000, "<span>" * 50_000 + "</span>" * 50_000,
    "<a><p>" * 25_000, "<select><option>" * 25_000, "<object>" * 50_000,
])
def test_deep_shapes_serialize_and_parse_back(markup):
    doc = lexpy.parse(markup)
    again = lexpy.parse(doc.to_html())
    assert again.to_html() == doc.to_html()


def test_dump_of_a_deep_tree():
    """The dump indents by depth (its size grows as depth squared), so it
    is checked at a depth of a few thousand."""
    doc = lexpy.parse(limits.deep(limits.DUMP_DEPTH))
    lines = lexpy.dump(doc).split("\n")
    assert len(lines) == limits.DUMP_DEPTH + 3
    assert lines[-1] == "| " + "  " * (limits.DUMP_DEPTH + 1) + "<div>"


def test_many_attributes():
    count = 100_000
    doc = lexpy.parse(limits.many_attributes(count))
    element = doc.body.first_child
    assert len(element.attributes) == count
    assert element.get_attribute("a99999") == "99999"
    again = lexpy.parse(doc.to_html())
    assert len(again.body.first_child.attributes) == count


def test_many_duplicate_attributes():
    doc = lexpy.parse("<p " + "a=1 " * 100_000 + "b=2>")
    assert dict(doc.body.first_child.attributes) == {"a": "1", "b": "2"}


def test_huge_text_node():
    size = 10_000_000
    doc = lexpy.parse(limits.text_node(size))
    assert len(doc.body.text_content) == size // 5 * 5
    assert lexpy.dump(chunked(limits.text_node(size).encode(), 1 << 16)) == lexpy.dump(doc)


@pytest.mark.parametrize("markup", [
    '<p title="' + "x" * 10_000_000 + '">', "<!--" + "x" * 10_000_000 + "-->",
    "<!--" + "x" * 10_000_000, "<script>" + "x<" * 5_000_000,
    "<" + "a" * 10_000_000 + ">", "<!DOCTYPE " + "a" * 10_000_000,
    "<svg><![CDATA[" + "x" * 10_000_000, "<?" + "x" * 10_000_000,
    "<textarea>" + "&amp;" * 2_000_000, "<p>" + "\x00\r" * 5_000_000,
])
def test_huge_tokens_whole_and_in_chunks(markup):
    doc = lexpy.parse(markup)
    assert lexpy.dump(chunked(markup, 1 << 16)) == lexpy.dump(doc)
    doc.to_html()


def test_a_big_document():
    data = limits.document(10_000_000).encode()
    doc = lexpy.parse(data)
    assert len(doc.body.children) > 40_000
    assert lexpy.dump(chunked(data, 1 << 16)) == lexpy.dump(doc)
