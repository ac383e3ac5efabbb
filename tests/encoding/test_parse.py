"""The encoding stage wired into the parser: documents in every
encoding of the standard, declared by <meta charset>, by http-equiv, by the
caller, by a BOM and only after the first 1024 bytes, through lexpy.parse()
and lexpy.Parser.feed() in chunks of several sizes: doc.encoding and the
text are checked. Then the limits: a split BOM, split multi-byte sequences,
Parser waiting for 1024 bytes, and the re-parse window that bounds what a
tentative encoding keeps."""
import pytest

import lexpy
import lexpy.encoding as enc
from lexpy.parser import REPARSE_WINDOW
from tests import encoding_reference as ref

CHUNKS = [None, 1, 7, 300]


def sample(name):
    """(bytes, text): some of the encoding's own characters, from its index."""
    if name in ("UTF-8", "UTF-16LE", "UTF-16BE"):
        text = "caf\u00e9 \u65e5\u672c \U0001f600 \u20ac"
        return text.encode({"UTF-8": "utf-8", "UTF-16LE": "utf-16-le",
                            "UTF-16BE": "utf-16-be"}[name]), text
    if name == "x-user-defined":
        return b"a\x80\xff", "a\uf780\uf7ff"
    if name == "replacement":
        return b"x", "\ufffd"
    pairs = []
    heading = {n: h for n, _, h in ref.encodings()}[name]
    if heading == "Legacy single-byte encodings":
        table = ref.index("iso-8859-8" if name == "ISO-8859-8-I" else name.lower())
        pairs = [(bytes([0x80 + p]), chr(c)) for p, c in sorted(table.items())[::9]]
    elif name in ("gb18030", "GBK"):
        table = ref.index("gb18030")
        for p in range(0, 23940, 997):
            lead, trail = divmod(p, 190)
            pairs.append((bytes([lead + 0x81, trail + (0x40 if trail < 0x3F else 0x41)]),
                          chr(table[p])))
    elif name == "Big5":
        table = ref.index("big5")
        for p in sorted(table)[::811]:
            lead, trail = divmod(p, 157)
            pairs.append((bytes([lead + 0x81, trail + (0x40 if trail < 0x3F else 0x62)]),
                          chr(table[p])))
    elif name in ("EUC-JP", "ISO-2022-JP", "Shift_JIS"):
        table = ref.index("jis0208")
        for p in sorted(q for q in table if q < 8836)[::331]:
            lead, trail = divmod(p, 94)
            if name == "EUC-JP":
                sequence = bytes([lead + 0xA1, trail + 0xA1])
            elif name == "ISO-2022-JP":
                sequence = b"\x1b$B" + bytes([lead + 0x21, trail + 0x21]) + b"\x1b(B "
            else:
                lead, trail = divmod(p, 188)
                sequence = bytes([lead + (0x81 if lead < 0x1F else 0xC1),
                                  trail + (0x40 if trail < 0x3F else 0x41)])
            pairs.append((sequence, chr(table[p]) + (" " if name == "ISO-2022-JP" else "")))
    elif name == "EUC-KR":
        table = ref.index("euc-kr")
        for p in sorted(table)[::701]:
            lead, trail = divmod(p, 190)
            pairs.append((bytes([lead + 0x81, trail + 0x41]), chr(table[p])))
    assert pairs, name
    return b"".join(b for b, _ in pairs), "".join(t for _, t in pairs)


def ascii_part(name, text):
    """ASCII markup in the document's encoding."""
    if name == "UTF-16LE":
        return text.encode("utf-16-le")
    if name == "UTF-16BE":
        return text.encode("utf-16-be")
    return text.encode("ascii")


ASCII_COMPATIBLE = [e.name for e in enc.ENCODINGS
                    if e.name not in ("UTF-16LE", "UTF-16BE", "replacement")]
# What a <meta> naming the encoding makes of it.
DECLARED_AS = {"x-user-defined": "windows-1252"}


