"""The fragment case takes bytes only in a given encoding (certain: no
sniffing, no <meta> re-parse, which would start a new Document without the
context element and read the fragment from a tree builder that is gone);
lexpy.parse_fragment always gives one. Byte input without an encoding
after a fragment context, and a fragment context after byte input, are
refused."""
import pytest

import lexpy
from lexpy.driver.driver import NAMESPACES, TreeConstruction

META = b'<meta charset="windows-1252"><p>caf\xe9'


def test_byte_input_without_an_encoding_after_a_fragment_context_is_refused():
    construction = TreeConstruction(True, True, False)
    construction.set_fragment_context("div", NAMESPACES["html"])
    with pytest.raises(ValueError):
        construction.set_byte_input(-1, -1, False)


def test_a_meta_does_not_change_the_encoding_of_fragment_bytes():
    fragment = lexpy.parse_fragment(META, "div", encoding="utf-8")
    assert fragment.last_child.text_content == "caf\ufffd"


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
