"""Determining the character encoding
(https://html.spec.whatwg.org/multipage/parsing.html#determining-the-character-encoding):
BOM, transport label, the <meta> prescan with "get an attribute", "get an
XML encoding", the default, the confidence, and bad input."""
import pytest
from hypothesis import given, settings, strategies as st

import lexpy.encoding as enc
from lexpy.encoding.encoding import _sniff


def sniffed(data, *args, **kwargs):
    result = enc.sniff(data, *args, **kwargs)
    return result.encoding.name, result.confidence, result.bom_length


# --- BOM, transport, default ------------------------------------------------

@pytest.mark.parametrize("data,name,length", [
    (b"\xef\xbb\xbf<meta charset=koi8-r>", "UTF-8", 3),
    (b"\xfe\xff\x00<", "UTF-16BE", 2),
    (b"\xff\xfe<\x00", "UTF-16LE", 2),
    (b"\xef\xbb\xbf", "UTF-8", 3),            # BOM only
    (b"\xff\xfe", "UTF-16LE", 2),
])
def test_a_bom_wins_over_everything(data, name, length):
    assert sniffed(data) == (name, "certain", length)
    assert sniffed(data, "shift_jis", "koi8-r") == (name, "certain", length)


def test_the_transport_label_comes_next():
    data = b"<meta charset=koi8-r>"
    assert sniffed(data, "Shift_JIS") == ("Shift_JIS", "certain", 0)
    assert sniffed(data, enc.lookup("big5")) == ("Big5", "certain", 0)
    assert sniffed(data, " LATIN1 ") == ("windows-1252", "certain", 0)
    # The transport layer may name UTF-16 or x-user-defined: used as given.
    assert sniffed(b"a", "utf-16") == ("UTF-16LE", "certain", 0)
    assert sniffed(b"a", "x-user-defined") == ("x-user-defined", "certain", 0)
    assert sniffed(b"a", "iso-2022-kr") == ("replacement", "certain", 0)


def test_unknown_labels_from_the_caller_raise():
    with pytest.raises(LookupError, match="utf-9"):
        enc.sniff(b"", "utf-9")
    with pytest.raises(LookupError, match="klingon"):
        enc.sniff(b"", None, "klingon")
    with pytest.raises(TypeError):
        enc.sniff("<meta charset=utf-8>")
    with pytest.raises(ValueError):
        enc.sniff(b"", prescan_limit=-1)


def test_default_and_fallback():
    assert sniffed(b"") == ("windows-1252", "tentative", 0)
    assert sniffed(b"<p>plain</p>") == ("windows-1252", "tentative", 0)
    assert sniffed(b"<p>plain</p>", None, "utf-8") == ("UTF-8", "tentative", 0)
    # UTF-8 content without a declaration is not guessed (no autodetection).
    assert sniffed("<p>caf\u00e9</p>".encode("utf-8")) == ("windows-1252", "tentative", 0)


# --- The prescan ------------------------------------------------------------