def parsed(data, chunk=None, **options):
    """parse(data) when chunk is None, else Parser fed `chunk`-byte pieces
    (and both must agree)."""
    whole = lexpy.parse(data, **options)
    if chunk is None:
        return whole
    parser = lexpy.Parser(**options)
    for i in range(0, len(data), chunk):
        parser.feed(data[i:i + chunk])
    fed = parser.close()
    assert fed.encoding == whole.encoding
    assert lexpy.dump(fed) == lexpy.dump(whole)
    return fed


def paragraph_text(document):
    return document.get_elements_by_tag_name("p")[0].text_content


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("name", ASCII_COMPATIBLE)
def test_meta_charset(name, chunk):
    body, text = sample(name)
    data = ascii_part(name, "<!DOCTYPE html><meta charset=%s><title>t</title><p>" % name) + body
    document = parsed(data, chunk)
    assert document.encoding == DECLARED_AS.get(name, name)
    if document.encoding == name:
        assert paragraph_text(document) == text


@pytest.mark.parametrize("chunk", [None, 5])
@pytest.mark.parametrize("name", ASCII_COMPATIBLE)
def test_http_equiv(name, chunk):
    body, text = sample(name)
    head = "<head><meta http-equiv=Content-Type content='text/html; charset=%s'><p>" % name
    document = parsed(ascii_part(name, head) + body, chunk)
    assert document.encoding == DECLARED_AS.get(name, name)
    if document.encoding == name:
        assert paragraph_text(document) == text


@pytest.mark.parametrize("name", [e.name for e in enc.ENCODINGS])
def test_declared_by_the_caller(name):
    body, text = sample(name)
    # The caller's label wins over a <meta> that says otherwise.
    data = ascii_part(name, "<meta charset=koi8-r><p>") + body
    for chunk in (None, 3, 100):
        document = parsed(data, chunk, encoding=name)
        assert document.encoding == name
        if name != "replacement":
            assert paragraph_text(document) == text
        else:
            assert document.body.text_content == "\ufffd"


@pytest.mark.parametrize("name,bom,codec", [("UTF-8", b"\xef\xbb\xbf", "utf-8"),
                                            ("UTF-16LE", b"\xff\xfe", "utf-16-le"),
                                            ("UTF-16BE", b"\xfe\xff", "utf-16-be")])
def test_declared_by_a_bom(name, bom, codec):
    text = "caf\u00e9 \u65e5\u672c \U0001f600"
    data = bom + ("<meta charset=koi8-r><p>" + text).encode(codec)
    for transport in (None, "koi8-r"):
        for chunk in (None, 1, 2, 5):       # the BOM split, and every sequence
            document = parsed(data, chunk, encoding=transport)
            assert document.encoding == name
            assert paragraph_text(document) == text


@pytest.mark.parametrize("name", [n for n in ASCII_COMPATIBLE if n != "windows-1252"])
def test_declared_after_1024_bytes(name):
    body, text = sample(name)
    padding = "<!-- %s -->" % ("x" * 1100)
    expected = DECLARED_AS.get(name, name)
    # Text after the <meta>: ASCII so far, the decoder may switch on the fly.
    data = ascii_part(name, padding + "<meta charset=%s><p>" % name) + body
    for chunk in CHUNKS:
        document = parsed(data, chunk)
        assert document.encoding == expected
        if expected == name:
            assert paragraph_text(document) == text
    # Text before the <meta> (in <body>): the document is parsed again from
    # its first byte in the declared encoding.
    data = ascii_part(name, "<p>") + body + ascii_part(
        name, padding + "<meta charset=%s>" % name)
    for chunk in CHUNKS:
        document = parsed(data, chunk)
        assert document.encoding == expected
        if expected == name:
            assert paragraph_text(document) == text
            assert len(document.get_elements_by_tag_name("meta")) == 1


def test_only_the_first_meta_counts():
    data = b"<p>\xe9</p>" + b" " * 1100 + b"<meta charset=koi8-r><meta charset=utf-8>"
    for chunk in (None, 64):
        assert parsed(data, chunk).encoding == "KOI8-R"


