"""A streaming document's allocation (lexpy/dom/arena.pxi: every element
and character-data node one block, given back whole by size class when
freed; pieces outside a block given back by the sizes the node records):
what a streaming parse frees serves what it makes next, and no two live
regions overlap (the values the tree builder packs into an element's block
are never handed back on their own)."""
import pytest

from lexpy.dom import Document
from tests.helpers import require_test_build

_testing = require_test_build("lexpy.dom._testing")


def test_freed_nodes_serve_the_next_and_nothing_overlaps():
    reserved = _testing.streaming_cycles(Document(), 40, 500)
    # (The first rounds fill the size classes; from then on each round's
    # nodes come from what the round before freed.)
    assert reserved[-1] == reserved[5], reserved
    assert reserved[5] < 2 * reserved[0]


def test_a_document_with_nodes_cannot_become_streaming():
    doc = Document()
    doc.append_child(doc.create_element("html"))
    with pytest.raises(ValueError, match="has nodes"):
        _testing.streaming_cycles(doc, 1, 1)
