"""Streaming decoding equals whole-input decoding for every split of the
input: a multi-byte sequence (or a byte order mark) split between chunks is
held back and completed by the next chunk; valid UTF-8 is not copied."""
import pytest
from hypothesis import given, settings, strategies as st

import lexpy.encoding as enc

FFFD = "\ufffd"

# Representative inputs: text of the encoding with multi-byte sequences,
# invalid sequences, truncation at the end.
SAMPLES = {
    "UTF-8": b"a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xed\xa0\x80\xf0\x9f\x98<\xe2\x82",
    "windows-1252": b"caf\xe9 \x80\x81 <p>",
    "ISO-8859-3": b"\xa5\xa1a",
    "gb18030": b"\xc4\xe3\xba\xc3\x81\x30\x81\x30\x90\x30\x81\x30\x81\x30\x22\x80\xff\x81",
    "GBK": b"\xc4\xe3\xba\xc3\x81\x30\x81\x22<b>\x81\x30",
    "Big5": b"\xa4\x40\x88\x62\xa4\x22\x87\x40\xa4",
    "EUC-JP": b"\xb0\xa1\x8e\xa1\x8f\xb0\xa1\x8f\xa1\x22\x8e\xe0\xa1",
    "ISO-2022-JP": b"a\x1b$B\x30\x21\x1b(I\x21\x1b(J\\\x1b(B\x1b(Bx\x1b$\x1b",
    "Shift_JIS": b"\x82\xa0\x82\x22\xf0\x40\xa1\x80\x81",
    "EUC-KR": b"\xb0\xa1\xb0\x22\xff\xb0",
    "UTF-16LE": b"a\x00\x3d\xd8\x00\xde\x00\xd8A\x00\x00\xdc\x3d",
    "UTF-16BE": b"\x00a\xd8\x3d\xde\x00\xd8\x00\x00A\xdc\x00\x00",
    "x-user-defined": b"a\x80\xff",
    "replacement": b"abc",
}


def stream(data, name, cuts, bom=True):
    decoder = enc.Decoder(name, bom=bom)
    out = []
    start = 0
    for cut in cuts:
        out.append(decoder.decode(data[start:cut]))
        start = cut
    out.append(decoder.decode(data[start:], final=True))
    return b"".join(out).decode("utf-8")


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_split_point(name):
    data = SAMPLES[name]
    whole = enc.decode(data, name)
    for cut in range(len(data) + 1):
        assert stream(data, name, [cut]) == whole, "split at %d" % cut


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_pair_of_split_points_and_byte_by_byte(name):
    data = SAMPLES[name]
    whole = enc.decode(data, name)
    for first in range(len(data) + 1):
        for second in range(first, len(data) + 1):
            assert stream(data, name, [first, second]) == whole, (first, second)
    assert stream(data, name, list(range(len(data) + 1))) == whole


@pytest.mark.parametrize("name", [e.name for e in enc.ENCODINGS])
def test_random_chunkings(name):
    @settings(max_examples=60, deadline=None)
    @given(st.binary(max_size=60), st.lists(st.integers(0, 60), max_size=8),
           st.booleans())
    def check(data, cuts, bom):
        cuts = sorted(min(c, len(data)) for c in cuts)
        assert stream(data, name, cuts, bom) == enc.decode(data, name, bom=bom)
    check()


@pytest.mark.parametrize("bom,encoding,text", [
    (b"\xef\xbb\xbf", "UTF-8", "h\u00e9"),
    (b"\xfe\xff", "UTF-16BE", "h\u00e9"),
    (b"\xff\xfe", "UTF-16LE", "h\u00e9"),
])
def test_a_split_bom_is_still_a_bom(bom, encoding, text):
    data = bom + text.encode(encoding.lower().replace("-", "_").replace("utf_16", "utf-16-"))
    for cut in range(len(data) + 1):
        decoder = enc.Decoder("windows-1252")
        out = decoder.decode(data[:cut]) + decoder.decode(data[cut:], final=True)
        assert out.decode("utf-8") == text, cut
        assert decoder.encoding.name == encoding


def test_bom_handling_modes():
    assert enc.decode(b"\xef\xbb\xbfa", "windows-1252") == "a"
    assert enc.decode(b"\xef\xbb\xbfa", "windows-1252", bom=False) == "\u00ef\u00bb\u00bfa"
    assert enc.decode(b"\xef\xbb\xbf", "UTF-8") == ""
    assert enc.decode(b"\xef\xbb\xbf\xef\xbb\xbf", "UTF-8") == "\ufeff"
    assert enc.decode(b"\xff\xfeA\x00", "UTF-8") == "A"
    assert enc.decode(b"\xef\xbb", "UTF-8") == FFFD
    assert enc.decode(b"\xef", "windows-1252") == "\u00ef"
    assert enc.decode(b"\xfe", "UTF-16BE") == FFFD


def test_a_bom_prefix_waits_for_more_input():
    decoder = enc.Decoder("windows-1252")
    assert decoder.decode(b"\xef") == b""
    assert decoder.decode(b"") == b""
    assert decoder.decode(b"\xbb") == b""
    assert decoder.decode(b"x") == "\u00ef\u00bbx".encode("utf-8")
    assert decoder.encoding.name == "windows-1252"


def test_valid_utf8_is_not_copied():
    text = ("<p>caf\u00e9 \u20ac \U0001f600</p>" * 100).encode("utf-8")
    decoder = enc.Decoder("utf-8")
    assert decoder.decode(text[:6]) == text[:6] and decoder._in_place
    # A chunk that ends inside a sequence: the complete part is in place.
    cut = text.index("\u20ac".encode("utf-8")) + 1
    assert decoder.decode(text[6:cut]) == text[6:cut - 1] and decoder._in_place
    # The next chunk completes the held sequence: it is converted.
    assert decoder.decode(text[cut:cut + 40]) == text[cut - 1:cut + 40]
    assert not decoder._in_place
    assert decoder.decode(text[cut + 40:], final=True) == text[cut + 40:]
    assert decoder._in_place
    # Invalid input is converted.
    decoder = enc.Decoder("utf-8")
    assert decoder.decode(b"a\xffb", final=True) == "a\ufffdb".encode("utf-8")
    assert not decoder._in_place


def test_the_decoder_refuses_input_after_the_end():
    decoder = enc.Decoder("Shift_JIS")
    assert decoder.decode(b"\x82", final=True) == FFFD.encode("utf-8")
    with pytest.raises(ValueError):
        decoder.decode(b"a")


def test_bad_arguments():
    with pytest.raises(LookupError, match="nope"):
        enc.Decoder("nope")
    with pytest.raises(TypeError):
        enc.Decoder("utf-8").decode("text")
    with pytest.raises(TypeError):
        enc.decode(None, "utf-8")
    with pytest.raises(LookupError):
        enc.decode(b"", "utf-7")


def test_buffer_types():
    data = "\u00e9t\u00e9".encode("utf-8")
    for value in (data, bytearray(data), memoryview(data), memoryview(b"x" + data)[1:],
                  memoryview(data * 2)[::2]):
        assert enc.decode(value, "utf-8") == bytes(value).decode("utf-8", "replace")


def test_large_input_of_every_encoding():
    data = bytes(range(256)) * 4096       # 1 MiB
    for e in enc.ENCODINGS:
        text = enc.decode(data, e)
        assert isinstance(text, str) and text
