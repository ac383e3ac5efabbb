"""What the bridges' tests share: the corpus pages, and lexpy's elements in
the bridges' model (a template's contents as its children), read through
lexpy's public API only."""
from __future__ import annotations

from typing import Iterator, List

from tests.conformance.data import corpus_dir

HTML = "http://www.w3.org/1999/xhtml"


def corpus_pages() -> List:
    pages = sorted(p for p in corpus_dir().iterdir() if p.is_file())
    assert pages, "no pages in %s" % corpus_dir()
    return pages


def bridge_elements(node) -> Iterator:
    """The descendant elements of node in tree order, a template's
    contents taken as its children (explicit stack, no recursion)."""
    stack = [iter(_children(node))]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            continue
        if child.node_type == 1:
            yield child
            stack.append(iter(_children(child)))


def _children(node):
    if node.node_type == 1 and node.local_name == "template" and node.namespace_uri == HTML:
        return node.content.child_nodes
    return node.child_nodes
