"""The fragment case takes no byte input: a <meta> re-parse would start a
new Document without the context element, and the fragment would be read
from a tree builder that is gone. lexpy.parse_fragment decodes bytes
before the tokenizer (no sniffing), so only TreeConstruction's own order
of calls can ask for it; both orders are refused."""
import pytest

import lexpy
from lexpy.treebuilder.treebuilder import NAMESPACES, TreeConstruction

META = b'<meta charset="windows-1252"><p>caf\xe9'


def test_byte_input_after_a_fragment_context_is_refused():
    construction = TreeConstruction(True, True, False)
    construction.set_fragment_context("div", NAMESPACES["html"])
    with pytest.raises(ValueError):
        construction.set_byte_input(-1, -1, False)


def test_a_fragment_context_after_byte_input_is_refused():
    construction = TreeConstruction(True, True, False)
    construction.set_byte_input(-1, -1, False)
    with pytest.raises(ValueError):
        construction.set_fragment_context("div", NAMESPACES["html"])
    # The document parse goes on, re-parse included.
    document = construction.parse_bytes(META)
    assert document.body.first_child.text_content == "caf\u00e9"


def test_fragments_from_bytes_still_parse():
    fragment = lexpy.parse_fragment(b"<td>x<b>y</b>", "tr")
    assert lexpy.dump(fragment) == '| <td>\n|   "x"\n|   <b>\n|     "y"'
