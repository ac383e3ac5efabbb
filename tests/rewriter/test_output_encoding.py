"""lexpy.rewriter.output_encoding.encode_inserted (issue 39 point 5): the
encoding of inserted content into the document's encoding, for every
encoding of ../shared/whatwg-encoding/encodings.json. Checked against the
Standard's own index files (single-byte encodings: exactly the index's
byte) and by reparsing: the bytes, read by lexpy.parse in that encoding,
give the characters inserted (references decoded in text and attribute
values); raw text, comments and names refuse what they cannot hold."""
import json
import re
from pathlib import Path

import pytest

import lexpy
from lexpy.encoding import encoding as enc
from lexpy.rewriter import RewriteError
from lexpy.rewriter.output_encoding import encode_inserted

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "whatwg-encoding"
ENCODINGS = [e["name"] for group in json.loads((SHARED / "encodings.json").read_text())
             for e in group["encodings"]]
SINGLE_BYTE = [e["name"] for group in json.loads((SHARED / "encodings.json").read_text())
               if group["heading"] == "Legacy single-byte encodings" for e in group["encodings"]]
SAMPLE = "caf\u00e9 \u00fc\u00df \u0416\u0438 \u03b1\u03b2 \u05d0 \u0627 \u0e01 " \
         "\u65e5\u672c\u8a9e \ud55c \u4e2d\u6587 \u20ac \u2603 \U0001F600 ~\\"


def test_the_data_is_there():
    assert len(ENCODINGS) == 40 and len(SINGLE_BYTE) == 28


def _index(name):
    path = SHARED / ("index-%s.txt" % name.lower())
    entries = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\s*(\d+)\s+0x([0-9A-Fa-f]+)", line)
        if match:
            entries.append((int(match.group(1)), chr(int(match.group(2), 16))))
    assert entries, path
    return entries


@pytest.mark.parametrize("name", [n for n in SINGLE_BYTE if n != "ISO-8859-8-I"])
def test_single_byte_encodings_write_the_index_s_bytes(name):
    for pointer, char in _index(name):
        assert encode_inserted(char, name) == bytes([pointer + 0x80]), (name, hex(ord(char)))


def _wrap(name, out_text):
    # "<p>" + content + "</p>" in the encoding
    return encode_inserted("<p>", name, "markup") + out_text + encode_inserted("</p>", name,
                                                                              "markup")


@pytest.mark.parametrize("name", [n for n in ENCODINGS if n != "replacement"])
def test_text_reparses_to_the_characters_inserted(name):
    out = encode_inserted(SAMPLE, name)
    doc = lexpy.parse(_wrap(name, out), encoding=name)
    assert doc.query_selector("p").text_content == SAMPLE
    if name == "UTF-8":
        assert out == SAMPLE.encode("utf-8")
    else:
        # what the encoding has is written as bytes, not references
        decoded = enc.decode(out, name, bom=False)
        assert "\ufffd" not in decoded
        for char in SAMPLE:
            if "&#%d;" % ord(char) not in decoded:
                assert char in decoded


@pytest.mark.parametrize("name", [n for n in ENCODINGS if n != "replacement"])
def test_markup_attribute_values_and_text_take_references(name):
    markup = '<a title="%s" data-x=%s>%s</a>' % (SAMPLE, "\u65e5\u20ac", SAMPLE)
    out = encode_inserted(markup, name, "markup")
    a = lexpy.parse(encode_inserted("<p>", name, "markup") + out, encoding=name) \
        .query_selector("a")
    assert a.get_attribute("title") == SAMPLE and a.text_content == SAMPLE
    assert a.get_attribute("data-x") == "\u65e5\u20ac"


@pytest.mark.parametrize("content,context", [
    ("\u65e5", "raw"),
    ("<script>x = '\u65e5'</script>", "markup"),
    ("<style>p::after { content: '\u65e5' }</style>", "markup"),
    ("<!--\u65e5-->", "markup"),
    ("<p\u65e5>x</p>", "markup"),
    ('<p data-\u65e5="x">', "markup"),
])
def test_what_references_cannot_express_is_refused(content, context):
    with pytest.raises(RewriteError, match="U\\+65E5"):
        encode_inserted(content, "windows-1252", context)
    # (in an encoding that has the character, it is written)
    assert encode_inserted(content, "Shift_JIS", context).decode("cp932") == content


def test_text_after_a_raw_text_element_takes_references_again():
    out = encode_inserted("<script>x()</script>\u65e5", "windows-1252", "markup")
    assert out == b"<script>x()</script>&#26085;"


@pytest.mark.parametrize("char", ["\u0080", "\u009f", "\ud800"])
def test_references_that_read_as_another_character_are_refused(char):
    with pytest.raises(RewriteError, match="another character"):
        encode_inserted("a" + char, "Shift_JIS" if char == "\ud800" else "ISO-2022-JP")


def test_c1_controls_the_encoding_has_are_written():
    # windows-1252 maps 0x81 to U+0081 (no reference needed); &#129; would
    # also be U+0081, but &#128; would be U+20AC.
    assert encode_inserted("\u0081\u20ac", "windows-1252") == b"\x81\x80"


def test_iso_2022_jp_output_ends_in_ascii():
    out = encode_inserted("\u65e5\u672c", "ISO-2022-JP")
    assert out.startswith(b"\x1b$B") and out.endswith(b"\x1b(B")
    assert enc.decode(out + b"x", "ISO-2022-JP") == "\u65e5\u672cx"


def test_replacement_has_no_output_and_bad_arguments():
    with pytest.raises(RewriteError, match="replacement"):
        encode_inserted("\u00e9", "replacement")
    with pytest.raises(ValueError, match="context"):
        encode_inserted("x", "utf-8", "attribute")
    with pytest.raises(TypeError):
        encode_inserted(b"x", "utf-8")
    with pytest.raises(LookupError):
        encode_inserted("x", "no-such-encoding")
