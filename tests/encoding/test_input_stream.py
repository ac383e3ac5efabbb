"""The input byte stream the parser driver feeds (encoding.pxd): sniffing
waits for up to 1024 bytes (or the end), a BOM or a sequence split between
chunks is still one, and changing the encoding switches on the fly or asks
for a re-parse whose output is the whole input decoded again."""
import pytest
from hypothesis import given, settings, strategies as st

import lexpy.encoding as enc
from lexpy.encoding.encoding import _InputByteStream

KOI8 = "<p>\u041f\u0440\u0438\u0432\u0435\u0442</p>".encode("koi8-r")


def run(data, cuts, *args):
    stream = _InputByteStream(*args)
    out, start = [], 0
    for cut in cuts:
        out.append(stream.feed(data[start:cut]))
        start = cut
    out.append(stream.feed(data[start:]))
    out.append(stream.finish())
    return stream, b"".join(out)


def test_sniffing_waits_for_1024_bytes():
    stream = _InputByteStream()
    assert stream.feed(b"<p>" + b"x" * 500) == b""
    assert stream.feed(b"y" * 520) == b""                 # 1023 bytes
    assert stream.feed(b"z") == b"<p>" + b"x" * 500 + b"y" * 520 + b"z"
    assert (stream.encoding.name, stream.confidence) == ("windows-1252", "tentative")
    assert stream.feed(b"\xe9") == "\u00e9".encode("utf-8")


def test_or_for_the_end_of_the_input():
    stream = _InputByteStream()
    assert stream.feed(b"<p>caf\xe9") == b""
    assert stream.finish() == "<p>caf\u00e9".encode("utf-8")
    assert stream.finish() == b""


def test_the_sniffing_runs_once_per_chunk_that_waits():
    # A chunk that leaves the sniffing undecided is sniffed once (not again
    # as the held bytes), and the end of the input takes that outcome.
    stream = _InputByteStream(keep_input=False)
    assert stream.feed(b"<p>caf\xe9") == b""
    assert stream.sniff_runs == 1
    assert stream.finish() == "<p>caf\u00e9".encode("utf-8")
    assert stream.sniff_runs == 1
    assert (stream.encoding.name, stream.confidence) == ("windows-1252", "tentative")
    # A later chunk: the held bytes are sniffed again (the outcome waiting
    # from the first chunk no longer holds for them).
    stream = _InputByteStream(keep_input=False)
    assert stream.feed(b"<p>caf\xe9") == b""
    assert stream.feed(b"<p>") == b""
    assert stream.sniff_runs == 2
    assert stream.finish() == "<p>caf\u00e9<p>".encode("utf-8")
    assert stream.sniff_runs == 2
    stream = _InputByteStream(keep_input=False)
    assert stream.feed(b"<p>caf\xe9") == b""
    assert stream.feed(b"<meta charset=koi8-r>") == "<p>caf\u0418<meta charset=koi8-r>".encode("utf-8")
    assert stream.sniff_runs == 2
    assert stream.finish() == b""
    assert (stream.encoding.name, stream.confidence) == ("KOI8-R", "tentative")
    # The whole input at once, as parse(bytes) gives it.
    stream = _InputByteStream(keep_input=False)
    assert stream.feed_whole(b"<meta charset=koi8-r><p>caf\xe9") == \
        len("<meta charset=koi8-r><p>caf\u0418".encode("utf-8"))
    assert stream.sniff_runs == 1
    stream = _InputByteStream(keep_input=False)
    assert stream.feed_whole(b"") == 0
    assert stream.sniff_runs == 1


def test_a_complete_meta_decides_at_once():
    stream = _InputByteStream()
    assert stream.feed(b"<meta charset=koi8-r") == b""
    assert stream.feed(b">" + KOI8) == b"<meta charset=koi8-r>" + KOI8.decode("koi8-r").encode("utf-8")
    assert (stream.encoding.name, stream.confidence) == ("KOI8-R", "tentative")


def test_the_transport_encoding_waits_only_for_a_bom():
    stream = _InputByteStream("koi8-r")
    assert stream.feed(b"\xef") == b""
    assert stream.feed(b"\xbb") == b""
    assert stream.feed(b"\xbfok") == b"ok"
    assert (stream.encoding.name, stream.confidence) == ("UTF-8", "certain")
    stream = _InputByteStream("koi8-r")
    assert stream.feed(b"\xf0\xf2") == "\u041f\u0420".encode("utf-8")
    assert (stream.encoding.name, stream.confidence) == ("KOI8-R", "certain")


def test_empty_and_bom_only_input():
    stream, out = run(b"", [])
    assert out == b"" and stream.encoding.name == "windows-1252"
    stream, out = run(b"\xef\xbb\xbf", [1, 2])
    assert out == b"" and (stream.encoding.name, stream.confidence) == ("UTF-8", "certain")
    stream, out = run(b"\xfe\xff", [1])
    assert out == b"" and stream.encoding.name == "UTF-16BE"
    stream, out = run(b"\xfe\xff\xd8", [1])
    assert out == "\ufffd".encode("utf-8")