@pytest.mark.parametrize("data,name", [
    (b"<meta charset=koi8-r>", "KOI8-R"),
    (b"<META CHARSET='KOI8-R'>", "KOI8-R"),
    (b'<meta charset="  koi8-r  ">', "KOI8-R"),
    (b"<meta/charset=koi8-r>", "KOI8-R"),
    (b"<meta\x0ccharset=koi8-r>", "KOI8-R"),
    (b"<meta charset=koi8-r/>", None),                     # the value is "koi8-r/"
    (b"<meta charset = koi8-r >", "KOI8-R"),
    (b"<meta charset=>", None),
    (b"<meta charset>", None),
    (b"<meta charset=koi8-r", None),                       # runs out of bytes
    (b"<meta charset='koi8-r'", None),
    (b"<metacharset=koi8-r>", None),
    (b"<meta-charset=koi8-r>", None),
    (b"<meta charset=bogus><meta charset=koi8-r>", "KOI8-R"),
    (b"<meta charset=koi8-r charset=koi8-u>", "KOI8-R"),   # a repeated name is skipped
    (b"<meta charset=koi8-r><meta charset=koi8-u>", "KOI8-R"),
    (b"<meta charset=utf-16le>", "UTF-8"),
    (b"<meta charset=utf-16be>", "UTF-8"),
    (b"<meta charset=unicode>", "UTF-8"),
    (b"<meta charset=x-user-defined>", "windows-1252"),
    (b"<meta charset=iso-2022-kr>", "replacement"),
    (b'<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">', "KOI8-R"),
    (b'<meta content="text/html; charset=koi8-r" http-equiv="content-type">', "KOI8-R"),
    (b'<meta http-equiv=CONTENT-TYPE content="charset=koi8-r">', "KOI8-R"),
    (b'<meta content="text/html; charset=koi8-r">', None),             # no pragma
    (b'<meta http-equiv="refresh" content="text/html; charset=koi8-r">', None),
    (b'<meta http-equiv="Content-Type" content="text/html">', None),
    (b'<meta http-equiv="Content-Type" content="text/html; charset=bogus">', None),
    # charset wins over content, whichever comes first
    (b'<meta content="charset=koi8-u" http-equiv=content-type charset=koi8-r>', "KOI8-R"),
    (b'<meta charset=koi8-r content="charset=koi8-u" http-equiv=content-type>', "KOI8-R"),
    # a charset that is not a label is failure, and content cannot replace it
    (b'<meta charset=bogus content="charset=koi8-u" http-equiv=content-type>', None),
    (b'<meta content="charset=koi8-u" charset=bogus http-equiv=content-type>', None),
    # comments, other tags, end tags, bogus markup
    (b"<!-- <meta charset=koi8-u> --><meta charset=koi8-r>", "KOI8-R"),
    (b"<!--><meta charset=koi8-r>", "KOI8-R"),
    (b"<!---><meta charset=koi8-r>", "KOI8-R"),
    (b"<!-- -- <meta charset=koi8-u>", None),
    (b"<p title='<meta charset=koi8-u>'><meta charset=koi8-r>", "KOI8-R"),
    (b"<p title=\"<meta charset=koi8-u>\"", None),
    (b"</p foo='<meta charset=koi8-u>'><meta charset=koi8-r>", "KOI8-R"),
    (b"<!DOCTYPE html><meta charset=koi8-r>", "KOI8-R"),
    # '<?' skips to the first '>', here the one closing the quoted <meta>
    (b"<?php echo '<meta charset=koi8-u>' ?><meta charset=koi8-r>", "KOI8-R"),
    (b"<! <meta charset=koi8-u>", None),
    (b"</ <meta charset=koi8-r>", None),
    (b"<1 <meta charset=koi8-r>", "KOI8-R"),
    (b"<script>var s='<meta charset=koi8-r>'</script>", "KOI8-R"),
    (b"<", None),
    (b"<!", None),
    (b"<meta", None),
    # XML declarations: only when the prescan runs out without a <meta>.
    (b'<?xml version="1.0" encoding="koi8-r"?><p>', "KOI8-R"),
    (b"<?xml version='1.0' encoding = 'koi8-r'?>", "KOI8-R"),
    (b'<?xml encoding="utf-16"?>', "UTF-8"),
    (b'<?xml encoding="x-user-defined"?>', "x-user-defined"),
    (b'<?xml version="1.0" encoding="koi8-r"?><meta charset=koi8-u>', "KOI8-U"),
    (b' <?xml encoding="koi8-r"?>', None),
    (b'<?xml encoding="koi8-r"', None),                     # no '>'
    (b'<?xml encoding=koi8-r?>', None),
    (b'<?xml encoding="koi8 r"?>', None),
    (b'<?XML encoding="koi8-r"?>', None),
    (b'<?xml version="1.0"?><x encoding="koi8-r">', None),
    # UTF-16 XML declarations
    (b"<\x00?\x00x\x00m\x00l\x00", "UTF-16LE"),
    (b"\x00<\x00?\x00x\x00m\x00l", "UTF-16BE"),
])
def test_prescan(data, name):
    found = enc.prescan(data)
    assert (found.name if found else None) == name
    expected = (name or "windows-1252", "tentative", 0)
    assert sniffed(data) == expected


def test_the_prescan_lowercases_nothing_it_should_not():
    # "get an attribute" lowercases only A-Z; labels compare case-insensitively.
    assert enc.prescan(b"<meta CharSet=Windows-1251>").name == "windows-1251"


def test_get_an_attribute_steps():
    # '=' first in a name belongs to the name; '/' ends a name.
    assert enc.prescan(b"<meta ==x charset=koi8-r>").name == "KOI8-R"
    assert enc.prescan(b"<meta x/charset=koi8-r>").name == "KOI8-R"
    assert enc.prescan(b"<meta charset\t\n=\t\nkoi8-r>").name == "KOI8-R"
    assert enc.prescan(b"<meta x= charset=koi8-r>") is None      # x="charset=koi8-r"
    assert enc.prescan(b"<meta x=> charset=koi8-r>") is None
    assert enc.prescan(b'<meta x="a>b" charset=koi8-r>').name == "KOI8-R"


def test_meta_in_the_first_1024_bytes_only():
    meta = b"<meta charset=koi8-r>"
    for padding in (0, 1024 - len(meta) - 1, 1024 - len(meta)):
        assert sniffed(b" " * padding + meta)[0] == "KOI8-R", padding
    for padding in (1024 - len(meta) + 1, 1024, 5000):
        assert sniffed(b" " * padding + meta)[0] == "windows-1252", padding
        assert sniffed(b" " * padding + meta, prescan_limit=None)[0] == "KOI8-R"
    assert sniffed(meta, prescan_limit=0)[0] == "windows-1252"
    assert sniffed(b" " * 3000 + meta, prescan_limit=4096)[0] == "KOI8-R"


def test_the_encoding_suite_1024_byte_boundary_cases():
    # A comment that the 1024-byte window cuts: the prescan runs out.
    data = b"<!-- " + b"x" * 1100 + b" -->\n<meta charset=koi8-r>"
    assert sniffed(data) == ("windows-1252", "tentative", 0)