def test_a_meta_naming_the_encoding_in_use_keeps_it():
    data = b"<p>\xe9</p>" + b" " * 1100 + b"<meta charset=latin1>"
    document = parsed(data, 100)
    assert document.encoding == "windows-1252" and paragraph_text(document) == "\u00e9"


def test_meta_in_foreign_content_and_templates():
    padding = b" " * 1100
    # <meta> breaks out of SVG, and inside <template> it is handled by the
    # "in head" rules too: both change the encoding.
    for markup in (b"<svg><meta charset=utf-8></svg>", b"<template><meta charset=utf-8></template>"):
        document = parsed(b"<p>\xc3\xa9</p>" + padding + markup, 50)
        assert document.encoding == "UTF-8"
        assert paragraph_text(document) == "\u00e9"


def test_undeclared_bytes_are_windows_1252_unless_a_default_is_given():
    # (Without autodetection: with it, these bytes are found to be UTF-8,
    # tests/encoding/test_autodetect.py.)
    data = "<p>caf\u00e9".encode("utf-8")
    assert paragraph_text(parsed(data, 2, detect_encoding=False)) == "caf\u00c3\u00a9"
    document = parsed(data, 2, default_encoding="utf-8", detect_encoding=False)
    assert document.encoding == "UTF-8" and paragraph_text(document) == "caf\u00e9"
    with pytest.raises(LookupError, match="nope"):
        lexpy.parse(data, default_encoding="nope")
    with pytest.raises(TypeError, match="default_encoding must be a str"):
        lexpy.Parser(default_encoding=1)


def test_str_input_is_utf8_and_ignores_declarations():
    document = lexpy.parse("<meta charset=koi8-r><p>\u00e9", encoding="shift_jis")
    assert document.encoding == "UTF-8" and paragraph_text(document) == "\u00e9"


def test_fragments_decode_utf8_or_the_callers_encoding():
    assert lexpy.parse_fragment(b"<b>\xc3\xa9</b>").to_html() == "<b>\u00e9</b>"
    assert lexpy.parse_fragment(b"<b>\xe9</b>", encoding="latin1").to_html() == "<b>\u00e9</b>"
    fragment = lexpy.parse_fragment(b"<meta charset=koi8-r>\xc3\xa9", "head")
    assert fragment.owner_document.encoding == "UTF-8"
    assert fragment.to_html() == '<meta charset="koi8-r">\u00e9'


def test_parser_waits_for_1024_bytes_before_deciding():
    parser = lexpy.Parser()
    parser.feed(b"<p>")
    parser.feed(b"x" * 500)
    assert parser.buffered_bytes == 503          # the sniffing algorithm waits
    parser.feed(b"x" * 600)                      # 1024 bytes: windows-1252
    assert parser.buffered_bytes >= 1103         # kept: the encoding is tentative
    assert lexpy.dump(parser.close()) == lexpy.dump(lexpy.parse(b"<p>" + b"x" * 1100))
    # A complete <meta> decides at once (the prescan, tentatively); then the
    # tree builder meets it, which makes the confidence certain: nothing is
    # kept any more.
    parser = lexpy.Parser()
    parser.feed(b"<meta charset=utf-8><p>")
    assert parser._construction.encoding == "UTF-8"
    assert parser._construction.confidence == "certain"
    assert parser.buffered_bytes == 0
    # A transport encoding waits only for a possible BOM.
    parser = lexpy.Parser(encoding="utf-8")
    parser.feed(b"<p>abc")
    assert parser.buffered_bytes == 0
    assert parser._construction.confidence == "certain"