DOCUMENTS = [
    b"\xef\xbb\xbf<p>\xc3\xa9\xe2\x82\xac</p>",
    b"\xff\xfe<\x00p\x00>\x00\x3d\xd8\x00\xde",
    b"<meta charset=shift_jis><p>\x82\xa0\x82\xa2\x82",
    b"<!-- x --><meta http-equiv=content-type content='text/html;charset=euc-kr'>\xb0\xa1",
    b"<p>" + b"\xe9" * 1100 + b"<meta charset=koi8-r>",
    b'<?xml version="1.0" encoding="big5"?><p>\xa4\x40',
    b"<meta charset=utf-8>\xf0\x9f\x98\x80\xf0\x9f",
    b"",
]


@pytest.mark.parametrize("data", DOCUMENTS)
def test_any_chunking_gives_what_the_whole_input_gives(data):
    sniffed = enc.sniff(data)
    whole = enc.decode(data, sniffed.encoding).encode("utf-8")
    for cut in range(len(data) + 1):
        stream, out = run(data, [cut])
        assert out == whole, cut
        assert stream.encoding is sniffed.encoding
    stream, out = run(data, list(range(len(data))))
    assert out == whole


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(DOCUMENTS), st.lists(st.integers(0, 1200), max_size=6),
       st.sampled_from([None, "koi8-r", "utf-16be"]))
def test_random_chunkings(data, cuts, transport):
    cuts = sorted(min(c, len(data)) for c in cuts)
    sniffed = enc.sniff(data, transport)
    stream, out = run(data, cuts, transport)
    assert out == enc.decode(data, sniffed.encoding).encode("utf-8")
    assert stream.encoding is sniffed.encoding
    assert stream.confidence == sniffed.confidence


def test_change_to_the_same_encoding_makes_the_confidence_certain():
    stream = _InputByteStream()
    stream.feed(b"<meta charset=koi8-r>" + b" " * 1100)
    assert stream.change_encoding("koi8-r") == "kept"
    assert stream.confidence == "certain"
    assert stream.change_encoding("utf-8") == "kept"      # certain: no more changes


def test_change_on_the_fly_when_everything_so_far_is_ascii():
    stream = _InputByteStream()
    head = b"<html><head>" + b" " * 1100 + b"<meta charset=koi8-r>"
    assert stream.feed(head) == head
    assert stream.change_encoding("koi8-r") == "switched"
    assert (stream.encoding.name, stream.confidence) == ("KOI8-R", "certain")
    assert stream.feed(KOI8) + stream.finish() == KOI8.decode("koi8-r").encode("utf-8")


def test_change_with_a_reparse():
    data = b"<p>\xf0\xf2" + b" " * 1100 + b"<meta charset=koi8-r><p>\xf0"
    stream = _InputByteStream()
    first = stream.feed(data[:600]) + stream.feed(data[600:])
    assert first.decode("utf-8") == data.decode("windows-1252")
    assert stream.change_encoding("koi8-r") == "reparse"
    assert (stream.encoding.name, stream.confidence) == ("KOI8-R", "certain")
    again = stream.restart()
    assert again + stream.feed(b"\xf2") + stream.finish() == (data + b"\xf2").decode("koi8-r").encode("utf-8")


def test_change_after_the_end_of_the_input():
    data = b"<p>\xf0" + b" " * 1100 + b"<meta charset=koi8-r>\xf0"
    stream, out = run(data, [10])
    assert stream.change_encoding("koi8-r") == "reparse"
    assert stream.restart() == data.decode("koi8-r").encode("utf-8")


def test_change_when_the_driver_keeps_the_input():
    data = b"<p>\xf0" + b" " * 1100 + b"<meta charset=koi8-r>"
    stream = _InputByteStream(keep_input=False)
    stream.feed(data)
    assert stream.change_encoding("koi8-r", data) == "reparse"
    assert stream.restart(data) == data.decode("koi8-r").encode("utf-8")
    stream = _InputByteStream(keep_input=False)
    stream.feed(data[:5].replace(b"\xf0", b"o") + data[5:])
    assert stream.change_encoding("koi8-r", data[:5].replace(b"\xf0", b"o") + data[5:]) == "switched"


def test_utf16_stays():
    stream = _InputByteStream()
    stream.feed(b"<\x00?\x00x\x00m\x00l\x00")
    assert stream.encoding.name == "UTF-16LE"
    assert stream.change_encoding("koi8-r") == "kept"
    assert stream.encoding.name == "UTF-16LE"


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=3000), st.booleans())
def test_feed_whole_counts_what_feed_and_finish_give(data, autodetect):
    stream = _InputByteStream(autodetect=autodetect)
    expected = len(stream.feed(data) + stream.finish())
    assert _InputByteStream(autodetect=autodetect).feed_whole(data) == expected
