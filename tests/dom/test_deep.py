"""Nothing recursive over depth: a tree 1,000,000 deep, built through the
API, serializes, clones, walks and frees under the default recursion limit
(and the default C stack)."""
import gc
import sys

import pytest

import lexpy
from lexpy.dom import Document

DEPTH = 1_000_000


@pytest.fixture(scope="module")
def deep():
    assert sys.getrecursionlimit() <= 10_000
    doc = Document()
    node = doc.append_child(doc.create_element("div"))
    root = node
    for _ in range(DEPTH - 1):
        node = node.append_child(doc.create_element("div"))
    node.append_child(doc.create_text_node("leaf & <end>"))
    return doc, root, node


def test_deep_tree_serializes(deep):
    doc, root, leaf = deep
    html = doc.to_html()
    assert len(html) == DEPTH * len("<div></div>") + len("leaf &amp; &lt;end&gt;")
    assert html.startswith("<div><div>") and html.endswith("</div></div>")
    assert "leaf &amp; &lt;end&gt;" in html
    assert leaf.outer_html == "<div>leaf &amp; &lt;end&gt;</div>"


def test_deep_tree_text_and_walks(deep):
    doc, root, leaf = deep
    assert root.text_content == "leaf & <end>"
    assert root.contains(leaf)
    count = 0
    for _ in root.descendants():
        count += 1
    assert count == DEPTH          # DEPTH - 1 elements below root + the text


def test_deep_tree_clones(deep):
    doc, root, leaf = deep
    copy = root.clone_node(deep=True)
    assert copy.text_content == "leaf & <end>"
    assert len(copy.outer_html) == len(root.outer_html)
    del copy
    gc.collect()


def test_deep_tree_moves_to_another_document(deep):
    doc, root, leaf = deep
    other = Document()
    other.append_child(root)           # adoption copies iteratively
    assert leaf.owner_document is other
    assert root.owner_document is other
    assert other.to_html().endswith("leaf &amp; &lt;end&gt;" + "</div>" * DEPTH)
    doc.append_child(root)             # and back
    assert leaf.owner_document is doc


def test_deep_tree_dump():
    # The dump indents two spaces per level, so its size grows with the
    # square of the depth: 10**12 bytes at a million levels. 5,000 levels
    # (25 MB of output) is far past the recursion limit.
    depth = 5_000
    doc = Document()
    node = doc
    for _ in range(depth):
        node = node.append_child(doc.create_element("b"))
    lines = lexpy.dump(doc).split("\n")
    assert len(lines) == depth
    assert lines[-1] == "| " + "  " * (depth - 1) + "<b>"


def test_deep_tree_frees():
    doc = Document()
    node = doc.append_child(doc.create_element("div"))
    for _ in range(DEPTH - 1):
        node = node.append_child(doc.create_element("div"))
    del doc
    gc.collect()
    assert node.parent.local_name == "div"
    del node                       # the last proxy: the arena goes in one step
    gc.collect()


def test_deep_detached_tree_reclaims_iteratively():
    doc = Document()
    holder = doc.append_child(doc.create_element("div"))
    top = holder.append_child(doc.create_element("div"))
    node = top
    for _ in range(200_000):
        node = node.append_child(doc.create_element("i"))
    del node
    top.remove()
    del top                        # reclaims 200,001 nodes, without recursion
    gc.collect()
    assert holder.child_nodes == []