def test_split_multibyte_sequences_and_boms():
    for codec, label in (("utf-8", "utf-8"), ("shift_jis", "shift_jis"),
                         ("euc-jp", "euc-jp"), ("gb18030", "gb18030"),
                         ("big5", "big5"), ("euc-kr", "euc-kr"),
                         ("utf-16-le", "utf-16le"), ("utf-16-be", "utf-16be")):
        text = "\u65e5\u672c a" * 50 if codec != "euc-kr" else "\ud55c\uad6d a" * 50
        if codec.startswith("utf"):
            text += "\u00e9\U0001f600" * 20
        data = ("<p>" + text).encode(codec)
        expected = paragraph_text(lexpy.parse(data, encoding=label))
        assert "\ufffd" not in expected
        for chunk in (1, 2, 3):
            assert paragraph_text(parsed(data, chunk, encoding=label)) == expected


def test_a_meta_past_the_reparse_window_is_not_honoured():
    # The same for parse() and Parser: past REPARSE_WINDOW bytes of the
    # document a <meta> no longer changes a tentative encoding, so the
    # parser need not keep the input so far. (Without autodetection, which
    # would find these bytes to be UTF-8 before any <meta>.)
    filler = b"<p>" + b"x" * (REPARSE_WINDOW + 10)
    late = b"<p>\xc3\xa9</p>" + filler + b"<meta charset=utf-8>"
    document = parsed(late, 65536, detect_encoding=False)
    assert document.encoding == "windows-1252"
    early = b"<p>\xc3\xa9</p>" + b"x" * 2000 + b"<meta charset=utf-8>" + filler
    document = parsed(early, 65536, detect_encoding=False)
    assert document.encoding == "UTF-8"
    assert paragraph_text(document) == "\u00e9"


def test_a_tentative_encoding_keeps_at_most_the_reparse_window():
    parser = lexpy.Parser()
    chunk = b"<p>" + b"lorem ipsum \xe9 " * 4096
    most = 0
    fed = 0
    while fed < 16 * REPARSE_WINDOW:
        parser.feed(chunk)
        fed += len(chunk)
        most = max(most, parser.buffered_bytes)
        if fed > 2 * REPARSE_WINDOW:
            assert parser.buffered_bytes <= 64, parser.buffered_bytes
    assert most <= REPARSE_WINDOW + 2 * len(chunk)
    assert parser._construction.confidence == "certain"
    assert parser.close().encoding == "windows-1252"


from hypothesis import given, settings, strategies as st  # noqa: E402

PIECES = [b"<p>", b"</p>", b"\xe9", b"\xc3\xa9", b"\x82\xa0", b"\xa4\xa2", b"\xe6\x97\xa5",
          b"<meta charset=utf-8>", b"<meta charset=shift_jis>", b"<meta charset=koi8-r>",
          b"<meta charset=bogus>", b"<meta http-equiv=content-type content='text/html;charset=euc-jp'>",
          b"<svg><meta charset=big5></svg>", b"<template><meta charset=gbk></template>",
          b"<!-- x -->", b"<script>a<b</script>", b"\r\n", b"&amp;", b"x" * 300]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30),
       st.sampled_from([b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"]),
       st.sampled_from([None, "utf-8", "windows-1251"]),
       st.lists(st.integers(1, 700), min_size=1, max_size=10))
def test_any_document_fed_in_any_chunks_gives_the_whole_parse(pieces, bom, transport, sizes):
    data = bom + b"".join(pieces)
    whole = lexpy.parse(data, encoding=transport)
    parser = lexpy.Parser(encoding=transport)
    parser.feed(b"")                # bytes, even when there are none
    i = k = 0
    while i < len(data):
        parser.feed(data[i:i + sizes[k % len(sizes)]])
        i += sizes[k % len(sizes)]
        k += 1
    fed = parser.close()
    assert fed.encoding == whole.encoding
    assert lexpy.dump(fed) == lexpy.dump(whole)


def test_meta_charset_utf16_means_utf8():
    # A <meta> naming UTF-16 in bytes that are not UTF-16 means UTF-8.
    document = parsed("<meta charset=utf-16><p>caf\u00e9".encode("utf-8"), 3)
    assert document.encoding == "UTF-8" and paragraph_text(document) == "caf\u00e9"