@pytest.mark.parametrize("label", [b"", b"   ", b"utf-88", b"utf\x008", b"\xff\xfe", b"a\x00b",
                                   b"x" * 500, b"\"", b"'", "\u00e9".encode("utf-8")])
def test_garbage_labels_are_ignored(label):
    for data in (b"<meta charset=" + label + b">",
                 b'<meta charset="' + label + b'">',
                 b'<meta http-equiv=content-type content="charset=' + label + b'">'):
        assert sniffed(data) == ("windows-1252", "tentative", 0)


# --- The meta content extraction -------------------------------------------

@pytest.mark.parametrize("content,name", [
    ("text/html; charset=koi8-r", "KOI8-R"),
    ("text/html;charset=koi8-r;x", "KOI8-R"),
    ("CHARSET=KOI8-R", "KOI8-R"),
    ("charset = koi8-r", "KOI8-R"),
    ("charset=\"koi8-r\"", "KOI8-R"),
    ("charset='koi8-r'", "KOI8-R"),
    ("charset=' koi8-r '", "KOI8-R"),
    ("charset='koi8-r", None),               # an unmatched quote
    ("charset=\"koi8-r", None),
    ("charset=", None),
    ("charset", None),
    ("charsetcharset=koi8-r", "KOI8-R"),     # look again after the first "charset"
    ("charset:koi8-u; charset=koi8-r", "KOI8-R"),
    ("charset=koi8-r charset=koi8-u", "KOI8-R"),
    ("text/html", None),
    ("charset=bogus", None),
    ("charset=utf-16", "UTF-16LE"),          # the caller applies the UTF-16 rule
    ("", None),
])
def test_meta_content_encoding(content, name):
    found = enc.meta_content_encoding(content)
    assert (found.name if found else None) == name
    found = enc.meta_content_encoding(content.encode("ascii"))
    assert (found.name if found else None) == name


# --- Streaming: when the outcome is decided ---------------------------------

def test_decided_tells_a_streaming_caller_to_wait_or_not():
    assert _sniff(b"")[1] is False
    assert _sniff(b"\xef")[1] is False
    assert _sniff(b"\xef\xbb")[1] is False
    assert _sniff(b"\xef\xbb\xbf")[1] is True
    assert _sniff(b"\xfe\xff")[1] is True
    assert _sniff(b"<p>")[1] is False                    # the prescan may find more
    assert _sniff(b"<meta charset=koi8-r>")[1] is True   # a complete <meta> is final
    assert _sniff(b"<meta charset=koi8-r")[1] is False
    assert _sniff(b" " * 1023)[1] is False
    assert _sniff(b" " * 1024)[1] is True
    assert _sniff(b'<?xml encoding="koi8-r"?>')[1] is False  # a <meta> may still come
    assert _sniff(b"", "koi8-r")[1] is False             # a BOM may still come
    assert _sniff(b"\xef", "koi8-r")[1] is False
    assert _sniff(b"ab", "koi8-r")[1] is True
    assert _sniff(b"abc", "koi8-r")[1] is True


def test_prefixes_of_a_decided_outcome_agree_with_it():
    data = b"<!DOCTYPE html><html><head><meta charset=koi8-r><title>x</title>"
    final = enc.sniff(data)
    for cut in range(len(data) + 1):
        result, decided = _sniff(data[:cut])
        if decided:
            assert result == final, cut


# --- Bad input never raises -------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"<", b">", b"meta", b" ", b"charset", b"=", b"'", b'"',
                                 b"koi8-r", b"/", b"<!--", b"-->", b"http-equiv",
                                 b"content-type", b"content", b"<?xml", b"encoding",
                                 b"\x00", b"\xff", b"!", b"?", b";"]),
                max_size=30).map(b"".join))
def test_any_bytes_sniff_to_an_encoding(data):
    result = enc.sniff(data)
    assert isinstance(result.encoding, enc.Encoding)
    assert result.confidence in ("certain", "tentative")
    found = enc.prescan(data)
    if found is not None and found.name in ("UTF-16LE", "UTF-16BE"):
        assert data[:6] in (b"<\x00?\x00x\x00", b"\x00<\x00?\x00x")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes(data):
    enc.sniff(data)
    enc.prescan(data)
    enc.meta_content_encoding(data)


# --- Against a literal transcription of the prescan -------------------------

TOKENS = [b"<", b">", b"<meta", b"<META", b" ", b"\t", b"\n", b"/", b"=", b"'", b'"', b"-",
          b"charset", b"CHARSET", b"koi8-r", b"utf-16", b"x-user-defined", b"bogus",
          b"http-equiv", b"content-type", b"Content-Type", b"content", b"text/html;",
          b"<!--", b"-->", b"<!", b"</", b"<?", b"<p", b"</p", b"<?xml", b"encoding",
          b"a", b";", b"\x00", b"\xe9", b"<\x00?\x00x\x00", b"\x00<\x00?\x00x"]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=25).map(b"".join))
def test_prescan_is_the_standards(data):
    from tests import encoding_reference as ref
    found = enc.prescan(data)
    assert (found.name if found else None) == ref.prescan(data)
